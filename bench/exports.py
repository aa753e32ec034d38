"""Tokenless exporters against another table's live poll (issue 31): a 10,000-hand 干瞪眼 table is
exported over and over (CSV, JSON page, JSON API in turn; no If-None-Match, no token) by 8 clients at
once while 2 phones poll a small table's live block (``/t/<id>/state`` with its ETag, as app.js does).
The exporters are separate processes (as other machines would be), so that the pollers' timings do
not wait on the bench's own GIL; they read and drop the bytes. Gunicorn as `make run` starts it
(2 workers × 4 threads), SQLite in a temp folder, the export cache on. Reports, never fails.

**Under the server's real limits** (what the issue asks; ``EXPORT_RUNS`` runs, 3): the heavy-read
budget as shipped (120 units per 10 minutes per address), no trusted proxy, and each exporter from
an address of its own (127.x.y.2 … 127.x.y.9, loopback addresses Linux answers without setup; new
addresses every phase, so that each phase starts with a full budget). Each exporter loops as fast
as the server lets it: a *polite* one sleeps for the 429's Retry-After, a *hostile* one asks again
at once. Per run: the poll's p50 / p99 quiet, with 8 polite and with 8 hostile exporters, the
exports served and refused, the server's CPU and the load average; then the medians with min–max
over the runs and each p99 over its run's quiet p99.

**Behind nginx** (``EXPORT_NGINX``, 1): the same phases through the shipped ``deploy/nginx.conf`` (TLS, its
download limit per address), gunicorn with ``TRUSTED_PROXIES=1``, every client (pollers too) on a
kept-alive HTTPS connection, as browsers and scripts keep them; skipped without nginx.

**Stress (limit lifted)**: the heavy-read budget lifted to 10^9, so that every request is served:
the poll quiet and under 8 exporters with the cache on and ``Accept-Encoding: gzip`` (the kept
file's compressed copy), on and plain, and off (every export computed, as before issue 31). This is
what 8 addresses could do if the budget did not exist, not the issue's case.

The machine's other work shows in the load average: compare figures taken at a similar load.

    .venv/bin/python bench/exports.py     # EXPORT_HANDS=10000 EXPORTERS=8 SECONDS=15 EXPORT_RUNS=3
                                          # EXPORT_STRESS=0: skip the stress phases
                                          # EXPORT_NGINX=0: skip the phases behind nginx
                                          # EXPORT_PIN=1: exporters on a CPU of their own
"""
from __future__ import annotations

import http.client
import json
import multiprocessing
import os
import ssl
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)
sys.path.insert(0, os.path.join(ROOT, "bench"))
os.environ.setdefault("SECRET_KEY", "bench-secret")

from bench.sizes import size  # noqa: E402

HANDS = size("EXPORT_HANDS", 10000, 30)
EXPORTERS = size("EXPORTERS", 8, 1)
SECONDS = size("SECONDS", 15.0, 1.0)
RUNS = size("EXPORT_RUNS", 3, 1)
STRESS = size("EXPORT_STRESS", 1, 1)
NGINX_PHASES = size("EXPORT_NGINX", 1, 1)  # the same phases behind the shipped nginx site (0: not)
# EXPORT_PIN=1: the server and the pollers on CPU 0, the exporters on CPU 1, as if the exporters were
# other machines: on a 2-core machine their own reading (hundreds of MiB/s over loopback) would
# otherwise take the CPU the server needs, which no limit of the server can prevent.
PIN = os.environ.get("EXPORT_PIN", "0") == "1" and len(os.sched_getaffinity(0)) > 1
POLLERS = 2
LIFTED = {"write": [10**9, 600], "open_table": [10**9, 3600], "heavy_read": [10**9, 600]}


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


TLS: ssl.SSLContext | None = None  # set behind nginx: HTTPS, one kept-alive connection per client
_kept = threading.local()


def _kept_connections() -> dict:
    if getattr(_kept, "pid", None) != os.getpid():  # a forked exporter never reuses its parent's sockets
        _kept.pid, _kept.connections = os.getpid(), {}
    return _kept.connections


