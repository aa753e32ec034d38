"""A hand's facts prepared for a table (players filled in, JSON round trip, only the facts the
outcome uses) and settled by the table's engine. Nothing here stores anything."""
from __future__ import annotations

import json
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from ..engine.public import N_, EngineError, Settlement, apply_stake
from ..db.models import Table
from .errors_limits import ScoringError, engine_for, table_rules
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


def settlement_for(table: Table, facts: Any, stake: Decimal | None = None, names: list[str] | None = None):
    """The engine's Settlement for these facts at this table (money at ``stake``, by default the
    table's current stake: a stored hand passes its own; ``names``: the hand's players, by default
    those seated now); stores nothing."""
    facts = _prepare_facts(table, facts, names)
    module = engine_for(table.game)
    rules = table_rules(table)
    stake = table.stake if stake is None else stake
    return module.settle(facts, rules, stake=stake if stake else 1)


def safe_settlement(table: Table, facts: Any, stake: Decimal | None = None):
    """:func:`settlement_for`, or None when the facts do not settle (a form's preview). A STORED
    hand is read with :func:`hand_settlement`."""
    try:
        return settlement_for(table, facts, stake, _facts_players(facts))
    except EngineError:
        return None


def _facts_players(facts: Any) -> list[str] | None:
    """The players a hand's facts name (a stored hand keeps the players it was played by)."""
    names = facts.get("players") if isinstance(facts, dict) else None
    return list(names) if isinstance(names, list) and all(isinstance(n, str) for n in names) else None


@dataclass(frozen=True)
class HandSettlement:
    """How a stored hand was settled, as every view shows it: ``settlement``, the engine's own
    :class:`~companion.engine.results.Settlement` (its steps, points, winners, arch, multiplier,
    next dealer and tallies, under the engine's names, never copied), and ``earlier``: for a hand the
    current engine refuses (it was recorded under earlier rules, which accepted it), the engine's
    refusal (an EngineError: its message is the reason); then the settlement is the engine's reading
    of the hand as it was recorded (``settle_as_recorded``, when it gives the stored points), else
    one with no steps, the stored points and the stored outcome."""

    settlement: Settlement
    earlier: EngineError | None = None


def as_recorded(table: Table, facts: Any, stake: Any = 1):
    """The engine's reading of a stored hand it now refuses, as the earlier engine that accepted it
    settled it (the game's ``settle_as_recorded``), or None when that refuses it too."""
    if not isinstance(facts, dict):
        return None
    try:
        return engine_for(table.game).settle_as_recorded(json.loads(json.dumps(facts)), table_rules(table),
                                                         stake=stake if stake else 1)
    except (EngineError, TypeError, ValueError):
        return None


def hand_settlement(table: Table, hand, points: dict | None = None) -> HandSettlement:
    """A stored hand settled with ITS OWN players (its facts'), at its own stake, under the table's
    pinned rules; never None: a hand the current engine refuses is marked (``earlier``) and shown
    with its stored points (``points``: name -> stored points, by default read from its deltas)."""
    try:
        return HandSettlement(settlement_for(table, hand.facts, hand.stake, _facts_players(hand.facts)))
    except EngineError as refusal:
        earlier = refusal
    if points is None:
        names = {p.id: p.name for p in table.players}
        points = {names[d.player_id]: int(d.points) for d in hand.deltas}
    reading = as_recorded(table, hand.facts, hand.stake)
    if reading is not None and {n: int(reading.points.get(n, 0)) for n in points} == points:
        return HandSettlement(reading, earlier)
    outcome = hand.outcome or {}
    stored = Settlement(deltas=apply_stake({n: int(p) for n, p in points.items()}, hand.stake if hand.stake else 1),
                        steps=[], points=dict(points),
                        winners=outcome.get("winners"), arch=outcome.get("arch"),
                        multiplier=outcome.get("multiplier"), next_dealer=hand.next_dealer)
    return HandSettlement(stored, earlier)


def _settle_points(table: Table, facts: dict, *, as_recorded: bool = False):
    """Settle in points (stake 1): the engine's settle validates the facts, once. ``as_recorded``:
    facts that were stored before (an unchanged correction, an undo, an exported hand imported
    back): when today's engine refuses them, its reading of them as recorded under earlier rules
    (the game's ``settle_as_recorded``) is used; never for a new hand."""
    module = engine_for(table.game)
    rules = table_rules(table)
    try:
        settlement = module.settle(facts, rules, stake=1)
    except EngineError as refusal:
        if not as_recorded:
            raise
        try:
            settlement = module.settle_as_recorded(facts, rules, stake=1)
        except EngineError:
            raise refusal from None
    points = {name: int(settlement.points.get(name, 0)) for name in facts["players"]}
    if sum(points.values()) != 0:  # the engine is zero-sum; refuse to store anything else
        raise ScoringError(N_("The settlement does not add up to zero; nothing was saved."),
                           code="not_zero_sum")
    outcome = {"winners": list(settlement.winners) if settlement.winners else
               ([facts["winner"]] if isinstance(facts.get("winner"), str) else []),
               "arch": settlement.arch, "multiplier": settlement.multiplier}
    return settlement, points, outcome
