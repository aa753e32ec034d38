"""A real gunicorn (2 workers, 2 threads each) over a freshly migrated database, for the tests that
need the production server: the live fuzz and the access-log check. Also ``own_pg_database``: an
empty PostgreSQL database of one's own (each xdist worker, the fuzz). Importable from any test
directory (tests/ is on the path through tests/conftest.py)."""
from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from contextlib import contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def own_pg_database(url: str, suffix: str) -> str:
    """A new, empty PostgreSQL database ``<name of url's database>_<suffix>`` on url's server
    (dropped first if a previous run left it); returns its URL."""
    import psycopg
    from sqlalchemy.engine import make_url

    base = make_url(url)
    name = f"{base.database}_{suffix}"
    plain = base.set(drivername="postgresql").render_as_string(hide_password=False)
    with psycopg.connect(plain, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        conn.execute(f'CREATE DATABASE "{name}"')
    return base.set(database=name).render_as_string(hide_password=False)


def _listening(proc: subprocess.Popen, port: int, log: Path) -> bool:
    """True once gunicorn itself says it listens on ``port`` and accepts a connection there; False if
    it exited (the port was taken) or 30 s passed. (A connection alone could reach whoever took the port.)"""
    deadline = time.time() + 30
    said = f"Listening at: http://127.0.0.1:{port} "
    while time.time() < deadline:
        if proc.poll() is not None:
            return False
        try:
            if said in log.read_text(errors="replace"):
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                return True
        except OSError:
            pass
        time.sleep(0.2)
    return False


@contextmanager
def running_gunicorn(folder: Path, database_url: str, secret: str, **env_extra):
    """Migrate ``database_url`` (``flask db upgrade``), start gunicorn on a free port with its access
    log at ``folder/access.log``; yield the port; stop the server afterwards."""
    env = {**os.environ, "DATABASE_URL": database_url, "SECRET_KEY": secret, "PYTHONPATH": str(ROOT), **env_extra}
    subprocess.run([sys.executable, "-m", "flask", "--app", "app", "db", "upgrade"], cwd=ROOT, env=env,
                   check=True, capture_output=True)
    proc, port = None, 0
    for _ in range(5):  # a free port may be taken by a parallel test before gunicorn binds it: try another
        port = free_port()
        proc = subprocess.Popen([sys.executable, "-m", "gunicorn", "-w", "2", "--threads", "2", "-b",
                                 f"127.0.0.1:{port}", "--access-logfile", str(folder / "access.log"),
                                 "--error-logfile", str(folder / "error.log"), "app:app"], cwd=ROOT, env=env)
        if _listening(proc, port, folder / "error.log"):
            break
        proc.kill()
        proc.wait(10)
    else:
        raise RuntimeError(f"gunicorn did not start: see {folder / 'error.log'}")
    try:
        yield port
    finally:
        stop(proc)


def stop(proc) -> None:
    """Ends a server process the tests started: politely, then for sure."""
    proc.terminate()
    try:
        proc.wait(10)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait(10)
