"""A third game needs engine code, its words and optional templates only (issue 17, docs/engine.md).

The fake game 对决 (``tests/thirdgame``: 2 players, one switch) is registered in the engine's
registry for each test, with no ``templates/games/duel/`` and no line of ``companion/`` naming it,
and is played through the pages (new table, table page, rules pages, record, hand page, edit,
summary, settle-up, export JSON and CSV, import) and the JSON API (/games, tables, hands, summary,
export, import, /check, /settle, OpenAPI), on SQLite and (``-m db`` with ``scripts/with_pg.sh``)
on PostgreSQL.

The fake's hand form, its facts' JSON schema, its CSV phrases and its hand page are generated from
its ``describe_facts`` (companion/engine/described.py). Every hand here is recorded and corrected
as a user does it: through the record/edit forms (CSRF on, tokens taken from the page) or through
the JSON API, then reviewed, exported and imported back.
"""
import csv
import importlib.util
import io
import json
import pathlib
import re
import urllib.error
import urllib.request

import pytest

import thirdgame
from companion import review, scoring
from companion.engine import ENGINES

from web_helpers import field_errors, hidden, text_of

ROOT = pathlib.Path(__file__).resolve().parents[2]
KEY = thirdgame.NAME
PLAYERS = ["Ann", "Bo"]


@pytest.fixture
def duel(monkeypatch):
    """The fake game in the registry for this test only (removed afterwards)."""
    assert KEY not in ENGINES
    monkeypatch.setitem(ENGINES, KEY, thirdgame)
    yield thirdgame
    monkeypatch.undo()
    assert KEY not in ENGINES


@pytest.fixture
def client(duel, app):  # the game is registered before the app is made (its OpenAPI document too)
    app.config["WTF_CSRF_ENABLED"] = True  # every form posted below carries the token its page gave
    return app.test_client()


def post(client, page, path, data, **kw):
    """POST a form as a browser does: with the CSRF token of the page it was on (``page``)."""
    return client.post(path, data={**data, "csrf_token": hidden(client.get(page), "csrf_token")}, **kw)


@pytest.fixture
def table(client):
    """A 对决 table with the sweep preset, stake 2, opened through the new-table page."""
    response = post(client, f"/new/{KEY}", f"/new/{KEY}", {"name": "Duel night", "player_1": "Ann", "player_2": "Bo",
                                                         "stake": "2", "currency": "¥", "preset": "sweep",
                                                         "first_dealer": "1", "notes": ""})
    assert response.status_code == 302, text_of(response)
    public_id = response.headers["Location"].rsplit("/", 1)[1]
    with client.application.app_context():
        found = scoring.get_table(public_id)
        assert found.game == KEY and found.player_names == PLAYERS and found.rules == {"sweep_doubles": True}
    return public_id


def recorded(client, public_id, *hands):
    """Record hands through the record form, as a phone does (the CSRF token, request id and
    expected hand number taken from the page); each is saved and shown on its page."""
    for facts in hands:
        page = client.get(f"/t/{public_id}/record")
        assert page.status_code == 200
        data = {name: hidden(page, name) for name in ("csrf_token", "request_id", "expected_number")}
        response = client.post(f"/t/{public_id}/record", data={**data, **{k: str(v) for k, v in facts.items()}})
        assert response.status_code == 302 and "saved=1" in response.headers["Location"], text_of(response)


def edited(client, public_id, number, facts):
    """Correct a stored hand through its edit form (the revision and CSRF token from the page)."""
    page = client.get(f"/t/{public_id}/hands/{number}/edit")
    assert page.status_code == 200
    data = {name: hidden(page, name) for name in ("csrf_token", "revision")}
    return client.post(f"/t/{public_id}/hands/{number}/edit", data={**data, **{k: str(v) for k, v in facts.items()}})


