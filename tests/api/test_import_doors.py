"""Issue 31: every door checks a value the same way. The same hand facts, names and stakes through
POST …/hands, POST /import and the import page get the same answer: a count written as text is
refused (wrong_type) at all of them, a fact the table's rules ignore is dropped at all of them (never
stored, never exported again), a name too long for a table is refused by both import doors."""
import copy
import html
import io
import json
import re
import uuid

from companion import review, scoring
from companion.extensions import db

DG_PLAYERS = ["P1", "P2", "P3", "P4"]
DG_HAND = {"banker": "P1", "partner": "P3", "shout": None, "order": ["P1", "P2", "P3", "P4"],
           "captured": {"P1": 60, "P2": 50, "P3": 30, "P4": 40}, "last_hand_points": 20}


def _resigned(doc: dict) -> bytes:
    doc = copy.deepcopy(doc)
    doc.pop("signature", None)
    doc["checksum"] = review._checksum(doc)
    return json.dumps(doc).encode()


def _dagong_export(app, rules=None) -> dict:
    with app.app_context():
        table = scoring.create_table(game="dagong", name="大冶", players=DG_PLAYERS, stake="1", preset="daye",
                                     rules=rules, first_dealer="P1")
        scoring.record_hand(table, DG_HAND, request_id=uuid.uuid4().hex)
        doc = json.loads(review.export_json(table))
        db.session.remove()
        return doc


def _open(api, game="dagong", rules=None):
    body = {"game": game, "name": "T", "players": DG_PLAYERS, "preset": "daye", "rules": rules or {}}
    answer = api("POST", "/tables", body)
    assert answer.status == 201, answer
    return answer.json


def _record(api, table, facts):
    return api("POST", f"/tables/{table['id']}/hands", {"facts": facts},
               headers={"Authorization": f"Bearer {table['token']}"})


def test_a_count_as_text_is_refused_by_the_api_and_by_the_import_alike(api, live_server):
    table = _open(api)
    by_api = _record(api, table, {**DG_HAND, "last_hand_points": "20"})
    assert by_api.status == 400 and by_api.error["code"] == "wrong_type", by_api
    doc = _dagong_export(live_server.app)
    doc["hands"][0]["facts"]["last_hand_points"] = "20"
    by_import = api("POST", "/import", raw=_resigned(doc))
    assert by_import.status == 400 and by_import.error["code"] == "bad_hand", by_import  # naming the hand
    assert by_import.error["field"] == "hands.0"
    assert by_api.error["message"] in by_import.error["message"]  # the one sentence, inside "Hand 1 …"
    # the twin: the same number as a number goes through both doors
    assert _record(api, table, DG_HAND).status == 201
    doc["hands"][0]["facts"]["last_hand_points"] = 20
    assert api("POST", "/import", raw=_resigned(doc)).status == 201


def _stored_facts(app, public_id):
    with app.app_context():
        facts = scoring.get_hand(scoring.get_table(public_id), 1).facts
        db.session.remove()
        return facts


def test_a_fact_the_rules_ignore_is_dropped_at_every_door(api, live_server):
    xi = {"P1": [7] * 500}
    off = _open(api)
    answer = _record(api, off, {**DG_HAND, "xi_bombs": xi})
    assert answer.status == 201, answer
    assert "xi_bombs" not in _stored_facts(live_server.app, off["id"])
    doc = _dagong_export(live_server.app)
    doc["hands"][0]["facts"]["xi_bombs"] = xi
    imported = api("POST", "/import", raw=_resigned(doc))
    assert imported.status == 201, imported
    assert "xi_bombs" not in _stored_facts(live_server.app, imported.json["id"])
    exported = api("GET", f"/tables/{imported.json['id']}/export")
    assert "xi_bombs" not in exported.json["hands"][0]["facts"]
    # the twin: with 喜钱 on, the fact is used, so it is judged (500 bombs: refused) or kept
    on = _open(api, rules={"bonus_xi_qian": True})
    assert _record(api, on, {**DG_HAND, "xi_bombs": xi}).status == 400
    assert _record(api, on, {**DG_HAND, "xi_bombs": {"P1": [7]}}).status == 201
    assert _stored_facts(live_server.app, on["id"])["xi_bombs"] == {"P1": [7]}


def test_a_fact_no_rule_knows_is_refused_by_name_not_dropped(api, live_server):
    table = _open(api)
    answer = _record(api, table, {**DG_HAND, "winner": "P1"})  # a 干瞪眼 fact in a 大冶打拱 hand
    assert answer.status == 400 and answer.error["field"] == "winner", answer
    doc = _dagong_export(live_server.app)
    doc["hands"][0]["facts"]["winner"] = "P1"
    imported = api("POST", "/import", raw=_resigned(doc))
    assert imported.status == 400 and "winner" in imported.error["message"], imported


def _page_import(live_server, body: bytes):
    client = live_server.app.test_client()
    live_server.app.config["WTF_CSRF_ENABLED"] = False
    try:
        return client.post("/import", data={"file": (io.BytesIO(body), "night.json")},
                           content_type="multipart/form-data")
    finally:
        live_server.app.config["WTF_CSRF_ENABLED"] = True


