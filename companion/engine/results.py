"""What the engine answers: a :class:`Reading` of some cards, a :class:`Verdict` on a play, a
:class:`Settlement` of a hand. Plain frozen values, built complete in one constructor call."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .text import Text


@dataclass(frozen=True, slots=True)
class Reading:
    """One way to read a set of cards as a combination.

    ``rank``: the rank of a same-rank group, or the LOW rank of a sequence; ``length``: number of
    cards; ``cards``: the physical cards; ``values``: the rank each card stands for (jokers
    resolved), in the same order as a sorted reading; ``extra``: game-specific facts as
    ``(key, value)`` pairs (e.g. ``suit`` and ``pure`` of a 510K, ``soft`` of a bomb); ``suits``:
    the suit each of ``values`` stands for when the reading depends on suits (a 510K whose natural
    cards have suits: a joker takes the suit the reading gives it), else empty.
    """

    type: str
    rank: int
    length: int
    cards: tuple
    values: tuple = ()
    extra: tuple = ()
    suits: tuple = ()

    def get(self, key: str, default: Any = None) -> Any:
        return dict(self.extra).get(key, default)


@dataclass(frozen=True, slots=True)
class Verdict:
    """May ``play`` follow the play on the table? ``reason`` is one plain sentence naming the rule;
    ``play`` the reading used; ``readings``: for a legal follow every reading that beats (the one
    used first), otherwise every reading considered."""

    legal: bool
    code: str
    reason: Text
    play: Reading | None = None
    readings: tuple = ()


@dataclass(frozen=True, slots=True)
class Answer:
    """One answer to "what beats this?": the cards to play, the engine's own :class:`Verdict` on
    them (``check``'s, so it is legal by construction) and the kind of answer it is ("follow",
    "510k", "pure_510k", "bomb_5", "two", …; each game names its kinds). ``declare``: the
    ``play_as`` to declare so that the cards are read as this answer's reading, or None when it is
    the reading ``check`` uses without one."""

    cards: tuple
    verdict: Verdict
    kind: str
    declare: str | None = None

    @property
    def play(self) -> "Reading":
        return self.verdict.play

    @property
    def type(self) -> str:
        return self.verdict.play.type

    @property
    def reason(self) -> Text:
        return self.verdict.reason


@dataclass(frozen=True, slots=True)
class Settlement:
    """``deltas``: name -> points × stake (ints when whole); ``points``: name -> integer points
    before the stake; ``steps``: plain sentences. 大冶打拱 fills ``winners``, ``arch`` and
    ``multiplier``. ``tallies``: name -> {figure: count} for the review (hands won, shut out, jokers
    held, places, arches, shouts…), worked out by the same code that settles; only non-zero counts,
    every figure one of the game's ``tally_figures(rules)``."""

    deltas: dict
    steps: list
    points: dict = field(default_factory=dict)
    winners: list | None = None
    arch: str | None = None
    multiplier: int | None = None
    next_dealer: str | None = None
    tallies: dict = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class RuleSentence:
    """What one switch's value at a table means, in one translatable sentence: ``switch`` (its
    key), ``value``, ``anchor`` (the paragraph of the rules page it belongs to), ``spec`` (the
    rules file paragraph, e.g. "§3.3"), ``text``, and ``example``: a worked example the engine
    itself settles or checks at this table (None: the game gives none)."""

    switch: str
    value: Any
    anchor: str
    spec: str
    text: Text
    example: Text | None = None
