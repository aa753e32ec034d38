"""Issue 20, the smaller list: CSV formula injection, Allow on 405, 415 for a non-JSON API body, deleted
tables hidden on /check, eager purge (CLI and on request) without orphaned people, the CSV content type,
Permissions-Policy, ETag/304 for exports."""
import uuid
from datetime import timedelta

import pytest
from sqlalchemy import func, select

from companion import review, scoring
from companion.scoring import housekeeping
from companion.extensions import db
from companion.db.models import Person, Player, Table, utcnow

pytestmark = pytest.mark.db


def _record(table, winner="Ann"):
    losers = {n: {"cards": 2} for n in table.player_names if n != winner}
    return scoring.record_hand(table, {"winner": winner, "losers": losers}, request_id=uuid.uuid4().hex)


@pytest.mark.parametrize("text, neutral", [
    ("=HYPERLINK(\"http://evil\")", True), ("+1+1", True), ("-2+3", True), ("@SUM(A1)", True),
    ("\tx", True), ("\rx", True),
    ("Ann", False), ("1+1", False), ("a=b", False), ("李@", False), ("", False)])
def test_csv_text_cells_never_start_a_formula(text, neutral):
    assert review.csv_text(text) == ("'" + text if neutral else text)


def test_a_player_named_like_a_formula_is_exported_inert(client, ctx):
    table = scoring.create_table(game="gandengyan", name="=cmd|' /C calc'!A0", players=["=HYPERLINK(1)", "Bo", "@x"],
                                 stake="1")
    _record(table, winner="Bo")
    response = client.get(f"/t/{table.public_id}/export.csv")
    assert response.status_code == 200
    assert response.headers["Content-Type"] == "text/csv; charset=utf-8"  # the charset named once
    rows = response.get_data().decode("utf-8-sig").splitlines()
    assert rows[1].startswith("1,counts,'=HYPERLINK(1),-2,-2,")  # the name inert; the number stays a number
    assert rows[3].startswith("1,counts,'@x,-2,")
    assert not any(cell.startswith(("=", "+", "@")) for row in rows for cell in row.split(","))


def test_exports_answer_304_for_the_same_revision_and_200_after_a_change(client, gdy):
    _record(gdy)
    for path in (f"/t/{gdy.public_id}/export.csv", f"/t/{gdy.public_id}/export.json",
                 f"/api/v1/tables/{gdy.public_id}/export"):
        first = client.get(path)
        first.get_data()
        etag = first.headers["ETag"]
        assert first.status_code == 200 and etag
        again = client.get(path, headers={"If-None-Match": etag})
        assert again.status_code == 304 and again.get_data() == b""
        _record(gdy, winner="Bo")
        changed = client.get(path, headers={"If-None-Match": etag})
        changed.get_data()
        assert changed.status_code == 200 and changed.headers["ETag"] != etag


def test_405_names_the_allowed_methods(client, gdy):
    response = client.delete(f"/t/{gdy.public_id}/history")
    assert response.status_code == 405
    assert set(response.headers["Allow"].replace(" ", "").split(",")) >= {"GET", "HEAD"}
    answer = client.put("/api/v1/tables")
    assert answer.status_code == 405 and "POST" in answer.headers["Allow"]


def test_the_api_refuses_a_body_that_is_not_json_with_415(client, ctx):
    body = '{"game": "gandengyan", "name": "x", "players": ["A", "B"]}'
    answer = client.post("/api/v1/tables", data=body, content_type="application/x-www-form-urlencoded")
    assert answer.status_code == 415 and answer.json["error"]["code"] == "unsupported_media_type"
    assert client.post("/api/v1/tables", data=body, content_type="text/plain").status_code == 415
    twin = client.post("/api/v1/tables", data=body, content_type="application/json")
    assert twin.status_code == 201
    assert db.session.scalar(select(func.count()).select_from(Table)) == 1


def test_permissions_policy_on_every_answer(client, gdy):
    for path in ("/", f"/t/{gdy.public_id}", "/api/v1/openapi.json", "/no/such/page"):
        policy = client.get(path).headers.get("Permissions-Policy", "")
        assert "camera=()" in policy and "geolocation=()" in policy and "microphone=()" in policy, path


def test_a_deleted_table_is_hidden_on_the_check_page(client, gdy):
    assert client.get(f"/check?table={gdy.public_id}").status_code == 200  # the twin: shown while it exists
    scoring.delete_table(gdy)
    response = client.get(f"/check?table={gdy.public_id}")
    assert response.status_code == 404 and "Friday" not in response.get_data(as_text=True)
    assert client.get(f"/t/{gdy.public_id}/check").status_code == 404


def _link_person(table, seat: int, name: str) -> Person:
    person = Person(name=name)
    db.session.add(person)
    db.session.flush()
    table.players[seat].person_id = person.id
    db.session.commit()
    return person


