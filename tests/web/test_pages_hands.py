"""Pages: recording hands of both games, the settlement, corrections, conflicts, bad input."""
import json
import re

import pytest
from flask import g

from companion import access, scoring
from companion.extensions import db
from companion.db.models import Hand

from web_helpers import dg_form, field_errors, gdy_form, hidden, snapshot, text_of

GDY_FACTS = {"winner": "Ann", "losers": {"Bo": {"cards": 3, "jokers": 1}, "Cy": {"cards": 5, "jokers": 0},
                                         "Di": {"cards": 1, "jokers": 0}}}


def points(table):
    return {row.name: row.points for row in scoring.standings(table)}


def open_form(client, table):
    page = client.get(f"/t/{table.public_id}/record")
    assert page.status_code == 200
    return {"request_id": hidden(page, "request_id"), "expected_number": hidden(page, "expected_number")}


# --- the record form ---------------------------------------------------------------------


def test_gandengyan_form_asks_only_for_cards_and_jokers_by_default(client, gdy, writer):
    writer(gdy)
    body = client.get(f"/t/{gdy.public_id}/record").get_data(as_text=True)
    assert 'name="cards_1"' in body and 'name="jokers_3"' in body
    for extra in ("twos_", "held_bombs_", "never_played_", "only_opening_", "bombs_played", "tricks"):
        assert f'name="{extra}' not in body
    assert re.search(r'<option selected value="Ann">', body)  # the dealer is suggested


@pytest.mark.parametrize("rules, present", [
    ({"twos_are_trumps": "perTwo"}, ["twos_1"]),
    ({"held_bomb_mult": "once"}, ["held_bombs_1"]),
    ({"shut_out": "double"}, ["never_played_1", "only_opening_1"]),
    ({"played_bomb_mult": "double"}, ["bombs_played"]),
    ({"long_hand_mult": "on"}, ["tricks"]),
])
def test_gandengyan_form_adds_the_facts_the_switches_need(client, ctx, writer, rules, present):
    table = scoring.create_table(game="gandengyan", name="t", players=["A", "B", "C"], rules=rules)
    writer(table)
    body = client.get(f"/t/{table.public_id}/record").get_data(as_text=True)
    for name in present:
        assert f'name="{name}"' in body


def test_record_a_gandengyan_hand(client, gdy, writer):
    writer(gdy)
    ids = open_form(client, gdy)
    assert ids["expected_number"] == "1" and len(ids["request_id"]) >= 16
    response = client.post(f"/t/{gdy.public_id}/record", data={**gdy_form(), **ids})
    assert response.status_code == 302
    assert response.headers["Location"].endswith(f"/t/{gdy.public_id}/hands/1?saved=1")
    result = text_of(client.get(response.headers["Location"]))
    assert "Saved." in result
    assert "Bo: 3 cards" in result  # the engine's steps
    assert "Record next hand" in result
    assert points(gdy) == {"Ann": 12, "Bo": -6, "Cy": -5, "Di": -1}
    table_page = text_of(client.get(f"/t/{gdy.public_id}"))
    assert "1 hand" in table_page and "+6 ¥" in table_page


def test_record_with_house_rule_facts(client, ctx, writer):
    table = scoring.create_table(game="gandengyan", name="t", players=["A", "B", "C"],
                                 rules={"shut_out": "double", "twos_are_trumps": "perTwo",
                                        "played_bomb_mult": "double"})
    writer(table)
    ids = open_form(client, table)
    data = {**ids, "winner": "0", "dealer": "A", "cards_1": "5", "jokers_1": "0", "twos_1": "1",
            "never_played_1": "y", "cards_2": "2", "jokers_2": "0", "twos_2": "0", "bombs_played": "4"}
    response = client.post(f"/t/{table.public_id}/record", data=data)
    assert response.status_code == 302, field_errors(response)
    hand = db.session.query(Hand).one()
    assert hand.facts["losers"]["B"]["played"] is False and hand.facts["losers"]["B"]["twos"] == 1
    assert hand.facts["bombs_played"] == [4]
    # B: 5 × 2 (a two) × 2 (shut out) × 2 (a bomb) = 40; C: 2 × 2 = 4
    assert points(table) == {"A": 44, "C": -4, "B": -40}


