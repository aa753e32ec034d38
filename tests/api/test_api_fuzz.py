"""Property: whatever JSON (or non-JSON) is sent to any API endpoint, the answer is never a 500,
and every 4xx carries {"error": {"code", "message", "field"}}.

The Flask test client carries the bulk (speed); a smaller sample goes over real HTTP. The games
are the registry's, with the fixture games of tests/thirdgame registered (an app of their own):
their switches, presets and facts drawn from each engine (its ``describe_facts``), never a list by
hand; 干瞪眼's and 大冶打拱's own facts strategies below probe their details further.
"""
import json
import os

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from companion.engine import ENGINES

from api_helpers import http
from drawn_facts import described_hand, drawn

NAMES = ["A", "B", "C", "D", "P1", "P2", "P3", "P4", "", "Ana", "<b>x</b>", "王"]
CARD_TEXT = st.one_of(
    st.sampled_from(["7", "8", "9", "5 5", "6 JK", "4 5 6", "5 6 JK", "8 8 8", "4 4 4 4", "SJ BJ", "2", "-",
                     "pass", "", "5h 10c Ks", "5d 10d Kd", "3 3 3 4 4 4", "2 2 2 2", "1", "10 J Q K A",
                     "JK JK JK JK", "5 SJ BJ", "小王 大王", "7777777777"]),
    st.text(alphabet="345678910JQKA2SBJKshcd♠♥♣♦ ,x王", max_size=30),
)
ODD_TEXT = st.sampled_from(["²", "٣", "threshold:²", "perLoser:٣", "multiplier:", "1e400", "-0", " 5 ", "NaN"])
SCALARS = st.one_of(st.none(), st.booleans(), st.integers(-10**30, 10**30), st.integers(-3, 30), ODD_TEXT,
                    st.floats(allow_nan=False, allow_infinity=False), st.text(max_size=20),
                    st.sampled_from(NAMES))
JSON = st.recursive(SCALARS, lambda inner: st.one_of(st.lists(inner, max_size=5),
                                                     st.dictionaries(st.text(max_size=8), inner, max_size=5)),
                    max_leaves=25)
SMALL = st.one_of(st.integers(-2, 30), st.integers(-10**20, 10**20), JSON)


def maybe(strategy):
    """Mostly ``strategy``, sometimes arbitrary JSON in its place."""
    return st.integers(0, 11).flatmap(lambda i: JSON if i == 7 else strategy)  # not 0: hypothesis favours it


GAME = st.integers(0, 9).flatmap(lambda i: st.sampled_from(["干瞪眼", "poker", "", "DAGONG"]) if i == 7
                                 else st.sampled_from(list(ENGINES)))  # the registry, never a list by hand


def _switch_values():
    """Every real house-rule switch of every registered game with its allowed values (plus a few wrong
    ones); asked when drawn, so a game registered for the test is in."""
    pairs = []
    for module in ENGINES.values():
        for key, switch in module.SWITCHES.items():
            values = list(switch.choices) or [0, 1, 2, 5, 20, 64, 100, 105]
            pairs.append((key, values))
    return pairs


RULE_ENTRY = st.builds(_switch_values).flatmap(st.sampled_from).flatmap(
    lambda kv: st.tuples(st.just(kv[0]), st.integers(0, 9).flatmap(
        lambda i: st.one_of(SCALARS, ODD_TEXT) if i in (3, 7) else st.sampled_from(kv[1]))))
RULES = st.integers(0, 9).flatmap(lambda i: st.none() if i < 4 else JSON if i == 7 else
                                  st.lists(RULE_ENTRY, max_size=4).map(dict))

PRESET = st.builds(lambda: [*(p for module in ENGINES.values() for p in module.PRESETS), "x"]).flatmap(st.sampled_from)
CHECK_BODY = st.fixed_dictionaries(
    {"game": maybe(GAME), "play": maybe(CARD_TEXT)},
    optional={"previous": maybe(CARD_TEXT), "preset": maybe(PRESET),
              "rules": RULES, "players": maybe(st.integers(2, 6)), "previous_as": maybe(CARD_TEXT), "play_as": maybe(CARD_TEXT)})

COUNT = st.integers(0, 9).flatmap(lambda i: SMALL if i == 7 else st.integers(1, 12))
LOSER = maybe(st.fixed_dictionaries(
    {"cards": COUNT, "jokers": st.integers(0, 9).flatmap(lambda i: SMALL if i == 7 else st.integers(0, 1))},
    optional={"twos": COUNT, "held_bombs": maybe(st.lists(st.integers(2, 9), max_size=3)),
              "played": maybe(st.booleans()), "dealer_only_opening": maybe(st.booleans())}))


