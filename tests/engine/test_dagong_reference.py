"""大冶打拱: the engine against the slow reference of ``reference_dagong.py`` (written from the rules
file) on hypothesis-generated plays under every switch value, and on generated hands."""
import dataclasses

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from companion.engine import dagong
from companion.engine.cards import Card, format_cards

import reference_dagong as ref

SETTINGS = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])

# Every switch that changes how cards are read or compared, with every value.
PLAY_SWITCHES = {key: list(dagong.SWITCHES[key].choices) for key in (
    "laizi_single_value", "three_jokers", "four_jokers", "max_jokers_in_510k", "allow_straights", "bomb_min",
    "bomb_vs_510k", "hard_beats_soft", "xi_premium", "gunlong")}
play_rules = st.builds(dagong.Rules, **{k: st.sampled_from(v) for k, v in PLAY_SWITCHES.items()},
                       min_straight=st.sampled_from([3, 5]), min_linked_pairs=st.sampled_from([2, 3]),
                       min_linked_triples=st.sampled_from([2, 3]))


@st.composite
def plays(draw, max_size=12):
    """Physical cards two decks can hold: a few neighbouring ranks (plus 5, 10, K) and jokers,
    each card at most twice per suit; suits sometimes left out."""
    low = draw(st.integers(3, 14))
    ranks = sorted({r for r in range(low, min(low + 3, 15) + 1)} | {5, 10, 13})
    deck = [Card(r, s) for r in ranks for s in "shcd" for _ in range(2)] + [Card(16), Card(16), Card(17), Card(17)]
    wanted = draw(st.integers(1, max_size))
    picks = draw(st.lists(st.integers(0, len(deck) - 1), unique=True, min_size=wanted, max_size=wanted))
    cards = [deck[i] for i in picks]
    if draw(st.booleans()):
        cards = [Card(c.rank) if c.rank < 16 else c for c in cards]
    return cards


def engine_readings(cards, rules):
    out = set()
    for r in dagong.classify(cards, rules):
        facts = frozenset((k, v) for k, v in r.extra if k not in ("low", "top"))
        out.add((r.type, r.rank, r.length, tuple(sorted(r.values)), facts))
    return out


@SETTINGS
@given(plays(), play_rules)
def test_classify_matches_the_reference(cards, rules):
    assert engine_readings(cards, rules) == ref.readings(cards, rules)


@SETTINGS
@given(plays(), play_rules)
def test_classify_is_strongest_first(cards, rules):
    readings = dagong.classify(cards, rules)
    if readings:
        first = readings[0]
        key = (first.type, first.rank, first.length, tuple(sorted(first.values)),
               frozenset((k, v) for k, v in first.extra if k not in ("low", "top")))
        assert key == ref.highest(ref.readings(cards, rules), rules)


@SETTINGS
@given(plays(max_size=8), plays(max_size=8), play_rules, st.booleans())
def test_check_matches_the_reference(previous, play, rules, lead):
    both = previous + play
    assume(lead or all(both.count(c) <= 2 for c in both if c.suit) and sum(c.rank >= 16 for c in both) <= 4)
    assume(lead or all(sum(c.rank == r for c in both) <= 8 for r in range(3, 16)))  # two decks hold both
    verdict = dagong.check(None if lead else format_cards(previous), format_cards(play), rules)
    legal, used = ref.judge(None if lead else previous, play, rules)
    assert verdict.legal == legal, verdict.reason
    if legal:
        got = verdict.play
        assert (got.type, got.rank, got.length, tuple(sorted(got.values))) == used[:4]


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(plays(max_size=5), plays(max_size=7), play_rules)
def test_answers_match_the_reference_over_every_reading(previous, hand, rules):
    """The weakest answer of each kind, over every reading of every subset of the hand (§5.1)."""
    both = previous + hand
    assume(all(both.count(c) <= 2 for c in both if c.suit) and sum(c.rank >= 16 for c in both) <= 4)
    assume(all(sum(c.rank == r for c in both) <= 8 for r in range(3, 16)))
    try:
        found = dagong.answers(format_cards(previous), rules, hand=format_cards(hand))
    except dagong.CardError:
        assume(False)
        return
    got = {}
    for answer in found:
        reading = answer.play
        facts = frozenset((k, v) for k, v in reading.extra if k not in ("low", "top"))
        got[answer.kind] = ref.strength((reading.type, reading.rank, reading.length, tuple(sorted(reading.values)),
                                         facts), rules)
        verdict = dagong.check(format_cards(previous), format_cards(answer.cards), rules, play_as=answer.declare)
        assert verdict.legal and verdict.play == reading
    assert got == ref.answers(previous, hand, rules)


@pytest.mark.parametrize("cards,expected", [
    ("5 5 JK JK", {("bomb", 5), ("linked_pairs", 5), ("linked_pairs", 4)}),
    ("SJ BJ", {("pair", 15)}),
    ("5s 10s JK", {("510k", 13)}),
])
def test_reference_sanity(cards, expected):
    from companion.engine.cards import parse_cards

    assert {(t, r) for t, r, *_ in ref.readings(list(parse_cards(cards)), dagong.Rules())} == expected


# --------------------------------------------------------------------------------------------
# Settlement against §10