def get(url: str, headers=None, source: str | None = None) -> tuple[int, bytes, dict]:
    """One request from ``source`` when given (a loopback address of its own: the server sees another
    client): on a new connection (as urllib makes it), or behind nginx over HTTPS on the client's
    kept-alive connection (as a browser or a requests.Session keeps it; a closed one is opened again)."""
    parts = urllib.parse.urlsplit(url)
    for attempt in (0, 1):
        connection = _kept_connections().get(source) if TLS is not None and attempt == 0 else None
        reused = connection is not None
        if connection is None:
            connection = (http.client.HTTPSConnection(parts.hostname, parts.port, timeout=TIMEOUT, context=TLS,
                                                      source_address=(source, 0) if source else None)
                          if TLS is not None else
                          http.client.HTTPConnection(parts.hostname, parts.port, timeout=TIMEOUT,
                                                     source_address=(source, 0) if source else None))
        try:
            connection.request("GET", parts.path, headers=headers or {})
            response = connection.getresponse()
            answer = response.status, response.read(), dict(response.getheaders())
        except (OSError, http.client.HTTPException):
            connection.close()
            _kept_connections().pop(source, None)
            if reused:
                continue  # the kept connection was closed meanwhile: once more on a new one
            return 0, b"", {}
        if TLS is None or response.will_close:
            connection.close()
            _kept_connections().pop(source, None)
        else:
            _kept_connections()[source] = connection
        return answer
    return 0, b"", {}


def poll(base: str, small: str, stop: threading.Event, out: list) -> None:
    _status, _body, headers = get(f"{base}/t/{small}/state")
    etag = headers.get("ETag", "")
    while not stop.is_set():
        start = time.perf_counter()
        status, _body, _headers = get(f"{base}/t/{small}/state", {"If-None-Match": etag})
        out.append((time.perf_counter() - start) * 1000 if status in (200, 304) else TIMEOUT * 1000)
        time.sleep(0.02)


def export(base: str, big: str, i: int, stop, out, gzip: bool, source: str | None, polite: bool) -> None:
    """One exporter (a process): the three exports in turn until ``stop``; its timings go to ``out``.
    ``polite``: after a 429, wait what its Retry-After says (else ask again at once)."""
    if PIN:
        os.sched_setaffinity(0, {max(os.sched_getaffinity(0))})
    paths = [f"/t/{big}/export.csv", f"/t/{big}/export.json", f"/api/v1/tables/{big}/export"]
    headers = {"Accept-Encoding": "gzip"} if gzip else {}
    n = i
    done = []
    while not stop.is_set():
        start = time.perf_counter()
        status, body, answer = get(base + paths[n % len(paths)], headers, source)
        done.append(((time.perf_counter() - start) * 1000, status, len(body)))
        n += 1
        if status == 429 and polite:
            stop.wait(float(answer.get("Retry-After") or 60))
    out.put(done)


def phase(base: str, big: str, small: str, exporters: int, server_pids: list[int], gzip: bool = False,
          sources: list[str] | None = None, polite: bool = False) -> dict:
    from load import cpu_seconds

    stop = threading.Event()
    polls: list = []
    exports: list = []
    threads = [threading.Thread(target=poll, args=(base, small, stop, polls)) for _ in range(POLLERS)]
    context = multiprocessing.get_context("fork")
    halt, out = context.Event(), context.Queue()
    workers = [context.Process(target=export, args=(base, big, i, halt, out, gzip,
                                                    sources[i] if sources else None, polite))
               for i in range(exporters)]
    cpu = cpu_seconds(server_pids)
    started = time.perf_counter()
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
    wall = time.perf_counter() - started
    ok = [e for e in exports if e[1] == 200]
    return {"polls": len(polls), "poll_p50": percentile(polls, 50), "poll_p99": percentile(polls, 99),
            "exports": len(ok), "refused": sum(1 for e in exports if e[1] == 429),
            "failed": sum(1 for e in exports if e[1] not in (200, 429)),
            "export_p50": percentile([e[0] for e in ok], 50), "mib": sum(e[2] for e in ok) / 2**20,
            "server_cpu": 100 * (cpu_seconds(server_pids) - cpu) / wall,
            "load": " ".join(open("/proc/loadavg").read().split()[:3])}


