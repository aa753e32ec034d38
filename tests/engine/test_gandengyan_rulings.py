"""干瞪眼: the rulings changed by issue 7 §4, each with its illegal twin."""
import math

import pytest

from companion.engine import gandengyan as g
from companion.engine.errors import EngineError, FactsError, RulesError


def rules(**switches):
    return g.rules_from_dict(switches)


def hand(players, losers, **extra):
    return {"players": list(players), "winner": players[0], "losers": losers, **extra}


# --- joker_single: a lone joker ranks above 2, so it beats ANY lower single -----------------

@pytest.mark.parametrize("top", ["3", "7", "A", "2"])
def test_lone_joker_beats_any_lower_single(top):
    verdict = g.check(top, "SJ", rules(jokerSingle=True))
    assert (verdict.legal, verdict.code) == (True, "ok"), verdict.reason
    assert verdict.play.rank == g.JOKER and verdict.reason == f"SJ beats {top}: a single joker ranks above 2."


@pytest.mark.parametrize("top, play, switches, code", [
    ("SJ", "BJ", {"jokerSingle": True}, "only_bomb_beats_joker"),   # nothing single is above a joker
    ("BJ", "2", {"jokerSingle": True}, "only_bomb_beats_joker"),
    ("7", "SJ", {}, "joker_alone"),                                 # the switch is off: no lone joker
    ("7 7", "2 SJ", {"jokerSingle": True}, "joker_as_two"),         # only the lone joker ranks above 2
])
def test_lone_joker_illegal_twins(top, play, switches, code):
    verdict = g.check(top, play, rules(**switches))
    assert (verdict.legal, verdict.code) == (False, code), verdict.reason


# --- following: the ordinary reading first, a bomb only when declared or the only way ---------

def test_ordinary_reading_is_used_when_it_beats():
    verdict = g.check("3 3 4 4", "5 5 JK JK")
    assert verdict.legal and (verdict.play.type, verdict.play.rank) == ("connected_pairs", 4)
    # every reading that beats is listed, the one used first
    assert [(r.type, r.rank) for r in verdict.readings] == [("connected_pairs", 4), ("bomb", 5)]


def test_ordinary_reading_first_with_triples_as_bombs():
    verdict = g.check("3 4 5", "6 JK JK", rules(tripleIsBomb=True))
    assert (verdict.play.type, verdict.play.rank) == ("straight", 4)
    assert {(r.type, r.rank) for r in verdict.readings} == {("straight", 4), ("bomb", 6)}


def test_bomb_reading_when_declared():
    verdict = g.check("3 3 4 4", "5 5 JK JK", play_as="5 5 5 5")
    assert verdict.legal and (verdict.play.type, verdict.play.rank) == ("bomb", 5)
    assert verdict.readings[0] == verdict.play and len(verdict.readings) == 2


def test_bomb_reading_when_it_is_the_only_way():
    verdict = g.check("9", "5 5 JK JK")
    assert verdict.legal and verdict.play.type == "bomb"
    assert verdict.readings == (verdict.play,)


def test_no_reading_beats_lists_every_reading():
    verdict = g.check("6 6 6 6", "5 5 JK JK")
    assert (verdict.legal, verdict.code) == (False, "bomb_too_small")
    assert len(verdict.readings) == 3  # 5555, 5566, 4455: every way to read the cards


def test_declared_ordinary_reading_that_does_not_beat_is_not_replaced_by_the_bomb():
    verdict = g.check("3 3 4 4", "5 5 JK JK", play_as="5 5 6 6")
    assert (verdict.legal, verdict.code) == (False, "not_one_higher")


# --- errors ------------------------------------------------------------------------------------

FACTS = hand("AB", {"B": {"cards": 3, "jokers": 0}})


@pytest.mark.parametrize("stake", [math.inf, -math.inf, math.nan, 0, -1, "0", "-2", "inf", "nan", "abc", True,
                                   None, "0.00001"])
def test_bad_stake_is_an_engine_error(stake):
    with pytest.raises(FactsError) as info:
        g.settle(FACTS, stake=stake)
    assert isinstance(info.value, EngineError)
    assert (info.value.code, info.value.field) == ("bad_stake", "stake")


@pytest.mark.parametrize("stake, money", [(1, 3), (2, 6), (0.5, 1.5), ("0.25", 0.75), ("1,5", 4.5)])
def test_good_stake_twin(stake, money):
    assert g.settle(FACTS, stake=stake).deltas == {"A": money, "B": -money}


def test_unknown_top_level_fact_is_named():
    facts = dict(FACTS, winer="A")
    with pytest.raises(FactsError) as info:
        g.validate_facts(facts)
    assert (info.value.code, info.value.field) == ("unknown_fact", "winer")
    assert "'winer'" in str(info.value) and "bombs_played" in str(info.value)
    with pytest.raises(FactsError):
        g.settle(facts)


@pytest.mark.parametrize("key, value", [("bombs_played", [4]), ("bombsPlayed", [4]), ("tricks", 3), ("dealer", "B")])
def test_known_top_level_facts_twin(key, value):
    g.validate_facts(dict(FACTS, **{key: value}))


def test_impossible_previous_play_is_named_as_the_previous_play():
    verdict = g.check("7 7 7 7 7", "8", players=2)  # one deck holds four 7s
    assert (verdict.legal, verdict.code) == (False, "too_many_copies")
    assert verdict.reason.startswith("The play on the table, 7 7 7 7 7, is not possible: ")
    assert verdict.reason.params["previous"] == "7 7 7 7 7"
    assert g.check("7 7 7 7 7", "8", players=3).code == "only_bomb_beats_bomb"  # two decks: possible


