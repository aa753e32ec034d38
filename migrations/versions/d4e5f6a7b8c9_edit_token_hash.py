"""The edit token leaves the database: keep its SHA-256 and a version; an optional PIN's hash.

Each existing table keeps working with the token it has (API clients, phones): its hash is
filled from the stored token and ``token_version`` is 0 ("legacy: the token cannot be shown
again"; resetting the share link gives a derived one). Then ``edit_token`` is dropped.

No batch mode (table copy) on SQLite, on purpose: batch mode recreates ``tables`` with DROP
TABLE, and with foreign keys on (the app turns them on for every connection) that deletes every
player and hand through ON DELETE CASCADE. Adding and dropping a column are native on SQLite
3.35+; the new NOT NULL columns get a server default for the rows already there, which
PostgreSQL then drops (SQLite cannot drop a default without a copy; it is never used: the app
always writes both columns).

Revision ID: d4e5f6a7b8c9
Revises: c7d8e9f0a1b2
Create Date: 2026-12-01 06:45:00
"""
import base64
import hashlib
import hmac
import secrets
import sqlite3

import sqlalchemy as sa
from alembic import op

revision = "d4e5f6a7b8c9"
down_revision = "c7d8e9f0a1b2"
branch_labels = None
depends_on = None

tables = sa.table("tables", sa.column("id", sa.Integer), sa.column("public_id", sa.String),
                  sa.column("edit_token", sa.String), sa.column("edit_token_hash", sa.String),
                  sa.column("token_version", sa.Integer))


def _native_sqlite(bind) -> None:
    if bind.dialect.name == "sqlite" and sqlite3.sqlite_version_info < (3, 35):
        raise RuntimeError(f"SQLite 3.35 or newer is needed to drop a column (this is {sqlite3.sqlite_version})")


def upgrade():
    bind = op.get_bind()
    _native_sqlite(bind)
    op.add_column("tables", sa.Column("token_version", sa.Integer(), nullable=False, server_default="0"))
    op.add_column("tables", sa.Column("edit_token_hash", sa.String(length=64), nullable=False, server_default=""))
    op.add_column("tables", sa.Column("pin_hash", sa.String(length=255), nullable=True))
    rows = bind.execute(sa.select(tables.c.id, tables.c.edit_token)).all()
    for row_id, token in rows:
        bind.execute(tables.update().where(tables.c.id == row_id).values(
            edit_token_hash=hashlib.sha256(token.encode()).hexdigest(), token_version=0))
    if bind.dialect.name != "sqlite":
        op.alter_column("tables", "token_version", server_default=None)
        op.alter_column("tables", "edit_token_hash", server_default=None)
    op.drop_column("tables", "edit_token")


def _derived(public_id: str, version: int) -> str | None:
    """The token companion.access derives, when the app's secret key is at hand."""
    try:
        from flask import current_app

        key = current_app.config["SECRET_KEY"]
    except (RuntimeError, KeyError):
        return None
    key = key.encode() if isinstance(key, str) else key
    digest = hmac.new(key, f"edit:{public_id}:{version}".encode(), hashlib.sha256).digest()
    return base64.urlsafe_b64encode(digest).decode().rstrip("=")[:32]


def downgrade():
    """Tables made after the upgrade get their derived token back (their links keep working);
    a legacy table's token is gone for good, so it gets a new random one (its old links stop)."""
    bind = op.get_bind()
    _native_sqlite(bind)
    op.add_column("tables", sa.Column("edit_token", sa.String(length=64), nullable=False, server_default=""))
    rows = bind.execute(sa.select(tables.c.id, tables.c.public_id, tables.c.token_version)).all()
    for row_id, public_id, version in rows:
        token = (_derived(public_id, version) if version else None) or secrets.token_urlsafe(24)
        bind.execute(tables.update().where(tables.c.id == row_id).values(edit_token=token))
    if bind.dialect.name != "sqlite":
        op.alter_column("tables", "edit_token", server_default=None)
    op.drop_column("tables", "pin_hash")
    op.drop_column("tables", "edit_token_hash")
    op.drop_column("tables", "token_version")
