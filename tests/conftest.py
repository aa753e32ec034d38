"""Shared fixtures. Engine tests need none of these; web tests get an empty database per test.

* ``app``: the application over an empty database — this worker's SQLite file, or its database on
  the PostgreSQL server of ``DATABASE_URL`` (``make test-pg``), emptied before every test (the
  schema is made once per worker). CSRF is off for the test client (``client``); ``runner`` is the
  CLI runner. The application object itself is made once per worker and configuration and lent to
  each test in turn: its configuration and extensions are put back afterwards, its connections closed.
  ``app_maker(**config)`` makes new ones over the same database.
* ``live_server``: a real threaded werkzeug server on 127.0.0.1 (a free port) over the same
  database, CSRF ON. It is a ``str`` (the base URL) with ``.app`` for looking at the database.

Parallel runs (pytest-xdist, ``make test``): every worker has its own temporary folder (so its own
SQLite files) and, on PostgreSQL, its own database (``<db>_gw0``, ``<db>_gw1`` …) made at start-up
on the cluster of ``DATABASE_URL``; servers always bind a free port.
"""
import atexit
import os
import shutil
import tempfile
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
FIRST = ("tests/fuzz/", "tests/e2e/test_accessibility.py", "tests/e2e/test_offline.py", "tests/bench/test_bench_scripts.py",
         "tests/api/test_import_alterations.py", "tests/api/test_openapi_schemathesis.py", "tests/deploy/",
         "tests/webkit/", "tests/e2e/")
SPREAD = ("tests/e2e/test_accessibility.py", "tests/e2e/test_offline.py")
# Tests of a file that each start servers or processes of their own (no module fixture shared): spread
# one by one too, the file's other tests stay together (they share a module fixture).
SPREAD_TESTS = {"tests/bench/test_bench_scripts.py": "test_the_bench_script_that_starts_servers_runs"}
# Files whose tests use the database only as a place to put a table, and judge what no database changes
# (the rule checker's verdicts, words and their languages, HTML validity, response headers): marked
# ``any_database``, make test-pg leaves them out (the SQLite run has them). tests/guards/test_test_lists.py
# checks that every file named here exists.
ANY_DATABASE = (
    "tests/api/test_check_api.py",          # POST /api/v1/check: the engine's verdict, no table read or written
    "tests/api/test_answers_api.py",        # POST /api/v1/answers: the engine's answers
    "tests/api/test_settle_api.py",         # POST /api/v1/settle: the engine's settlement, no table
    "tests/api/test_api_index.py",          # GET /api/v1/, /api/v1/games, /api: the registry's games
    "tests/api/test_reading_suits.py",      # the checker page and /api/v1/check: readings of cards
    "tests/api/test_check_page_nojs.py",    # the checker page without a table
    "tests/web/test_check_headline.py",     # the checker's headline (no table)
    "tests/web/test_fullwidth_cards.py",    # the checker page reading full-width cards (no table)
    "tests/i18n/test_languages_right.py",   # translations, particles, isolates
    "tests/i18n/test_read_as_written.py",   # the order words and numbers are read in
    "tests/web/test_html_validate.py",      # html-validate on the rendered pages
    "tests/web/test_security_headers.py",   # the headers of every route
    "tests/web/test_rule_sentences.py",     # a table's rules page in the engine's sentences
)

_durations = None      # the file of TEST_DURATIONS
_folder = None         # this worker's SQLite folder
_engine = None         # for emptying this worker's database
_schema_ready = False  # that database has the models' schema
_apps: dict = {}       # this worker's applications, one per configuration: {config: (app, its config, extensions)}


def pytest_configure(config):
    """Under xdist on PostgreSQL each worker gets a database of its own: TRUNCATE and the migration
    test's DROP in one worker never touch another's tables."""
    global _durations
    worker = getattr(config, "workerinput", {}).get("workerid")
    if not worker and os.environ.get("TEST_DURATIONS"):
        _durations = open(os.environ["TEST_DURATIONS"], "a", encoding="utf-8")
    url = os.environ.get("DATABASE_URL", "")
    if worker and url.startswith("postgres"):
        from companion.config import database_url
        from live_gunicorn import own_pg_database

        os.environ["DATABASE_URL"] = own_pg_database(database_url(""), worker)


