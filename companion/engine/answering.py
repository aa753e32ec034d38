"""What both games' ``answers`` share: from the candidate plays a game proposes, keep the weakest
legal one of each kind, judged by the game's own ``check`` (this module decides no rule)."""
from __future__ import annotations

from typing import Callable, Iterable

from .cards import CardError
from .results import Answer, Reading, Verdict
from .text import N_


def weakest_of_each_kind(candidates: Iterable[tuple], judge: Callable[[tuple], Verdict],
                         kind_of: Callable[[Reading], str], strength: Callable[[Reading], tuple],
                         first_kinds: tuple[str, ...],
                         redeclare: Callable[[tuple, Reading], tuple] | None = None) -> list:
    """``[(order, Answer)]``: for each kind, the legal candidate of the least ``strength`` (then the
    fewest jokers, then the fewest cards); the ``first_kinds`` (the ordinary follows) first.

    With ``redeclare``, every reading of a legal candidate that beats (its verdict's ``readings``)
    counts, not only the one ``judge`` uses: ``redeclare(cards, reading)`` gives ``(declaration,
    verdict)``, the game's own verdict when the cards are declared as that reading (or None when
    no declaration pins it)."""
    best: dict = {}
    for cards in candidates:
        verdict = judge(cards)
        if not verdict.legal:
            continue
        jokers = sum(c.is_joker for c in cards)
        for reading in (verdict.readings or (verdict.play,)) if redeclare else (verdict.play,):
            kind = kind_of(reading)
            order = (strength(reading), jokers, len(cards))
            if kind in best and order >= best[kind][0]:
                continue
            if reading == verdict.play:
                best[kind] = (order, Answer(cards, verdict, kind))
                continue
            declared = redeclare(cards, reading)
            if declared is not None and declared[1].legal and declared[1].play == reading:
                best[kind] = (order, Answer(cards, declared[1], kind, declared[0]))
    return sorted(best.values(), key=lambda entry: (entry[1].kind not in first_kinds, entry[0]))


def fewer_bombs(ranked: list) -> list:
    """Without a hand, bombs of the two smallest sizes that beat (the decks hold every size)."""
    sizes = sorted(entry[1].play.length for entry in ranked if entry[1].kind.startswith("bomb_"))
    return [entry for entry in ranked if not entry[1].kind.startswith("bomb_")
            or entry[1].play.length <= sizes[0] + 1]


def answers_of(ranked: list, whole_decks: bool) -> tuple:
    """The answers, weakest first; drawn from the whole decks, only the smallest bombs."""
    return tuple(answer for _order, answer in (fewer_bombs(ranked) if whole_decks else ranked))


def reading_answered(readings: tuple, declared: str | None) -> Reading:
    """The reading of the table's play to answer (the declared one when given): an error naming
    ``previous_as`` or ``previous`` when there is none."""
    if declared is not None and not readings:
        raise CardError(N_("The cards on the table cannot be read as '{declared}'.", declared=declared),
                        code="reading_not_possible", field="previous_as")
    if not readings:
        raise CardError(N_("The cards on the table are not a legal combination, so nothing can follow them."),
                        code="previous_not_a_combination", field="previous")
    return readings[0]
