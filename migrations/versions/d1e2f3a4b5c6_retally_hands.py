"""Every hand's review figures written again (issue 29): a shout hand's banker is the shouter
(rules/dagong.md §4), and a hand recorded under earlier rules, which the ``hand_tallies``
migration left without figures, is read as it was recorded and counted. Each hand that cannot be
settled again at all is reported by table and number; its points still count.

Data only: the downgrade leaves the figures as they are.

Revision ID: d1e2f3a4b5c6
Revises: c9d0e1f2a3b4
Create Date: 2026-12-03 12:00:00
"""
from alembic import op

revision = "d1e2f3a4b5c6"
down_revision = "c9d0e1f2a3b4"
branch_labels = None
depends_on = None


def upgrade():
    from companion.scoring.retally import write_tallies

    write_tallies(op.get_bind(), replace=True)


def downgrade():
    pass
