"""Pages: the start page, opening a table, the table page, write access, history, undo."""
from thirdgame.registry import every_name
import re

import pytest
from sqlalchemy import select

from companion import access, scoring
from companion.scoring import undo as scoring_undo
from companion.extensions import db
from companion.db.models import Table

from web_helpers import GDY_PLAYERS, counts, field_errors, gdy_form, text_of


def new_table_data(**overrides):
    data = {"name": "Friday night", "player_1": "Ann", "player_2": "Bo", "player_3": "Cy",
            "stake": "0.5", "currency": "¥", "preset": "", "first_dealer": "1", "notes": ""}
    data.update(overrides)
    return data


def test_index_lists_games_languages_and_my_tables(client, gdy, writer):
    page = client.get("/")
    assert page.status_code == 200
    body = page.get_data(as_text=True)
    assert "/new/gandengyan" in body and "/new/dagong" in body
    for code in ("en", "zh", "fr", "id", "ar", "ko"):
        assert f'href="?lang={code}"' in body
    assert "Friday" not in text_of(page)
    writer(gdy)
    assert "Friday" in text_of(client.get("/"))


def test_arabic_is_right_to_left(client):
    page = client.get("/?lang=ar")
    assert '<html lang="ar" dir="rtl">' in page.get_data(as_text=True)
    assert '<html lang="en" dir="ltr">' in client.get("/?lang=en").get_data(as_text=True)


def test_device_name_is_remembered(client):
    response = client.post("/device", data={"device": "  Li's   phone "})
    assert response.status_code == 302
    assert "Li's phone" in response.headers["Set-Cookie"] or "Li" in response.headers["Set-Cookie"]
    assert client.get_cookie("device").value.strip('"').replace("\\047", "'") == "Li's phone"


@pytest.mark.parametrize("game", every_name())
def test_new_table_form_shows_every_switch_with_help(app, client, fixture_games, game):
    from companion import words

    module = scoring.engine_for(game)
    page = client.get(f"/new/{game}")
    assert page.status_code == 200
    body = page.get_data(as_text=True)
    for key, switch in module.SWITCHES.items():
        assert f'name="rule_{key}"' in body
        assert key in module.WORDS.switches                    # words for every switch, not its code
        with app.test_request_context("/"):
            label, help_line = words.switch_label(module, key), words.switch_help(module, key)
            values = [words.value_label(module, key, value) for value in switch.choices if not isinstance(value, bool)]
        assert label in text_of(page) and help_line in text_of(page) and "{" not in label + help_line
        for value in values:
            assert value in text_of(page)
        assert f">{key}<" not in body
    rows = len(re.findall(r'name="player_\d"', body))
    assert rows == module.PLAYER_RANGE[1]


def test_who_deals_first_is_not_labelled_like_the_switch(client):
    """The player who deals first is a choice of this table, not a house rule: its own label,
    and the switch keeps "How the first dealer is chosen"."""
    page = text_of(client.get("/new/gandengyan"))
    assert "Who deals first (optional)" in page and "How the first dealer is chosen" in page
    assert "First dealer" not in page


def test_unknown_game_is_404(client):
    assert client.get("/new/poker").status_code == 404


def test_open_a_table(client, ctx):
    response = client.post("/new/gandengyan", data=new_table_data(rule_joker_doubling="perJoker",
                                                                   rule_triple_is_bomb="true"))
    assert response.status_code == 302
    table = db.session.scalar(select(Table))
    assert response.headers["Location"].endswith(f"/t/{table.public_id}")
    assert table.player_names == ["Ann", "Bo", "Cy"] and table.first_dealer == "Ann"
    assert table.rules["joker_doubling"] == "perJoker" and table.rules["triple_is_bomb"] is True
    assert str(table.stake) == "0.5" and table.currency == "¥"
    page = client.get(response.headers["Location"])
    assert "Record next hand" in text_of(page)  # the creator may record
    assert f"#key={access.edit_token(table)}" in page.get_data(as_text=True)  # the record link


def test_open_a_dagong_table(client, ctx):
    data = new_table_data(player_4="Di", preset="daye", stake="2")
    response = client.post("/new/dagong", data=data)
    assert response.status_code == 302
    table = db.session.scalar(select(Table))
    assert table.game == "dagong" and len(table.players) == 4


@pytest.mark.parametrize("overrides, field, words", [
    ({"name": "x" * 500}, "name", "too long"),
    ({"name": ""}, "name", ""),
    ({"player_2": "ann"}, "player_2", "twice"),
    ({"player_2": "", "player_3": ""}, "player_1", "2 to 6"),
    ({"player_3": "C" * 60}, "player_3", "too long"),
    ({"player_2": "", "player_4": "ann"}, "player_4", "twice"),   # a gap in the rows: still the right row
    ({"stake": "-1"}, "stake", "positive"),
    ({"stake": "one"}, "stake", "number"),
    ({"preset": "nope"}, "preset", ""),
    ({"rule_unit": "-5"}, "rule_unit", "unit"),
])
def test_bad_table_input_is_shown_next_to_the_field_and_kept(client, ctx, overrides, field, words):
    before = counts()
    response = client.post("/new/gandengyan", data=new_table_data(**overrides))
    assert response.status_code == 400
    errors = field_errors(response)
    assert field in errors, errors
    assert words.lower() in " ".join(errors[field]).lower()
    body = response.get_data(as_text=True)
    assert 'value="Friday night"' in body or overrides.get("name") is not None
    assert counts() == before


