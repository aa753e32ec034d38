"""Browser tests: Playwright driving Debian's Chromium (no `playwright install`) at a phone viewport.

Without Chromium the tests are skipped with a printed reason, except when CI is set: then they fail.
CSRF stays ON (the ``live_server`` fixture of tests/conftest.py).
"""
import pytest

from e2e_helpers import CHROMIUM, NO_CHROMIUM, PHONE, chromium_launch_args


def pytest_report_header(config):
    return f"chromium: {CHROMIUM}" if CHROMIUM else NO_CHROMIUM


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args):
    return chromium_launch_args(browser_type_launch_args)


@pytest.fixture(scope="session")
def browser_context_args(browser_context_args):
    return {**browser_context_args, **PHONE}
