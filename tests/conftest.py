"""Shared fixtures. Engine tests need none of these; web tests get a fresh database per test."""
import os

import pytest

os.environ.setdefault("SECRET_KEY", "test-secret-key-not-for-production")


def pytest_collection_modifyitems(config, items):
    """Every test that uses the database (the ``app`` fixture) is marked ``db`` for make test-pg."""
    for item in items:
        if "app" in getattr(item, "fixturenames", ()):
            item.add_marker(pytest.mark.db)