@st.composite
def gdy_facts(draw):
    """Mostly coherent 干瞪眼 facts (players, a winner among them, a loser entry each), with junk mixed in."""
    size = draw(st.integers(0, 9).flatmap(lambda i: st.sampled_from([0, 1, 7]) if i == 7 else st.integers(2, 6)))
    players = ["A", "B", "C", "D", "E", "F", "G"][:size]
    if not players:
        return {"game": "gandengyan", "players": draw(JSON), "winner": draw(JSON), "losers": draw(JSON)}
    winner = draw(st.one_of(st.sampled_from(players), maybe(st.sampled_from(NAMES))))
    losers = {name: draw(LOSER) for name in players if name != winner}
    facts = {"game": "gandengyan", "players": draw(maybe(st.just(players))), "winner": winner,
             "losers": draw(maybe(st.just(losers)))}
    facts.update(draw(st.fixed_dictionaries({}, optional={
        "stake": SMALL, "rules": RULES, "preset": maybe(st.sampled_from(["source", "m2", "qq", "xiangshan"])),
        "dealer": maybe(st.sampled_from(players)), "bombs_played": maybe(st.lists(st.integers(3, 8), max_size=4)),
        "tricks": maybe(st.integers(0, 40))})))
    return facts


GDY_FACTS = gdy_facts()
DG_PLAYERS = ["P1", "P2", "P3", "P4"]
DG_NAME = st.sampled_from(DG_PLAYERS)
DG_FACTS = st.fixed_dictionaries(
    {"game": st.just("dagong"),
     "players": st.integers(0, 9).flatmap(lambda i: st.lists(st.sampled_from(DG_PLAYERS + ["P5", ""]), max_size=5)
                                          if i == 7 else maybe(st.just(DG_PLAYERS))),
     "banker": maybe(DG_NAME), "partner": maybe(st.one_of(st.none(), DG_NAME)),
     "shout": st.one_of(st.none(), st.none(), maybe(DG_NAME)),
     "order": maybe(st.one_of(st.permutations(DG_PLAYERS).flatmap(lambda p: st.integers(1, 4).map(lambda n: p[:n])),
                              st.lists(DG_NAME, max_size=5))),
     "captured": maybe(st.dictionaries(DG_NAME, st.one_of(st.integers(0, 40).map(lambda n: n * 5), SMALL),
                                       max_size=4)),
     "last_hand_points": maybe(st.integers(0, 40).map(lambda n: n * 5))},
    optional={"stake": SMALL, "rules": RULES, "bright_card": maybe(CARD_TEXT)})


@st.composite
def described_settle(draw):
    """A settle body for any registered game: its players from its PLAYER_RANGE, its facts drawn from
    its description (coherent or beyond the bounds), now and then one fact replaced by junk."""
    game = draw(st.sampled_from(list(ENGINES)))
    module = ENGINES[game]
    low, high = module.PLAYER_RANGE
    players = ["A", "B", "C", "D", "E", "F"][:draw(st.integers(low, min(high, 6)))]
    facts = described_hand(*drawn(draw), module, players, loose=draw(st.booleans()))
    if facts and draw(st.integers(0, 3)) == 0:
        facts[draw(st.sampled_from(sorted(facts)))] = draw(JSON)
    return {"game": game, "players": draw(maybe(st.just(players))), **facts,
            **draw(st.fixed_dictionaries({}, optional={"stake": SMALL, "rules": RULES}))}


SETTLE_BODY = st.one_of(GDY_FACTS, DG_FACTS, described_settle())
TABLE_BODY = st.fixed_dictionaries(
    {"game": maybe(GAME), "name": maybe(st.text(max_size=90)),
     "players": maybe(st.lists(st.sampled_from(NAMES), max_size=7))},
    optional={"stake": SMALL, "currency": maybe(st.text(max_size=15)), "preset": maybe(st.just("source")),
              "rules": RULES, "notes": maybe(st.text(max_size=30)), "first_dealer": maybe(st.sampled_from(NAMES))})
TABLE_PLAYERS = ["A", "B", "C"]


@st.composite
def hand_facts(draw):
    """Facts for the fuzz table (players A, B, C), mostly coherent."""
    winner = draw(maybe(st.sampled_from(TABLE_PLAYERS)))
    losers = {name: draw(LOSER) for name in TABLE_PLAYERS if name != winner}
    facts = {"winner": winner, "losers": draw(maybe(st.just(losers)))}
    if draw(st.booleans()):
        facts["players"] = draw(maybe(st.just(TABLE_PLAYERS)))
    return facts


HAND_BODY = st.fixed_dictionaries(
    {"facts": maybe(hand_facts())},
    optional={"request_id": maybe(st.sampled_from(["seed", "r1", "r2", "r3"])),
              "revision": maybe(st.integers(0, 6)), "device": maybe(st.text(max_size=70)),
              "expected_number": maybe(st.integers(1, 5))})
ANY_BODY = st.one_of(JSON, st.binary(max_size=60))


def assert_well_formed(status, data, what):
    assert status < 500, (what, status, data[:500])
    if 300 <= status < 400:  # werkzeug's redirect for a doubled slash in the path
        return
    body = json.loads(data)
    if status >= 400:
        error = body["error"]
        assert set(error) >= {"code", "message", "field"}, body
        assert isinstance(error["code"], str) and isinstance(error["message"], str) and error["message"]
        assert error["field"] is None or isinstance(error["field"], str)
    else:
        assert isinstance(body, dict)


