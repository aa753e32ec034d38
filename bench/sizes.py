"""The sizes of the benchmarks, in one place. ``make bench`` (and ``make load``) use the full ones;
``BENCH_TINY=1`` shrinks every one, so that each script runs in seconds: the test suite runs every
bench script that way (tests/bench/test_bench_scripts.py), so a bench that broke fails ``make test``,
not the next person's ``make bench``. A script's own variable (e.g. ``HEAVY_HANDS``) wins over both."""
from __future__ import annotations

import os

TINY = os.environ.get("BENCH_TINY", "") not in ("", "0")


def size(name: str | None, full, tiny):
    """``name`` from the environment (same type as ``full``), else ``tiny`` under BENCH_TINY, else ``full``."""
    if name and os.environ.get(name):
        return type(full)(os.environ[name])
    return tiny if TINY else full
