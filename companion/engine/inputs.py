"""The engine's own objects, checked where a public function takes them (issue 32 item 6): junk
(a string for a reading, a list of numbers for cards, a dict of floats as points) is refused
with an :class:`EngineError` naming its field, never an AttributeError or TypeError from deep
inside. One ``type`` test per argument: cheap enough for the hot paths that call these too."""
from __future__ import annotations

from collections.abc import Mapping

from .errors import EngineError
from .results import Reading
from .text import N_

_E_READING = N_("'{field}' must be a reading of some cards, as check or classify gives it.")
_E_CARDS = N_("'{field}' must be a list of cards, as parse_cards gives it.")
_E_DECKS = N_("'{field}' must be a whole number of decks, at least 1.")
_E_POINTS = N_("'{field}' must map each player's name to whole points.")
_E_NAMES = N_("'{field}' must be a list of player names.")


def _refuse(template, code: str, field: str):
    raise EngineError(template.__class__(template.template, {"field": field}), code=code, field=field)


def reading(value, field: str = "reading") -> Reading:
    if type(value) is not Reading:
        _refuse(_E_READING, "bad_reading", field)
    return value


def readings(value, field: str = "readings") -> tuple:
    if not isinstance(value, (tuple, list)) or any(type(r) is not Reading for r in value):
        _refuse(_E_READING, "bad_reading", field)
    return tuple(value)


def cards(value, card_class, field: str = "cards") -> tuple:
    """``value`` as a list of cards (``card_class``: :class:`.cards.Card`, given by its module)."""
    if not isinstance(value, (tuple, list)) or not all(isinstance(c, card_class) for c in value):
        _refuse(_E_CARDS, "bad_cards", field)
    return value


def decks(value, field: str = "decks") -> int:
    if type(value) is not int or value < 1:
        _refuse(_E_DECKS, "bad_decks", field)
    return value


def points(value, field: str = "points") -> Mapping:
    if not isinstance(value, Mapping) or not all(type(p) is int for p in value.values()):
        _refuse(_E_POINTS, "bad_points", field)
    return value


def names(value, field: str = "names") -> list:
    if not isinstance(value, (list, tuple)) or not all(isinstance(n, str) for n in value):
        _refuse(_E_NAMES, "bad_names", field)
    return list(value)
