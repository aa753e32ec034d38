"""What the engine answers: a :class:`Reading` of some cards, a :class:`Verdict` on a play, a
:class:`Settlement` of a hand.

TRANSITIONAL: the lazy Verdict reason, LazySettlement and the new_* constructors serve the old
single-file game modules and go when the game packages replace them.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .text import Text


@dataclass(frozen=True)
class Reading:
    """One way to read a set of cards as a combination.

    ``rank``: the rank of a same-rank group, or the LOW rank of a sequence; ``length``: number of
    cards; ``cards``: the physical cards; ``values``: the rank each card stands for (jokers
    resolved), in the same order as a sorted reading; ``extra``: game-specific facts
    (e.g. ``suit`` and ``pure`` of a 510K, ``soft`` of a bomb).
    """

    type: str
    rank: int
    length: int
    cards: tuple
    values: tuple = ()
    extra: tuple = ()  # tuple of (key, value) pairs, hashable

    def get(self, key: str, default: Any = None) -> Any:
        return dict(self.extra).get(key, default)


@dataclass(frozen=True)
class Verdict:
    legal: bool
    code: str
    reason: Text
    play: Reading | None = None
    readings: tuple = ()

    # An engine may leave ``reason`` out of a new Verdict's ``__dict__`` and put ``_reason`` there
    # instead: ``(function, *arguments)``, called on first read to write the sentence (most
    # verdicts are never read as text). The field behaves as an ordinary one everywhere.
    def __getattr__(self, name: str):
        if name == "reason":
            d = self.__dict__
            lazy = d.get("_reason")
            if lazy is not None:
                value = d.get("reason")
                if value is None:
                    value = d["reason"] = lazy[0](*lazy[1:])
                return value
        raise AttributeError(f"'{type(self).__name__}' object has no attribute '{name}'")

    def __reduce__(self):  # pickles and copies carry the sentence itself
        return (type(self), (self.legal, self.code, self.reason, self.play, self.readings))


_new = object.__new__


def new_reading(type_: str, rank: int, length: int, cards: tuple, values: tuple = (),
                extra: tuple = ()) -> Reading:
    """``Reading(...)`` without the frozen-dataclass ``__init__``: the engines' hot path (same value)."""
    obj = _new(Reading)
    d = obj.__dict__
    d["type"] = type_
    d["rank"] = rank
    d["length"] = length
    d["cards"] = cards
    d["values"] = values
    d["extra"] = extra
    return obj


def new_verdict(legal: bool, code: str, reason, play: Reading | None = None, readings: tuple = ()) -> Verdict:
    """``Verdict(...)`` without the frozen-dataclass ``__init__``: the engines' hot path (same value)."""
    obj = _new(Verdict)
    d = obj.__dict__
    d["legal"] = legal
    d["code"] = code
    d["reason"] = reason
    d["play"] = play
    d["readings"] = readings
    return obj


@dataclass
class Settlement:
    """``deltas``: name -> points × stake (ints when the stake is whole); ``points``: name -> integer
    points before the stake; ``steps``: plain sentences. 大冶打拱 fills ``winners``, ``arch`` and
    ``multiplier``."""

    deltas: dict
    steps: list
    points: dict = field(default_factory=dict)
    winners: list | None = None
    arch: str | None = None
    multiplier: int | None = None
    next_dealer: str | None = None


def lazy_verdict(legal: bool, code: str, lazy: tuple, play: Reading | None = None, readings: tuple = ()) -> Verdict:
    """A Verdict whose reason is ``lazy[0](*lazy[1:])``, written when first read (see :class:`Verdict`)."""
    obj = _new(Verdict)
    d = obj.__dict__
    d["legal"] = legal
    d["code"] = code
    d["_reason"] = lazy
    d["play"] = play
    d["readings"] = readings
    return obj


class LazySettlement(Settlement):
    """A :class:`Settlement` whose ``steps`` are written on first read (most are never read).

    An engine puts ``_spec = (function, *arguments)`` in the instance instead of ``steps``; the
    first read of ``steps`` calls it and keeps the list, which from then on is an ordinary
    attribute. Equality with any Settlement compares the fields; ``repr``, copies and pickles are
    those of a plain Settlement."""

    def __getattr__(self, name):
        if name == "steps":
            d = self.__dict__
            spec = d.pop("_spec", None)
            if spec is not None:
                steps = d["steps"] = spec[0](*spec[1:])
                return steps
        raise AttributeError(f"'Settlement' object has no attribute '{name}'")

    def _fields(self) -> tuple:
        return (self.deltas, self.steps, self.points, self.winners, self.arch, self.multiplier,
                self.next_dealer)

    def __eq__(self, other):
        if isinstance(other, Settlement):
            return self._fields() == (other.deltas, other.steps, other.points, other.winners, other.arch,
                                      other.multiplier, other.next_dealer)
        return NotImplemented

    __hash__ = None

    def __repr__(self) -> str:
        return repr(Settlement(*self._fields()))

    def __reduce__(self):
        return (Settlement, self._fields())