def test_the_fake_meets_the_whole_contract(duel):
    """The engine's own contract checks, run on the fake (tests/engine/test_game_engine.py)."""
    spec = importlib.util.spec_from_file_location("game_engine_contract", ROOT / "tests/engine/test_game_engine.py")
    contract = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(contract)
    contract.test_each_game_has_every_name_of_the_contract(KEY)
    contract.test_each_game_function_takes_the_contracts_parameters(KEY)
    contract.test_decks_is_a_positive_count(KEY)
    readings = duel.classify("9", duel.Rules(), players=2)
    assert readings and duel.declaration(readings[0], readings) is None


def test_nothing_in_the_app_names_the_fake_game():
    """No file of companion/ or templates/ knows 对决, and it has no templates of its own."""
    assert not (ROOT / "templates" / "games" / KEY).exists()
    for path in list((ROOT / "companion").rglob("*.py")) + list((ROOT / "templates").rglob("*.html")):
        text = path.read_text(encoding="utf-8")
        assert KEY not in text.split() and f'"{KEY}"' not in text and thirdgame.TITLE not in text, path


# --------------------------------------------------------------------------------------------
# Pages


def test_start_page_offers_the_game_and_the_new_table_page_opens_it(client):
    home = client.get("/")
    assert f'href="/new/{KEY}"' in home.get_data(as_text=True)
    assert "New 对决 table" in text_of(home)
    page = client.get(f"/new/{KEY}")
    assert page.status_code == 200
    text = text_of(page)
    assert "New 对决 table" in text and "Exactly 2 players." in text
    assert str(thirdgame.FIRST_DEALER_HELP) in text
    assert 'name="rule_sweep_doubles"' in page.get_data(as_text=True)
    assert "Player 3" not in text  # two seats: the engine's PLAYER_RANGE


def test_a_bad_new_table_keeps_what_was_typed(client):
    response = post(client, f"/new/{KEY}", f"/new/{KEY}", {"name": "Duel night", "player_1": "Ann", "player_2": "",
                                                         "stake": "2", "preset": "", "first_dealer": ""})
    assert response.status_code == 400
    assert 'value="Duel night"' in response.get_data(as_text=True)


def test_table_page_says_the_games_words(client, table):
    page = client.get(f"/t/{table}")
    assert page.status_code == 200
    text = text_of(page)
    assert "Duel night" in text and thirdgame.TITLE in text
    assert str(thirdgame.NEXT_DEALER_WORD) in text and "Ann" in text


@pytest.mark.parametrize("preset, said, not_said", [
    ("plain", "The loser pays one point for each card left.", "×2 when still holding all 7 cards"),
    ("sweep", "×2 when still holding all 7 cards", "The loser pays one point for each card left."),
])
def test_rules_pages_print_the_engines_sentences(client, preset, said, not_said):
    response = post(client, f"/new/{KEY}", f"/new/{KEY}", {"name": "R", "player_1": "Ann", "player_2": "Bo",
                                                         "stake": "1", "preset": preset, "first_dealer": ""})
    public_id = response.headers["Location"].rsplit("/", 1)[1]
    page = client.get(f"/t/{public_id}/rules")
    assert page.status_code == 200
    text = text_of(page)
    assert said in text and not_said not in text
    assert "Rules of 对决" in text and 'data-sentence="sweep_doubles"' in page.get_data(as_text=True)
    assert "Ann collects" in text  # the worked example, settled live by the fake's engine
    general = client.get(f"/rules/{KEY}")
    assert general.status_code == 200 and "The loser pays one point for each card left." in text_of(general)


def test_checker_page_knows_the_game(client, table):
    page = client.get(f"/check?game={KEY}&previous=7&play=9")
    assert page.status_code == 200
    assert "A higher card beats a lower one." in text_of(page)
    at_table = client.get(f"/t/{table}/check?previous=9&play=7")
    assert at_table.status_code == 200 and "Only a higher card beats the card on the table." in text_of(at_table)