def test_record_a_dagong_hand(client, dg, writer):
    writer(dg)
    ids = open_form(client, dg)
    response = client.post(f"/t/{dg.public_id}/record", data={**dg_form(), **ids})
    assert response.status_code == 302, field_errors(response)
    assert points(dg) == {"P1": 1, "P3": 1, "P2": -1, "P4": -1}
    page = text_of(client.get(response.headers["Location"]))
    assert "P1" in page and "×1" in page or "1" in page
    assert "Next banker: P1" in text_of(client.get(f"/t/{dg.public_id}"))


def test_record_a_dagong_shout(client, dg, writer):
    writer(dg)
    data = dg_form(banker="P3", partner="", shout="P3", order_2="", order_3="", order_4="", order_1="P3",
                   captured_0="0", captured_1="0", captured_2="0", captured_3="0", last_hand_points="0")
    response = client.post(f"/t/{dg.public_id}/record", data={**data, **open_form(client, dg)})
    assert response.status_code == 302, field_errors(response)
    assert points(dg) == {"P3": 12, "P1": -4, "P2": -4, "P4": -4}


def test_record_a_dagong_early_end(client, dg, writer):
    """Worked example #1: P1 and P3 (partners) go out first and second: the hand ends, ×4."""
    writer(dg)
    data = dg_form(order_1="P1", order_2="P3", order_3="", order_4="", captured_0="120", captured_1="0",
                   captured_2="80", captured_3="0", last_hand_points="0")
    response = client.post(f"/t/{dg.public_id}/record", data={**data, **open_form(client, dg)})
    assert response.status_code == 302, field_errors(response)
    assert points(dg) == {"P1": 4, "P3": 4, "P2": -4, "P4": -4}


# --- bad input: a clear message next to the field, input kept, nothing stored changes ------


@pytest.mark.parametrize("overrides, field, words", [
    ({"cards_1": "-3"}, "cards_1", "at least 1"),
    ({"jokers_1": "99"}, "jokers_1", "joker"),
    ({"cards_2": ""}, "cards_2", "number"),
    ({"cards_2": "abc"}, "cards_2", ""),
    ({"winner": None}, "winner", "first"),
    ({"winner": "²"}, "winner", "first"),   # a digit to str.isdigit(), not to int(): was a 500
    ({"cards_3": "0"}, "cards_3", "at least 1"),
    ({"dealer": "Zed"}, "dealer", "Zed"),
])
def test_bad_gandengyan_input(client, gdy, writer, overrides, field, words):
    writer(gdy)
    scoring.record_hand(gdy, GDY_FACTS, request_id="first")
    before = snapshot()
    data = {**gdy_form(**overrides), **open_form(client, gdy)}
    response = client.post(f"/t/{gdy.public_id}/record", data=data)
    assert response.status_code == 400
    errors = field_errors(response)
    assert field in errors, errors
    assert words.lower() in " ".join(errors[field]).lower()
    body = response.get_data(as_text=True)
    for key, value in overrides.items():   # what was typed stays in the form
        if value and key.startswith(("cards", "jokers")):
            assert f'value="{value}"' in body
    assert "Please check the fields" in text_of(response)
    assert snapshot() == before


@pytest.mark.parametrize("overrides, field, words", [
    ({"order_2": "P1"}, "order", "twice"),
    ({"captured_1": "52"}, "captured_1", "multiple of 5"),
    ({"captured_0": "-5", "captured_1": "115"}, "captured_0", "negative"),
    ({"order_1": ""}, "order", "in order"),
    ({"order_1": "", "order_2": "", "order_3": "", "order_4": ""}, "order_1", "first"),
    ({"captured_0": "100"}, "captured", "200"),
    ({"partner": "P1"}, "partner", "banker"),
    ({"bright_card": "Zz"}, "bright_card", ""),
])
def test_bad_dagong_input(client, dg, writer, overrides, field, words):
    writer(dg)
    before = snapshot()
    response = client.post(f"/t/{dg.public_id}/record", data={**dg_form(**overrides), **open_form(client, dg)})
    assert response.status_code == 400
    errors = field_errors(response)
    assert field in errors, errors
    assert words.lower() in " ".join(errors[field]).lower()
    assert snapshot() == before


