"""PUT /api/v1/tables/<id>/players (issue 21, item 3): join, leave, rename between hands, undo."""
from api_helpers import assert_error
from test_tables_api import open_table, record

# source preset: Ana +14 (Bo 3, Chen 5 with a joker, Dee 1)
FACTS = {"winner": "Ana", "losers": {"Bo": {"cards": 3, "jokers": 0}, "Chen": {"cards": 5, "jokers": 1},
                                     "Dee": {"cards": 1, "jokers": 0}}}


def put(api, table, body, token=None):
    return api("PUT", f"/tables/{table['id']}/players", body,
               headers={"Authorization": "Bearer " + (token if token is not None else table["token"])})


def test_join_rename_leave_and_undo_through_the_api(api):
    table = open_table(api)
    assert record(api, table, FACTS, request_id="a").status == 201
    answer = put(api, table, {"players": ["Ana", {"name": "Bob", "was": "Bo"}, "Chen", "Eve"]})
    assert answer.status == 200, answer
    body = answer.json
    assert [p["name"] for p in body["players"]] == ["Ana", "Bob", "Chen", "Eve"]
    assert body["players_left"] == [{"name": "Dee", "former_seat": 3}]
    standings = {row["player"]: (row["points"], row["seat"]) for row in body["standings"]}
    assert standings["Dee"] == (-1, None) and standings["Bob"][0] == -3 and standings["Ana"][0] == 14
    assert "Eve" in standings and standings["Eve"][0] == 0
    hand = api("GET", f"/tables/{table['id']}/hands/1").json
    assert hand["facts"]["players"] == ["Ana", "Bob", "Chen", "Dee"] and hand["deltas"]["Bob"] == -3
    undo = api("POST", f"/tables/{table['id']}/undo", {}, headers={"X-Edit-Token": table["token"]})
    assert undo.status == 200, undo
    assert undo.json["undone"] == {"kind": "players", "hand": None} and undo.json["hand"] is None
    assert [p["name"] for p in undo.json["table"]["players"]] == ["Ana", "Bo", "Chen", "Dee"]


def test_bad_players_change_nothing(api):
    table = open_table(api)
    assert_error(put(api, table, {"players": ["Ana"]}, token="wrong-token-000000000000"), 403, "bad_token")
    assert_error(put(api, table, {"players": ["Ana"]}), 400, "player_count", "players")
    assert_error(put(api, table, {"players": ["Ana", "Bo", "Chen", "ana"]}), 400, "duplicate_player", "players.3")
    assert_error(put(api, table, {"players": "Ana"}), 400, "wrong_type", "players")
    assert_error(put(api, table, {"players": [{"name": "X", "colour": 1}]}), 400, "wrong_type", "players")
    assert_error(put(api, table, {}), 400, "missing", "players")
    body = api("GET", f"/tables/{table['id']}").json
    assert [p["name"] for p in body["players"]] == ["Ana", "Bo", "Chen", "Dee"] and body["players_left"] == []


def test_the_cli_changes_players_like_the_api(runner, app):
    import json

    from companion import scoring

    with app.app_context():
        table = scoring.create_table(game="gandengyan", name="cli", players=["Ana", "Bo", "Chen", "Dee"],
                                     preset="source")
        scoring.record_hand(table, FACTS, request_id="a")
        public_id = table.public_id
    result = runner.invoke(args=["players", "--rename", "Bo", "Bob", public_id, "Ana", "Bob", "Chen", "Eve"])
    assert result.exit_code == 0, result.output
    assert result.output.splitlines()[:2] == ["players: Ana, Bob, Chen, Eve", "left: Dee"]
    assert result.output.splitlines()[2] == "standings: Ana +14, Eve 0, Dee -1, Bob -3, Chen -10"  # 14 = 3 + 10 + 1
    shown = json.loads(runner.invoke(args=["players", "--json", public_id]).output)
    assert [p["name"] for p in shown["players"]] == ["Ana", "Bob", "Chen", "Eve"]
    bad = runner.invoke(args=["players", public_id, "Ana"])
    assert bad.exit_code == 2 and "[players]" in bad.output