def failed(r: dict) -> str:
    return f", other answers {r['failed']}" if r["failed"] else ""


def line(name: str, r: dict) -> str:
    return (f"{name:<22}: poll p50 {r['poll_p50']:7.1f} ms  p99 {r['poll_p99']:7.1f} ms ({r['polls']} polls); "
            f"exports {r['exports']} ({r['mib']:.0f} MiB, p50 {r['export_p50']:.0f} ms), refused {r['refused']}"
            f"{failed(r)}; "
            f"server CPU {r['server_cpu']:.0f} %; load average {r['load']}")


def spread(values: list[float], unit: str = " ms", digits: int = 1) -> str:
    return (f"{statistics.median(values):.{digits}f}{unit} ({min(values):.{digits}f}–{max(values):.{digits}f})"
            if values else "-")


def start(url: str, folder: str, cache: bool, extra: dict):
    from load import free_port, spawn_gunicorn, wait_for

    os.environ["FLASK_EXPORT_CACHE"] = json.dumps(cache)
    os.environ["FLASK_EXPORT_CACHE_DIR"] = json.dumps(os.path.join(folder, "exports"))
    port = free_port()
    server = spawn_gunicorn(url, port, folder, extra=extra)
    wait_for(server, port, folder)
    return server, f"http://127.0.0.1:{port}"


def warm_polls(base: str, small: str) -> None:
    """A few live polls before the quiet phase: each worker loads what its first request needs."""
    for _ in range(10):
        get(f"{base}/t/{small}/state")


def warm(base: str, big: str, gzip: bool) -> float:
    """The first CSV and JSON export (computed; the API's JSON is the same file): its seconds. Each from
    an address of its own: under the real limits one address's budget pays for one long export at once."""
    first = time.perf_counter()
    for n, path in enumerate((f"/t/{big}/export.csv", f"/t/{big}/export.json")):
        status, _body, _headers = get(base + path, {"Accept-Encoding": "gzip"} if gzip else {}, f"127.0.1.{2 + n}")
        if status != 200:
            print(f"warm-up: {path} answered {status}")
    return time.perf_counter() - first


def addresses(run: int, kind: int) -> list[str]:
    """Fresh loopback addresses for each phase (a full budget each): 127.<run>.<kind>.2 … ."""
    return [f"127.{10 + run}.{kind}.{2 + i}" for i in range(EXPORTERS)]


def real_limits(url: str, folder: str, big: str, small: str) -> None:
    """The issue's case: the heavy-read budget as shipped, each exporter an address of its own."""
    from load import stop

    # No FLASK_RATE_LIMITS: the defaults. No trusted proxy: the address is the connection's own.
    server, base = start(url, folder, True, {"FLASK_RATE_LIMITS": "{}", "TRUSTED_PROXIES": "0"})
    try:
        measured(base, big, small, server.pid, "real limits")
    finally:
        stop(server)


def behind_nginx(url: str, folder: str, big: str, small: str) -> None:
    """The same, through the shipped deploy/nginx.conf (TLS, its download limit per address) in front of
    gunicorn with TRUSTED_PROXIES=1, every client on a kept-alive HTTPS connection; skipped without nginx."""
    global TLS
    from pathlib import Path

    from load import stop

    sys.path[:0] = [os.path.join(ROOT, "tests"), os.path.join(ROOT, "tests", "deploy")]
    import proxy

    if proxy.missing_tools(("nginx", "libnss3-tools", "openssl")):
        print("behind nginx: skipped (nginx, certutil or openssl not installed; scripts/system_deps.sh installs them)")
        return
    server, base = start(url, folder, True, {"FLASK_RATE_LIMITS": "{}", "TRUSTED_PROXIES": "1"})
    try:
        certs = proxy.make_certs(Path(folder) / "certs")
        with proxy.https_proxy([int(base.rsplit(":", 1)[1])], Path(folder) / "nginx", certs=certs) as front:
            TLS = ssl.create_default_context(cafile=str(certs.ca))
            TLS.check_hostname = False  # the test name cards.test is not resolvable: the CA is checked
            try:
                measured(f"https://127.0.0.1:{front.port}", big, small, server.pid, "behind nginx")
            finally:
                TLS = None
    finally:
        stop(server)