def test_missing_csrf_token_is_refused(client, gdy, writer, app):
    writer(gdy)
    ids = open_form(client, gdy)
    app.config["WTF_CSRF_ENABLED"] = True
    before = snapshot()
    for path, data in [(f"/t/{gdy.public_id}/record", {**gdy_form(), **ids}), ("/new/gandengyan", {"name": "x"}),
                       (f"/t/{gdy.public_id}/undo", {}), ("/device", {"device": "x"})]:
        response = client.post(path, data=data)
        assert response.status_code == 400
        assert "expired" in text_of(response)
    assert snapshot() == before


def test_csrf_token_from_the_page_is_accepted(client, gdy, writer, app):
    app.config["WTF_CSRF_ENABLED"] = True
    writer(gdy)
    page = client.get(f"/t/{gdy.public_id}/record")
    data = {**gdy_form(), "request_id": hidden(page, "request_id"), "expected_number": "1",
            "csrf_token": hidden(page, "csrf_token")}
    assert client.post(f"/t/{gdy.public_id}/record", data=data).status_code == 302


def test_double_tap_records_one_hand(client, gdy, writer):
    writer(gdy)
    data = {**gdy_form(), **open_form(client, gdy)}
    first = client.post(f"/t/{gdy.public_id}/record", data=data)
    second = client.post(f"/t/{gdy.public_id}/record", data=data)
    assert first.headers["Location"] == second.headers["Location"]
    assert db.session.query(Hand).count() == 1


def test_the_same_form_sent_again_after_its_saved_page_asks_and_the_outbox_retry_does_not(client, gdy, writer):
    """Issue 33 item 10, without JavaScript: Back after Save gives the form back with the request id
    of the hand it saved (WebKit and Firefox keep the page); sent again after the "Saved." page was
    shown it is the "This looks like hand 1 again" question, with a fresh request id for "Yes"; the
    outbox's retry of the same request id (X-Outbox) is still one hand, answered "Saved."."""
    writer(gdy)
    data = {**gdy_form(), **open_form(client, gdy)}
    first = client.post(f"/t/{gdy.public_id}/record", data=data)
    assert first.status_code == 302
    assert client.get(first.headers["Location"]).status_code == 200  # the phone shows "Saved."
    retry = client.post(f"/t/{gdy.public_id}/record", data=data, headers={"X-Outbox": "1"})
    assert retry.status_code == 302 and retry.headers["Location"] == first.headers["Location"]
    before = snapshot()
    again = client.post(f"/t/{gdy.public_id}/record", data=data)  # Back, Save: the kept form
    assert again.status_code == 409 and "This looks like hand 1 again" in text_of(again)
    assert hidden(again, "request_id") != data["request_id"] and hidden(again, "expected_number") == "2"
    assert hidden(again, "cards_1") == "3" and snapshot() == before
    confirmed = client.post(f"/t/{gdy.public_id}/record",
                            data={**gdy_form(), "request_id": hidden(again, "request_id"),
                                  "expected_number": hidden(again, "expected_number"), "confirm_duplicate": "1"})
    assert confirmed.status_code == 302 and confirmed.headers["Location"].endswith("/hands/2?saved=1")
    other = client.post(f"/t/{gdy.public_id}/record", data={**gdy_form(cards_2="6"), **open_form(client, gdy)})
    assert other.status_code == 302  # hand 3, other facts: hand 1's form is now far back in the history
    older = client.post(f"/t/{gdy.public_id}/record", data=data)  # Back twice: hand 1's form
    assert older.status_code == 409 and "This looks like hand 1 again" in text_of(older)
    assert db.session.query(Hand).count() == 3


