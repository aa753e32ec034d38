"""make load: how many tables one small server holds during an evening.

The evening mix (``bench/evening.lua``), per table-minute: 80 live polls that send the ETag of
their last answer (4 phones every 3 s, as ``static/js/live.js`` does), 4 table-page loads and 1 hand
recorded through the JSON API, each request to a table drawn at random. wrk drives it with 8
connections, one per thread, closed loop (the next request leaves when the answer is in), on
loopback against gunicorn ``-w 2 -k gthread --threads 4`` (the ``make run`` layout), on SQLite and
(when DATABASE_URL is set: ``make load`` starts a throwaway PostgreSQL with fsync and
synchronous_commit on) PostgreSQL.

Two measures, each beside a bare Flask hello world (``bench/hello_app.py``) under the same
gunicorn answering the same requests:

* **ceiling**: the mix as fast as the server answers over ``LOAD_TABLES`` tables (100) of
  ``LOAD_TABLE_HANDS`` hands (20); N = requests/s × 60 / 85 tables. The app's runs and the hello's
  alternate, ``LOAD_ROUNDS`` (3) rounds of ``LOAD_SECONDS`` (10) s; N_app, N_hello and their
  ratio are the medians, with min and max.
* **steps**: the mix paced at N tables' rate (N × 85 / 60 requests/s) over N seeded tables, N =
  ``LOAD_STEPS`` (25, 50, 100, 200 …); a step holds when every round's answers were all as
  expected (no error), the median p99 is ≤ ``LOAD_P99_MS`` (200) and the median rate reached 95 %
  of the paced one. It stops at the first step that does not hold, then tries the middle of the
  last gap once; the largest step held is the capacity.

Every line carries the load average and the CPU of the client (wrk), the server (gunicorn's
processes) and, for PostgreSQL, the database (the postmaster's processes), in % of one core.
``LOAD_TINY=1`` (or ``BENCH_TINY=1``) runs a seconds-long version (2 tables of 2 hands, 1 round of 1 s, one step of 2 tables): the
smoke test ``tests/web/test_load_smoke.py`` runs it. Loopback only.
"""
from __future__ import annotations

import json
import os
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)
os.environ.setdefault("SECRET_KEY", "load-test-secret")

from bench.sizes import TINY as BENCH_TINY  # noqa: E402  (BENCH_TINY=1: the suite runs every bench script small)

TINY = os.environ.get("LOAD_TINY") == "1" or BENCH_TINY
_DEFAULTS = {"TABLES": "2", "TABLE_HANDS": "2", "SECONDS": "1", "STEP_SECONDS": "1", "ROUNDS": "1",
             "STEPS": "2"} if TINY else \
    {"TABLES": "100", "TABLE_HANDS": "20", "SECONDS": "10", "STEP_SECONDS": "5", "ROUNDS": "3",
     "STEPS": "25,50,100,200,400,800,1600,3200,6400,12800"}


def _setting(name: str) -> str:
    return os.environ.get(f"LOAD_{name}", _DEFAULTS[name])


TABLES = int(_setting("TABLES"))
TABLE_HANDS = int(_setting("TABLE_HANDS"))
SECONDS = int(_setting("SECONDS"))
STEP_SECONDS = int(_setting("STEP_SECONDS"))
ROUNDS = int(_setting("ROUNDS"))
STEPS = [int(n) for n in _setting("STEPS").split(",")]
P99_MS = float(os.environ.get("LOAD_P99_MS", "200"))
PER_TABLE_MINUTE = 85  # 80 polls + 4 pages + 1 hand
THREADS = 8
WARM_SECONDS = 1 if TINY else 3  # a warm-up run before the measured ones (not counted)
LUA = os.path.join(ROOT, "bench", "evening.lua")
PLAYERS = ["Ann", "Bo", "Cy", "Di"]
TICK = os.sysconf("SC_CLK_TCK")


def facts(i: int) -> dict:
    winner = PLAYERS[i % 4]
    return {"winner": winner, "losers": {p: {"cards": 1 + (i + k) % 7, "jokers": (i + k) % 2}
                                         for k, p in enumerate(PLAYERS) if p != winner}}


def tables_for(rps: float) -> float:
    return rps * 60 / PER_TABLE_MINUTE


