"""Every game, the app's and the fixture games kept under the tests (斗地主, tests/thirdgame), through
the same doors: the new-table form says each switch in words, a worked hand goes through the
generated record form (CSRF on) and reads back the same facts, the hand page, summary, rules page
and checker show words (never a raw key of a figure, preset or play), the CSV says hand-level facts
too, the JSON export imports back to the same points, and the API's schema of facts gives each
fact its exact type (a yes/no fact is a boolean, a choice lists its values). The games come from
``thirdgame.registry.every_name()``: the suite never lists them by hand."""
import csv
import io
import json
import re

import pytest

from sqlalchemy import select

from companion import review, scoring
from companion.extensions import db
from companion.db.models import Hand
from thirdgame.registry import every_game, every_name

from web_helpers import hidden, text_of

GAMES = every_name()
NAMES = ["Ann", "Bo", "Cy", "Di", "Ed", "Flo"]


@pytest.fixture
def client(fixture_games, app):
    app.config["WTF_CSRF_ENABLED"] = True
    return app.test_client()


def _names(module) -> list:
    return NAMES[:module.PLAYER_RANGE[0] if module.PLAYER_RANGE[0] > 2 else 4 if module.PLAYER_RANGE[1] >= 4 else 2]


def _hand(module, names):
    """A worked hand of the game (its own example), on these players."""
    return next(iter(module.example_hands(names)))


def _form_data(client, public_id, facts):
    """The record form's data for ``facts``, as the form shows them (the generated form's own fields)."""
    from companion.forms.tables import facts_to_data

    with client.application.app_context():
        table = scoring.get_table(public_id)
        return facts_to_data(table, facts)


def _open(client, game, names):
    page = client.get(f"/new/{game}")
    assert page.status_code == 200
    data = {"name": "Every game", "stake": "1", "currency": "", "preset": "", "first_dealer": "", "notes": "",
            "csrf_token": hidden(page, "csrf_token"), **{f"player_{i}": n for i, n in enumerate(names, start=1)}}
    response = client.post(f"/new/{game}", data=data)
    assert response.status_code == 302, text_of(response)
    return response.headers["Location"].rsplit("/", 1)[1]


@pytest.mark.parametrize("game", GAMES)
def test_a_hand_through_every_door(client, game):
    module = every_game()[game]
    names = _names(module)
    new_table = text_of(client.get(f"/new/{game}"))
    for key in module.SWITCHES:  # the switches in words, never their keys
        assert key not in new_table
    public_id = _open(client, game, names)
    facts = _hand(module, names)
    page = client.get(f"/t/{public_id}/record")
    data = {name: hidden(page, name) for name in ("csrf_token", "request_id", "expected_number")}
    shown = {k: v for k, v in _form_data(client, public_id, facts).items() if v not in (None, False, "")}
    response = client.post(f"/t/{public_id}/record", data={**data, **{k: "y" if v is True else str(v)
                                                                     for k, v in shown.items()}})
    assert response.status_code == 302 and "saved=1" in response.headers["Location"], text_of(response)
    with client.application.app_context():
        table = scoring.get_table(public_id)
        hand = db.session.execute(select(Hand).where(Hand.table_id == table.id)).scalar_one()
        want = module.settle(facts, module.rules_from_dict(None)).points
        stored = module.validate_facts(hand.facts, module.rules_from_dict(None))
        assert stored == module.validate_facts(facts, module.rules_from_dict(None))  # the form read them back
        assert module.settle(stored, module.rules_from_dict(None)).points == want
        exported = review.export_json(table)
        copy = review.import_json(exported)
        assert json.loads(review.export_json(copy))["hands"][0]["facts"] == json.loads(exported)["hands"][0]["facts"]
        rows = list(csv.reader(io.StringIO(review.export_csv(table, labels=_LABELS).decode("utf-8-sig"))))
    said = " ".join(row[5] for row in rows[1:])
    for fact in module.describe_facts():  # each hand-level fact with CSV words is said when given
        value = facts.get(fact.key)
        if fact.phrase is not None and not fact.per_player and fact.kind in ("flag", "choice", "count") and value:
            assert str(fact.phrase.template).split("{")[0].strip() in said, fact.key
    summary = client.get(f"/t/{public_id}/summary").get_data(as_text=True)
    for figure in module.tally_figures(module.rules_from_dict(None)):  # each figure by its words
        row = re.search(rf'<tr id="fig-{figure}"><th[^>]*>(.*?)</th>', summary)
        assert row and figure in module.WORDS.tallies and row.group(1).strip() != figure, figure
        assert "<code" not in row.group(1) and "_" not in row.group(1), figure
    hand_page = text_of(client.get(f"/t/{public_id}/hands/1"))
    assert names[0] in hand_page