def test_two_phones_recording_the_same_hand_see_a_conflict(client, gdy, writer):
    writer(gdy)
    phone_a, phone_b = open_form(client, gdy), open_form(client, gdy)
    assert client.post(f"/t/{gdy.public_id}/record", data={**gdy_form(), **phone_a}).status_code == 302
    response = client.post(f"/t/{gdy.public_id}/record", data={**gdy_form(cards_3="4"), **phone_b})
    assert response.status_code == 409
    text = text_of(response)
    assert "Someone else recorded hand 1" in text
    assert "Already saved as hand 1" in text and "Yours (not saved)" in text
    assert "4 cards" in text and "1 card" in text and "1 cards" not in text
    assert db.session.query(Hand).count() == 1
    facts_json = hidden(response, "facts_json")
    # choice: mine is the same hand -> replace theirs
    edit = client.post(f"/t/{gdy.public_id}/hands/1/edit",
                       data={"facts_json": facts_json, "revision": "1"})
    assert edit.status_code == 302
    assert points(gdy)["Di"] == -4 and db.session.query(Hand).count() == 1


def test_conflict_choice_record_mine_too(client, gdy, writer):
    writer(gdy)
    phone_a, phone_b = open_form(client, gdy), open_form(client, gdy)
    client.post(f"/t/{gdy.public_id}/record", data={**gdy_form(), **phone_a})
    response = client.post(f"/t/{gdy.public_id}/record", data={**gdy_form(winner="1", cards_0="2",
                                                                          jokers_0="0"), **phone_b})
    assert response.status_code == 409
    again = client.post(f"/t/{gdy.public_id}/record", data={"facts_json": hidden(response, "facts_json"),
                                                           "request_id": hidden(response, "request_id")})
    assert again.status_code == 302 and again.headers["Location"].endswith("/hands/2?saved=1")
    assert db.session.query(Hand).count() == 2


def test_resubmitted_garbage_is_400(client, gdy, writer):
    writer(gdy)
    before = snapshot()
    for data in ({"facts_json": "{not json"}, {"facts_json": json.dumps({"winner": "Nobody"})},
                 {"facts_json": "[]"}):
        assert client.post(f"/t/{gdy.public_id}/record", data=data).status_code == 400
    assert snapshot() == before


# --- the hand page, corrections ----------------------------------------------------------


def test_hand_page_shows_steps_and_facts(client, gdy):
    scoring.record_hand(gdy, GDY_FACTS, request_id="r")
    page = client.get(f"/t/{gdy.public_id}/hands/1")
    text = text_of(page)
    assert "How it was counted" in text and "Bo: 3 cards" in text
    assert "Winner Ann" in text
    assert "Correct this hand" not in text  # read-only visitor


def test_edit_is_prefilled_and_recomputes(client, gdy, writer):
    writer(gdy)
    scoring.record_hand(gdy, GDY_FACTS, request_id="r")
    page = client.get(f"/t/{gdy.public_id}/hands/1/edit")
    body = page.get_data(as_text=True)
    assert re.search(r'<input checked[^>]*id="winner-0"|<input[^>]*checked[^>]*value="0"', body)
    assert re.search(r'id="cards_1"[^>]*value="3"', body)
    assert hidden(page, "revision") == "1"
    response = client.post(f"/t/{gdy.public_id}/hands/1/edit",
                           data={**gdy_form(cards_3="4"), "revision": "1"})
    assert response.status_code == 302
    assert points(gdy) == {"Ann": 15, "Bo": -6, "Cy": -5, "Di": -4}
    assert "corrected" in text_of(client.get(f"/t/{gdy.public_id}/hands/1/history"))


def test_edit_errors_stay_on_the_form(client, gdy, writer):
    writer(gdy)
    scoring.record_hand(gdy, GDY_FACTS, request_id="r")
    before = snapshot()
    response = client.post(f"/t/{gdy.public_id}/hands/1/edit", data={**gdy_form(jokers_1="99"), "revision": "1"})
    assert response.status_code == 400 and "jokers_1" in field_errors(response)
    assert snapshot() == before


def test_stale_edit_shows_both_versions_and_lets_me_choose(client, gdy, writer):
    writer(gdy)
    scoring.record_hand(gdy, GDY_FACTS, request_id="r")
    stale = client.get(f"/t/{gdy.public_id}/hands/1/edit")
    client.post(f"/t/{gdy.public_id}/hands/1/edit", data={**gdy_form(cards_3="2"), "revision": "1"})
    response = client.post(f"/t/{gdy.public_id}/hands/1/edit",
                           data={**gdy_form(cards_3="5"), "revision": hidden(stale, "revision")})
    assert response.status_code == 409
    text = text_of(response)
    assert "changed by someone else" in text and "Saved now" in text and "Yours (not saved)" in text
    assert points(gdy)["Di"] == -2
    assert hidden(response, "revision") == "2"
    mine = client.post(f"/t/{gdy.public_id}/hands/1/edit",
                       data={"facts_json": hidden(response, "facts_json"), "revision": hidden(response, "revision")})
    assert mine.status_code == 302 and points(gdy)["Di"] == -5


