"""How 干瞪眼 names itself to the faces (labels, the dealer's word) and the words that pin a reading
of some cards (:func:`declaration`). Everything a page, form or export needs to know about the game
comes from the engine (:class:`companion.engine.GameEngine`), never from a branch on its name."""
from __future__ import annotations

from .. import inputs
from ..cards import RANK_NAMES
from ..text import N_

LABEL = N_("干瞪眼 Gan Deng Yan")  # the Chinese name with a translatable reading of it
DEALER_WORD = N_("Dealer")        # who deals (and leads) a hand at this game
DEALER_FACT = "dealer"          # the fact of a hand that names its dealer
NEXT_DEALER_WORD = N_("Next dealer")  # the table page's label for who deals the next hand
FIRST_DEALER_HELP = N_("Deals the first hand; afterwards the app suggests the next dealer.")
OUTCOME_NAMES: dict = {}          # 干瞪眼 has no named outcomes: one winner collects from the losers


def declaration(reading, readings=()) -> str | None:
    """The words that pin ``reading`` of some cards (the ranks the jokers stand for, in order), or
    None for a reading without ranks. ``readings`` (all readings of the cards) is part of the
    contract; 干瞪眼 spells every reading the same way whatever the others are."""
    inputs.reading(reading)
    inputs.readings(readings)
    return " ".join(RANK_NAMES[v] for v in reading.values) or None


# Where the rules page explains each verdict: check's code -> the paragraph's anchor (the same
# anchors as the rule sentences').
VERDICT_ANCHORS = {
    "pass": "turns", "lead_pass": "turns", "lead_ok": "plays", "bad_players": "deal", "too_many_copies": "deal",
    "bad_rules": "house-rules",
    "bad_previous": "plays", "bad_reading": "jokers", "joker_alone": "jokers", "joker_as_two": "jokers",
    "joker_only": "jokers", "not_higher": "follow", "not_one_higher": "follow", "length_mismatch": "follow",
    "type_mismatch": "follow", "only_bomb_beats_bomb": "bombs", "only_bomb_beats_joker": "bombs",
    "only_bomb_beats_two": "twos", "bomb_too_small": "bombs", "two_as_last_card": "twos",
    "two_in_sequence": "sequences", "not_a_combination": "plays", "reading_not_possible": "jokers",
    "previous_not_a_combination": "plays",
}

# Plays the rules page shows with their readings, and example hands it settles live.
EXAMPLE_PLAYS = ("7", "8", "5 5", "6 JK", "8 8 8", "4 5 6", "3 3 4 4", "6 6 6 6", "2", "SJ BJ")

# The facts that are counts (the JSON API takes them as JSON numbers only); ``*`` = any key or item.
NUMERIC_FACTS = ("losers.*.cards", "losers.*.jokers", "losers.*.twos", "losers.*.held_bombs.*", "bombs_played.*",
                 "tricks")


def example_hands(names: list) -> list:
    """Example hand facts for the rules page (§8), with these player names (A, B, C, D without)."""
    players = inputs.names(names) or ["A", "B", "C", "D"]
    cards, jokers = [3, 5, 1, 2, 4], [0, 1, 0, 0, 1]
    losers = {name: {"cards": cards[i % 5], "jokers": jokers[i % 5]} for i, name in enumerate(players[1:])}
    return [{"players": players, "winner": players[0], "dealer": players[0], "losers": losers}]
