"""大冶打拱 engine: every worked example of rules/dagong.md §11 (settlement) and §12 (legality).

Every legal case has an illegal twin (and the other way round where the rules file gives one).
"""
import dataclasses

import pytest

from companion.engine import dagong
from companion.engine.public import FactsError, RulesError, Text

P = ["P1", "P2", "P3", "P4"]


def facts(order, captured=(0, 0, 0, 0), hand=0, partner="P3", shout=None, banker="P1"):
    return {"players": list(P), "banker": banker, "partner": None if shout else partner, "shout": shout,
            "order": list(order), "captured": dict(zip(P, captured)), "last_hand_points": hand,
            "bright_card": "7h"}


# --------------------------------------------------------------------------------------------
# §11: settlement examples. (id, facts, rules, stake, deltas P1..P4, arch, multiplier)

SETTLEMENTS = [
    ("1", facts(["P1", "P3"], (120, 0, 80, 0)), {}, 1, (4, -4, 4, -4), "dry", 4),
    ("2", facts(["P3", "P1"], (70, 20, 95, 15)), {}, 1, (2, -2, 2, -2), "straight", 2),
    ("3", facts(["P2", "P4"], (0, 110, 0, 90)), {}, 1, (-4, 4, -4, 4), "dry", 4),
    ("4", facts(["P4", "P2"], (5, 60, 0, 80), 55), {}, 1, (-2, 2, -2, 2), "straight", 2),
    ("5", facts(P, (60, 50, 30, 40), 20), {}, 1, (1, -1, 1, -1), "half", 1),
    ("6", facts(P, (110, 0, 60, 30), 0), {}, 1, (2, -2, 2, -2), "straight", 2),
    ("7", facts(P, (0, 150, 0, 30), 20), {}, 1, (-1, 1, -1, 1), "half", 1),
    ("8", facts(["P1", "P2"], (0, 200, 0, 0)), {}, 1, (-2, 2, -2, 2), "straight", 2),
    ("9", facts(["P1", "P2", "P4", "P3"], (40, 60, 50, 30), 20), {}, 1, (-1, 1, -1, 1), "half", 1),
    ("10", facts(["P1", "P2", "P4", "P3"], (70, 30, 40, 45), 15), {}, 1, (1, -1, 1, -1), "half", 1),
    ("11", facts(["P1", "P2", "P4", "P3"], (60, 50, 40, 35), 15), {}, 1, (1, -1, 1, -1), "half", 1),
    ("12", facts(["P1", "P2", "P4", "P3"], (0, 120, 0, 80), 0), {}, 1, (-2, 2, -2, 2), "straight", 2),
    ("13", facts(["P1", "P2", "P4", "P3"], (150, 0, 50, 0), 0), {}, 1, (2, -2, 2, -2), "straight", 2),
    ("14 E1", facts(["P1", "P2"], (20, 110, 15, 0), 55), {}, 1, (-1, 1, -1, 1), "half", 1),
    ("16 E2", facts(["P1", "P2"], (60, 20, 40, 0), 80), {}, 1, (1, -1, 1, -1), "half", 1),
    ("18 adjacent partner", facts(["P2", "P1"], (100, 85, 10, 5), partner="P2"), {}, 1,
     (2, 2, -2, -2), "straight", 2),
    ("19 shout won", facts(["P3"], shout="P3"), {}, 1, (-4, -4, 12, -4), "shout", 4),
    ("20 shout lost", facts(["P1"], shout="P3"), {}, 1, (4, 4, -12, 4), "shout", 4),
    ("21 b=5", facts(P, (60, 50, 30, 40), 20), {"baseStake": 5}, 1, (5, -5, 5, -5), "half", 1),
    ("22 banker shouts, b=10", facts(["P1"], shout="P1"), {"baseStake": 10}, 1, (120, -40, -40, -40), "shout", 4),
    ("23 C1 shutout ×4", facts(P, (110, 0, 60, 30), 0), {"shutoutMultiplier13_14": 4}, 1,
     (4, -4, 4, -4), "dry", 4),
    ("24 literal K", facts(P, (0, 150, 0, 30), 20), {"firstThirdAlwaysWins": True}, 1,
     (1, -1, 1, -1), "half", 1),
    # stake (money per point) on top of the points
    ("5 at stake 5", facts(P, (60, 50, 30, 40), 20), {}, 5, (5, -5, 5, -5), "half", 1),
    ("5 at stake 0.5", facts(P, (60, 50, 30, 40), 20), {}, 0.5, (0.5, -0.5, 0.5, -0.5), "half", 1),
]


