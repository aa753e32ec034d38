"""Each hand keeps the stake it was played at; tables can be archived and deleted (with an undo window).

Existing hands take their table's current stake (the only stake they could have had until now).

Revision ID: f6a7b8c9d0e1
Revises: e5f6a7b8c9d0
Create Date: 2026-12-01 10:00:00
"""
import sqlalchemy as sa
from alembic import op

revision = "f6a7b8c9d0e1"
down_revision = "e5f6a7b8c9d0"
branch_labels = None
depends_on = None


def upgrade():
    op.add_column("hands", sa.Column("stake", sa.String(length=32), nullable=False, server_default="0"))
    op.execute("UPDATE hands SET stake = (SELECT tables.stake FROM tables WHERE tables.id = hands.table_id)")
    op.add_column("tables", sa.Column("archived_at", sa.DateTime(timezone=True), nullable=True))
    op.add_column("tables", sa.Column("deleted_at", sa.DateTime(timezone=True), nullable=True))


def downgrade():
    # In place (ALTER TABLE … DROP COLUMN, SQLite 3.35+): a batch copy of ``tables`` or ``hands`` would
    # cascade-delete their players, hands and deltas on SQLite with foreign keys on.
    op.drop_column("tables", "deleted_at")
    op.drop_column("tables", "archived_at")
    op.drop_column("hands", "stake")
