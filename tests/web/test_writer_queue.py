"""SQLite: our writers queue for the write lock (companion/extensions.py) instead of polling it
through SQLite's busy handler. The queue is held from a transaction's first write to the end of
that transaction — and only then: reads never enter it, a commit or a rollback leaves it — and
other processes see it as an flock on ``<database>-writer.lock``. Concurrent writers all succeed."""
import fcntl
import os
import subprocess
import sys
import threading

import pytest
from sqlalchemy import select, update

from companion import scoring
from companion.extensions import db, writer_queue
from companion.db.models import Hand, Table

PLAYERS = ["Ann", "Bo", "Cy", "Di"]


def facts(i):
    winner = PLAYERS[i % 4]
    return {"winner": winner, "losers": {p: {"cards": 1 + (i + k) % 7, "jokers": 0}
                                         for k, p in enumerate(PLAYERS) if p != winner}}


@pytest.fixture
def sqlite_app(app):
    with app.app_context():
        if db.engine.dialect.name != "sqlite":
            pytest.skip("the writer queue is SQLite's (PostgreSQL queues on the table's row lock)")
        path = db.engine.url.database
    return app, path


def other_process_can_lock(path: str) -> bool:
    """Whether another process gets the writers' flock right now (without waiting)."""
    code = ("import fcntl, os, sys\nfd = os.open(sys.argv[1], os.O_RDWR | os.O_CREAT)\n"
            "try:\n    fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)\nexcept BlockingIOError:\n    sys.exit(1)\n")
    return subprocess.run([sys.executable, "-c", code, f"{path}-writer.lock"], timeout=30).returncode == 0


def test_held_from_the_first_write_to_the_commit(sqlite_app):
    app, path = sqlite_app
    queue = writer_queue(path)
    with app.app_context():
        table = scoring.create_table(game="gandengyan", name="Queue", players=PLAYERS)
        assert not queue.thread_lock.locked()
        db.session.execute(select(Table.revision).where(Table.id == table.id)).scalar()
        assert not queue.thread_lock.locked()  # a read does not queue
        db.session.execute(update(Table).where(Table.id == table.id).values(revision=Table.revision + 1))
        assert queue.thread_lock.locked()
        assert not other_process_can_lock(path)
        db.session.commit()
        assert not queue.thread_lock.locked()
        assert other_process_can_lock(path)
        db.session.execute(update(Table).where(Table.id == table.id).values(name="Rolled back"))
        assert queue.thread_lock.locked()
        db.session.rollback()
        assert not queue.thread_lock.locked()
        assert db.session.get(Table, table.id).name == "Queue"


def test_a_failed_write_leaves_the_queue(sqlite_app):
    app, path = sqlite_app
    with app.app_context():
        table = scoring.create_table(game="gandengyan", name="Queue", players=PLAYERS)
        scoring.record_hand(table, facts(0), request_id="same")
        with pytest.raises(scoring.Conflict):  # the same request id with other facts: rolled back
            scoring.record_hand(table, facts(1), request_id="same")
        assert not writer_queue(path).thread_lock.locked()


def test_eight_threads_recording_at_once_all_succeed(sqlite_app, app_maker):
    app, path = sqlite_app
    with app.app_context():
        public_id = scoring.create_table(game="gandengyan", name="Busy", players=PLAYERS).public_id
    apps = [app_maker() for _ in range(2)]  # two "workers" over the same file, four threads each
    errors = []

    def recorder(worker, n):
        try:
            with worker.app_context():
                table = scoring.get_table(public_id)
                for i in range(10):
                    scoring.record_hand(table, facts(i), request_id=f"t{n}-{i}")
                db.session.remove()
        except Exception as error:  # noqa: BLE001  (reported below)
            errors.append(repr(error))

    threads = [threading.Thread(target=recorder, args=(apps[n % 2], n)) for n in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(120)
    assert errors == []
    with app.app_context():
        numbers = db.session.scalars(select(Hand.number).join(Table).where(Table.public_id == public_id)).all()
    assert sorted(numbers) == list(range(1, 81))
    assert not writer_queue(path).thread_lock.locked()
    fd = os.open(f"{path}-writer.lock", os.O_RDWR)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)  # nobody holds it any more
    finally:
        os.close(fd)
