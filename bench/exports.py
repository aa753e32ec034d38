"""Tokenless exporters against another table's live poll (issue 31): a 10,000-hand 干瞪眼 table is
exported over and over (CSV, JSON page, JSON API; no If-None-Match, no token, 8 clients at once)
while 2 phones poll a small table's live block (``/t/<id>/state`` with its ETag, as app.js does).
The exporters are separate processes (as other machines would be), so that the pollers' timings
do not wait on the bench's own GIL; they read and drop the bytes (they do not decompress them).
Gunicorn as `make run` starts it (2 workers × 4 threads), SQLite in a temp folder. Reports, never
fails: the poll's p50 / p99 quiet, then under the exporters with the export cache off (every export
computed, as before issue 31), on (computed once per revision, then served from the kept file) and
on with ``Accept-Encoding: gzip`` as browsers send it (the kept file's compressed copy, written once),
the exports served, and the load average. The machine's other work shows in the load average: compare
figures taken at a similar load.

    .venv/bin/python bench/exports.py            # EXPORT_HANDS=10000 EXPORTERS=8 SECONDS=15
"""
from __future__ import annotations

import json
import multiprocessing
import os
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)
sys.path.insert(0, os.path.join(ROOT, "bench"))
os.environ.setdefault("SECRET_KEY", "bench-secret")

from bench.sizes import size  # noqa: E402

HANDS = size("EXPORT_HANDS", 10000, 30)
EXPORTERS = size("EXPORTERS", 8, 1)
SECONDS = size("SECONDS", 15.0, 1.0)
POLLERS = 2


def build(url: str) -> tuple[str, str]:
    """(the big table's id, the small table's id)."""
    from review import PLAYERS, fill

    from companion import create_app, scoring
    from companion.extensions import db

    app = create_app({"SQLALCHEMY_DATABASE_URI": url})
    with app.app_context():
        db.create_all()
        big = scoring.create_table(game="gandengyan", name="Long night", players=PLAYERS, stake="1")
        fill(big, HANDS)
        small = scoring.create_table(game="gandengyan", name="Live", players=PLAYERS, stake="1")
        scoring.record_hand(small, {"winner": "Ann", "losers": {p: {"cards": 2} for p in PLAYERS[1:]}},
                            request_id="one")
        ids = big.public_id, small.public_id
        db.session.remove()
        db.engine.dispose()
    return ids


def percentile(values, q):
    values = sorted(values)
    return values[min(len(values) - 1, max(0, round(q / 100 * (len(values) - 1))))] if values else float("nan")


TIMEOUT = 30.0  # seconds: a request not answered by then counts as timed out (status 0)


def get(url: str, headers=None) -> tuple[int, bytes, dict]:
    request = urllib.request.Request(url, headers=headers or {})
    try:
        with urllib.request.urlopen(request, timeout=TIMEOUT) as response:
            return response.status, response.read(), dict(response.headers)
    except urllib.error.HTTPError as error:
        return error.code, error.read(), dict(error.headers)
    except (urllib.error.URLError, OSError):
        return 0, b"", {}


def poll(base: str, small: str, stop: threading.Event, out: list) -> None:
    _status, _body, headers = get(f"{base}/t/{small}/state")
    etag = headers.get("ETag", "")
    while not stop.is_set():
        start = time.perf_counter()
        status, _body, _headers = get(f"{base}/t/{small}/state", {"If-None-Match": etag})
        out.append((time.perf_counter() - start) * 1000 if status in (200, 304) else TIMEOUT * 1000)
        time.sleep(0.02)


def export(base: str, big: str, i: int, stop, out, gzip: bool) -> None:
    """One exporter (a process): the three exports in turn until ``stop``; its timings go to ``out``."""
    paths = [f"/t/{big}/export.csv", f"/t/{big}/export.json", f"/api/v1/tables/{big}/export"]
    headers = {"Accept-Encoding": "gzip"} if gzip else {}
    n = i
    done = []
    while not stop.is_set():
        start = time.perf_counter()
        status, body, _headers = get(base + paths[n % len(paths)], headers)
        done.append(((time.perf_counter() - start) * 1000, status, len(body)))
        n += 1
    out.put(done)


def phase(base: str, big: str, small: str, exporters: int, gzip: bool = False) -> dict:
    stop = threading.Event()
    polls: list = []
    exports: list = []
    threads = [threading.Thread(target=poll, args=(base, small, stop, polls)) for _ in range(POLLERS)]
    context = multiprocessing.get_context("fork")
    halt, out = context.Event(), context.Queue()
    workers = [context.Process(target=export, args=(base, big, i, halt, out, gzip)) for i in range(exporters)]
    for worker in workers:
        worker.start()
    for thread in threads:
        thread.start()
    time.sleep(SECONDS)
    stop.set()
    halt.set()
    for thread in threads:
        thread.join(120)
    for _worker in workers:
        exports.extend(out.get(timeout=120))
    for worker in workers:
        worker.join(10)
    load = open("/proc/loadavg").read().split()[:3]
    ok = [e for e in exports if e[1] == 200]
    return {"polls": len(polls), "poll_p50": percentile(polls, 50), "poll_p99": percentile(polls, 99),
            "exports": len(ok), "refused": len(exports) - len(ok),
            "export_p50": percentile([e[0] for e in ok], 50), "mib": sum(e[2] for e in ok) / 2**20,
            "load": " ".join(load)}


def main() -> None:
    from load import free_port, spawn_gunicorn, stop, wait_for

    folder = tempfile.mkdtemp(prefix="bench-exports-")
    url = f"sqlite:///{folder}/bench.db"
    started = time.perf_counter()
    big, small = build(url)
    print(f"{HANDS} hands built in {time.perf_counter() - started:.1f} s; {EXPORTERS} exporters, "
          f"{POLLERS} pollers, {SECONDS:.0f} s per phase")
    for cache, gzip in ((True, True), (True, False), (False, False)):
        os.environ["FLASK_EXPORT_CACHE"] = json.dumps(cache)
        os.environ["FLASK_EXPORT_CACHE_DIR"] = json.dumps(os.path.join(folder, "exports"))
        port = free_port()
        server = spawn_gunicorn(url, port, folder)
        try:
            wait_for(server, port, folder)
            base = f"http://127.0.0.1:{port}"
            quiet = phase(base, big, small, 0)
            first = time.perf_counter()
            for path in (f"/t/{big}/export.csv", f"/t/{big}/export.json"):  # the first of each: computed
                get(base + path, {"Accept-Encoding": "gzip"} if gzip else {})
            first = time.perf_counter() - first
            busy = phase(base, big, small, EXPORTERS, gzip)
        finally:
            stop(server)
        name = ("cache on, gzip" if gzip else "cache on, plain") if cache else "cache off     "
        for label, r in (("quiet", quiet), (f"{EXPORTERS} exporters", busy)):
            print(f"{name} {label:>12}: poll p50 {r['poll_p50']:7.1f} ms  p99 {r['poll_p99']:7.1f} ms "
                  f"({r['polls']} polls); exports {r['exports']} ({r['mib']:.0f} MiB, p50 {r['export_p50']:.0f} ms, "
                  f"refused {r['refused']}); load average {r['load']}")
        print(f"{name}: the first CSV and JSON export took {first:.1f} s; p99 under exporters / quiet p99 = "
              f"{busy['poll_p99'] / quiet['poll_p99']:.1f}× (a poll not answered in {TIMEOUT:.0f} s counts as "
              f"{TIMEOUT:.0f} s)")
    subprocess.run(["rm", "-rf", folder], check=False)


if __name__ == "__main__":
    main()
