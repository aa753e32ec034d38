"""A game is known only in its engine package: no Python outside ``companion/engine/`` and no
template branches on a game's name (``== "gandengyan"``) or keys a table by it. What remains is
listed below with its count; the count may only go down (lower it here when you remove one), and
a new branch anywhere fails this test. Use the registry instead (``engine_for(table.game)``:
LABEL, DEALER_WORD, OUTCOME_NAMES, TALLIES, NUMERIC_FACTS, rule_sentences, …)."""
import pathlib
import re

ROOT = pathlib.Path(__file__).resolve().parents[2]
BRANCH = re.compile(r"""(==|!=)\s*["'](gandengyan|dagong)["']|["'](gandengyan|dagong)["']\s*(==|!=)"""
                    r"""|^\s*\{?\s*["'](gandengyan|dagong)["']\s*:""")

# What is left (issue 17), per file: the count may only go down.
ALLOWED: dict = {}  # none left: the hand form and the CSV phrases come from the engine's facts description


def branches() -> dict:
    found: dict = {}
    paths = [p for p in (ROOT / "companion").rglob("*.py") if "engine" not in p.relative_to(ROOT / "companion").parts]
    paths += list((ROOT / "templates").rglob("*.html"))
    for path in paths:
        for line in path.read_text(encoding="utf-8").splitlines():
            if BRANCH.search(line):
                key = str(path.relative_to(ROOT))
                found[key] = found.get(key, 0) + 1
    return found


def test_no_new_branch_on_a_games_name_outside_the_engine():
    found = branches()
    grown = {path: (count, ALLOWED.get(path, 0)) for path, count in found.items() if count > ALLOWED.get(path, 0)}
    assert grown == {}, "new game-name branches (found, allowed): use the engine registry instead"


def test_the_allow_list_is_not_larger_than_what_is_left():
    """When a branch is removed, lower its count here, so it cannot come back unnoticed."""
    found = branches()
    assert {path: n for path, n in ALLOWED.items() if found.get(path, 0) < n} == {}


def test_the_pattern_sees_a_branch():
    assert BRANCH.search('    if table.game == "gandengyan":')
    assert BRANCH.search("{% if game == 'dagong' %}")
    assert BRANCH.search('    "dagong": ("captured.*",),')
    assert not BRANCH.search('    body = {"game": "gandengyan", "play": "8"}')
