"""Players come and go between hands: a player who left keeps their row (``former_seat``), and each
change of a table's players is kept in ``player_changes`` (history and undo).

Added in place (no copy of ``players``, which would cascade-delete its deltas on SQLite).

Revision ID: c9d0e1f2a3b4
Revises: b7c8d9e0f1a2
Create Date: 2026-12-01 21:00:00
"""
import sqlalchemy as sa
from alembic import op

revision = "c9d0e1f2a3b4"
down_revision = "b7c8d9e0f1a2"
branch_labels = None
depends_on = None


def upgrade():
    op.add_column("players", sa.Column("former_seat", sa.Integer(), nullable=True))
    op.create_table(
        "player_changes",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("table_id", sa.Integer(), sa.ForeignKey("tables.id", ondelete="CASCADE"), nullable=False),
        sa.Column("kind", sa.String(length=8), nullable=False),
        sa.Column("before", sa.JSON(), nullable=False),
        sa.Column("after", sa.JSON(), nullable=False),
        sa.Column("after_event", sa.Integer(), nullable=False),
        sa.Column("undoes_id", sa.Integer(), sa.ForeignKey("player_changes.id"), nullable=True),
        sa.Column("device", sa.String(length=60), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_player_changes_table", "player_changes", ["table_id", "id"])


def downgrade():
    op.drop_index("ix_player_changes_table", table_name="player_changes")
    op.drop_table("player_changes")
    op.drop_column("players", "former_seat")
