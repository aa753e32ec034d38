"""Helpers for the browser tests (import from the tests; tests/deploy uses them too)."""
import os
import pathlib
import shutil

from playwright.sync_api import Page

ARTIFACTS = pathlib.Path(__file__).parent / "artifacts"  # git-ignored; CI keeps them

CANDIDATES = [os.environ.get("CHROMIUM_PATH"), "/usr/lib/chromium/chromium", "/usr/bin/chromium",
              shutil.which("chromium") or None, shutil.which("chromium-browser") or None]
CHROMIUM = next((p for p in CANDIDATES if p and os.path.exists(p)), None)
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-dev-shm-usage"]
NO_CHROMIUM = "no Chromium found (apt-get install chromium, or set CHROMIUM_PATH): browser tests skipped"
PHONE = {"viewport": {"width": 390, "height": 844}, "device_scale_factor": 2, "is_mobile": True, "has_touch": True}


def chromium_launch_args(launch_args: dict) -> dict:
    """pytest-playwright's launch arguments with Debian's Chromium. Without Chromium: skip, saying
    why, except when CI is set (then fail)."""
    import pytest

    if CHROMIUM is None:
        if os.environ.get("CI"):
            pytest.fail("CI is set but " + NO_CHROMIUM)
        print("\n" + NO_CHROMIUM)
        pytest.skip(NO_CHROMIUM)
    return {**launch_args, "executable_path": CHROMIUM, "args": ARGS}


def phone_context(browser, scheme: str = "light", **more):
    """A new browser context the size of the phone the app is made for (390×844, touch), in the
    colour ``scheme``, one device pixel a CSS pixel unless ``more`` says otherwise."""
    return browser.new_context(**{**PHONE, "device_scale_factor": 1, "color_scheme": scheme, **more})


def shot(target, name: str, directory=ARTIFACTS, *, full_page: bool = True, fits: bool = False) -> None:
    """The one way the tests take a screenshot: of a page (the whole page unless ``full_page`` is
    False) or of a locator, to ``<directory>/<name>.png`` (tests/e2e/artifacts/ unless told). A
    directory that is None or empty (an opt-in directory from the environment, not set) takes none.
    ``fits``: the page must fit the phone's width first (no sideways scrolling)."""
    if not directory:
        return
    directory = pathlib.Path(directory)
    directory.mkdir(parents=True, exist_ok=True)
    path = str(directory / f"{name}.png")
    if hasattr(target, "goto"):  # a page
        if fits:
            assert target.evaluate("document.documentElement.scrollWidth") <= PHONE["viewport"]["width"], (
                target.url, name)
        target.screenshot(path=path, full_page=full_page)
    else:  # a locator: its own box
        target.screenshot(path=path)


def screenshots_in_languages(page: Page, url: str, name: str, languages=("en", "zh", "ar")) -> None:
    """``url`` in each language: it must fit the phone's width (no sideways scrolling), and a full-page
    screenshot ``<name>-<lang>.png`` goes to tests/e2e/artifacts/."""
    for lang in languages:
        page.goto(f"{url}{'&' if '?' in url else '?'}lang={lang}")
        shot(page, f"{name}-{lang}", fits=True)
