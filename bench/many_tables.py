"""The table page and the poll after a hand when many tables are in use, in one process: CPU per
request while a phone at each of N tables loads its page in turn (as the evening mix spreads its
page loads), N = ``MANY_TABLES`` (100,400,800). A worker's page cache (``companion/middleware/pagecache.py``)
and the QR codes must hold every table in use, or each page load draws its parts again.

    .venv/bin/python bench/many_tables.py

Tables of ``LOAD_TABLE_HANDS`` hands (4 here by default: seeding 800 tables takes a while on a
busy machine). Medians of ``MANY_ROUNDS`` (3) passes over the N tables, min and max, load average.
"""
from __future__ import annotations

import os
import statistics
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)
os.environ.setdefault("SECRET_KEY", "bench-secret")

from bench.sizes import TINY, size  # noqa: E402

os.environ.setdefault("LOAD_TABLE_HANDS", "2" if TINY else "4")

from bench import load  # noqa: E402  (the same seeding as make load)

COUNTS = [int(n) for n in size("MANY_TABLES", "100,400,800", "2,4").split(",")]
ROUNDS = size("MANY_ROUNDS", 3, 1)


def main() -> int:
    with tempfile.TemporaryDirectory() as tmp:
        seeder = load.Seeder(f"sqlite:///{tmp}/many.sqlite3", os.path.join(tmp, "tables.txt"))
        seeder.ensure(max(COUNTS))
        client = seeder.app.test_client()
        print(f"many_tables: the table page as a watcher, one process, SQLite, tables of {load.TABLE_HANDS} hands; "
              f"CPU ms per page, median of {ROUNDS} passes (min–max)")
        for n in COUNTS:
            ids = [line.split()[0] for line in open(seeder.ensure(n))]
            for public_id in ids:  # every table seen once: what a cache can hold, it holds now
                client.get(f"/t/{public_id}")
            runs = []
            for _ in range(ROUNDS):
                start = time.process_time()
                for public_id in ids:
                    assert client.get(f"/t/{public_id}").status_code == 200
                runs.append((time.process_time() - start) / n * 1000)
            print(f"{n:>6} tables: {statistics.median(runs):6.2f} ms ({min(runs):.2f}–{max(runs):.2f}), "
                  f"load average {load.load_average()}", flush=True)
        seeder.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
