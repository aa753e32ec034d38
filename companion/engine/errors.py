"""The errors the engine raises on bad input. Each carries a translatable message, a stable
machine ``code`` and the ``field`` that is wrong. (``CardError`` lives in :mod:`.cards`.)"""
from __future__ import annotations

from .text import Text


class EngineError(ValueError):
    """Base of every error the engine raises on bad input.

    ``message`` is a :class:`Text`; ``code`` a stable machine code; ``field`` names the input
    that is wrong (``"play"``, ``"losers.B.jokers"``, ``"rules.triple_follow"`` …) or is None.
    """

    default_code = "invalid"

    def __init__(self, message: Text | str, *, code: str | None = None, field: str | None = None):
        if not isinstance(message, Text):
            message = Text(message)
        super().__init__(str(message))
        self.message = message
        self.code = code or self.default_code
        self.field = field

    def to_dict(self) -> dict:
        return {"code": self.code, "message": str(self.message), "field": self.field}


class RulesError(EngineError):
    default_code = "bad_rules"


class FactsError(EngineError):
    default_code = "bad_facts"