@pytest.mark.parametrize("label,hand,switches,stake,expected,arch,multiplier", SETTLEMENTS,
                         ids=[row[0] for row in SETTLEMENTS])
def test_settlement_examples(label, hand, switches, stake, expected, arch, multiplier):
    rules = dagong.rules_from_dict(switches)
    result = dagong.settle(hand, rules, stake=stake)
    assert [result.deltas[p] for p in P] == list(expected)
    assert result.arch == arch
    assert result.multiplier == multiplier
    assert sum(result.points.values()) == 0
    assert all(isinstance(v, int) for v in result.points.values())
    assert result.next_dealer == hand["order"][0]
    assert set(result.winners) == {p for p, d in zip(P, expected) if d > 0}
    assert all(isinstance(step, Text) for step in result.steps)


def test_example_21_base_stake_is_in_points_and_stake_is_money():
    rules = dagong.Rules(base_stake=5)
    result = dagong.settle(facts(P, (60, 50, 30, 40), 20), rules, stake=2)
    assert result.points == {"P1": 5, "P2": -5, "P3": 5, "P4": -5}
    assert result.deltas == {"P1": 10, "P2": -10, "P3": 10, "P4": -10}


@pytest.mark.parametrize("label,hand", [
    ("15: P2 has 110 but A is on 0", facts(["P1", "P2"], (0, 110, 0, 40), 50)),
    ("17: A has 100 but P2 is on 0", facts(["P1", "P2"], (50, 0, 50, 30), 70)),
    ("only the first out", facts(["P1"], (50, 0, 50, 30), 70)),
    ("nobody out", facts([], (50, 0, 50, 30), 70)),
])
def test_examples_15_17_play_continues(label, hand):
    with pytest.raises(FactsError) as error:
        dagong.settle(hand)
    assert error.value.code == "hand_not_over"
    assert error.value.field == "order"
    assert str(error.value.message).startswith("The hand is not over")


def test_example_15_twin_e1_fires_once_a_has_points():
    """#15's twin is #14: the same 110 for P2 ends the hand as soon as A has anything."""
    assert dagong.settle(facts(["P1", "P2"], (5, 110, 0, 40), 45)).deltas["P2"] == 1


def test_example_17_twin_e2_fires_once_p2_has_points():
    assert dagong.settle(facts(["P1", "P2"], (50, 5, 50, 30), 65)).deltas["P1"] == 1


@pytest.mark.parametrize("switch", ["earlyEndE1", "earlyEndE2", "earlyEndE3"])
def test_early_ends_can_be_switched_off(switch):
    hand = {"earlyEndE1": facts(["P1", "P2"], (20, 110, 15, 0), 55),
            "earlyEndE2": facts(["P1", "P2"], (60, 20, 40, 0), 80),
            "earlyEndE3": facts(["P1", "P2"], (0, 200, 0, 0))}[switch]
    assert dagong.settle(hand).multiplier in (1, 2)
    with pytest.raises(FactsError) as error:
        dagong.settle(hand, dagong.rules_from_dict({switch: False}))
    assert error.value.code == "hand_not_over"


def test_e3_when_the_first_team_holds_200():
    result = dagong.settle(facts(["P1", "P2"], (150, 0, 50, 0)))
    assert result.deltas == {"P1": 2, "P2": -2, "P3": 2, "P4": -2}
    assert any("E3" in step for step in result.steps)


def test_steps_explain_the_transfer_and_the_result():
    result = dagong.settle(facts(P, (60, 50, 30, 40), 20))
    text = " ".join(result.steps)
    assert "P4 finished last: their 40 captured points go to P1 (first)." in text
    assert "The 20 points left in P4's hand go to P3 (third)." in text
    assert "P1+P3 have 150 ≥ 100: they win a half arch (半拱), ×1." in text
    assert result.steps[-1] == "P1+P3: +1 each; P2+P4: −1 each."
    # every step can be translated: a template with named parameters
    assert all(isinstance(step, Text) and step.template for step in result.steps)


def test_order_of_three_is_complete():
    four = dagong.settle(facts(["P1", "P2", "P4", "P3"], (40, 60, 50, 30), 20))
    three = dagong.settle(facts(["P1", "P2", "P4"], (40, 60, 50, 30), 20))
    assert four.deltas == three.deltas == {"P1": -1, "P2": 1, "P3": -1, "P4": 1}


