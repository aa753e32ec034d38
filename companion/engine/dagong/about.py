"""How 大冶打拱 names itself to the faces: labels, the banker's word, the names of its outcomes
(the arches), and how many decks a table uses. Everything a page, form or export needs to know
about the game comes from the engine (:class:`companion.engine.GameEngine`)."""
from __future__ import annotations

from ..text import N_
from .outcome import ARCH_NAMES
from .rules import DECKS

LABEL = N_("大冶打拱 Da Gong")  # the Chinese name with a translatable reading of it
DEALER_WORD = N_("Banker")      # who leads a hand (and names the bright card) at this game
OUTCOME_NAMES = ARCH_NAMES      # arch -> its name: the one list, also used by the outcome's steps


def decks(rules=None, players: int | None = None) -> int:
    """How many 54-card decks a table uses: always two (§2), whatever the rules and the players."""
    return DECKS

