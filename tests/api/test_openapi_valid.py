"""Issue 31: the API says exactly what it does. The OpenAPI document is valid (openapi-spec-validator,
every operationId unique), the house-rule switches are listed with their values per game, and the
four requests schemathesis found valid by the document but refused by the server are now invalid by
the document too, while their twins are valid by both (each case is checked against the document
and sent to the server)."""
import pytest
from openapi_schema_validator import OAS30Validator
from openapi_spec_validator import OpenAPIV30SpecValidator

from companion.engine import ENGINES

T = {"game": "gandengyan", "name": "T", "players": ["A", "B", "C"]}


@pytest.fixture(scope="module")
def document():
    from companion import create_app

    app = create_app({"TESTING": True, "SQLALCHEMY_DATABASE_URI": "sqlite://"})
    return app.test_client().get("/api/v1/openapi.json").get_json()


def _valid(document, path: str, method: str, body) -> bool:
    schema = document["paths"][path][method]["requestBody"]["content"]["application/json"]["schema"]
    validator = OAS30Validator({**schema, "components": document["components"]})
    return validator.is_valid(body)


def test_the_document_is_valid_openapi(document):
    errors = [str(e)[:200] for e in OpenAPIV30SpecValidator(document).iter_errors()]
    assert errors == []
    ids = [op["operationId"] for item in document["paths"].values() for op in item.values()
           if isinstance(op, dict) and "operationId" in op]
    assert len(ids) == len(set(ids)) and {"edit_hand", "patch_hand"} <= set(ids)


def test_put_and_patch_both_edit_a_hand(client):
    table = client.post("/api/v1/tables", json=T).get_json()
    auth = {"Authorization": f"Bearer {table['token']}"}
    facts = {"winner": "A", "losers": {"B": {"cards": 2}, "C": {"cards": 1}}}
    assert client.post(f"/api/v1/tables/{table['id']}/hands", json={"facts": facts}, headers=auth).status_code == 201
    for revision, method in enumerate(("put", "patch"), 1):
        facts = {"winner": "B", "losers": {"A": {"cards": revision}, "C": {"cards": 1}}}
        answer = getattr(client, method)(f"/api/v1/tables/{table['id']}/hands/1", headers=auth,
                                         json={"facts": facts, "revision": revision})
        assert answer.status_code == 200 and answer.get_json()["revision"] == revision + 1, answer.get_json()


def test_every_switch_is_listed_with_its_values_per_game(document):
    variants = {v["properties"]["game"]["enum"][0]: v for v in document["components"]["schemas"]["CheckRequest"]["oneOf"]}
    assert set(variants) == set(ENGINES)
    for game, module in ENGINES.items():
        rules = variants[game]["properties"]["rules"]
        assert rules["additionalProperties"] is False and set(rules["properties"]) == set(module.SWITCHES)
        for key, switch in module.SWITCHES.items():
            listed = rules["properties"][key]
            if switch.kind == "choice":
                assert listed["enum"] == list(switch.choices), key
            else:
                assert listed["type"] == {"bool": "boolean", "int": "integer", "number": "number"}[switch.kind]
        assert variants[game]["properties"]["preset"]["enum"] == [*module.PRESETS, None]


SETTLE_GDY = {"game": "gandengyan", "players": ["A", "B"], "winner": "A", "losers": {"B": {"cards": 2}}}
CASES = [
    # (path, method, refused by the server and now by the document, its twin accepted by both)
    ("/api/v1/answers", "post", {"game": "gandengyan", "previous": ""}, {"game": "gandengyan", "previous": "5"}),
    ("/api/v1/check", "post", {"game": "gandengyan", "play": "5", "rules": {"no_such_switch": True}},
     {"game": "gandengyan", "play": "5", "rules": {"triple_is_bomb": True}}),
    ("/api/v1/check", "post", {"game": "gandengyan", "play": "5", "rules": {"bonus_xi_qian": True}},
     {"game": "dagong", "play": "5", "rules": {"bonus_xi_qian": True}}),  # another game's switch
    ("/api/v1/settle", "post", {**SETTLE_GDY, "banker": "A"}, SETTLE_GDY),
    ("/api/v1/tables", "post", {"game": "gandengyan", "players": ["A", "B"]}, {**T, "players": ["A", "B"]}),
    ("/api/v1/tables", "post", {**T, "name": ""}, T),
]


@pytest.mark.parametrize("path, method, refused, twin", CASES)
def test_what_the_server_refuses_the_document_refuses(document, client, path, method, refused, twin):
    assert not _valid(document, path, method, refused)
    assert client.open(path, method=method.upper(), json=refused).status_code == 400
    assert _valid(document, path, method, twin)
    assert client.open(path, method=method.upper(), json=twin).status_code in (200, 201)


def test_an_import_must_look_like_an_export(document, client):
    assert not _valid(document, "/api/v1/import", "post", {})
    assert client.post("/api/v1/import", json={}).status_code == 400
    table = client.post("/api/v1/tables", json=T).get_json()
    exported = client.get(f"/api/v1/tables/{table['id']}/export").get_json()
    assert _valid(document, "/api/v1/import", "post", exported)
    assert client.post("/api/v1/import", json=exported).status_code == 201


def test_the_api_page_shows_the_bearer_header_whole(client):
    for lang in ("en", "zh", "ar"):
        page = client.get(f"/api?lang={lang}").get_data(as_text=True)
        assert "Bearer &lt;token&gt;" in page, lang
