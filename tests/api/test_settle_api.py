"""POST /api/v1/settle over real HTTP: worked examples of both rules files, and bad facts."""
import pytest

from api_helpers import assert_error

S1 = {"game": "gandengyan", "players": ["A", "B", "C", "D"], "winner": "A",
      "losers": {"B": {"cards": 3, "jokers": 0}, "C": {"cards": 5, "jokers": 1}, "D": {"cards": 1, "jokers": 0}}}
P = ["P1", "P2", "P3", "P4"]


def dagong(order, captured, last=0, **extra):
    facts = {"game": "dagong", "players": P, "banker": "P1", "partner": "P3", "shout": None,
             "order": order, "captured": dict(zip(P, captured)), "last_hand_points": last}
    facts.update(extra)
    return facts


GANDENGYAN = [
    # rules/gandengyan.md §8
    ("S1", S1, {"A": 14, "B": -3, "C": -10, "D": -1}),
    ("S2", {"game": "gandengyan", "players": ["A", "B", "C"], "winner": "A",
            "losers": {"B": {"cards": 6, "jokers": 2}, "C": {"cards": 4, "jokers": 0, "twos": 2}}},
     {"A": 16, "B": -12, "C": -4}),
    ("S3", {"game": "gandengyan", "players": ["A", "B", "C"], "winner": "A",
            "losers": {"B": {"cards": 6, "jokers": 2}, "C": {"cards": 4, "jokers": 0, "twos": 2}},
            "rules": {"joker_doubling": "perJoker", "twos_are_trumps": "perTwo"}},
     {"A": 40, "B": -24, "C": -16}),
    ("S4 stake 0.5", {"game": "gandengyan", "players": ["A", "B"], "winner": "A",
                      "losers": {"B": {"cards": 8, "jokers": 2}}, "stake": 0.5},
     {"A": 8, "B": -8}),
    ("S5", {"game": "gandengyan", "players": ["A", "B", "C", "D", "E"], "winner": "A",
            "losers": {"B": {"cards": 2, "jokers": 0}, "C": {"cards": 4, "jokers": 1},
                       "D": {"cards": 5, "jokers": 0}, "E": {"cards": 1, "jokers": 0}},
            "bombs_played": [4, 4], "rules": {"played_bomb_mult": "double"}},
     {"A": 64, "B": -8, "C": -32, "D": -20, "E": -4}),
    ("S10", {"game": "gandengyan", "players": ["A", "B", "C"], "winner": "A",
             "losers": {"B": {"cards": 1, "jokers": 0}, "C": {"cards": 3, "jokers": 1}},
             "rules": {"one_card_exempt": True}},
     {"A": 6, "B": 0, "C": -6}),
]

DAGONG = [
    # rules/dagong.md §11: (label, request, deltas, winners, arch, multiplier)
    ("#1", dagong(["P1", "P3"], [120, 0, 80, 0]), [4, -4, 4, -4], ["P1", "P3"], None, 4),
    ("#5", dagong(P, [60, 50, 30, 40], 20), [1, -1, 1, -1], ["P1", "P3"], "half", 1),
    ("#6", dagong(P, [110, 0, 60, 30], 0), [2, -2, 2, -2], ["P1", "P3"], "straight", 2),
    ("#9", dagong(["P1", "P2", "P4", "P3"], [40, 60, 50, 30], 20), [-1, 1, -1, 1], ["P2", "P4"], "half", 1),
    ("#19", dagong(["P3"], [0, 0, 0, 0], partner=None, shout="P3"), [-4, -4, 12, -4], ["P3"], "shout", 4),
    ("#20", dagong(["P1"], [0, 0, 0, 0], partner=None, shout="P3"), [4, 4, -12, 4], ["P1", "P2", "P4"], "shout", 4),
    ("#21 stake 5", {**dagong(P, [60, 50, 30, 40], 20), "stake": 5}, [5, -5, 5, -5], ["P1", "P3"], "half", 1),
]


@pytest.mark.parametrize("label,body,deltas", GANDENGYAN, ids=[c[0] for c in GANDENGYAN])
def test_gandengyan_settlements(api, label, body, deltas):
    answer = api("POST", "/settle", body)
    assert answer.status == 200, answer
    assert answer.json["deltas"] == deltas
    assert sum(answer.json["deltas"].values()) == 0
    steps = answer.json["steps"]
    assert isinstance(steps, list) and len(steps) >= len(deltas) - 1
    assert all(isinstance(s, str) and s for s in steps)
    assert answer.json["next_dealer"] == body["winner"]


def test_gandengyan_steps_name_the_multiplier(api):
    steps = api("POST", "/settle", S1).json["steps"]
    c_step = next(s for s in steps if s.startswith("C"))
    assert "5" in c_step and "10" in c_step  # "C: 5 cards, holds a joker, ×2 = 10"


