"""One input layer for the three faces (JSON API, pages, CLI): the same input gets the same code and
message everywhere; unknown fields are refused by name; big bodies are refused in the usual error
shape; the edit token as a Bearer token; the OpenAPI document and the help page built from it.
Through the Flask test client (fast); test_tables_api.py covers the same API over real HTTP."""
import json
import re
from html import unescape

import pytest

PLAYERS = ["Ana", "Bo", "Chen"]
S1 = {"game": "gandengyan", "players": ["A", "B", "C", "D"], "winner": "A",
      "losers": {"B": {"cards": 3, "jokers": 0}, "C": {"cards": 5, "jokers": 1}, "D": {"cards": 1, "jokers": 0}}}


def error_of(response, status):
    assert response.status_code == status, response.get_data(as_text=True)
    body = response.get_json()
    assert set(body["error"]) >= {"code", "message", "field"}
    return body["error"]


def open_table(client, **extra):
    response = client.post("/api/v1/tables", json={"game": "gandengyan", "name": "T", "players": PLAYERS, **extra})
    assert response.status_code == 201, response.get_data(as_text=True)
    return response.get_json()


def page_error(html: str, field: str) -> str:
    match = re.search(rf'id="{field}-field".*?class="field-error"[^>]*>(.*?)</', html, re.S)
    assert match, f"no error for {field}"
    return " ".join(unescape(match.group(1)).split())


FACTS = {"winner": "Ana", "losers": {"Bo": {"cards": 3, "jokers": 0}, "Chen": {"cards": 2, "jokers": 0}}}


# ------------------------------------------------------------------------------------------
# Tokens


@pytest.mark.parametrize("header", ["Bearer {token}", "bearer {token}", "Bearer  {token} "])
def test_bearer_token_records_a_hand(client, header):
    table = open_table(client)
    response = client.post(f"/api/v1/tables/{table['id']}/hands", json={"facts": FACTS, "request_id": "b"},
                           headers={"Authorization": header.format(token=table["token"])})
    assert response.status_code == 201, response.get_data(as_text=True)


def test_a_wrong_bearer_token_is_refused_even_with_a_good_x_edit_token(client):
    table = open_table(client)
    response = client.post(f"/api/v1/tables/{table['id']}/hands", json={"facts": FACTS},
                           headers={"Authorization": "Bearer " + "x" * 32, "X-Edit-Token": table["token"]})
    assert error_of(response, 403)["code"] == "bad_token"
    response = client.post(f"/api/v1/tables/{table['id']}/undo", headers={"Authorization": "Basic abc"})
    assert error_of(response, 403)["code"] == "token_required"


def test_bearer_token_for_void_restore_undo_and_edit(client):
    table = open_table(client)
    auth = {"Authorization": f"Bearer {table['token']}"}
    base = f"/api/v1/tables/{table['id']}"
    assert client.post(base + "/hands", json={"facts": FACTS, "request_id": "r"}, headers=auth).status_code == 201
    assert client.put(base + "/hands/1", json={"facts": FACTS, "revision": 1}, headers=auth).status_code == 200
    assert client.post(base + "/hands/1/void", json={"revision": 2}, headers=auth).status_code == 200
    assert client.post(base + "/hands/1/restore", json={"revision": 3}, headers=auth).status_code == 200
    assert client.post(base + "/undo", headers=auth).status_code == 200


# ------------------------------------------------------------------------------------------
# Unknown fields, big bodies


@pytest.mark.parametrize("path,body,name", [
    ("/api/v1/check", {"game": "gandengyan", "previous": "7", "play": "8", "plya": "9"}, "plya"),
    ("/api/v1/settle", {**S1, "stakes": 2}, "stakes"),
    ("/api/v1/tables", {"game": "gandengyan", "name": "T", "players": PLAYERS, "colour": "red"}, "colour"),
])
def test_unknown_fields_are_refused_by_name(client, path, body, name):
    error = error_of(client.post(path, json=body), 400)
    assert error["code"] == "unknown_field" and error["field"] == name
    assert name in error["message"]


def test_unknown_field_in_a_hand_body(client):
    table = open_table(client)
    response = client.post(f"/api/v1/tables/{table['id']}/hands", json={"facts": FACTS, "revison": 1},
                           headers={"Authorization": f"Bearer {table['token']}"})
    error = error_of(response, 400)
    assert (error["code"], error["field"]) == ("unknown_field", "revison")


def test_bodies_over_64_kib_are_refused_in_the_error_shape(client):
    body = json.dumps({"game": "gandengyan", "previous": "7", "play": "8", "x": "y" * 70_000})
    error = error_of(client.post("/api/v1/check", data=body, content_type="application/json"), 413)
    assert error["code"] == "request_entity_too_large"


# ------------------------------------------------------------------------------------------
# One parser per value: the same code and message on every face


def test_unknown_preset_one_code_and_message_everywhere(client, runner):
    check = error_of(client.post("/api/v1/check", json={"game": "gandengyan", "play": "8", "preset": "nope"}), 400)
    settle = error_of(client.post("/api/v1/settle", json={**S1, "preset": "nope"}), 400)
    tables = error_of(client.post("/api/v1/tables", json={"game": "gandengyan", "name": "T", "players": PLAYERS,
                                                          "preset": "nope"}), 400)
    assert {check["code"], settle["code"], tables["code"]} == {"unknown_preset"}
    assert check["message"] == settle["message"] == tables["message"]
    page = client.get("/check?game=gandengyan&previous=7&play=8&preset=nope").get_data(as_text=True)
    assert check["message"] in unescape(page)
    cli = runner.invoke(args=["check", "--preset", "nope", "7", "8"])
    assert cli.exit_code == 2 and check["message"] in cli.output


