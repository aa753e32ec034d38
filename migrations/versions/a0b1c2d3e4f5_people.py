"""People across tables: a ``people`` table and ``players.person_id`` (nullable, ON DELETE SET NULL).

No batch mode (table copy) on SQLite, on purpose: batch mode recreates ``players`` with DROP
TABLE, and with foreign keys on (the app turns them on for every connection) that deletes every
hand delta through ON DELETE CASCADE. SQLite adds a nullable column with an inline REFERENCES
natively, and drops it natively (3.35+); PostgreSQL does the same statements.

Revision ID: a0b1c2d3e4f5
Revises: a1b2c3d4e5f7
Create Date: 2026-12-01 10:00:00
"""
import sqlite3

import sqlalchemy as sa
from alembic import op

revision = "a0b1c2d3e4f5"
down_revision = "a1b2c3d4e5f7"
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        "people",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("public_id", sa.String(length=32), nullable=False),
        sa.Column("name", sa.String(length=40), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("public_id"),
    )
    # inline REFERENCES: the one way SQLite adds a foreign key without copying the table
    op.add_column("players", sa.Column("person_id", sa.Integer(),
                                       sa.ForeignKey("people.id", ondelete="SET NULL"), nullable=True),
                  inline_references=True)
    op.create_index("ix_players_person_id", "players", ["person_id"], unique=False)


def downgrade():
    bind = op.get_bind()
    if bind.dialect.name == "sqlite" and sqlite3.sqlite_version_info < (3, 35):
        raise RuntimeError(f"SQLite 3.35 or newer is needed to drop a column (this is {sqlite3.sqlite_version})")
    op.drop_index("ix_players_person_id", table_name="players")
    op.drop_column("players", "person_id")
    op.drop_table("people")
