"""A table's rule sentences cannot contradict the engine (issue 32 item 2).

1. Each 干瞪眼 sentence's worked example is the engine's own answer at that table; here it is
   compared with the reference implementation written from the rules file, for every switch
   value, at every preset (each switch beside the others).
2. The contradictions the issue lists, each sentence's claim tried on a concrete play or hand at
   the table where it used to be wrong, with its twin where the plain sentence is right."""
import re

import pytest

import reference_gandengyan as ref  # tests/engine is on sys.path
from companion.engine import dagong as d
from companion.engine import gandengyan as g
from companion.engine.cards import parse_cards
from companion.engine.gandengyan import sentences as gs


def _values(switch):
    if switch.key == "unit":
        return (1, 2)
    return switch.choices


TABLES = [(preset, key, value) for preset in g.PRESETS for key, switch in g.SWITCHES.items()
          for value in _values(switch)]


def _ranks(text):
    return [card.rank for card in parse_cards(text)]


@pytest.mark.parametrize("preset, key, value", TABLES)
def test_each_gandengyan_example_is_what_the_reference_says(preset, key, value):
    rules = g.rules_from_dict({key: value}, preset=preset)
    sentence = next(s for s in g.rule_sentences(rules) if s.switch == key)
    example = sentence.example
    if key in gs._EXAMPLE_PLAYS:
        top, play, last = gs._EXAMPLE_PLAYS[key]
        legal = ref.follow(_ranks(top), _ranks(play), rules)[0]
        if last and rules.two_as_last_card == "forbidden" and play == "2":
            legal = False
        verdict = g.check(top, play, rules, last_card=last)
        assert verdict.legal == legal
        assert str(verdict.reason) in example
    elif key in gs._SETTLED:
        facts = gs.example_hand(key, rules)
        pay = ref.pays(g.validate_facts(facts, rules), rules)["B"]
        shown = 0 if "pays nothing" in example else int(re.findall(r"[0-9]+", example)[-1])
        assert shown == pay, example
    elif key == "draw_mode":
        assert example.endswith(f"at most {g.most_cards_left(rules, 4)} cards.")
    elif key == "deck_mode":
        assert f"{g.decks(rules, 4)} × 54" in example
    else:
        assert example is None


# (game, switches, the switch, words its sentence must say, words it must not, a concrete case the engine
# decides, the engine's answer): every row where the plain words were wrong has a twin where they hold.
def _g(top, play, **switches):
    return g.check(top, play, g.rules_from_dict(switches)).legal


def _d(top, play, **switches):
    return d.check(top, play, d.Rules(**switches)).legal