def test_html_in_names_is_escaped(client, ctx):
    response = client.post("/new/gandengyan", data=new_table_data(name="<script>alert(1)</script>",
                                                                  player_1="<b>Ann</b>"))
    assert response.status_code == 302
    body = client.get(response.headers["Location"]).get_data(as_text=True)
    assert "<script>alert(1)</script>" not in body and "&lt;script&gt;" in body
    assert "<b>Ann</b>" not in body and "&lt;b&gt;Ann&lt;/b&gt;" in body


def test_unicode_names(client, ctx):
    names = {"player_1": "李雷", "player_2": "سارة", "player_3": "김민준", "player_4": "Siti"}
    response = client.post("/new/gandengyan", data=new_table_data(name="周五 🂡", **names))
    assert response.status_code == 302
    page = text_of(client.get(response.headers["Location"]))
    for name in names.values():
        assert name in page


def test_table_page_read_only_without_the_token(client, gdy):
    page = client.get(f"/t/{gdy.public_id}")
    assert page.status_code == 200
    assert "Record next hand" not in text_of(page)
    assert access.edit_token(gdy) not in page.get_data(as_text=True)
    assert client.get(f"/t/{gdy.public_id}/record").status_code == 403
    assert client.post(f"/t/{gdy.public_id}/record", data=gdy_form()).status_code == 403
    assert client.post(f"/t/{gdy.public_id}/undo").status_code == 403


def test_wrong_share_key_gives_no_access(client, gdy):
    response = client.post(f"/t/{gdy.public_id}/join", data={"key": "wrong"})
    assert response.status_code == 403 and "not valid" in text_of(response)
    assert client.get(f"/t/{gdy.public_id}/record").status_code == 403


def test_share_link_gives_access(client, gdy, writer):
    writer(gdy)
    assert client.get(f"/t/{gdy.public_id}/record").status_code == 200


@pytest.mark.parametrize("path", ["/t/doesnotexist", "/t/" + "A" * 22, "/t/x/record",
                                  "/t/" + "A" * 22 + "/history", "/t/" + "A" * 22 + "/hands/1"])
def test_unknown_table_is_404(client, ctx, path):
    response = client.get(path)
    assert response.status_code == 404
    assert "does not exist" in text_of(response)


def test_table_page_standings_hands_and_dealer(client, gdy, writer):
    writer(gdy)
    for i in range(3):
        scoring.record_hand(gdy, {"winner": GDY_PLAYERS[i], "losers": {
            n: {"cards": 2, "jokers": 0} for n in GDY_PLAYERS if n != GDY_PLAYERS[i]}}, request_id=str(i))
    page = client.get(f"/t/{gdy.public_id}")
    text = text_of(page)
    assert "3 hands" in text
    assert "Next dealer: Cy" in text
    body = page.get_data(as_text=True)
    standings = re.findall(r'<tr data-player="([^"]+)"><th scope="row"><bdi[^>]*>[^<]*</bdi></th>'
                           r'<td class="num points" dir="ltr">([^<]+)</td><td class="num money" dir="ltr">([^<]+)</td>',
                           body)
    assert standings == [("Ann", "+2", "+1 ¥"), ("Bo", "+2", "+1 ¥"), ("Cy", "+2", "+1 ¥"),
                         ("Di", "−6", "−3 ¥")]
    order = re.findall(r'id="hand-(\d+)"', body)
    assert order == ["3", "2", "1"]


def test_hand_list_is_paginated(client, gdy, app):
    facts = {"winner": "Ann", "losers": {n: {"cards": 1, "jokers": 0} for n in GDY_PLAYERS[1:]}}
    per_page = app.config["HANDS_PER_PAGE"]
    for i in range(per_page + 2):
        scoring.record_hand(gdy, facts, request_id=str(i))
    first = client.get(f"/t/{gdy.public_id}").get_data(as_text=True)
    assert len(re.findall(r'id="hand-\d+"', first)) == per_page
    second = client.get(f"/t/{gdy.public_id}?page=2").get_data(as_text=True)
    assert re.findall(r'id="hand-(\d+)"', second) == ["2", "1"]
    assert client.get(f"/t/{gdy.public_id}?page=9").status_code == 404
    assert client.get(f"/t/{gdy.public_id}?page=abc").status_code == 200
    assert client.get(f"/t/{gdy.public_id}?page=²").status_code == 200   # unicode digit: page 1, not a 500