def test_settings_page_of_the_table(client, table):
    page = client.get(f"/t/{table}/settings")
    assert page.status_code == 200 and "Duel night" in page.get_data(as_text=True)


def test_record_a_hand_through_the_form(client, table):
    page = client.get(f"/t/{table}/record")
    assert page.status_code == 200
    html = page.get_data(as_text=True)
    # the fields of the fake's describe_facts: the winner as pills, the dealer, the cards left as chips 1..7
    assert 'name="winner"' in html and 'name="dealer"' in html and 'name="left"' in html
    assert "Who played out first?" in text_of(page) and "Cards left in the loser's hand" in text_of(page)
    assert hidden(page, "csrf_token") and hidden(page, "expected_number") == "1"
    recorded(client, table, {"winner": "Ann", "dealer": "Ann", "left": 7})
    with client.application.app_context():
        hand = scoring.get_hand(scoring.get_table(table), 1)
        assert hand.facts == {"players": PLAYERS, "winner": "Ann", "dealer": "Ann", "left": 7}
    shown = text_of(client.get(f"/t/{table}/hands/1"))
    assert "Bo: 7 cards left, never played, ×2 = 14" in shown and "Ann collects 14." in shown
    # the facts on the hand page, drawn from the description (the generic facts_summary.html)
    assert "Winner Ann" in shown and "Dealer Ann" in shown and "Cards left 7" in shown


@pytest.mark.parametrize("data, field, words", [
    ({"winner": "Ann", "left": ""}, "left", "Enter a number."),
    ({"winner": "Ann", "left": "8"}, "left", "Cards left: a whole number from 1 to 7, not '8'."),
    ({"winner": "Ann", "left": "0"}, "left", "Cards left: a whole number from 1 to 7, not '0'."),
    ({"left": "3"}, "winner", "Choose who played out first."),
])
def test_a_bad_hand_is_refused_by_its_field_and_what_was_typed_stays(client, table, data, field, words):
    page = client.get(f"/t/{table}/record")
    ids = {name: hidden(page, name) for name in ("csrf_token", "request_id", "expected_number")}
    response = client.post(f"/t/{table}/record", data={**ids, **data})
    assert response.status_code == 400
    assert words in " ".join(field_errors(response).get(field, [])), field_errors(response)
    assert hidden(response, "request_id") == ids["request_id"]
    if data.get("left"):
        assert re.search(rf'name="left"[^>]*value="{data["left"]}"|value="{data["left"]}"[^>]*name="left"',
                         response.get_data(as_text=True))
    with client.application.app_context():
        assert scoring.get_table(table).hand_seq == 0


def test_a_form_without_its_csrf_token_is_refused(client, table):
    page = client.get(f"/t/{table}/record")
    response = client.post(f"/t/{table}/record", data={"request_id": hidden(page, "request_id"), "winner": "Ann",
                                                       "left": "3"})
    assert response.status_code == 400
    with client.application.app_context():
        assert scoring.get_table(table).hand_seq == 0


def test_edit_a_hand_through_the_form(client, table):
    recorded(client, table, {"winner": "Ann", "left": 3})
    page = client.get(f"/t/{table}/hands/1/edit")
    assert page.status_code == 200
    assert hidden(page, "left") == "3"  # the stored facts shown in the form (facts_to_data)
    response = edited(client, table, 1, {"winner": "Bo", "left": "7"})
    assert response.status_code in (302, 303), text_of(response)
    shown = text_of(client.get(f"/t/{table}/hands/1"))
    assert "Ann: 7 cards left, never played, ×2 = 14" in shown and "Bo collects 14." in shown
    refused = edited(client, table, 1, {"winner": "Bo", "left": "9"})
    assert refused.status_code == 400 and "from 1 to 7" in " ".join(field_errors(refused).get("left", []))
    with client.application.app_context():
        assert scoring.get_hand(scoring.get_table(table), 1).facts["left"] == 7


