"""Issue 17, item 4 (part): the two answers that open a table name its id and edit token the same way
(both answer both ``id``/``public_id`` and ``token``/``edit_token``, and the token works), and every
time in an API answer carries its zone. Real HTTP."""
import json
from datetime import datetime, timedelta

from api_helpers import assert_error
from test_tables_api import gdy_facts, open_table, record


def bearer(token):
    return {"Authorization": "Bearer " + token}


def export(api, table):
    answer = api("GET", f"/tables/{table['id']}/export")
    assert answer.status == 200, answer
    return answer


def test_opening_a_table_answers_both_names_and_the_token_works(api):
    table = open_table(api)
    assert table["public_id"] == table["id"] and table["edit_token"] == table["token"]
    assert table["token"] != table["id"]
    answer = api("POST", f"/tables/{table['public_id']}/hands", {"facts": gdy_facts(), "request_id": "a"},
                 headers=bearer(table["edit_token"]))
    assert answer.status == 201, answer
    # The names are only for the one who opened it: reading the table shows no token under either name.
    read = api("GET", f"/tables/{table['id']}").json
    assert read["public_id"] == table["id"] and "token" not in read and "edit_token" not in read


def test_importing_a_table_answers_both_names_and_the_token_works(api):
    table = open_table(api)
    assert record(api, table, request_id="a").status == 201
    answer = api("POST", "/import", raw=export(api, table).raw)
    assert answer.status == 201, answer
    body = answer.json
    assert body["id"] == body["public_id"] == body["table"]["id"] == body["table"]["public_id"]
    assert body["token"] == body["edit_token"] == body["table"]["token"] == body["table"]["edit_token"]
    assert body["id"] != table["id"] and body["token"] != table["token"]
    new = f"/tables/{body['id']}/hands"
    # Twin: the old table's token does not open the new one; the new one's does, under either name.
    assert_error(api("POST", new, {"facts": gdy_facts(), "request_id": "b"}, headers=bearer(table["token"])),
                 403, "bad_token")
    assert api("POST", new, {"facts": gdy_facts(), "request_id": "b"}, headers=bearer(body["token"])).status == 201
    assert api("POST", new, {"facts": gdy_facts(), "request_id": "c"},
               headers=bearer(body["edit_token"])).status == 201


def _times(value, path=""):
    """Every (path, value) under a key ending in ``_at`` that holds a time (not null)."""
    if isinstance(value, dict):
        for key, item in value.items():
            if key.endswith("_at") and item is not None:
                yield f"{path}.{key}", item
            else:
                yield from _times(item, f"{path}.{key}")
    elif isinstance(value, list):
        for i, item in enumerate(value):
            yield from _times(item, f"{path}[{i}]")


def _assert_zoned(where, text):
    assert isinstance(text, str), (where, text)
    moment = datetime.fromisoformat(text)  # accepts "+00:00" and "Z" (Python 3.11)
    assert moment.tzinfo is not None, f"{where}: {text!r} has no time zone"
    assert moment.utcoffset() == timedelta(0), f"{where}: {text!r} is not UTC"
    assert abs(datetime.now(moment.tzinfo) - moment) < timedelta(hours=1), f"{where}: {text!r}"


def test_every_time_in_the_answers_carries_its_zone(api):
    table = open_table(api)
    answers = {"create": table}
    hand = record(api, table, request_id="a")
    assert hand.status == 201, hand
    answers["record"] = hand.json
    url = f"/tables/{table['id']}"
    voided = api("POST", url + "/hands/1/void", {"revision": hand.json["revision"]}, headers=bearer(table["token"]))
    assert voided.status == 200, voided
    answers["void"] = voided.json
    assert record(api, table, request_id="b").status == 201
    for name, path in (("table", url), ("hand", url + "/hands/1"), ("hands", url + "/hands"),
                       ("summary", url + "/summary")):
        read = api("GET", path)
        assert read.status == 200, read
        answers[name] = read.json
    answers["export"] = json.loads(export(api, table).raw)
    imported = api("POST", "/import", raw=export(api, table).raw)
    assert imported.status == 201, imported
    answers["import"] = imported.json
    archived = api("PATCH", url, {"archived": True}, headers=bearer(table["token"]))
    assert archived.status == 200, archived
    answers["archive"] = archived.json
    deleted = api("PATCH", url, {"deleted": True}, headers=bearer(table["token"]))
    assert deleted.status == 200, deleted
    answers["delete"] = deleted.json

    found = list(_times(answers))
    for where, text in found:
        _assert_zoned(where, text)
    names = {where.rsplit(".", 1)[1] for where, _ in found}
    # Not vacuous: each kind of time the API sends was seen (in table, hand, summary and export answers).
    assert names >= {"created_at", "updated_at", "archived_at", "deleted_at", "first_at", "last_at"}, names
    assert {where.split(".")[1] for where, _ in found} >= {"create", "record", "void", "table", "hand", "hands",
                                                           "summary", "export", "import", "archive", "delete"}


def test_a_time_without_a_zone_is_caught():
    """Twin of the check above: a naive time (what SQLite gives back) is refused by it."""
    try:
        _assert_zoned("x", datetime.now().isoformat())
    except AssertionError:
        return
    raise AssertionError("a time without its zone passed")
