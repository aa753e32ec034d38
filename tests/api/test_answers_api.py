"""What beats this? POST /api/v1/answers and ``flask answers`` answer what the engine answers."""
import json

import pytest

from companion.engine import ENGINES
from companion.engine.cards import format_cards

D, G = "dagong", "gandengyan"
CASES = [
    {"game": G, "previous": "7", "hand": "8 2 3 3 3 3 SJ BJ"},
    {"game": G, "previous": "4 5 6", "players": 2},
    {"game": G, "previous": "5 SJ BJ"},
    {"game": G, "previous": "8 8 8", "preset": "qq", "hand": "J J J"},
    {"game": D, "previous": "7 7", "hand": "8 JK 9 9 9 9 5h 10h Kh"},
    {"game": D, "previous": "7 7"},
    {"game": D, "previous": "4 4 4 4", "hand": "5 5 5 5 3 3 3 3 3"},
    {"game": D, "previous": "2 2", "hand": "3 4"},
    {"game": D, "previous": "5 JK JK", "rules": {"allow_straights": True}},
    {"game": D, "previous": "5 JK JK", "previous_as": "4 5 6", "rules": {"allow_straights": True}},
]


def _engine(body):
    module = ENGINES[body["game"]]
    rules = module.rules_from_dict(body.get("rules"), preset=body.get("preset"))
    return module.answers(body["previous"], rules, hand=body.get("hand"), previous_as=body.get("previous_as"),
                          players=body.get("players"))


@pytest.mark.parametrize("body", CASES)
def test_api_answers_are_the_engines(client, body):
    answer = client.post("/api/v1/answers", json=body)
    assert answer.status_code == 200, answer.get_json()
    data = answer.get_json()
    expected = _engine(body)
    assert [(a["play"], a["type"], a["reason"]) for a in data["answers"]] == [
        (format_cards(a.cards), a.type, str(a.reason)) for a in expected]
    assert data["can_beat"] is bool(expected)


def test_ambiguous_previous_answers_each_reading(client):
    data = client.post("/api/v1/answers", json=CASES[8]).get_json()
    pins = [one["pin"] for one in data["readings"]]
    assert len(pins) >= 2 and "5 5 5" in pins
    triple = next(one for one in data["readings"] if one["pin"] == "5 5 5")
    assert triple["answers"][0]["play"] == "6 6 6"
    assert data["readings"][0]["answers"] == data["answers"]


@pytest.mark.parametrize("body, code, field", [
    ({"game": D, "previous": "5 6"}, "previous_not_a_combination", "previous"),
    ({"game": D, "previous": "7", "hand": "8 x"}, "bad_card", "hand"),
    ({"game": D}, "missing", "previous"),
    ({"game": D, "previous": "7", "players": 5}, "out_of_range", "players"),
    ({"game": D, "previous": "7", "play": "8"}, "unknown_field", "play"),
    ({"game": D, "previous": "5 5 5", "previous_as": "6 6 6"}, "reading_not_possible", "previous_as"),
])
def test_api_answers_errors(client, body, code, field):
    answer = client.post("/api/v1/answers", json=body)
    assert answer.status_code == 400
    assert answer.get_json()["error"]["code"] == code
    assert answer.get_json()["error"]["field"] == field


@pytest.mark.parametrize("body", CASES)
def test_cli_answers_json_is_the_api_answer(runner, client, body):
    args = ["answers", "--json", "--game", body["game"]]
    if "hand" in body:
        args += ["--hand", body["hand"]]
    if "rules" in body:
        args += ["--rules", json.dumps(body["rules"])]
    if "previous_as" in body:
        args += ["--previous-as", body["previous_as"]]
    if "players" in body:
        args += ["--players", str(body["players"])]
    if "preset" in body:
        args += ["--preset", body["preset"]]
    result = runner.invoke(args=args + [body["previous"]])
    api = client.post("/api/v1/answers", json=body).get_json()
    assert result.exit_code == (0 if api["can_beat"] else 1), result.output
    assert json.loads(result.output) == api


def test_gandengyan_each_reading(client):
    data = client.post("/api/v1/answers", json={"game": G, "previous": "5 SJ BJ"}).get_json()
    pins = {one["pin"]: one["answers"][0]["play"] for one in data["readings"]}
    assert pins["5 6 7"] == "6 7 8" and pins["5 5 5"] == "6 6 6"


def test_cli_answers_text(runner):
    result = runner.invoke(args=["answers", "--game", D, "--hand", "3 4", "2 2"])
    assert result.exit_code == 1 and "cannot beat" in result.output
    result = runner.invoke(args=["answers", "--game", D, "--hand", "8 JK", "7 7"])
    assert result.exit_code == 0 and result.output.startswith("8 JK  (pair): Legal")
    result = runner.invoke(args=["answers", "--game", D, "5 6"])
    assert result.exit_code == 2 and "[previous]" in result.output
