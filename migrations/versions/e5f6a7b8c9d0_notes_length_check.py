"""Table notes at most 2,000 characters in the database too (a CHECK constraint).

PostgreSQL gets the constraint in place. SQLite cannot add a constraint without rebuilding the
table, and a rebuild of ``tables`` with foreign keys on would cascade-delete its players and hands,
so an existing SQLite database keeps relying on the app's own limit (new databases made by
``create_all`` have the constraint).

Revision ID: e5f6a7b8c9d0
Revises: d4e5f6a7b8c9
Create Date: 2026-12-01 07:40:00
"""
from alembic import op

revision = "e5f6a7b8c9d0"
down_revision = "d4e5f6a7b8c9"
branch_labels = None
depends_on = None


def upgrade():
    if op.get_bind().dialect.name != "sqlite":
        op.create_check_constraint("ck_tables_notes_length", "tables", "length(notes) <= 2000")


def downgrade():
    if op.get_bind().dialect.name != "sqlite":
        op.drop_constraint("ck_tables_notes_length", "tables", type_="check")
