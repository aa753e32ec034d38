"""Issue 20 (leftovers): the review pages (score sheet and each of its pages, chart, summary, settle up),
the histories and the API summary answer with an ETag per (table revision, page, language, right to
record) and 304 to a client that holds it; any change to the table, another page or another language
gives 200 with the new bytes. A hand's own history is paginated like the table's."""
import uuid
from contextlib import contextmanager

import pytest

from companion import access, scoring
from web_helpers import GDY_PLAYERS

pytestmark = pytest.mark.db


class Night(str):
    """A table's public id; ``with night.table() as table`` changes it (in an app context of its own:
    the requests of the test client must not share one, or they would share ``g`` and the language)."""

    app = None

    @contextmanager
    def table(self):
        with self.app.app_context():
            yield scoring.get_table(self)

    @property
    def public_id(self):
        return str(self)


def _record(table, winner="Ann", cards=2):
    losers = {n: {"cards": cards} for n in table.player_names if n != winner}
    return scoring.record_hand(table, {"winner": winner, "losers": losers}, request_id=uuid.uuid4().hex)


def _paths(night):
    t = f"/t/{night}"
    return [f"{t}/sheet", f"{t}/chart", f"{t}/summary", f"{t}/settle", f"{t}/history", f"{t}/hands/1/history",
            f"/api/v1/tables/{night}/summary"]


def _get(client, path, etag=None):
    response = client.get(path, headers={"If-None-Match": etag} if etag else {})
    return response, response.get_data()


@pytest.fixture
def night(app):
    with app.app_context():
        table = scoring.create_table(game="gandengyan", name="Friday", players=GDY_PLAYERS, stake="0.5",
                                     currency="¥", first_dealer="Ann")
        _record(table, "Ann")
        _record(table, "Bo", cards=3)
        night = Night(table.public_id)
    night.app = app
    return night


def test_a_repeat_gets_304_with_no_body(client, night):
    for path in _paths(night):
        first, body = _get(client, path)
        etag = first.headers.get("ETag")
        assert first.status_code == 200 and etag and body, path
        assert first.headers["Cache-Control"] == "private, no-cache", path  # revalidated every time, never shared
        again, empty = _get(client, path, etag)
        assert again.status_code == 304 and empty == b"", path
        assert again.headers["ETag"] == etag
        assert "Set-Cookie" not in again.headers


@pytest.mark.parametrize("change", ["new hand", "void", "stake"])
def test_a_change_to_the_table_gives_200_and_a_new_etag(client, night, change):
    before = {path: _get(client, path) for path in _paths(night)}
    with night.table() as table:
        if change == "new hand":
            _record(table, "Cy", cards=4)
        elif change == "void":
            scoring.void_hand(table, 1, revision=scoring.get_hand(table, 1).revision)
        else:
            scoring.update_table(table, stake="3")
    for path, (first, body) in before.items():
        response, new_body = _get(client, path, first.headers["ETag"])
        assert response.status_code == 200 and new_body, (change, path)
        assert response.headers["ETag"] != first.headers["ETag"], (change, path)
        # a new stake counts from the next hand on (the pages look the same); a new hand is not in hand 1's history
        if change == "void" or (change == "new hand" and "/hands/1/" not in path):
            assert new_body != body, (change, path)


def test_the_stake_change_shows_in_the_money_of_the_next_hand(client, night):
    path = f"/api/v1/tables/{night.public_id}/summary"
    first, body = _get(client, path)
    with night.table() as table:
        scoring.update_table(table, stake="3")
        _record(table, "Cy")
    response, new_body = _get(client, path, first.headers["ETag"])
    assert response.status_code == 200 and new_body != body
    assert _get(client, path, response.headers["ETag"])[0].status_code == 304