def _age(table, minutes: int) -> None:
    table.deleted_at = utcnow() - timedelta(minutes=minutes)
    db.session.commit()


def test_flask_purge_removes_tables_past_their_window_and_their_orphaned_people(app, ctx, runner, gdy, dg):
    only_here = _link_person(gdy, 0, "Ann")
    shared = _link_person(gdy, 1, "Bo")
    dg.players[0].person_id = shared.id  # Bo also sat at the 大冶打拱 table
    db.session.commit()
    only_here_id, shared_id = only_here.id, shared.id
    _record(gdy)
    scoring.delete_table(gdy)
    result = runner.invoke(args=["purge"])
    assert result.exit_code == 0 and "purged 0" in result.output  # still within its undo window
    _age(gdy, 11)
    gdy_id, dg_id = gdy.id, dg.id
    result = runner.invoke(args=["purge"])
    assert result.exit_code == 0 and "purged 1" in result.output
    db.session.expire_all()
    assert db.session.get(Table, gdy_id) is None and db.session.get(Table, dg_id) is not None
    assert db.session.get(Person, only_here_id) is None  # no table left: gone too
    assert db.session.get(Person, shared_id) is not None  # still at another table
    assert db.session.scalar(select(func.count()).select_from(Player).where(Player.table_id == gdy_id)) == 0


def test_a_request_purges_by_itself_now_and_then(app, client, ctx, gdy, monkeypatch):
    app.config["PURGE_EVERY_SECONDS"] = 60  # as served (the tests' app turns it off)
    scoring.delete_table(gdy)
    _age(gdy, 11)
    gdy_id = gdy.id
    monkeypatch.setattr(housekeeping, "_last_purge", [0.0])
    assert client.get("/").status_code == 200  # any request, not a lookup of that table
    db.session.expire_all()
    assert db.session.get(Table, gdy_id) is None


def test_the_history_is_paginated(app, client, gdy):
    app.config["HISTORY_PER_PAGE"] = 2
    for winner in ("Ann", "Bo", "Cy"):
        _record(gdy, winner)
    first = client.get(f"/t/{gdy.public_id}/history").get_data(as_text=True)
    assert first.count('class="event ') == 2 and "Hand 3" in first and "Hand 1<" not in first
    assert f"/t/{gdy.public_id}/history?page=2" in first and 'rel="prev"' not in first
    second = client.get(f"/t/{gdy.public_id}/history?page=2").get_data(as_text=True)
    assert second.count('class="event ') == 1 and "Hand 1<" in second and 'rel="next"' not in second
    assert client.get(f"/t/{gdy.public_id}/history?page=3").status_code == 404


def test_an_import_whose_worker_died_is_purged_after_an_hour(ctx, runner, gdy):
    """A worker killed mid-replay leaves a table nobody knows the id of, with its import marker: the purge
    removes it an hour later; a finished import leaves no marker and is never touched."""
    from companion.db.models import RateBucket

    _record(gdy)
    finished = review.import_json(review.export_json(gdy))
    assert db.session.scalar(select(func.count()).select_from(RateBucket).where(RateBucket.key.like("importing:%"))) == 0
    unfinished = scoring.create_table(game="gandengyan", name="half", players=["A", "B"])
    db.session.add(RateBucket(key=f"importing:{unfinished.id}", window_start=1, count=1))  # began long ago
    db.session.commit()
    ids = (finished.id, unfinished.id)
    result = runner.invoke(args=["purge"])
    assert result.exit_code == 0 and "1 unfinished import" in result.output
    db.session.expire_all()
    assert db.session.get(Table, ids[0]) is not None and db.session.get(Table, ids[1]) is None


def test_a_deleted_table_is_hidden_from_a_persons_page_and_the_past_tables(client, ctx, gdy, dg, writer):
    from companion.sharing import people

    ann = _link_person(gdy, 0, "Ann")
    dg.players[0].person_id = ann.id
    db.session.commit()
    _record(gdy)
    assert [s.public_id for s in people.person_page(ann).sessions] == [gdy.public_id, dg.public_id]
    assert people.visible_table_ids([dg.id]) == sorted([gdy.id, dg.id])  # the twin: seen while it exists
    scoring.delete_table(gdy)
    assert [s.public_id for s in people.person_page(ann).sessions] == [dg.public_id]
    assert people.visible_table_ids([dg.id, gdy.id]) == [dg.id]
    writer(dg)  # this phone knows Ann from the 大冶打拱 table
    page = client.get(f"/p/{ann.public_id}")
    assert page.status_code == 200 and gdy.public_id not in page.get_data(as_text=True)
    assert dg.public_id in page.get_data(as_text=True)
