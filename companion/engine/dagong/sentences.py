"""The rules of a 大冶打拱 table in sentences, from its switch values (rules/dagong.md §9).

:func:`rule_sentences` gives, for every switch, the one sentence that states what the table's
actual value means, the anchor of the rules-page paragraph it belongs to, and the rules file
paragraph it comes from; the rules page prints these instead of prose that could contradict a
table's switches. A sentence is written for the whole rule set: where another switch changes what
it must say (the four jokers as the top bomb, first and third always winning), :data:`_REFINED`
chooses the words."""
from __future__ import annotations

from functools import lru_cache

from ..errors import EngineError
from ..sentences import rule_sentences_from
from ..text import N_, Text
from .check import check
from .rules import SWITCHES, Rules, coerce_rules
from .settle import settle

# (switch, value) -> (rules-page anchor, rules file paragraph, sentence); (switch, None): a number {n}.
_SENTENCES = {
    ("turn_direction", "ccw"): ("turns", "§9", N_("Dealing and play go counter-clockwise.")),
    ("turn_direction", "cw"): ("turns", "§9", N_("Dealing and play go clockwise.")),
    ("first_banker", "random"): ("deal", "§9", N_("The banker of the first hand is drawn at random.")),
    ("first_banker", "manual"): ("deal", "§9", N_("The banker of the first hand is chosen at the table.")),
    ("bid_card_rule", "firstDealtToDealer"): ("deal", "§9", N_("The bright card is the first card dealt to the "
                                                               "banker.")),
    ("bid_card_rule", "random"): ("deal", "§9", N_("The bright card is a random card from the banker's hand.")),
    ("bid_card_rule", "dealerChooses"): ("deal", "§9", N_("The banker chooses which card to show as the bright "
                                                          "card.")),
    ("bid_card_exclude_jokers", False): ("deal", "§9", N_("A joker may be the bright card.")),
    ("bid_card_exclude_jokers", True): ("deal", "§9", N_("A joker may not be the bright card.")),
    ("dealer_holds_both", "nextDealtCard"): ("deal", "§9", N_("If the banker holds both copies of the bright card, "
                                                              "the next card dealt is shown instead.")),
    ("dealer_holds_both", "redeal"): ("deal", "§9", N_("If the banker holds both copies of the bright card, the "
                                                       "cards are dealt again.")),
    ("dealer_holds_both", "forceSolo"): ("deal", "§9", N_("If the banker holds both copies of the bright card, "
                                                          "the banker plays alone against three.")),
    ("shout_allowed", True): ("shout", "§4", N_("A player may shout (独牌) and play alone against three.")),
    ("shout_allowed", False): ("shout", "§4", N_("Nobody may shout: every hand is two against two.")),
    ("shouter_leads", True): ("shout", "§4", N_("The shouter leads the first trick.")),
    ("shouter_leads", False): ("shout", "§4", N_("A shout does not change who leads the first trick.")),
    ("shout_multiplier", None): ("pay", "§8", N_("A shout is played at ×{n}: the shouter collects {n} from each "
                                                 "of the three, or pays each of them {n}.")),
    ("laizi_single_value", 2): ("jokers", "§5", N_("A joker played alone counts as a 2.")),
    ("laizi_single_value", 3): ("jokers", "§5", N_("A joker played alone counts as a 3.")),
    ("three_jokers", "tripleOfLaiziValue"): ("jokers", "§5", N_("Three jokers alone are a triple of the joker's "
                                                                "value.")),
    ("three_jokers", "pure510KSpade"): ("jokers", "§5", N_("Three jokers alone are a pure ♠ 510K.")),
    ("four_jokers", "wild"): ("bombs", "§5", N_("Four jokers alone are a bomb of the joker's value.")),
    ("four_jokers", "topBomb"): ("bombs", "§5", N_("Four jokers alone are the top bomb: they beat every other "
                                                   "play.")),
    ("max_jokers_in_510k", 1): ("510k", "§5", N_("A 510K may contain at most one joker.")),
    ("max_jokers_in_510k", 2): ("510k", "§5", N_("A 510K may contain up to two jokers.")),
    ("allow_straights", False): ("sequences", "§5", N_("Single straights (顺子) are not played.")),
    ("allow_straights", True): ("sequences", "§5", N_("Single straights (顺子) may be played.")),
    ("min_straight", None): ("sequences", "§5", N_("A straight has at least {n} cards.")),
    ("min_linked_pairs", None): ("sequences", "§5", N_("Consecutive pairs (连对) need at least {n} pairs.")),
    ("min_linked_triples", None): ("sequences", "§5", N_("Consecutive triples (连三) need at least {n} triples.")),
    ("bomb_min", 3): ("bombs", "§5", N_("A bomb is three or more cards of one rank.")),
    ("bomb_min", 4): ("bombs", "§5", N_("A bomb is four or more cards of one rank.")),
    ("bomb_vs_510k", "bombAbove510K"): ("bomb-class", "§5", N_("Every bomb beats every 510K.")),
    ("bomb_vs_510k", "510KAboveFourBomb"): ("bomb-class", "§5", N_("A 510K beats bombs of four cards or fewer; "
                                                                   "longer bombs beat a 510K.")),
    ("hard_beats_soft", False): ("bomb-class", "§5", N_("With equal card counts, bombs compare by rank, with or "
                                                        "without jokers.")),
    ("hard_beats_soft", True): ("bomb-class", "§5", N_("With equal card counts, a bomb without jokers beats any "
                                                       "bomb with jokers.")),
    ("xi_premium", False): ("bomb-class", "§5", N_("A hard bomb of 7 or 8 cards ranks like any bomb of its size.")),
    ("xi_premium", True): ("bomb-class", "§5", N_("A hard bomb of 7 or 8 cards (七喜/八喜) beats every soft "
                                                  "bomb.")),
    ("gunlong", False): ("bombs", "§5", N_("Consecutive bombs (滚龙) may not be played together.")),
    ("gunlong", True): ("bombs", "§5", N_("Two or more consecutive bombs (滚龙) may be played together and beat "
                                          "every bomb.")),
    ("win_threshold", None): ("pay", "§8", N_("The first out's team wins a played-out hand with {n} points or "
                                              "more; partners out first and second and the early ends decide "
                                              "before that.")),
    ("first_third_always_wins", False): ("pay", "§8", N_("A team with first and third place still needs the "
                                                         "points to win.")),
    ("first_third_always_wins", True): ("pay", "§8", N_("A team with first and third place wins whatever its "
                                                        "points.")),
    ("shutout_multiplier_13_14", None): ("pay", "§8", N_("Winners who took all 200 points after a first-and-third "
                                                         "or first-and-fourth finish win ×{n}.")),
    ("early_end_e1", True): ("end", "§7", N_("E1: the hand ends when the second out alone holds the E1 fence and "
                                             "the first out's team has points.")),
    ("early_end_e1", False): ("end", "§7", N_("No early end E1: the second out's points never end the hand "
                                              "early.")),
    ("e1_fence", None): ("end", "§7", N_("E1 fence: {n} points.")),
    ("early_end_e2", True): ("end", "§7", N_("E2: the hand ends when the first out's team holds the E2 fence and "
                                             "the second out has points.")),
    ("early_end_e2", False): ("end", "§7", N_("No early end E2: the first out's team's points never end the hand "
                                              "early.")),
    ("e2_fence", None): ("end", "§7", N_("E2 fence: {n} points.")),
    ("early_end_e3", True): ("end", "§7", N_("E3: the hand ends as soon as one side holds all 200 points.")),
    ("early_end_e3", False): ("end", "§7", N_("No early end E3: the hand goes on even when one side holds all 200 "
                                              "points.")),
    ("base_stake", None): ("pay", "§8", N_("Base stake: each share is worth {n}.")),
    ("bonus_xi_qian", False): ("pay", "§8", N_("Hard bombs of 7 or 8 cards (喜) earn no bonus.")),
    ("bonus_xi_qian", True): ("pay", "§8", N_("喜钱: a hard 7-card bomb collects one base stake from each other "
                                              "player, an 8-card bomb two.")),
}




