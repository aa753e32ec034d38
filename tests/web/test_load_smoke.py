"""`make load` in miniature (LOAD_TINY=1: 2 tables, runs of 1 s, SQLite only): the evening mix
reaches the app through wrk and bench/evening.lua, the live polls follow the ETag (some answers
are 304), pages and hands are in the mix, nothing answers an error, and the capacity table is
printed with N_app, N_hello and their ratio. Speed is not checked here (that is `make load`)."""
from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def tiny_load() -> str:
    if not shutil.which("wrk"):
        if os.environ.get("CI"):
            pytest.fail("wrk is not installed (scripts/system_deps.sh installs it)")
        pytest.skip("wrk is not installed (scripts/system_deps.sh wrk)")
    env = {k: v for k, v in os.environ.items() if not k.startswith("LOAD_") and k != "DATABASE_URL"}
    # runs of 3 s: on a busy machine a hand's commit (an fsync) can take over a second
    done = subprocess.run([sys.executable, "bench/load.py"], cwd=ROOT, env={**env, "LOAD_TINY": "1", "LOAD_SECONDS": "3"},
                          capture_output=True, text=True, timeout=180)
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout


def _rows(output: str, name: str) -> list[dict]:
    header = next(line for line in output.splitlines() if line.strip().startswith("req/s"))
    keys = header.split()
    rows = []
    for line in output.splitlines():
        if line.startswith(f"{name} ") and "%" in line:
            values = line.split()[1:len(keys) + 1]
            rows.append(dict(zip(keys, values)))
    return rows


def test_the_mix_polls_with_the_etag_loads_pages_and_records_hands(tiny_load):
    [app] = _rows(tiny_load, "app")
    assert int(app["err"]) == 0, tiny_load
    assert int(app["polls"]) > int(app["pages"]) > 0, tiny_load
    assert int(app["hands"]) >= 1, tiny_load
    assert app["304s"] != "0%", tiny_load  # the polls sent the ETag of their last answer


def test_the_capacity_table_gives_both_servers_and_their_ratio(tiny_load):
    summary = re.search(r"SQLite: N_app ([\d,]+) .*N_hello ([\d,]+) .*ratio ([\d.]+)", tiny_load)
    assert summary, tiny_load
    n_app, n_hello, ratio = (float(x.replace(",", "")) for x in summary.groups())
    assert n_app > 0 and n_hello > 0
    assert ratio == pytest.approx(n_app / n_hello, rel=0.05)
    assert re.search(r"\| SQLite \| [\d,]+ \| [\d,]+ \| [\d.]+ ", tiny_load), tiny_load
    assert "load average" in tiny_load
