"""大冶打拱: the rulings of issue 7 §4, each with its twin (the case the ruling does not change or forbids)."""
import math
from decimal import Decimal

import pytest

from companion.engine import dagong
from companion.engine.cards import BIG_JOKER, SMALL_JOKER, Card
from companion.engine.errors import EngineError, FactsError

P = ["P1", "P2", "P3", "P4"]


def facts(order, captured=(0, 0, 0, 0), hand=0, partner="P3", shout=None, banker="P1", **extra):
    out = {"players": list(P), "banker": banker, "partner": partner, "shout": shout, "order": list(order),
           "captured": dict(zip(P, captured)), "last_hand_points": hand}
    out.update(extra)
    return out


def deltas(result):
    return tuple(result.deltas[p] for p in P)


# --------------------------------------------------------------------------------------------
# Reading.rank of a sequence is its LOW rank


@pytest.mark.parametrize("cards,rules,kind,low,top", [
    ("5 5 6 6 7 7", {}, "linked_pairs", 5, 7),
    ("9 9 9 10 10 10", {}, "linked_triples", 9, 10),
    ("3 4 5 6 7", {"allowStraights": True}, "straight", 3, 7),
    ("5 5 5 5 6 6 6 6", {"gunlong": True}, "gunlong", 5, 6),
])
def test_sequence_rank_is_the_low_rank(cards, rules, kind, low, top):
    (reading,) = [r for r in dagong.classify(cards, dagong.rules_from_dict(rules)) if r.type == kind]
    assert (reading.rank, reading.get("low"), reading.get("top")) == (low, low, top)
    assert reading.values[0] == low and reading.values[-1] == top
    assert str(top) in dagong.describe(reading) and str(low) in dagong.describe(reading)


def test_group_rank_is_its_rank():
    """Twin: a same-rank group keeps its rank (there is no low or top)."""
    (reading,) = dagong.classify("7 7 7")
    assert (reading.type, reading.rank, reading.get("low"), reading.get("top")) == ("triple", 7, None, None)


def test_following_a_sequence_compares_the_low_ranks():
    verdict = dagong.check("3 3 4 4 5 5", "4 4 5 5 6 6")
    assert verdict.legal and verdict.play.rank == 4
    assert dagong.check("4 4 5 5 6 6", "3 3 4 4 5 5").code == "not_higher"


def test_joker_sequence_reads_low_ranks():
    verdict = dagong.check("3 3 4 4", "5 5 JK JK")
    assert verdict.play.type == "linked_pairs" and verdict.play.rank == 5 and verdict.play.values == (5, 5, 6, 6)


# --------------------------------------------------------------------------------------------
# A shout hand with a partner filled in is accepted: the partner is ignored


def test_shout_with_a_partner_is_accepted_and_the_partner_ignored():
    plain = dagong.settle(facts(["P3"], partner=None, shout="P3"))
    with_partner = dagong.settle(facts(["P3"], partner="P2", shout="P3"))
    assert with_partner.deltas == plain.deltas == {"P1": -4, "P2": -4, "P3": 12, "P4": -4}
    assert with_partner.winners == ["P3"] and with_partner.arch == "shout"
    ignored = [s for s in with_partner.steps if "P2" in s and "ignored" in s]
    assert len(ignored) == 1 and ignored[0].params == {"partner": "P2"}
    assert not any("ignored" in s for s in plain.steps)
    assert dagong.validate_facts(facts(["P3"], partner="P2", shout="P3"))["partner"] is None
    assert dagong.teams(facts(["P3"], partner="P2", shout="P3")) == (["P3"], ["P1", "P2", "P4"])


@pytest.mark.parametrize("hand,code,field", [
    (facts(["P3"], partner="Zed", shout="P3"), "unknown_player", "partner"),  # still a player's name
    (facts(["P1", "P2"], partner="P1"), "partner_is_banker", "partner"),      # 2v2 still needs a real partner
    (facts(["P1", "P2"], partner=None), "missing_partner", "partner"),
])
def test_partner_twins_stay_errors(hand, code, field):
    with pytest.raises(FactsError) as error:
        dagong.settle(hand)
    assert (error.value.code, error.value.field) == (code, field)


# --------------------------------------------------------------------------------------------
# first_third_always_wins: E1 and E3 do not end the hand; a 1&3 team with 0 points wins ×1

LITERAL = dagong.Rules(first_third_always_wins=True)


