"""Rate limits shared by every worker: one row per (bucket, address) and window.

Revision ID: c7d8e9f0a1b2
Revises: b3c1d2e4f5a6
Create Date: 2026-12-01 05:30:00
"""
import sqlalchemy as sa
from alembic import op

revision = "c7d8e9f0a1b2"
down_revision = "b3c1d2e4f5a6"
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        "rate_buckets",
        sa.Column("key", sa.String(length=120), nullable=False),
        sa.Column("window_start", sa.BigInteger(), nullable=False),
        sa.Column("count", sa.Integer(), nullable=False),
        sa.PrimaryKeyConstraint("key"),
    )
    op.create_index("ix_rate_buckets_window", "rate_buckets", ["window_start"])


def downgrade():
    op.drop_index("ix_rate_buckets_window", table_name="rate_buckets")
    op.drop_table("rate_buckets")