def test_void_restore_and_their_conflicts(client, gdy, writer):
    writer(gdy)
    scoring.record_hand(gdy, GDY_FACTS, request_id="r")
    response = client.post(f"/t/{gdy.public_id}/hands/1/void", data={"revision": "1"}, follow_redirects=True)
    assert "void" in text_of(response) and points(gdy)["Ann"] == 0
    assert "void" in text_of(client.get(f"/t/{gdy.public_id}"))
    stale = client.post(f"/t/{gdy.public_id}/hands/1/restore", data={"revision": "1"})
    assert stale.status_code == 409 and points(gdy)["Ann"] == 0
    client.post(f"/t/{gdy.public_id}/hands/1/restore", data={"revision": "2"})
    assert points(gdy)["Ann"] == 12
    for revision in ("", "abc"):
        assert client.post(f"/t/{gdy.public_id}/hands/1/void", data={"revision": revision}).status_code == 400
    assert points(gdy)["Ann"] == 12


@pytest.mark.parametrize("method, path", [
    ("get", "/hands/2"), ("get", "/hands/2/edit"), ("post", "/hands/2/edit"), ("post", "/hands/2/void"),
    ("post", "/hands/2/restore"), ("get", "/hands/2/history"), ("get", "/hands/0"), ("get", "/hands/-1"),
    ("get", "/hands/abc"), ("get", "/hands/99999999999999999999"),
])
def test_forged_or_unknown_hand_is_404(client, gdy, dg, writer, method, path):
    """Hand 2 exists at the other table only: numbers are per table, so it is not found here."""
    writer(gdy)
    scoring.record_hand(gdy, GDY_FACTS, request_id="r")
    scoring.record_hand(dg, {"banker": "P1", "partner": "P3", "order": ["P1", "P3"],
                             "captured": {"P1": 100}, "last_hand_points": 0}, request_id="a")
    scoring.record_hand(dg, {"banker": "P1", "partner": "P3", "order": ["P1", "P3"],
                             "captured": {"P1": 100}, "last_hand_points": 0}, request_id="b")
    before = snapshot()
    response = getattr(client, method)(f"/t/{gdy.public_id}{path}", data={"revision": "1", **gdy_form()})
    assert response.status_code == 404
    assert snapshot() == before


def test_write_pages_need_the_token(client, gdy):
    scoring.record_hand(gdy, GDY_FACTS, request_id="r")
    before = snapshot()
    for method, path in [("get", "/hands/1/edit"), ("post", "/hands/1/edit"), ("post", "/hands/1/void"),
                         ("post", "/hands/1/restore")]:
        response = getattr(client, method)(f"/t/{gdy.public_id}{path}", data={"revision": "1"})
        assert response.status_code == 403
        assert "share link" in text_of(response)
    assert snapshot() == before


def test_wrong_method_is_405(client, gdy):
    assert client.get(f"/t/{gdy.public_id}/undo").status_code == 405
    assert client.get(f"/t/{gdy.public_id}/hands/1/void").status_code == 405


def test_form_sent_again_with_changes_is_not_lost(client, gdy, writer):
    """Back button after saving, a change, send again: not a second hand, and the change is offered."""
    writer(gdy)
    ids = open_form(client, gdy)
    assert client.post(f"/t/{gdy.public_id}/record", data={**gdy_form(), **ids}).status_code == 302
    response = client.post(f"/t/{gdy.public_id}/record", data={**gdy_form(cards_3="4"), **ids})
    assert response.status_code == 409
    assert "already saved as hand 1" in text_of(response)
    assert db.session.query(Hand).count() == 1
    fixed = client.post(f"/t/{gdy.public_id}/hands/1/edit",
                        data={"facts_json": hidden(response, "facts_json"), "revision": hidden(response, "revision")})
    assert fixed.status_code == 302 and points(gdy)["Di"] == -4


