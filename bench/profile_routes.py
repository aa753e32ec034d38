"""Where a route's time goes, in one process: cProfile of each route of ``make load`` beside the bare
Flask hello, with the SQL statements each request sends.

    .venv/bin/python bench/profile_routes.py [route ...]     (routes: poll page watch history record)

Seeds a 干瞪眼 table with ``PROFILE_HANDS`` hands (1,000) on SQLite (or the database in
DATABASE_URL), warms each route up (so a cache per table revision is warm, as under load: a
recorder's write makes a new revision, and the first request after it pays), then prints per
route: CPU microseconds of this process per request (the database's work too on SQLite), statements per request, and the functions that cost most
(cumulative). ``PROFILE_LINES`` sets how many functions (30). Loopback-free: WSGI test client.
"""
from __future__ import annotations

import cProfile
import io
import os
import pstats
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)
os.environ.setdefault("SECRET_KEY", "bench-secret")

from bench.load import facts  # noqa: E402  (the same hands as make load)

from bench.sizes import size  # noqa: E402

HANDS = size("PROFILE_HANDS", 1000, 5)
LINES = size("PROFILE_LINES", 30, 3)
RUNS = size("PROFILE_RUNS", 300, 2)


def main(names: list[str]) -> int:
    from sqlalchemy import event

    from companion import access, create_app, scoring
    from companion.extensions import db

    with tempfile.TemporaryDirectory() as tmp:
        url = os.environ.get("DATABASE_URL") or f"sqlite:///{tmp}/profile.sqlite3"
        app = create_app({"SQLALCHEMY_DATABASE_URI": url, "RATELIMIT_ENABLED": True,
                          "RATE_LIMITS": {"write": (10**9, 600), "heavy_read": (10**9, 600)}})
        with app.app_context():
            db.drop_all()
            db.create_all()
            table = scoring.create_table(game="gandengyan", name="profile", players=["Ann", "Bo", "Cy", "Di"],
                                         stake="0.5", currency="¥")
            for i in range(HANDS):
                scoring.record_hand(table, facts(i), request_id=f"seed-{i}")
            public_id, token = table.public_id, access.edit_token(table)
            engine = db.engine
        statements = [0]
        event.listen(engine, "before_cursor_execute", lambda *a: statements.__setitem__(0, statements[0] + 1))

        recorder = app.test_client()
        page = recorder.get(f"/t/{public_id}").get_data(as_text=True)
        import re
        csrf = re.search(r'name="csrf_token" value="([^"]+)"', page).group(1)
        recorder.post(f"/t/{public_id}/join", data={"csrf_token": csrf, "key": token})
        watcher = app.test_client()
        etag = recorder.get(f"/t/{public_id}/state").headers["ETag"]
        counter = iter(range(10**9))

        def record():
            i = next(counter)
            response = recorder.post(f"/api/v1/tables/{public_id}/hands", json={"facts": facts(i),
                                     "request_id": f"profile-{i}"}, headers={"Authorization": f"Bearer {token}"})
            assert response.status_code == 201, response.status_code

        from flask import Flask
        hello_app = Flask("hello")
        hello_app.get("/")(lambda: "hello")
        hello = hello_app.test_client()

        def expect(client, path, status, **kwargs):
            def call():
                response = client.get(path, **kwargs)
                assert response.status_code == status, (path, response.status_code)
            return call

        routes = {
            "hello": expect(hello, "/", 200),
            "healthz": expect(watcher, "/healthz", 200),
            "poll": expect(recorder, f"/t/{public_id}/state", 304, headers={"If-None-Match": etag}),
            "page": expect(recorder, f"/t/{public_id}", 200),
            "watch": expect(watcher, f"/t/{public_id}", 200),
            "history": expect(watcher, f"/t/{public_id}/history", 200),
            "record": record,
        }
        chosen = names or list(routes)
        for name in chosen:
            call = routes[name]
            for _ in range(5):
                call()
            if name == "record":  # the recorder's writes moved the revision: the poll's ETag too
                etag = recorder.get(f"/t/{public_id}/state").headers["ETag"]
            statements[0] = 0
            start = time.process_time()  # CPU time of this process: another process's burst does not count
            for _ in range(RUNS):
                call()
            per = (time.process_time() - start) / RUNS
            count = statements[0] / RUNS
            prof = cProfile.Profile()
            prof.enable()
            for _ in range(RUNS):
                call()
            prof.disable()
            out = io.StringIO()
            pstats.Stats(prof, stream=out).sort_stats("cumulative").print_stats(LINES)
            print(f"\n=== {name}: {per * 1e6:.0f} µs CPU per request, {count:.1f} SQL statements, "
                  f"load average {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
            if os.environ.get("PROFILE_QUIET") is None:
                print(out.getvalue())
        with app.app_context():
            db.engine.dispose()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
