"""A real gunicorn (2 workers, 2 threads each) over a freshly migrated database, for the tests that
need the production server: the live fuzz and the access-log check. Importable from any test
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


@contextmanager
def running_gunicorn(folder: Path, database_url: str, secret: str, **env_extra):
    """Migrate ``database_url`` (``flask db upgrade``), start gunicorn on a free port with its access
    log at ``folder/access.log``; yield the port; stop the server afterwards."""
    env = {**os.environ, "DATABASE_URL": database_url, "SECRET_KEY": secret, "PYTHONPATH": str(ROOT), **env_extra}
    subprocess.run([sys.executable, "-m", "flask", "--app", "app", "db", "upgrade"], cwd=ROOT, env=env,
                   check=True, capture_output=True)
    port = free_port()
    proc = subprocess.Popen([sys.executable, "-m", "gunicorn", "-w", "2", "--threads", "2", "-b",
                             f"127.0.0.1:{port}", "--access-logfile", str(folder / "access.log"),
                             "--error-logfile", str(folder / "error.log"), "app:app"], cwd=ROOT, env=env)
    deadline = time.time() + 30
    while time.time() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            break
        except OSError:
            time.sleep(0.2)
    try:
        yield port
    finally:
        proc.terminate()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(10)
