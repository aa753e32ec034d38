"""Extension singletons, bound to the app in create_app()."""
from flask_babel import Babel
from flask_migrate import Migrate
from flask_sqlalchemy import SQLAlchemy
from flask_wtf.csrf import CSRFProtect
from sqlalchemy import event
from sqlalchemy.engine import Engine
from sqlalchemy.orm import DeclarativeBase


class Base(DeclarativeBase):
    pass


db = SQLAlchemy(model_class=Base)
migrate = Migrate()
csrf = CSRFProtect()
babel = Babel()


def _lower(value):
    return value.lower() if isinstance(value, str) else value


@event.listens_for(Engine, "connect")
def _sqlite_pragmas(dbapi_connection, connection_record):
    """SQLite: foreign keys on, WAL journal, wait for a lock instead of failing."""
    if type(dbapi_connection).__module__.startswith("sqlite3"):
        # lower() of every letter, as on PostgreSQL (SQLite's own folds A-Z only): the case-insensitive
        # searches (ILIKE is lower() LIKE lower() here) then find "Élodie" from "élodie".
        dbapi_connection.create_function("lower", 1, _lower, deterministic=True)
        cursor = dbapi_connection.cursor()
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.execute("PRAGMA busy_timeout=5000")
        try:
            cursor.execute("PRAGMA journal_mode=WAL")
        except Exception:  # in-memory databases have no WAL
            pass
        cursor.close()


# --------------------------------------------------------------------------------------------
# SQLite: writers queue for the write lock instead of polling for it (issue 22)
#
# SQLite lets one writer in at a time. A writer that finds the lock taken is put to sleep by
# SQLite's busy handler in growing steps (1, 2, 5, 10, 15, 20, 25, 25, 25, 50, 50, 100 ms) and
# tries again; it is not told when the lock comes free, so under 8 concurrent writers a request
# can lose the race many times and wait hundreds of milliseconds while the database sat idle.
# Here the write transaction takes an operating-system lock first: a thread lock for the threads
# of one process, then an exclusive ``flock`` on ``<database>-writer.lock`` for the processes
# (gunicorn's workers, the CLI). Waiters sleep in the kernel and the next one wakes as soon as the
# lock is released, so SQLite's own lock is never contended between our writers and
# ``busy_timeout`` stays only as the bound for a writer we do not know (another program). Reads
# never wait: WAL keeps them going beside the writer.
#
# The write transaction: Python's sqlite3 driver (legacy transaction control, Python 3.11) runs
# reads in autocommit and opens the transaction (BEGIN) just before the first INSERT/UPDATE/DELETE,
# so the transaction's first statement IS its first write: it takes the write lock at once and
# never has to upgrade a read snapshot (the SQLITE_BUSY_SNAPSHOT case that BEGIN IMMEDIATE
# exists for). The queue is therefore entered before that first write statement and left when
# the connection goes back to the pool, right after its commit or rollback.

import fcntl  # noqa: E402
import os  # noqa: E402
import threading  # noqa: E402

from sqlalchemy.pool import Pool  # noqa: E402

_WRITES = ("INSERT", "UPDATE", "DELETE", "REPLACE", "CREATE", "DROP", "ALTER")
_QUEUE_KEY = "companion_writer_queue"
WRITER_WAIT_SECONDS = 5.0  # as PRAGMA busy_timeout above


class WriterQueue:
    """The one writer of a SQLite file, among this process's threads and the other processes."""

    def __init__(self, path: str | None):
        self.thread_lock = threading.Lock()
        self.path = f"{path}-writer.lock" if path else None
        self.fd: int | None = None

    def acquire(self, timeout: float) -> bool:
        """Wait for the writer's turn; False (not queued: SQLite's busy_timeout decides) after
        ``timeout`` seconds, e.g. a thread that already holds a write transaction on another
        connection to the same file."""
        if not self.thread_lock.acquire(timeout=timeout):
            return False
        if self.path is not None:
            try:
                if self.fd is None:
                    self.fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o600)
                fcntl.flock(self.fd, fcntl.LOCK_EX)  # waits in the kernel, the GIL released
            except OSError:  # a read-only folder: the thread lock alone (busy_timeout does the rest)
                pass
        return True

    def release(self) -> None:
        if self.fd is not None:
            try:
                fcntl.flock(self.fd, fcntl.LOCK_UN)
            except OSError:
                pass
        self.thread_lock.release()


_queues: dict[str, WriterQueue] = {}
_queues_lock = threading.Lock()


def writer_queue(database: str | None) -> WriterQueue:
    key = os.path.abspath(database) if database and database != ":memory:" else ""
    with _queues_lock:
        queue = _queues.get(key)
        if queue is None:
            queue = _queues[key] = WriterQueue(key or None)
        return queue


@event.listens_for(Engine, "before_cursor_execute")
def _enter_writer_queue(conn, cursor, statement, parameters, context, executemany):
    if conn.dialect.name != "sqlite" or not statement.lstrip()[:7].upper().startswith(_WRITES):
        return
    info = conn.connection.info  # the pooled DBAPI connection's own record
    if _QUEUE_KEY not in info:
        queue = writer_queue(conn.engine.url.database)
        info[_QUEUE_KEY] = queue if queue.acquire(WRITER_WAIT_SECONDS) else None


def _leave_writer_queue(info) -> None:
    queue = info.pop(_QUEUE_KEY, None)
    if queue is not None:
        queue.release()


@event.listens_for(Pool, "reset")
def _connection_reset(dbapi_connection, connection_record, reset_state=None):
    """The connection goes back to the pool: after the commit (or the rollback) of what it wrote.
    (SQLAlchemy's ``commit`` event would be too early: it fires before the database commits.)"""
    _leave_writer_queue(connection_record.info)


@event.listens_for(Pool, "close")
def _connection_closed(dbapi_connection, connection_record):
    _leave_writer_queue(connection_record.info)


@event.listens_for(Pool, "invalidate")
def _connection_invalidated(dbapi_connection, connection_record, exception):
    _leave_writer_queue(connection_record.info)  # a connection lost mid-transaction never blocks the queue
