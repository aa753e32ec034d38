"""A table's rules in sentences, from its switch values: the one way each game turns its table of
``(switch, value) -> (anchor, paragraph, sentence)`` into :class:`RuleSentence` values."""
from __future__ import annotations

from typing import Any, Mapping

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


def rule_sentences_from(table: Mapping, switches: Mapping, rules) -> tuple:
    """One :class:`RuleSentence` per switch of ``switches`` (in their order) for ``rules``."""
    out = []
    for key in switches:
        value = getattr(rules, key)
        anchor, spec, text = _entry(table, key, value)
        out.append(RuleSentence(key, value, anchor, spec, text))
    return tuple(out)
