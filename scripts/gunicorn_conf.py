"""gunicorn settings for `make run` (gunicorn -c scripts/gunicorn_conf.py app:app).

Workers and threads suit the default SQLite database: SQLite lets one writer in at a time (WAL
keeps readers going), so more processes would only queue on its lock; two processes use both
cores of a small laptop for rendering pages, and four threads each keep the phones' live polls
(every 3 s, mostly a one-lookup 304) answered while one request waits for the write lock. The
writers of both processes queue on an OS lock (companion/extensions.py: a thread lock, then an
flock on <database>-writer.lock) instead of polling SQLite's busy handler, so the second process
costs a writer nothing. With PostgreSQL (DATABASE_URL) raise WEB_CONCURRENCY (gunicorn reads it)
to about 2 × cores.

The access log is one readable line per request (time, phone's address, method, path, status,
milliseconds); the live polls that found nothing new (304) are left out, or a table of five
phones would print a hundred lines a minute. gunicorn's own start-up notes are hidden: only
warnings and errors show.
At start (``on_starting``) the database is checked against this version's migrations: a database
written by a newer version is refused with a sentence that says so; one whose migrations were not
applied is served (its pages answer 503 saying so, and /readyz is 503) with a warning here.
The keep-alive (10 s) outlasts the live poll's 3 s, so a phone's next poll reuses its connection
(gunicorn's default of 2 s closed connections as the next poll was being sent, under load).
(The file is not named gunicorn.conf.py, which gunicorn would also pick up for `make load`.)
"""
import logging
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

bind = f"0.0.0.0:{os.environ.get('PORT', '5000')}"
workers = int(os.environ.get("WEB_CONCURRENCY", "2"))
worker_class = "gthread"
threads = 4
timeout = 30
keepalive = 10  # seconds: longer than LIVE_POLL_SECONDS (3)
graceful_timeout = 5
accesslog = "-"
access_log_format = "%(h)s %(m)s %(U)s %(s)s %(M)sms"


class QuietPolls(logging.Filter):
    """Drop the access line of a live poll that found nothing new (GET …/state → 304)."""

    def filter(self, record: logging.LogRecord) -> bool:
        args = record.args if isinstance(record.args, dict) else {}
        return not (args.get("s") == "304" and str(args.get("U", "")).endswith("/state"))


logconfig_dict = {
    "version": 1,
    "disable_existing_loggers": False,
    "filters": {"polls": {"()": QuietPolls}},
    "formatters": {
        "access": {"format": "%(asctime)s %(message)s", "datefmt": "%H:%M:%S"},
        "error": {"format": "%(asctime)s %(levelname)s %(message)s", "datefmt": "%H:%M:%S"},
    },
    "handlers": {
        "access": {"class": "logging.StreamHandler", "formatter": "access", "filters": ["polls"],
                   "stream": "ext://sys.stdout"},
        "error": {"class": "logging.StreamHandler", "formatter": "error", "stream": "ext://sys.stderr"},
    },
    "root": {"level": "WARNING", "handlers": ["error"]},  # the app's own warnings (e.g. the database down)
    "loggers": {
        "gunicorn.access": {"handlers": ["access"], "level": "INFO", "propagate": False},
        "gunicorn.error": {"handlers": ["error"], "level": "WARNING", "propagate": False},
    },
}


def on_starting(server) -> None:
    """Refuse a database written by a newer version of the app (RuntimeError: gunicorn prints
    "Error: <the sentence>" and exits 1); warn when the migrations were not applied."""
    if ROOT not in sys.path:
        sys.path.insert(0, ROOT)
    from sqlalchemy import create_engine
    from sqlalchemy.exc import SQLAlchemyError

    from companion.config import database_url
    from companion.db.schema_version import schema_state

    engine = create_engine(database_url(os.path.join(ROOT, "instance")))
    try:
        with engine.connect() as connection:
            state = schema_state(connection)
    except SQLAlchemyError as error:  # not reachable yet: the app answers 503 until it is
        server.log.warning("Database not reachable at start: %s", error.__class__.__name__)
        return
    finally:
        engine.dispose()
    if state.status == "newer":
        raise RuntimeError(state.describe())
    if not state.ready:
        server.log.warning("%s", state.describe())
