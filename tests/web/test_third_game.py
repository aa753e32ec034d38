"""A third game needs engine code, its words and optional templates only (issue 17, docs/engine.md).

The fixture game 斗地主 (``tests/thirdgame/doudizhu.py``: three players, landlord and farmers, the
bid as a choice, bombs as a count, the spring as a yes/no fact, two switches) is registered in the
engine's registry for each test as docs/engine.md says (the ``fixture_games`` fixture), with no
``templates/games/doudizhu/`` and no line of ``companion/``, ``templates/`` or ``static/`` naming it,
and is played through the pages (new table, table page, rules pages, record, hand page, edit,
summary, settle-up, export JSON and CSV, import) and the JSON API (/games, tables, hands, summary,
export, import, /check, /answers, /settle, OpenAPI), on SQLite and (``-m db`` with
``scripts/with_pg.sh``) on PostgreSQL.

Its hand form, its facts' JSON schema, its CSV phrases and its hand page are generated from its
``describe_facts`` (companion/engine/described.py). Every hand here is recorded and corrected as a
user does it: through the record/edit forms (CSRF on, tokens taken from the page) or through the
JSON API, then reviewed, exported and imported back. The registry-wide tests (tests/web/test_every_game.py,
tests/engine/test_junk.py, tests/engine/test_game_engine.py, …) run over it too.
"""
import csv
import io
import json
import pathlib
import re
import urllib.error
import urllib.request

import pytest

from companion import review, scoring
from companion.engine import ENGINES
from thirdgame import doudizhu as game

from web_helpers import field_errors, hidden, text_of

ROOT = pathlib.Path(__file__).resolve().parents[2]
KEY = game.NAME
PLAYERS = ["Ann", "Bo", "Cy"]
# Ann is the landlord, bids 2 and plays out first; one bomb and a spring: 2 × 2 × 2 = 8 from each farmer
WON = {"landlord": "Ann", "bid": 2, "winner": "Ann", "bombs": 1, "spring": True}


@pytest.fixture
def registered(monkeypatch):
    """The fixture game in the registry for this test only (removed afterwards)."""
    assert KEY not in ENGINES
    monkeypatch.setitem(ENGINES, KEY, game)
    yield game
    monkeypatch.undo()
    assert KEY not in ENGINES


@pytest.fixture
def client(registered, app):  # the game is registered before the app is made (its OpenAPI document too)
    app.config["WTF_CSRF_ENABLED"] = True  # every form posted below carries the token its page gave
    return app.test_client()


def post(client, page, path, data, **kw):
    """POST a form as a browser does: with the CSRF token of the page it was on (``page``)."""
    return client.post(path, data={**data, "csrf_token": hidden(client.get(page), "csrf_token")}, **kw)


def new_table(client, preset="standard", **more):
    return post(client, f"/new/{KEY}", f"/new/{KEY}", {"name": "Landlord night", "player_1": "Ann", "player_2": "Bo",
                                                     "player_3": "Cy", "stake": "2", "currency": "¥",
                                                     "preset": preset, "first_dealer": "1", "notes": "", **more})


@pytest.fixture
def table(client):
    """A 斗地主 table with the standard preset, stake 2, opened through the new-table page."""
    response = new_table(client)
    assert response.status_code == 302, text_of(response)
    public_id = response.headers["Location"].rsplit("/", 1)[1]
    with client.application.app_context():
        found = scoring.get_table(public_id)
        assert found.game == KEY and found.player_names == PLAYERS
        assert found.rules == {"bomb_doubles": "each", "spring_doubles": True}
    return public_id


def _form(facts):
    return {k: ("y" if v is True else str(v)) for k, v in facts.items() if v is not False}