@pytest.mark.parametrize("label,hand", [
    ("E1: P2 has 110, A has 35", facts(["P1", "P2"], (20, 110, 15, 0), 55)),
    ("E3: P2 has 200", facts(["P1", "P2"], (0, 200, 0, 0))),
    ("E3: A has 200", facts(["P1", "P2"], (150, 0, 50, 0))),
])
def test_e1_e3_do_not_end_the_hand_under_first_third_always_wins(label, hand):
    early = dagong.settle(hand)  # twin: by default the early end settles the hand
    assert early.multiplier in (1, 2)
    with pytest.raises(FactsError) as error:
        dagong.settle(hand, LITERAL)
    assert error.value.code == "hand_not_over"


def test_e2_still_ends_the_hand_under_first_third_always_wins():
    hand = facts(["P1", "P2"], (60, 20, 40, 0), 80)
    assert dagong.settle(hand, LITERAL).deltas == dagong.settle(hand).deltas == {"P1": 1, "P2": -1, "P3": 1,
                                                                                   "P4": -1}
    assert any("(E2)" in s for s in dagong.settle(hand, LITERAL).steps)


def test_first_third_team_with_no_points_wins_times_one():
    hand = facts(P, (0, 200, 0, 0), 0)  # A (P1, P3) went out 1st and 3rd with nothing
    literal = dagong.settle(hand, LITERAL)
    assert deltas(literal) == (1, -1, 1, -1) and literal.multiplier == 1 and literal.arch == "half"
    default = dagong.settle(hand)  # twin: the threshold applies, B holds all 200: ×2
    assert deltas(default) == (-2, 2, -2, 2) and default.multiplier == 2


def test_first_third_team_holding_200_still_wins_times_two():
    hand = facts(P, (200, 0, 0, 0), 0)
    assert deltas(dagong.settle(hand, LITERAL)) == (2, -2, 2, -2)
    assert deltas(dagong.settle(hand, dagong.Rules(first_third_always_wins=True, shutout_multiplier_13_14=4))) \
        == (4, -4, 4, -4)


def test_first_fourth_is_not_changed_by_first_third_always_wins():
    hand = facts(["P1", "P2", "P4", "P3"], (40, 60, 50, 30), 20)  # example #9: B wins
    assert deltas(dagong.settle(hand, LITERAL)) == deltas(dagong.settle(hand)) == (-1, 1, -1, 1)


# --------------------------------------------------------------------------------------------
# Following: an ordinary reading that beats is used; a bomb only when declared or the only way


def test_ordinary_reading_is_used_when_it_beats():
    verdict = dagong.check("3 3 4 4", "5 5 JK JK")
    assert verdict.legal and verdict.play.type == "linked_pairs" and verdict.play.values == (5, 5, 6, 6)
    # the verdict names every other reading that beats: 44 55 and the bomb
    assert "a soft bomb of 4 × 5" in verdict.reason and "consecutive pairs 4 to 5" in verdict.reason
    beating = {(r.type, r.rank) for r in verdict.readings if dagong.beats(dagong.classify("3 3 4 4")[0], r,
                                                                         dagong.DEFAULT_RULES)}
    assert beating == {("linked_pairs", 5), ("linked_pairs", 4), ("bomb", 5)}


def test_bomb_reading_when_it_is_the_only_way():
    verdict = dagong.check("6 6 7 7", "5 5 JK JK")
    assert verdict.legal and verdict.play.type == "bomb"
    assert "these cards beat it too" not in verdict.reason


def test_bomb_reading_when_declared():
    verdict = dagong.check("3 3 4 4", "5 5 JK JK", play_as="bomb")
    assert verdict.legal and verdict.play.type == "bomb" and "these cards beat it too" not in verdict.reason


def test_no_reading_beats_a_bigger_bomb():
    """Illegal twin: neither reading beats a bomb of four kings."""
    verdict = dagong.check("K K K K", "5 5 JK JK")
    assert not verdict.legal and verdict.code == "bomb_too_small"


def test_a_lead_still_reads_the_strongest():
    assert dagong.check(None, "5 5 JK JK").play.type == "bomb"


# --------------------------------------------------------------------------------------------
# Errors


@pytest.mark.parametrize("stake", [float("inf"), float("nan"), 0, -1, "-0.5", Decimal("NaN"), "inf"])
def test_bad_stakes_are_engine_errors(stake):
    with pytest.raises(EngineError) as error:
        dagong.settle(facts(P, (60, 50, 30, 40), 20), stake=stake)
    assert (error.value.code, error.value.field) == ("bad_stake", "stake")


