"""A game's words: what its switches, values, presets, plays, tallies and facts are called.

Each game package keeps its own :class:`GameWords` (``<game>/words.py``, exported as ``WORDS``);
the words are engine :class:`~.text.Text` marked with ``N_`` (extracted into the catalogs like
every engine sentence) and translated by the web layer when shown. Nothing outside a game's
package names one of its switches, presets, combinations or tallies: the faces read them here,
and a key a game has no words for is shown in a readable form of itself, never as a bare code.
Pure Python: no Flask.
"""
from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from .text import Text


@dataclass(frozen=True)
class GameWords:
    """The words of one game (every mapping may be empty)."""

    switches: Mapping[str, tuple] = field(default_factory=dict)  # switch key -> (label, one-line help)
    values: Mapping[tuple, Text] = field(default_factory=dict)   # (switch key, value) -> the value's words
    presets: Mapping[str, Text] = field(default_factory=dict)    # preset key -> its name
    plays: Mapping[str, Text] = field(default_factory=dict)      # a reading's type -> its name ("pair")
    play_anchors: Mapping[str, str] = field(default_factory=dict)  # a reading's type -> rules-page anchor
    tallies: Mapping[str, Text] = field(default_factory=dict)    # a tally figure -> its row title
    facts: Mapping[str, Text] = field(default_factory=dict)      # a fact an engine sentence may quote -> its label
    prose: Mapping[str, tuple] = field(default_factory=dict)  # rules-page anchor -> its paragraphs (a game
                                                              # without its own rules_prose.html)
    first_dealer: Text | None = None   # the new-table form's label of who leads the first hand
    tally_groups: Mapping[str, tuple] = field(default_factory=dict)  # figure -> (group, key) in the API's figures
    tagged_outcomes: tuple = ()        # outcome kinds (a Settlement's arch) the hand list marks with a tag
    numbers: Callable[[], Mapping] = dict  # the rule numbers the words say ({total}), read from the constants when shown

    def value(self, key: str, value: Any) -> Text | None:
        return self.values.get((key, value))

    def filled(self, text: Text | None) -> Text | None:
        """``text`` with the rule numbers it says filled in from the game's constants (read now)."""
        if text is None:
            return None
        return Text(text.template, {**self.numbers(), **text.params}, text.plural, text.count)