def recorded(client, public_id, *hands):
    """Record hands through the record form, as a phone does (the CSRF token, request id and
    expected hand number taken from the page); each is saved and shown on its page."""
    for facts in hands:
        page = client.get(f"/t/{public_id}/record")
        assert page.status_code == 200
        data = {name: hidden(page, name) for name in ("csrf_token", "request_id", "expected_number")}
        response = client.post(f"/t/{public_id}/record", data={**data, **_form(facts)})
        assert response.status_code == 302 and "saved=1" in response.headers["Location"], text_of(response)


def edited(client, public_id, number, facts):
    """Correct a stored hand through its edit form (the revision and CSRF token from the page)."""
    page = client.get(f"/t/{public_id}/hands/{number}/edit")
    assert page.status_code == 200
    data = {name: hidden(page, name) for name in ("csrf_token", "revision")}
    return client.post(f"/t/{public_id}/hands/{number}/edit", data={**data, **_form(facts)})


def test_nothing_in_the_app_names_the_fixture_game():
    """No file of companion/, templates/ or static/ knows 斗地主, and it has no templates of its own."""
    assert not (ROOT / "templates" / "games" / KEY).exists()
    paths = [*(ROOT / "companion").rglob("*.py"), *(ROOT / "templates").rglob("*.html"),
             *(ROOT / "static").rglob("*.js"), *(ROOT / "static").rglob("*.css")]
    assert len(paths) > 50 and any(p.suffix == ".js" for p in paths) and any(p.suffix == ".css" for p in paths)
    for path in paths:
        text = path.read_text(encoding="utf-8")
        assert not re.search(rf"\b{KEY}\b", text) and game.TITLE not in text, path


# --------------------------------------------------------------------------------------------
# Pages


def test_start_page_offers_the_game_and_the_new_table_page_opens_it(client):
    home = client.get("/")
    assert f'href="/new/{KEY}"' in home.get_data(as_text=True)
    assert "New 斗地主 table" in text_of(home)
    page = client.get(f"/new/{KEY}")
    assert page.status_code == 200
    text = text_of(page)
    assert "New 斗地主 table" in text and "Exactly 3 players." in text
    assert str(game.FIRST_DEALER_HELP) in text and str(game.WORDS.first_dealer) in text
    html = page.get_data(as_text=True)
    assert 'name="rule_bomb_doubles"' in html and 'name="rule_spring_doubles"' in html
    assert "Player 3" in text and "Player 4" not in text  # three seats: the engine's PLAYER_RANGE


def test_a_bad_new_table_keeps_what_was_typed(client):
    response = new_table(client, player_3="")
    assert response.status_code == 400
    assert 'value="Landlord night"' in response.get_data(as_text=True)


def test_table_page_says_the_games_words(client, table):
    page = client.get(f"/t/{table}")
    assert page.status_code == 200
    text = text_of(page)
    assert "Landlord night" in text and game.TITLE in text
    assert str(game.NEXT_DEALER_WORD) in text and "Ann" in text
    assert "Bombs played: double for each bomb" in text  # the switch and its value in words
    assert str(game.WORDS.presets["standard"]) in text and "Preset: standard." not in text  # the preset too


@pytest.mark.parametrize("preset, said, not_said", [
    ("standard", "Each bomb or rocket played doubles the stake.", "Bombs played double the stake once, however many."),
    ("gentle", "Bombs played double the stake once, however many.", "Each bomb or rocket played doubles the stake."),
])
def test_rules_pages_print_the_engines_sentences(client, preset, said, not_said):
    response = new_table(client, preset=preset)
    public_id = response.headers["Location"].rsplit("/", 1)[1]
    page = client.get(f"/t/{public_id}/rules")
    assert page.status_code == 200
    text = text_of(page)
    assert said in text and not_said not in text
    assert "Rules of 斗地主" in text and 'data-sentence="bomb_doubles"' in page.get_data(as_text=True)
    assert "Ann won: each farmer pays 6." in text  # the worked example, settled live by the game's engine
    general = client.get(f"/rules/{KEY}")
    assert general.status_code == 200 and "Each bomb or rocket played doubles the stake." in text_of(general)


