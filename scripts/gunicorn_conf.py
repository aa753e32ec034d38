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
(The file is not named gunicorn.conf.py, which gunicorn would also pick up for `make load`.)
"""
import logging
import os

bind = f"0.0.0.0:{os.environ.get('PORT', '5000')}"
workers = int(os.environ.get("WEB_CONCURRENCY", "2"))
worker_class = "gthread"
threads = 4
timeout = 30
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
