"""大冶打拱 engine properties (hypothesis): zero-sum, team symmetry, no foreign exceptions."""
import dataclasses
from decimal import Decimal

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from companion.engine import dagong
from companion.engine.cards import Card, format_cards
from companion.engine.public import EngineError

SETTINGS = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])

names = st.lists(st.text(min_size=1, max_size=6).filter(str.strip), min_size=4, max_size=4, unique=True)

rules_strategy = st.builds(
    dagong.Rules,
    win_threshold=st.sampled_from([100, 105, 95]),
    first_third_always_wins=st.booleans(),
    shutout_multiplier_13_14=st.sampled_from([2, 4]),
    early_end_e1=st.booleans(), early_end_e2=st.booleans(), early_end_e3=st.booleans(),
    base_stake=st.integers(1, 10),
    shout_multiplier=st.integers(1, 8),
    bonus_xi_qian=st.booleans(),
)


@st.composite
def split_200(draw, parts):
    """``parts`` multiples of 5 adding up to 200."""
    cuts = sorted(draw(st.lists(st.integers(0, 40), min_size=parts - 1, max_size=parts - 1)))
    bounds = [0] + [c * 5 for c in cuts] + [200]
    return [bounds[i + 1] - bounds[i] for i in range(parts)]


@st.composite
def hands(draw):
    """Valid hand facts: complete 2v2 hands, early ends (kept only when they apply) and shouts."""
    players = draw(names)
    banker = draw(st.sampled_from(players))
    kind = draw(st.sampled_from(["full", "full", "short", "shout"]))
    order = draw(st.permutations(players))
    if kind == "shout":
        shouter = draw(st.sampled_from(players))
        return {"players": players, "banker": banker, "partner": None, "shout": shouter,
                "order": order[:draw(st.integers(1, 4))]}
    partner = draw(st.sampled_from([p for p in players if p != banker]))
    points = draw(split_200(5))
    hand = {"players": players, "banker": banker, "partner": partner, "shout": None,
            "order": order[:draw(st.sampled_from([3, 4]))] if kind == "full" else order[:2],
            "captured": dict(zip(order, points[:4])), "last_hand_points": points[4]}
    if draw(st.booleans()):
        hand["xi_bombs"] = {draw(st.sampled_from(players)): draw(st.lists(st.sampled_from([7, 8]), max_size=2))}
    return hand


def _valid(hand, rules):
    try:
        dagong.validate_facts(hand, rules)
    except dagong.FactsError as error:
        # the generator makes early ends that may not apply, and full orders after E12 (an error)
        assert error.code in ("hand_not_over", "order_past_end")
        return False
    return True


@SETTINGS
@given(hands(), rules_strategy, st.sampled_from([1, 2, Decimal("0.5"), 10]))
def test_zero_sum_and_integer_points(hand, rules, stake):
    assume(_valid(hand, rules))
    result = dagong.settle(hand, rules, stake=stake)
    assert sum(result.points.values()) == 0
    assert sum(Decimal(str(v)) for v in result.deltas.values()) == 0
    assert all(isinstance(v, int) for v in result.points.values())
    assert set(result.points) == set(hand["players"])
    assert result.next_dealer == hand["order"][0]
    assert result.winners and set(result.winners) <= set(hand["players"])
    assert all(result.points[w] > 0 for w in result.winners) or rules.bonus_xi_qian
    assert result.steps and all(isinstance(step, str) for step in result.steps)


def _mirror(hand):
    """Swap each player of the banker's side with one of the other side (seats stay put)."""
    side, other = dagong.teams(hand)
    swap = {side[0]: other[0], other[0]: side[0], side[1]: other[1], other[1]: side[1]}
    mirrored = dict(hand, order=[swap[p] for p in hand["order"]],
                    captured={swap[p]: v for p, v in hand["captured"].items()})
    return mirrored, swap