def test_checker_page_knows_the_game(client, table):
    page = client.get(f"/check?game={KEY}&previous=7&play=9")
    assert page.status_code == 200
    assert "It beats the play on the table." in text_of(page)
    at_table = client.get(f"/t/{table}/check?previous=9&play=7")
    assert at_table.status_code == 200 and "Only a higher rank beats the play on the table." in text_of(at_table)
    other_kind = text_of(client.get(f"/t/{table}/check?previous=7+7&play=9"))
    assert "Only the same kind of play with as many cards" in other_kind and "connected pairs" not in other_kind


def test_settings_page_of_the_table(client, table):
    page = client.get(f"/t/{table}/settings")
    assert page.status_code == 200 and "Landlord night" in page.get_data(as_text=True)


def test_record_a_hand_through_the_form(client, table):
    page = client.get(f"/t/{table}/record")
    assert page.status_code == 200
    html = page.get_data(as_text=True)
    # the fields of the game's describe_facts: the landlord, the bid and the winner as pills, the
    # bombs as a count, the spring as a yes/no box
    for name in ("landlord", "bid", "winner", "bombs"):
        assert f'name="{name}"' in html, name
    assert re.search(r'<input[^>]*name="spring"[^>]*type="checkbox"|<input[^>]*type="checkbox"[^>]*name="spring"',
                     html)
    assert "Who played out first?" in text_of(page) and "2 points" in text_of(page)
    assert hidden(page, "csrf_token") and hidden(page, "expected_number") == "1"
    recorded(client, table, WON)
    with client.application.app_context():
        hand = scoring.get_hand(scoring.get_table(table), 1)
        assert hand.facts == {"players": PLAYERS, **WON}
    shown = text_of(client.get(f"/t/{table}/hands/1"))
    assert "A bomb was played: ×2. Spring (春天): ×2. Ann won: each farmer pays 8." in shown
    # the facts on the hand page, drawn from the description (the generic facts_summary.html)
    assert "Landlord Ann" in shown and "Bid 2 points" in shown and "Bombs 1" in shown and "Spring yes" in shown


@pytest.mark.parametrize("data, field, words", [
    ({"landlord": "Ann", "bid": "2", "winner": "Ann", "bombs": "99"}, "bombs",
     "Bombs played: a whole number from 0 to 14."),
    ({"landlord": "Ann", "bid": "2", "winner": "Ann", "bombs": "-1"}, "bombs",
     "Bombs played: a whole number from 0 to 14."),
    ({"landlord": "Ann", "bid": "5", "winner": "Ann", "bombs": "1"}, "bid", "Choose the bid."),
    ({"landlord": "Ann", "bombs": "1"}, "winner", "Choose who played out first."),
    ({"bid": "2", "winner": "Ann", "bombs": "1"}, "landlord", "Choose the landlord."),
])
def test_a_bad_hand_is_refused_by_its_field_and_what_was_typed_stays(client, table, data, field, words):
    page = client.get(f"/t/{table}/record")
    ids = {name: hidden(page, name) for name in ("csrf_token", "request_id", "expected_number")}
    response = client.post(f"/t/{table}/record", data={**ids, **data})
    assert response.status_code == 400
    assert words in " ".join(field_errors(response).get(field, [])), field_errors(response)
    assert hidden(response, "request_id") == ids["request_id"]
    if field == "bombs":
        assert re.search(rf'name="bombs"[^>]*value="{data["bombs"]}"|value="{data["bombs"]}"[^>]*name="bombs"',
                         response.get_data(as_text=True))
    with client.application.app_context():
        assert scoring.get_table(table).hand_seq == 0


def test_a_form_without_its_csrf_token_is_refused(client, table):
    page = client.get(f"/t/{table}/record")
    response = client.post(f"/t/{table}/record", data={"request_id": hidden(page, "request_id"), **_form(WON)})
    assert response.status_code == 400
    with client.application.app_context():
        assert scoring.get_table(table).hand_seq == 0


