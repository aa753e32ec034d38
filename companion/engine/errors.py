"""The errors the engine raises on bad input. Each carries a translatable message, a stable
machine ``code`` and the ``field`` that is wrong. (``CardError`` lives in :mod:`.cards`.)"""
from __future__ import annotations

from .text import Text


class EngineError(ValueError):
    """Base of every error the engine raises on bad input.

    ``message`` is a :class:`Text`; ``code`` a stable machine code; ``field`` names the input
    that is wrong (``"play"``, ``"losers.B.jokers"``, ``"rules.triple_follow"`` …) or is None.
    ``errors``: every problem found, as ``(field, code, message)`` triples, this one first (a
    validator that checks every fact lists them all: :func:`raise_all`).
    """

    default_code = "invalid"

    def __init__(self, message: Text | str, *, code: str | None = None, field: str | None = None):
        if not isinstance(message, Text):
            message = Text(message)
        super().__init__(str(message))
        self.message = message
        self.code = code or self.default_code
        self.field = field
        self.errors: tuple = ((field, self.code, message),)

    def to_dict(self) -> dict:
        return {"code": self.code, "message": str(self.message), "field": self.field}


class RulesError(EngineError):
    default_code = "bad_rules"


class FactsError(EngineError):
    default_code = "bad_facts"


def raise_all(problems: list) -> None:
    """Raise the first of ``problems`` (EngineErrors, in the order found) carrying every one in
    ``errors``; nothing when the list is empty. The first keeps its ``field``, ``code`` and
    ``message``, so a caller that reads one error sees what it always saw."""
    if problems:
        first = problems[0]
        first.errors = tuple(entry for problem in problems for entry in problem.errors)
        raise first