def test_a_fractional_stake_is_fine_and_appears_in_the_steps():
    result = dagong.settle(facts(P, (60, 50, 30, 40), 20), stake="0.5")
    assert result.deltas == {"P1": 0.5, "P2": -0.5, "P3": 0.5, "P4": -0.5}
    assert result.steps[-1] == "Amounts are points × the stake of 0.5 per point."
    assert not any("stake of" in s for s in dagong.settle(facts(P, (60, 50, 30, 40), 20), stake=1).steps)


def test_unknown_fact_key_is_named():
    with pytest.raises(FactsError) as error:
        dagong.settle(facts(P, (60, 50, 30, 40), 20, winner="P1"))
    assert (error.value.code, error.value.field) == ("unknown_fact", "winner")
    assert "'winner'" in error.value.message
    with pytest.raises(FactsError):
        dagong.validate_facts(facts(P, (60, 50, 30, 40), 20, captured_points={}))


def test_known_fact_keys_are_accepted():
    hand = facts(P, (60, 50, 30, 40), 20, bright_card="7h", xi_bombs={})
    assert dagong.settle(hand).deltas["P1"] == 1


def test_an_impossible_previous_play_is_named_as_the_table():
    verdict = dagong.check("5h 5h 5h", "3 4")  # the play is no combination either: the table comes first
    assert verdict.code == "too_many_copies" and verdict.reason.startswith("The play on the table is impossible")
    twin = dagong.check("5h 5h", "3h 3h 3h")
    assert twin.code == "too_many_copies" and not twin.reason.startswith("The play on the table")


def test_unreadable_previous_names_the_previous_field():
    with pytest.raises(dagong.CardError) as error:
        dagong.check("5x", "6")
    assert error.value.field == "previous"


def test_declared_reading_keeps_the_joker_names():
    verdict = dagong.check("7 7", "8 BJ", play_as="8 8")
    assert verdict.legal and verdict.play.cards == (Card(8), Card(BIG_JOKER))
    verdict = dagong.check("6 6", "SJ BJ", play_as="SJ BJ")  # a joker in a declaration: any rank
    assert verdict.legal and verdict.play.cards == (Card(SMALL_JOKER), Card(BIG_JOKER))
    assert verdict.play.values == (15, 15)
    twin = dagong.check("7 7", "8 BJ", play_as="7 SJ")
    assert twin.code == "reading_not_possible" and "'7 SJ'" in twin.reason


def test_base_stake_and_stake_are_steps():
    result = dagong.settle(facts(P, (60, 50, 30, 40), 20), dagong.Rules(base_stake=5), stake=2)
    assert any("Base stake 5" in s for s in result.steps) and "stake of 2" in result.steps[-1]
    assert result.points == {"P1": 5, "P2": -5, "P3": 5, "P4": -5}


def test_e12_without_captured_is_an_error():
    for captured in (None, {}):
        hand = facts(["P1", "P3"])
        hand["captured"] = captured
        with pytest.raises(FactsError) as error:
            dagong.settle(hand)
        assert (error.value.code, error.value.field) == ("missing_points", "captured")
        assert "×4" in error.value.message and "P2+P4" in error.value.message
    twin = dagong.settle(facts(["P1", "P3"], (120, 0, 80, 0)))  # captured given (0 for B): ×4
    assert twin.multiplier == 4
    partial = facts(["P1", "P3"])
    partial["captured"] = {"P1": 120, "P3": 80}  # the others left out count 0
    assert dagong.settle(partial).multiplier == 4


@pytest.mark.parametrize("xi,field", [
    ({"P1": [8, 8, 8, 8]}, "xi_bombs.P1"),                                   # 32 cards from a 27-card hand
    ({"P2": [8, 8], "P4": [7, 7, 7, 7]}, "xi_bombs.P4"),                        # 28 cards
])
def test_held_bombs_beyond_the_deck_are_errors(xi, field):
    rules = dagong.Rules(bonus_xi_qian=True)
    with pytest.raises(FactsError) as error:
        dagong.settle(facts(P, (60, 50, 30, 40), 20, xi_bombs=xi), rules)
    assert error.value.code == "bad_xi"
    assert error.value.field == field


def test_held_bombs_within_the_deck_are_fine():
    rules = dagong.Rules(bonus_xi_qian=True)
    xi = {"P1": [8, 8, 8], "P2": [7, 7, 7], "P3": [8, 8, 8], "P4": [7, 7, 7]}  # each hand ≤ 27 cards
    result = dagong.settle(facts(P, (60, 50, 30, 40), 20, xi_bombs=xi), rules)
    assert sum(result.points.values()) == 0