def test_edit_a_hand_through_the_form(client, table):
    recorded(client, table, {**WON, "spring": False, "bombs": 0})
    page = client.get(f"/t/{table}/hands/1/edit")
    assert page.status_code == 200
    assert re.search(r'<input[^>]*checked[^>]*name="bid"[^>]*value="2"', page.get_data(as_text=True))
    response = edited(client, table, 1, {**WON, "winner": "Bo", "bombs": 2, "spring": False})
    assert response.status_code in (302, 303), text_of(response)
    shown = text_of(client.get(f"/t/{table}/hands/1"))
    assert "The farmers won: Ann pays each of them 8." in shown and "Ann −16" in shown
    refused = edited(client, table, 1, {**WON, "bombs": 15})
    assert refused.status_code == 400 and "from 0 to 14" in " ".join(field_errors(refused).get("bombs", []))
    with client.application.app_context():
        assert scoring.get_hand(scoring.get_table(table), 1).facts["winner"] == "Bo"


def test_hand_page_review_and_settle_up(client, table):
    recorded(client, table, WON, {**WON, "landlord": "Bo", "winner": "Cy", "bombs": 0, "spring": False})
    assert edited(client, table, 2, {**WON, "landlord": "Bo", "winner": "Cy", "bid": 3, "bombs": 0,
                                     "spring": False}).status_code == 302  # settled again
    assert "The farmers won: Bo pays each of them 3." in text_of(client.get(f"/t/{table}/hands/2"))
    summary = client.get(f"/t/{table}/summary")
    assert summary.status_code == 200
    html = summary.get_data(as_text=True)
    for figure in game.TALLIES:  # the engine's figures, summed in SQL, by their words
        assert f'id="fig-{figure}"' in html and str(game.WORDS.tallies[figure]) in text_of(summary), figure
    settle = client.get(f"/t/{table}/settle")
    assert settle.status_code == 200
    # Ann +16 +3 = +19 points, Bo -8 -6 = -14, Cy -8 +3 = -5; × stake 2: Ann gets 28 ¥ from Bo and 10 ¥ from Cy
    assert "28" in text_of(settle) and "10" in text_of(settle)
    for path in ("sheet", "chart", "history"):
        assert client.get(f"/t/{table}/{path}").status_code == 200, path


def test_summary_counts_are_the_engines_tallies(client, table):
    recorded(client, table, WON, {**WON, "winner": "Bo", "spring": False},
             {**WON, "landlord": "Cy", "winner": "Bo", "spring": True})
    with client.application.app_context():
        data = review.summary(scoring.get_table(table))
        counts = {p.name: p.counts for p in data.players}
    assert counts["Ann"] == {"won": 2, "landlord_won": 1, "landlord_lost": 1, "springs": 2}
    assert counts["Bo"] == {"won": 2, "landlord_won": 0, "landlord_lost": 0, "springs": 1}
    assert counts["Cy"] == {"won": 1, "landlord_won": 0, "landlord_lost": 1, "springs": 0}