def test_hand_page_review_and_settle_up(client, table):
    recorded(client, table, {"winner": "Ann", "dealer": "Ann", "left": 7}, {"winner": "Bo", "left": 2})
    assert edited(client, table, 2, {"winner": "Bo", "left": 5}).status_code == 302  # settled again
    assert "Ann: 5 cards left = 5" in text_of(client.get(f"/t/{table}/hands/2"))
    summary = client.get(f"/t/{table}/summary")
    assert summary.status_code == 200
    html = summary.get_data(as_text=True)
    assert 'id="fig-won"' in html and 'id="fig-swept"' in html  # the engine's figures, summed in SQL
    assert "Hands won" in text_of(summary)
    settle = client.get(f"/t/{table}/settle")
    assert settle.status_code == 200
    # Ann +14 -5 = +9 points, × stake 2 = 18 ¥ from Bo
    assert "18" in text_of(settle) and "Bo" in text_of(settle)
    for path in ("sheet", "chart", "history"):
        assert client.get(f"/t/{table}/{path}").status_code == 200, path


def test_summary_counts_are_the_engines_tallies(client, table):
    recorded(client, table, {"winner": "Ann", "left": 7}, {"winner": "Ann", "left": 2}, {"winner": "Bo", "left": 7})
    with client.application.app_context():
        data = review.summary(scoring.get_table(table))
        counts = {p.name: p.counts for p in data.players}
    assert counts["Ann"] == {"won": 2, "swept": 1} and counts["Bo"] == {"won": 1, "swept": 1}


def test_form_record_review_export_and_import_back(client, table):
    """The whole chain through the pages: the record form, the summary, the CSV and JSON exports,
    the import page, and the copy's own summary."""
    recorded(client, table, {"winner": "Ann", "dealer": "Ann", "left": 7}, {"winner": "Bo", "left": 2})
    summary = text_of(client.get(f"/t/{table}/summary"))
    assert "Hands won" in summary
    with client.application.app_context():
        counts = {p.name: p.counts for p in review.summary(scoring.get_table(table)).players}
    assert counts["Ann"] == {"won": 1, "swept": 0}
    assert counts["Bo"] == {"won": 1, "swept": 1}
    exported = client.get(f"/t/{table}/export.json")
    assert exported.status_code == 200
    doc = json.loads(exported.get_data())
    assert doc["table"]["game"] == KEY and [h["facts"]["left"] for h in doc["hands"]] == [7, 2]
    sheet = client.get(f"/t/{table}/export.csv")
    assert sheet.status_code == 200
    rows = list(csv.reader(io.StringIO(sheet.get_data(as_text=True).lstrip("\ufeff"))))
    assert [(r[0], r[2], r[3]) for r in rows[1:]] == [("1", "Ann", "14"), ("1", "Bo", "-14"),
                                                      ("2", "Ann", "-2"), ("2", "Bo", "2")]
    said = {(r[0], r[2]): " ".join(r) for r in rows[1:]}  # the CSV's phrases, from the description
    assert "played out first" in said[("1", "Ann")] and "dealer" in said[("1", "Ann")]
    assert "played out first" in said[("2", "Bo")] and "played out first" not in said[("1", "Bo")]
    assert client.get(f"/t/{table}/export").status_code == 200
    response = post(client, "/import", "/import", {"file": (io.BytesIO(exported.get_data()), "duel.json")},
                    content_type="multipart/form-data")
    assert response.status_code == 302, text_of(response)
    copy = response.headers["Location"].rsplit("/", 1)[1]
    assert copy != table
    again = json.loads(client.get(f"/t/{copy}/export.json").get_data())
    assert [h["points"] for h in again["hands"]] == [h["points"] for h in doc["hands"]]
    assert again["table"]["game"] == KEY and again["table"]["rules"] == {"sweep_doubles": True}
    standings = summary[summary.index("Final standings"):summary.index("Counted over")]
    assert standings in text_of(client.get(f"/t/{copy}/summary"))  # the copy reviews the same


