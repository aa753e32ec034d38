"""A table's rules in sentences, from its switch values: the one way each game turns its table of
``(switch, value) -> (anchor, paragraph, sentence)`` into :class:`RuleSentence` values.

A sentence is written for the whole rule set: a game's ``refined`` table may choose other words
for a value from the other switches (``(switch, value) -> rules -> Text or None``), and its
``example`` function gives each sentence a worked example the engine itself settles or checks."""
from __future__ import annotations

from typing import Any, Callable, Mapping

from .results import RuleSentence
from .text import Text


def _entry(table: Mapping, key: str, value: Any) -> tuple:
    """The (anchor, paragraph, sentence) of one switch value. Numbers and ``word:number`` values
    are written in the sentence as ``{n}`` (table keys ``(key, None)`` and ``(key, "word:")``)."""
    if (key, None) in table:  # a free number
        anchor, spec, text = table[(key, None)]
        return anchor, spec, Text(text.template, {"n": value})
    if isinstance(value, str) and ":" in value:
        word, _, number = value.partition(":")
        anchor, spec, text = table[(key, word + ":")]
        return anchor, spec, Text(text.template, {"n": int(number)})
    return table[(key, value)]


def rule_sentences_from(table: Mapping, switches: Mapping, rules, refined: Mapping | None = None,
                        example: Callable | None = None) -> tuple:
    """One :class:`RuleSentence` per switch of ``switches`` (in their order) for ``rules``: the
    words of ``table``, or of ``refined`` where the other switches change what must be said; with
    ``example(key, rules)``, each sentence's worked example."""
    out = []
    for key in switches:
        value = getattr(rules, key)
        anchor, spec, text = _entry(table, key, value)
        refined = refined or {}
        refine = refined.get((key, None)) or refined.get((key, value))
        better = refine(rules) if refine is not None else None
        if better is not None:
            text = better if not isinstance(text, Text) or not text.params else Text(better.template,
                                                                                    {**text.params, **better.params})
        out.append(RuleSentence(key, value, anchor, spec, text, example(key, rules) if example else None))
    return tuple(out)
