"""Managing a table on a phone (390×844): double the stake from the next hand, archive and restore,
delete and bring it back from the start page. Screenshots of the settings page in English, Chinese and
Arabic under tests/e2e/artifacts/ (git-ignored; CI keeps them)."""
from playwright.sync_api import Page, expect

from companion import access, scoring

from e2e_helpers import screenshots_in_languages

FACTS = {"winner": "Ann", "losers": {"李小龙": {"cards": 2}, "Bo": {"cards": 1}}}  # Ann +3


def small_targets(page: Page):
    return page.evaluate("""() => [...document.querySelectorAll('main button, main .button, main input, main label.check')]
        .filter(e => e.offsetParent !== null && e.type !== 'hidden' && e.type !== 'checkbox')  // its label is the target
        .map(e => [e.id || e.textContent.trim(), e.getBoundingClientRect().height])
        .filter(([_, h]) => h < 44)""")


def test_manage_a_table_on_a_phone(page: Page, live_server):
    with live_server.app.app_context():
        table = scoring.create_table(game="gandengyan", name="Friday 干瞪眼", players=["Ann", "李小龙", "Bo"],
                                     stake="1", currency="¥")
        scoring.record_hand(table, FACTS, request_id="one")
        public_id, key = table.public_id, access.edit_token(table)
    base = f"{live_server}/t/{public_id}"
    page.goto(f"{base}#key={key}")
    expect(page.locator("#record")).to_be_visible()

    # Double the stake from midnight: one field, one Save.
    page.locator("#settings-link").click()
    expect(page.locator("#settings-form")).to_be_visible()
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    assert small_targets(page) == []
    page.fill("#stake", "2")
    page.locator("#save-settings").click()
    expect(page.locator(".flash")).to_contain_text("from hand 2 on")
    with live_server.app.app_context():
        scoring.record_hand(scoring.get_table(public_id), FACTS, request_id="two")
    page.goto(base)
    expect(page.locator("#stake-changes")).to_contain_text("From hand 2: one point = 2 ¥")
    expect(page.locator('#standings tr[data-player="Ann"] .money')).to_have_text("+9 ¥")  # 3 × 1 + 3 × 2

    # A typo in the stake: the message says what is wrong, the text stays, nothing changes.
    page.goto(base + "/settings")
    page.fill("#stake", "2,,5")
    page.locator("#save-settings").click()
    expect(page.locator("#stake-error")).to_be_visible()
    expect(page.locator("#stake")).to_have_value("2,,5")

    # Archive: no Record button; restore: it is back.
    page.locator("#archive-table").click()
    expect(page.locator("#archived")).to_be_visible()
    expect(page.locator("#record")).to_have_count(0)
    page.goto(base + "/settings")
    page.locator("#unarchive").click()
    expect(page.locator("#record")).to_be_visible()

    # Delete: without the tick nothing happens; with it, the start page offers to bring it back.
    page.goto(base + "/settings")
    page.locator("#delete-table").click()
    expect(page.locator("#confirm-error")).to_be_visible()
    page.locator("#confirm").check()
    page.locator("#delete-table").click()
    expect(page.locator("#deleted-tables")).to_contain_text("Friday 干瞪眼")
    page.locator("#deleted-tables button").click()
    expect(page.locator("#record")).to_be_visible()

    screenshots_in_languages(page, f"{base}/settings", "settings")
    page.goto(f"{live_server}/?lang=en")
