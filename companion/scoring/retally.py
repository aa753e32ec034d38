"""The review figures (``hand_tallies``) of every stored hand written again by the engine, for the
migrations: each hand is settled with its own facts (its own players) under its table's pinned
rules; a hand today's engine refuses but that was recorded under earlier rules is read as it was
recorded (the game's ``settle_as_recorded``). A hand that cannot be settled at all gets no new
figures and is REPORTED (a warning naming the table and the hand, and the returned list): no hand is
skipped silently. Plain SQL on the migration's connection (no models: the schema is the
migration's, not today's)."""
from __future__ import annotations

import json
import logging

import sqlalchemy as sa

LOG = logging.getLogger("alembic.runtime.migration")


def _json(value):
    return json.loads(value) if isinstance(value, (str, bytes)) else value


def _settle(module, facts, rules):
    """The hand's tallies; raises when neither today's engine nor its reading as recorded settles it."""
    from ..engine.errors import EngineError

    try:
        return module.settle(facts, rules, stake=1).tallies
    except EngineError:
        return module.settle_as_recorded(facts, rules, stake=1).tallies


def write_tallies(conn, *, replace: bool = False) -> list[tuple[str, int, str]]:
    """Write the tallies of every stored hand (``replace``: delete each hand's stored ones first).
    Returns ``(table public id, hand number, reason)`` of each hand left without figures, each also
    logged as a warning."""
    from ..engine import ENGINES
    from ..engine.errors import EngineError

    tables = {row.id: (row.public_id, row.game, _json(row.rules) or {}) for row in
              conn.execute(sa.text("SELECT id, public_id, game, rules FROM tables"))}
    players: dict = {}
    for row in conn.execute(sa.text("SELECT id, table_id, name FROM players")):
        players.setdefault(row.table_id, {})[row.name] = row.id
    rules_of: dict = {}
    insert = sa.text("INSERT INTO hand_tallies (hand_id, player_id, figure, count) VALUES (:h, :p, :f, :c)")
    failed, settled, rows = [], [], []
    for hand in conn.execute(sa.text("SELECT id, table_id, number, facts FROM hands ORDER BY id")).fetchall():
        public_id, game, rules = tables[hand.table_id]
        module = ENGINES.get(game)
        try:
            if module is None:
                raise ValueError(f"no engine for the game {game!r}")
            if hand.table_id not in rules_of:
                rules_of[hand.table_id] = module.rules_from_dict(dict(rules))
            tallies = _settle(module, _json(hand.facts), rules_of[hand.table_id])
        except (EngineError, AttributeError, TypeError, ValueError, KeyError) as error:
            reason = str(getattr(error, "message", error))
            failed.append((public_id, hand.number, reason))
            LOG.warning("hand_tallies: table %s, hand %s could not be settled again: its review figures were not "
                        "written (its points still count): %s", public_id, hand.number, reason)
            continue
        settled.append(hand.id)
        rows += [{"h": hand.id, "p": players[hand.table_id][name], "f": figure, "c": int(count)}
                 for name, counts in tallies.items() if name in players.get(hand.table_id, {})
                 for figure, count in counts.items() if count]
    for start in range(0, len(settled), 500):  # a few statements, whatever the number of hands
        if replace:  # only the hands settled again: one that failed keeps the figures it had
            conn.execute(sa.text("DELETE FROM hand_tallies WHERE hand_id IN :ids")
                         .bindparams(sa.bindparam("ids", expanding=True)), {"ids": settled[start:start + 500]})
    for start in range(0, len(rows), 2000):
        conn.execute(insert, rows[start:start + 2000])
    if failed:
        LOG.warning("hand_tallies: %s hand(s) could not be settled again (listed above).", len(failed))
    return failed