def test_form_record_review_export_and_import_back(client, table):
    """The whole chain through the pages: the record form, the summary, the CSV and JSON exports,
    the import page, and the copy's own summary."""
    recorded(client, table, WON, {**WON, "landlord": "Bo", "winner": "Cy", "bombs": 0, "spring": False})
    summary = text_of(client.get(f"/t/{table}/summary"))
    assert "Won as landlord" in summary
    exported = client.get(f"/t/{table}/export.json")
    assert exported.status_code == 200
    doc = json.loads(exported.get_data())
    assert doc["table"]["game"] == KEY and [h["facts"]["bombs"] for h in doc["hands"]] == [1, 0]
    sheet = client.get(f"/t/{table}/export.csv")
    assert sheet.status_code == 200
    rows = list(csv.reader(io.StringIO(sheet.get_data(as_text=True).lstrip("\ufeff"))))
    assert [(r[0], r[2], r[3]) for r in rows[1:]] == [("1", "Ann", "16"), ("1", "Bo", "-8"), ("1", "Cy", "-8"),
                                                      ("2", "Ann", "2"), ("2", "Bo", "-4"), ("2", "Cy", "2")]
    said = {(r[0], r[2]): r[5] for r in rows[1:]}  # the CSV's phrases, from the description
    assert said[("1", "Ann")] == "landlord; played out first; bid: 2 points; bombs: 1; spring"
    assert said[("1", "Bo")] == "bid: 2 points; bombs: 1; spring"  # the hand-level facts on every row
    assert "spring" not in said[("2", "Ann")] and "played out first" in said[("2", "Cy")]
    assert client.get(f"/t/{table}/export").status_code == 200
    response = post(client, "/import", "/import", {"file": (io.BytesIO(exported.get_data()), "doudizhu.json")},
                    content_type="multipart/form-data")
    assert response.status_code == 302, text_of(response)
    copy = response.headers["Location"].rsplit("/", 1)[1]
    assert copy != table
    again = json.loads(client.get(f"/t/{copy}/export.json").get_data())
    assert [h["points"] for h in again["hands"]] == [h["points"] for h in doc["hands"]]
    assert again["table"]["game"] == KEY and again["table"]["rules"] == doc["table"]["rules"]
    standings = summary[summary.index("Final standings"):summary.index("Counted over")]
    assert standings in text_of(client.get(f"/t/{copy}/summary"))  # the copy reviews the same


def test_import_of_a_game_nobody_registered_is_refused(client, table, monkeypatch):
    recorded(client, table, WON)
    data = client.get(f"/t/{table}/export.json").get_data()
    monkeypatch.delitem(ENGINES, KEY)
    response = post(client, "/import", "/import", {"file": (io.BytesIO(data), "doudizhu.json")},
                    content_type="multipart/form-data")
    assert response.status_code == 400
    assert f"a game this server does not know ('{KEY}')" in text_of(response)


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
def api(registered, live_server):
    def call(method, path, body=None, **kw):
        return http(live_server, method, "/api/v1" + path, body, **kw)
    call.base = live_server
    return call


def open_table(api):
    answer = api("POST", "/tables", {"game": KEY, "name": "API 斗地主", "players": PLAYERS, "stake": "2",
                                     "preset": "standard"})
    assert answer.status == 201, answer
    return answer.json


def test_api_lists_the_game_and_its_openapi_names_it(api):
    games = api("GET", "/games")
    assert games.status == 200
    mine = games.json["games"][KEY]
    assert mine["players"] == {"min": 3, "max": 3} and set(mine["presets"]) == set(game.PRESETS)
    assert set(mine["switches"]) == {"bomb_doubles", "spring_doubles"}
    spec = api("GET", "/openapi.json")
    assert spec.status == 200 and KEY in spec.raw.decode()
    # the facts' JSON schema, generated from the game's describe_facts (bounds from its validator)
    variants = spec.json["components"]["schemas"]["SettleRequest"]["oneOf"]  # one per game (issue 31)
    mine = next(v for v in variants if KEY in v["properties"]["game"]["enum"])
    assert set(mine["properties"]["rules"]["properties"]) == {"bomb_doubles", "spring_doubles"}
    bombs = mine["properties"]["bombs"]
    assert (bombs["type"], bombs["minimum"], bombs["maximum"]) == ("integer", 0, game.MOST_BOMBS)


