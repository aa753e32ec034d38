"""Rate limits per client address that hold across workers and hosts: the counts live in the
database (``rate_buckets``), one row per bucket and address: writes and openings in fixed windows,
heavy reads in a leaky bucket (:func:`draw`: a steady refill, a small burst, charged by what a read
costs).

``RATE_LIMITS`` (config) maps a bucket to ``(requests, seconds)``; ``RATELIMIT_ENABLED`` turns
the whole thing off (the test suite does, except the tests of this module). :data:`LIMITED`
names the endpoints each bucket counts (their writes only); past the limit the answer is 429
with the usual error body.

A change to a table or hand ("write") is counted in its own commit: the bucket's upsert runs
just before the request's commit, in the same transaction (one commit per recorded hand, not two), and a write past the
limit is refused there, nothing saved. A request that commits nothing (refused input, a retry)
is counted afterwards in a transaction of its own, so failing requests count too. Once a worker
has seen an address past a limit it refuses that address's requests before the view runs, until
the window ends (a heavy read: until its units are back). Opening or importing a table is counted before its body is read, in its own
transaction; PIN tries keep their own counts.
"""
from __future__ import annotations

import threading
import time
from contextlib import contextmanager

from flask import current_app, g, has_request_context, request
from flask_babel import gettext as _
from flask_babel import ngettext
from sqlalchemy import delete, event, text
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.exc import SQLAlchemyError
from sqlalchemy.orm import Session

from ..extensions import db
from .guard import InputRejected
from ..db.models import RateBucket

DEFAULT_LIMITS = {
    "open_table": (30, 3600),   # tables opened per address per hour
    "write": (600, 600),        # changes to tables and hands per address per 10 minutes
    "heavy_read": (120, 600),   # units of exports, history, sheet, chart, summaries per address per 10 minutes,
}                               # refilled steadily, at most HEAVY_READ_BURST at once (a leaky bucket: see draw)
STORAGE_BUDGET_MB = 2048  # default total size of the database past which no table is opened or imported


def _insert(dialect: str):
    return (postgresql if dialect == "postgresql" else sqlite).insert


def hit(bucket: str, address: str, now: float | None = None, units: int = 1) -> int:
    """Count one request of ``address`` in ``bucket`` (``units``: what it costs); return the count in
    the current window.

    One atomic upsert in its own transaction, so every worker sees the same count and a
    request that fails later still counts. The commit does not wait for the disk (SQLite:
    ``synchronous=NORMAL`` for this transaction, the WAL is synced by the next durable commit or
    checkpoint; PostgreSQL: ``SET LOCAL synchronous_commit = off``): the count is seen by every other
    worker and instance at once and survives the app crashing; only a power cut (or a crash of the
    database server) can forget the last counts of the past moment, never half of one. A hand's commit
    still waits for the disk: the rate count that joins it (:func:`_count_with_the_commit`) changes nothing
    there."""
    with _unsynced() as conn:
        return _count(conn, bucket, address, now, units)


@contextmanager
def _unsynced():
    """A connection in a transaction of its own whose commit does not wait for the disk (see :func:`hit`)."""
    with db.engine.connect() as conn:
        if conn.dialect.name != "sqlite":
            with conn.begin():
                conn.exec_driver_sql("SET LOCAL synchronous_commit = off")
                yield conn
            return
        raw = conn.connection.dbapi_connection  # PRAGMAs straight to the driver: no transaction opened
        durable = raw.execute("PRAGMA synchronous").fetchone()[0]
        raw.execute("PRAGMA synchronous=NORMAL")
        try:
            with conn.begin():
                yield conn
        finally:
            raw.execute(f"PRAGMA synchronous={int(durable)}")


# The count in one statement for both databases (SQLite >= 3.35 and PostgreSQL: ON CONFLICT … RETURNING),
# written once: building SQLAlchemy's insert construct for every request cost more than running it.
_UPSERT = text(
    'INSERT INTO rate_buckets ("key", window_start, "count") VALUES (:key, :window, :units) '
    'ON CONFLICT ("key") DO UPDATE SET "count" = CASE WHEN rate_buckets.window_start = excluded.window_start '
    'THEN rate_buckets."count" + excluded."count" ELSE excluded."count" END, window_start = excluded.window_start '
    'RETURNING "count"')
_FORGET = text("DELETE FROM rate_buckets WHERE window_start < :before")


