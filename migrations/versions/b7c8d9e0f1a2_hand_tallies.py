"""Each hand stores its review figures (the engine's tallies) per player.

Existing hands are settled again by the engine (the same code that settles a new hand) and their
tallies written; a hand whose facts no longer settle gets none (it counts in no figure, as before
its points were refused).

Revision ID: b7c8d9e0f1a2
Revises: a0b1c2d3e4f5
Create Date: 2026-12-01 20:30:00
"""
import json

import sqlalchemy as sa
from alembic import op

revision = "b7c8d9e0f1a2"
down_revision = "a0b1c2d3e4f5"
branch_labels = None
depends_on = None


def _json(value):
    return json.loads(value) if isinstance(value, (str, bytes)) else value


def fill(conn) -> int:
    """Write the tallies of every stored hand (settled again by the engine); the number of hands
    that no longer settle (left without tallies)."""
    from companion.engine import ENGINES
    from companion.engine.errors import EngineError

    tables = {row.id: (row.game, _json(row.rules) or {}) for row in
              conn.execute(sa.text("SELECT id, game, rules FROM tables"))}
    players: dict = {}
    for row in conn.execute(sa.text("SELECT id, table_id, name FROM players")):
        players.setdefault(row.table_id, {})[row.name] = row.id
    rules_of: dict = {}
    insert = sa.text("INSERT INTO hand_tallies (hand_id, player_id, figure, count) VALUES (:h, :p, :f, :c)")
    failed = 0
    for hand in conn.execute(sa.text("SELECT id, table_id, facts FROM hands ORDER BY id")).fetchall():
        game, rules = tables[hand.table_id]
        module = ENGINES.get(game)
        try:
            if hand.table_id not in rules_of:
                rules_of[hand.table_id] = module.rules_from_dict(dict(rules))
            tallies = module.settle(_json(hand.facts), rules_of[hand.table_id], stake=1).tallies
        except (EngineError, AttributeError, TypeError, ValueError, KeyError):
            failed += 1
            continue
        rows = [{"h": hand.id, "p": players[hand.table_id][name], "f": figure, "c": int(count)}
                for name, counts in tallies.items() if name in players.get(hand.table_id, {})
                for figure, count in counts.items() if count]
        if rows:
            conn.execute(insert, rows)
    return failed


def upgrade():
    op.create_table(
        "hand_tallies",
        sa.Column("hand_id", sa.Integer(), sa.ForeignKey("hands.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("player_id", sa.Integer(), sa.ForeignKey("players.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("figure", sa.String(length=32), primary_key=True),
        sa.Column("count", sa.Integer(), nullable=False),
    )
    op.create_index("ix_hand_tallies_player", "hand_tallies", ["player_id"])
    fill(op.get_bind())


def downgrade():
    op.drop_index("ix_hand_tallies_player", table_name="hand_tallies")
    op.drop_table("hand_tallies")
