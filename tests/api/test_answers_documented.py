"""Issue 17, item 4: every answer of the golden night (test_answers_golden.py) validates against the
schema the OpenAPI document gives for its operation and status, strictly: an answer may carry no key
the document does not describe (``additionalProperties: false`` replaces ``true`` on every described
object for this test; the document itself tells clients that answers may gain fields). Real HTTP."""
import copy
import re

import jsonschema_rs
import pytest

from test_answers_golden import _night


def _strict(node):
    """OpenAPI 3.0 schema -> JSON Schema: ``nullable`` as a null type, described objects closed."""
    if isinstance(node, list):
        return [_strict(item) for item in node]
    if not isinstance(node, dict):
        return node
    node = {key: _strict(value) for key, value in node.items()}
    if node.pop("nullable", False):
        if "type" in node:
            node["type"] = [node["type"], "null"]
        else:
            node = {"anyOf": [node, {"type": "null"}]}
    if node.get("type") == "object" and "properties" in node and node.get("additionalProperties", True) is True:
        node["additionalProperties"] = False  # the document says True: answers may gain fields
    return node


def _operation(spec, method, path):
    for template, item in spec["paths"].items():
        pattern = "^" + re.sub(r"\{[^}]+\}", "[^/]+", template) + "$"
        if re.match(pattern, "/api/v1" + path) and method.lower() in item:
            return item[method.lower()]
    raise AssertionError(f"{method} {path} is not in the OpenAPI document")


@pytest.fixture
def night(api, live_server):
    return _night(api, live_server.app.test_cli_runner())


def test_every_answer_matches_its_documented_schema(api, night):
    spec = api("GET", "/openapi.json").json
    components = _strict(copy.deepcopy(spec["components"]))
    checked = 0
    for key, (method, path, status) in night.calls.items():
        operation = _operation(spec, method, path)
        response = operation["responses"].get(str(status)) or operation["responses"].get("default")
        assert response is not None, f"{key}: {method} {path} does not document status {status}"
        if "$ref" in response:  # a shared response (#/components/responses/...)
            response = spec["components"]["responses"][response["$ref"].rsplit("/", 1)[1]]
        assert "content" in response, f"{key}: {method} {path} {status} documents no body: {response}"
        schema = response["content"]["application/json"]["schema"]
        validator = jsonschema_rs.validator_for({**_strict(schema), "components": components})
        errors = [f"{e.instance_path}: {e.message}" for e in validator.iter_errors(night.answers[key])]
        assert not errors, f"{key} ({method} {path} {status}): {errors[:5]}"
        checked += 1
    assert checked >= 60


def test_the_strict_check_can_fail(api, night):
    """Twin: an answer with a key the document does not describe is refused by the same check."""
    spec = api("GET", "/openapi.json").json
    schema = _operation(spec, "GET", "/tables/x")["responses"]["200"]["content"]["application/json"]["schema"]
    validator = jsonschema_rs.validator_for({**_strict(schema), "components": _strict(spec["components"])})
    answer = night.answers["get gdy"]
    assert validator.is_valid(answer)
    assert not validator.is_valid({**answer, "undocumented": 1})
    assert not validator.is_valid({**answer, "created_at": 5})