def test_order_past_e12_is_an_error_but_past_e1_is_not():
    with pytest.raises(FactsError) as error:
        dagong.settle(facts(["P1", "P3", "P2"], (120, 0, 80, 0)))
    assert error.value.code == "order_past_end"
    # E1/E2/E3 are shortcuts: the table may play on and the order continue (§7)
    assert dagong.settle(facts(["P1", "P2", "P3", "P4"], (20, 110, 15, 0), 55)).deltas["P2"] == 1


@pytest.mark.parametrize("players", [2, 3, 5, 6, True])
def test_player_range_is_enforced(players):
    verdict = dagong.check("7", "8", players=players)
    assert (verdict.legal, verdict.code) == (False, "bad_players")
    assert dagong.check("7", "8", players=4).legal  # twin
    assert dagong.PRESET_PLAYERS["daye"] == dagong.PLAYER_RANGE == (4, 4)


# --------------------------------------------------------------------------------------------
# The Outcome is decided once; the points are the product of the steps


def test_points_are_the_product_of_the_step_factors():
    from companion.engine.dagong.facts import validate
    from companion.engine.dagong.outcome import decide

    rules = dagong.Rules(base_stake=3)
    hand = facts(P, (110, 0, 60, 30), 0)
    outcome = decide(validate(hand, rules), rules)
    assert (outcome.early_end, outcome.shout, outcome.winners, outcome.arch) == (None, None, ("P1", "P3"), "straight")
    assert outcome.multiplier == math.prod(f for f, _ in outcome.steps) == 2
    assert dagong.settle(hand, rules).points == {p: outcome.shares[p] * 2 * 3 for p in P}


def test_shout_outcome_and_shares():
    from companion.engine.dagong.facts import validate
    from companion.engine.dagong.outcome import decide, shares

    outcome = decide(validate(facts(["P1"], partner=None, shout="P3"), dagong.DEFAULT_RULES), dagong.DEFAULT_RULES)
    assert (outcome.shout, outcome.winners, outcome.multiplier, outcome.early_end) == ("lost", ("P1", "P2", "P4"), 4,
                                                                                        None)
    assert outcome.shares == {"P1": 1, "P2": 1, "P4": 1, "P3": -3}
    assert shares(("P1", "P3"), ("P2", "P4")) == {"P1": 1, "P3": 1, "P2": -1, "P4": -1}


@pytest.mark.parametrize("hand,early", [
    (facts(["P1", "P3"], (120, 0, 80, 0)), "E12"),
    (facts(["P1", "P2"], (20, 110, 15, 0), 55), "E1"),
    (facts(["P1", "P2"], (60, 20, 40, 0), 80), "E2"),
    (facts(["P1", "P2"], (0, 200, 0, 0)), "E3"),
    (facts(P, (60, 50, 30, 40), 20), None),
])
def test_outcome_names_the_early_end(hand, early):
    from companion.engine.dagong.facts import validate
    from companion.engine.dagong.outcome import decide

    assert decide(validate(hand, dagong.DEFAULT_RULES), dagong.DEFAULT_RULES).early_end == early


# --------------------------------------------------------------------------------------------
# The contract


def test_contract_names_and_registry():
    from companion.engine import ENGINES, GameEngine

    assert (dagong.NAME, dagong.TITLE) == ("dagong", "大冶打拱")
    assert ENGINES["dagong"] is dagong and isinstance(dagong, GameEngine)
    for name in ("PRESETS", "DEFAULT_RULES", "ALIASES", "SWITCHES", "PLAYER_RANGE", "DECKS", "PLAYERS",
                 "TOTAL_POINTS", "TYPES", "TYPE_NAMES", "ARCH_NAMES", "BOMB_CLASS", "describe", "teams",
                 "needed_facts", "validate_facts", "next_dealer", "Reading", "Verdict", "Settlement"):
        assert hasattr(dagong, name), name
    assert set(dagong.ARCH_NAMES) == {"half", "straight", "dry", "shout"}


def test_check_takes_cards_and_last_card():
    from companion.engine.cards import parse_cards

    verdict = dagong.check(parse_cards("7 7"), list(parse_cards("8 JK")), last_card=True)
    assert verdict.legal and verdict.play.values == (8, 8)
    assert dagong.check("7 7", "8 JK", last_card=False) == dagong.check("7 7", "8 JK")