@pytest.mark.parametrize("path", ["data", "meta", "errors", "csrf_token", "losers", "players", "", "x.y.z"])
def test_engine_error_fields_that_name_no_form_field_go_to_the_top(ctx, gdy, path):
    from flask import current_app

    from companion.engine.public import FactsError
    from companion.forms.tables import hand_form

    with current_app.test_request_context("/", method="POST", data={}):
        form = hand_form(gdy, scoring.engine_for("gandengyan"), scoring.table_rules(gdy))
        form.validate()
        form.apply_error(FactsError("bad", field=path), "bad")
        assert form.form_errors == ["bad"]


def test_errors_find_players_whose_names_contain_dots(client, ctx, writer):
    table = scoring.create_table(game="gandengyan", name="t", players=["A.B", "A", "winner"])
    writer(table)
    data = {**open_form(client, table), "winner": "1", "cards_0": "2", "jokers_0": "5", "cards_2": "1",
            "jokers_2": "0"}
    response = client.post(f"/t/{table.public_id}/record", data=data)
    assert response.status_code == 400
    assert "jokers_0" in field_errors(response)


def test_dagong_hand_page_names_the_result(client, dg):
    scoring.record_hand(dg, {"banker": "P1", "partner": "P3", "order": ["P1", "P3"],
                             "captured": {"P1": 100}, "last_hand_points": 0}, request_id="a")
    text = text_of(client.get(f"/t/{dg.public_id}/hands/1"))
    assert "Result: dry arch (干带直) ×4" in text


def test_xi_qian_bonus_is_asked_only_when_the_table_plays_it(client, dg, writer):
    """With 喜钱 on, the form asks for hard 7/8-card bombs and the settlement pays them; off, it does not ask."""
    writer(dg)
    assert "xi_bombs_0" not in client.get(f"/t/{dg.public_id}/record").get_data(as_text=True)
    xi = scoring.create_table(game="dagong", name="喜", players=["P1", "P2", "P3", "P4"], stake="1",
                              preset="daye", rules={"bonus_xi_qian": True})
    writer(xi)
    assert "xi_bombs_1" in client.get(f"/t/{xi.public_id}/record").get_data(as_text=True)
    # worked example #5 (A = P1+P3 wins ×1) and P2 played a hard 7-card bomb: +1 from each other player
    data = dg_form(xi_bombs_1="7")
    response = client.post(f"/t/{xi.public_id}/record", data={**data, **open_form(client, xi)})
    assert response.status_code == 302, field_errors(response)
    assert points(xi) == {"P1": 0, "P2": 2, "P3": 0, "P4": -2}
    bad = dg_form(xi_bombs_2="seven")
    response = client.post(f"/t/{xi.public_id}/record", data={**bad, **open_form(client, xi)})
    assert response.status_code == 400 and "xi_bombs_2" in field_errors(response)


# --- issue 10: the same hand twice from one phone; an expired form keeps what was typed ------------


def test_back_after_save_asks_before_recording_the_same_hand_again(client, gdy, writer):
    writer(gdy)
    first = client.post(f"/t/{gdy.public_id}/record", data={**gdy_form(), **open_form(client, gdy)})
    assert first.status_code == 302
    before = snapshot()
    # Back, then Save again: the page came back with a fresh request id
    again = client.post(f"/t/{gdy.public_id}/record", data={**gdy_form(), **open_form(client, gdy)})
    assert again.status_code == 409
    assert "This looks like hand 1 again" in text_of(again)
    assert hidden(again, "cards_1") == "3"                       # everything typed is still there
    assert snapshot() == before
    # one tap: record it anyway
    confirmed = client.post(f"/t/{gdy.public_id}/record",
                            data={**gdy_form(), "request_id": hidden(again, "request_id"),
                                  "expected_number": hidden(again, "expected_number"), "confirm_duplicate": "1"})
    assert confirmed.status_code == 302
    assert db.session.query(Hand).count() == 2


