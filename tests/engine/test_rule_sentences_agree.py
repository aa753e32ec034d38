"""A table's rule sentences cannot contradict the engine (issue 32 item 2).

1. Each sentence's worked example is the engine's own answer at that table; here it is compared
   with the reference implementation written from the rules file (tests/engine/reference_*.py)
   at every distinct table of two switches (every value of switch A beside every value of switch
   B, the others at their defaults), and at every preset (大冶打拱: two bases of several switches)
   with one switch changed. Every sentence is read at each table, so a sentence that depends on
   another switch is read beside each of its values.
2. The contradictions the issue lists, each sentence's claim tried on a concrete play or hand at
   the table where it used to be wrong, with its twin where the plain sentence is right."""
import dataclasses
import re

import pytest

import reference_gandengyan as ref  # tests/engine is on sys.path
from companion.engine import dagong as d
from companion.engine import gandengyan as g
from companion.engine.cards import parse_cards
from companion.engine.errors import EngineError
from companion.engine.gandengyan import sentences as gs


def _values(switch):
    if switch.key == "unit":
        return (1, 2)
    return switch.choices


def _pair_tables(module, values, bases):
    """Every distinct table where two switches take any of their values beside each other (every
    value of A beside every value of B, the others at their defaults), and each base (a preset, a
    table of several switches) with one switch changed. Tables the pairs repeat (B at its default is
    A alone; A beside B is B beside A) are checked once; a pair the engine refuses as a table is
    returned apart (the validator's refusal, not a sentence to read)."""
    keys = list(module.SWITCHES)
    changes = [{}] + [{key: value} for key in keys for value in values(module.SWITCHES[key])]
    changes += [{a: va, b: vb} for i, a in enumerate(keys) for b in keys[i + 1:]
                for va in values(module.SWITCHES[a]) for vb in values(module.SWITCHES[b])]
    tables, refused = {}, []
    for base, preset in bases:
        for change in (changes if not base and preset is None else changes[:1 + sum(
                len(values(switch)) for switch in module.SWITCHES.values())]):
            try:
                rules = module.rules_from_dict({**base, **change}, preset=preset)
            except EngineError:
                refused.append((preset, base, change))
                continue
            tables.setdefault(rules, (preset, base, change))
    return tables, refused


def _expected_pair_tables(module, values):
    """How many distinct tables the pairs make: the defaults, each other value of a switch alone,
    and each other value of A beside each other value of B."""
    defaults = module.rules_from_dict({})
    others = [sum(1 for value in values(switch) if value != getattr(defaults, key))
              for key, switch in module.SWITCHES.items()]
    return 1 + sum(others) + sum(x * y for i, x in enumerate(others) for y in others[i + 1:])


def _distinct_pair_tables(tables):
    """The pair tables on the defaults (no preset, no base): none collapsed into another."""
    return sum(1 for preset, base, _change in tables.values() if preset is None and not base)


def _ranks(text):
    return [card.rank for card in parse_cards(text)]


def gandengyan_problem(rules, sentence):
    """What is wrong with ``sentence``'s worked example at ``rules`` by the reference written from
    the rules file, or None."""
    key, example = sentence.switch, sentence.example
    if key in gs._EXAMPLE_PLAYS:
        top, play, last = gs._EXAMPLE_PLAYS[key]
        legal = ref.follow(_ranks(top), _ranks(play), rules)[0]
        if last and rules.two_as_last_card == "forbidden" and play == "2":
            legal = False
        verdict = g.check(top, play, rules, last_card=last)
        if verdict.legal != legal or str(verdict.reason) not in example:
            return f"says {example!r}; the reference: legal={legal}"
    elif key in gs._SETTLED:
        pay = ref.pays(g.validate_facts(gs.example_hand(key, rules), rules), rules)["B"]
        shown = 0 if "pays nothing" in example else int(re.findall(r"[0-9]+", example)[-1])
        if shown != pay:
            return f"says {example!r}; the reference: B pays {pay}"
    elif key == "draw_mode":
        if not example.endswith(f"at most {g.most_cards_left(rules, 4)} cards."):
            return f"says {example!r}; the deal's bound: {g.most_cards_left(rules, 4)}"
    elif key == "deck_mode":
        if f"{g.decks(rules, 4)} × 54" not in example:
            return f"says {example!r}; decks: {g.decks(rules, 4)}"
    elif example is not None:
        return f"has an example {example!r} where none is settled"
    return None


