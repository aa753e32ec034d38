"""The fixture third game 斗地主 (tests/thirdgame/doudizhu.py) on a phone, CSRF on: its hand form is
generated from its ``describe_facts`` (no templates/games/doudizhu/): the landlord, the bid (a choice)
and who played out first as pills, the bombs as chips, the spring as a yes/no box; a hand is
recorded and corrected by tapping."""
import pytest
from playwright.sync_api import Page, expect

from e2e_helpers import screenshots_in_languages
from test_journey import no_horizontal_scroll, set_number, small_targets, standings
from thirdgame import doudizhu as game


@pytest.fixture
def served(fixture_games, live_server):  # the game is registered before the app is made
    return live_server


def test_record_and_correct_a_hand_of_the_fixture_game_by_tapping(page: Page, served):
    page.goto(served + "/")
    page.click(f'a[href="/new/{game.NAME}"]')
    page.fill("#name", "Landlord night")
    for seat, name in enumerate(("Ann", "Bo", "Cy"), start=1):
        page.fill(f"#player_{seat}", name)
    page.fill("#stake", "1")
    page.click("#open-table")
    expect(page.locator("h1.table-name")).to_contain_text("Landlord night")
    page.click("#record")
    expect(page.locator("#save-hand")).to_be_visible()
    no_horizontal_scroll(page)
    assert small_targets(page) == []
    record = page.url
    page.click("#save-hand")  # nothing chosen: refused by field, nothing saved
    expect(page.locator("#bid-error")).to_contain_text("Choose the bid.")
    expect(page.locator("#winner-error")).to_contain_text("Choose who played out first.")
    page.locator("#landlord-field label.pill", has_text="Ann").click()
    page.locator("#bid-field label.pill", has_text="2 points").click()
    page.locator("#winner-field label.pill", has_text="Ann").click()
    set_number(page, "bombs", 1)
    page.locator("#spring").check()
    page.click("#save-hand")
    expect(page.locator("body")).to_contain_text("Ann won: each farmer pays 8.")
    expect(page.locator("body")).to_contain_text("Spring (春天): ×2.")
    page.click("#edit")
    page.locator("#winner-field label.pill", has_text="Bo").click()
    page.locator("#spring").uncheck()
    page.click("#save-hand")
    expect(page.locator("body")).to_contain_text("The farmers won: Ann pays each of them 4.")
    page.click("text=Back to the table")
    assert standings(page) == {"Ann": "−8", "Bo": "+4", "Cy": "+4"}
    screenshots_in_languages(page, record.split("?")[0], "third-game-record")
