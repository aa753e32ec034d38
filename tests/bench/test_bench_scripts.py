"""Every bench script runs in the test suite, at a tiny size (``BENCH_TINY=1``, bench/sizes.py): a
bench that broke (an engine that now rightly refuses its workload, a renamed route, a changed
helper) fails ``make test`` instead of the next ``make bench``. Speed is not judged here (``make
bench`` does that); only that each script runs to its end, exit code 0, without an error.

The scripts that time the app in their own process run one after the other in one Python process
(their imports paid once); those that start servers or processes of their own (heavy, writers,
exports, profile_mix) run alone; bench/load.py has a smoke test of its own
(tests/web/test_load_smoke.py). A new bench script is picked up by itself (any bench/*.py with a
``__main__``)."""
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
BENCH = ROOT / "bench"
SCRIPTS = sorted(p.name for p in BENCH.glob("*.py") if 'if __name__ == "__main__"' in p.read_text())
ALONE = {"heavy.py", "writers.py", "exports.py", "profile_mix.py"}
# smaller than their BENCH_TINY size where a phase only waits: exports' nine phases of 1 s each and
# profile_mix's 4 s profile (wrk 2 s) still run every phase, server and code path, for less time
SHORTER = {"exports.py": {"SECONDS": "0.3"}, "profile_mix.py": {"PROFILE_SECONDS": "3"}}
# scripts a test of their own already runs tiny (and checks more closely): not run twice
ELSEWHERE = {"load.py": "tests/web/test_load_smoke.py"}
DRIVER = """
import runpy, sys, traceback
for path in sys.argv[1:]:
    sys.argv = [path]
    try:
        runpy.run_path(path, run_name="__main__")
        code = 0
    except SystemExit as exit:
        code = exit.code or 0
    except BaseException:
        traceback.print_exc()
        code = "crashed"
    print(f"@@ {path} exit {code}", flush=True)
"""


def tiny_env(**extra) -> dict:
    env = {k: v for k, v in os.environ.items() if k != "DATABASE_URL"}  # SQLite in a temp folder
    return {**env, "BENCH_TINY": "1", "PYTHONPATH": str(ROOT), **extra}


def run(command, env) -> subprocess.CompletedProcess:
    return subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True, timeout=600)


@pytest.fixture(scope="module")
def in_process():
    """Every script not in ALONE, in one process: {script: (exit code, its output)}."""
    names = [n for n in SCRIPTS if n not in ALONE and n not in ELSEWHERE]
    done = run([sys.executable, "-c", DRIVER, *(str(BENCH / n) for n in names)], tiny_env())
    results, output = {}, done.stdout + done.stderr
    for name in names:
        match = re.search(rf"@@ {re.escape(str(BENCH / name))} exit (\S+)", done.stdout)
        results[name] = (match.group(1) if match else f"no end (process exit {done.returncode})", output)
    return results


@pytest.mark.parametrize("name", [n for n in SCRIPTS if n not in ALONE and n not in ELSEWHERE])
def test_the_bench_script_runs(in_process, name):
    code, output = in_process[name]
    assert code == "0", f"bench/{name}: {code}\n{output[-4000:]}"


@pytest.mark.parametrize("name", sorted(ALONE & set(SCRIPTS)))
def test_the_bench_script_that_starts_servers_runs(name):
    done = run([sys.executable, str(BENCH / name)], tiny_env(**SHORTER.get(name, {})))
    output = done.stdout + done.stderr
    assert done.returncode == 0, f"bench/{name}: exit {done.returncode}\n{output[-4000:]}"
    assert "Traceback" not in output, output[-4000:]


def test_every_bench_script_is_run_here():
    """The list is found, not typed: make bench's scripts are all in it; the scripts run elsewhere are."""
    makefile = (ROOT / "Makefile").read_text()
    for name in re.findall(r"bench/(\w+\.py)", makefile):
        assert name in SCRIPTS, name
    for name, test in ELSEWHERE.items():
        assert f"bench/{name}" in (ROOT / test).read_text(), (name, test)
