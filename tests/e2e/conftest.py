"""Browser tests: Playwright driving Debian's Chromium (no `playwright install`) at a phone viewport.

Without Chromium the tests are skipped with a printed reason, except when CI is set: then they fail.
CSRF stays ON (the ``live_server`` fixture of tests/conftest.py).
"""
import os
import shutil

import pytest

CANDIDATES = [os.environ.get("CHROMIUM_PATH"), "/usr/lib/chromium/chromium", "/usr/bin/chromium",
              shutil.which("chromium") or None, shutil.which("chromium-browser") or None]
CHROMIUM = next((p for p in CANDIDATES if p and os.path.exists(p)), None)
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-dev-shm-usage"]
NO_CHROMIUM = "no Chromium found (apt-get install chromium, or set CHROMIUM_PATH): browser tests skipped"


def pytest_report_header(config):
    return f"chromium: {CHROMIUM}" if CHROMIUM else NO_CHROMIUM


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args):
    if CHROMIUM is None:
        if os.environ.get("CI"):
            pytest.fail("CI is set but " + NO_CHROMIUM)
        print("\n" + NO_CHROMIUM)
        pytest.skip(NO_CHROMIUM)
    return {**browser_type_launch_args, "executable_path": CHROMIUM, "args": ARGS}


@pytest.fixture(scope="session")
def browser_context_args(browser_context_args):
    return {**browser_context_args, "viewport": {"width": 390, "height": 844},
            "device_scale_factor": 2, "is_mobile": True, "has_touch": True}
