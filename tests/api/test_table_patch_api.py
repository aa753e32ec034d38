"""PATCH /api/v1/tables/<id> (issue 11, item 5): name, stake per hand, archive, delete and undelete."""
from decimal import Decimal

from api_helpers import assert_error
from test_tables_api import open_table, record

FACTS = {"winner": "Ana", "losers": {"Bo": {"cards": 3, "jokers": 0}, "Chen": {"cards": 5, "jokers": 1},
                                     "Dee": {"cards": 1, "jokers": 0}}}  # Ana +14 (source preset)


def patch(api, table, body, token=None):
    return api("PATCH", f"/tables/{table['id']}", body,
               headers={"Authorization": "Bearer " + (token if token is not None else table["token"])})


def test_a_new_stake_counts_from_the_next_hand(api):
    table = open_table(api)  # 0.5 ¥
    assert record(api, table, FACTS, request_id="a").status == 201
    answer = patch(api, table, {"stake": "2", "name": "Friday late"})
    assert answer.status == 200, answer
    assert answer.json["stake"] == "2" and answer.json["name"] == "Friday late"
    assert record(api, table, FACTS, request_id="b").status == 201
    body = api("GET", f"/tables/{table['id']}").json
    ana = next(row for row in body["standings"] if row["player"] == "Ana")
    assert Decimal(ana["money"]) == Decimal("14") * Decimal("0.5") + Decimal("14") * 2  # not 28 × 2
    assert body["stakes"] == [{"from_hand": 1, "stake": "0.5"}, {"from_hand": 2, "stake": "2"}]
    hands = api("GET", f"/tables/{table['id']}/hands").json["hands"]
    assert {h["number"]: h["stake"] for h in hands} == {1: "0.5", 2: "2"}


def test_patch_needs_the_edit_token_and_refuses_bad_values_changing_nothing(api):
    table = open_table(api)
    assert_error(patch(api, table, {"name": "x"}, token="wrong-token-000000000000"), 403, "bad_token")
    assert_error(patch(api, table, {"stake": "-1"}), 400, field="stake")
    assert_error(patch(api, table, {"archived": "false"}), 400, "wrong_type", "archived")
    assert_error(patch(api, table, {"colour": "red"}), 400, "unknown_field")
    assert_error(patch(api, table, {"name": ""}), 400, field="name")
    body = api("GET", f"/tables/{table['id']}").json
    assert (body["name"], body["stake"], body["archived"]) == ("Friday", "0.5", False)


def test_archive_refuses_hands_and_restore_takes_them_again(api):
    table = open_table(api)
    assert patch(api, table, {"archived": True}).json["archived"] is True
    assert_error(record(api, table, FACTS, request_id="a"), 400, "table_archived")
    assert_error(patch(api, table, {"name": "x"}), 400, "table_archived")
    assert patch(api, table, {"archived": False}).json["archived"] is False
    assert record(api, table, FACTS, request_id="a").status == 201


def test_delete_hides_the_table_and_undelete_brings_it_back(api):
    table = open_table(api)
    assert record(api, table, FACTS, request_id="a").status == 201
    deleted = patch(api, table, {"deleted": True})
    assert deleted.status == 200 and deleted.json["deleted_at"]
    assert_error(api("GET", f"/tables/{table['id']}"), 404, "unknown_table")
    assert_error(record(api, table, FACTS, request_id="b"), 404, "unknown_table")
    back = patch(api, table, {"deleted": False})
    assert back.status == 200 and back.json["deleted_at"] is None and back.json["hand_count"] == 1


def test_a_patch_is_all_or_nothing(api):
    """An archived table restored and renamed in one PATCH: with a bad name, it stays archived (twin:
    with a good name, both happen)."""
    table = open_table(api)
    assert patch(api, table, {"archived": True}).status == 200
    assert_error(patch(api, table, {"archived": False, "name": ""}), 400, field="name")
    assert api("GET", f"/tables/{table['id']}").json["archived"] is True
    both = patch(api, table, {"archived": False, "name": "Back again"})
    assert both.status == 200 and both.json["archived"] is False and both.json["name"] == "Back again"
    # a deleted table takes no other change unless brought back in the same request
    assert patch(api, table, {"deleted": True}).status == 200
    assert_error(patch(api, table, {"name": "x"}), 400, "table_deleted")
    assert_error(patch(api, table, {"archived": True}), 400, "table_deleted")
    back = patch(api, table, {"deleted": False, "name": "Saved"})
    assert back.status == 200 and back.json["name"] == "Saved" and back.json["deleted_at"] is None