def test_impossible_play_is_not_called_the_previous_play():
    verdict = g.check("8", "7 7 7 7 7", players=2)
    assert verdict.code == "too_many_copies" and not verdict.reason.startswith("The play on the table")


def test_bad_previous_reading_is_named_as_the_previous_play():
    verdict = g.check("5 JK JK", "6 6 6", previous_as="6 6 6")
    assert (verdict.legal, verdict.code) == (False, "bad_reading")
    assert verdict.reason.startswith("The play on the table, 5 JK JK, cannot be read as 6 6 6")
    assert g.check("5 JK JK", "6 6 6", previous_as="5 5 5").legal


@pytest.mark.parametrize("declared", ["6 小王 小王", "6 SJ BJ", "6 JK 大王"])
def test_declared_reading_keeps_the_joker_names(declared):
    verdict = g.check(None, "5 JK JK", play_as=declared)
    assert (verdict.legal, verdict.code) == (False, "bad_reading")
    assert f"cannot be read as {declared};" in verdict.reason


@pytest.mark.parametrize("declared", ["大王 小王", "SJ BJ", "JK JK"])
def test_declared_joker_reading_twin(declared):
    verdict = g.check(None, "SJ BJ", rules(jokerBomb="top"), play_as=declared)
    assert verdict.legal and verdict.play.type == "joker_bomb"


def test_fractional_unit_and_stake_are_steps():
    result = g.settle(FACTS, rules(unit=0.5), stake=2)
    assert result.points == {"A": 3, "B": -3} and result.deltas == {"A": 3, "B": -3}
    assert result.steps[-2:] == ["Unit: 0.5 per card, so the money is the points × 0.5.",
                                "Stake: 2 per point, so the money is the points × 2."]
    assert result.steps[-1].params == {"stake": result.steps[-1].params["stake"]}


def test_whole_unit_and_stake_one_add_no_money_step():
    result = g.settle(FACTS, rules(unit=2), stake=1)
    assert result.steps == ["B: 3 cards, 2 points per card, ×2 = 6", "A collects 6 from 1 player."]


# --- presets' player ranges (rules file §5) -------------------------------------------------

@pytest.mark.parametrize("preset, low, high", [("source", 2, 6), ("qq", 2, 5), ("m2", 2, 6), ("xiangshan", 3, 5)])
def test_preset_player_ranges(preset, low, high):
    r = g.PRESETS[preset]
    assert r.player_range == (low, high)
    built = g.rules_from_dict({"unit": 2}, preset)  # switches on top keep the preset's range
    assert built.player_range == (low, high)
    for players in range(low, high + 1):  # twin: inside the range everything works
        g.decks(built, players)
        assert g.check(None, "7", built, players=players).legal
    for players in (low - 1, high + 1):
        if not 2 <= players <= 6 and (low, high) == (2, 6):
            continue
        with pytest.raises(RulesError) as info:
            g.decks(built, players)
        assert (info.value.code, info.value.field) == ("bad_players", "players")
        verdict = g.check(None, "7", built, players=players)
        assert (verdict.legal, verdict.code) == (False, "bad_players")
        assert f"from {low} to {high}" in verdict.reason


def test_preset_player_range_in_hand_facts():
    six = {"players": list("ABCDEF"), "winner": "A",
           "losers": {name: {"cards": 1} for name in "BCDEF"}}
    with pytest.raises(FactsError) as info:
        g.validate_facts(six, g.PRESETS["qq"])
    assert (info.value.code, info.value.field) == ("player_count", "players")
    assert "2 to 5" in str(info.value)
    assert g.settle(six, g.PRESETS["m2"]).points["A"] == 5  # twin: m2 seats six
    two = hand("AB", {"B": {"cards": 1}})
    with pytest.raises(FactsError):
        g.settle(two, g.PRESETS["xiangshan"])
    assert g.settle(two, g.PRESETS["qq"]).points == {"A": 1, "B": -1}


# Issue 9: points are bounded where a hand is settled, naming what makes them absurd.
def test_absurd_points_are_refused_naming_the_cause():
    from companion.engine.money import MAX_POINTS

    players = ["A", "B", "C"]
    facts = {"players": players, "winner": "A", "losers": {"B": {"cards": 5, "jokers": 0},
                                                            "C": {"cards": 5, "jokers": 0}}}
    rules = g.rules_from_dict({"played_bomb_mult": "double", "unit": 1_000_000})
    with pytest.raises(FactsError) as caught:
        g.settle({**facts, "bombs_played": [4] * 24}, rules)  # 96 cards played, 10 held: two decks hold them
    assert caught.value.code == "too_many_points" and caught.value.field == "bombs_played"
    assert str(MAX_POINTS) in str(caught.value)
    many = {**facts, "losers": {"B": {"cards": 36, "jokers": 4, "twos": 4}, "C": {"cards": 5, "jokers": 0}}}
    with pytest.raises(FactsError) as caught:
        g.settle(many, g.rules_from_dict({"unit": 1_000_000, "joker_doubling": "perJoker",
                                          "twos_are_trumps": "perTwo"}))
    assert caught.value.field == "rules.unit"
    # the twin: a big but possible hand settles
    assert g.settle({**facts, "bombs_played": [4] * 4}, rules).points["A"] == 2 * 5 * 16 * 1_000_000
