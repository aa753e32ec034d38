"""The per-request floor, in one process: each route of the app beside a bare Flask hello-world,
both driven by the same kind of WSGI test client, on SQLite (or the database in DATABASE_URL).

Prints, for each route, requests per CPU second of this process (median of ``PATH_ROUNDS`` runs, min and max), the
ratio to the bare hello run in turns with it, the load average, and the issue's target:

* the app's own ``/healthz``                      (no target: the hooks' cost on a route doing nothing)
* the live poll that finds nothing new (304)      target >= 60 % of the bare hello
* recording a hand through the JSON API (201)     target >= 10 %

``PROFILE=1`` also prints a cProfile of the 304 poll (the functions that cost most, cumulative),
which is how the hooks' costs in docs/architecture.md were measured.
"""
from __future__ import annotations

import cProfile
import io
import os
import pstats
import statistics
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)
os.environ.setdefault("SECRET_KEY", "bench-secret")

from bench.sizes import size  # noqa: E402

ROUNDS = size("PATH_ROUNDS", 5, 1)
SECONDS = size("PATH_SECONDS", 0.5, 0.02)
PLAYERS = ["Ann", "Bo", "Cy", "Di"]
TARGETS = {"304 poll": 0.60, "record a hand": 0.10}


def load_average() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def bare_hello():
    from flask import Flask

    hello = Flask("hello")

    @hello.get("/")
    def index():
        return "hello"

    return hello.test_client(), "/"


def rate(call) -> float:
    """Calls per second of ``call`` over about SECONDS of this process's CPU time. (CPU time, not
    wall time: on a shared machine another process's burst must not count against a route; the
    database's own work still counts for SQLite, which runs in this process.)"""
    count, start = 0, time.process_time()
    deadline = start + SECONDS
    while time.process_time() < deadline:
        for _ in range(20):
            call()
        count += 20
    return count / (time.process_time() - start)


def facts(i):
    winner = PLAYERS[i % 4]
    return {"winner": winner, "losers": {p: {"cards": 1 + (i + k) % 7, "jokers": (i + k) % 2}
                                         for k, p in enumerate(PLAYERS) if p != winner}}


def main() -> int:
    from companion import access, create_app, scoring
    from companion.extensions import db

    with tempfile.TemporaryDirectory() as tmp:
        url = os.environ.get("DATABASE_URL") or f"sqlite:///{tmp}/bench.sqlite3"
        app = create_app({"SQLALCHEMY_DATABASE_URI": url, "RATELIMIT_ENABLED": True,
                          "RATE_LIMITS": {"write": (10**9, 600)}})
        with app.app_context():
            db.drop_all()
            db.create_all()
            table = scoring.create_table(game="gandengyan", name="bench", players=PLAYERS, stake="0.5")
            for i in range(20):
                scoring.record_hand(table, facts(i), request_id=f"seed-{i}")
            public_id, token = table.public_id, access.edit_token(table)
        client = app.test_client()
        hello, hello_path = bare_hello()
        counter = iter(range(10**9))
        etag = {}

        def poll():
            response = client.get(f"/t/{public_id}/state", headers={"If-None-Match": etag["now"]})
            assert response.status_code == 304, response.status_code

        def record():
            i = next(counter)
            response = client.post(f"/api/v1/tables/{public_id}/hands", json={"facts": facts(i),
                                   "request_id": f"bench-{i}"}, headers={"Authorization": f"Bearer {token}"})
            assert response.status_code == 201, response.get_data(as_text=True)[:300]

        routes = {"/healthz": lambda: client.get("/healthz"), "304 poll": poll, "record a hand": record}
        for call in (record, lambda: client.get("/healthz"), lambda: hello.get(hello_path)):  # warm up
            for _ in range(30):
                call()
        etag["now"] = client.get(f"/t/{public_id}/state").headers["ETag"]
        if os.environ.get("PROFILE"):
            profile(poll)
        print(f"request path, one process, WSGI test client, {db_name(url)}; {ROUNDS} rounds of {SECONDS} s")
        print(f"{'route':<16} {'req/s median':>12} {'(min–max)':>17} {'of hello':>9} {'(min–max)':>15} "
              f"{'target':>7}        load average")
        for name, call in routes.items():
            ratios, rates = [], []
            for _ in range(ROUNDS):
                base = rate(lambda: hello.get(hello_path))
                rates.append(rate(call))
                ratios.append(rates[-1] / base)
            target = TARGETS.get(name)
            ratio = statistics.median(ratios)
            verdict = "" if target is None else ("ok" if ratio >= target else "BELOW")
            print(f"{name:<16} {statistics.median(rates):>12.0f} {min(rates):>8.0f}–{max(rates):<8.0f} "
                  f"{ratio:>8.1%} {min(ratios):>7.1%}–{max(ratios):<7.1%} "
                  f"{'' if target is None else f'{target:.0%}':>7} {verdict:<5}  {load_average()}")
        print("  (each ratio: one round of the route over the bare hello run just before it; median of the rounds)")
        app_db_dispose(app)
    return 0


def db_name(url: str) -> str:
    return "PostgreSQL" if url.startswith("postgres") else "SQLite"


def app_db_dispose(app) -> None:
    from companion.extensions import db

    with app.app_context():
        db.engine.dispose()


def profile(call, runs: int = 3000) -> None:
    prof = cProfile.Profile()
    prof.enable()
    for _ in range(runs):
        call()
    prof.disable()
    out = io.StringIO()
    pstats.Stats(prof, stream=out).sort_stats("cumulative").print_stats(45)
    print(f"\ncProfile of {runs} polls (304), cumulative:")
    print(out.getvalue())


if __name__ == "__main__":
    sys.exit(main())