def test_e12_ends_the_order():
    """Ruling (issue 7): E12 ends the hand, so an order that continues past it is an error."""
    result = dagong.settle(facts(["P1", "P3"], (120, 0, 80, 0)))
    assert result.multiplier == 4 and result.arch == "dry"
    for order in (["P1", "P3", "P2", "P4"], ["P1", "P3", "P2"]):
        with pytest.raises(FactsError) as error:
            dagong.settle(facts(order, (120, 0, 80, 0)))
        assert (error.value.code, error.value.field) == ("order_past_end", "order")
        assert "E12" in error.value.message


def test_shout_ignores_points_and_reports_the_shouter_side():
    hand = facts(["P3", "P1"], shout="P3")
    hand["captured"] = {"P1": 7, "P2": "junk"}  # points are ignored in a 1v3 hand
    assert dagong.settle(hand).deltas == {"P1": -4, "P2": -4, "P3": 12, "P4": -4}
    assert dagong.teams(hand) == (["P3"], ["P1", "P2", "P4"])
    assert dagong.validate_facts(hand)["captured"] == {}


def test_shout_multiplier_switch():
    result = dagong.settle(facts(["P2"], shout="P2"), dagong.Rules(shout_multiplier=2))
    assert result.deltas == {"P1": -2, "P2": 6, "P3": -2, "P4": -2}


def test_xi_qian_bonus_only_when_switched_on():
    hand = facts(P, (60, 50, 30, 40), 20)
    hand["xi_bombs"] = {"P2": [7], "P4": [8]}
    assert dagong.settle(hand).deltas == {"P1": 1, "P2": -1, "P3": 1, "P4": -1}
    result = dagong.settle(hand, dagong.Rules(bonus_xi_qian=True))
    # P2 +3, P4 +6, each of the others pays; base result ±1
    assert result.points == {"P1": 1 - 1 - 2, "P2": -1 + 3 - 2, "P3": 1 - 1 - 2, "P4": -1 - 1 + 6}
    assert sum(result.points.values()) == 0


def test_teams_and_next_dealer():
    assert dagong.teams(facts(P)) == (["P1", "P3"], ["P2", "P4"])
    assert dagong.teams(facts(P, partner="P2")) == (["P1", "P2"], ["P3", "P4"])
    assert dagong.teams(facts(P, banker="P4", partner="P1")) == (["P1", "P4"], ["P2", "P3"])
    assert dagong.next_dealer(facts(["P3", "P1"])) == "P3"
    with pytest.raises(FactsError) as error:
        dagong.next_dealer(facts([]))
    assert error.value.code == "hand_not_over"


def test_settle_returns_fresh_objects():
    hand = facts(P, (60, 50, 30, 40), 20)
    first = dagong.settle(hand)
    first.deltas["P1"] = 999
    first.steps.clear()
    second = dagong.settle(hand)
    assert second.deltas["P1"] == 1 and second.steps


# --------------------------------------------------------------------------------------------
# Fact validation: code and field


def _with(**changes):
    hand = facts(P, (60, 50, 30, 40), 20)
    for key, value in changes.items():
        if key.startswith("captured_"):
            hand["captured"][key[len("captured_"):]] = value
        else:
            hand[key] = value
    return hand


VALIDATION = [
    ("not a dict", ["P1"], "bad_facts", None),
    ("three players", _with(players=["P1", "P2", "P3"]), "bad_players", "players"),
    ("duplicate names", _with(players=["P1", "P2", "P1", "P4"]), "bad_players", "players"),
    ("empty name", _with(players=["P1", "", "P3", "P4"]), "bad_players", "players"),
    ("banker unknown", _with(banker="P9"), "unknown_player", "banker"),
    ("banker missing", _with(banker=None), "missing_banker", "banker"),
    ("partner unknown", _with(partner="Zed"), "unknown_player", "partner"),
    ("partner is banker", _with(partner="P1"), "partner_is_banker", "partner"),
    ("no partner, no shout", _with(partner=None), "missing_partner", "partner"),
    ("shout, partner unknown", _with(shout="P2", partner="Zed"), "unknown_player", "partner"),
    ("shout unknown", _with(shout="P7", partner=None), "unknown_player", "shout"),
    ("shout without order", _with(shout="P2", partner=None, order=[]), "hand_not_over", "order"),
    ("order not a list", _with(order="P1,P2"), "bad_order", "order"),
    ("order repeats", _with(order=["P1", "P2", "P1"]), "repeated_player", "order"),
    ("order unknown name", _with(order=["P1", "P5", "P3"]), "unknown_player", "order"),
    ("points not multiple of 5", _with(captured_P2=52), "not_multiple_of_5", "captured.P2"),
    ("negative points", _with(captured_P3=-10), "negative_points", "captured.P3"),
    ("points not a number", _with(captured_P4="lots"), "bad_points", "captured.P4"),
    ("points as bool", _with(captured_P4=True), "bad_points", "captured.P4"),
    ("captured for a stranger", _with(captured_P9=10), "unknown_player", "captured.P9"),
    ("in-hand not multiple of 5", _with(last_hand_points=7), "not_multiple_of_5", "last_hand_points"),
    ("sum over 200", _with(captured_P1=100), "too_many_points", "captured"),
    ("complete hand short of 200", _with(captured_P1=40), "points_total", "captured"),
    ("partial order, no early end", _with(order=["P1", "P2"]), "hand_not_over", "order"),
    ("bright card unreadable", _with(bright_card="7x"), "bad_card", "bright_card"),
    ("bright card is two cards", _with(bright_card="7h 8h"), "bad_card", "bright_card"),
    ("bright card is a joker", _with(bright_card="BJ"), "bad_card", "bright_card"),
]


