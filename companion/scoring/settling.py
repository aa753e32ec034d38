"""A hand's facts prepared for a table (players filled in, JSON round trip, only the facts the
outcome uses) and settled by the table's engine. Nothing here stores anything."""
from __future__ import annotations

import json
from decimal import Decimal
from typing import Any

from ..engine.common import N_, EngineError
from ..models import Table
from .common import ScoringError, engine_for, table_rules
from .factcheck import checked_facts


def _prepare_facts(table: Table, facts: Any, names: list[str] | None = None) -> dict:
    """``names``: the hand's players (a stored hand keeps the players it was played by); by default
    the players seated now."""
    if not isinstance(facts, dict):
        raise ScoringError(N_("The hand's record must be a set of facts (a JSON object)."),
                           code="bad_facts", field="facts")
    facts = dict(facts)
    names = table.player_names if names is None else list(names)
    given = facts.get("players")
    if given is None:
        facts["players"] = names
    elif not isinstance(given, (list, tuple)) or list(given) != names:
        raise ScoringError(N_("The players must be this table's players in seat order: {names}.",
                              names=", ".join(names)), code="bad_players", field="players")
    else:
        facts["players"] = list(given)
    try:
        facts = json.loads(json.dumps(facts))
    except (TypeError, ValueError):
        raise ScoringError(N_("The hand's record contains values that are not numbers, text or lists."),
                           code="bad_facts", field="facts") from None
    return checked_facts(engine_for(table.game), table_rules(table), facts)  # no fact the rules ignore (issue 31)


def normalize_facts(table: Table, facts: Any) -> dict:
    """The facts as they would be stored (players filled in, JSON round trip); raises ScoringError."""
    return _prepare_facts(table, facts)


def facts_digest(table: Table, facts: Any) -> str:
    """A short fingerprint of the facts as they would be stored (to spot the same hand sent twice)."""
    import hashlib

    normal = _prepare_facts(table, facts)
    return hashlib.sha256(json.dumps(normal, sort_keys=True, ensure_ascii=False).encode()).hexdigest()[:32]


def settlement_for(table: Table, facts: Any, stake: Decimal | None = None):
    """The engine's Settlement for these facts at this table (money at ``stake``, by default the
    table's current stake: a stored hand passes its own); stores nothing."""
    facts = _prepare_facts(table, facts)
    module = engine_for(table.game)
    rules = table_rules(table)
    stake = table.stake if stake is None else stake
    return module.settle(facts, rules, stake=stake if stake else 1)


def safe_settlement(table: Table, facts: Any, stake: Decimal | None = None):
    """:func:`settlement_for`, or None when the stored facts no longer settle."""
    try:
        return settlement_for(table, facts, stake)
    except EngineError:
        return None


def _settle_points(table: Table, facts: dict):
    """Settle in points (stake 1): the engine's settle validates the facts, once."""
    module = engine_for(table.game)
    rules = table_rules(table)
    settlement = module.settle(facts, rules, stake=1)
    points = {name: int(settlement.points.get(name, 0)) for name in facts["players"]}
    if sum(points.values()) != 0:  # the engine is zero-sum; refuse to store anything else
        raise ScoringError(N_("The settlement does not add up to zero; nothing was saved."),
                           code="not_zero_sum")
    outcome = {"winners": list(settlement.winners) if settlement.winners else
               ([facts["winner"]] if isinstance(facts.get("winner"), str) else []),
               "arch": settlement.arch, "multiplier": settlement.multiplier}
    return settlement, points, outcome
