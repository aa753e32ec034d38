"""A hand's facts checked the same way at every door (page form, JSON API, import, CLI), before the
engine settles them (issue 31):

- **numbers are numbers**: a count the game describes (``losers.*.cards``, ``last_hand_points``,
  a list of sizes) written as text or true/false is refused (``wrong_type``), never stored as text
  (the engine alone would read ``"20"`` as 20);
- **only the facts these rules use are kept**: a fact the game describes but the table's rules do
  not use (大冶打拱 ``xi_bombs`` with 喜钱 off, 干瞪眼 ``tricks`` or ``losers.*.twos`` when no switch
  reads them) is dropped, so nothing the settlement ignores is stored or exported again. A key the
  game does not describe at all is left in place for the engine, which refuses it by name
  (``unknown_fact``): a typo is never dropped silently.

The game's facts description (``describe_facts``) says which facts are counts and which are needed
under given rules; nothing here names a game. Pure functions: nothing is stored.
"""
from __future__ import annotations

import json
from typing import Any

from ..engine.public import N_
from ..engine.described import PLAYERS, FactsDescription
from .errors_limits import ScoringError


def show_value(value: Any, limit: int = 40) -> str:
    """A short, safe rendering of a bad value for an error message (every door says it the same)."""
    try:
        text = json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError):
        text = repr(value)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def check_numbers(facts: Any, description: FactsDescription) -> None:
    """ScoringError ``wrong_type`` (field: the fact's path) for a count written as text or true/false."""
    def walk(node, parts, path):
        if not parts:
            if isinstance(node, (str, bool)):
                where = ".".join(path)
                raise ScoringError(N_("\"{field}\" must be a number such as 3, not {value}.", field=where,
                                      value=show_value(node)), code="wrong_type", field=where)
            return
        head, rest = parts[0], parts[1:]
        if head == "*":
            items = node.items() if isinstance(node, dict) else enumerate(node) if isinstance(node, list) else ()
            for key, value in items:
                walk(value, rest, path + [str(key)])
        elif isinstance(node, dict) and head in node and node[head] is not None:
            walk(node[head], rest, path + [head])

    aliases = {alias: head for alias, head in description.aliases().items()}
    if isinstance(facts, dict) and any(alias in facts for alias in aliases):  # bombsPlayed counts as bombs_played
        facts = {aliases.get(key, key): value for key, value in facts.items()}
    for pattern in description.numeric_paths():
        walk(facts, pattern.split("."), [])


def _spellings(fact) -> set:
    """The names a fact is read under at its level (its key's last part and its aliases)."""
    return {fact.part or fact.head, *fact.aliases}


def used_by_rules(facts: dict, description: FactsDescription) -> dict:
    """``facts`` without the facts the description says these rules do not use (see the module)."""
    unused = [f for f in description if not f.needed and f.kind != PLAYERS]
    if not unused:
        return facts
    needed = description.needed()
    needed_heads = {f.head for f in needed}
    drop_top = set()
    drop_parts: dict[str, set] = {}
    for fact in unused:
        if fact.head not in needed_heads:  # the whole fact (and its other spellings)
            drop_top |= {fact.head} | (set(fact.aliases) if fact.key == fact.head else set())
        elif fact.part:  # one part of each player's entry (losers.*.twos)
            drop_parts.setdefault(fact.head, set()).update(_spellings(fact))
    kept_parts = {f.head: set().union(*(_spellings(g) for g in needed if g.head == f.head and g.part))
                  for f in needed if f.part}
    out = {}
    for key, value in facts.items():
        if key in drop_top:
            continue
        parts = drop_parts.get(key, set()) - kept_parts.get(key, set())
        if parts and isinstance(value, dict):
            value = {name: ({k: v for k, v in entry.items() if k not in parts} if isinstance(entry, dict) else entry)
                     for name, entry in value.items()}
        out[key] = value
    return out


def checked_facts(module, rules, facts: dict) -> dict:
    """The facts as every door stores them: numbers checked, the facts these rules ignore dropped
    (then the engine's own ``used_facts`` and validation)."""
    description = module.describe_facts(rules)
    check_numbers(facts, description)
    return module.used_facts(used_by_rules(facts, description), rules)
