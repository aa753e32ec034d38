"""Honest outage answers (issue 18): when the database cannot be reached, or a write's commit
fails so that nobody knows whether it happened, the answer is 503 with Retry-After and says that
retrying with the same request is safe — never 500 "Nothing was saved". A retry with the same
request id stores the hand once.

On PostgreSQL (make test-pg) the server is really stopped in the middle of the write (just
before the commit) and started again; on SQLite another connection holds the write lock past
the busy timeout."""
import os
import re
import shlex
import subprocess

import pytest
from sqlalchemy import event, func, select, text

from companion import access, scoring
from companion.extensions import db
from companion.db.models import Hand

HAND = {"winner": "Ann", "losers": {"Bo": {"cards": 3, "jokers": 0}, "Cy": {"cards": 1, "jokers": 1}}}
BODY = {"request_id": "outage-1", "facts": HAND}
# The PostgreSQL tests stop the one server every parallel worker uses: make test-pg runs them alone.
pytestmark = pytest.mark.serial


def new_table(app):
    with app.app_context():
        table = scoring.create_table(game="gandengyan", name="Outage", players=["Ann", "Bo", "Cy"])
        return table.public_id, access.edit_token(table)


def hands_stored(app, public_id) -> int:
    with app.app_context():
        table = scoring.get_table(public_id)
        n = db.session.scalar(select(func.count()).select_from(Hand).where(Hand.table_id == table.id))
        db.session.remove()
        return n


def assert_honest_503(response):
    assert response.status_code == 503, response.get_data(as_text=True)
    assert response.headers["Retry-After"] == "5"
    if response.is_json:
        message = response.get_json()["error"]["message"]
    else:
        message = re.search(r'role="alert">([^<]*)<', response.get_data(as_text=True)).group(1)
    assert "retrying with the same request is safe" in message
    assert "Nothing was saved" not in message


class Postgres:
    """The running PostgreSQL server of DATABASE_URL (scripts/with_pg.sh), stopped and started
    again with its own pg_ctl, as the user that runs it."""

    def __init__(self, app):
        with app.app_context():
            self.data = db.session.scalar(text("SHOW data_directory"))
            db.session.remove()
        self.bin = os.path.dirname(open(os.path.join(self.data, "postmaster.opts")).read().split()[0].strip('"'))
        opts = shlex.split(open(os.path.join(self.data, "postmaster.opts")).read())
        self.options = " ".join(shlex.quote(o) for o in opts[1:] if o not in ("-D", self.data))
        self.as_user = ["runuser", "-u", "postgres", "--"] if os.getuid() == 0 else []

    def pg_ctl(self, *args):
        subprocess.run(self.as_user + [os.path.join(self.bin, "pg_ctl"), "-D", self.data, *args],
                       check=True, capture_output=True, timeout=60)

    def stop(self):
        self.pg_ctl("-m", "fast", "-w", "stop")  # sessions ended, their transactions lost

    def start(self):
        self.pg_ctl("-w", "-t", "30", "-l", os.path.join(os.path.dirname(self.data), "log"), "-o", self.options, "start")


def test_postgresql_stopped_mid_write_answers_503_and_a_retry_stores_the_hand_once(app, client):
    if db_dialect(app) != "postgresql":
        pytest.skip("the PostgreSQL run (make test-pg) stops its server; SQLite: see the next test")
    pg = Postgres(app)
    public_id, token = new_table(app)
    headers = {"Authorization": f"Bearer {token}"}
    stopped = []

    def stop_before_commit(session):
        if not stopped and any(isinstance(o, Hand) and o.request_id == BODY["request_id"]
                               for o in session.identity_map.values()):  # flushed, not committed
            stopped.append(True)
            pg.stop()

    event.listen(db.session, "before_commit", stop_before_commit)  # (a scoped session: its class)
    try:
        answer = client.post(f"/api/v1/tables/{public_id}/hands", json=BODY, headers=headers)
    finally:
        event.remove(db.session, "before_commit", stop_before_commit)
        if stopped:
            pg.start()
    assert stopped, "the write never reached its commit"
    assert_honest_503(answer)
    assert answer.get_json()["error"]["code"] == "unavailable"
    with app.app_context():
        db.engine.dispose()  # the pool's connections died with the server

    for _ in range(2):  # the retry, and the retry of the retry: one hand
        again = client.post(f"/api/v1/tables/{public_id}/hands", json=BODY, headers=headers)
        assert again.status_code in (200, 201), again.get_data(as_text=True)
        assert again.get_json()["number"] == 1
    assert hands_stored(app, public_id) == 1


def test_postgresql_down_answers_503_on_pages_too(app, client):
    if db_dialect(app) != "postgresql":
        pytest.skip("PostgreSQL run only")
    pg = Postgres(app)
    public_id, _token = new_table(app)
    with app.app_context():
        db.engine.dispose()
    pg.stop()
    try:
        page = client.get(f"/t/{public_id}")
        assert_honest_503(page)
        assert "<h1>503</h1>" in page.get_data(as_text=True)
    finally:
        pg.start()
    with app.app_context():
        db.engine.dispose()
    assert client.get(f"/t/{public_id}").status_code == 200


def test_sqlite_locked_past_its_timeout_answers_503_and_a_retry_stores_the_hand_once(app, client):
    if db_dialect(app) != "sqlite":
        pytest.skip("SQLite run only")
    public_id, token = new_table(app)
    headers = {"Authorization": f"Bearer {token}"}
    with app.app_context():
        path = db.engine.url.database
    import sqlite3

    holder = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
    holder.execute("BEGIN IMMEDIATE")  # another process holds the write lock (longer than busy_timeout)
    try:
        answer = client.post(f"/api/v1/tables/{public_id}/hands", json=BODY, headers=headers)
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    assert_honest_503(answer)
    for _ in range(2):
        again = client.post(f"/api/v1/tables/{public_id}/hands", json=BODY, headers=headers)
        assert again.status_code in (200, 201), again.get_data(as_text=True)
    assert hands_stored(app, public_id) == 1


def db_dialect(app) -> str:
    with app.app_context():
        return db.engine.dialect.name

