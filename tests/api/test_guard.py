"""The input guard at the edge (companion/middleware/guard.py): junk never reaches a view, and never a 500."""
import http.client
import json
from urllib.parse import urlsplit

import pytest

from api_helpers import assert_error
from api_helpers import http as http_request
from test_tables_api import open_table, record

SURROGATE_TOKEN = b'{"token": "\\ud800"}'


@pytest.mark.parametrize("method, suffix", [
    ("POST", "/hands"), ("POST", "/undo"), ("PUT", "/hands/1"), ("POST", "/hands/1/void"),
    ("POST", "/hands/1/restore"),
])
def test_lone_surrogate_token_in_the_body_is_400_not_500(api, method, suffix):
    table = open_table(api)
    assert record(api, table).status == 201
    answer = api(method, f"/tables/{table['id']}{suffix}", raw=SURROGATE_TOKEN)
    assert_error(answer, 400, "bad_text", "token")
    assert api("GET", f"/tables/{table['id']}/hands").json["hands"][0]["status"] == "active"


def test_a_plain_wrong_token_twin_is_still_403(api):
    table = open_table(api)
    answer = api("POST", f"/tables/{table['id']}/undo", raw=b'{"token": "nope"}')
    assert answer.status == 403


@pytest.mark.parametrize("path", ["/tables/%00abcdefghijklmnopqrst", "/tables/abc%00defghijklmnopqrst/hands",
                                  "/tables/" + "%C3%A9" * 22])
def test_ids_outside_the_alphabet_are_404_before_any_lookup(api, path):
    assert_error(api("GET", path), 404, "unknown_table", "table")


@pytest.mark.parametrize("field, value", [
    ("request_id", "r\u0000"), ("request_id", "\ud800"), ("device", "ph\u0000ne"), ("device", "\x07bell"),
])
def test_nul_surrogate_and_control_characters_in_text_are_400(api, field, value):
    table = open_table(api)
    body = {"facts": {"winner": "Ana", "losers": {"Bo": {"cards": 3, "jokers": 0}, "Cy": {"cards": 1, "jokers": 0},
                                                  "Di": {"cards": 2, "jokers": 0}}}, "request_id": "ok", field: value}
    raw = json.dumps(body).encode()  # json.dumps writes \ud800 as an escape, as a client would
    answer = api("POST", f"/tables/{table['id']}/hands", raw=raw, headers={"X-Edit-Token": table["token"]})
    assert_error(answer, 400, "bad_text", field)
    assert api("GET", f"/tables/{table['id']}").json["hand_count"] == 0


def test_text_twin_with_tabs_newlines_and_chinese_is_accepted(api):
    table = open_table(api, notes="第一局\n\tfun")
    assert api("GET", f"/tables/{table['id']}").status == 200


def test_chunked_body_over_the_limit_is_413(api, live_server):
    host = urlsplit(live_server)
    conn = http.client.HTTPConnection(host.hostname, host.port, timeout=20)
    conn.putrequest("POST", "/api/v1/check")
    conn.putheader("Content-Type", "application/json")
    conn.putheader("Transfer-Encoding", "chunked")
    conn.endheaders()
    chunk = b'{"pad": "' + b"x" * 300_000 + b'"}'
    try:
        conn.send(b"%x\r\n%s\r\n0\r\n\r\n" % (len(chunk), chunk))
    except (BrokenPipeError, ConnectionResetError):
        pass  # the server may answer and close before reading everything
    response = conn.getresponse()
    body = json.loads(response.read())
    assert response.status == 413
    assert body["error"]["code"] == "request_entity_too_large"


def test_chunked_body_under_the_limit_twin_is_read(api, live_server):
    host = urlsplit(live_server)
    conn = http.client.HTTPConnection(host.hostname, host.port, timeout=20)
    conn.putrequest("POST", "/api/v1/check")
    conn.putheader("Content-Type", "application/json")
    conn.putheader("Transfer-Encoding", "chunked")
    conn.endheaders()
    chunk = json.dumps({"game": "gandengyan", "previous": "7", "play": "8"}).encode()
    conn.send(b"%x\r\n%s\r\n0\r\n\r\n" % (len(chunk), chunk))
    response = conn.getresponse()
    assert response.status == 200 and json.loads(response.read())["legal"] is True


