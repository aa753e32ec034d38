"""make load: throughput and latency under load, side by side with a hello-world route.

Seeds a 干瞪眼 table with 1,000 hands (SQLite in a temporary directory, or the database in
DATABASE_URL: scripts/with_pg.sh gives a throwaway PostgreSQL), starts gunicorn with 2 workers
(gthread, 4 threads each) on a free loopback port, and drives it with wrk for a few seconds per
route:

* hello world: ``GET /healthz`` (no database, the same app and hooks): the 100 % line, run in
  turns with each route so that a ratio compares runs seconds apart
* the live poll that finds nothing new: ``GET /t/<id>/state`` with the current ETag (304) and
  the session cookie of a phone that may record (a browser sends it with every poll)
* the table page of a 1,000-hand table, as a phone that may record (share panel with both codes)
* recording a hand through the JSON API, 2 connections (two phones recording at once)
* 20 watchers polling (each sends the ETag of its last answer, as live.js does) and 2 recorders
  at the same time: every answer must be 200/201/304

Prints req/s, p50/p95/p99 and the ratio to hello world, against the issue's targets. Loopback
only; about 20 s per database after a seed of about 5 s (15 s on a busy machine).
``LOAD_SECONDS`` (1) and ``LOAD_ROUNDS`` (2) change the length and number of the runs.
"""
from __future__ import annotations

import http.cookiejar
import json
import os
import re
import shutil
import signal
import socket
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

HANDS = 1000
SECONDS = int(os.environ.get("LOAD_SECONDS", "1"))  # each run of a route
ROUNDS = int(os.environ.get("LOAD_ROUNDS", "2"))
HELLO_SECONDS = 1
TOGETHER_SECONDS = 2
PLAYERS = ["Ann", "Bo", "Cy", "Di"]
TARGETS = {"state": 0.50, "page": 0.10, "record": 0.05}
RECORD_P99_MS = 100.0

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


def seed(url: str) -> tuple[str, str, float]:
    """1,000 hands recorded through scoring.record_hand, as the app records them (SQLite without
    fsync while seeding: the figures are taken afterwards, by gunicorn, with the app's settings)."""
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
        db.session.remove()
        db.engine.dispose()
    return result[0], result[1], seconds


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def spawn_gunicorn(url: str, port: int, log_dir: str) -> subprocess.Popen:
    env = {**os.environ, "DATABASE_URL": url}
    gunicorn = os.path.join(os.path.dirname(sys.executable), "gunicorn")
    return subprocess.Popen(
        [gunicorn, "-w", "2", "-k", "gthread", "--threads", "4", "-b", f"127.0.0.1:{port}",
         "--error-logfile", os.path.join(log_dir, f"gunicorn-{port}.log"), "app:app"],
        cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)


def wait_for(process: subprocess.Popen, port: int, log_dir: str) -> None:
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline and process.poll() is None:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=1) as response:
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


def paired(lua: str, hello_url: str, *args, **kwargs) -> dict:
    """The route and hello world in turns, ROUNDS times, 1 s each; the best run of each counts
    (as timeit takes the minimum): the machine may be shared, and the best run is the one the
    rest of the machine disturbed least. Percentiles are those of the route's best run."""
    hellos, runs = [], []
    for _ in range(ROUNDS):
        hellos.append(wrk(lua, hello_url, 10, seconds=HELLO_SECONDS))
        runs.append(wrk(lua, *args, seconds=SECONDS, **kwargs))
    best = max(runs, key=lambda r: r["rps"])
    best["hello_rps"] = max(h["rps"] for h in hellos)
    best["errors"] = sum(r["errors"] for r in runs)
    return best


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


