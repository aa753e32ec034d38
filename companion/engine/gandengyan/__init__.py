"""干瞪眼 (Gan Deng Yan): house rules, combinations, the "exactly one higher" checker, settlement.

The specification is ``shared/rules/gandengyan.md`` (§3 rules, §4 switches, §5 presets, §7/§8
examples, §9 validation); ``docs/engine-gandengyan.md`` shows where each rule lives. Pure Python:
nothing here imports Flask or the database.

- :mod:`.about`: LABEL, DEALER_WORD, OUTCOME_NAMES, declaration (how the game names itself)
- :mod:`.rules`: SWITCHES, Rules, PRESETS (with their player ranges), rules_from_dict, decks
- :mod:`.combos`: the one reader of cards into readings (classify) and ``beats``
- :mod:`.check`: check and its reasons
- :mod:`.answers`: what beats this? (proposals judged by :func:`.check.check`)
- :mod:`.facts`: the one validator of hand facts, needed_facts, next_dealer
- :mod:`.sentences`: rule_sentences (the table's rules in sentences, from its switch values)
- :mod:`.words`: WORDS (what its switches, values, presets, plays, tallies and facts are called)
- :mod:`.settle`: settle, every multiplier a ``(factor, sentence)`` step
"""
from __future__ import annotations

from .about import DEALER_FACT, DEALER_WORD, FIRST_DEALER_HELP, NEXT_DEALER_WORD, LABEL, OUTCOME_NAMES, declaration, EXAMPLE_PLAYS, NUMERIC_FACTS, VERDICT_ANCHORS, example_hands
from .answers import answers, kind_of
from .check import check
from .combos import (ACE, BOMB, CONNECTED_PAIRS, JOKER, JOKER_BOMB, PAIR, SINGLE, STRAIGHT, TRIPLE, TWO,
                     TYPES, beats, classify, describe)
from .facts import describe_facts, MAX_NUMBER, facts_description, most_cards_left, needed_facts, next_dealer, validate_facts
from .rules import DEALER_EXTRA, HAND_DEALT, PLAYER_RANGE, PRESETS, SWITCHES, Rules, decks, rules_from_dict
from .sentences import rule_sentences
from .settle import TALLIES, settle, tally_figures
from .words import WORDS

NAME = "gandengyan"
TITLE = "干瞪眼"


def used_facts(facts, rules=None):
    """The facts as given: every fact of a 干瞪眼 hand counts in its settlement (the engine contract's
    :meth:`GameEngine.used_facts`)."""
    return facts


settle_as_recorded = settle  # a stored 干瞪眼 hand reads as today's rules read it (none was refused later)

__all__ = ["NAME", "TITLE", "WORDS", "HAND_DEALT", "DEALER_EXTRA", "describe_facts", "DEALER_FACT", "NEXT_DEALER_WORD", "FIRST_DEALER_HELP", "facts_description", "EXAMPLE_PLAYS", "NUMERIC_FACTS", "VERDICT_ANCHORS", "example_hands", "LABEL",
           "DEALER_WORD", "OUTCOME_NAMES", "declaration", "PLAYER_RANGE", "Rules", "SWITCHES", "PRESETS", "rules_from_dict",
           "decks", "classify", "check", "answers", "kind_of", "beats", "describe", "needed_facts", "used_facts",
           "validate_facts", "settle", "settle_as_recorded", "tally_figures", "TALLIES", "rule_sentences", "next_dealer",
           "TYPES", "SINGLE", "PAIR", "TRIPLE", "STRAIGHT", "CONNECTED_PAIRS", "BOMB", "JOKER_BOMB", "ACE",
           "TWO", "JOKER", "MAX_NUMBER", "most_cards_left"]