def encode(body):
    return body if isinstance(body, bytes) else json.dumps(body).encode()


N = int(os.environ.get("FUZZ_N", 150))  # FUZZ_N=2000 for a longer hunt
FAST = settings(max_examples=N, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture,
                                                                         HealthCheck.too_slow])


@pytest.fixture
def table(app):
    """A table with one recorded hand: (public id, token)."""
    from companion import access, scoring

    with app.app_context():
        t = scoring.create_table(game="gandengyan", name="Fuzz", players=["A", "B", "C"])
        scoring.record_hand(t, {"winner": "A", "losers": {"B": {"cards": 2, "jokers": 0},
                                                          "C": {"cards": 1, "jokers": 0}}}, request_id="seed")
        return t.public_id, access.edit_token(t)


@FAST
@given(body=st.one_of(CHECK_BODY, ANY_BODY))
def test_check_never_500(fixture_games, client, body):
    r = client.post("/api/v1/check", data=encode(body), content_type="application/json")
    assert_well_formed(r.status_code, r.data, body)


@FAST
@given(body=st.one_of(SETTLE_BODY, ANY_BODY))
def test_settle_never_500(fixture_games, client, body):
    r = client.post("/api/v1/settle", data=encode(body), content_type="application/json")
    assert_well_formed(r.status_code, r.data, body)


@settings(FAST, max_examples=N * 8 // 15)
@given(body=st.one_of(TABLE_BODY, ANY_BODY))
def test_create_table_never_500(fixture_games, client, body):
    r = client.post("/api/v1/tables", data=encode(body), content_type="application/json")
    assert_well_formed(r.status_code, r.data, body)


@settings(FAST, max_examples=N * 12 // 15)
@given(body=st.one_of(HAND_BODY, ANY_BODY), route=st.sampled_from(
    ["POST hands", "PUT hands/1", "PATCH hands/2", "POST hands/1/void", "POST hands/1/restore", "POST undo",
     "GET hands/1", "GET hands"]), token=st.sampled_from(["good", "none", "bad"]))
def test_table_writes_never_500(client, table, body, route, token):
    public_id, edit_token = table
    method, path = route.split(" ")
    headers = {"good": {"X-Edit-Token": edit_token}, "none": {}, "bad": {"X-Edit-Token": "x" * 32}}[token]
    r = client.open(f"/api/v1/tables/{public_id}/{path}", method=method, data=encode(body),
                    content_type="application/json", headers=headers)
    assert_well_formed(r.status_code, r.data, (route, body))


@settings(FAST, max_examples=N * 6 // 15)
@given(path=st.text(alphabet="abcXYZ019-_%./<>'\"王", max_size=40), query=st.text(max_size=20))
def test_table_reads_never_500(client, table, path, query):
    from urllib.parse import quote

    for url in (f"/api/v1/tables/{quote(path, safe='')}", f"/api/v1/tables/{table[0]}/hands?page={quote(query)}",
                f"/api/v1/tables/{table[0]}/hands?per_page={quote(query)}"):
        r = client.get(url)
        assert_well_formed(r.status_code, r.data, url)


# A smaller sample over real HTTP (the whole stack: werkzeug's server, real sockets)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture,
                                                                 HealthCheck.too_slow])
@given(endpoint=st.sampled_from(["/check", "/settle", "/tables"]),
       body=st.one_of(CHECK_BODY, SETTLE_BODY, TABLE_BODY, ANY_BODY))
def test_real_http_sample_never_500(fixture_games, live_server, endpoint, body):
    answer = http(live_server, "POST", "/api/v1" + endpoint, raw=encode(body))
    assert_well_formed(answer.status, answer.raw, (endpoint, body))


def test_the_bodies_are_drawn_for_every_registered_game(fixture_games):
    """The strategies ask the registry when they draw (not when this file is imported): a game
    registered for the test (the fixture 斗地主) is drawn as a game (/check, /tables), its facts for
    /settle, its switches in the rules and its presets."""
    from thirdgame.registry import every_game

    games = set(every_game())
    seen = {"game": set(), "settle": set(), "switch": set(), "preset": set()}
    switches = {key: game for game, module in every_game().items() for key in module.SWITCHES}
    presets = {key: game for game, module in every_game().items() for key in module.PRESETS}

    @settings(max_examples=40, database=None, deadline=None, derandomize=True,  # the same draws each run
              suppress_health_check=list(HealthCheck))
    @given(game=GAME, settle=described_settle(), rules=st.lists(RULE_ENTRY, min_size=8, max_size=8),
           preset=st.lists(PRESET, min_size=4, max_size=4))
    def draw(game, settle, rules, preset):
        seen["game"].add(game)
        seen["settle"].add(settle["game"])
        seen["switch"].update(switches[key] for key, _value in rules)
        seen["preset"].update(presets.get(p) for p in preset)

    draw()
    for what, drawn_games in seen.items():
        assert games <= drawn_games, (what, games - drawn_games)