def _top_bomb(words):
    """Words that name the four jokers as an exception, when ``four_jokers=topBomb`` puts them above."""
    return lambda rules: words if rules.four_jokers == "topBomb" else None


def _literal(words):
    """Words for an early end that does not apply under ``first_third_always_wins`` (§8.1)."""
    return lambda rules: words if rules.first_third_always_wins else None


def _hard_beats_soft_off(rules):
    return _EQUAL_COUNT_XI if rules.xi_premium else None


def _hard_beats_soft_on(rules):
    return _HARD_SOFT_TOP if rules.four_jokers == "topBomb" else None


def _jokers_in_510k(words):
    return lambda rules: words if rules.three_jokers == "pure510KSpade" else None


def _e3_on(rules):
    if rules.first_third_always_wins:
        return _E3_LITERAL
    return _E3_WHO


def _shutout(rules):
    return _SHUTOUT_E3 if rules.early_end_e3 and not rules.first_third_always_wins else None


_EQUAL_COUNT_XI = N_("With equal card counts, bombs compare by rank, with or without jokers, except that a hard "
                     "bomb of 7 or 8 cards (七喜/八喜) beats any soft bomb.")
_HARD_SOFT_TOP = N_("With equal card counts, a bomb without jokers beats any bomb with jokers, except the four "
                    "jokers, the top bomb.")