@SETTINGS
@given(hands(), rules_strategy)
def test_partner_symmetry(hand, rules):
    """Who is on the banker's side is only a label: relabelling the teams changes nothing, and
    swapping the two teams' results (order and points) mirrors every delta."""
    assume(hand["shout"] is None)
    rules = dataclasses.replace(rules, bonus_xi_qian=False)
    assume(_valid(hand, rules))
    base = dagong.settle(hand, rules).deltas
    side, other = dagong.teams(hand)
    # 1. the other team is named as the banker's side
    relabelled = dict(hand, banker=other[1], partner=other[0])
    assert dagong.settle(relabelled, rules).deltas == base
    # 2. the teams swap places in the finishing order and in the points
    mirrored, swap = _mirror(hand)
    mirrored_deltas = dagong.settle(mirrored, rules).deltas
    assert {p: mirrored_deltas[swap[p]] for p in hand["players"]} == base
    assert all(mirrored_deltas[p] == -base[p] for p in hand["players"])


@st.composite
def early_hands(draw):
    """2v2 hands stopped by E1, E2 or E3 (first and second out on opposite teams)."""
    players = ["P1", "P2", "P3", "P4"]
    banker = draw(st.sampled_from(players))
    partner = draw(st.sampled_from([p for p in players if p != banker]))
    side = [banker, partner]
    other = [p for p in players if p not in side]
    first_team, second_team = (side, other) if draw(st.booleans()) else (other, side)
    first, second = draw(st.permutations(first_team))[0], draw(st.permutations(second_team))[0]
    kind = draw(st.sampled_from(["e1", "e2", "e3"]))
    fives = lambda low, high: st.integers(low // 5, high // 5).map(lambda n: n * 5)  # noqa: E731
    if kind == "e1":
        second_points = draw(fives(105, 195))
        team_points = draw(fives(5, 200 - second_points))
    elif kind == "e2":
        team_points = draw(fives(100, 195))
        second_points = draw(fives(5, 200 - team_points))
    else:
        team_points = draw(st.sampled_from([0, 200]))
        second_points = 200 - team_points
    first_points = draw(fives(0, team_points))
    rest = 200 - team_points - second_points
    fourth_points = draw(fives(0, rest))
    captured = {first: first_points, next(p for p in first_team if p != first): team_points - first_points,
                second: second_points, next(p for p in second_team if p != second): fourth_points}
    return {"players": players, "banker": banker, "partner": partner, "shout": None, "order": [first, second],
            "captured": captured, "last_hand_points": rest - fourth_points}


@SETTINGS
@given(early_hands(), rules_strategy, st.data())
def test_early_end_agrees_with_playing_on(hand, rules, data):
    """§7: E1/E2/E3 are pure shortcuts. A hand stopped early settles as it would after playing on,
    whoever of the two left goes out next and however the points still in play are shared."""
    rules = dataclasses.replace(rules, bonus_xi_qian=False, first_third_always_wins=False, win_threshold=100,
                                e1_fence=105, e2_fence=100, early_end_e1=True, early_end_e2=True,
                                early_end_e3=True)
    early = dagong.settle(hand, rules)
    assert early.multiplier in (1, rules.shutout_multiplier_13_14)
    rest = [p for p in hand["players"] if p not in hand["order"]]
    third = data.draw(st.sampled_from(rest))
    a, b = sorted(data.draw(st.lists(st.integers(0, hand["last_hand_points"] // 5), min_size=2, max_size=2)))
    captured = dict(hand["captured"])
    captured[rest[0]] += a * 5
    captured[rest[1]] += (b - a) * 5
    full = dict(hand, order=hand["order"] + [third], captured=captured,
                last_hand_points=hand["last_hand_points"] - b * 5)
    assert dagong.settle(full, rules).deltas == early.deltas


ANY_JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-300, 300) | st.floats(allow_nan=True) | st.text(max_size=8),
    lambda children: st.lists(children, max_size=5) | st.dictionaries(st.text(max_size=8), children, max_size=5),
    max_leaves=20)


@st.composite
def messy_facts(draw):
    """Mostly-plausible facts with random damage, so that validation is reached deeply."""
    hand = draw(hands())
    players = list(hand["players"])
    for _ in range(draw(st.integers(0, 3))):
        key = draw(st.sampled_from(["players", "banker", "partner", "shout", "order", "captured",
                                    "last_hand_points", "bright_card", "xi_bombs"]))
        hand[key] = draw(ANY_JSON | st.sampled_from(players))
    if draw(st.booleans()) and isinstance(hand.get("captured"), dict):
        hand["captured"] = dict(hand["captured"], **{draw(st.sampled_from(players)): draw(ANY_JSON)})
    return hand


@SETTINGS
@given(messy_facts() | ANY_JSON, st.sampled_from([1, "x", None, 2.5, True]), rules_strategy)
def test_settle_raises_only_engine_errors(hand, stake, rules):
    for call in (lambda: dagong.settle(hand, rules, stake=stake), lambda: dagong.validate_facts(hand, rules),
                 lambda: dagong.teams(hand), lambda: dagong.next_dealer(hand)):
        try:
            call()
        except EngineError as error:
            assert error.code and str(error.message)


DECK = [Card(rank, suit) for rank in range(3, 16) for suit in "shcd"] + [Card(16), Card(17)]
card_lists = st.lists(st.sampled_from(DECK), min_size=1, max_size=12)
play_rules = st.builds(dagong.Rules, laizi_single_value=st.sampled_from([2, 3]),
                       three_jokers=st.sampled_from(["tripleOfLaiziValue", "pure510KSpade"]),
                       four_jokers=st.sampled_from(["wild", "topBomb"]),
                       max_jokers_in_510k=st.sampled_from([1, 2]), allow_straights=st.booleans(),
                       bomb_min=st.sampled_from([3, 4]),
                       bomb_vs_510k=st.sampled_from(["bombAbove510K", "510KAboveFourBomb"]),
                       hard_beats_soft=st.booleans(), xi_premium=st.booleans(), gunlong=st.booleans())


@SETTINGS
@given(card_lists, card_lists, play_rules, st.booleans())
def test_check_on_random_cards(previous, play, rules, unsuited):
    text = format_cards(play)
    if unsuited:
        text = " ".join(c.rstrip("shcd") for c in text.split())
    verdict = dagong.check(format_cards(previous), text, rules)
    assert isinstance(verdict.legal, bool) and verdict.code and verdict.reason
    if verdict.legal:
        assert verdict.play is not None and verdict.play in verdict.readings
    lead = dagong.check(None, text, rules)
    assert lead.legal == bool(dagong.classify(text, rules)) or lead.code == "too_many_copies"


@SETTINGS
@given(card_lists, card_lists, play_rules)
def test_beating_is_antisymmetric(one, two, rules):
    """No reading of A beats a reading of B while that reading of B beats the reading of A."""
    for ra in dagong.classify(one, rules):
        for rb in dagong.classify(two, rules):
            assert not (dagong.beats(ra, rb, rules) and dagong.beats(rb, ra, rules))


@SETTINGS
@given(st.text(max_size=20) | ANY_JSON, st.text(max_size=20) | ANY_JSON, ANY_JSON | st.none(), ANY_JSON | st.none())
def test_check_raises_only_engine_errors(previous, play, previous_as, play_as):
    try:
        dagong.check(previous, play, previous_as=previous_as, play_as=play_as)
    except EngineError as error:
        assert error.field in ("previous", "play", "rules", "previous_as", "play_as")


@SETTINGS
@given(card_lists, play_rules)
def test_beating_is_strict(cards, rules):
    """A play never beats an identical copy of itself (equal is not higher)."""
    text = format_cards(cards)
    readings = dagong.classify(text, rules)
    assume(readings and len(cards) <= 4)
    verdict = dagong.check(text, text, rules, play_as=" ".join(str(v) for v in readings[0].values))
    if verdict.code != "too_many_copies":
        assert not verdict.legal
