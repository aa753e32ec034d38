"""Rules questions without a table (the check page, the API, the CLI): is a play legal, what beats
it, who pays whom. The engine decides everything; these are its doors."""
from __future__ import annotations

from decimal import Decimal
from typing import Any, NamedTuple


def check_play(module, previous, play, rules, **opts):
    """The engine's Verdict for ``play`` on ``previous`` under ``rules``."""
    return module.check(previous, play, rules, **opts)


class AnswerSet(NamedTuple):
    """The answers to one reading of the play on the table."""

    reading: Any          # the engine's Reading answered (None when unknown)
    pin: str | None       # the previous_as that pins this reading (None: it cannot be pinned)
    answers: tuple        # the engine's Answers, weakest first


def readings_of(module, cards, rules, players=None) -> tuple:
    """Every reading of ``cards`` (the game's classify), strongest first."""
    return module.classify(cards, rules, players=players)


def pins(module, cards, rules, players=None) -> list[tuple[Any, str | None]]:
    """(reading, the declaration that pins it) for every reading of ``cards``."""
    readings = readings_of(module, cards, rules, players)
    return [(reading, module.declaration(reading, readings)) for reading in readings]


def answer_play(module, previous, rules, *, hand=None, players=None, previous_as=None) -> list[AnswerSet]:
    """What beats ``previous``? First the answers to the reading the checker uses (or the declared
    one); then, when the cards read several ways and none was declared, the answers to each other
    reading. The engine's ``answers`` decides everything."""
    main = module.answers(previous, rules, hand=hand, players=players, previous_as=previous_as)
    readings = pins(module, previous, rules, players)
    declared = previous_as is not None and str(previous_as).strip()
    if declared:
        chosen = next(((r, p) for r, p in readings if p == str(previous_as).strip()), (None, previous_as))
        return [AnswerSet(chosen[0], chosen[1], main)]
    if len(readings) < 2:
        return [AnswerSet(readings[0][0] if readings else None, None, main)]
    out = [AnswerSet(readings[0][0], readings[0][1], main)]
    for reading, pin in readings[1:]:
        if pin is not None:
            out.append(AnswerSet(reading, pin, module.answers(previous, rules, hand=hand, players=players,
                                                              previous_as=pin)))
    return out


def settle_facts(module, facts: dict, rules, stake: Decimal | None = None):
    """The engine's Settlement of one hand; a stake of 0 (points only) settles at 1."""
    return module.settle(facts, rules, stake=stake if stake else 1)