class Seeder:
    """Tables of TABLE_HANDS hands each, recorded through scoring as the app records them (without
    waiting for the disk while seeding: SQLite's synchronous=OFF, PostgreSQL's synchronous_commit
    off on the seeding connection only; the servers keep their durable settings). ``ensure(n)``
    adds tables until there are n and writes the list wrk reads, with each table's revision (the
    phones of a table start with the ETag of the page they hold, as after a page load)."""

    def __init__(self, url: str, path: str):
        from sqlalchemy import event

        from companion import create_app
        from companion.extensions import db

        self.url, self.path, self.tables, self.seconds = url, path, [], 0.0
        self.app = create_app({"SQLALCHEMY_DATABASE_URI": url})
        sqlite = url.startswith("sqlite")
        with self.app.app_context():
            def no_wait(connection, _):
                cursor = connection.cursor()
                cursor.execute("PRAGMA synchronous=OFF" if sqlite else "SET synchronous_commit = off")
                cursor.close()
            event.listen(db.engine, "connect", no_wait)
            db.create_all()

    def ensure(self, n: int) -> str:
        from sqlalchemy import select

        from companion import access, scoring
        from companion.extensions import db
        from companion.db.models import Table

        if len(self.tables) < n:
            start = time.perf_counter()
            with self.app.app_context():
                while len(self.tables) < n:
                    table = scoring.create_table(game="gandengyan", name=f"load {len(self.tables)}",
                                                 players=PLAYERS, stake="0.5", currency="¥")
                    for i in range(TABLE_HANDS):
                        scoring.record_hand(table, facts(i), request_id=f"seed-{i}")
                    self.tables.append((table.public_id, access.edit_token(table)))
            self.seconds += time.perf_counter() - start
        with self.app.app_context():  # each table's revision now: its phones hold the page of it
            revisions = dict(db.session.execute(select(Table.public_id, Table.revision)).all())
            db.session.remove()
        with open(self.path, "w") as fh:
            fh.writelines(f"{public_id} {token} {revisions[public_id]}\n" for public_id, token in self.tables[:n])
        return self.path

    def close(self) -> None:
        from companion.extensions import db

        with self.app.app_context():
            db.session.remove()
            db.engine.dispose()


def seeder_free_list(folder: str) -> str:
    """A list of made-up tables for the hello's warm-up (it answers any path)."""
    path = os.path.join(folder, "hello-tables.txt")
    with open(path, "w") as fh:
        fh.write("hello token 1\n")
    return path


def warm(base: str, tables_file: str, passes: int = 2) -> None:
    """Before the measured runs: every table's page loaded ``passes`` times, each on a new
    connection (so both workers see it), 8 at a time: the workers start the evening with what a
    busy evening keeps (their page caches), not with a cold start. Not measured."""
    from concurrent.futures import ThreadPoolExecutor

    paths = [f"/t/{line.split()[0]}" for line in open(tables_file)] * passes

    def get(path: str) -> None:
        try:
            urllib.request.urlopen(base + path, timeout=60).read()
        except (urllib.error.URLError, OSError):
            pass

    with ThreadPoolExecutor(THREADS) as pool:
        list(pool.map(get, paths))


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def spawn_gunicorn(url: str | None, port: int, log_dir: str, app: str = "app:app",
                   extra: dict | None = None) -> subprocess.Popen:
    # Rate limits stay on (their count is part of a write's cost) but high enough for a load run;
    # one trusted proxy, so that each table's phones count under their own address (X-Forwarded-For).
    # ``extra``: environment that wins over these (bench/exports.py: the server's real limits).
    env = {**os.environ, "DATABASE_URL": url or "", "PYTHONPATH": ROOT, "TRUSTED_PROXIES": "1",
           "FLASK_RATE_LIMITS": json.dumps({"write": [10**9, 600], "open_table": [10**9, 3600],
                                             "heavy_read": [10**9, 600]}), **(extra or {})}
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


def load_average() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def _cpu_ticks(pid: int) -> int:
    try:
        with open(f"/proc/{pid}/stat") as fh:
            fields = fh.read().rsplit(")", 1)[1].split()
        return int(fields[11]) + int(fields[12])  # utime, stime
    except (OSError, IndexError, ValueError):
        return 0


def _children(pid: int) -> list[int]:
    out = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as fh:
                    if int(fh.read().rsplit(")", 1)[1].split()[1]) == pid:
                        out.append(int(entry))
            except (OSError, IndexError, ValueError):
                pass
    return out


def cpu_seconds(root_pids: list[int]) -> float:
    """CPU seconds used so far by these processes and their children (gunicorn's master and workers;
    the postmaster and its backends)."""
    pids = set(root_pids)
    for pid in root_pids:
        pids.update(_children(pid))
    return sum(_cpu_ticks(pid) for pid in pids) / TICK