def _problems(module, tables, problem):
    out = []
    for rules, where in tables.items():
        for sentence in module.rule_sentences(rules):
            wrong = problem(rules, sentence)
            if wrong:
                out.append(f"{sentence.switch} at {where}: {wrong}")
    return out


def test_every_gandengyan_example_is_what_the_reference_says_beside_every_other_switch():
    """Every sentence at every distinct table of two switches (each value of A beside each value
    of B) and at every preset with one switch changed, against the reference."""
    tables, refused = _pair_tables(g, _values, [({}, None)] + [({}, preset) for preset in g.PRESETS])
    assert not refused, refused[:5]  # every pair is a table the engine accepts
    assert _distinct_pair_tables(tables) == _expected_pair_tables(g, _values)
    problems = _problems(g, tables, gandengyan_problem)
    assert not problems, f"{len(problems)} sentences refuted, e.g.:\n" + "\n".join(problems[:20])


def _off_by_one(sentence):
    text = str(sentence.example)
    figure = re.findall(r"[0-9]+", text)[-1]
    head, _, tail = text.rpartition(figure)
    return dataclasses.replace(sentence, example=head + str(int(figure) + 1) + tail)


@pytest.mark.parametrize("game, switches, key", [
    ("g", {"joker_doubling": "perJoker", "cap": "perLoser:20"}, "joker_doubling"),
    ("g", {"draw_mode": "winnerOnly", "unit": 2}, "draw_mode"),
    ("d", {"shout_multiplier": 3, "base_stake": 2}, "shout_multiplier"),
])
def test_a_wrong_example_is_found(game, switches, key):
    """The hunt can fail: the engine's example passes, the same with its last figure off by one
    is reported."""
    module, problem = (g, gandengyan_problem) if game == "g" else (d, dagong_problem)
    rules = module.rules_from_dict(switches)
    sentence = next(s for s in module.rule_sentences(rules) if s.switch == key)
    assert problem(rules, sentence) is None
    assert problem(rules, _off_by_one(sentence))


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


def dagong_problem(rules, sentence):
    """What is wrong with ``sentence``'s worked example at ``rules`` by the reference, or None."""
    key, example = sentence.switch, sentence.example
    if key in ds.EXAMPLE_PLAYS:
        top, play = ds.EXAMPLE_PLAYS[key]
        verdict = d.check(top, play, rules)
        legal, _used = dref.judge(parse_cards(top) if top else None, list(parse_cards(play)), rules)
        if verdict.legal != legal or str(verdict.reason) not in example:
            return f"says {example!r}; the reference: legal={legal}"
        return None
    facts = ds.example_hand(key, rules)
    if facts is None:
        return None if example is None else f"has an example {example!r} where none is settled"
    try:
        points = d.settle(facts, rules).points
    except EngineError as error:  # the engine's refusal is the example
        return None if str(error) in example else f"says {example!r}; the engine refuses: {error}"
    if not rules.bonus_xi_qian and points != dref.settle({"last_hand_points": 0, **facts}, rules):
        return f"the engine's {points} are not the reference's"
    shown = _shown_points(str(example))
    return None if shown == points else f"says {example!r}: {shown}, the engine {points}"


def _shown_points(example):
    """The points an example's last sentence gives each player ("P2: +18; P1+P3+P4: −6 each.", or
    with a bonus "Result: P1 0, P2 +2, P3 0, P4 −2.")."""
    out = {}
    if "Result: " in example:
        for name, sign, figure in re.findall(r"(P[0-9]) ([+−]?)([0-9]+)", example.split("Result: ")[-1]):
            out[name] = -int(figure) if sign == "−" else int(figure)
        return out
    for names, sign, figure in re.findall(r"((?:P[0-9]\+?)+): ([+−]?)([0-9]+)", example):
        for name in names.split("+"):
            out[name] = -int(figure) if sign == "−" else int(figure)
    return out


def test_every_dagong_example_is_what_the_reference_says_beside_every_other_switch():
    """Every sentence at every distinct table of two switches and at each base with one switch
    changed, against the reference."""
    tables, refused = _pair_tables(d, _dagong_values, [({}, None)] + [(base, None) for base in DAGONG_BASES[1:]])
    assert not refused, refused[:5]  # every pair is a table the engine accepts
    assert _distinct_pair_tables(tables) == _expected_pair_tables(d, _dagong_values)
    problems = _problems(d, tables, dagong_problem)
    assert not problems, f"{len(problems)} sentences refuted, e.g.:\n" + "\n".join(problems[:20])