@pytest.mark.parametrize("label,hand,code,field", VALIDATION, ids=[row[0] for row in VALIDATION])
def test_validation_errors(label, hand, code, field):
    with pytest.raises(FactsError) as error:
        dagong.validate_facts(hand, dagong.Rules())
    assert (error.value.code, error.value.field) == (code, field)
    with pytest.raises(FactsError):
        dagong.settle(hand)
    assert error.value.message and str(error.value.message)[-1] in ".)"


def test_validation_messages_name_the_player():
    with pytest.raises(FactsError) as error:
        dagong.validate_facts(_with(captured_P2=52))
    assert "P2" in str(error.value.message) and "multiple of 5" in str(error.value.message)


def test_valid_facts_are_normalised():
    hand = facts(["P1", "P2", "P3"], (60, 50, 30, 40), 20)
    hand["captured"] = {"P1": "60", "P2": 50.0, "P4": 40, "P3": 30}
    hand["bright_card"] = "7♥"
    normal = dagong.validate_facts(hand)
    assert normal["captured"] == {"P1": 60, "P2": 50, "P3": 30, "P4": 40}
    assert normal["bright_card"] == "7h"
    assert normal["order"] == ["P1", "P2", "P3"]
    assert dagong.settle(hand).deltas == {"P1": 1, "P2": -1, "P3": 1, "P4": -1}
    missing = facts(["P1", "P3"], (120, 0, 80, 0))
    missing["captured"] = {"P1": 120, "P3": 80}
    assert dagong.validate_facts(missing)["captured"]["P2"] == 0


def test_shout_needs_shouting_allowed():
    with pytest.raises(FactsError) as error:
        dagong.settle(facts(["P2"], shout="P2"), dagong.Rules(shout_allowed=False))
    assert (error.value.code, error.value.field) == ("shout_not_allowed", "shout")


def test_joker_bright_card_allowed_when_switched():
    hand = _with(bright_card="BJ")
    assert dagong.validate_facts(hand, dagong.Rules(bid_card_exclude_jokers=False))["bright_card"] == "BJ"


def test_bad_stake_is_a_facts_error():
    with pytest.raises(FactsError) as error:
        dagong.settle(facts(P, (60, 50, 30, 40), 20), stake="lots")
    assert error.value.field == "stake"


# --------------------------------------------------------------------------------------------
# Rules


def test_rules_defaults_follow_section_9():
    rules = dagong.Rules()
    assert dagong.PRESETS["daye"] == rules
    assert (rules.turn_direction, rules.laizi_single_value, rules.max_jokers_in_510k, rules.bomb_min,
            rules.bomb_vs_510k, rules.win_threshold, rules.e1_fence, rules.e2_fence,
            rules.shutout_multiplier_13_14, rules.shout_multiplier) == \
        ("ccw", 2, 1, 4, "bombAbove510K", 100, 105, 100, 2, 4)
    assert not (rules.allow_straights or rules.hard_beats_soft or rules.xi_premium or rules.gunlong
                or rules.first_third_always_wins or rules.bonus_xi_qian)
    assert list(dagong.SWITCHES) == [f.name for f in dataclasses.fields(dagong.Rules)]
    assert all(isinstance(s.help, Text) for s in dagong.SWITCHES.values())