def test_different_facts_or_another_phone_are_not_duplicates(client, gdy, writer, app):
    writer(gdy)
    assert client.post(f"/t/{gdy.public_id}/record", data={**gdy_form(), **open_form(client, gdy)}).status_code == 302
    assert client.post(f"/t/{gdy.public_id}/record",
                       data={**gdy_form(cards_2="6"), **open_form(client, gdy)}).status_code == 302
    other = app.test_client()
    assert other.post(f"/t/{gdy.public_id}/join", data={"key": access.edit_token(gdy)}).status_code == 303
    page = other.get(f"/t/{gdy.public_id}/record")
    data = {**gdy_form(cards_2="6"), "request_id": hidden(page, "request_id"), "expected_number": "3"}
    assert other.post(f"/t/{gdy.public_id}/record", data=data).status_code == 302
    assert db.session.query(Hand).count() == 3


def test_the_same_hand_after_the_window_is_recorded(client, gdy, writer, app):
    writer(gdy)
    app.config["DUPLICATE_WINDOW_SECONDS"] = -1
    for _ in range(2):
        assert client.post(f"/t/{gdy.public_id}/record",
                           data={**gdy_form(), **open_form(client, gdy)}).status_code == 302
    assert db.session.query(Hand).count() == 2


def test_expired_session_brings_the_form_back_filled_in(client, gdy, writer, app):
    app.config["WTF_CSRF_ENABLED"] = True
    writer(gdy)
    page = client.get(f"/t/{gdy.public_id}/record")
    data = {**gdy_form(), "request_id": hidden(page, "request_id"), "expected_number": "1",
            "csrf_token": hidden(page, "csrf_token"), "edit_key": hidden(page, "edit_key")}
    client.delete_cookie("session")                             # the phone slept all evening
    g.pop("csrf_token", None)  # the test's app context (ctx) outlives requests: forget the old token
    before = snapshot()
    response = client.post(f"/t/{gdy.public_id}/record", data=data)
    assert response.status_code == 400
    assert "Everything you entered is still here" in text_of(response)
    g.pop("csrf_token", None)
    assert hidden(response, "cards_2") == "5" and hidden(response, "request_id") == data["request_id"]
    assert snapshot() == before
    # one tap: Save again (the page carries a fresh token)
    again = client.post(f"/t/{gdy.public_id}/record", data={**data, "csrf_token": hidden(response, "csrf_token")})
    assert again.status_code == 302, text_of(again)[:600]
    assert db.session.query(Hand).count() == 1


def test_expired_form_without_the_edit_key_is_refused(client, gdy, app):
    app.config["WTF_CSRF_ENABLED"] = True
    response = client.post(f"/t/{gdy.public_id}/record", data={**gdy_form(), "edit_key": "wrong"})
    assert response.status_code == 400
    assert "Everything you entered" not in text_of(response)


def test_every_engine_problem_shows_beside_its_field(client, gdy, writer):
    """Issue 21 item 4: two problems of one hand, each beside its own field, the typed text kept;
    twin: one problem, one message."""
    writer(gdy)
    before = snapshot()
    data = {**gdy_form(cards_1="99", cards_2="5", jokers_2="9"), **open_form(client, gdy)}
    response = client.post(f"/t/{gdy.public_id}/record", data=data)
    assert response.status_code == 400
    errors = field_errors(response)
    assert "27" in " ".join(errors["cards_1"]) and "joker" in " ".join(errors["jokers_2"]).lower()
    body = response.get_data(as_text=True)
    assert re.search(r'id="cards_1"[^>]*value="99"', body) and re.search(r'id="jokers_2"[^>]*value="9"', body)
    assert snapshot() == before
    data = {**gdy_form(cards_1="99"), **open_form(client, gdy)}
    errors = field_errors(client.post(f"/t/{gdy.public_id}/record", data=data))
    assert list(errors) == ["cards_1"]


def test_every_dagong_points_problem_shows_beside_its_box(client, dg, writer):
    writer(dg)
    data = {**dg_form(captured_0="-5", captured_1="52"), **open_form(client, dg)}
    response = client.post(f"/t/{dg.public_id}/record", data=data)
    assert response.status_code == 400
    errors = field_errors(response)
    assert "negative" in " ".join(errors["captured_0"]) and "multiple of 5" in " ".join(errors["captured_1"])
    body = response.get_data(as_text=True)
    assert re.search(r'id="captured_1"[^>]*value="52"', body)
