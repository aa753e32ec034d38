"""Points as 64-bit integers (PostgreSQL's Integer is 32 bits; a hand's points may exceed it).

Revision ID: b3c1d2e4f5a6
Revises: a8feb7a0cc4d
Create Date: 2026-12-01 06:30:00
"""
import sqlalchemy as sa
from alembic import op

revision = "b3c1d2e4f5a6"
down_revision = "a8feb7a0cc4d"
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table("hand_deltas") as batch:
        batch.alter_column("points", existing_type=sa.Integer(), type_=sa.BigInteger(), existing_nullable=False)


def downgrade():
    with op.batch_alter_table("hand_deltas") as batch:
        batch.alter_column("points", existing_type=sa.BigInteger(), type_=sa.Integer(), existing_nullable=False)
