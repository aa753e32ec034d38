"""Concurrent recorders on one SQLite file, with and without the writers' queue
(companion/extensions.py), in turns: the question behind `make load`'s "record a hand, c=8" row
without gunicorn, HTTP and page rendering in the way.

    .venv/bin/python bench/writers.py            (WRITERS_ROUNDS=3, WRITERS_HANDS=40 per thread)

Two processes (like gunicorn's two workers) of four threads each record hands on the same table
through ``scoring.record_hand`` (the app's one way to record: lock the table row, insert, commit;
durable SQLite settings: WAL, synchronous FULL). Each round runs once with the queue and once
without it (its event listeners removed in the child processes: SQLite's busy handler alone, as
before issue 22), and prints p50/p95/p99/max of one hand's time and the hands per second, with
the load average. Medians over the rounds. A third run keeps the thread lock but not the flock
(the two processes then meet in SQLite's busy handler).
"""
from __future__ import annotations

import json
import multiprocessing
import os
import statistics
import sys
import tempfile
import threading
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)
os.environ.setdefault("SECRET_KEY", "bench-secret")

from bench.load import facts  # noqa: E402

from bench.sizes import size  # noqa: E402

PROCESSES, THREADS = size("WRITERS_PROCESSES", 2, 1), size("WRITERS_THREADS", 4, 2)
START_DELAY = size(None, 3.0, 0.0)  # seconds for every process to import and get ready

HANDS = size("WRITERS_HANDS", 40, 3)
ROUNDS = size("WRITERS_ROUNDS", 3, 1)


def worker(url: str, public_id: str, queue_on, start_at: float, tag: str, out) -> None:
    from sqlalchemy import event
    from sqlalchemy.engine import Engine
    from sqlalchemy.pool import Pool

    from companion import create_app, extensions, scoring
    from companion.extensions import db

    if queue_on == "threads":  # the thread lock alone: the two processes meet in SQLite's busy handler
        original = extensions.WriterQueue.__init__

        def no_flock(self, path):
            original(self, None)
        extensions.WriterQueue.__init__ = no_flock
    if not queue_on:  # SQLite's busy handler alone
        event.remove(Engine, "before_cursor_execute", extensions._enter_writer_queue)
        event.remove(Pool, "reset", extensions._connection_reset)
        event.remove(Pool, "close", extensions._connection_closed)
    app = create_app({"SQLALCHEMY_DATABASE_URI": url})
    times: list[float] = []
    lock = threading.Lock()

    def recorder(n: int) -> None:
        with app.app_context():
            table = scoring.get_table(public_id)
            mine = []
            while time.time() < start_at:
                time.sleep(0.001)
            for i in range(HANDS):
                started = time.perf_counter()
                scoring.record_hand(table, facts(i), request_id=f"{tag}-{n}-{i}")
                mine.append(time.perf_counter() - started)
            db.session.remove()
        with lock:
            times.extend(mine)

    threads = [threading.Thread(target=recorder, args=(n,)) for n in range(THREADS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    out.send(json.dumps(times))


def one_round(url: str, public_id: str, queue_on, tag: str) -> dict:
    context = multiprocessing.get_context("spawn")
    start_at = time.time() + START_DELAY  # every process imported and ready
    pipes, processes = [], []
    for p in range(PROCESSES):
        parent, child = context.Pipe()
        process = context.Process(target=worker, args=(url, public_id, queue_on, start_at, f"{tag}-{p}", child))
        process.start()
        pipes.append(parent)
        processes.append(process)
    times = []
    for parent in pipes:
        times += json.loads(parent.recv())
    for process in processes:
        process.join()
    wall = max(0.001, time.time() - start_at)
    times.sort()

    def pct(q):
        return times[min(len(times) - 1, int(q * len(times)))] * 1000

    return {"p50": pct(0.50), "p95": pct(0.95), "p99": pct(0.99), "max": times[-1] * 1000,
            "rate": len(times) / wall, "load": " ".join(f"{x:.2f}" for x in os.getloadavg())}


def main() -> int:
    from companion import create_app, scoring
    from companion.extensions import db

    with tempfile.TemporaryDirectory() as tmp:
        url = f"sqlite:///{tmp}/writers.sqlite3"
        app = create_app({"SQLALCHEMY_DATABASE_URI": url})
        with app.app_context():
            db.create_all()
            public_id = scoring.create_table(game="gandengyan", name="writers", players=["Ann", "Bo", "Cy", "Di"],
                                             stake="0.5").public_id
            db.engine.dispose()
        results: dict = {True: [], False: [], "threads": []}
        for r in range(ROUNDS):
            for queue_on in (True, False, "threads"):
                results[queue_on].append(one_round(url, public_id, queue_on, f"r{r}-{queue_on}"))
        print(f"{PROCESSES} processes × {THREADS} threads recording {HANDS} hands each on one SQLite file "
              f"(WAL, synchronous FULL); medians of {ROUNDS} rounds, in turns")
        print(f"{'writers':<28} {'p50 ms':>7} {'p95 ms':>7} {'p99 ms':>7} {'max ms':>7} {'hands/s':>8}  load average")
        for queue_on, label in ((False, "SQLite's busy handler only"), ("threads", "thread lock only"),
                                (True, "queued (thread lock + flock)")):
            rows = results[queue_on]
            med = {k: statistics.median(r[k] for r in rows) for k in ("p50", "p95", "p99", "max", "rate")}
            print(f"{label:<28} {med['p50']:>7.1f} {med['p95']:>7.1f} {med['p99']:>7.1f} {med['max']:>7.1f} "
                  f"{med['rate']:>8.1f}  {', '.join(r['load'] for r in rows)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