CLAIMS = [
    # 干瞪眼 joker_single off: "every play needs a natural card" — not while the two jokers are a bomb
    ("g", {"joker_bomb": "top"}, "joker_single", "apart from the small and big joker", None,
     lambda: _g(None, "SJ BJ", joker_bomb="top"), True),
    ("g", {}, "joker_single", "every play needs at least one natural card", "apart from",
     lambda: _g(None, "SJ BJ"), False),
    # triple_is_bomb off: "a bomb needs four cards" — the two jokers are one under joker_bomb
    ("g", {"joker_bomb": "as3"}, "triple_is_bomb", "or is the small and big joker together", None,
     lambda: _g("8 8 8", "SJ BJ", joker_bomb="as3"), True),
    ("g", {}, "triple_is_bomb", "a bomb needs four or more cards of one rank.", "joker",
     lambda: _g("8 8 8", "SJ BJ"), False),
    # triple_follow plusOne named no bombs
    ("g", {}, "triple_follow", "or by a bomb", None, lambda: _g("5 5 5", "3 3 3 3"), True),
    ("g", {}, "triple_follow", "exactly one rank higher", None, lambda: _g("5 5 5", "7 7 7"), False),
    ("g", {"triple_is_bomb": True}, "triple_follow", "is a bomb at this table", "exactly one rank",
     lambda: _g("5 5 5", "7 7 7", triple_is_bomb=True), True),
    # linear: ×(1 + 炸数), 炸数 by size (S11: triples are bombs, bombs of 3 and 5 played: 炸数 1 + 3 = 4)
    ("g", {"triple_is_bomb": True, "played_bomb_mult": "linear"}, "played_bomb_mult", "a bomb of 3 cards counts 1",
     "number of bombs", lambda: g.settle({"players": ["A", "B"], "winner": "A", "losers": {"B": {"cards": 2}},
                                          "bombs_played": [3, 5]}, g.rules_from_dict(
                                              {"triple_is_bomb": True, "played_bomb_mult": "linear"})).points["B"],
     -2 * (1 + 1 + 3)),
    ("g", {"played_bomb_mult": "linear"}, "played_bomb_mult", "a bomb of 4 cards counts 1", None,
     lambda: g.settle({"players": ["A", "B"], "winner": "A", "losers": {"B": {"cards": 2}}, "bombs_played": [4, 4]},
                      g.rules_from_dict({"played_bomb_mult": "linear"})).points["B"], -2 * 3),
    ("g", {"shut_out": "fixed20", "triple_is_bomb": True}, "shut_out", "20 + 10 × 炸数", "for each bomb",
     lambda: g.settle({"players": ["A", "B"], "winner": "A", "losers": {"B": {"cards": 5, "played": False}},
                       "bombs_played": [3, 5]}, g.rules_from_dict({"shut_out": "fixed20", "triple_is_bomb": True})
                      ).points["B"], -(20 + 10 * 4)),
    # shut_out_dealer_exception while nobody is shut out: the dealer's opening lead changes nothing
    ("g", {"shut_out": "off"}, "shut_out_dealer_exception", "changes nothing", "counts as shut out",
     lambda: g.settle({"players": ["A", "B"], "winner": "A", "dealer": "B",
                       "losers": {"B": {"cards": 4, "dealer_only_opening": True}}}).points["B"], -4),
    ("g", {"shut_out": "double"}, "shut_out_dealer_exception", "counts as shut out", None,
     lambda: g.settle({"players": ["A", "B"], "winner": "A", "dealer": "B",
                       "losers": {"B": {"cards": 4, "dealer_only_opening": True}}},
                      g.rules_from_dict({"shut_out": "double"})).points["B"], -8),
    # 大冶打拱: what four_jokers=topBomb puts above 滚龙, 七喜/八喜, a 510K and hard bombs
    ("d", {"gunlong": True, "four_jokers": "topBomb"}, "gunlong", "except the four jokers", None,
     lambda: _d("5s 5h 5c 5d 6s 6h 6c 6d", "JK JK JK JK", gunlong=True, four_jokers="topBomb"), True),
    ("d", {"gunlong": True}, "gunlong", "beat every bomb.", "four jokers",
     lambda: _d("JK JK JK JK", "5s 5h 5c 5d 6s 6h 6c 6d", gunlong=True), True),
    ("d", {"xi_premium": True, "four_jokers": "topBomb"}, "xi_premium", "except the four jokers", None,
     lambda: _d("JK JK JK JK", "9s 9h 9c 9d 9s 9h 9c", xi_premium=True, four_jokers="topBomb"), False),
    ("d", {"bomb_vs_510k": "510KAboveFourBomb", "four_jokers": "topBomb"}, "bomb_vs_510k", "not the four jokers",
     None, lambda: _d("5s 10s Ks", "JK JK JK JK", bomb_vs_510k="510KAboveFourBomb", four_jokers="topBomb"), True),
    ("d", {"hard_beats_soft": True, "four_jokers": "topBomb"}, "hard_beats_soft", "except the four jokers", None,
     lambda: _d("JK JK JK JK", "9s 9h 9c 9d", hard_beats_soft=True, four_jokers="topBomb"), False),
    ("d", {"xi_premium": True}, "hard_beats_soft", "except that a hard bomb of 7 or 8", None,
     lambda: _d("9s 9h 9c 9d 9s 9h JK", "8s 8h 8c 8d 8s 8h 8c", xi_premium=True), True),
    ("d", {}, "hard_beats_soft", "compare by rank, with or without jokers.", "七喜",
     lambda: _d("9s 9h 9c 9d 9s 9h JK", "8s 8h 8c 8d 8s 8h 8c"), False),
    ("d", {"three_jokers": "pure510KSpade"}, "max_jokers_in_510k", "three jokers alone are a pure ♠ 510K", None,
     lambda: _d(None, "JK JK JK", three_jokers="pure510KSpade"), True),
    # E3: the 二游 personally or the 头游's team, at the shut-out multiplier; none under firstThirdAlwaysWins
    ("d", {}, "early_end_e3", "the second out alone, or the first out's team", "one side", None, None),
    ("d", {"first_third_always_wins": True}, "early_end_e3", "No early end E3", None, None, None),
    ("d", {"first_third_always_wins": True}, "early_end_e1", "No early end E1", None, None, None),
    ("d", {"shutout_multiplier_13_14": 4}, "shutout_multiplier_13_14", "also when E3 ends the hand early", None,
     None, None),
    ("d", {}, "win_threshold", "a played-out hand", None, None, None),
]


