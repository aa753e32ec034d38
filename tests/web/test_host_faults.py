"""Faults a host meets, named (issue 28): a full disk, migrations not applied, a database written by
a newer version. Each answers with what is wrong (503, and the log names the cause), never the
generic "cannot reach its database"; ``/readyz`` says whether the database and its schema are ready
while ``/healthz`` (liveness) stays 200.

The full disk is real: SQLite's own size limit (``PRAGMA max_page_count``, SQLITE_FULL, the same
error a full file system gives) and, where this machine lets the test mount one, a 1 MiB tmpfs
that is really full (for PostgreSQL: its tables moved to a tablespace there, make test-pg)."""
import logging
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest
from sqlalchemy import event, text

from companion import access, scoring
from companion.extensions import db

HAND = {"winner": "Ann", "losers": {"Bo": {"cards": 3, "jokers": 0}, "Cy": {"cards": 1, "jokers": 1}}}
ROOT = Path(__file__).resolve().parents[2]


def new_table(app):
    with app.app_context():
        table = scoring.create_table(game="gandengyan", name="Faults", players=["Ann", "Bo", "Cy"])
        return table.public_id, access.edit_token(table)


def message_of(response) -> str:
    if response.is_json:
        return response.get_json()["error"]["message"]
    return re.search(r'role="alert">([^<]*)<', response.get_data(as_text=True)).group(1)


def post_hand(client, public_id, token, request_id):
    return client.post(f"/api/v1/tables/{public_id}/hands", json={"request_id": request_id, "facts": HAND},
                       headers={"Authorization": f"Bearer {token}"})


def assert_disk_full(response, caplog):
    assert response.status_code == 503, response.get_data(as_text=True)
    assert "run out of disk space" in message_of(response)
    assert "cannot reach its database" not in message_of(response)
    logged = [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR]
    assert any("disk full" in line and "database or disk is full" in line for line in logged), logged


def test_a_full_database_answers_503_saying_the_disk_is_full(app, client, caplog):
    if app.config["SQLALCHEMY_DATABASE_URI"].startswith("postgres"):
        pytest.skip("SQLite's size limit; PostgreSQL: test_postgresql_on_a_full_disk_answers_503_saying_so")
    public_id, token = new_table(app)
    assert post_hand(client, public_id, token, "before").status_code == 201

    def no_growth(dbapi_connection, record):  # every new connection: not one page more than now
        pages = dbapi_connection.execute("PRAGMA page_count").fetchone()[0]
        dbapi_connection.execute(f"PRAGMA max_page_count = {pages}")

    with app.app_context():
        # the worker's database was emptied by earlier tests: drop its free pages, or new hands fit in them
        with db.engine.connect().execution_options(isolation_level="AUTOCOMMIT") as connection:
            connection.exec_driver_sql("VACUUM")
        db.engine.dispose()
        event.listen(db.engine, "connect", no_growth)
    try:
        with caplog.at_level(logging.WARNING):
            answers = [post_hand(client, public_id, token, f"full-{i}") for i in range(30)]
        full = [a for a in answers if a.status_code != 201]
        assert full, "the hands still fit: the limit did not bite"
        assert_disk_full(full[0], caplog)
        assert full[0].get_json()["error"]["code"] == "disk_full"
        assert full[0].headers["Retry-After"]
    finally:
        with app.app_context():
            event.remove(db.engine, "connect", no_growth)
            db.engine.dispose()
    assert post_hand(client, public_id, token, "after").status_code == 201  # room again: it saves


