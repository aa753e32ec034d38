"""Engine speed: checks and settlements per second for each game (single process, CPython).

Each game's workload module exposes ``CASES``: a list of (label, function, target_per_second);
``function(n)`` runs n operations of a fixed mixed workload.
"""
import importlib
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from bench.sizes import size  # noqa: E402

SECONDS = size("ENGINE_SECONDS", 1.0, 0.01)  # per workload
BATCH = size("ENGINE_BATCH", 1000, 5)

MODULES = ["bench.gandengyan_workload", "bench.dagong_workload"]


def rate(function, seconds=SECONDS):
    """Operations per second: warm up, then run batches for about ``seconds``."""
    function(min(200, BATCH))
    n, elapsed, batch = 0, 0.0, BATCH
    while elapsed < seconds:
        start = time.perf_counter()
        function(batch)
        elapsed += time.perf_counter() - start
        n += batch
    return n / elapsed


def main():
    start = time.perf_counter()
    for name in ("companion.engine.gandengyan", "companion.engine.dagong"):
        try:
            importlib.import_module(name)
        except ImportError:
            pass
    print(f"engine import: {(time.perf_counter() - start) * 1000:.0f} ms")
    print(f"{'workload':<44} {'per second':>12} {'target':>10}")
    ok = True
    for module_name in MODULES:
        try:
            module = importlib.import_module(module_name)
        except ImportError as error:
            print(f"{module_name}: not available ({error})")
            continue
        for label, function, target in module.CASES:
            r = rate(function)
            flag = "ok" if r >= target else "BELOW TARGET"
            ok &= r >= target
            print(f"{label:<44} {r:>12,.0f} {target:>10,} {flag}")
    print("all targets met" if ok else "some figures are BELOW their targets (see above)")
    return 0  # figures are information; tests assert behaviour


if __name__ == "__main__":
    sys.exit(main())