def postmaster_pid(url: str) -> int | None:
    """The PostgreSQL server's own process (the parent of this connection's backend)."""
    import psycopg
    from sqlalchemy.engine import make_url

    plain = make_url(url).set(drivername="postgresql").render_as_string(hide_password=False)
    with psycopg.connect(plain) as conn:  # read while the backend lives
        backend = conn.execute("SELECT pg_backend_pid()").fetchone()[0]
        try:
            with open(f"/proc/{backend}/stat") as fh:
                return int(fh.read().rsplit(")", 1)[1].split()[1])
        except OSError:  # another machine
            return None


def wrk(base: str, tables_file: str, seconds: int, rate: float = 0, hello: bool = False,
        servers: tuple[list[int], list[int]] = ([], [])) -> dict:
    """One run of the mix; the counts and percentiles from the script, the CPU of wrk, the server
    and the database in % of one core."""
    env = {**os.environ, "TABLES": tables_file, "RATE": f"{rate:.3f}", "HELLO": "1" if hello else "0",
           "RUN": f"{time.time_ns() % 10**12}", "THREADS": str(THREADS)}
    command = ["wrk", f"-t{THREADS}", f"-c{THREADS}", f"-d{seconds}s", "--timeout", "5s", "-s", LUA, base]
    app_pids, db_pids = servers
    app_before, db_before = cpu_seconds(app_pids), cpu_seconds(db_pids)
    started = time.monotonic()
    process = subprocess.Popen(command, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    out, err = process.stdout.read(), process.stderr.read()  # wrk writes little to stderr
    _, status, usage = os.wait4(process.pid, 0)  # reaped here, with its CPU time
    process.returncode = os.waitstatus_to_exitcode(status)
    wall = time.monotonic() - started
    line = next((x for x in out.splitlines() if x.startswith("MIX ")), None)
    if line is None:
        raise SystemExit(f"load: wrk gave no result:\n{out}\n{err}")
    r: dict = {}
    for item in line.split()[1:]:
        key, value = item.split("=", 1)
        r[key] = value if key == "example" else float(value)
    r["rps"] = r["requests"] / r["seconds"]
    r["errors"] = int(r["socket_errors"] + r["bad"])
    r["client_cpu"] = 100 * (usage.ru_utime + usage.ru_stime) / wall
    r["server_cpu"] = 100 * (cpu_seconds(app_pids) - app_before) / wall
    # requests per CPU second of the server (and database): what a busy machine's scheduler changes least
    used = (cpu_seconds(app_pids) - app_before) + ((cpu_seconds(db_pids) - db_before) if db_pids else 0)
    r["per_cpu"] = r["requests"] / used if used > 0 else 0.0
    r["db_cpu"] = 100 * (cpu_seconds(db_pids) - db_before) / wall if db_pids else None
    r["load"] = load_average()
    return r


def median_of(runs: list[dict], key: str) -> tuple[float, float, float]:
    values = [r[key] for r in runs]
    return statistics.median(values), min(values), max(values)


def ceiling(app_base: str, hello_base: str, seeder: Seeder, app_pids, hello_pids, db_pids) -> dict:
    """The mix as fast as each server answers, the app's runs and the hello's in turns."""
    apps, hellos = [], []
    for _ in range(ROUNDS):
        tables_file = seeder.ensure(TABLES)
        hellos.append(wrk(hello_base, tables_file, SECONDS, hello=True, servers=(hello_pids, [])))
        apps.append(wrk(app_base, tables_file, SECONDS, servers=(app_pids, db_pids)))
        settle(app_base)
    for r in apps + hellos:
        r["tables"] = tables_for(r["rps"])
    ratios = [a["rps"] / h["rps"] for a, h in zip(apps, hellos)]
    cpu_ratios = [a["per_cpu"] / h["per_cpu"] for a, h in zip(apps, hellos) if h["per_cpu"]]
    return {"app": apps, "hello": hellos, "ratio": (statistics.median(ratios), min(ratios), max(ratios)),
            "cpu_ratio": (statistics.median(cpu_ratios), min(cpu_ratios), max(cpu_ratios)) if cpu_ratios else (0, 0, 0)}


def settle(base: str) -> None:
    """Wait until the server has worked off what wrk left queued (a backlog would be paid by the next run)."""
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        started = time.monotonic()
        try:
            urllib.request.urlopen(f"{base}/healthz", timeout=30).read()
        except (urllib.error.URLError, OSError):
            pass
        if time.monotonic() - started < 0.05:
            return


def step(base: str, seeder: Seeder | None, tables_file: str, n: int, servers, hello: bool) -> dict:
    rate = n * PER_TABLE_MINUTE / 60
    runs = []
    if seeder:
        warm(base, seeder.ensure(n))
    for _ in range(ROUNDS):
        path = seeder.ensure(n) if seeder else tables_file
        runs.append(wrk(base, path, STEP_SECONDS, rate=rate, hello=hello, servers=servers))
        if not hello:
            settle(base)
    result = {"tables": n, "rate": rate, "runs": runs,
              **{k: median_of(runs, k)[0] for k in ("rps", "p50", "p99", "record_p99", "page_p99", "poll_p99",
                                                     "client_cpu", "server_cpu")},
              "db_cpu": median_of(runs, "db_cpu")[0] if runs[0]["db_cpu"] is not None else None,
              "p99_max": max(r["p99"] for r in runs), "errors": sum(r["errors"] for r in runs),
              "example": next((r["example"] for r in runs if r["example"] != "-"), ""), "load": load_average()}
    result["held"] = result["errors"] == 0 and result["p99"] <= P99_MS and result["rps"] >= 0.95 * rate
    return result


def ladder(label: str, base: str, seeder: Seeder | None, tables_file: str, servers, hello: bool = False) -> int:
    """Step up the tables until a step does not hold, then try the middle of the last gap once."""
    print(f"\n{label}: the mix paced at N tables (N × 85 / 60 req/s), {ROUNDS} × {STEP_SECONDS} s per step; "
          f"holds: no error, median p99 ≤ {P99_MS:.0f} ms, median rate ≥ 95 % of the paced one")
    print(f"{'tables':>7} {'paced':>7} {'req/s':>7} {'p50':>6} {'p99':>6} {'(max)':>6} {'poll99':>6} {'page99':>6} "
          f"{'hand99':>6} {'err':>4} {'client':>6} {'server':>6} {'db':>5}  {'load average':<15} held")
    held, failed = 0, None

    def one(n: int) -> bool:
        r = step(base, seeder, tables_file, n, servers, hello)
        db = f"{r['db_cpu']:>4.0f}%" if r["db_cpu"] is not None else f"{'–':>5}"
        print(f"{n:>7} {r['rate']:>7.0f} {r['rps']:>7.0f} {r['p50']:>6.1f} {r['p99']:>6.1f} {r['p99_max']:>6.1f} "
              f"{r['poll_p99']:>6.1f} {r['page_p99']:>6.1f} {r['record_p99']:>6.1f} {r['errors']:>4} "
              f"{r['client_cpu']:>5.0f}% {r['server_cpu']:>5.0f}% {db}  {r['load']:<15} "
              f"{'yes' if r['held'] else 'NO'}{'  (' + r['example'] + ')' if r['errors'] else ''}", flush=True)
        return r["held"]

    for n in STEPS:
        if one(n):
            held = n
        else:
            failed = n
            break
    if failed and held and failed - held > 1:
        middle = (held + failed) // 2
        if one(middle):
            held = middle
    return held


def report_ceiling(label: str, c: dict) -> None:
    print(f"\n{label}: the mix as fast as the server answers ({THREADS} connections, closed loop, "
          f"{TABLES} tables of {TABLE_HANDS} hands); N = req/s × 60 / 85; {ROUNDS} rounds of {SECONDS} s, "
          f"app and hello in turns")
    print(f"{'':<7} {'req/s':>7} {'N':>6} {'p50':>6} {'p99':>6} {'hand50':>6} {'hand99':>6} {'polls':>7} {'304s':>5} "
          f"{'pages':>6} {'hands':>5} {'err':>4} {'client':>6} {'server':>6} {'db':>5} {'req/CPU-s':>9}  load average")
    for name in ("app", "hello"):
        for r in c[name]:
            db = f"{r['db_cpu']:>4.0f}%" if r["db_cpu"] is not None else f"{'–':>5}"
            share = r["polls304"] / r["polls"] if r["polls"] else 0
            print(f"{name:<7} {r['rps']:>7.0f} {r['tables']:>6.0f} {r['p50']:>6.1f} {r['p99']:>6.1f} "
                  f"{r['record_p50']:>6.1f} {r['record_p99']:>6.1f} {r['polls']:>7.0f} {share:>5.0%} {r['pages']:>6.0f} "
                  f"{r['records']:>5.0f} {r['errors']:>4} "
                  f"{r['client_cpu']:>5.0f}% {r['server_cpu']:>5.0f}% {db} {r['per_cpu']:>9.0f}  {r['load']}")
    n_app, n_hello = median_of(c["app"], "tables"), median_of(c["hello"], "tables")
    ratio = c["ratio"]
    print(f"{label}: N_app {n_app[0]:,.0f} ({n_app[1]:,.0f}–{n_app[2]:,.0f}), N_hello {n_hello[0]:,.0f} "
          f"({n_hello[1]:,.0f}–{n_hello[2]:,.0f}), ratio {ratio[0]:.2f} ({ratio[1]:.2f}–{ratio[2]:.2f}); "
          f"hand p99 {median_of(c['app'], 'record_p99')[0]:.0f} ms; load average {load_average()}")
    cpu = c["cpu_ratio"]
    print(f"{label}: requests per CPU second of the server{' and the database' if c['app'][0]['db_cpu'] is not None else ''}: "
          f"app {median_of(c['app'], 'per_cpu')[0]:,.0f}, hello {median_of(c['hello'], 'per_cpu')[0]:,.0f}, "
          f"ratio {cpu[0]:.2f} ({cpu[1]:.2f}–{cpu[2]:.2f}) (on a busy machine the scheduler moves req/s more than this)")


def main() -> int:
    started = time.monotonic()
    if not shutil.which("wrk"):
        print("load: wrk is not installed (apt-get install wrk; make load installs it as root)")
        return 1
    pg_url = os.environ.pop("DATABASE_URL", None)  # set by scripts/with_pg.sh: the PostgreSQL run
    print(f"make load: the evening mix, gunicorn -w 2 -k gthread --threads 4, wrk -t{THREADS} -c{THREADS}, "
          f"loopback; {os.cpu_count()} cores; load average {load_average()} at the start. CPU columns: % of one "
          f"core (client = wrk, server = gunicorn, db = PostgreSQL).")
    summary = {}
    with tempfile.TemporaryDirectory() as tmp:
        runs = [("SQLite", f"sqlite:///{tmp}/load.sqlite3")]
        if pg_url:
            from companion.config import database_url

            os.environ["DATABASE_URL"] = pg_url
            runs.append(("PostgreSQL", database_url(tmp)))
            del os.environ["DATABASE_URL"]
        hello_port = free_port()
        hello = spawn_gunicorn(None, hello_port, tmp, app="bench.hello_app:app")
        processes = [hello]
        try:
            wait_for(hello, hello_port, tmp, path="/")
            hello_base = f"http://127.0.0.1:{hello_port}"
            wrk(hello_base, seeder_free_list(tmp), WARM_SECONDS, hello=True)
            for kind, url in runs:
                port = free_port()
                server = spawn_gunicorn(url, port, tmp)
                processes.append(server)
                seeder = Seeder(url, os.path.join(tmp, f"tables-{kind}.txt"))
                tables_file = seeder.ensure(TABLES)
                wait_for(server, port, tmp)
                base = f"http://127.0.0.1:{port}"
                db_pids = [p] if url.startswith("postgresql") and (p := postmaster_pid(url)) else []
                wrk(base, tables_file, WARM_SECONDS)  # the first requests of a worker pay for imports
                warm(base, tables_file)
                c = ceiling(base, hello_base, seeder, [server.pid], [hello.pid], db_pids)
                report_ceiling(kind, c)
                held = ladder(f"{kind} steps", base, seeder, tables_file, ([server.pid], db_pids))
                summary[kind] = (c, held)
                print(f"(seeding {len(seeder.tables)} tables of {TABLE_HANDS} hands took {seeder.seconds:.0f} s)")
                seeder.close()
                stop(server)
            hello_held = ladder("hello steps", hello_base, None, tables_file, ([hello.pid], []), hello=True)
        finally:
            for process in processes:
                if process.poll() is None:
                    stop(process)
    print(f"\nmake load: capacity (tables, median of {ROUNDS}; load average now {load_average()})")
    print("| database | N_app (ceiling) | N_hello | ratio | ratio per CPU second | tables held at p99 ≤ "
          f"{P99_MS:.0f} ms (app / hello) | hand p99 at the ceiling |")
    print("|---|---|---|---|---|---|---|")
    for kind, (c, held) in summary.items():
        n_app, n_hello = median_of(c["app"], "tables")[0], median_of(c["hello"], "tables")[0]
        print(f"| {kind} | {n_app:,.0f} | {n_hello:,.0f} | {c['ratio'][0]:.2f} ({c['ratio'][1]:.2f}–"
              f"{c['ratio'][2]:.2f}) | {c['cpu_ratio'][0]:.2f} | {held:,} / {hello_held:,} | {median_of(c['app'], 'record_p99')[0]:.0f} ms |")
    print(f"\nmake load: {time.monotonic() - started:.0f} s in all")
    return 0


if __name__ == "__main__":
    sys.exit(main())