def test_a_really_full_file_system_answers_503_saying_the_disk_is_full(app_maker, caplog, tmp_path):
    """SQLite on a 1 MiB tmpfs filled to the last byte (needs mount: root with CAP_SYS_ADMIN)."""
    mount = tmp_path / "small"
    mount.mkdir()
    if os.geteuid() != 0 or subprocess.run(["mount", "-t", "tmpfs", "-o", "size=1m", "tmpfs", str(mount)],
                                           capture_output=True).returncode != 0:
        pytest.skip("cannot mount a tmpfs here (not root, or no CAP_SYS_ADMIN); the size-limit test covers it")
    try:
        app = app_maker(SQLALCHEMY_DATABASE_URI=f"sqlite:///{mount}/full.sqlite3")
        with app.app_context():
            db.create_all()
        public_id, token = new_table(app)
        client = app.test_client()
        assert post_hand(client, public_id, token, "before").status_code == 201
        filler = os.open(mount / "filler", os.O_WRONLY | os.O_CREAT)  # every byte left
        try:
            for chunk in (65536, 4096, 512, 1):
                try:
                    while os.write(filler, b"\0" * chunk):
                        pass
                except OSError:  # ENOSPC: the next, smaller chunk
                    pass
        finally:
            os.close(filler)
        with caplog.at_level(logging.WARNING):
            answers = [post_hand(client, public_id, token, f"full-{i}") for i in range(10)]
        full = [a for a in answers if a.status_code != 201]
        assert full, "the disk took every hand"
        assert_disk_full(full[0], caplog)
        with app.app_context():
            db.engine.dispose()
    finally:
        subprocess.run(["umount", "-l", str(mount)], capture_output=True)


def test_postgresql_disk_full_is_recognised_by_its_code():
    import psycopg
    from sqlalchemy.exc import OperationalError

    from companion.views.errors import _disk_full, _schema_missing

    error = OperationalError("INSERT …", {}, psycopg.errors.DiskFull("could not extend file: No space left on device"))
    assert _disk_full(error) and not _schema_missing(error)
    other = OperationalError("SELECT 1", {}, psycopg.errors.AdminShutdown("terminating connection"))
    assert not _disk_full(other)


def test_migrations_not_applied_answer_503_saying_so_and_readyz_says_why(app, client, caplog, schema_rebuilt):
    """The README's production path with `flask db upgrade` skipped after an update: a table of this
    version is missing. Pages and the API say the migrations were not applied; /healthz stays 200,
    /readyz is 503 and names the revision."""
    public_id, token = new_table(app)
    assert client.get("/readyz").status_code == 200
    with app.app_context():
        with db.engine.begin() as conn:
            conn.execute(text("UPDATE alembic_version SET version_num = 'a0b1c2d3e4f5'"))  # an older revision
            conn.execute(text("DROP TABLE hand_tallies" if conn.dialect.name == "sqlite"
                              else "DROP TABLE hand_tallies CASCADE"))
    with caplog.at_level(logging.WARNING):
        answer = post_hand(client, public_id, token, "unmigrated")
        page = client.get(f"/t/{public_id}/summary")  # the review figures live in hand_tallies
    for response in (answer, page):
        assert response.status_code == 503, response.get_data(as_text=True)[:300]
        assert "database migrations" in message_of(response)
        assert "cannot reach its database" not in message_of(response)
    assert answer.get_json()["error"]["code"] == "not_migrated"
    assert any("not migrated" in r.getMessage() and "hand_tallies" in r.getMessage() for r in caplog.records)
    assert client.get("/healthz").status_code == 200
    ready = client.get("/readyz")
    assert ready.status_code == 503
    assert ready.get_json()["schema"] == "behind" and "flask --app app db upgrade" in ready.get_json()["reason"]


def test_readyz_when_the_database_cannot_be_reached(app_maker, tmp_path):
    app = app_maker(SQLALCHEMY_DATABASE_URI=f"sqlite:///{tmp_path}/no/such/folder/x.sqlite3")
    answer = app.test_client().get("/readyz")
    assert answer.status_code == 503 and answer.get_json()["database"] == "unreachable"
    assert app.test_client().get("/healthz").status_code == 200


def newer_database(url_env: dict) -> None:
    """Stamp the database of ``url_env`` with a revision no version of this code knows."""
    code = ("from sqlalchemy import create_engine, text; import os\n"
            "e = create_engine(os.environ['DATABASE_URL'])\n"
            "with e.begin() as c: c.execute(text(\"UPDATE alembic_version SET version_num = 'ffff00001111'\"))\n")
    subprocess.run([sys.executable, "-c", code], env=url_env, check=True, cwd=ROOT)


