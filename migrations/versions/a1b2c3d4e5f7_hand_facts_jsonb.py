"""PostgreSQL keeps a hand's facts and outcome as jsonb: parsed once when written, not on every read
by the review's aggregates (the summary of 10,000 hands spent a third of its time re-parsing them).
SQLite keeps JSON text; nothing changes there.

Revision ID: a1b2c3d4e5f7
Revises: f6a7b8c9d0e1
Create Date: 2026-12-01 10:10:00
"""
from alembic import op

revision = "a1b2c3d4e5f7"
down_revision = "f6a7b8c9d0e1"
branch_labels = None
depends_on = None


def upgrade():
    if op.get_bind().dialect.name == "postgresql":
        op.execute("ALTER TABLE hands ALTER COLUMN facts TYPE jsonb USING facts::jsonb, "
                   "ALTER COLUMN outcome TYPE jsonb USING outcome::jsonb")


def downgrade():
    if op.get_bind().dialect.name == "postgresql":
        op.execute("ALTER TABLE hands ALTER COLUMN facts TYPE json USING facts::json, "
                   "ALTER COLUMN outcome TYPE json USING outcome::json")
