"""Where the evening mix's time goes: py-spy samples gunicorn's workers while wrk drives the mix of
``make load`` (bench/evening.lua), and the samples are summed by route and by part.

    .venv/bin/python bench/profile_mix.py                    (SQLite)
    PG_DURABLE=1 scripts/with_pg.sh .venv/bin/python bench/profile_mix.py     (PostgreSQL, fsync on)

Seeds ``PROFILE_TABLES`` tables (100) of ``LOAD_TABLE_HANDS`` hands (20), starts gunicorn as
``make load`` does, warms it up, then runs the mix as fast as the server answers for
``PROFILE_SECONDS`` (20) while ``py-spy record --subprocesses`` samples every worker thread. Two
tables of shares: CPU (the samples where a thread ran) and wall time (``--idle``: also the samples
where a request thread waited: the database, a lock, the disk), both of the request threads only
(gunicorn's own loop is left out).

Route: the first view function in the stack (``views/live.py state`` is the poll). Part: the
rate-limit count (``companion/middleware/ratelimit.py``), the commit (``Session.commit`` below it), the
templates (Jinja2), SQLAlchemy and the database driver (the rest of the database work), the
framework (Flask, Werkzeug, Flask-WTF, Flask-Babel), the app's own code, and the server (gunicorn
reading and writing the sockets). ``PROFILE_TOP`` (12) also lists the costliest leaf functions; ``PROFILE_RAW=prefix`` keeps the folded
stacks (prefix-cpu.txt, prefix-wall.txt: flamegraph.pl or speedscope read them).
"""
from __future__ import annotations

import collections
import os
import shutil
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

from bench import load  # noqa: E402  (the same seeding, server and mix as make load)
from bench.sizes import TINY, size  # noqa: E402

TABLES = size("PROFILE_TABLES", 100, 2)
SECONDS = size("PROFILE_SECONDS", 20, 4)
TOP = size("PROFILE_TOP", 12, 5)
PY_SPY = os.path.join(os.path.dirname(sys.executable), "py-spy")

PARTS = [  # (part, test on a frame "function (file:line)"), the first that any frame matches wins
    ("rate-limit count", lambda f: "companion/middleware/ratelimit.py" in f),
    ("commit", lambda f: f.startswith("commit (") and "sqlalchemy/orm/session.py" in f),
    ("templates", lambda f: "jinja2/" in f or "/templates/" in f or f.startswith("render")),
    ("database driver", lambda f: "sqlite3" in f or "psycopg/" in f or "psycopg_pool" in f),
    ("SQLAlchemy", lambda f: "sqlalchemy/" in f),
]
FRAMEWORK = ("flask/", "werkzeug/", "flask_wtf/", "flask_babel/", "babel/", "wtforms/", "flask_sqlalchemy/",
             "itsdangerous/", "flask_smorest/", "marshmallow/")


def classify(frames: list[str]) -> tuple[str, str] | None:
    """(route, part) of one stack (root first); None for a thread that is not serving a request."""
    route = next((f.split(" (")[0] + " " + f.split("companion/views/")[1].split(":")[0]
                  for f in frames if "companion/views/" in f), None)
    if route is None:
        if not any("flask/app.py" in f for f in frames):
            return None  # gunicorn's loop, the arbiter, a waiting thread of the pool
        route = "(before the view: hooks)"
    for part, test in PARTS:
        if any(test(f) for f in frames):
            return route, part
    leaf = frames[-1]
    if any(x in leaf for x in FRAMEWORK):
        return route, "framework"
    if "companion/" in leaf:
        return route, "app code"
    if "gunicorn/" in leaf or "socket" in leaf or "ssl" in leaf:
        return route, "server"
    return route, "other (stdlib)"