def test_another_language_gets_200_and_its_own_bytes(client, night):
    for path in _paths(night):
        first, body = _get(client, path)
        response, zh_body = _get(client, path + "?lang=zh", first.headers["ETag"])
        assert response.status_code == 200 and response.headers["ETag"] != first.headers["ETag"], path
        if "/api/" not in path:
            assert zh_body != body and 'lang="zh"' in zh_body.decode(), path
        assert _get(client, path + "?lang=zh", response.headers["ETag"])[0].status_code == 304, path
        # the language is remembered in a cookie: the English ETag no longer matches without ?lang
        assert _get(client, path, first.headers["ETag"])[0].status_code == 200, path
        client.get("/?lang=en")


def test_the_page_number_is_in_the_key(app, client, night):
    app.config["SHEET_PER_PAGE"] = 1
    first, body = _get(client, f"/t/{night.public_id}/sheet")
    second, body2 = _get(client, f"/t/{night.public_id}/sheet?page=2", first.headers["ETag"])
    assert second.status_code == 200 and body2 != body and second.headers["ETag"] != first.headers["ETag"]
    assert _get(client, f"/t/{night.public_id}/sheet?page=2", second.headers["ETag"])[0].status_code == 304
    assert _get(client, f"/t/{night.public_id}/sheet?page=3", second.headers["ETag"])[0].status_code == 404


def test_the_right_to_record_is_in_the_key(client, app, night):
    viewer = app.test_client()
    with night.table() as table:
        key = access.edit_token(table)
    assert client.post(f"/t/{night}/join", data={"key": key}).status_code == 303
    client.get(f"/t/{night}")  # shows the join's message
    for path in _paths(night)[:-1]:
        seen, _body = _get(viewer, path)
        mine, _body = _get(client, path, seen.headers["ETag"])
        assert mine.status_code == 200 and mine.headers["ETag"] != seen.headers["ETag"], path


def test_a_waiting_message_is_shown_not_answered_304(client, night):
    path = f"/t/{night.public_id}/summary"
    etag = _get(client, path)[0].headers["ETag"]
    with client.session_transaction() as session:
        session["_flashes"] = [("message", "Undone: the last change to hand 2.")]
    response, body = _get(client, path, etag)
    assert response.status_code == 200 and b"Undone: the last change to hand 2." in body
    assert _get(client, path, etag)[0].status_code == 304  # shown once; the next visit is cached again


def test_a_hands_history_with_60_events_is_paginated(client, night):
    with night.table() as table:
        hand = scoring.get_hand(table, 1)
        for i in range(59):  # recorded + 59 voids and restores: 60 events
            change = scoring.void_hand if i % 2 == 0 else scoring.restore_hand
            hand = change(table, 1, revision=hand.revision)
    path = f"/t/{night.public_id}/hands/1/history"
    first = client.get(path).get_data(as_text=True)
    assert first.count('class="event ') == 50  # HISTORY_PER_PAGE
    assert f'href="{path}?page=2"' in first and 'rel="prev"' not in first
    assert 'class="event create"' not in first  # the oldest event is on the last page
    second = client.get(path + "?page=2").get_data(as_text=True)
    assert second.count('class="event ') == 10 and 'class="event create"' in second
    assert f'href="{path}?page=1"' in second and 'rel="next"' not in second  # back to page 1
    assert client.get(path + "?page=3").status_code == 404
    assert "Hand 2" not in first + second  # only this hand's events


def test_a_hands_history_page_is_cached_per_page(client, night):
    with night.table() as table:
        hand = scoring.get_hand(table, 1)
        for i in range(3):
            change = scoring.void_hand if i % 2 == 0 else scoring.restore_hand
            hand = change(table, 1, revision=hand.revision)
    client.application.config["HISTORY_PER_PAGE"] = 2
    path = f"/t/{night.public_id}/hands/1/history"
    first = client.get(path)
    second = client.get(path + "?page=2", headers={"If-None-Match": first.headers["ETag"]})
    assert second.status_code == 200 and second.get_data() != first.get_data()
    assert client.get(path + "?page=2", headers={"If-None-Match": second.headers["ETag"]}).status_code == 304