_E3_WHO = N_("E3: the hand ends as soon as the second out alone, or the first out's team, holds all 200 points.")
_E3_LITERAL = N_("No early end E3 at this table: with first and third always winning, play goes on until three "
                 "players are out.")
_SHUTOUT_E3 = N_("A side that takes all 200 points without being first and second out wins ×{n}, also when E3 "
                 "ends the hand early.")

_REFINED = {
    ("gunlong", True): _top_bomb(N_("Two or more consecutive bombs (滚龙) may be played together and beat every "
                                    "bomb except the four jokers.")),
    ("xi_premium", True): _top_bomb(N_("A hard bomb of 7 or 8 cards (七喜/八喜) beats every soft bomb except the "
                                       "four jokers.")),
    ("bomb_vs_510k", "510KAboveFourBomb"): _top_bomb(N_("A 510K beats bombs of four cards or fewer, but not the "
                                                        "four jokers; longer bombs beat a 510K.")),
    ("hard_beats_soft", False): _hard_beats_soft_off,
    ("hard_beats_soft", True): _hard_beats_soft_on,
    ("max_jokers_in_510k", 1): _jokers_in_510k(N_("A 510K may contain at most one joker; three jokers alone are "
                                                  "a pure ♠ 510K.")),
    ("max_jokers_in_510k", 2): _jokers_in_510k(N_("A 510K may contain up to two jokers; three jokers alone are a "
                                                  "pure ♠ 510K.")),
    ("early_end_e1", True): _literal(N_("No early end E1 at this table: with first and third always winning, play "
                                        "goes on until three players are out.")),
    ("early_end_e3", True): _e3_on,
    ("shutout_multiplier_13_14", None): _shutout,
}


def rule_sentences(rules: Rules = None) -> tuple:
    """One :class:`RuleSentence` per switch, in the switches' order, saying what this table's
    value of it means."""
    return _sentences(coerce_rules(rules))


@lru_cache(maxsize=32)
def _sentences(rules: Rules) -> tuple:
    return rule_sentences_from(_SENTENCES, SWITCHES, rules, _REFINED, example_of)


# --- worked examples: a play the engine checks, or a hand it settles, at this table ----------------