@pytest.mark.parametrize("game", GAMES)
def test_the_rules_page_and_checker_speak_words(client, game):
    module = every_game()[game]
    page = client.get(f"/rules/{game}")
    assert page.status_code == 200
    text = text_of(page)
    for sentence in module.rule_sentences(module.rules_from_dict(None)):
        assert str(sentence.text) in text
    for preset in module.PRESETS:
        assert f"({preset})" not in text
    checked = text_of(client.get(f"/check?game={game}&previous=&play={module.EXAMPLE_PLAYS[0]}"))
    reading = module.classify(module.EXAMPLE_PLAYS[0], module.rules_from_dict(None))[0]
    assert reading.type in module.WORDS.plays and str(module.WORDS.plays[reading.type]) in checked


@pytest.mark.parametrize("game", GAMES)
def test_the_schema_of_facts_gives_each_fact_its_exact_type(fixture_games, game):
    from companion.schemas import FACT_FIELDS

    module = every_game()[game]
    for fact in module.describe_facts():
        if fact.kind == "flag" and fact.key == fact.head:
            assert FACT_FIELDS[fact.key][0] == {"type": "boolean"}
        if fact.kind == "choice" and fact.key == fact.head:
            assert FACT_FIELDS[fact.key][0] == {"type": "integer" if all(type(v) is int for v, _ in fact.values)
                                                else "string", "enum": [v for v, _ in fact.values]}


_LABELS = {"hand": "Hand", "status": "Status", "player": "Player", "points": "Points", "money": "Money",
           "facts": "Facts", "active": "active", "void": "void"}


@pytest.fixture
def api(fixture_games, live_server):
    from test_third_game import http

    def call(method, path, body=None, **kw):
        return http(live_server, method, "/api/v1" + path, body, **kw)
    return call


def test_the_yes_no_and_choice_facts_through_the_api(api):
    """The fixture's bid (a choice) and spring (a yes/no fact) over real HTTP: the OpenAPI document
    gives their exact types, a hand with them is recorded and settled, a wrong type or value is
    refused by its field and nothing is stored."""
    from thirdgame import doudizhu as game

    settle = api("GET", "/openapi.json").json["components"]["schemas"]["SettleRequest"]
    spec = next(v["properties"] for v in settle.get("oneOf", [settle])  # the game's own variant
                if game.NAME in v["properties"]["game"].get("enum", [game.NAME]))
    assert spec["bid"]["enum"] == list(game.BIDS) and spec["bid"]["type"] == "integer"
    assert spec["spring"]["type"] == "boolean"
    names = ["Ann", "Bo", "Cy"]
    made = api("POST", "/tables", {"game": game.NAME, "name": "API 斗地主", "players": names})
    assert made.status == 201, made
    auth = {"Authorization": f"Bearer {made.json['token']}"}
    hand = {"players": names, "landlord": "Ann", "bid": 2, "winner": "Bo", "bombs": 1, "spring": True}
    for wrong, field in (({"bid": "2"}, "bid"), ({"bid": 4}, "bid"), ({"spring": "yes"}, "spring"),
                         ({"spring": 1}, "spring")):
        answer = api("POST", f"/tables/{made.json['id']}/hands", {"facts": {**hand, **wrong}}, headers=auth)
        assert answer.status in (400, 422) and field in (answer.error.get("field") or ""), (wrong, answer)
    assert api("GET", f"/tables/{made.json['id']}/hands").json["hands"] == []
    recorded = api("POST", f"/tables/{made.json['id']}/hands", {"facts": hand}, headers=auth)
    assert recorded.status == 201, recorded
    assert recorded.json["deltas"] == game.settle(hand).deltas == {"Ann": -16, "Bo": 8, "Cy": 8}
    assert recorded.json["facts"]["spring"] is True and recorded.json["facts"]["bid"] == 2
    settled = api("POST", "/settle", {"game": game.NAME, **hand})
    assert settled.status == 200 and settled.json["deltas"] == recorded.json["deltas"], settled
