"""Rate limits per client address that hold across workers and hosts: the counts live in the
database (``rate_buckets``), one row per bucket and address, in fixed windows.

``RATE_LIMITS`` (config) maps a bucket to ``(requests, seconds)``; ``RATELIMIT_ENABLED`` turns
the whole thing off (the test suite does, except the tests of this module). :data:`LIMITED`
names the endpoints each bucket counts (their writes only); past the limit the answer is 429
with the usual error body, before the view runs.
"""
from __future__ import annotations

import time

from flask import current_app, request
from flask_babel import gettext as _
from sqlalchemy import delete
from sqlalchemy.dialects import postgresql, sqlite

from .extensions import db
from .guard import InputRejected
from .models import RateBucket

DEFAULT_LIMITS = {
    "open_table": (30, 3600),   # tables opened per address per hour
    "write": (600, 600),        # changes to tables and hands per address per 10 minutes
    "pin": (5, 600),            # PIN attempts at one table per address per 10 minutes
    "pin_table": (30, 3600),    # PIN attempts at one table, all addresses together, per hour
    "heavy_read": (120, 600),   # exports, history, score sheet, chart, summaries per address per 10 minutes
}
STORAGE_BUDGET_MB = 2048  # default total size of the database past which no table is opened or imported


def _insert(dialect: str):
    return (postgresql if dialect == "postgresql" else sqlite).insert


def hit(bucket: str, address: str, now: float | None = None) -> int:
    """Count one request of ``address`` in ``bucket``; return the count in the current window.

    One atomic upsert in its own transaction, so every worker sees the same count and a
    request that fails later still counts."""
    limit, per = current_app.config.get("RATE_LIMITS", {}).get(bucket, DEFAULT_LIMITS[bucket])
    window = int(now if now is not None else time.time()) // per * per
    key = f"{bucket}:{address}"[:120]
    with db.engine.begin() as conn:
        insert = _insert(conn.dialect.name)(RateBucket).values(key=key, window_start=window, count=1)
        same_window = RateBucket.window_start == insert.excluded.window_start
        upsert = insert.on_conflict_do_update(
            index_elements=[RateBucket.key],
            set_={"count": db.case((same_window, RateBucket.count + 1), else_=1),
                  "window_start": insert.excluded.window_start},
        ).returning(RateBucket.count)
        count = conn.execute(upsert).scalar_one()
        if count == 1:  # a new window for this key: forget windows that ended a day ago
            conn.execute(delete(RateBucket).where(RateBucket.window_start < window - 86400))
    return count


def check(bucket: str) -> None:
    """Raise 429 when this client is over the bucket's limit."""
    if not current_app.config.get("RATELIMIT_ENABLED", True):
        return
    limit, per = current_app.config.get("RATE_LIMITS", {}).get(bucket, DEFAULT_LIMITS[bucket])
    if hit(bucket, request.remote_addr or "unknown") > limit:
        minutes = max(1, per // 60)
        raise InputRejected(429, "rate_limited", _(
            "Too many requests from this address: at most %(limit)d in %(minutes)d minutes. Wait a little "
            "and try again; nothing was saved.", limit=limit, minutes=minutes), None)


def pin_attempt(public_id: str) -> None:
    """Count one attempt to join ``public_id`` by PIN; raise 429 past a limit. Always on (it is what
    keeps a 6-digit PIN from being guessed, not a load guard): 5 tries per address and table in 10
    minutes, and 30 per table an hour from all addresses together (many addresses cannot guess it
    either). The address's own limit is checked first, so one noisy address spends only its own."""
    address = request.remote_addr or "unknown"
    for bucket, key in (("pin", f"{public_id}:{address}"), ("pin_table", public_id)):
        limit, per = current_app.config.get("RATE_LIMITS", {}).get(bucket, DEFAULT_LIMITS[bucket])
        if hit(bucket, key) > limit:
            raise InputRejected(429, "pin_limited", _(
                "Too many PIN attempts at this table: at most %(limit)d in %(minutes)d minutes. Wait a little, or "
                "scan the record code on a phone that can already record.", limit=limit,
                minutes=max(1, per // 60)), "pin")


LIMITED = {
    "tables.new": "open_table", "api.create_table": "open_table", "review.import_table": "open_table",
    "api.import_table": "open_table",
    **{endpoint: "write" for endpoint in (
        "hands.record", "hands.edit", "hands.void", "hands.restore", "tables.undo", "api.record_hand",
        "api.edit_hand", "api.void_hand", "api.restore_hand", "api.undo", "access.reset", "access.pin",
        "check.attach", "tables.settings", "tables.archive", "tables.unarchive", "tables.delete",
        "tables.undelete", "api.update_table", "people.save_links", "people.rename")},
}


# Reads that cost more than a page of hands (whole-table aggregates, exports, history pages).
HEAVY_READS = frozenset({"tables.history", "review.sheet", "review.chart", "review.summary", "review.settle",
                         "review.export_csv", "review.export_json", "api.export_table", "api.table_summary"})


def storage_used() -> int:
    """The database's size in bytes (one cheap query: SQLite's page count, PostgreSQL's own figure)."""
    with db.engine.connect() as conn:
        if conn.dialect.name == "postgresql":
            return int(conn.exec_driver_sql("SELECT pg_database_size(current_database())").scalar_one())
        pages = conn.exec_driver_sql("PRAGMA page_count").scalar_one()
        return int(pages) * int(conn.exec_driver_sql("PRAGMA page_size").scalar_one())


def check_storage() -> None:
    """Raise 507 when the database has grown past ``STORAGE_BUDGET_MB`` (new tables and imports stop;
    recording at the tables that exist goes on)."""
    budget = current_app.config.get("STORAGE_BUDGET_MB", STORAGE_BUDGET_MB)
    if budget is not None and storage_used() > float(budget) * 1024 * 1024:
        raise InputRejected(507, "storage_full", _(
            "This server's storage is full (its budget is %(budget)s MB), so no new table can be opened or "
            "imported. Delete tables you no longer need, or ask whoever runs the server to raise "
            "STORAGE_BUDGET_MB; nothing was saved.", budget=budget), None)


def before_request() -> None:
    """Count a write to a limited endpoint and an expensive read; check the storage budget before a
    table is opened or imported. Runs before the body is read."""
    endpoint = request.endpoint or ""
    bucket = LIMITED.get(endpoint)
    if bucket and request.method not in ("GET", "HEAD", "OPTIONS"):
        check(bucket)
        if bucket == "open_table":
            check_storage()
    elif endpoint in HEAVY_READS and request.method in ("GET", "HEAD"):
        check("heavy_read")


def init_app(app) -> None:
    """The limits, and (``TRUSTED_PROXIES`` = how many reverse proxies stand in front, off by default)
    Werkzeug's ProxyFix, so that the client's own address (``X-Forwarded-For``), scheme and host count
    instead of the proxy's. Never set it without a proxy: anyone could then pick their address."""
    proxies = int(app.config.get("TRUSTED_PROXIES") or 0)
    if proxies > 0:
        from werkzeug.middleware.proxy_fix import ProxyFix

        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=proxies, x_proto=proxies, x_host=proxies, x_port=proxies,
                                x_prefix=proxies)
    app.before_request(before_request)
