"""Each hand stores its review figures (the engine's tallies) per player.

Existing hands are settled again by the engine (the same code that settles a new hand) and their
tallies written; a hand recorded under earlier rules is read as it was recorded; a hand whose facts
no longer settle at all gets none and is reported by table and number (never skipped silently).

Revision ID: b7c8d9e0f1a2
Revises: a0b1c2d3e4f5
Create Date: 2026-12-01 20:30:00
"""
import sqlalchemy as sa
from alembic import op

revision = "b7c8d9e0f1a2"
down_revision = "a0b1c2d3e4f5"
branch_labels = None
depends_on = None


def fill(conn) -> list:
    """Write the tallies of every stored hand (settled again by the engine; a hand recorded under
    earlier rules read as it was recorded); each hand that no longer settles is reported (a
    warning naming it) and left without tallies. See companion/scoring/retally.py."""
    from companion.scoring.retally import write_tallies

    return write_tallies(conn)


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