def _count(conn, bucket: str, address: str, now: float | None = None, units: int = 1) -> int:
    """The upsert of :func:`hit` on ``conn`` (a connection or a session), inside its transaction."""
    per = _limit(bucket)[1]
    window = int(now if now is not None else time.time()) // per * per
    count = conn.execute(_UPSERT, {"key": f"{bucket}:{address}"[:120], "window": window, "units": units}).scalar_one()
    if count == units:  # a new window for this key: forget windows that ended a day ago
        conn.execute(_FORGET, {"before": window - 86400})
    return count


def _limit(bucket: str) -> tuple[int, int]:
    return current_app.config.get("RATE_LIMITS", {}).get(bucket, DEFAULT_LIMITS[bucket])


# Heavy reads are smoothed: a leaky bucket per address instead of a fixed window. Its budget refills
# steadily (``RATE_LIMITS["heavy_read"] = (120, 600)``: 120 units per 10 minutes, one every 5 s) and
# holds at most HEAVY_READ_BURST units (or the limit, if smaller): an address may take 20 units at once,
# then a unit every 5 s. A fixed window let each address take its whole 120 in the first seconds of
# every window, and 8 addresses doing so at once were felt by every other table's phones.
SMOOTHED = frozenset({"heavy_read"})
HEAVY_READ_BURST = 20
_MILLI = 1000  # the bucket's level is kept in thousandths of a unit (whole numbers on both databases)


# One statement takes the units when they fit and returns the new level, or changes nothing and returns
# no row when they do not (``DO UPDATE … WHERE``: the same SQL on SQLite >= 3.35 and PostgreSQL).
# ``window_start`` holds the time the level was written (whole seconds); the level left now is the stored
# one less ``:grant`` per ``:per`` seconds since, in whole thousandths (never below 0; a clock that went back
# leaks nothing).
_DRAW = text(
    'INSERT INTO rate_buckets ("key", window_start, "count") VALUES (:key, :now, :cost) '
    'ON CONFLICT ("key") DO UPDATE SET '
    '"count" = (CASE WHEN rate_buckets."count" - (CASE WHEN excluded.window_start > rate_buckets.window_start '
    'THEN excluded.window_start - rate_buckets.window_start ELSE 0 END) * :grant / :per > 0 '
    'THEN rate_buckets."count" - (CASE WHEN excluded.window_start > rate_buckets.window_start '
    'THEN excluded.window_start - rate_buckets.window_start ELSE 0 END) * :grant / :per ELSE 0 END) + excluded."count", '
    'window_start = CASE WHEN excluded.window_start > rate_buckets.window_start THEN excluded.window_start '
    'ELSE rate_buckets.window_start END '
    'WHERE (CASE WHEN rate_buckets."count" - (CASE WHEN excluded.window_start > rate_buckets.window_start '
    'THEN excluded.window_start - rate_buckets.window_start ELSE 0 END) * :grant / :per > 0 '
    'THEN rate_buckets."count" - (CASE WHEN excluded.window_start > rate_buckets.window_start '
    'THEN excluded.window_start - rate_buckets.window_start ELSE 0 END) * :grant / :per ELSE 0 END) + excluded."count" <= :cap '
    'RETURNING "count"')
_LEVEL = text('SELECT "count", window_start FROM rate_buckets WHERE "key" = :key')


