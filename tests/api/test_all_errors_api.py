"""Issue 21 item 4 over real HTTP: what the engine refuses answers the usual ``error`` (the first
problem, unchanged) plus ``errors``, every problem it found, each with its own code, message and
field; nothing is stored. Errors found before the engine (JSON, unknown fields) carry no ``errors``."""
import re

from api_helpers import assert_error

PLAYERS = ["Ana", "Bo", "Chen", "Dee"]
RULES = {"played_bomb_mult": "double", "shut_out": "double"}

# Three mistakes the engine reports together (4 players: two decks, four jokers, bombs of 4 to 12):
# the dealer marked as never having played, five jokers held in all, a bomb of 13 cards.
THREE = {"winner": "Ana", "dealer": "Bo", "bombs_played": [13],
         "losers": {"Bo": {"cards": 5, "jokers": 2, "played": False}, "Chen": {"cards": 4, "jokers": 2},
                    "Dee": {"cards": 4, "jokers": 1}}}
THREE_FOUND = [("dealer_played", "losers.Bo.played"), ("jokers_exceed_deck", "losers.Dee.jokers"),
               ("bomb_size", "bombs_played.0")]
# Its twin with one mistake (the bomb of 13 only).
ONE = {"winner": "Ana", "dealer": "Bo", "bombs_played": [13],
       "losers": {"Bo": {"cards": 5, "jokers": 2, "played": True}, "Chen": {"cards": 4, "jokers": 2},
                  "Dee": {"cards": 4, "jokers": 0}}}


def _table(api, **extra):
    body = {"game": "gandengyan", "name": "Errors", "players": PLAYERS, "first_dealer": "Bo", "rules": RULES,
            **extra}
    answer = api("POST", "/tables", body)
    assert answer.status == 201, answer
    return answer.json


def _record(api, table, facts, request_id="r1", lang=None):
    return api("POST", f"/tables/{table['id']}/hands" + (f"?lang={lang}" if lang else ""),
               {"facts": facts, "request_id": request_id}, headers={"Authorization": f"Bearer {table['token']}"})


def _found(answer):
    return [(entry["code"], entry["field"]) for entry in answer.json["errors"]]


def _well_formed(answer):
    for entry in answer.json["errors"]:
        assert set(entry) == {"code", "message", "field"}, entry
        assert isinstance(entry["message"], str) and len(entry["message"]) > 10, entry


def test_a_hand_with_three_mistakes_lists_all_three_and_stores_nothing(api):
    table = _table(api)
    answer = _record(api, table, THREE)
    first = assert_error(answer, 400, "dealer_played", "losers.Bo.played")   # unchanged: the first problem
    assert _found(answer) == THREE_FOUND
    _well_formed(answer)
    assert answer.json["errors"][0] == first
    assert len({entry["message"] for entry in answer.json["errors"]}) == 3
    assert api("GET", f"/tables/{table['id']}").json["hands_recorded"] == 0
    fixed = {**THREE, "bombs_played": [4],
             "losers": {**THREE["losers"], "Bo": {"cards": 5, "jokers": 2, "played": True},
                        "Dee": {"cards": 4, "jokers": 0}}}
    saved = _record(api, table, fixed, request_id="r2")
    assert saved.status == 201, saved
    assert api("GET", f"/tables/{table['id']}").json["hands_recorded"] == 1


def test_a_hand_with_one_mistake_lists_one(api):
    table = _table(api)
    answer = _record(api, table, ONE)
    first = assert_error(answer, 400, "bomb_size", "bombs_played.0")
    assert answer.json["errors"] == [first]


def test_every_message_is_in_the_request_language(api):
    table = _table(api)
    answer = _record(api, table, THREE, lang="zh")
    assert answer.status == 400, answer
    for entry in answer.json["errors"]:
        assert re.search(r"[\u4e00-\u9fff]", entry["message"]), entry


def test_settle_lists_every_problem_of_a_dagong_hand(api):
    facts = {"game": "dagong", "players": ["P1", "P2", "P3", "P4"], "banker": "P1", "partner": "P3",
             "order": ["P1", "P3"], "captured": {"P1": 33}, "bright_card": "zz"}
    answer = api("POST", "/settle", facts)
    assert_error(answer, 400, "bad_card", "bright_card")
    assert _found(answer) == [("bad_card", "bright_card"), ("not_multiple_of_5", "captured.P1")]
    _well_formed(answer)
    twin = api("POST", "/settle", {**facts, "bright_card": "7h"})      # one mistake: one entry
    first = assert_error(twin, 400, "not_multiple_of_5", "captured.P1")
    assert twin.json["errors"] == [first]


def test_errors_found_before_the_engine_have_no_list(api):
    table = _table(api)
    answer = api("POST", f"/tables/{table['id']}/hands", {"facts": THREE, "request_id": "r1", "colour": "red"},
                 headers={"Authorization": f"Bearer {table['token']}"})
    assert_error(answer, 400, "unknown_field", "colour")
    assert "errors" not in answer.json
