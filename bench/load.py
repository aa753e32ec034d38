"""make load: throughput and latency under load, each route beside a bare Flask hello world.

Seeds a 干瞪眼 table with 1,000 hands (SQLite in a temporary directory, and the database in
DATABASE_URL when set: ``make load`` starts a throwaway PostgreSQL with the durability settings
the project runs with — fsync and synchronous_commit on, unlike the test clusters), starts
gunicorn with 2 workers (gthread, 4 threads each) on a free loopback port, and drives it with
wrk. The baseline is NOT the app's own ``/healthz`` (which pays the app's hooks): it is a bare
Flask hello world (``bench/hello_app.py``) under the same gunicorn settings, run in turns with
each route so that each ratio compares runs seconds apart.

Routes: the app's own ``/healthz``; the live poll that finds nothing new (304, with a recorder's
session cookie, as a browser sends it); the table page of the 1,000-hand table as a recorder and
as a watcher; the history page; the table page and the history page of a second table of
10,000 hands (``LOAD_BIG_HANDS``, 0 to leave it out; ``LOAD_HANDS`` sets the first table's size); recording a hand through the JSON API with 2 and with 8
connections (p99 targets); then 20 watchers polling beside 2 recorders (every answer must be
200/201/304).

Each figure is the MEDIAN of ``LOAD_ROUNDS`` runs (3) of ``LOAD_SECONDS`` (1) each, with the min
and max beside it and the machine's load average when the route ran: on a shared machine a
single best run flatters and a single run misleads. Loopback only.
"""
from __future__ import annotations

import http.cookiejar
import json
import os
import re
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.parse
import urllib.request

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)
os.environ.setdefault("SECRET_KEY", "load-test-secret")

HANDS = int(os.environ.get("LOAD_HANDS", "1000"))  # the table every route uses
BIG_HANDS = int(os.environ.get("LOAD_BIG_HANDS", "10000"))  # a second table for the pages (0: none)
SECONDS = int(os.environ.get("LOAD_SECONDS", "1"))  # each run of a route
ROUNDS = int(os.environ.get("LOAD_ROUNDS", "3"))
HELLO_SECONDS = SECONDS
TOGETHER_SECONDS = 2
PLAYERS = ["Ann", "Bo", "Cy", "Di"]
# (label, key, connections, ratio target or None, p99 target in ms or None): the table
ROWS = [
    ("the app's own /healthz", "healthz", 10, None, None),
    ("live poll, 304", "state", 10, 0.60, None),
    ("table page, recorder", "page", 10, 0.15, None),
    ("table page, watcher", "page_watch", 10, 0.15, None),
    ("history page", "history", 10, 0.15, None),
    (f"table page, {BIG_HANDS:,} hands", "page_big", 10, 0.15, None),
    (f"history page, {BIG_HANDS:,} hands", "history_big", 10, 0.15, None),
    ("record a hand, c=2", "record2", 2, 0.10, 50.0),
    ("record a hand, c=8", "record8", 8, None, 100.0),
]

LUA = r"""
local expected = {}
for code in string.gmatch(os.getenv("EXPECT") or "200", "%d+") do expected[tonumber(code)] = true end
local threads = {}
local body_template = os.getenv("BODY")
local counter = 0
bad = 0

function setup(thread)
  thread:set("id", #threads + 1)
  table.insert(threads, thread)
end

local follow = os.getenv("FOLLOW_ETAG")
local etag = nil

function request()
  if follow and etag then
    return wrk.format(nil, nil, {["If-None-Match"] = etag})
  end
  if body_template then
    counter = counter + 1
    local body = string.gsub(body_template, "REQUEST_ID", "load-" .. id .. "-" .. counter .. "-" .. os.time())
    return wrk.format("POST", nil, nil, body)
  end
  return wrk.format(nil)
end

function response(status, headers, body)
  if not expected[status] then bad = bad + 1 end
  if follow and headers["ETag"] then etag = headers["ETag"] end
end

function done(summary, latency, requests)
  local unexpected = 0
  for _, thread in ipairs(threads) do unexpected = unexpected + thread:get("bad") end
  local e = summary.errors
  io.write(string.format("RESULT %d %d %d %d %.6f %.3f %.3f %.3f\n", summary.requests, unexpected,
    e.connect + e.read + e.write + e.timeout, e.status, summary.duration / 1e6,
    latency:percentile(50) / 1000, latency:percentile(95) / 1000, latency:percentile(99) / 1000))
end
"""