def draw(bucket: str, address: str, units: int = 1, now: float | None = None) -> int:
    """Take ``units`` from ``address``'s leaky bucket: 0 when they were there (taken), else the seconds
    until they will be (nothing taken). A cost larger than the whole bucket costs the whole bucket."""
    limit, per = _limit(bucket)
    cap = _burst(bucket) * _MILLI
    grant, per = max(1, int(limit)) * _MILLI, max(1, int(per))  # thousandths of a unit refilled per ``per`` s
    cost = min(cap, max(1, int(units)) * _MILLI)
    params = {"key": f"{bucket}:{address}"[:120], "now": int(now if now is not None else time.time()),
              "cost": cost, "cap": cap, "grant": grant, "per": per}
    with _unsynced() as conn:
        taken = conn.execute(_DRAW, params).first()
        if taken is not None:
            if taken[0] == cost:  # a new or drained bucket: forget the rows untouched for a day (as _count does)
                conn.execute(_FORGET, {"before": params["now"] - 86400})
            return 0
        level, then = conn.execute(_LEVEL, params).one()
    level = max(0, int(level) - max(0, params["now"] - int(then)) * grant // per)
    return max(1, -(-(level + cost - cap) * per // grant))


def _burst(bucket: str) -> int:
    """The most units a smoothed bucket holds."""
    return max(1, min(int(_limit(bucket)[0]), _setting("HEAVY_READ_BURST")))


def _take(bucket: str, address: str, units: int) -> None:
    """Count ``units`` of this request in ``bucket``; raise 429 past its limit. No request costs more
    than a full smoothed bucket, however many parts of it spend (its one unit, computing, sending)."""
    if bucket in SMOOTHED:
        spent = g.setdefault("smoothed_spent", {})
        units = min(units, _burst(bucket) - spent.get(bucket, 0))
        if units <= 0:
            return
        wait = draw(bucket, address, units)
        if wait:
            _refuse(bucket, address, wait)
        spent[bucket] = spent.get(bucket, 0) + units
    elif hit(bucket, address, units=units) > _limit(bucket)[0]:
        _refuse(bucket, address)


def check(bucket: str) -> None:
    """Count this request in ``bucket`` now (its own transaction); raise 429 past the limit."""
    if not current_app.config.get("RATELIMIT_ENABLED", True):
        return
    address = request.remote_addr or "unknown"
    if _known_over(bucket, address):  # past the limit already: refused, nothing written
        _refuse(bucket, address)
    _take(bucket, address, 1)


# What a heavy read costs beyond the one unit every request of HEAVY_READS pays before its view: an
# export computed afresh (not served from the copy kept for the table's revision) costs one more
# unit per HEAVY_READ_HANDS hands, so the budget bounds the work an address causes, not only how
# many requests it sends (a 10,000-hand export: 101 units of the 120 in ten minutes).
HEAVY_READ_HANDS = 100


def heavy_read_units(hands: int) -> int:
    """The extra units of computing a read over ``hands`` hands."""
    per = int(current_app.config.get("HEAVY_READ_HANDS", HEAVY_READ_HANDS))
    return max(0, int(hands)) // max(1, per)


# What sending costs: a heavy read's one unit covers its first HEAVY_READ_BYTES; every started
# HEAVY_READ_BYTES more costs one unit more, counted before the bytes go out. A kept export costs what it
# sends: a 10,000-hand JSON export (about 13 MiB) 52 units plain, 1 unit compressed (about 0.1 MiB, what
# every browser asks for), so 8 addresses can no longer pull 120 whole exports each in a burst.
HEAVY_READ_BYTES = 256 * 1024


def sent_units(size: int) -> int:
    """The extra units of sending ``size`` bytes (beyond the one unit its request paid)."""
    per = int(current_app.config.get("HEAVY_READ_BYTES", HEAVY_READ_BYTES))
    return max(0, -(-max(0, int(size)) // max(1, per)) - 1)


def spend(bucket: str, units: int) -> None:
    """Count ``units`` more for this request in ``bucket`` (what it is about to compute); raise 429
    past the limit, before the work is done."""
    if units <= 0 or not current_app.config.get("RATELIMIT_ENABLED", True):
        return
    _take(bucket, request.remote_addr or "unknown", units)


def _refuse(bucket: str, address: str, wait: int | None = None):
    """Raise the 429 (its Retry-After: ``wait`` seconds, else until the window ends, or what this worker
    remembered), and remember the address as over until then."""
    limit, per = _limit(bucket)
    until = _remember_over(bucket, address, wait)
    wait = max(1, until - int(time.time()))
    if bucket in SMOOTHED:  # counted by what the reads cost, not by how many: say so
        message = ngettext(
            "This address has downloaded a lot from this server in the last minutes (exports count by their "
            "size). Try again in %(num)d second; nothing was changed.",
            "This address has downloaded a lot from this server in the last minutes (exports count by their "
            "size). Try again in %(num)d seconds; nothing was changed.", wait)
    else:
        message = _("Too many requests from this address: at most %(limit)d in %(minutes)d minutes. Wait a "
                    "little and try again; nothing was saved.", limit=limit, minutes=max(1, per // 60))
    error = InputRejected(429, "rate_limited", message, None)
    error.retry_after = wait
    raise error


# The buckets whose count joins the request's own commit (one commit per recorded hand).
COUNTED_WITH_THE_COMMIT = frozenset({"write"})
_over_lock = threading.Lock()


def _over() -> dict:
    """(bucket, address) -> the end of the window in which this app (worker) saw it past the limit."""
    return current_app.extensions.setdefault("ratelimit_over", {})


def _remember_over(bucket: str, address: str, wait: int | None = None) -> int:
    """Note that ``address`` is past ``bucket``'s limit for ``wait`` seconds, else until its window ends,
    or as long as this worker already knew (returned)."""
    known = _over().get((bucket, address))
    if known is not None and known > time.time():
        return known
    per = _limit(bucket)[1]
    until = int(time.time()) + wait if wait else int(time.time()) // per * per + per
    with _over_lock:
        _over()[(bucket, address)] = until
    return until


def _known_over(bucket: str, address: str) -> bool:
    until = _over().get((bucket, address))
    if until is None:
        return False
    if until > time.time():
        return True
    with _over_lock:
        _over().pop((bucket, address), None)
    return False


# --------------------------------------------------------------------------------------------
# PIN tries: growing delays per (address, table), a table-wide slowdown, never a lockout
#
# An address gets PIN_FREE_TRIES wrong tries at a table, then waits before each next try: 5 s,
# 10 s, 20 s … up to PIN_MAX_DELAY (10 minutes); a right PIN after the wait works and clears its
# count. When a table has had PIN_TABLE_BUDGET wrong tries within the hour (many addresses
# guessing), every try there waits PIN_TABLE_SLOW_SECONDS after the table's last wrong one: slower,
# never closed. A 6-digit PIN then takes years to guess; an honest player waits seconds. The
# counts live in ``rate_buckets`` (shared by every worker): ``pinwrong:<table>:<address>`` (count,
# time of the last wrong try), ``pinwrong:<table>`` (count, start of its hour) and ``pinlast:<table>``
# (time of the table's last wrong try).

PIN_FREE_TRIES = 3
PIN_FIRST_DELAY = 5
PIN_MAX_DELAY = 600
PIN_TABLE_BUDGET = 30
PIN_TABLE_SLOW_SECONDS = 30
HOUR = 3600


def _setting(name: str) -> int:
    return int(current_app.config.get(name, globals()[name]))


def _read(key: str) -> tuple[int, int] | None:
    row = db.session.execute(db.select(RateBucket.count, RateBucket.window_start)
                             .where(RateBucket.key == key[:120])).first()
    return (int(row[0]), int(row[1])) if row else None


def _count_wrong(key: str, now: int, *, keep_start: bool) -> None:
    """One more wrong try under ``key``; a count older than an hour starts again. ``keep_start``: the
    row's time is when its count began (else: the time of the latest wrong try)."""
    with db.engine.begin() as conn:
        insert = _insert(conn.dialect.name)(RateBucket).values(key=key[:120], window_start=now, count=1)
        stale = RateBucket.window_start <= now - HOUR
        conn.execute(insert.on_conflict_do_update(
            index_elements=[RateBucket.key],
            set_={"count": db.case((stale, 1), else_=RateBucket.count + 1),
                  "window_start": db.case((stale, now), else_=RateBucket.window_start) if keep_start else now}))


def pin_delay(wrong: int) -> int:
    """Seconds an address waits after its ``wrong``-th wrong try in a row at a table."""
    if wrong < _setting("PIN_FREE_TRIES"):
        return 0
    return min(_setting("PIN_MAX_DELAY"), _setting("PIN_FIRST_DELAY") * 2 ** (wrong - _setting("PIN_FREE_TRIES")))


def _address() -> str:
    return request.remote_addr or "unknown"


def _wait(seconds: int, many: bool) -> InputRejected:
    if many:
        message = ngettext(
            "Many wrong PINs were tried at this table in the last hour, so every try waits a little. Try again "
            "in %(num)d second, or scan the record code on a phone that can already record.",
            "Many wrong PINs were tried at this table in the last hour, so every try waits a little. Try again "
            "in %(num)d seconds, or scan the record code on a phone that can already record.", seconds)
    else:
        message = ngettext(
            "That was several wrong PINs in a row. Try again in %(num)d second (check the PIN with a player "
            "who can record), or scan the record code.",
            "That was several wrong PINs in a row. Try again in %(num)d seconds (check the PIN with a player "
            "who can record), or scan the record code.", seconds)
    error = InputRejected(429, "pin_limited", message, "pin")
    error.retry_after = seconds
    return error


def pin_attempt(public_id: str, now: float | None = None) -> None:
    """Raise 429 (saying how long to wait) when this address must still wait before its next PIN try
    at ``public_id``. Always on, whatever RATELIMIT_ENABLED says: it is what keeps a 6-digit PIN from
    being guessed."""
    now = int(now if now is not None else time.time())
    mine = _read(f"pinwrong:{public_id}:{_address()}")
    if mine and now - mine[1] < HOUR:
        left = pin_delay(mine[0]) - (now - mine[1])
        if left > 0:
            raise _wait(left, False)
    table = _read(f"pinwrong:{public_id}")
    if table and now - table[1] < HOUR and table[0] >= _setting("PIN_TABLE_BUDGET"):
        last = _read(f"pinlast:{public_id}")
        left = _setting("PIN_TABLE_SLOW_SECONDS") - (now - last[1]) if last else 0
        if left > 0:
            raise _wait(left, True)


def pin_result(public_id: str, right: bool, now: float | None = None) -> None:
    """After a PIN was checked: a wrong one counts (for the address and the table); a right one clears
    the address's count."""
    now = int(now if now is not None else time.time())
    key = f"pinwrong:{public_id}:{_address()}"
    if right:
        with db.engine.begin() as conn:
            conn.execute(delete(RateBucket).where(RateBucket.key == key[:120]))
        return
    _count_wrong(key, now, keep_start=False)
    _count_wrong(f"pinwrong:{public_id}", now, keep_start=True)
    _count_wrong(f"pinlast:{public_id}", now, keep_start=False)


def wrong_pin_tries(public_id: str, now: float | None = None) -> int:
    """Wrong PIN tries at this table in the last hour, from every address (recorders are shown it)."""
    now = int(now if now is not None else time.time())
    table = _read(f"pinwrong:{public_id}")
    return table[0] if table and now - table[1] < HOUR else 0


LIMITED = {
    "tables.new": "open_table", "api.create_table": "open_table", "review.import_table": "open_table",
    "api.import_table": "open_table", "tables.rematch": "open_table",
    **{endpoint: "write" for endpoint in (
        "hands.record", "hands.edit", "hands.void", "hands.restore", "tables.undo", "api.record_hand",
        "api.edit_hand", "api.void_hand", "api.restore_hand", "api.undo", "access.reset", "access.pin",
        "check.attach", "tables.settings", "tables.archive", "tables.unarchive", "tables.delete",
        "tables.undelete", "api.update_table", "people.save_links", "people.rename", "players.edit",
        "api.change_players")},
}


# Reads that cost more than a page of hands (whole-table aggregates, exports, history pages): a unit
# when drawn (not for a 304: :func:`charge_heavy_read`), an export more by what it computes and sends.
# The history pages are kept per table revision (companion/middleware/pagecache.py): their budget is spent
# when a page is drawn (``pagecache.block(..., budget="heavy_read")``), not by every request — a
# page served from the cache costs what the table page costs, and counting it would be a write.
HEAVY_READS = frozenset({"review.sheet", "review.chart", "review.summary", "review.settle",
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
    """A change to a table or hand (the "write" bucket) is counted with its commit, or after the
    request when it commits nothing; an address this worker already saw past the limit is refused
    here, before the body is read. Opening or importing a table is counted here, at once, and the
    storage budget checked; an expensive read is refused here when this worker knows the address is
    over, and counted when its answer is drawn (:func:`charge_heavy_read`)."""
    endpoint = request.endpoint or ""
    bucket = LIMITED.get(endpoint)
    if bucket in COUNTED_WITH_THE_COMMIT and request.method not in ("GET", "HEAD", "OPTIONS"):
        if current_app.config.get("RATELIMIT_ENABLED", True):
            address = request.remote_addr or "unknown"
            if _known_over(bucket, address):
                _refuse(bucket, address)
            g.rate_pending = (bucket, address)
    elif bucket and request.method not in ("GET", "HEAD", "OPTIONS"):
        check(bucket)  # opening or importing a table: decided before its (large) body is read
        if bucket == "open_table":
            check_storage()
    elif endpoint in HEAVY_READS and request.method in ("GET", "HEAD"):
        address = request.remote_addr or "unknown"  # counted when drawn (charge_heavy_read); refused here
        if current_app.config.get("RATELIMIT_ENABLED", True) and _known_over("heavy_read", address):
            _refuse("heavy_read", address)


def charge_heavy_read() -> None:
    """A heavy read's unit, spent when its answer is drawn, before anything is read: a client that holds
    the answer already (a 304) costs nothing. Called by the one conditional answer
    (:func:`companion.views.conditional.conditional`), which every endpoint of HEAVY_READS answers through."""
    if request.endpoint in HEAVY_READS and request.method in ("GET", "HEAD"):
        check("heavy_read")


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
    """The limits, and (``TRUSTED_PROXIES`` = how many reverse proxies stand in front, off by default)
    Werkzeug's ProxyFix, so that the client's own address (``X-Forwarded-For``), scheme and host count
    instead of the proxy's. Never set it without a proxy: anyone could then pick their address."""
    proxies = int(app.config.get("TRUSTED_PROXIES") or 0)
    if proxies > 0:
        from werkzeug.middleware.proxy_fix import ProxyFix

        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=proxies, x_proto=proxies, x_host=proxies, x_port=proxies,
                                x_prefix=proxies)
    app.before_request(before_request)
    app.after_request(after_request)
