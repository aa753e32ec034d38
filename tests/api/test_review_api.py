"""Issue 11 in API v1: summary (with settle-up transfers), export, and import on another server."""
import json
from decimal import Decimal

from api_helpers import assert_error
from test_tables_api import open_table, record

FACTS = [
    {"winner": "Ana", "losers": {"Bo": {"cards": 3, "jokers": 0}, "Chen": {"cards": 5, "jokers": 1},
                                 "Dee": {"cards": 1, "jokers": 0}}},
    {"winner": "Bo", "losers": {"Ana": {"cards": 2, "jokers": 0}, "Chen": {"cards": 4, "jokers": 0},
                                "Dee": {"cards": 2, "jokers": 0}}},
]


def _night(api):
    table = open_table(api)  # stake 0.5 ¥
    for i, facts in enumerate(FACTS):
        assert record(api, table, facts, request_id=f"n{i}").status == 201
    return table


def test_summary_has_standings_figures_and_transfers_that_square_everyone(api):
    table = _night(api)
    answer = api("GET", f"/tables/{table['id']}/summary")
    assert answer.status == 200, answer
    body = answer.json
    assert body["hands"] == 2 and body["void"] == 0 and body["in_money"] is True
    points = {row["player"]: row["points"] for row in body["standings"]}
    # hand 1: Ana +3 +10 +1 = 14; hand 2: Bo +2 +4 +2 = 8
    assert points == {"Ana": 14 - 2, "Bo": -3 + 8, "Chen": -10 - 4, "Dee": -1 - 2}
    figures = {row["player"]: row for row in body["players"]}
    assert figures["Ana"]["won"] == 1 and figures["Chen"]["jokers"] == 1 and figures["Chen"]["biggest_loss"] == -10
    paid = {name: Decimal(0) for name in points}
    for transfer in body["transfers"]:
        paid[transfer["from"]] -= Decimal(transfer["amount"])
        paid[transfer["to"]] += Decimal(transfer["amount"])
    assert paid == {name: Decimal(p) * Decimal("0.5") for name, p in points.items()}
    assert len(body["transfers"]) <= 3


def test_summary_of_an_unknown_table_is_404(api):
    assert_error(api("GET", "/tables/" + "A" * 22 + "/summary"), 404, "unknown_table")


def test_export_then_import_recreates_the_table_exactly(api):
    table = _night(api)
    exported = api("GET", f"/tables/{table['id']}/export")
    assert exported.status == 200 and exported.json["format_version"] == 3
    assert table["token"] not in exported.raw.decode() and table["id"] not in exported.raw.decode()
    imported = api("POST", "/import", raw=exported.raw)
    assert imported.status == 201, imported
    new = imported.json
    assert new["public_id"] != table["id"] and new["edit_token"] != table["token"]
    again = api("GET", f"/tables/{new['public_id']}/export")
    for key in ("hands", "players"):  # replayed: the same facts, statuses, stakes and points
        assert [{k: v for k, v in h.items() if k not in ("created_at", "updated_at", "request_id", "revision")}
                for h in again.json[key]] == \
               [{k: v for k, v in h.items() if k not in ("created_at", "updated_at", "request_id", "revision")}
                for h in exported.json[key]]
    original = api("GET", f"/tables/{table['id']}").json["standings"]
    assert api("GET", f"/tables/{new['public_id']}").json["standings"] == original
    # the new table takes writes with its own token
    assert record(api, {"id": new["public_id"], "token": new["edit_token"]}, request_id="after").status == 201


def _rows(app):
    from sqlalchemy import func, select

    from companion.extensions import db
    from companion.db.models import Hand, HandEvent, Player, Table

    with app.app_context():
        return [db.session.scalar(select(func.count()).select_from(model)) for model in (Table, Player, Hand, HandEvent)]


def test_a_damaged_or_newer_document_is_refused_and_changes_nothing(api, live_server):
    table = _night(api)
    doc = api("GET", f"/tables/{table['id']}/export").json
    before = _rows(live_server.app)
    damaged = dict(doc, table=dict(doc["table"], name="changed"))
    newer = dict(doc, format_version=99)
    for body in (damaged, newer, {"format": "something else"}):
        answer = api("POST", "/import", raw=json.dumps(body).encode())
        assert 400 <= answer.status < 500 and answer.error["message"], answer
    assert api("POST", "/import", raw=b"{not json").status == 400
    assert _rows(live_server.app) == before
