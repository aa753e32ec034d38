"""The tables API over real HTTP: open a table, record / list / read / edit / void / restore hands,
undo; edit tokens; idempotent recording; stale edits; unknown tables and forged hand numbers."""
import pytest

from api_helpers import assert_error, http

PLAYERS = ["Ana", "Bo", "Chen", "Dee"]


def gdy_facts(winner="Ana", **cards):
    cards = cards or {"Bo": 3, "Chen": 5, "Dee": 1}
    losers = {name: {"cards": n, "jokers": 1 if name == "Chen" else 0} for name, n in cards.items()}
    return {"winner": winner, "losers": losers}


def open_table(api, **extra):
    body = {"game": "gandengyan", "name": "Friday", "players": PLAYERS, "stake": "0.5", "currency": "¥",
            "preset": "source", "first_dealer": "Ana", **extra}
    answer = api("POST", "/tables", body)
    assert answer.status == 201, answer
    return answer.json


def record(api, table, facts=None, request_id="r1", token=None, **extra):
    body = {"facts": facts or gdy_facts(), "request_id": request_id, **extra}
    return api("POST", f"/tables/{table['id']}/hands", body,
               headers={"X-Edit-Token": token if token is not None else table["token"]})


def test_open_and_read_a_table(api):
    table = open_table(api)
    assert len(table["id"]) >= 22 and table["token"] and table["token"] != table["id"]
    assert table["urls"]["api"].endswith("/api/v1/tables/" + table["id"])
    assert table["urls"]["page"].endswith("/t/" + table["id"])
    assert table["urls"]["share"].endswith(f"/t/{table['id']}#key={table['token']}")  # the web record link
    page = http(api.base, "GET", table["urls"]["page"][len(api.base):])
    assert page.status == 200 and "Friday" in page.raw.decode()
    read = api("GET", f"/tables/{table['id']}")
    assert read.status == 200
    body = read.json
    assert "token" not in body and "share" not in body["urls"]  # the edit token goes to the opener only
    assert body["game"] == "gandengyan" and body["name"] == "Friday"
    assert body["stake"] == "0.5" and body["currency"] == "¥"
    assert [p["name"] for p in sorted(body["players"], key=lambda p: p["seat"])] == PLAYERS
    assert body["hand_count"] == 0 and body["revision"] >= 1
    assert isinstance(body["rules"], dict) and body["rules"]
    assert {s["player"] for s in body["standings"]} == set(PLAYERS)


def test_record_hands_standings_and_idempotency(api):
    table = open_table(api)
    first = record(api, table)
    assert first.status == 201, first
    hand = first.json
    assert hand["number"] == 1 and hand["status"] == "active" and hand["revision"] == 1
    assert hand["deltas"] == {"Ana": 14, "Bo": -3, "Chen": -10, "Dee": -1}
    assert hand["steps"]
    # the same request again (a double tap, a retried request): the same hand, nothing recorded
    again = record(api, table)
    assert again.status == 200 and again.json["number"] == 1 and again.json["created"] is False
    # a new request id records a second hand
    second = record(api, table, gdy_facts("Bo", Ana=2, Chen=1, Dee=2), request_id="r2")
    assert second.status == 201 and second.json["number"] == 2
    body = api("GET", f"/tables/{table['id']}").json
    assert body["hand_count"] == 2
    totals = {s["player"]: (s["points"], s["money"]) for s in body["standings"]}
    assert totals["Ana"] == (14 - 2, "6")   # points, and money at 0.5 a point
    assert totals["Bo"] == (-3 + 2 + 2 + 2, "1.5")
    assert sum(s["points"] for s in body["standings"]) == 0
    assert body["standings"][0]["points"] == max(s["points"] for s in body["standings"])
    assert body["current_dealer"] == "Bo"