def pytest_runtest_logreport(report):
    """With TEST_DURATIONS set (make test), every phase of every test adds a line to that file:
    make test prints the ten slowest of both runs (SQLite and PostgreSQL) at the very end."""
    if _durations is not None and report.duration >= 0.005:
        where = "PostgreSQL" if os.environ.get("DATABASE_URL", "").startswith("postgres") else "SQLite"
        _durations.write(f"{report.duration:8.2f}s {report.when:8} {report.nodeid} ({where} run)\n")
        _durations.flush()


def _rank(item) -> int:
    return next((i for i, prefix in enumerate(FIRST) if item.nodeid.startswith(prefix)), len(FIRST))


def pytest_collection_modifyitems(config, items):
    """Every test that uses the database (``app`` or ``live_server``) is marked ``db`` for make
    test-pg, except browser tests (``page``), which run once, on SQLite, with Playwright. The
    longest files come first (FIRST; a stable sort: each file's tests stay together, in order)."""
    items.sort(key=_rank)
    for item in items:
        names = getattr(item, "fixturenames", ())
        if {"page", "browser", "browser_type", "browser_context_args", "context", "webkit"} & set(names):
            item.add_marker(pytest.mark.browser)
        elif "app" in names or "live_server" in names:
            item.add_marker(pytest.mark.db)
        if item.nodeid.startswith(ANY_DATABASE):
            item.add_marker(pytest.mark.any_database)


def pytest_xdist_make_scheduler(config, log):
    """--dist loadfile, in the order of the collection (FIRST), with the tests of SPREAD one by one."""
    if config.getvalue("dist") != "loadfile":
        return None
    from xdist.scheduler import LoadScopeScheduling

    class FileScheduling(LoadScopeScheduling):
        def _split_scope(self, nodeid: str) -> str:
            path = nodeid.split("::", 1)[0]
            alone = path in SPREAD or (path in SPREAD_TESTS and nodeid.startswith(f"{path}::{SPREAD_TESTS[path]}["))
            return nodeid if alone else path

    config.option.loadscopereorder = False
    return FileScheduling(config, log)


def database_url() -> str:
    """This worker's test database: a SQLite file in a folder of its own, or its PostgreSQL database."""
    global _folder
    if os.environ.get("DATABASE_URL"):
        from companion.config import database_url as configured

        return configured("")
    if _folder is None:
        _folder = tempfile.mkdtemp(prefix="ctc-tests-")
        atexit.register(shutil.rmtree, _folder, True)
    return f"sqlite:///{_folder}/test.sqlite3"


def empty_database() -> None:
    """The models' schema with no rows: made (dropping whatever was there) once per worker and
    again after a test that rebuilt it; otherwise every table emptied (PostgreSQL: TRUNCATE,
    numbering restarted; SQLite: DELETE, which restarts the numbering of an empty table)."""
    global _schema_ready, _engine
    from sqlalchemy import create_engine, text

    from companion.db import models  # noqa: F401  (the tables: a file run alone may not have imported them yet)
    from companion.extensions import db

    if _engine is None:
        _engine = create_engine(database_url())
    tables = db.metadata.sorted_tables
    with _engine.begin() as conn:
        if not _schema_ready:
            conn.execute(text("DROP TABLE IF EXISTS alembic_version"))
            db.metadata.drop_all(conn)
            db.metadata.create_all(conn)
            stamp_head(conn)
        elif conn.dialect.name == "sqlite":
            for table in reversed(tables):
                conn.execute(table.delete())
        else:
            conn.execute(text(f"TRUNCATE {', '.join(t.name for t in tables)} RESTART IDENTITY CASCADE"))
    _engine.dispose()
    _schema_ready = True