EXAMPLE_PLAYS = {  # switch -> (the table's play or None for a lead, the play)
    "laizi_single_value": ("A", "JK"),
    "three_jokers": ("Q Q Q", "JK JK JK"),
    "four_jokers": ("9s 9h 9c 9d 9s", "JK JK JK JK"),
    "max_jokers_in_510k": ("8 8", "5h JK JK"),
    "allow_straights": (None, "3 4 5 6 7"),
    "min_straight": (None, "3 4 5 6 7"),
    "min_linked_pairs": (None, "3 3 4 4"),
    "min_linked_triples": (None, "3 3 3 4 4 4"),
    "bomb_min": ("8 8", "9s 9h 9c"),
    "bomb_vs_510k": ("9s 9h 9c 9d", "5s 10s Ks"),
    "hard_beats_soft": ("9s 9h 9c JK", "8s 8h 8c 8d"),
    "xi_premium": ("9s 9h 9c 9d 9s 9h JK", "8s 8h 8c 8d 8s 8h 8c"),
    "gunlong": ("9s 9h 9c 9d 9s", "5s 5h 5c 5d 6s 6h 6c 6d"),
}
_P = ["P1", "P2", "P3", "P4"]
_PLAYED_OUT = ({"order": _P, "captured": {"P1": 60, "P2": 50, "P3": 30, "P4": 40}, "last_hand_points": 20})
EXAMPLE_HANDS = {  # switch -> the hand's facts beyond the seats (P1 banker, P3 partner)
    "shout_multiplier": {"shout": "P2", "order": ["P2"]},
    "win_threshold": _PLAYED_OUT,
    "base_stake": _PLAYED_OUT,
    "first_third_always_wins": {"order": _P, "captured": {"P1": 0, "P2": 150, "P3": 0, "P4": 50}},
    "shutout_multiplier_13_14": {"order": _P, "captured": {"P1": 200, "P2": 0, "P3": 0, "P4": 0}},
    "early_end_e1": {"order": ["P1", "P2"], "captured": {"P1": 10, "P2": 110, "P3": 0, "P4": 0}},
    "e1_fence": {"order": ["P1", "P2"], "captured": {"P1": 10, "P2": 110, "P3": 0, "P4": 0}},
    "early_end_e2": {"order": ["P1", "P2"], "captured": {"P1": 60, "P2": 5, "P3": 40, "P4": 0}},
    "e2_fence": {"order": ["P1", "P2"], "captured": {"P1": 60, "P2": 5, "P3": 40, "P4": 0}},
    "early_end_e3": {"order": ["P1", "P2"], "captured": {"P1": 0, "P2": 200, "P3": 0, "P4": 0}},
    "bonus_xi_qian": dict(_PLAYED_OUT, xi_bombs={"P2": [7]}),
}
_E_PLAY = N_("{top} → {play}: {reason}")  # the arrow points the other way in Arabic


def example_hand(key: str, rules: Rules) -> dict | None:
    """The hand that shows what ``key`` does (None: no hand shows it)."""
    extra = EXAMPLE_HANDS.get(key)
    if extra is None:
        return None
    facts = {"players": list(_P), "banker": "P1", **({} if "shout" in extra else {"partner": "P3"}), **extra}
    if not rules.bonus_xi_qian:
        facts.pop("xi_bombs", None)
    return facts


def example_of(key: str, rules: Rules) -> Text | None:
    """The worked example of ``key``'s sentence at this table in the engine's own words: a play
    :func:`.check.check` judges, or a hand :func:`.settle.settle` pays (its steps after the
    teams), or the engine's refusal when this table does not end the hand so."""
    if key in EXAMPLE_PLAYS:
        top, play = EXAMPLE_PLAYS[key]
        return Text(_E_PLAY.template, {"top": top or "—", "play": play, "reason": check(top, play, rules).reason})
    facts = example_hand(key, rules)
    if facts is None:
        return None
    try:
        steps = settle(facts, rules).steps[1:]
    except EngineError as error:
        return error.message
    return Text(" ".join("{f%d}" % i for i in range(len(steps))), {f"f{i}": step for i, step in enumerate(steps)})