def test_list_hands_newest_first_paginated(api):
    table = open_table(api)
    for i in range(5):
        assert record(api, table, request_id=f"r{i}").status == 201
    page1 = api("GET", f"/tables/{table['id']}/hands?per_page=2").json
    assert [h["number"] for h in page1["hands"]] == [5, 4]
    assert page1["total"] == 5 and page1["pages"] == 3 and page1["next"]
    page3 = api("GET", f"/tables/{table['id']}/hands?per_page=2&page=3").json
    assert [h["number"] for h in page3["hands"]] == [1] and page3["next"] is None
    for h in page1["hands"]:
        assert set(h) >= {"number", "facts", "status", "revision", "deltas"}
        assert h["facts"]["winner"] == "Ana"
    assert api("GET", f"/tables/{table['id']}/hands?page=9").json["hands"] == []
    assert_error(api("GET", f"/tables/{table['id']}/hands?page=abc"), 400, field="page")
    assert_error(api("GET", f"/tables/{table['id']}/hands?per_page=0"), 400, field="per_page")
    assert_error(api("GET", f"/tables/{table['id']}/hands?page=-1"), 400, field="page")
    assert_error(api("GET", f"/tables/{table['id']}/hands?page=%C2%B2"), 400, field="page")  # "²"


def test_read_one_hand(api):
    table = open_table(api)
    record(api, table)
    hand = api("GET", f"/tables/{table['id']}/hands/1")
    assert hand.status == 200 and hand.json["number"] == 1 and hand.json["facts"]["players"] == PLAYERS


def test_edit_with_revision_and_stale_conflict(api):
    table = open_table(api)
    record(api, table)
    url = f"/tables/{table['id']}/hands/1"
    new = gdy_facts("Dee", Ana=1, Bo=1, Chen=1)
    edited = api("PUT", url, {"facts": new, "revision": 1, "token": table["token"]})
    assert edited.status == 200, edited
    assert edited.json["revision"] == 2 and edited.json["deltas"]["Dee"] == 1 + 1 + 2
    # a second phone still holding revision 1: refused with both versions
    stale = api("PUT", url, {"facts": gdy_facts(), "revision": 1, "token": table["token"]})
    assert_error(stale, 409, field="revision")
    assert stale.json["current"]["revision"] == 2 and stale.json["current"]["facts"]["winner"] == "Dee"
    assert stale.json["submitted"]["winner"] == "Ana"
    assert api("GET", url).json["facts"]["winner"] == "Dee"  # nothing lost


def test_void_and_restore(api):
    table = open_table(api)
    record(api, table)
    url = f"/tables/{table['id']}/hands/1"
    voided = api("POST", url + "/void", {"revision": 1}, headers={"X-Edit-Token": table["token"]})
    assert voided.status == 200 and voided.json["status"] == "void"
    body = api("GET", f"/tables/{table['id']}").json
    assert all(s["points"] == 0 for s in body["standings"]) and body["hand_count"] == 0
    assert_error(api("POST", url + "/restore", {"revision": 1}, headers={"X-Edit-Token": table["token"]}),
                 409, field="revision")
    restored = api("POST", url + "/restore", {"revision": voided.json["revision"]},
                   headers={"X-Edit-Token": table["token"]})
    assert restored.status == 200 and restored.json["status"] == "active"
    assert {s["player"]: s["points"] for s in api("GET", f"/tables/{table['id']}").json["standings"]}["Ana"] == 14


def test_undo_last(api):
    table = open_table(api)
    record(api, table)
    undone = api("POST", f"/tables/{table['id']}/undo", {"token": table["token"]})
    assert undone.status == 200 and undone.json["undone"] == {"kind": "create", "hand": 1}
    assert undone.json["hand"]["status"] == "void"


def test_dagong_table(api):
    table = open_table(api, game="dagong", players=["P1", "P2", "P3", "P4"], preset="daye", first_dealer="P1")
    facts = {"banker": "P1", "partner": "P3", "shout": None, "order": ["P1", "P2", "P3", "P4"],
             "captured": {"P1": 60, "P2": 50, "P3": 30, "P4": 40}, "last_hand_points": 20}
    hand = record(api, table, facts)
    assert hand.status == 201, hand
    assert hand.json["deltas"] == {"P1": 1, "P2": -1, "P3": 1, "P4": -1}
    assert hand.json["outcome"]["arch"] == "half"


# ------------------------------------------------------------------------------------------
# Tokens, unknown tables, forged numbers, bad bodies


