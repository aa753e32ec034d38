"""Shared fixtures. Engine tests need none of these; web tests get a fresh database per test.

* ``app``: the application over a fresh database — a temporary SQLite file, or the PostgreSQL
  server in ``DATABASE_URL`` (``make test-pg``), emptied before every test. CSRF is off for the
  test client (``client``); ``runner`` is the CLI runner.
* ``live_server``: a real threaded werkzeug server on 127.0.0.1 (a free port) over its own fresh
  database, CSRF ON. It is a ``str`` (the base URL) with ``.app`` for looking at the database.

Parallel runs (pytest-xdist, ``make test``): every worker has its own temporary folder (so its own
SQLite files) and, on PostgreSQL, its own database (``<db>_gw0``, ``<db>_gw1`` …) made at start-up
on the cluster of ``DATABASE_URL``; servers always bind a free port.
"""
import os
import threading

import pytest
from hypothesis import HealthCheck, settings

os.environ.setdefault("SECRET_KEY", "test-secret-key-not-for-production")

# Speed is measured by `make bench`, not by tests: on a busy 2-core machine a per-example
# deadline only turns load into false failures. HYPOTHESIS_PROFILE=thorough runs 10x more.
settings.register_profile("default", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("thorough", parent=settings.get_profile("default"), max_examples=1000)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "default"))

# Parallel runs (make test: pytest-xdist with --dist loadfile): the longest units start first, so that
# no worker is left alone with one at the end (xdist would otherwise start the files with the most tests
# first, and the live fuzz, two tests, last). The files in SPREAD hold independent tests of a browser
# each (tens of seconds a test): they go to the workers one test at a time instead of as one file.
FIRST = ("tests/fuzz/", "tests/e2e/test_accessibility.py", "tests/e2e/test_offline.py", "tests/e2e/")
SPREAD = ("tests/e2e/test_accessibility.py", "tests/e2e/test_offline.py")

TABLES = ("hand_events", "hand_deltas", "hands", "players", "tables", "rate_buckets", "people")
_pg_ready = False


def pytest_configure(config):
    """Under xdist on PostgreSQL each worker gets a database of its own: TRUNCATE and the migration
    test's DROP in one worker never touch another's tables."""
    worker = getattr(config, "workerinput", {}).get("workerid")
    url = os.environ.get("DATABASE_URL", "")
    if worker and url.startswith("postgres"):
        from companion.config import database_url
        from live_gunicorn import own_pg_database

        os.environ["DATABASE_URL"] = own_pg_database(database_url(""), worker)


def _rank(item) -> int:
    return next((i for i, prefix in enumerate(FIRST) if item.nodeid.startswith(prefix)), len(FIRST))


def pytest_collection_modifyitems(config, items):
    """Every test that uses the database (``app`` or ``live_server``) is marked ``db`` for make
    test-pg, except browser tests (``page``), which run once, on SQLite, with Playwright. The
    longest files come first (FIRST; a stable sort: each file's tests stay together, in order)."""
    items.sort(key=_rank)
    for item in items:
        names = getattr(item, "fixturenames", ())
        if {"page", "browser", "browser_type", "browser_context_args", "context"} & set(names):
            item.add_marker(pytest.mark.browser)
        elif "app" in names or "live_server" in names:
            item.add_marker(pytest.mark.db)


def pytest_xdist_make_scheduler(config, log):
    """--dist loadfile, in the order of the collection (FIRST), with the tests of SPREAD one by one."""
    if config.getvalue("dist") != "loadfile":
        return None
    from xdist.scheduler import LoadScopeScheduling

    class FileScheduling(LoadScopeScheduling):
        def _split_scope(self, nodeid: str) -> str:
            path = nodeid.split("::", 1)[0]
            return nodeid if path in SPREAD else path

    config.option.loadscopereorder = False
    return FileScheduling(config, log)


def fresh_database(app) -> None:
    """An empty schema: create_all on a new SQLite file; on PostgreSQL, the schema once per
    session (dropping whatever was there) and then TRUNCATE before every test."""
    global _pg_ready
    from sqlalchemy import text

    from companion.extensions import db

    with app.app_context():
        if db.engine.dialect.name == "sqlite":
            db.create_all()
            return
        if not _pg_ready:
            with db.engine.begin() as conn:
                conn.execute(text("DROP TABLE IF EXISTS alembic_version"))
            db.drop_all()
            db.create_all()
            _pg_ready = True
        else:
            with db.engine.begin() as conn:
                conn.execute(text(f"TRUNCATE {', '.join(TABLES)} RESTART IDENTITY CASCADE"))


def forget_pg_schema() -> None:
    """Tests that rebuild the schema themselves (the migration test) call this afterwards."""
    global _pg_ready
    _pg_ready = False


def make_app(tmp_path, **config):
    from companion import create_app

    from companion.config import database_url

    url = database_url(str(tmp_path)) if os.environ.get("DATABASE_URL") else f"sqlite:///{tmp_path}/test.sqlite3"
    settings = {"TESTING": True, "SQLALCHEMY_DATABASE_URI": url, "WTF_CSRF_ENABLED": False,
                "RATELIMIT_ENABLED": False,
                # no housekeeping purge in the middle of a test (statement counts stay exact);
                # tests/web/test_hostile_small.py turns it on where it is the subject
                "PURGE_EVERY_SECONDS": 10 ** 9}
    settings.update(config)
    app = create_app(settings)
    fresh_database(app)
    return app


def close_app(app) -> None:
    from companion.extensions import db

    with app.app_context():
        db.session.remove()
        db.engine.dispose()


@pytest.fixture
def app(tmp_path):
    app = make_app(tmp_path)
    yield app
    close_app(app)


@pytest.fixture
def app_maker(tmp_path):
    """``app_maker(**config)``: more apps over the same database as ``app`` would use (like
    several workers), each closed afterwards."""
    made = []

    def make(**config):
        made.append(make_app(tmp_path, **config))
        return made[-1]

    yield make
    for each in reversed(made):
        close_app(each)


@pytest.fixture
def schema_rebuilt():
    """For tests that drop and rebuild the schema themselves (the migration test): afterwards the
    next test on PostgreSQL starts from a fresh create_all again."""
    yield
    forget_pg_schema()


@pytest.fixture
def client(app):
    return app.test_client()


@pytest.fixture
def runner(app):
    return app.test_cli_runner()


class LiveServer(str):
    """The base URL (``http://127.0.0.1:PORT``); ``.app`` is the served application."""

    app = None


@pytest.fixture
def live_server(tmp_path):
    from werkzeug.serving import make_server

    app = make_app(tmp_path, WTF_CSRF_ENABLED=True, TESTING=False)
    server = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    url = LiveServer(f"http://127.0.0.1:{server.server_port}")
    url.app = app
    yield url
    server.shutdown()
    thread.join(5)
    close_app(app)