def facts(i: int) -> dict:
    winner = PLAYERS[i % 4]
    return {"winner": winner, "losers": {p: {"cards": 1 + (i + k) % 7, "jokers": (i + k) % 2}
                                         for k, p in enumerate(PLAYERS) if p != winner}}


def seed(url: str) -> tuple[str, str, float, str | None]:
    """1,000 hands recorded through scoring.record_hand, as the app records them (SQLite without
    fsync while seeding: the figures are taken afterwards, by gunicorn, with the app's settings);
    and a second table of BIG_HANDS (10,000) hands for the table page and the history page."""
    from sqlalchemy import event

    from companion import access, create_app, scoring
    from companion.extensions import db

    app = create_app({"SQLALCHEMY_DATABASE_URI": url})
    with app.app_context():
        event.listen(db.engine, "connect", lambda connection, _: connection.execute("PRAGMA synchronous=OFF"))
        db.create_all()
        table = scoring.create_table(game="gandengyan", name="load", players=PLAYERS, stake="0.5", currency="¥")
        start = time.perf_counter()
        for i in range(HANDS):
            scoring.record_hand(table, facts(i), request_id=f"seed-{i}")
        seconds = time.perf_counter() - start
        result = table.public_id, access.edit_token(table)
        big = None
        if BIG_HANDS:
            big_table = scoring.create_table(game="gandengyan", name="big", players=PLAYERS, stake="0.5",
                                             currency="¥")
            for i in range(BIG_HANDS):
                scoring.record_hand(big_table, facts(i), request_id=f"big-{i}")
            big = big_table.public_id
        db.session.remove()
        db.engine.dispose()
    return result[0], result[1], seconds, big


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def spawn_gunicorn(url: str | None, port: int, log_dir: str, app: str = "app:app") -> subprocess.Popen:
    # rate limits stay on (their count is part of a write's cost) but high enough for a load run
    env = {**os.environ, "DATABASE_URL": url or "", "PYTHONPATH": ROOT,
           "FLASK_RATE_LIMITS": json.dumps({"write": [10**9, 600], "open_table": [10**9, 3600],
                                             "heavy_read": [10**9, 600]})}
    gunicorn = os.path.join(os.path.dirname(sys.executable), "gunicorn")
    return subprocess.Popen(
        [gunicorn, "-w", "2", "-k", "gthread", "--threads", "4", "-b", f"127.0.0.1:{port}",
         "--error-logfile", os.path.join(log_dir, f"gunicorn-{port}.log"), app],
        cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)


def wait_for(process: subprocess.Popen, port: int, log_dir: str, path: str = "/healthz") -> None:
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline and process.poll() is None:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}{path}", timeout=1) as response:
                if response.status == 200:
                    return
        except (urllib.error.URLError, OSError):
            time.sleep(0.1)
    raise SystemExit(f"load: gunicorn did not start; see {log_dir}/gunicorn-{port}.log")