def test_a_hand_write_body_over_8_kib_is_413(api):
    table = open_table(api)
    body = {"facts": {"winner": "Ana", "losers": {"Bo": {"cards": 3, "jokers": 0}}}, "request_id": "x" * 9000}
    answer = api("POST", f"/tables/{table['id']}/hands", body, headers={"X-Edit-Token": table["token"]})
    assert_error(answer, 413, "request_entity_too_large")
    assert api("GET", f"/tables/{table['id']}").json["hand_count"] == 0


def test_a_table_body_of_the_same_size_twin_is_not_capped_at_8_kib(api):
    answer = api("POST", "/tables", {"game": "gandengyan", "name": "Friday", "players": ["A", "B"],
                                     "notes": "n" * 1900, "pad": "x" * 9000})
    assert answer.status != 413  # refused for the unknown field, not for its size


def test_fifty_requests_sharing_one_request_id_answer_one_201(api):
    """Only the request whose commit stored the hand says it created it; the others answer 200."""
    import threading

    table = open_table(api)
    answers = []
    barrier = threading.Barrier(50)

    def send():
        barrier.wait()
        answers.append(record(api, table, request_id="same-tap"))

    threads = [threading.Thread(target=send) for _ in range(50)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    statuses = sorted(answer.status for answer in answers)
    assert statuses.count(201) == 1 and statuses.count(200) == 49, statuses
    assert [a.json["created"] for a in answers].count(True) == 1
    assert api("GET", f"/tables/{table['id']}").json["hand_count"] == 1


def test_without_request_id_or_idempotency_key_each_post_records_and_says_so(api):
    table = open_table(api)
    first = api("POST", f"/tables/{table['id']}/hands", {"facts": FACTS}, headers={"X-Edit-Token": table["token"]})
    second = api("POST", f"/tables/{table['id']}/hands", {"facts": FACTS}, headers={"X-Edit-Token": table["token"]})
    assert first.status == second.status == 201
    assert first.json["idempotent"] is False and first.json["number"] != second.json["number"]
    keyed = [api("POST", f"/tables/{table['id']}/hands", {"facts": FACTS},
                 headers={"X-Edit-Token": table["token"], "Idempotency-Key": "k-1"}) for _ in range(2)]
    assert [a.status for a in keyed] == [201, 200] and keyed[0].json["idempotent"] is True
    assert keyed[1].json["number"] == keyed[0].json["number"]


FACTS = {"winner": "Ana", "losers": {"Bo": {"cards": 3, "jokers": 0}, "Chen": {"cards": 1, "jokers": 0},
                                     "Dee": {"cards": 2, "jokers": 1}}}


def test_absurd_points_are_a_clear_400_and_the_largest_allowed_hands_still_add_up(api):
    table = open_table(api, rules={"unit": 1_000_000, "played_bomb_mult": "double"}, preset=None)
    absurd = {**FACTS, "bombs_played": [4] * 25}  # 25 bombs fit two decks; the points do not fit 10^9
    answer = api("POST", f"/tables/{table['id']}/hands", {"facts": absurd, "request_id": "x"},
                 headers={"X-Edit-Token": table["token"]})
    assert_error(answer, 400, "too_many_points", "bombs_played")
    big = {**FACTS, "bombs_played": [4] * 4}  # 2^4 × 10^6 per card: hundreds of millions of points
    for i in range(3):
        assert api("POST", f"/tables/{table['id']}/hands", {"facts": big, "request_id": f"b{i}"},
                   headers={"X-Edit-Token": table["token"]}).status == 201
    read = api("GET", f"/tables/{table['id']}")
    assert read.status == 200
    points = {row["player"]: row["points"] for row in read.json["standings"]}
    assert sum(points.values()) == 0 and points["Ana"] == 3 * (3 + 1 + 2 * 2) * 16 * 1_000_000
    assert http_request(api.base, "GET", f"/t/{table['id']}").status == 200
