"""The fake third game 对决 (tests/thirdgame) on a phone, CSRF on: its hand form is generated from
its ``describe_facts`` (no templates/games/duel/), and a hand is recorded and corrected by tapping."""
import pytest
from playwright.sync_api import Page, expect

import thirdgame
from companion.engine import ENGINES

from e2e_helpers import screenshots_in_languages
from test_journey import no_horizontal_scroll, set_number, small_targets, standings


@pytest.fixture
def registered(monkeypatch):
    monkeypatch.setitem(ENGINES, thirdgame.NAME, thirdgame)
    yield
    monkeypatch.undo()


@pytest.fixture
def served(registered, live_server):  # the game is registered before the app is made
    return live_server


def test_record_and_correct_a_fake_hand_by_tapping(page: Page, served):
    page.goto(served + "/")
    page.click(f'a[href="/new/{thirdgame.NAME}"]')
    page.fill("#name", "Duel night")
    page.fill("#player_1", "Ann")
    page.fill("#player_2", "Bo")
    page.fill("#stake", "1")
    page.click("#open-table")
    expect(page.locator("h1.table-name")).to_contain_text("Duel night")
    page.click("#record")
    expect(page.locator("#save-hand")).to_be_visible()
    no_horizontal_scroll(page)
    assert small_targets(page) == []
    record = page.url
    page.click("#save-hand")  # nothing chosen: refused by field, nothing saved
    expect(page.locator("#winner-error, .choice.winner .field-error").first).to_contain_text("Choose who played out first.")
    expect(page.locator("#left-error")).to_contain_text("Enter a number.")
    page.locator("label.pill", has_text="Ann").click()
    set_number(page, "left", 7)
    page.click("#save-hand")
    expect(page.locator("body")).to_contain_text("Bo: 7 cards left = 7")
    expect(page.locator("body")).to_contain_text("Cards left")
    page.click("#edit")
    page.locator("label.pill", has_text="Bo").click()
    set_number(page, "left", 3)
    page.click("#save-hand")
    expect(page.locator("body")).to_contain_text("Ann: 3 cards left = 3")
    page.click("text=Back to the table")
    assert standings(page) == {"Ann": "−3", "Bo": "+3"}
    screenshots_in_languages(page, record.split("?")[0], "third-game-record")
