"""大冶打拱 (Daye Da Gong): house rules, play legality and hand settlement.

The specification is ``rules/dagong.md`` (§5 plays, §6 points, §7 early ends, §8 settlement,
§9 switches, §10 the settlement algorithm). Pure Python: nothing here imports Flask or the
database. Where each rule lives: ``docs/engine-dagong.md``.

- :mod:`.about`    LABEL, DEALER_WORD, OUTCOME_NAMES, decks (how the game names itself)
- :mod:`.rules`    the switches (§9), Rules, PRESETS, rules_from_dict
- :mod:`.combos`   the one reader of cards into readings, ``beats`` (§5), the one cache
- :mod:`.reasons`  the sentences of verdicts (describe, why legal, why not)
- :mod:`.check`    classify, check, declaration (the words that pin a reading)
- :mod:`.answers`  what beats this? (proposals judged by :func:`.check.judge`)
- :mod:`.facts`    the one validator of hand facts, teams, needed_facts, next_dealer
- :mod:`.outcome`  who won, the arch, the multiplier, the early end, the shout result (decided once)
- :mod:`.sentences` rule_sentences (the table's rules in sentences, from its switch values)
- :mod:`.words`: WORDS (what its switches, values, presets, plays, tallies and facts are called)
- :mod:`.settle`   paying the outcome (base stake, 喜钱, the stake)
"""
from __future__ import annotations

from ..cards import CardError
from ..errors import FactsError, RulesError
from ..results import Answer, Reading, Settlement, Verdict
from .about import DEALER_FACT, DEALER_WORD, FIRST_DEALER_HELP, NEXT_DEALER_WORD, facts_description, LABEL, OUTCOME_NAMES, decks, EXAMPLE_PLAYS, NUMERIC_FACTS, VERDICT_ANCHORS, example_hands
from .answers import answers, kind_of
from .check import check, classify, declaration
from .combos import BOMB_CLASS, TYPES, beats, power
from .facts import describe_facts, needed_facts, next_dealer, teams, used_facts, validate_facts
from .outcome import ARCH_FACTORS, ARCH_NAMES, Outcome
from .reasons import TYPE_NAMES, describe
from .rules import (ALIASES, CARD_POINTS, DECKS, HAND_SIZE, DEFAULT_RULES, MAX_BOMB, PLAYER_RANGE, PLAYERS, PRESET_PLAYERS, PRESETS, SWITCHES,
                    TOTAL_POINTS, Rules, rules_from_dict)
from .sentences import rule_sentences
from .settle import TALLIES, settle, settle_as_recorded, tally_figures
from .words import WORDS

NAME = "dagong"
TITLE = "大冶打拱"

__all__ = ["NAME", "TITLE", "WORDS", "describe_facts", "DEALER_FACT", "NEXT_DEALER_WORD", "FIRST_DEALER_HELP", "facts_description", "EXAMPLE_PLAYS", "NUMERIC_FACTS", "VERDICT_ANCHORS", "example_hands", "LABEL", "DEALER_WORD", "OUTCOME_NAMES", "decks", "rule_sentences", "PLAYER_RANGE", "PLAYERS", "DECKS", "HAND_SIZE", "TOTAL_POINTS", "CARD_POINTS", "ARCH_FACTORS", "MAX_BOMB", "SWITCHES", "ALIASES", "PRESETS",
           "PRESET_PLAYERS", "DEFAULT_RULES", "Rules", "rules_from_dict", "TYPES", "TYPE_NAMES", "BOMB_CLASS",
           "ARCH_NAMES", "classify", "check", "answers", "kind_of", "Answer", "declaration", "describe", "beats", "power", "validate_facts", "teams",
           "needed_facts", "next_dealer", "used_facts", "settle", "settle_as_recorded", "tally_figures", "TALLIES", "Outcome", "Reading",
           "Verdict", "Settlement",
           "CardError", "FactsError", "RulesError"]