def test_a_database_written_by_a_newer_version_is_refused_at_start_saying_so():
    """`flask db upgrade` (the README's production path), `make run`'s migration step and gunicorn's
    start all refuse it with a sentence that says so (not "Can't locate revision identified by")."""
    with tempfile.TemporaryDirectory() as folder:
        env = {**os.environ, "DATABASE_URL": f"sqlite:///{folder}/newer.sqlite3", "PYTHONPATH": str(ROOT)}
        subprocess.run([sys.executable, "-m", "flask", "--app", "app", "db", "upgrade"], env=env, cwd=ROOT,
                       check=True, capture_output=True)
        newer_database(env)
        upgrade = subprocess.run([sys.executable, "-m", "flask", "--app", "app", "db", "upgrade"], env=env, cwd=ROOT,
                                 capture_output=True, text=True)
        migrate = subprocess.run([sys.executable, "scripts/show_address.py", "--migrate", "5999"], env=env,
                                 cwd=ROOT, capture_output=True, text=True)
        serve = subprocess.run([sys.executable, "-m", "gunicorn", "-c", "scripts/gunicorn_conf.py", "-b",
                                "127.0.0.1:0", "app:app"], env=env, cwd=ROOT, capture_output=True, text=True,
                               timeout=60)
    for done in (upgrade, migrate, serve):
        output = done.stdout + done.stderr
        assert done.returncode != 0, output
        assert "written by a newer version of Card Table Companion" in output, output
        assert "ffff00001111" in output and "Can't locate revision" not in output, output
    assert "Traceback" not in upgrade.stderr + migrate.stderr


def test_postgresql_on_a_full_disk_answers_503_saying_so(app, client, caplog, tmp_path):
    """PostgreSQL's hands in a tablespace on a 1 MiB tmpfs, filled: its disk_full (53100) is a real
    one. Needs root with mount (the server runs as another user: the folder is given to it)."""
    url = app.config["SQLALCHEMY_DATABASE_URI"]
    if not url.startswith("postgres"):
        pytest.skip("PostgreSQL run only (SQLite: the tests above)")
    mount = Path(tempfile.mkdtemp(prefix="ctc-pg-full-"))
    if os.geteuid() != 0 or subprocess.run(["mount", "-t", "tmpfs", "-o", "size=1m", "tmpfs", str(mount)],
                                           capture_output=True).returncode != 0:
        pytest.skip("cannot mount a tmpfs here (not root, or no CAP_SYS_ADMIN)")
    space = f"full_{os.getpid()}"
    try:
        with app.app_context():
            owner = db.session.scalar(text("SELECT setting FROM pg_settings WHERE name = 'data_directory'"))
            db.session.remove()
        stat = os.stat(owner)
        os.chown(mount, stat.st_uid, stat.st_gid)
        public_id, token = new_table(app)
        with app.app_context():
            with db.engine.connect().execution_options(isolation_level="AUTOCOMMIT") as conn:
                conn.execute(text(f"CREATE TABLESPACE {space} LOCATION '{mount}'"))
                for table in ("hands", "hand_deltas", "hand_events", "hand_tallies"):
                    conn.execute(text(f"ALTER TABLE {table} SET TABLESPACE {space}"))
        filler = os.open(mount / "filler", os.O_WRONLY | os.O_CREAT)
        try:
            for chunk in (65536, 4096, 512, 1):
                try:
                    while os.write(filler, b"\0" * chunk):
                        pass
                except OSError:
                    pass
        finally:
            os.close(filler)
        with caplog.at_level(logging.WARNING):
            answers = [post_hand(client, public_id, token, f"full-{i}") for i in range(20)]
        full = [a for a in answers if a.status_code != 201]
        assert full, "the tablespace took every hand"
        assert full[0].status_code == 503 and full[0].get_json()["error"]["code"] == "disk_full", full[0].get_json()
        logged = [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR]
        assert any("disk full" in line and "No space left on device" in line for line in logged), logged
    finally:
        os.unlink(mount / "filler") if (mount / "filler").exists() else None
        with app.app_context():
            db.session.remove()
            with db.engine.connect().execution_options(isolation_level="AUTOCOMMIT") as conn:
                for table in ("hands", "hand_deltas", "hand_events", "hand_tallies"):
                    conn.execute(text(f"ALTER TABLE {table} SET TABLESPACE pg_default"))
                conn.execute(text(f"DROP TABLESPACE IF EXISTS {space}"))
        subprocess.run(["umount", "-l", str(mount)], capture_output=True)