def stamp_head(conn) -> None:
    """Marked as migrated to this code's newest revision, as ``flask db upgrade`` leaves a database
    (``/readyz`` and the start-up check read it)."""
    from sqlalchemy import text

    from companion.db.schema_version import code_head

    conn.execute(text("CREATE TABLE alembic_version (version_num VARCHAR(32) NOT NULL PRIMARY KEY)"))
    conn.execute(text("INSERT INTO alembic_version (version_num) VALUES (:head)"), {"head": code_head()})


def forget_schema() -> None:
    """Tests that rebuild the schema themselves (the migration tests) call this afterwards."""
    global _schema_ready
    _schema_ready = False


def new_app(**config):
    """A new application over this worker's test database (left as it is)."""
    from companion import create_app

    settings = {"TESTING": True, "SQLALCHEMY_DATABASE_URI": database_url(), "WTF_CSRF_ENABLED": False,
                "RATELIMIT_ENABLED": False,
                # no housekeeping purge in the middle of a test (statement counts stay exact);
                # tests/web/test_hostile_small.py turns it on where it is the subject
                "PURGE_EVERY_SECONDS": 10 ** 9}
    settings.update(config)
    return create_app(settings)


def shared_app(**config):
    """The application of this configuration (and of the games registered now), made once per worker and lent to one test at a time
    (making one costs ~0.1 s of CPU, mostly routing and the OpenAPI document: ~3 minutes over a
    run). ``give_back`` puts its configuration and extensions back as they were made."""
    from companion.engine import ENGINES

    key = (tuple(sorted(config.items())), tuple(ENGINES))  # a game registered by a test: an app of its own
    if key not in _apps:
        app = new_app(**config)
        _apps[key] = (app, dict(app.config), dict(app.extensions))
    return _apps[key][0]


def give_back(app) -> None:
    close_app(app)
    for made, config, extensions in _apps.values():
        if made is app:
            app.config.clear()
            app.config.update(config)
            app.extensions.clear()
            app.extensions.update(extensions)
            app.extensions.get("ratelimit_over", {}).clear()


def close_app(app) -> None:
    """Its session removed and its connections closed (nothing held between tests)."""
    from companion.extensions import db

    with app.app_context():
        db.session.remove()
        db.engine.dispose()


@pytest.fixture
def database():
    """This worker's test database, emptied for the test."""
    empty_database()
    return database_url()


@pytest.fixture
def app(database, request):
    """The worker's shared application; a new one for a test marked ``own_app`` (it adds routes)."""
    if request.node.get_closest_marker("own_app"):
        app = new_app()
        yield app
        close_app(app)
        return
    app = shared_app()
    yield app
    give_back(app)


@pytest.fixture
def app_maker(database):
    """``app_maker(**config)``: more apps over the same database as ``app`` (like several workers),
    each new, closed afterwards."""
    made = []

    def make(**config):
        made.append(new_app(**config))
        return made[-1]

    yield make
    for each in reversed(made):
        close_app(each)


@pytest.fixture
def schema_rebuilt():
    """For tests that drop and rebuild the schema themselves (the migration tests): afterwards the
    next test starts from a fresh create_all again."""
    yield
    forget_schema()


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
def live_server(database):
    from werkzeug.serving import make_server

    app = shared_app(WTF_CSRF_ENABLED=True, TESTING=False)
    server = make_server("127.0.0.1", 0, app, threaded=True)
    # shutdown() waits for the serving loop to look at its flag, which it does every poll interval:
    # werkzeug's 0.5 s was half a second of every live-server test's teardown (~3 minutes a make test)
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.02}, daemon=True)
    thread.start()
    url = LiveServer(f"http://127.0.0.1:{server.server_port}")
    url.app = app
    yield url
    server.shutdown()
    thread.join(5)
    give_back(app)


@pytest.fixture
def fixture_games(monkeypatch):
    """The fixture games (tests/thirdgame/registry.py: 斗地主) registered in the engine's registry
    for this test, as docs/engine.md says a game is registered, and removed afterwards; the
    registry-wide tests ask for it and run over ``thirdgame.registry.every_name()``."""
    from companion.engine import ENGINES
    from thirdgame.registry import FIXTURES

    for name, module in FIXTURES.items():
        monkeypatch.setitem(ENGINES, name, module)
    yield FIXTURES