@pytest.mark.parametrize("data,field,value", [
    ({"maxJokersIn510K": 2}, "max_jokers_in_510k", 2),
    ({"shutoutMultiplier13_14": "4"}, "shutout_multiplier_13_14", 4),
    ({"bombVs510K": "510KAboveFourBomb"}, "bomb_vs_510k", "510KAboveFourBomb"),
    ({"hardBeatsSoft": "true"}, "hard_beats_soft", True),
    ({"laizi_single_value": 3}, "laizi_single_value", 3),
    ({"earlyEndE1": False}, "early_end_e1", False),
    ({"e1Fence": 100}, "e1_fence", 100),
    ({"turnDirection": "clockwise"}, "turn_direction", "cw"),
    ({"baseStake": "5"}, "base_stake", 5),
])
def test_rules_from_dict_accepts_file_keys(data, field, value):
    assert getattr(dagong.rules_from_dict(data), field) == value
    assert getattr(dagong.rules_from_dict(data, preset="daye"), field) == value


@pytest.mark.parametrize("data,preset,code,field", [
    ({"noSuchRule": 1}, None, "unknown_rule", "rules.noSuchRule"),
    ({"bomb_min": "²"}, None, "bad_rules", "rules.bomb_min"),          # '²'.isdigit(), int('²') fails
    ({"win_threshold": None}, None, "bad_rules", "rules.win_threshold"),  # null: a clear error, not TypeError
    ({"laiziSingleValue": 4}, None, "bad_rules", "rules.laizi_single_value"),
    ({"laiziSingleValue": True}, None, "bad_rules", "rules.laizi_single_value"),
    ({"bombMin": "lots"}, None, "bad_rules", "rules.bomb_min"),
    ({"allowStraights": "maybe"}, None, "bad_rules", "rules.allow_straights"),
    ({"baseStake": 0}, None, "bad_rules", "rules.base_stake"),
    ({"fourJokers": "nuclear"}, None, "bad_rules", "rules.four_jokers"),
    (None, "qq", "unknown_preset", "preset"),
    (["allowStraights"], None, "bad_rules", "rules"),
])
def test_rules_errors(data, preset, code, field):
    with pytest.raises(RulesError) as error:
        dagong.rules_from_dict(data, preset=preset)
    assert (error.value.code, error.value.field) == (code, field)


def test_rules_hash_is_stable_and_pickles():
    import copy
    import pickle

    rules = dagong.Rules(hard_beats_soft=True)
    hash(rules)
    clone = pickle.loads(pickle.dumps(rules))
    assert clone == rules and hash(clone) == hash(rules) and "_hash" not in pickle.dumps(rules).decode("latin1")
    assert copy.copy(rules) == rules
    assert dagong.Rules() != rules and {dagong.Rules(): 1}.get(dagong.Rules()) == 1


def test_needed_facts_follow_the_xi_qian_switch():
    assert dagong.needed_facts(dagong.Rules()) == ()
    assert dagong.needed_facts(dagong.rules_from_dict({"bonusXiQian": True})) == ("xi_bombs",)



@pytest.mark.parametrize("sizes, legal", [([8, 8, 8], True), ([7, 7, 7, 7], False), ([8, 8, 8, 7], False)])
def test_xi_bombs_within_a_hand(sizes, legal):
    """Hard bombs played by one player fit the 27 cards of a hand (issue 19 item 5): with at most 3
    per player, the 13 ranks of the decks are never the bound."""
    rules = dagong.rules_from_dict({"bonusXiQian": True})
    facts = {"players": ["P1", "P2", "P3", "P4"], "banker": "P1", "partner": "P3", "order": ["P1", "P2", "P3"],
             "captured": {"P1": 100, "P2": 50, "P3": 50}, "xi_bombs": {"P4": sizes}}
    if legal:
        dagong.validate_facts(facts, rules)
        return
    with pytest.raises(dagong.FactsError) as error:
        dagong.validate_facts(facts, rules)
    assert (error.value.code, error.value.field) == ("bad_xi", "xi_bombs.P4")
    assert "27" in str(error.value.message)


def test_every_problem_of_a_hand_is_reported_at_once():
    """Issue 21 item 4: the order, the bright card and the points each named; twin: one problem."""
    rules = dagong.rules_from_dict({})
    facts = {"players": ["P1", "P2", "P3", "P4"], "banker": "P1", "partner": "P3", "order": ["P1", "X"],
             "bright_card": "7x", "captured": {"P1": 7, "P2": 300}}
    with pytest.raises(dagong.FactsError) as error:
        dagong.validate_facts(facts, rules)
    assert [f for f, _c, _m in error.value.errors] == ["order", "bright_card", "captured.P1", "captured.P2"]
    assert error.value.field == "order"
    with pytest.raises(dagong.FactsError) as error:
        dagong.validate_facts(dict(facts, order=["P1", "P2"], bright_card="7h", captured={"P1": 7}), rules)
    assert [f for f, _c, _m in error.value.errors] == ["captured.P1"]