@pytest.mark.parametrize("label,body,deltas,winners,arch,multiplier", DAGONG, ids=[c[0] for c in DAGONG])
def test_dagong_settlements(api, label, body, deltas, winners, arch, multiplier):
    answer = api("POST", "/settle", body)
    assert answer.status == 200, answer
    result = answer.json
    assert [result["deltas"][p] for p in P] == deltas
    assert sorted(result["winners"]) == sorted(winners)
    if arch:
        assert result["arch"] == arch
    assert result["multiplier"] == multiplier
    assert result["steps"] and all(isinstance(s, str) for s in result["steps"])


def test_stake_as_decimal_string(api):
    answer = api("POST", "/settle", {**S1, "stake": "0.5"})
    assert answer.status == 200
    assert answer.json["deltas"] == {"A": 7, "B": -1.5, "C": -5, "D": -0.5}
    assert answer.json["points"] == {"A": 14, "B": -3, "C": -10, "D": -1}


# ------------------------------------------------------------------------------------------
# Bad facts: 4xx naming the field; the twin of a valid request with one thing broken


def broken(base, path, value):
    """A copy of ``base`` with the dotted ``path`` set to ``value`` (or removed when value is ...)."""
    import copy

    body = copy.deepcopy(base)
    *parents, last = path.split(".")
    node = body
    for key in parents:
        node = node[key]
    if value is ...:
        del node[last]
    else:
        node[last] = value
    return body


@pytest.mark.parametrize("path,value,field", [
    ("losers.C.jokers", 6, "losers.C.jokers"),          # jokers exceed cards
    ("losers.B.cards", -1, "losers.B.cards"),
    ("losers.B.cards", "3", "losers.B.cards"),           # a number as a string
    ("losers.B.cards", 3.5, "losers.B.cards"),
    ("losers.B.cards", 10**40, "losers.B.cards"),
    ("losers.B.cards", None, "losers.B*"),
    ("losers.B.jokers", 99, "losers.B.jokers"),
    ("losers.B", [3, 0], "losers.B*"),                   # a list where an object is expected
    ("losers", [], "losers*"),
    ("losers", None, "losers*"),
    ("winner", "Z", "winner"),
    ("winner", 5, "winner"),
    ("players", "A B C D", "players*"),
    ("players", ["A", "A", "B", "C"], "players*"),
    ("players", ["A"], "players*"),
    ("stake", -1, "stake"),
    ("stake", "lots", "stake"),
    ("stake", [1], "stake"),
    ("stake", True, "stake"),
    ("stake", 10**20, "stake"),
    ("preset", "nope", "preset"),
    ("rules", {"cap": "sometimes"}, "rules.cap"),
    ("rules", [], "rules"),
    ("game", "chess", "game"),
])
def test_bad_gandengyan_facts(api, path, value, field):
    assert api("POST", "/settle", S1).status == 200  # the valid twin
    assert_error(api("POST", "/settle", broken(S1, path, value)), 400, field=field)


def test_jokers_exceeding_cards_has_a_clear_message(api):
    error = assert_error(api("POST", "/settle", broken(S1, "losers.C.jokers", 6)), 400, field="losers.C.jokers")
    assert "C" in error["message"]


@pytest.mark.parametrize("change,field", [
    ({"captured": {"P1": 61, "P2": 49, "P3": 30, "P4": 40}}, "captured*"),    # not multiples of 5
    ({"order": ["P1", "P1", "P3", "P4"]}, "order*"),                            # a player twice
    ({"order": ["P1", "P9", "P3", "P4"]}, "order*"),
    ({"order": "P1 P2 P3 P4"}, "order*"),
    ({"banker": "Nobody"}, "banker"),
    ({"partner": "P1"}, "partner"),                                             # partner = banker
    ({"players": ["P1", "P2", "P3"]}, "players*"),
    ({"last_hand_points": -5}, "last_hand_points"),
    ({"last_hand_points": "20"}, "last_hand_points"),                          # a number as text
    ({"captured": {"P1": "60", "P2": 50, "P3": 30, "P4": 40}}, "captured.P1"),
    ({"captured": {"P1": 60, "P2": 50, "P3": 30, "P4": 10**30}}, "captured.P4"),
    ({"captured": {"P1": None, "P2": 50, "P3": 30, "P4": 40}}, "captured*"),    # 60 points missing
    ({"captured": [60, 50, 30, 40]}, "captured*"),
])
def test_bad_dagong_facts(api, change, field):
    valid = dagong(P, [60, 50, 30, 40], 20)
    assert api("POST", "/settle", valid).status == 200
    assert_error(api("POST", "/settle", {**valid, **change}), 400, field=field)


def test_settle_requires_an_object(api):
    assert_error(api("POST", "/settle", raw=b"[]"), 400, "not_an_object")
    assert_error(api("POST", "/settle", raw=b"{\"game\": \"dagong\",}"), 400, "bad_json")