def test_table_history_and_undo(client, gdy, writer):
    writer(gdy)
    facts = {"winner": "Ann", "losers": {n: {"cards": 1, "jokers": 0} for n in GDY_PLAYERS[1:]}}
    scoring.record_hand(gdy, facts, request_id="a")
    scoring.void_hand(gdy, 1, revision=1)
    history = text_of(client.get(f"/t/{gdy.public_id}/history"))
    assert "Hand 1 voided" in history and "Hand 1 recorded" in history
    response = client.post(f"/t/{gdy.public_id}/undo", follow_redirects=True)
    assert "Undone" in text_of(response)
    assert scoring.standings(gdy)[0].points == 3
    assert "undone" in text_of(client.get(f"/t/{gdy.public_id}/history"))
    client.post(f"/t/{gdy.public_id}/undo")
    response = client.post(f"/t/{gdy.public_id}/undo", follow_redirects=True)
    assert "nothing to undo" in text_of(response)


def test_healthz(client):
    assert client.get("/healthz").get_json() == {"ok": True}


def test_undo_that_the_engine_refuses_changes_nothing(client, gdy, writer, monkeypatch):
    from companion.engine.public import FactsError
    from web_helpers import snapshot

    writer(gdy)
    facts = {"winner": "Ann", "losers": {n: {"cards": 1, "jokers": 0} for n in GDY_PLAYERS[1:]}}
    scoring.record_hand(gdy, facts, request_id="a")
    scoring.edit_hand(gdy, 1, {**facts, "winner": "Bo", "losers": {n: {"cards": 2, "jokers": 0}
                                                                 for n in GDY_PLAYERS if n != "Bo"}}, revision=1)
    before = snapshot()

    def refuse(*args, **kwargs):
        raise FactsError("the rules changed")

    monkeypatch.setattr(scoring_undo, "_settle_points", refuse)  # the module of undo_last
    response = client.post(f"/t/{gdy.public_id}/undo", follow_redirects=True)
    assert response.status_code == 200 and "Could not undo" in text_of(response)
    assert snapshot() == before


def test_undo_button_sits_above_the_hands_and_says_what_it_undoes(client, gdy, writer):
    writer(gdy)
    facts = {"winner": "Ann", "losers": {n: {"cards": 1, "jokers": 0} for n in GDY_PLAYERS[1:]}}
    assert "id=\"undo\"" not in client.get(f"/t/{gdy.public_id}").get_data(as_text=True)
    scoring.record_hand(gdy, facts, request_id="a", device="Bo's phone")
    html = client.get(f"/t/{gdy.public_id}").get_data(as_text=True)
    assert html.index('id="undo"') < html.index('id="hands"')
    assert "Undo: hand 1 recorded by Bo&#39;s phone" in html
    scoring.void_hand(gdy, 1, revision=1)
    assert "Undo: voiding hand 1 (it counts again)" in text_of(client.get(f"/t/{gdy.public_id}"))
    client.post(f"/t/{gdy.public_id}/undo")                    # the void is undone
    assert "Undo: hand 1 recorded by Bo's phone" in text_of(client.get(f"/t/{gdy.public_id}"))
    # a phone that only watches sees no undo button
    from flask import current_app

    watcher = current_app.test_client()
    assert 'id="undo"' not in watcher.get(f"/t/{gdy.public_id}").get_data(as_text=True)


def test_table_page_shows_the_house_rules_as_sentences(client, ctx):
    table = scoring.create_table(game="gandengyan", name="r", players=["Ann", "Bo"], preset="m2",
                                 rules={"deck_mode": "oneDeck", "cap": "perLoser:20", "triple_is_bomb": True})
    text = text_of(client.get(f"/t/{table.public_id}"))
    assert "Preset: High-stakes tables (bombs multiply by size)." in text
    assert "Number of decks: always 1 deck" in text
    assert "Upper limit: no loser pays more than 20" in text
    assert "Three of a kind is a bomb: yes" in text
    for code in ("deck_mode", "oneDeck", "perLoser:20", "triple_is_bomb"):
        assert code not in text


def test_new_table_form_flags_every_bad_field_at_once(client, ctx):
    """Issue 21: two bad names, a repeated name, a bad stake: each flagged beside its field in one
    answer, everything typed kept, nothing stored."""
    response = client.post("/new/gandengyan", data=new_table_data(
        player_1="Ann\u200b", player_2="\u202eBo", player_3="Cy", player_4="cy", stake="abc"))
    assert response.status_code == 400
    errors = field_errors(response)
    assert {"player_1", "player_2", "player_4", "stake"} <= set(errors), errors
    assert "invisible" in errors["player_1"][0] and "invisible" in errors["player_2"][0]
    assert "twice" in errors["player_4"][0]
    assert 'value="abc"' in response.get_data(as_text=True)
    assert db.session.scalar(select(Table)) is None


def test_an_emoji_name_joined_by_zwj_opens_a_table(client, ctx):
    response = client.post("/new/gandengyan", data=new_table_data(player_1="👩🏽\u200d🦰", player_2="👨\u200d👩\u200d👧"))
    assert response.status_code == 302
    assert db.session.scalar(select(Table)).player_names[:2] == ["👩🏽\u200d🦰", "👨\u200d👩\u200d👧"]