def run(base: str, public_id: str, token: str, lua: str) -> tuple:
    cookie = recorder_cookie(base, public_id, token)
    etag = current_etag(base, public_id)
    body = json.dumps({"facts": facts(7), "request_id": "REQUEST_ID"})
    auth = [f"Authorization: Bearer {token}", f"X-Edit-Token: {token}", "Content-Type: application/json"]
    hello = f"{base}/healthz"
    results = {
        "hello": wrk(lua, hello, 10),
        "state": paired(lua, hello, f"{base}/t/{public_id}/state", 10,
                        [f"If-None-Match: {etag}", f"Cookie: {cookie}"], expect="304"),
        "page": paired(lua, hello, f"{base}/t/{public_id}", 10, [f"Cookie: {cookie}"]),
        "record": paired(lua, hello, f"{base}/api/v1/tables/{public_id}/hands", 2, auth, expect="201",
                         body=body),
    }
    etag = current_etag(base, public_id)
    together = wrk_together(
        ((lua, f"{base}/t/{public_id}/state", 20, [f"If-None-Match: {etag}"]),
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
        try:
            public_id, token, seeded = seed(sqlite_url)
            for _kind, url, _port in servers[1:]:
                copy_database(sqlite_url, url)  # the PostgreSQL run starts from the same 1,000 hands
            for (kind, _url, port), process in zip(servers, processes):
                wait_for(process, port, tmp)
                results, (watchers, recorders) = run(f"http://127.0.0.1:{port}", public_id, token, lua)
                stop(process)
                report(kind, seeded, results, watchers, recorders)
        finally:
            for process in processes:
                if process.poll() is None:
                    stop(process)
    print(f"\nmake load: {time.monotonic() - started:.0f} s in all")
    return 0


def report(kind, seeded, results, watchers, recorders) -> None:
    hello = results["hello"]
    print(f"\nmake load: {kind}, gunicorn -w 2 --threads 4 (gthread), wrk -t1, loopback; table of {HANDS} "
          f"hands (seeded in {seeded:.1f} s). Each route runs {ROUNDS} times {SECONDS} s in turns with "
          f"{HELLO_SECONDS} s of hello world; best run of each.")
    print(f"{'route':<30} {'conns':>5} {'req/s':>7} {'hello':>7} {'ratio':>6} {'p50 ms':>7} {'p95 ms':>7} "
          f"{'p99 ms':>7} {'errors':>6}  target")
    print(f"{'hello world (GET /healthz)':<30} {10:>5} {hello['rps']:>7.0f} {hello['rps']:>7.0f} {1:>6.0%} "
          f"{hello['p50']:>7.1f} {hello['p95']:>7.1f} {hello['p99']:>7.1f} {hello['errors']:>6}")
    rows = [("state poll, unchanged (304)", "state", 10), ("table page, 1,000 hands", "page", 10),
            ("record a hand (JSON API)", "record", 2)]
    for label, key, conns in rows:
        r = results[key]
        ratio = r["rps"] / r["hello_rps"]
        ok = ratio >= TARGETS[key] and r["errors"] == 0
        if key == "record":
            ok = ok and r["p99"] <= RECORD_P99_MS
            verdict = f"≥ {TARGETS[key]:.0%}, p99 ≤ {RECORD_P99_MS:.0f} ms: {'met' if ok else 'MISSED'}"
        else:
            verdict = f"≥ {TARGETS[key]:.0%}: {'met' if ok else 'MISSED'}"
        print(f"{label:<30} {conns:>5} {r['rps']:>7.0f} {r['hello_rps']:>7.0f} {ratio:>6.1%} {r['p50']:>7.1f} "
              f"{r['p95']:>7.1f} {r['p99']:>7.1f} {r['errors']:>6}  {verdict}")
    for label, r, conns in (("together: 20 watchers polling", watchers, 20), ("together: 2 recorders", recorders, 2)):
        print(f"{label:<30} {conns:>5} {r['rps']:>7.0f} {'':>7} {'':>6} {r['p50']:>7.1f} {r['p95']:>7.1f} "
              f"{r['p99']:>7.1f} {r['errors']:>6}  zero errors: {'met' if r['errors'] == 0 else 'MISSED'}")


if __name__ == "__main__":
    sys.exit(main())