def test_writes_need_the_edit_token(api):
    table = open_table(api)
    assert_error(record(api, table, token=""), 403, "token_required", "token")
    assert_error(record(api, table, token="x" * 32), 403, "bad_token", "token")
    other = open_table(api, name="Other")
    assert_error(record(api, table, token=other["token"]), 403, "bad_token")
    record(api, table)
    url = f"/tables/{table['id']}/hands/1"
    assert_error(api("PUT", url, {"facts": gdy_facts(), "revision": 1}), 403)
    assert_error(api("POST", url + "/void", {"revision": 1, "token": "nope"}), 403)
    assert_error(api("POST", url + "/restore", {"revision": 1}), 403)
    assert_error(api("POST", f"/tables/{table['id']}/undo", {}), 403)
    # nothing changed
    assert api("GET", url).json["revision"] == 1
    assert api("GET", f"/tables/{table['id']}").json["hand_count"] == 1


def test_token_in_the_body_works(api):
    table = open_table(api)
    answer = api("POST", f"/tables/{table['id']}/hands",
                 {"facts": gdy_facts(), "request_id": "b1", "token": table["token"]})
    assert answer.status == 201


@pytest.mark.parametrize("path", ["/tables/doesnotexist000000000", "/tables/x", "/tables/" + "a" * 300,
                                  "/tables/%3Cscript%3E", "/tables/doesnotexist000000000/hands",
                                  "/tables/doesnotexist000000000/hands/1"])
def test_unknown_table_is_404(api, path):
    assert_error(api("GET", path), 404, "unknown_table", "table")


def test_forged_hand_number_is_404(api):
    mine = open_table(api)
    theirs = open_table(api, name="Theirs")
    for i in range(3):
        record(api, theirs, request_id=f"t{i}")
    record(api, mine)
    # hand 3 exists at the other table only: not reachable through mine, even with my token
    assert_error(api("GET", f"/tables/{mine['id']}/hands/3"), 404, "unknown_hand", "number")
    assert_error(api("PUT", f"/tables/{mine['id']}/hands/3", {"facts": gdy_facts(), "revision": 1},
                     headers={"X-Edit-Token": mine["token"]}), 404, "unknown_hand")
    assert_error(api("POST", f"/tables/{mine['id']}/hands/3/void", {"revision": 1},
                     headers={"X-Edit-Token": mine["token"]}), 404, "unknown_hand")
    for number in ("0", "99999999999999999999999", "-1", "abc"):
        answer = api("GET", f"/tables/{mine['id']}/hands/{number}")
        assert_error(answer, 404)
    assert api("GET", f"/tables/{theirs['id']}/hands/3").json["revision"] == 1


@pytest.mark.parametrize("body,status,field", [
    ({"game": "gandengyan", "players": PLAYERS}, 400, "name"),
    ({"game": "gandengyan", "name": "x" * 500, "players": PLAYERS}, 400, "name"),
    ({"game": "gandengyan", "name": "T", "players": "Ana Bo"}, 400, "players"),
    ({"game": "gandengyan", "name": "T", "players": [1, 2, 3]}, 400, "players"),
    ({"game": "gandengyan", "name": "T", "players": ["Ana", "Ana"]}, 400, "players*"),
    ({"game": "gandengyan", "name": "T", "players": ["Solo"]}, 400, "players"),
    ({"game": "gandengyan", "name": "T", "players": ["A"] * 7}, 400, "players*"),
    ({"game": "dagong", "name": "T", "players": ["A", "B", "C"]}, 400, "players"),
    ({"game": "gandengyan", "name": "T", "players": PLAYERS, "stake": "-2"}, 400, "stake"),
    ({"game": "gandengyan", "name": "T", "players": PLAYERS, "stake": {"x": 1}}, 400, "stake"),
    ({"game": "gandengyan", "name": "T", "players": PLAYERS, "preset": "daye"}, 400, "preset"),
    ({"game": "gandengyan", "name": "T", "players": PLAYERS, "rules": {"bogus": 1}}, 400, "rules.bogus"),
    ({"game": "gandengyan", "name": "T", "players": PLAYERS, "rules": [1]}, 400, "rules"),
    ({"game": "gandengyan", "name": "T", "players": PLAYERS, "first_dealer": "Zed"}, 400, "first_dealer"),
    ({"game": "gandengyan", "name": 5, "players": PLAYERS}, 400, "name"),
    ({"game": "go", "name": "T", "players": PLAYERS}, 400, "game"),
])
def test_bad_table_bodies(api, body, status, field):
    assert_error(api("POST", "/tables", body), status, field=field)