def stop(process: subprocess.Popen) -> None:
    """A throwaway server: kill its process group at once (no graceful shutdown to wait for)."""
    try:
        os.killpg(process.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
    process.wait(10)


def wrk_command(lua: str, url: str, connections: int, headers=(), expect="200", body=None, follow=False,
                seconds=None):
    env = {**os.environ, "EXPECT": expect}
    if body is not None:
        env["BODY"] = body
    if follow:  # like live.js: send the ETag of the last answer
        env["FOLLOW_ETAG"] = "1"
    command = ["wrk", "-t1", f"-c{connections}", f"-d{seconds or SECONDS}s", "--timeout", "5s", "-s", lua]
    for header in headers:
        command += ["-H", header]
    return command + [url], env


def parse(output: str) -> dict:
    for line in output.splitlines():
        if line.startswith("RESULT "):
            n, unexpected, socket_errors, status_errors, seconds, p50, p95, p99 = line.split()[1:]
            return {"requests": int(n), "rps": int(n) / float(seconds), "p50": float(p50), "p95": float(p95),
                    "p99": float(p99), "errors": int(unexpected) + int(socket_errors)}
    raise SystemExit("load: wrk gave no result:\n" + output)


def wrk(lua: str, url: str, connections: int, headers=(), **kwargs) -> dict:
    command, env = wrk_command(lua, url, connections, headers, **kwargs)
    done = subprocess.run(command, env=env, capture_output=True, text=True, timeout=SECONDS + 30)
    return parse(done.stdout)


def settle(url: str) -> None:
    """Wait until the server has worked off the requests wrk left queued when it stopped (a slow
    page's backlog would otherwise be paid by the next route's run)."""
    parts = urllib.parse.urlsplit(url)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        started = time.monotonic()
        try:
            urllib.request.urlopen(f"{parts.scheme}://{parts.netloc}/healthz", timeout=30).read()
        except (urllib.error.URLError, OSError):
            pass
        if time.monotonic() - started < 0.05:
            return


def load_average() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def paired(lua: str, hello_url: str, *args, **kwargs) -> dict:
    """The route and the bare hello world in turns, ROUNDS times; the MEDIAN run of each counts,
    with min and max kept (a shared machine: the best run flatters, one run misleads). The
    percentiles are the medians of the runs' percentiles."""
    hellos, runs = [], []
    for _ in range(ROUNDS):
        hellos.append(wrk(lua, hello_url, 10, seconds=HELLO_SECONDS))
        runs.append(wrk(lua, *args, seconds=SECONDS, **kwargs))
        settle(args[0])
    rps = [r["rps"] for r in runs]
    ratios = [r["rps"] / h["rps"] for r, h in zip(runs, hellos)]
    return {"rps": statistics.median(rps), "min": min(rps), "max": max(rps),
            "hello_rps": statistics.median(h["rps"] for h in hellos),
            "ratio": statistics.median(ratios), "ratio_min": min(ratios), "ratio_max": max(ratios),
            **{p: statistics.median(r[p] for r in runs) for p in ("p50", "p95", "p99")},
            "p99_max": max(r["p99"] for r in runs),
            "errors": sum(r["errors"] for r in runs), "load": load_average()}


def wrk_together(*runs) -> list[dict]:
    processes = []
    for args, kwargs in runs:
        command, env = wrk_command(*args, **kwargs)
        processes.append(subprocess.Popen(command, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                          text=True))
    return [parse(p.communicate(timeout=SECONDS + 30)[0]) for p in processes]


def recorder_cookie(base: str, public_id: str, token: str) -> str:
    """The session cookie of a phone that joined with the record link (a POST with the page's CSRF
    token, as static/join.js sends it)."""
    jar = http.cookiejar.CookieJar()
    opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar))
    page = opener.open(f"{base}/t/{public_id}", timeout=10).read().decode()
    csrf = re.search(r'name="csrf_token" value="([^"]+)"', page).group(1)
    opener.open(f"{base}/t/{public_id}/join", urllib.parse.urlencode({"csrf_token": csrf, "key": token}).encode(),
                timeout=10).read()
    return "; ".join(f"{c.name}={c.value}" for c in jar)


def current_etag(base: str, public_id: str) -> str:
    with urllib.request.urlopen(f"{base}/t/{public_id}/state", timeout=10) as response:
        return response.headers["ETag"]