def test_import_of_a_game_nobody_registered_is_refused(client, table, monkeypatch):
    recorded(client, table, {"winner": "Ann", "left": 3})
    data = client.get(f"/t/{table}/export.json").get_data()
    monkeypatch.delitem(ENGINES, KEY)
    response = post(client, "/import", "/import", {"file": (io.BytesIO(data), "duel.json")},
                    content_type="multipart/form-data")
    assert response.status_code == 400
    assert "a game this server does not know ('duel')" in text_of(response)


# --------------------------------------------------------------------------------------------
# The JSON API, over real HTTP


class Answer:
    def __init__(self, status, raw):
        self.status, self.raw = status, raw
        try:
            self.json = json.loads(raw.decode("utf-8")) if raw else None
        except ValueError:
            self.json = None

    @property
    def error(self):
        return (self.json or {}).get("error") or {}

    def __repr__(self):
        return f"<Answer {self.status} {self.raw[:400]!r}>"


def http(base, method, path, body=None, headers=None):
    request = urllib.request.Request(base + path, data=json.dumps(body).encode() if body is not None else None,
                                     method=method, headers={"Content-Type": "application/json", **(headers or {})})
    try:
        with urllib.request.urlopen(request, timeout=20) as response:
            return Answer(response.status, response.read())
    except urllib.error.HTTPError as error:
        return Answer(error.code, error.read())


@pytest.fixture
def api(duel, live_server):
    def call(method, path, body=None, **kw):
        return http(live_server, method, "/api/v1" + path, body, **kw)
    call.base = live_server
    return call


def open_table(api):
    answer = api("POST", "/tables", {"game": KEY, "name": "API duel", "players": PLAYERS, "stake": "2",
                                     "preset": "sweep"})
    assert answer.status == 201, answer
    return answer.json


def test_api_lists_the_game_and_its_openapi_names_it(api):
    games = api("GET", "/games")
    assert games.status == 200
    mine = games.json["games"][KEY]
    assert mine["players"] == {"min": 2, "max": 2} and set(mine["presets"]) == {"plain", "sweep"}
    assert set(mine["switches"]) == {"sweep_doubles"}
    spec = api("GET", "/openapi.json")
    assert spec.status == 200 and KEY in spec.raw.decode()
    # the facts' JSON schema, generated from the fake's describe_facts (bounds from its validator)
    variants = spec.json["components"]["schemas"]["SettleRequest"]["oneOf"]  # one per game (issue 31)
    mine = next(v for v in variants if KEY in v["properties"]["game"]["enum"])
    assert set(mine["properties"]["rules"]["properties"]) == {"sweep_doubles"}
    left = mine["properties"]["left"]
    assert (left["type"], left["minimum"], left["maximum"]) == ("integer", 1, thirdgame.HAND_SIZE)


def test_api_opens_a_table_and_reviews_and_exports_it(api):
    made = open_table(api)
    public_id, token = made["id"], made["token"]
    auth = {"Authorization": f"Bearer {token}"}
    recorded_ = api("POST", f"/tables/{public_id}/hands", {"facts": {"players": PLAYERS, "winner": "Ann", "left": 7}},
                    headers=auth)
    assert recorded_.status == 201, recorded_
    listed = api("GET", f"/tables/{public_id}/hands")
    assert listed.status == 200, listed
    assert "Ann" in listed.raw.decode() and "14" in listed.raw.decode()
    one = api("GET", f"/tables/{public_id}/hands/1")
    assert one.status == 200 and one.json["facts"]["left"] == 7, one
    summary = api("GET", f"/tables/{public_id}/summary")
    assert summary.status == 200, summary
    assert "swept" in summary.raw.decode() or "won" in summary.raw.decode()
    table = api("GET", f"/tables/{public_id}")
    assert table.status == 200 and table.json["game"] == KEY
    exported = api("GET", f"/tables/{public_id}/export")
    assert exported.status == 200 and exported.json["table"]["game"] == KEY
    imported = api("POST", "/import", exported.json, headers=auth)
    assert imported.status == 201, imported
    again = api("GET", f"/tables/{imported.json['public_id']}/export")
    assert [h["points"] for h in again.json["hands"]] == [h["points"] for h in exported.json["hands"]]


