"""What every scoring module shares: the limits on typed text, the errors, a table's engine and rules.

Imports only the engine and the models; every other module of the package may import it."""
from __future__ import annotations

import json
from datetime import datetime, timezone
from functools import lru_cache
from typing import Any

from ..engine import ENGINES
from ..engine.public import N_, EngineError
from ..db.models import Hand, Table

NAME_MAX = 80
PLAYER_NAME_MAX = 40
NOTES_MAX = 2000
CURRENCY_MAX = 12
DEVICE_MAX = 60
NOTE = "note"  # a HandEvent that changes nothing: a ruling attached to a hand (issue 13)
DELETE_UNDO_SECONDS = 10 * 60  # a deleted table can be brought back for this long, then it is gone


class ScoringError(EngineError):
    """Bad input at the table level (not a rule): unknown hand, stale edit, bad name …"""

    default_code = "invalid"


class NotFound(ScoringError):
    default_code = "not_found"


class Conflict(ScoringError):
    """The hand changed since the page was loaded. ``current`` is the stored Hand, ``submitted`` the
    facts that were sent (None for a void/restore)."""

    default_code = "conflict"

    def __init__(self, message, *, current: Hand, submitted: Any = None, code=None, field=None):
        super().__init__(message, code=code, field=field)
        self.current = current
        self.submitted = submitted


# --------------------------------------------------------------------------------------------
# Engine access


def engine_for(game: str):
    """The engine module of ``game`` (a key of the engine's ENGINES registry)."""
    module = ENGINES.get(game) if isinstance(game, str) else None
    if module is None:
        raise ScoringError(N_("Unknown game '{game}': choose one of {choices}.", game=game,
                              choices=", ".join(ENGINES)), code="unknown_game", field="game")
    return module


def table_rules(table: Table):
    """The table's pinned rules as the engine's Rules value (a frozen value: built once per set of
    rules and game, then remembered; recording a hand asks for it twice)."""
    return _rules_for(table.game, json.dumps(table.rules or {}, sort_keys=True))


@lru_cache(maxsize=256)
def _rules_for(game: str, rules_json: str):
    return engine_for(game).rules_from_dict(json.loads(rules_json))


def as_utc(value: datetime | None) -> datetime | None:
    if value is None:
        return None
    return value.replace(tzinfo=timezone.utc) if value.tzinfo is None else value.astimezone(timezone.utc)