def copy_database(source_url: str, target_url: str) -> None:
    """Copy every row of the seeded database into an empty one (the PostgreSQL run reuses the
    SQLite seed instead of recording 1,000 hands again), then move the id sequences on."""
    from sqlalchemy import create_engine, func, select, text

    from companion.extensions import db
    from companion import models  # noqa: F401  (fills the metadata)

    source, target = create_engine(source_url), create_engine(target_url)
    db.metadata.drop_all(target)
    db.metadata.create_all(target)
    with source.connect() as src, target.begin() as dst:
        for table in db.metadata.sorted_tables:
            rows = [dict(r._mapping) for r in src.execute(select(table))]
            if rows:
                dst.execute(table.insert(), rows)
            if target.dialect.name == "postgresql" and "id" in table.c:
                highest = dst.execute(select(func.max(table.c.id))).scalar() or 0
                dst.execute(text("SELECT setval(pg_get_serial_sequence(:t, 'id'), :n, :called)"),
                            {"t": table.name, "n": max(highest, 1), "called": highest > 0})
    source.dispose()
    target.dispose()


def run(base: str, hello: str, public_id: str, token: str, lua: str, big: str | None) -> tuple:
    cookie = recorder_cookie(base, public_id, token)
    etag = current_etag(base, public_id)
    body = json.dumps({"facts": facts(7), "request_id": "REQUEST_ID"})
    auth = [f"Authorization: Bearer {token}", "Content-Type: application/json"]
    table = f"{base}/t/{public_id}"
    results = {
        "healthz": paired(lua, hello, f"{base}/healthz", 10),
        "state": paired(lua, hello, f"{table}/state", 10, [f"If-None-Match: {etag}", f"Cookie: {cookie}"],
                        expect="304"),
        "page": paired(lua, hello, table, 10, [f"Cookie: {cookie}"]),
        "page_watch": paired(lua, hello, table, 10),
        "history": paired(lua, hello, f"{table}/history", 10),
        **({"page_big": paired(lua, hello, f"{base}/t/{big}", 10),
            "history_big": paired(lua, hello, f"{base}/t/{big}/history", 10)} if big else {}),
        "record2": paired(lua, hello, f"{base}/api/v1/tables/{public_id}/hands", 2, auth, expect="201", body=body),
        "record8": paired(lua, hello, f"{base}/api/v1/tables/{public_id}/hands", 8, auth, expect="201", body=body),
    }
    etag = current_etag(base, public_id)
    together = wrk_together(
        ((lua, f"{table}/state", 20, [f"If-None-Match: {etag}"]),
         {"expect": "200 304", "follow": True, "seconds": TOGETHER_SECONDS}),
        ((lua, f"{base}/api/v1/tables/{public_id}/hands", 2, auth),
         {"expect": "201", "body": body, "seconds": TOGETHER_SECONDS}))
    return results, together


def main() -> int:
    started = time.monotonic()
    if not shutil.which("wrk"):
        print("load: wrk is not installed (apt-get install wrk; make load installs it as root)")
        return 1
    pg_url = os.environ.pop("DATABASE_URL", None)  # set by scripts/with_pg.sh: the PostgreSQL run
    summary: dict = {}
    with tempfile.TemporaryDirectory() as tmp:
        lua = os.path.join(tmp, "load.lua")
        with open(lua, "w") as fh:
            fh.write(LUA)
        sqlite_url = f"sqlite:///{tmp}/load.sqlite3"
        runs = [("SQLite", sqlite_url)]
        if pg_url:
            from companion.config import database_url

            os.environ["DATABASE_URL"] = pg_url
            runs.append(("PostgreSQL", database_url(tmp)))
            del os.environ["DATABASE_URL"]
        # The servers boot while the table is seeded (the app needs no data to start).
        servers = [(kind, url, free_port()) for kind, url in runs]
        processes = [spawn_gunicorn(url, port, tmp) for _, url, port in servers]
        hello_port = free_port()
        hello = spawn_gunicorn(None, hello_port, tmp, app="bench.hello_app:app")
        processes.append(hello)
        try:
            wait_for(hello, hello_port, tmp, path="/")
            public_id, token, seeded, big = seed(sqlite_url)
            for _kind, url, _port in servers[1:]:
                copy_database(sqlite_url, url)  # the PostgreSQL run starts from the same 1,000 hands
            for (kind, _url, port), process in zip(servers, processes):
                wait_for(process, port, tmp)
                results, (watchers, recorders) = run(f"http://127.0.0.1:{port}", f"http://127.0.0.1:{hello_port}/",
                                                     public_id, token, lua, big)
                stop(process)
                summary[kind] = results
                report(kind, seeded, results, watchers, recorders)
            if len(summary) > 1:
                side_by_side(summary)
        finally:
            for process in processes:
                if process.poll() is None:
                    stop(process)
    print(f"\nmake load: {time.monotonic() - started:.0f} s in all")
    return 0


