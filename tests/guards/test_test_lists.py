"""The lists of tests/conftest.py that steer make test name what exists: a file that moved or was
renamed would silently fall out of the head of the queue (FIRST), run as one unit (SPREAD,
SPREAD_TESTS) or come back into the PostgreSQL run (ANY_DATABASE)."""
import importlib.util
import pathlib
import re

ROOT = pathlib.Path(__file__).resolve().parents[2]
spec = importlib.util.spec_from_file_location("tests_conftest_lists", ROOT / "tests" / "conftest.py")
lists = importlib.util.module_from_spec(spec)
spec.loader.exec_module(lists)


def test_every_file_and_folder_named_exists():
    named = [*lists.FIRST, *lists.SPREAD, *lists.SPREAD_TESTS, *lists.ANY_DATABASE]
    assert [path for path in named if not (ROOT / path).exists()] == []


def test_every_test_spread_alone_exists():
    for path, test in lists.SPREAD_TESTS.items():
        assert re.search(rf"^def {test}\(", (ROOT / path).read_text(encoding="utf-8"), re.M), (path, test)


def test_no_file_of_any_database_stops_the_database_server():
    """The serial tests (stopping PostgreSQL) are PostgreSQL's own: none may be left out of its run."""
    for path in lists.ANY_DATABASE:
        assert "mark.serial" not in (ROOT / path).read_text(encoding="utf-8"), path
