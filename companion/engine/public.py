"""The engine's shared names in one place, for code written before the split into
text / errors / switches / results / money. New code imports from those modules."""
from __future__ import annotations

from .errors import EngineError, FactsError, RulesError
from .money import STAKE_MAX, apply_stake, parse_stake
from .results import Reading, Settlement, Verdict
from .switches import Switch, build_rules, rules_to_dict, snake
from .text import N_, Text

__all__ = ["EngineError", "FactsError", "RulesError", "STAKE_MAX", "apply_stake", "parse_stake", "Reading",
           "Settlement", "Verdict", "Switch", "build_rules", "rules_to_dict", "snake", "N_", "Text"]