def test_a_name_too_long_gets_the_same_answer_from_both_import_doors(api, live_server):
    doc = _dagong_export(live_server.app)
    doc["table"]["name"] = "n" * 10_000
    body = _resigned(doc)
    by_api = api("POST", "/import", raw=body)
    assert by_api.status == 400 and by_api.error["code"] == "too_long", by_api
    page = _page_import(live_server, body)
    assert page.status_code == 400
    said = re.search(r'(?s)id="import-error"[^>]*>(.*?)</p>', page.get_data(as_text=True))
    assert said and html.unescape(said.group(1)).strip() == by_api.error["message"]  # the same sentence
    assert "at most 80 characters" in by_api.error["message"]
    # the twin: a name of 80 characters goes through both (the page adds its mark within the 80)
    doc["table"]["name"] = "n" * 80
    body = _resigned(doc)
    assert api("POST", "/import", raw=body).status == 201
    assert _page_import(live_server, body).status_code == 302


def _gdy_export(app) -> dict:
    """A 干瞪眼 night whose stake changed after hand 1 (0.5, then 2)."""
    with app.app_context():
        table = scoring.create_table(game="gandengyan", name="Friday", players=["A", "B", "C"], stake="0.5")
        facts = {"winner": "A", "losers": {"B": {"cards": 2}, "C": {"cards": 1}}}
        scoring.record_hand(table, facts, request_id=uuid.uuid4().hex)
        scoring.update_table(table, stake="2")
        scoring.record_hand(table, facts, request_id=uuid.uuid4().hex)
        doc = json.loads(review.export_json(table))
        db.session.remove()
        return doc


def test_a_forged_stake_is_refused_naming_the_hand(api, live_server):
    doc = _gdy_export(live_server.app)
    assert doc["stakes"] == [{"from_hand": 1, "stake": "0.5"}, {"from_hand": 2, "stake": "2"}]
    forged = copy.deepcopy(doc)
    forged["hands"][0]["stake"] = "1000000"
    answer = api("POST", "/import", raw=_resigned(forged))
    assert answer.status == 400 and answer.error["code"] == "stake_differs", answer
    assert answer.error["field"] == "hands.0.stake" and "Hand 1" in answer.error["message"]
    forged["stakes"][1]["from_hand"] = 1  # a history that does not start at hand 1, or goes back
    assert api("POST", "/import", raw=_resigned(forged)).status == 400
    # the twin: the history and the hand changed together is a consistent file: imported, but unsigned
    forged["stakes"] = [{"from_hand": 1, "stake": "1000000"}, {"from_hand": 2, "stake": "2"}]
    answer = api("POST", "/import", raw=_resigned(forged))
    assert answer.status == 201 and answer.json["signed"] is False, answer
    assert "who played what is as the file says" in answer.json["notes"][0]


def test_an_unchanged_export_is_known_as_this_servers_any_other_is_not(api, live_server):
    doc = _gdy_export(live_server.app)
    answer = api("POST", "/import", raw=json.dumps(doc).encode())
    assert answer.status == 201 and answer.json["signed"] is True, answer
    assert "unchanged since it was exported from here" in answer.json["notes"][0]
    assert doc["table"]["updated_at"][:10] in answer.json["notes"][0]
    # the same file signed with another secret (another server): imported, said plainly
    other = copy.deepcopy(doc)
    other["signature"] = "hmac-sha256:" + "0" * 64
    answer = api("POST", "/import", raw=json.dumps(other).encode())
    assert answer.status == 201 and answer.json["signed"] is False
    # a changed file whose checksum was made again: the checksum passes, the signature does not
    changed = copy.deepcopy(doc)
    changed["table"]["notes"] = "changed"
    answer = api("POST", "/import", raw=_rechecksummed(changed))
    assert answer.status == 201 and answer.json["signed"] is False


def _rechecksummed(doc: dict) -> bytes:
    """The attacker's move: the checksum made again, the signature left as it was."""
    doc = copy.deepcopy(doc)
    doc["checksum"] = review._checksum(doc)
    return json.dumps(doc).encode()


def test_a_format_1_file_says_on_import_which_stake_it_applied(live_server):
    doc = _gdy_export(live_server.app)
    doc["format_version"] = 1
    for hand in doc["hands"]:
        del hand["stake"]
    del doc["stakes"]
    with live_server.app.test_client() as client:
        live_server.app.config["WTF_CSRF_ENABLED"] = False
        try:
            answer = client.post("/import", data={"file": (io.BytesIO(_resigned(doc)), "night.json")},
                                 content_type="multipart/form-data", follow_redirects=True)
        finally:
            live_server.app.config["WTF_CSRF_ENABLED"] = True
    text = html.unescape(answer.get_data(as_text=True))
    assert "every hand was recorded at the table's stake in the file, 2 per point" in text
    assert "who played what is as the file says" in text
