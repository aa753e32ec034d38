"""Engine tests: each test starts with the 大冶打拱 readings cache empty, so that what a test
exercises does not depend on the tests before it (mutation runs trace which tests reach which
function; a warm cache would hide the reader from them)."""
import pytest


@pytest.fixture(autouse=True)
def _fresh_dagong_cache():
    from companion.engine.dagong import combos

    combos.analyse.cache_clear()
    yield
