"""How 干瞪眼 names itself to the faces (labels, the dealer's word) and the words that pin a reading
of some cards (:func:`declaration`). Everything a page, form or export needs to know about the game
comes from the engine (:class:`companion.engine.GameEngine`), never from a branch on its name."""
from __future__ import annotations

from ..cards import RANK_NAMES
from ..text import N_

LABEL = N_("干瞪眼 Gan Deng Yan")  # the Chinese name with a translatable reading of it
DEALER_WORD = N_("Dealer")        # who deals (and leads) a hand at this game
OUTCOME_NAMES: dict = {}          # 干瞪眼 has no named outcomes: one winner collects from the losers


def declaration(reading, readings=()) -> str | None:
    """The words that pin ``reading`` of some cards (the ranks the jokers stand for, in order), or
    None for a reading without ranks. ``readings`` (all readings of the cards) is part of the
    contract; 干瞪眼 spells every reading the same way whatever the others are."""
    return " ".join(RANK_NAMES[v] for v in reading.values) or None