def test_api_opens_a_table_and_reviews_and_exports_it(api):
    made = open_table(api)
    public_id, token = made["id"], made["token"]
    auth = {"Authorization": f"Bearer {token}"}
    recorded_ = api("POST", f"/tables/{public_id}/hands", {"facts": {"players": PLAYERS, **WON}}, headers=auth)
    assert recorded_.status == 201, recorded_
    listed = api("GET", f"/tables/{public_id}/hands")
    assert listed.status == 200, listed
    assert listed.json["hands"][0]["deltas"] == {"Ann": 16, "Bo": -8, "Cy": -8}, listed  # points, as every game's
    one = api("GET", f"/tables/{public_id}/hands/1")
    assert one.status == 200 and one.json["facts"]["bombs"] == 1 and one.json["facts"]["spring"] is True, one
    summary = api("GET", f"/tables/{public_id}/summary")
    assert summary.status == 200, summary
    assert "landlord_won" in summary.raw.decode()
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
    low = api("POST", "/check", {"game": KEY, "previous": "9", "play": "7"})
    assert low.status == 200 and low.json["legal"] is False and low.json["code"] == "not_higher", low
    other = api("POST", "/check", {"game": KEY, "previous": "7 7", "play": "9"})
    assert other.status == 200 and other.json["code"] == "not_same_kind", other
    answers = api("POST", "/answers", {"game": KEY, "previous": "7", "hand": "5 9 K"})
    assert answers.status == 200 and "9" in answers.raw.decode(), answers


def test_api_refuses_a_bad_table_with_the_engines_words(api):
    answer = api("POST", "/tables", {"game": KEY, "name": "x", "players": ["Ann", "Bo"]})
    assert answer.status == 400 and answer.error["field"] == "players", answer


def test_api_records_and_edits_a_hand(api):
    made = open_table(api)
    auth = {"Authorization": f"Bearer {made['token']}"}
    recorded_ = api("POST", f"/tables/{made['id']}/hands", {"facts": {"players": PLAYERS, **WON}}, headers=auth)
    assert recorded_.status == 201, recorded_
    assert recorded_.json["deltas"] == {"Ann": 16, "Bo": -8, "Cy": -8} and recorded_.json["facts"]["bid"] == 2
    lost = {"players": PLAYERS, **WON, "winner": "Bo", "bombs": 0, "spring": False}
    edited_ = api("PUT", f"/tables/{made['id']}/hands/1", {"facts": lost, "revision": 1}, headers=auth)
    assert edited_.status == 200, edited_
    one = api("GET", f"/tables/{made['id']}/hands/1")
    assert one.json["facts"] == lost and one.json["deltas"] == {"Ann": -4, "Bo": 2, "Cy": 2}, one


@pytest.mark.parametrize("wrong, field", [
    ({"bombs": -1}, "bombs"),
    ({"bombs": game.MOST_BOMBS + 1}, "bombs"),
    ({"bombs": "1"}, "bombs"),
    ({"winner": "Di"}, "winner"),
    ({"landlord": "Di"}, "landlord"),
    ({"left": 3}, "left"),
])
def test_api_refuses_a_bad_hand_by_its_field(api, wrong, field):
    made = open_table(api)
    answer = api("POST", f"/tables/{made['id']}/hands", {"facts": {"players": PLAYERS, **WON, **wrong}},
                 headers={"Authorization": f"Bearer {made['token']}"})
    assert answer.status in (400, 422) and field in (answer.error.get("field") or ""), answer
    assert api("GET", f"/tables/{made['id']}/hands").json["hands"] == []


def test_api_settles_a_hand(api):
    answer = api("POST", "/settle", {"game": KEY, "stake": "2", "preset": "gentle", "players": PLAYERS,
                                     **WON, "bombs": 2})
    assert answer.status == 200 and answer.json["deltas"] == {"Ann": 16, "Bo": -8, "Cy": -8}, answer  # 2 × 2 once
    bad = api("POST", "/settle", {"game": KEY, "players": PLAYERS, **WON, "bombs": 99})
    assert bad.status in (400, 422) and bad.error.get("field") == "bombs", bad


def test_cli_checks_a_play_of_the_game(client):
    result = client.application.test_cli_runner().invoke(args=["check", "--game", KEY, "7", "9"])
    assert result.exit_code == 0, result.output
    assert "It beats the play on the table." in result.output
