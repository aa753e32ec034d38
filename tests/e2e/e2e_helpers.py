"""Helpers for the browser tests (import from the tests)."""
import pathlib

from playwright.sync_api import Page

ARTIFACTS = pathlib.Path(__file__).parent / "artifacts"  # git-ignored; CI keeps them


def screenshots_in_languages(page: Page, url: str, name: str, languages=("en", "zh", "ar")) -> None:
    """``url`` in each language: it must fit the phone's width (no sideways scrolling), and a full-page
    screenshot ``<name>-<lang>.png`` goes to tests/e2e/artifacts/."""
    ARTIFACTS.mkdir(exist_ok=True)
    for lang in languages:
        page.goto(f"{url}{'&' if '?' in url else '?'}lang={lang}")
        assert page.evaluate("document.documentElement.scrollWidth") <= 390, (url, lang)
        page.screenshot(path=str(ARTIFACTS / f"{name}-{lang}.png"), full_page=True)