@pytest.mark.parametrize("game, switches, key, says, never, case, answer", CLAIMS)
def test_a_sentence_says_what_the_engine_does_beside_the_other_switches(game, switches, key, says, never, case,
                                                                        answer):
    module, rules = (g, g.rules_from_dict(switches)) if game == "g" else (d, d.Rules(**switches))
    text = str(next(s for s in module.rule_sentences(rules) if s.switch == key).text)
    assert says in text
    assert never is None or never not in text
    if case is not None:
        assert case() == answer


def _dagong_e3(multiplier):
    """E3 (§7) at the table's shut-out multiplier: the 二游 alone holds all 200."""
    facts = {"players": ["P1", "P2", "P3", "P4"], "banker": "P1", "partner": "P3", "order": ["P1", "P2"],
             "captured": {"P1": 0, "P2": 200, "P3": 0, "P4": 0}}
    return d.settle(facts, d.Rules(shutout_multiplier_13_14=multiplier)).multiplier


@pytest.mark.parametrize("multiplier", [2, 4])
def test_e3_pays_the_multiplier_its_sentence_names(multiplier):
    rules = d.Rules(shutout_multiplier_13_14=multiplier)
    text = str(next(s for s in d.rule_sentences(rules) if s.switch == "shutout_multiplier_13_14").text)
    assert f"×{multiplier}" in text and "E3" in text
    assert _dagong_e3(multiplier) == multiplier


# 大冶打拱: each sentence's worked example against the reference, for every switch value, on the
# defaults and beside the switches that change the others' words.
import reference_dagong as dref  # noqa: E402
from companion.engine.dagong import sentences as ds  # noqa: E402

DAGONG_BASES = [{}, {"four_jokers": "topBomb", "bomb_min": 3, "allow_straights": True},
                {"first_third_always_wins": True, "bonus_xi_qian": True, "shout_allowed": False}]


def _dagong_values(switch):
    low = int(switch.minimum or 1)
    return switch.choices or ((105, 110) if switch.key == "e1_fence" else (100, 110) if switch.key == "e2_fence"
                              else (100, 150) if switch.key == "win_threshold" else (low, low + 2))


DAGONG_TABLES = [(i, key, value) for i in range(len(DAGONG_BASES)) for key, switch in d.SWITCHES.items()
                 for value in _dagong_values(switch)]


@pytest.mark.parametrize("base, key, value", DAGONG_TABLES)
def test_each_dagong_example_is_what_the_reference_says(base, key, value):
    rules = d.rules_from_dict({**DAGONG_BASES[base], key: value})
    example = next(s for s in d.rule_sentences(rules) if s.switch == key).example
    if key in ds.EXAMPLE_PLAYS:
        top, play = ds.EXAMPLE_PLAYS[key]
        verdict = d.check(top, play, rules)
        legal, _used = dref.judge(parse_cards(top) if top else None, list(parse_cards(play)), rules)
        assert verdict.legal == legal
        assert str(verdict.reason) in example
        return
    facts = ds.example_hand(key, rules)
    if facts is None:
        assert example is None
        return
    try:
        points = d.settle(facts, rules).points
    except Exception as error:  # the engine's refusal is the example
        assert str(error) in example
        return
    if not rules.bonus_xi_qian:
        assert points == dref.settle({"last_hand_points": 0, **facts}, rules)
    for name, value in points.items():
        assert str(abs(value)) in example, (name, value, example)