@pytest.mark.parametrize("stake", ["0,5", "0.5", 0.5])
def test_stake_with_a_comma_or_a_point_on_every_face(client, runner, tmp_path, stake):
    table = open_table(client, stake=stake)
    assert table["stake"] == "0.5"
    settle = client.post("/api/v1/settle", json={**S1, "stake": stake}).get_json()
    assert settle["deltas"]["A"] == 7
    path = tmp_path / "hand.json"
    path.write_text(json.dumps({**S1, "stake": stake}))
    assert runner.invoke(args=["settle", str(path)]).output.split()[:2] == ["A", "+7"]


def test_bad_stake_one_code_and_message_everywhere(client, runner, tmp_path):
    api = error_of(client.post("/api/v1/tables", json={"game": "gandengyan", "name": "T", "players": PLAYERS,
                                                       "stake": "lots"}), 400)
    settle = error_of(client.post("/api/v1/settle", json={**S1, "stake": "lots"}), 400)
    assert api["code"] == settle["code"] == "bad_stake" and api["message"] == settle["message"]
    form = {"name": "T", "player_1": "A", "player_2": "B", "stake": "lots", "currency": "", "preset": "",
            "first_dealer": "", "notes": ""}
    html = client.post("/new/gandengyan", data=form).get_data(as_text=True)
    assert page_error(html, "stake") == api["message"]
    path = tmp_path / "hand.json"
    path.write_text(json.dumps({**S1, "stake": "lots"}))
    result = runner.invoke(args=["settle", str(path)])
    assert result.exit_code == 2 and api["message"] in result.output


def test_players_out_of_range_same_answer_on_api_and_check_page(client):
    api = error_of(client.post("/api/v1/check", json={"game": "gandengyan", "previous": "7", "play": "8",
                                                      "players": 12}), 400)
    page = client.get("/check?game=gandengyan&previous=7&play=8&players=12").get_data(as_text=True)
    assert api["code"] == "out_of_range" and api["message"] in unescape(page)


def test_cli_settle_refuses_unknown_fields_by_name(runner):
    result = runner.invoke(args=["settle", "-"], input=json.dumps({**S1, "stakes": 2}))
    assert result.exit_code == 2 and "stakes" in result.output and "[stakes]" in result.output


def test_query_page_numbers(client):
    table = open_table(client)
    base = f"/api/v1/tables/{table['id']}/hands"
    assert client.get(base + "?page=1&per_page=5").status_code == 200
    for query, code in (("?page=abc", "wrong_type"), ("?page=%C2%B2", "wrong_type"), ("?page=0", "out_of_range"),
                        ("?per_page=201", "out_of_range")):
        assert error_of(client.get(base + query), 400)["code"] == code


# ------------------------------------------------------------------------------------------
# The OpenAPI document and the help page built from it


def test_openapi_document_describes_every_api_route(app, client):
    doc = client.get("/api/v1/openapi.json").get_json()
    assert doc["openapi"].startswith("3.")
    documented = {(path, method.upper()) for path, item in doc["paths"].items() for method in item}
    for rule in app.url_map.iter_rules():
        if rule.endpoint.startswith("api.") and not rule.endpoint.startswith("api-docs"):
            path = re.sub(r"<(?:\w+:)?(\w+)>", r"{\1}", rule.rule)
            for method in rule.methods - {"HEAD", "OPTIONS"}:
                assert (path, method) in documented, (path, method)
    schemas = doc["components"]["schemas"]
    for name in ("CheckRequest", "SettleRequest", "NewTableRequest", "RecordHandRequest", "EditHandRequest"):
        # a request that names a game is a oneOf, one closed variant per registered game
        for variant in schemas[name].get("oneOf", [schemas[name]]):
            variant = schemas[variant["$ref"].rsplit("/", 1)[1]] if "$ref" in variant else variant
            assert variant["additionalProperties"] is False, name
    assert sorted(schemas["ErrorDetail"]["required"]) == ["code", "field", "message"]
    assert set(doc["components"]["securitySchemes"]) == {"bearer", "editToken"}
    token = schemas["RecordHandRequest"]["properties"]["token"]
    assert token["deprecated"] is True


def test_help_page_lists_operations_and_error_codes(client):
    html = client.get("/api").get_data(as_text=True)
    assert "/api/v1/openapi.json" in html
    assert "/api/v1/tables/{public_id}/hands/{number}/void" in html
    for code in ("unknown_preset", "bad_stake", "unknown_field", "token_required"):
        assert f"<code>{code}</code>" in html
    assert "Authorization: Bearer" in unescape(html)


def test_unknown_fact_at_a_table_is_refused_by_name(client):
    table = open_table(client)
    response = client.post(f"/api/v1/tables/{table['id']}/hands", json={"facts": {**FACTS, "winnner": "Bo"}},
                           headers={"Authorization": f"Bearer {table['token']}"})
    error = error_of(response, 400)
    assert (error["code"], error["field"]) == ("unknown_field", "facts.winnner") and "winnner" in error["message"]