settle_rules = st.builds(
    dagong.Rules, win_threshold=st.sampled_from([100, 105, 95]), first_third_always_wins=st.booleans(),
    shutout_multiplier_13_14=st.sampled_from([2, 4]), early_end_e1=st.booleans(), early_end_e2=st.booleans(),
    early_end_e3=st.booleans(), e1_fence=st.sampled_from([100, 105]), e2_fence=st.sampled_from([100, 105]),
    base_stake=st.integers(1, 10), shout_multiplier=st.integers(1, 8))


@st.composite
def hands(draw):
    players = ["P1", "P2", "P3", "P4"]
    banker = draw(st.sampled_from(players))
    order = list(draw(st.permutations(players)))
    if draw(st.integers(0, 9)) == 0:
        return {"players": players, "banker": banker, "partner": None, "shout": draw(st.sampled_from(players)),
                "order": order[:draw(st.integers(1, 4))]}
    partner = draw(st.sampled_from([p for p in players if p != banker]))
    fives = draw(st.lists(st.integers(0, 40), min_size=4, max_size=4).map(sorted))
    bounds = [0] + [5 * f for f in fives] + [200]
    points = [bounds[i + 1] - bounds[i] for i in range(5)]
    if draw(st.integers(0, 4)) == 0:  # shutouts
        points = draw(st.permutations([200, 0, 0, 0, 0]))
    side = {banker, partner}
    length = 2 if (order[0] in side) == (order[1] in side) else draw(st.sampled_from([2, 2, 2, 3, 4]))
    captured = dict(zip(order, points[:4]))
    if length == 2 and draw(st.booleans()):  # early-end fences: points at and around 0, 100, 105, 200
        edge = st.sampled_from([0, 5, 100, 105, 200])
        second, team_points = draw(edge), draw(edge)
        assume(second + team_points <= 200)
        first_points = draw(st.integers(0, team_points // 5)) * 5
        fourth = draw(st.integers(0, (200 - second - team_points) // 5)) * 5
        mate = next(p for p in players if p != order[0] and (p in side) == (order[0] in side))
        other = next(p for p in players if p not in (order[0], order[1], mate))
        captured = {order[0]: first_points, mate: team_points - first_points, order[1]: second, other: fourth}
        points[4] = 200 - second - team_points - fourth
    return {"players": players, "banker": banker, "partner": partner, "shout": None, "order": order[:length],
            "captured": captured, "last_hand_points": points[4]}


@SETTINGS
@given(hands(), settle_rules)
def test_settlement_matches_section_10(hand, rules):
    try:
        expected = ref.settle(hand, rules)
    except ValueError:  # §10: the hand is not over
        with pytest.raises(dagong.FactsError) as error:
            dagong.settle(hand, rules)
        assert error.value.code == "hand_not_over"
        return
    result = dagong.settle(hand, rules)
    assert result.points == expected == result.deltas
    assert result.multiplier * rules.base_stake == max(abs(v) for v in expected.values()) // (
        3 if hand.get("shout") else 1)


@SETTINGS
@given(hands(), settle_rules, st.sampled_from([1, 2, 5]))
def test_stake_multiplies_the_points(hand, rules, stake):
    rules = dataclasses.replace(rules, first_third_always_wins=False)
    try:
        plain = dagong.settle(hand, rules)
    except dagong.FactsError:
        return
    assert dagong.settle(hand, rules, stake=stake).deltas == {p: v * stake for p, v in plain.points.items()}


@pytest.mark.parametrize("second,team,fence_rules,expected", [
    (105, 5, {}, "E1"), (100, 5, {}, None), (105, 0, {}, None),           # E1: ≥ 105 and the team > 0
    (100, 5, {"e1Fence": 100}, "E1"),
    (5, 100, {}, "E2"), (0, 100, {}, None), (5, 95, {}, None),             # E2: team ≥ 100 and the 二游 > 0
    (5, 95, {"e2Fence": 95}, "E2"),
    (200, 0, {}, "E3"), (0, 200, {}, "E3"), (195, 0, {}, None),            # E3: a side holds all 200
])
def test_early_end_fences_are_inclusive(second, team, fence_rules, expected):
    rules = dagong.rules_from_dict(fence_rules)
    hand = {"players": ["P1", "P2", "P3", "P4"], "banker": "P1", "partner": "P3", "order": ["P1", "P2"],
            "captured": {"P1": team, "P2": second, "P3": 0, "P4": 0}, "last_hand_points": 200 - second - team}
    if expected is None:
        with pytest.raises(dagong.FactsError) as error:
            dagong.settle(hand, rules)
        assert error.value.code == "hand_not_over"
    else:
        assert dagong.settle(hand, rules).points == ref.settle(hand, rules)
        assert any(f"({expected})" in step for step in dagong.settle(hand, rules).steps)


@pytest.mark.parametrize("points,threshold,winner", [(100, 100, "A"), (95, 100, "B"), (105, 105, "A"),
                                                      (100, 105, "B")])
def test_win_threshold_is_inclusive(points, threshold, winner):
    """1&4: A's points after the transfer are P1's own plus P3's (the 末游's) captured points."""
    rules = dagong.Rules(win_threshold=threshold)
    hand = {"players": ["P1", "P2", "P3", "P4"], "banker": "P1", "partner": "P3", "order": ["P1", "P2", "P4", "P3"],
            "captured": {"P1": points, "P2": 200 - points, "P3": 0, "P4": 0}, "last_hand_points": 0}
    result = dagong.settle(hand, rules)
    assert result.points == ref.settle(hand, rules)
    assert result.winners == (["P1", "P3"] if winner == "A" else ["P2", "P4"])