def verdict(r: dict, ratio_target, p99_target) -> str:
    if ratio_target is None and p99_target is None:
        return ""
    parts, ok = [], r["errors"] == 0
    if ratio_target is not None:
        parts.append(f"≥ {ratio_target:.0%}")
        ok = ok and r["ratio"] >= ratio_target
    if p99_target is not None:
        parts.append(f"p99 ≤ {p99_target:.0f} ms")
        ok = ok and r["p99"] <= p99_target
    return f"{', '.join(parts)}: {'met' if ok else 'MISSED'}"


def report(kind, seeded, results, watchers, recorders) -> None:
    print(f"\nmake load: {kind}, gunicorn -w 2 -k gthread --threads 4, wrk -t1, loopback; table of {HANDS} "
          f"hands (seeded in {seeded:.1f} s){f' and one of {BIG_HANDS:,}' if BIG_HANDS else ''}. Baseline: a bare Flask hello world under the same gunicorn. "
          f"Each figure: median of {ROUNDS} runs of {SECONDS} s (min–max), each run beside a hello run.")
    print(f"{'route':<28} {'conns':>5} {'req/s':>6} {'(min–max)':>11} {'hello':>6} {'ratio':>6} {'(min–max)':>13} "
          f"{'p50':>6} {'p95':>6} {'p99':>6} {'err':>4}  {'load average':<15} target")
    for label, key, conns, ratio_target, p99_target in ROWS:
        if key not in results:
            continue
        r = results[key]
        print(f"{label:<28} {conns:>5} {r['rps']:>6.0f} {r['min']:>5.0f}–{r['max']:<5.0f} {r['hello_rps']:>6.0f} "
              f"{r['ratio']:>6.1%} {r['ratio_min']:>6.1%}–{r['ratio_max']:<6.1%} {r['p50']:>6.1f} {r['p95']:>6.1f} "
              f"{r['p99']:>6.1f} {r['errors']:>4}  {r['load']:<15} {verdict(r, ratio_target, p99_target)}")
    for label, r, conns in (("with: 20 watchers", watchers, 20), ("with: 2 recorders", recorders, 2)):
        print(f"{label:<28} {conns:>5} {r['rps']:>6.0f} {'':>11} {'':>6} {'':>6} {'':>13} {r['p50']:>6.1f} "
              f"{r['p95']:>6.1f} {r['p99']:>6.1f} {r['errors']:>4}  {load_average():<15} "
              f"zero errors: {'met' if r['errors'] == 0 else 'MISSED'}")


def side_by_side(summary: dict) -> None:
    """The issue's table: each route as a share of the bare hello on both databases, p99 where it
    has a target, and the target."""
    kinds = list(summary)
    print("\nmake load: the issue's table (median ratio to the bare Flask hello; p99 in ms)")
    print(f"| route | {' | '.join(kinds)} | target |")
    print(f"|---|{'---|' * len(kinds)}---|")
    for label, key, _conns, ratio_target, p99_target in ROWS:
        if key not in summary[kinds[0]]:
            continue
        cells = []
        for kind in kinds:
            r = summary[kind][key]
            cell = f"{r['ratio']:.1%}"
            if p99_target is not None:
                cell += f", p99 {r['p99']:.0f} ms"
            cells.append(cell)
        target = ", ".join(x for x in (f"≥ {ratio_target:.0%}" if ratio_target else "",
                                        f"p99 ≤ {p99_target:.0f} ms" if p99_target else "") if x) or "—"
        print(f"| {label} | {' | '.join(cells)} | {target} |")


if __name__ == "__main__":
    sys.exit(main())
