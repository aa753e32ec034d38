"""How 大冶打拱 names itself to the faces: labels, the banker's word, the names of its outcomes
(the arches), and how many decks a table uses. Everything a page, form or export needs to know
about the game comes from the engine (:class:`companion.engine.GameEngine`)."""
from __future__ import annotations

from .. import inputs
from ..text import N_
from .outcome import ARCH_NAMES
from .facts import XI_SIZES, needed_facts
from .rules import DECKS, TOTAL_POINTS, coerce_rules

LABEL = N_("大冶打拱 Da Gong")  # the Chinese name with a translatable reading of it
DEALER_WORD = N_("Banker")      # who leads a hand (and names the bright card) at this game
DEALER_FACT = "banker"          # the fact of a hand that names its banker
NEXT_DEALER_WORD = N_("Next banker")  # the table page's label for who leads the next hand
FIRST_DEALER_HELP = N_("The banker of the first hand; afterwards the previous first player out.")
OUTCOME_NAMES = ARCH_NAMES      # arch -> its name: the one list, also used by the outcome's steps


def decks(rules=None, players: int | None = None) -> int:
    """How many 54-card decks a table uses: always two (§2), whatever the rules and the players."""
    return DECKS


# Where the rules page explains each verdict: check's code -> the paragraph's anchor (the same
# anchors as the rule sentences').
VERDICT_ANCHORS = {
    "pass": "turns", "lead_pass": "turns", "bad_players": "deal", "too_many_copies": "deal",
    "too_many_jokers": "deal", "reading_not_possible": "jokers", "previous_not_a_combination": "plays",
    "not_higher": "follow", "length_mismatch": "follow", "type_mismatch": "follow",
    "needs_bomb": "bomb-class", "mixed_510k": "510k", "mixed_below_pure": "510k", "suit_not_higher": "510k",
    "too_many_jokers_in_510k": "510k", "bomb_beats_510k": "bomb-class", "510k_beats_small_bomb": "bomb-class",
    "bomb_too_small": "bomb-class", "bomb_equal": "bomb-class", "no_straights": "sequences",
    "two_in_sequence": "sequences", "sequence_too_short": "sequences", "not_a_combination": "plays",
}

# Plays the rules page shows with their readings, and example hands it settles live.
EXAMPLE_PLAYS = ("3", "7 7", "8 8 8", "3 3 4 4", "3 3 3 4 4 4", "5 10 K", "5h 10h Kh", "9 9 9 9", "7 7 7 7 JK", "SJ BJ")

# The facts that are counts or points (the JSON API takes them as JSON numbers only).
NUMERIC_FACTS = ("captured.*", "last_hand_points")


def example_hands(names: list) -> list:
    """Example hand facts for the rules page (§8), with these four names (P1…P4 otherwise)."""
    names = inputs.names(names)
    p1, p2, p3, p4 = names if len(names) == 4 else ["P1", "P2", "P3", "P4"]
    return [{"players": [p1, p2, p3, p4], "banker": p1, "partner": p3, "shout": None, "order": [p1, p2, p3, p4],
             "captured": {p1: 60, p2: 50, p3: 30, p4: 40}, "last_hand_points": 20},
            {"players": [p1, p2, p3, p4], "banker": p1, "partner": p3, "shout": None, "order": [p1, p3],
             "captured": {p1: 120, p2: 0, p3: 80, p4: 0}}]


def facts_description(rules=None, players: int | None = None) -> dict:
    """Bounds of a hand's facts for the faces (the hand form's chips): ``points`` (all the card
    points of a hand), ``xi_bomb_sizes`` (the hard bombs that earn 喜钱), ``needed`` (the optional
    facts these rules use)."""
    return {"points": TOTAL_POINTS, "xi_bomb_sizes": tuple(XI_SIZES), "needed": tuple(needed_facts(coerce_rules(rules)))}