def test_api_check_and_answers(api):
    legal = api("POST", "/check", {"game": KEY, "previous": "7", "play": "9"})
    assert legal.status == 200 and legal.json["legal"] is True, legal
    low = api("POST", "/check", {"game": "对决", "previous": "9", "play": "7"})
    assert low.status == 200 and low.json["legal"] is False and low.json["code"] == "not_higher", low
    answers = api("POST", "/answers", {"game": KEY, "previous": "7", "hand": "5 9 K"})
    assert answers.status == 200 and "9" in answers.raw.decode(), answers


def test_api_refuses_a_bad_fake_table_with_the_engines_words(api):
    answer = api("POST", "/tables", {"game": KEY, "name": "x", "players": ["Ann", "Bo", "Cy"]})
    assert answer.status == 400 and answer.error["field"] == "players", answer


def test_api_records_and_edits_a_hand(api):
    made = open_table(api)
    auth = {"Authorization": f"Bearer {made['token']}"}
    recorded_ = api("POST", f"/tables/{made['id']}/hands", {"facts": {"players": PLAYERS, "winner": "Ann", "left": 7}},
                    headers=auth)
    assert recorded_.status == 201, recorded_
    assert recorded_.json["deltas"] == {"Ann": 14, "Bo": -14} and recorded_.json["facts"]["left"] == 7, recorded_
    edited_ = api("PUT", f"/tables/{made['id']}/hands/1",
                  {"facts": {"players": PLAYERS, "winner": "Bo", "left": 2}, "revision": 1}, headers=auth)
    assert edited_.status == 200, edited_
    one = api("GET", f"/tables/{made['id']}/hands/1")
    assert one.json["facts"] == {"players": PLAYERS, "winner": "Bo", "left": 2}, one


@pytest.mark.parametrize("facts, field", [
    ({"players": PLAYERS, "winner": "Ann", "left": 0}, "left"),
    ({"players": PLAYERS, "winner": "Ann", "left": 8}, "left"),
    ({"players": PLAYERS, "winner": "Ann", "left": "3"}, "left"),
    ({"players": PLAYERS, "winner": "Cy", "left": 3}, "winner"),
    ({"players": PLAYERS, "winner": "Ann", "left": 3, "jokers": 1}, "jokers"),
])
def test_api_refuses_a_bad_hand_by_its_field(api, facts, field):
    made = open_table(api)
    answer = api("POST", f"/tables/{made['id']}/hands", {"facts": facts},
                 headers={"Authorization": f"Bearer {made['token']}"})
    assert answer.status in (400, 422) and field in (answer.error.get("field") or ""), answer
    assert api("GET", f"/tables/{made['id']}/hands").json["hands"] == []


def test_api_settles_a_hand(api):
    answer = api("POST", "/settle", {"game": KEY, "stake": "2", "preset": "sweep", "players": PLAYERS,
                                     "winner": "Ann", "left": 7})
    assert answer.status == 200 and answer.json["deltas"] == {"Ann": 28, "Bo": -28}, answer
    bad = api("POST", "/settle", {"game": KEY, "players": PLAYERS, "winner": "Ann", "left": 9})
    assert bad.status in (400, 422) and bad.error.get("field") == "left", bad


def test_cli_checks_a_play_of_the_game(client):
    result = client.application.test_cli_runner().invoke(args=["check", "--game", KEY, "7", "9"])
    assert result.exit_code == 0, result.output
    assert "A higher card beats a lower one." in result.output