def measured(base: str, big: str, small: str, pid: int, title: str) -> None:
    """Quiet, polite and hostile phases, RUNS times, and their medians."""
    runs = []
    warm_polls(base, small)
    warm(base, big, False)
    for run in range(RUNS):
        r = {"quiet": phase(base, big, small, 0, [pid]),
             "polite": phase(base, big, small, EXPORTERS, [pid], sources=addresses(run, 1), polite=True),
             "hostile": phase(base, big, small, EXPORTERS, [pid], sources=addresses(run, 2))}
        runs.append(r)
        for kind, result in r.items():
            label = "quiet" if kind == "quiet" else f"{EXPORTERS} {kind} exporters"
            print(line(f"{title} run {run + 1} {label}", result))
    print(f"{title}, {RUNS} run(s) of {SECONDS:.0f} s per phase, median (min–max):")
    for kind in ("quiet", "polite", "hostile"):
        p50 = [r[kind]["poll_p50"] for r in runs]
        p99 = [r[kind]["poll_p99"] for r in runs]
        ratio = [r[kind]["poll_p99"] / r["quiet"]["poll_p99"] for r in runs]
        served = [r[kind]["exports"] for r in runs]
        refused = [r[kind]["refused"] for r in runs]
        print(f"  {kind:<8} poll p50 {spread(p50)}  p99 {spread(p99)}  p99/quiet p99 {spread(ratio, '×', 2)}  "
              f"exports served {spread(served, '', 0)}, refused {spread(refused, '', 0)}")


def stress(url: str, folder: str, big: str, small: str) -> None:
    """The heavy-read budget lifted: what 8 addresses would do to the server without it."""
    from load import stop

    print(f"stress (heavy-read limit lifted to 10^9, {EXPORTERS} exporters from one address, one run):")
    for cache, gzip in ((True, True), (True, False), (False, False)):
        server, base = start(url, folder, cache, {"FLASK_RATE_LIMITS": json.dumps(LIFTED)})
        try:
            warm_polls(base, small)
            quiet = phase(base, big, small, 0, [server.pid])
            first = warm(base, big, gzip)
            busy = phase(base, big, small, EXPORTERS, [server.pid], gzip)
        finally:
            stop(server)
        name = ("cache on, gzip" if gzip else "cache on, plain") if cache else "cache off"
        print(line(f"stress {name} quiet", quiet))
        print(line(f"stress {name} busy", busy))
        print(f"stress {name}: the first CSV and JSON export took {first:.1f} s; p99 under exporters / quiet p99 = "
              f"{busy['poll_p99'] / quiet['poll_p99']:.1f}× (a poll not answered in {TIMEOUT:.0f} s counts as "
              f"{TIMEOUT:.0f} s)")


def main() -> None:
    if PIN:  # inherited by gunicorn and its workers; each exporter moves itself to the last CPU
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})
        print("pinned: server and pollers on one CPU, exporters on another (EXPORT_PIN=1)")
    folder = tempfile.mkdtemp(prefix="bench-exports-")
    url = f"sqlite:///{folder}/bench.db"
    started = time.perf_counter()
    big, small = build(url)
    print(f"{HANDS} hands built in {time.perf_counter() - started:.1f} s; {EXPORTERS} exporters, "
          f"{POLLERS} pollers, {SECONDS:.0f} s per phase")
    try:
        real_limits(url, folder, big, small)
        if NGINX_PHASES:
            behind_nginx(url, folder, big, small)
        if STRESS:
            stress(url, folder, big, small)
    finally:
        subprocess.run(["rm", "-rf", folder], check=False)


if __name__ == "__main__":
    main()
