"""Issue 21, item 2, in Chromium at 390×844: the 大冶打拱 captured points.

Only a played-out hand (its points must add up to 200) gets the last player's points filled in;
a chip tapped on the filled-in field replaces it (it does not add to it); the running sum against
200 shows while tapping; an early end stores no points its outcome does not use."""
from playwright.sync_api import Page, expect

from companion import access, scoring

NAMES = ["Li", "Wang", "Zhang", "Zhao"]


def _open(page: Page, live_server):
    with live_server.app.app_context():
        table = scoring.create_table(game="dagong", name="points", players=NAMES, first_dealer="Li")
        public_id, token = table.public_id, access.edit_token(table)
    page.goto(f"{live_server}/t/{public_id}#key={token}")  # join.js joins this phone
    page.click("#record")
    return public_id


def _stored(live_server, public_id, number=1):
    with live_server.app.app_context():
        table = scoring.get_table(public_id)
        return scoring.get_hand(table, number).facts


def _tap(page: Page, seat: int, *values):
    for v in values:
        page.click(f"#captured_{seat}-field .chip[data-value='{v}']")


def test_chips_replace_the_filled_in_rest_and_the_sum_shows(page: Page, live_server):
    public_id = _open(page, live_server)
    page.locator("#partner-field label.pill", has_text="Zhang").click()
    for name in ("Li", "Wang", "Zhang"):
        page.locator(".tap-order button.tap", has_text=name).click()
    _tap(page, 0, 100)
    expect(page.locator("#points-sum")).to_contain_text("100 of 200")
    _tap(page, 1, 50)
    _tap(page, 2, 20)
    expect(page.locator("#captured_3")).to_have_value("30")                  # the rest of 200, filled in
    expect(page.locator("#captured_3-field")).to_have_class("field number chip-field chips-on typing auto")
    expect(page.locator("#points-sum")).to_contain_text("200 of 200")
    _tap(page, 3, 50, 20, 20, 5)                                             # the taps
    expect(page.locator("#captured_3")).to_have_value("95")                  # not 30+95 = 125, nor 190
    expect(page.locator("#points-sum")).to_contain_text("265 of 200")
    expect(page.locator("#points-sum")).to_have_class("points-sum over")
    page.fill("#captured_3", "")
    _tap(page, 3, 20, 10)
    expect(page.locator("#points-sum")).to_contain_text("200 of 200")
    page.click("#save-hand")
    expect(page.locator("#saved")).to_be_visible()
    assert _stored(live_server, public_id)["captured"] == {"Li": 100, "Wang": 50, "Zhang": 20, "Zhao": 30}


def test_an_early_end_fills_nothing_in_and_stores_only_the_points_used(page: Page, live_server):
    public_id = _open(page, live_server)
    page.locator("#partner-field label.pill", has_text="Zhang").click()
    for name in ("Li", "Wang"):                                              # opponents out first and second
        page.locator(".tap-order button.tap", has_text=name).click()
    _tap(page, 0, 100)
    _tap(page, 1, 5)
    _tap(page, 2, 20)
    expect(page.locator("#captured_3")).to_have_value("0")                   # nothing made up for Zhao
    expect(page.locator("#auto-note")).to_be_hidden()
    expect(page.locator("#points-sum")).to_contain_text("125 of 200")
    _tap(page, 3, 50)                                                        # typed anyway: not stored
    page.click("#save-hand")
    expect(page.locator("#saved")).to_be_visible()                           # E2: Li+Zhang 120 ≥ 100
    facts = _stored(live_server, public_id)
    assert facts["captured"] == {"Li": 100, "Wang": 5, "Zhang": 20}
    assert "last_hand_points" not in facts


def test_a_third_out_fills_in_and_taking_it_back_empties_it(page: Page, live_server):
    _open(page, live_server)
    page.locator("#partner-field label.pill", has_text="Zhang").click()
    _tap(page, 0, 100)
    _tap(page, 1, 50)
    _tap(page, 2, 20)
    expect(page.locator("#captured_3")).to_have_value("0")                   # the order is not in yet
    for name in ("Li", "Wang", "Zhang"):
        page.locator(".tap-order button.tap", has_text=name).click()
    expect(page.locator("#captured_3")).to_have_value("30")
    page.locator(".tap-order button.tap", has_text="Zhang").click()          # not third after all
    expect(page.locator("#captured_3")).to_have_value("0")
    expect(page.locator("#auto-note")).to_be_hidden()