def summarize(raw: str, title: str) -> None:
    routes, parts, cells, leaves = (collections.Counter() for _ in range(4))
    total = 0
    for line in open(raw):
        stack, _, count = line.rstrip("\n").rpartition(" ")
        if not count.isdigit():
            continue
        frames = [f for f in stack.split(";") if not f.startswith(("process ", "thread "))]
        found = classify(frames)
        if found is None:
            continue
        n = int(count)
        total += n
        routes[found[0]] += n
        parts[found[1]] += n
        cells[found] += n
        leaves[frames[-1]] += n
    if not total:
        print(f"{title}: no samples")
        return
    print(f"\n{title}: {total} samples of request threads")
    part_names = [p for p, _ in parts.most_common()]
    print(f"{'route':<40} {'share':>6}  " + " ".join(f"{p[:12]:>12}" for p in part_names))
    for route, n in routes.most_common():
        print(f"{route[:40]:<40} {n / total:>6.1%}  " + " ".join(f"{cells[(route, p)] / total:>12.1%}"
                                                            for p in part_names))
    print(f"{'all routes':<40} {1:>6.1%}  " + " ".join(f"{parts[p] / total:>12.1%}" for p in part_names))
    print(f"costliest leaf functions ({title}):")
    for leaf, n in leaves.most_common(TOP):
        print(f"  {n / total:>6.1%}  {leaf[:110]}")


def main() -> int:
    if not shutil.which("wrk") or not os.path.exists(PY_SPY):
        print("profile_mix: needs wrk (scripts/system_deps.sh wrk) and py-spy (requirements-dev.txt)")
        return 1
    pg_url = os.environ.pop("DATABASE_URL", None)
    with tempfile.TemporaryDirectory() as tmp:
        if pg_url:
            from companion.config import database_url

            os.environ["DATABASE_URL"] = pg_url
            url = database_url(tmp)
            del os.environ["DATABASE_URL"]
        else:
            url = f"sqlite:///{tmp}/profile.sqlite3"
        seeder = load.Seeder(url, os.path.join(tmp, "tables.txt"))
        tables = seeder.ensure(TABLES)
        port = load.free_port()
        server = load.spawn_gunicorn(url, port, tmp)
        try:
            load.wait_for(server, port, tmp)
            base = f"http://127.0.0.1:{port}"
            load.wrk(base, seeder.ensure(TABLES), load.WARM_SECONDS)
            load.warm(base, seeder.ensure(TABLES))
            tables = seeder.ensure(TABLES)
            samples = {}
            modes = (("cpu", []), ("wall", ["--idle"]))
            for mode, extra in modes[:1] if TINY else modes:  # BENCH_TINY: the CPU profile only
                raw = os.path.join(tmp, f"{mode}.txt")
                spy = subprocess.Popen([PY_SPY, "record", "--pid", str(server.pid), "--subprocesses", "--threads",
                                        "-r", "200", "-d", str(SECONDS), "-f", "raw", "-o", raw, "--nonblocking",
                                        *extra], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
                time.sleep(1)  # py-spy attaches
                run = load.wrk(base, tables, SECONDS - 2, servers=([server.pid], []))
                _, err = spy.communicate(timeout=SECONDS + 60)
                if not os.path.exists(raw):
                    print(f"py-spy failed: {err}")
                    return 1
                samples[mode] = (raw, run)
                if os.environ.get("PROFILE_RAW"):  # keep the raw stacks (folded, one per line)
                    shutil.copy(raw, f"{os.environ['PROFILE_RAW']}-{mode}.txt")
                tables = seeder.ensure(TABLES)
            print(f"profile_mix: {'PostgreSQL' if pg_url else 'SQLite'}, {TABLES} tables of {load.TABLE_HANDS} hands, "
                  f"the mix as fast as the server answers for {SECONDS - 2} s per profile")
            for mode, (raw, run) in samples.items():
                print(f"{mode} run: {run['rps']:.0f} req/s, p99 {run['p99']:.0f} ms, hand p99 {run['record_p99']:.0f} ms, "
                      f"server CPU {run['server_cpu']:.0f}% of a core, load average {run['load']}")
                summarize(raw, "CPU (threads running)" if mode == "cpu" else "wall time (running or waiting)")
        finally:
            load.stop(server)
            seeder.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
