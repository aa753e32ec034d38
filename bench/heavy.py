"""Heavy readers (issue 20): history and export of a 27,000-hand table, and a refused oversized import,
against a real gunicorn worker over real HTTP. Prints, per request: time to the first byte, total time,
bytes, and the worker's peak memory (VmHWM) before and after; reports, never fails.

    .venv/bin/python bench/heavy.py                       # SQLite in a temp folder
    bash scripts/with_pg.sh .venv/bin/python bench/heavy.py   # PostgreSQL

Targets: first byte < 200 ms for history and exports, the worker's memory bounded (its peak grows by a
few MB, not by the size of the table), a refused 31 MiB import answered in < 50 ms (the body is never
sent: the answer comes from its Content-Length)."""
import http.client
import os
import socket
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)
sys.path.insert(0, os.path.join(ROOT, "bench"))
os.environ.setdefault("SECRET_KEY", "bench-secret")

from bench.sizes import size  # noqa: E402

HANDS = size("HEAVY_HANDS", 27000, 30)
PLAYERS = ["Ann", "Bo", "Cy", "Di"]


def build(url: str) -> str:
    """A 27,000-hand 干瞪眼 table written in bulk (hands, deltas and one history event each)."""
    os.environ["DATABASE_URL"] = url
    from companion import create_app, scoring
    from companion.extensions import db
    from companion.db.models import HandEvent
    from review import fill

    app = create_app({"SQLALCHEMY_DATABASE_URI": url} if url.startswith("sqlite") else {})
    with app.app_context():
        db.create_all()
        table = scoring.create_table(game="gandengyan", name="Long night", players=PLAYERS, stake="1")
        fill(table, HANDS)
        from companion.db.models import Hand

        for hand in db.session.scalars(db.select(Hand).where(Hand.table_id == table.id)):
            db.session.add(HandEvent(table_id=table.id, hand_id=hand.id, kind="create", before=None,
                                     after={"facts": hand.facts, "status": "active",
                                            "points": {p: 0 for p in PLAYERS}}, hand_revision=1, device="bench"))
        db.session.commit()
        return table.public_id


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def peak_kib(pid: int) -> int:
    with open(f"/proc/{pid}/status") as fh:
        for line in fh:
            if line.startswith("VmHWM:"):
                return int(line.split()[1])
    return 0


def timed_get(port: int, path: str, headers: dict | None = None) -> tuple[float, float, int, int]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
    started = time.perf_counter()
    conn.request("GET", path, headers=headers or {})
    response = conn.getresponse()
    first_chunk = response.read(1)
    first = time.perf_counter() - started
    size = len(first_chunk) + len(response.read())
    total = time.perf_counter() - started
    conn.close()
    timed_get.etag = response.getheader("ETag")
    return first * 1000, total * 1000, size, response.status


def refused_import(port: int, length: int) -> tuple[float, int]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    started = time.perf_counter()
    conn.putrequest("POST", "/api/v1/import")
    conn.putheader("Content-Type", "application/json")
    conn.putheader("Content-Length", str(length))
    conn.endheaders()
    response = conn.getresponse()
    response.read()
    elapsed = (time.perf_counter() - started) * 1000
    conn.close()
    return elapsed, response.status


def main():
    with tempfile.TemporaryDirectory() as tmp:
        url = os.environ.get("DATABASE_URL") or f"sqlite:///{tmp}/heavy.sqlite3"
        started = time.perf_counter()
        public_id = build(url)
        print(f"built a {HANDS}-hand table in {time.perf_counter() - started:.0f} s ({url.split(':')[0]})")
        port = free_port()
        env = dict(os.environ, DATABASE_URL=url, FLASK_RATELIMIT_ENABLED="false")
        server = subprocess.Popen([os.path.join(ROOT, ".venv/bin/gunicorn"), "-w", "1", "-b", f"127.0.0.1:{port}",
                                   "--timeout", "300", "app:app"], cwd=ROOT, env=env,
                                  stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            for _ in range(100):
                try:
                    socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
                    break
                except OSError:
                    time.sleep(0.1)
            worker = int(subprocess.check_output(["pgrep", "-P", str(server.pid)]).split()[0])
            timed_get(port, f"/t/{public_id}/history?page=2")  # warm the worker
            print(f"{'request':44} {'first byte':>11} {'total':>9} {'bytes':>11} {'peak MB':>14}")
            last = -(-HANDS // 50)  # the last page of history (50 a page) and of the sheet (page 100 of 540)
            for path in (f"/t/{public_id}/history", f"/t/{public_id}/history?page={last}",
                         f"/t/{public_id}/export.csv", f"/t/{public_id}/export.json",
                         f"/api/v1/tables/{public_id}/export", f"/t/{public_id}/export.csv"):
                before = peak_kib(worker)
                first, total, size, status = timed_get(port, path)
                after = peak_kib(worker)
                print(f"{path.replace(public_id, '<id>'):44} {first:9.1f} ms {total:7.0f} ms {size:11,} "
                      f"{before / 1024:6.1f}->{after / 1024:6.1f}  ({status})")
                assert status < 500, (path, status)  # a figure of an error page is no figure
            print("review pages: first visit, then the same revision again (If-None-Match)")
            for path in (f"/t/{public_id}/summary", f"/t/{public_id}/settle", f"/t/{public_id}/sheet",
                         f"/t/{public_id}/sheet?page={min(100, last)}", f"/t/{public_id}/chart",
                         f"/t/{public_id}/hands/1/history", f"/api/v1/tables/{public_id}/summary"):
                first, total, size, status = timed_get(port, path)
                assert status < 500, (path, status)
                again = sorted(timed_get(port, path, {"If-None-Match": timed_get.etag})[1] for _ in range(20))
                print(f"{path.replace(public_id, '<id>'):44} 200: {total:7.0f} ms {size:9,} B   "
                      f"304: p50 {again[10]:5.1f} ms max {again[-1]:5.1f} ms  ({status})")
            for size in (3 * 1024 * 1024, 31 * 1024 * 1024):
                times = sorted(refused_import(port, size)[0] for _ in range(20))
                print(f"refused import of {size // 1024 // 1024} MiB (headers only): p50 {times[10]:.1f} ms, "
                      f"max {times[-1]:.1f} ms")
        finally:
            server.terminate()
            server.wait(10)
    print("load:", open("/proc/loadavg").read().strip())


if __name__ == "__main__":
    main()