def test_html_in_names_is_kept_as_text(api):
    table = open_table(api, name="<script>alert(1)</script>", players=["<b>A</b>", "B", "C", "D"],
                       first_dealer=None)
    body = api("GET", f"/tables/{table['id']}").json
    assert body["name"] == "<script>alert(1)</script>"
    assert body["players"][0]["name"] == "<b>A</b>"


@pytest.mark.parametrize("body,field", [
    ({"request_id": "x"}, "facts"),
    ({"facts": [1, 2], "request_id": "x"}, "facts"),
    ({"facts": {"winner": "Ana", "losers": {"Bo": {"cards": 3, "jokers": 9}}}, "request_id": "x"}, "losers*"),
    ({"facts": {"winner": "Nobody", "losers": {}}, "request_id": "x"}, None),
    ({"facts": {**gdy_facts(), "players": ["Ana", "Bo"]}, "request_id": "x"}, "players"),
    ({"facts": gdy_facts(), "request_id": 5}, "request_id"),
    ({"facts": gdy_facts(), "request_id": "r" * 65}, "request_id"),
    ({"facts": gdy_facts(), "request_id": "x", "expected_number": "1"}, "expected_number"),
])
def test_bad_hand_bodies_store_nothing(api, body, field):
    table = open_table(api)
    answer = api("POST", f"/tables/{table['id']}/hands", body, headers={"X-Edit-Token": table["token"]})
    assert_error(answer, 400, field=field)
    assert api("GET", f"/tables/{table['id']}").json["hand_count"] == 0


def test_bad_edit_bodies(api):
    table = open_table(api)
    record(api, table)
    url = f"/tables/{table['id']}/hands/1"
    headers = {"X-Edit-Token": table["token"]}
    assert_error(api("PUT", url, {"facts": gdy_facts()}, headers=headers), 400, "missing", "revision")
    assert_error(api("PUT", url, {"facts": gdy_facts(), "revision": "1"}, headers=headers), 400, field="revision")
    assert_error(api("PUT", url, {"facts": gdy_facts(), "revision": 10**30}, headers=headers), 400, field="revision")
    assert_error(api("PUT", url, raw=b"[]", headers=headers), 400, "not_an_object")
    assert_error(api("POST", url + "/void", raw=b"{oops", headers=headers), 400, "bad_json")
    assert_error(api("POST", url + "/void", {}, headers=headers), 400, "missing", "revision")
    assert api("GET", url).json["revision"] == 1


def test_simultaneous_requests_record_once_and_edit_once(api):
    """Two phones at once over real HTTP: the same request_id records one hand; two edits from the
    same revision: one wins, the other gets 409 with both versions; nothing is lost silently."""
    from concurrent.futures import ThreadPoolExecutor

    table = open_table(api)
    with ThreadPoolExecutor(max_workers=6) as pool:
        answers = list(pool.map(lambda _: record(api, table, request_id="same-tap"), range(6)))
    assert all(a.status in (200, 201) for a in answers), answers
    assert {a.json["number"] for a in answers} == {1}
    assert sum(a.status == 201 for a in answers) >= 1
    assert api("GET", f"/tables/{table['id']}").json["hand_count"] == 1

    url = f"/tables/{table['id']}/hands/1"
    edits = [gdy_facts(winner, **{p: 1 for p in PLAYERS if p != winner}) for winner in ("Bo", "Chen", "Dee")]
    with ThreadPoolExecutor(max_workers=3) as pool:
        answers = list(pool.map(lambda facts: api("PUT", url, {"facts": facts, "revision": 1, "token": table["token"]}),
                                edits))
    statuses = sorted(a.status for a in answers)
    assert statuses == [200, 409, 409], answers
    winner = next(a for a in answers if a.status == 200).json["facts"]["winner"]
    for refused in (a for a in answers if a.status == 409):
        assert refused.json["current"]["facts"]["winner"] == winner
        assert refused.json["submitted"]["winner"] != winner
    stored = api("GET", url).json
    assert stored["revision"] == 2 and stored["facts"]["winner"] == winner
