"""What `make run` shows and serves (issue 18): the address with a terminal QR code first, the
migrations in one line, then gunicorn with scripts/gunicorn_conf.py — no development-server
warning, one readable access line per request, the live polls that found nothing new left out."""
import os
import re
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

from live_gunicorn import free_port

ROOT = Path(__file__).resolve().parents[2]


def env_for(tmp_path, port):
    return {**os.environ, "DATABASE_URL": f"sqlite:///{tmp_path}/run.sqlite3", "SECRET_KEY": "make-run-test",
            "PYTHONPATH": str(ROOT), "PORT": str(port), "PUBLIC_URL": "http://cards.example:5000"}


def test_first_the_address_and_its_qr_code_then_one_line_for_the_database(tmp_path):
    port = free_port()
    out = subprocess.run([sys.executable, "scripts/show_address.py", "--migrate", str(port)], cwd=ROOT,
                         env=env_for(tmp_path, port), capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    lines = out.stdout.strip().splitlines()
    assert lines[0].startswith("Card Table Companion. Open it on a phone")
    assert sum("█" in line or "▀" in line or "▄" in line for line in lines) >= 10  # the QR code
    assert "    http://cards.example:5000/" in lines
    assert lines[-1] == "database up to date"
    assert "INFO" not in out.stdout + out.stderr and "alembic" not in out.stdout + out.stderr
    again = subprocess.run([sys.executable, "scripts/show_address.py", "--migrate", str(port)], cwd=ROOT,
                           env=env_for(tmp_path, port), capture_output=True, text=True, timeout=120)
    assert again.stdout.strip().splitlines()[-1] == "database up to date" and not again.stderr


def get(url, headers=None):
    try:
        with urllib.request.urlopen(urllib.request.Request(url, headers=headers or {}), timeout=10) as r:
            return r.status, dict(r.headers), r.read()
    except urllib.error.HTTPError as e:
        return e.code, dict(e.headers), e.read()


def test_gunicorn_serves_with_a_one_line_access_log(tmp_path):
    port = free_port()
    env = env_for(tmp_path, port)
    subprocess.run([sys.executable, "scripts/show_address.py", "--migrate", str(port)], cwd=ROOT, env=env,
                   check=True, capture_output=True, timeout=120)
    log = open(tmp_path / "out.log", "w")
    proc = subprocess.Popen([sys.executable, "-m", "gunicorn", "-c", "scripts/gunicorn_conf.py", "app:app"],
                            cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT)
    try:
        deadline = time.time() + 30
        while True:
            try:
                status, _, _ = get(f"http://127.0.0.1:{port}/healthz")
                break
            except OSError:
                assert time.time() < deadline, "gunicorn did not start"
                time.sleep(0.3)
        assert status == 200
        import json

        req = urllib.request.Request(f"http://127.0.0.1:{port}/api/v1/tables", method="POST",
                                     data=json.dumps({"game": "gandengyan", "name": "Log", "players": ["A", "B"]}).encode(),
                                     headers={"Content-Type": "application/json"})
        with urllib.request.urlopen(req, timeout=10) as r:
            public_id = json.load(r)["id"]
        status, headers, _ = get(f"http://127.0.0.1:{port}/t/{public_id}/state")
        assert status == 200
        assert get(f"http://127.0.0.1:{port}/t/{public_id}/state", {"If-None-Match": headers["ETag"]})[0] == 304
        assert get(f"http://127.0.0.1:{port}/sw.js")[0] == 200
        time.sleep(0.5)
    finally:
        proc.terminate()
        proc.wait(15)
        log.close()
    text = (tmp_path / "out.log").read_text()
    assert "development server" not in text and "Booting worker" not in text
    lines = [line for line in text.splitlines() if line.strip()]
    assert re.fullmatch(r"\d\d:\d\d:\d\d 127\.0\.0\.1 GET /healthz 200 \d+ms", lines[0]), lines
    assert any(re.fullmatch(rf"\d\d:\d\d:\d\d 127\.0\.0\.1 GET /t/{public_id}/state 200 \d+ms", x) for x in lines)
    assert not any(" 304 " in x for x in lines)  # the poll that found nothing new is not logged
    assert any("/sw.js 200" in x for x in lines)
