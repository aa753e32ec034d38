"""Rate limits per client address that hold across workers and hosts: the counts live in the
database (``rate_buckets``), one row per bucket and address, in fixed windows.

``RATE_LIMITS`` (config) maps a bucket to ``(requests, seconds)``; ``RATELIMIT_ENABLED`` turns
the whole thing off (the test suite does, except the tests of this module). :data:`LIMITED`
names the endpoints each bucket counts (their writes only); past the limit the answer is 429
with the usual error body.

A write is counted in its own commit: the bucket's upsert runs just before the request's
commit, in the same transaction (one commit per recorded hand, not two), and a write past the
limit is refused there, nothing saved. A request that commits nothing (refused input, a retry)
is counted afterwards in a transaction of its own, so failing requests count too. Once a worker
has seen an address past a limit it refuses that address's writes before the view runs, until
the window ends. PIN tries are always counted first, in their own transaction.
"""
from __future__ import annotations

import threading
import time

from flask import current_app, g, has_request_context, request
from flask_babel import gettext as _
from sqlalchemy import delete, event
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.exc import SQLAlchemyError
from sqlalchemy.orm import Session

from .extensions import db
from .guard import InputRejected
from .models import RateBucket

DEFAULT_LIMITS = {
    "open_table": (30, 3600),   # tables opened per address per hour
    "write": (600, 600),        # changes to tables and hands per address per 10 minutes
    "pin": (5, 600),            # PIN attempts at one table per address per 10 minutes
    "pin_table": (30, 3600),    # PIN attempts at one table, all addresses together, per hour
}


def _insert(dialect: str):
    return (postgresql if dialect == "postgresql" else sqlite).insert


def hit(bucket: str, address: str, now: float | None = None) -> int:
    """Count one request of ``address`` in ``bucket``; return the count in the current window.

    One atomic upsert in its own transaction, so every worker sees the same count and a
    request that fails later still counts."""
    with db.engine.begin() as conn:
        return _count(conn, bucket, address, now)


def _count(conn, bucket: str, address: str, now: float | None = None) -> int:
    """The upsert of :func:`hit` on ``conn`` (a connection or a session), inside its transaction."""
    limit, per = _limit(bucket)
    window = int(now if now is not None else time.time()) // per * per
    key = f"{bucket}:{address}"[:120]
    dialect = conn.get_bind().dialect.name if isinstance(conn, Session) else conn.dialect.name
    insert = _insert(dialect)(RateBucket).values(key=key, window_start=window, count=1)
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


def _limit(bucket: str) -> tuple[int, int]:
    return current_app.config.get("RATE_LIMITS", {}).get(bucket, DEFAULT_LIMITS[bucket])


def check(bucket: str) -> None:
    """Count this request in ``bucket`` now (its own transaction); raise 429 past the limit."""
    if not current_app.config.get("RATELIMIT_ENABLED", True):
        return
    address = request.remote_addr or "unknown"
    if hit(bucket, address) > _limit(bucket)[0]:
        _refuse(bucket, address)


def _refuse(bucket: str, address: str):
    limit, per = _limit(bucket)
    _remember_over(bucket, address)
    raise InputRejected(429, "rate_limited", _(
        "Too many requests from this address: at most %(limit)d in %(minutes)d minutes. Wait a little "
        "and try again; nothing was saved.", limit=limit, minutes=max(1, per // 60)), None)


# (bucket, address) -> the end of the window in which this worker saw it past the limit
_over: dict[tuple[str, str], int] = {}
_over_lock = threading.Lock()


def _remember_over(bucket: str, address: str) -> None:
    per = _limit(bucket)[1]
    with _over_lock:
        _over[(bucket, address)] = int(time.time()) // per * per + per


def _known_over(bucket: str, address: str) -> bool:
    until = _over.get((bucket, address))
    if until is None:
        return False
    if until > time.time():
        return True
    with _over_lock:
        _over.pop((bucket, address), None)
    return False


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


def before_request() -> None:
    """A write to a limited endpoint (reads pass freely) is counted with its commit, or after the
    request when it commits nothing; an address this worker already saw past the limit is refused
    here."""
    bucket = LIMITED.get(request.endpoint or "")
    if bucket and request.method not in ("GET", "HEAD", "OPTIONS") and current_app.config.get("RATELIMIT_ENABLED", True):
        address = request.remote_addr or "unknown"
        if _known_over(bucket, address):
            _refuse(bucket, address)
        g.rate_pending = (bucket, address)


@event.listens_for(Session, "before_commit")
def _count_with_the_commit(session: Session) -> None:
    """The pending count joins the request's transaction; past the limit the commit is refused."""
    if not has_request_context():
        return
    pending = g.pop("rate_pending", None)
    if pending is not None and _count(session, *pending) > _limit(pending[0])[0]:
        _refuse(*pending)


def after_request(response):
    """A request that committed nothing still counts, in a transaction of its own."""
    pending = g.pop("rate_pending", None)
    if pending is None:
        return response
    try:
        count = hit(*pending)
    except SQLAlchemyError:  # the database is unreachable: the answer (e.g. a 503) must still go out
        current_app.logger.warning("Rate limit not counted: the database is unavailable")
        return response
    if count > _limit(pending[0])[0]:
        _remember_over(*pending)  # this request is answered; the next write is refused at once
    return response


def init_app(app) -> None:
    app.before_request(before_request)
    app.after_request(after_request)
