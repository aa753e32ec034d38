"""Screenshots of the table, record, hand, checker and summary pages at 390×844 in English, Chinese,
Arabic and Korean, light and dark:
only when SHOTS names a directory (SHOTS=/tmp/shots pytest tests/e2e/test_screenshots.py)."""
import os

import pytest
from playwright.sync_api import expect

from companion import access, scoring

from e2e_helpers import phone_context, shot

SHOTS = os.environ.get("SHOTS")
pytestmark = pytest.mark.skipif(not SHOTS, reason="set SHOTS=<directory> to take screenshots")

NAMES = {"en": ["Ann", "Bo", "Christopher Alexander Montgomery", "Dee"],
         "zh": ["王小明", "李", "欧阳娜娜", "张伟"], "ar": ["محمد", "سارة", "عبد الرحمن بن عبد العزيز", "Li 李"],
         "ko": ["민준", "지수", "👩🏽\u200d🦰 서연", "Li 李"]}


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("lang", ["en", "zh", "ar", "ko"])
def test_screens(browser, live_server, lang, scheme):
    ctx = phone_context(browser, scheme)
    page = ctx.new_page()
    names = NAMES[lang]
    with live_server.app.app_context():
        gdy = scoring.create_table(game="gandengyan", name="Friday", players=names, first_dealer=names[0],
                                   rules={"played_bomb_mult": "double"}, stake="0.5", currency="¥")
        dg = scoring.create_table(game="dagong", name="大冶", players=names, first_dealer=names[0])
        tables = [(t.public_id, access.edit_token(t)) for t in (gdy, dg)]
    def snap(name):
        shot(page, f"{lang}-{scheme}-{name}", SHOTS)

    (g_id, g_key), (d_id, d_key) = tables
    page.goto(f"{live_server}/t/{g_id}?lang={lang}#key={g_key}")
    page.wait_for_load_state("networkidle")
    page.goto(f"{live_server}/t/{d_id}#key={d_key}")
    page.wait_for_load_state("networkidle")
    page.goto(f"{live_server}/t/{g_id}/record")
    page.locator("label.pill").nth(1).click()
    page.click("#cards_0-field .chip[data-value='3']")
    page.click("#jokers_0-field .chip[data-value='1']")
    page.click("#cards_2-field .chip[data-value='5']")
    page.click("#cards_3-field .chip[data-value='1']")
    page.click("#bombs_played-field .add-size[data-value='4']")
    snap("gdy-form")
    page.click("#save-hand")
    expect(page.locator("#saved")).to_be_visible()
    snap("gdy-hand")
    page.goto(f"{live_server}/t/{d_id}/record")
    page.locator("#partner-field label.pill").nth(2).click()
    for i in (0, 1, 2):
        page.locator(".tap-order button.tap").nth(i).click()
    page.click("#captured_0-field .chip[data-value='50']")
    page.click("#captured_0-field .chip[data-value='10']")
    page.click("#captured_1-field .chip[data-value='50']")
    page.click("#captured_2-field .chip[data-value='20']")
    snap("dg-form")
    page.click("#save-hand")
    expect(page.locator("#saved")).to_be_visible()
    snap("dg-hand")
    page.goto(f"{live_server}/t/{d_id}/summary")
    snap("dg-summary")
    page.goto(f"{live_server}/t/{g_id}")
    snap("gdy-table")
    page.goto(f"{live_server}/t/{g_id}/summary")
    snap("gdy-summary")
    page.goto(f"{live_server}/check?game=gandengyan&previous=5+5&play=7+8")
    page.evaluate("document.querySelectorAll('details').forEach(d => { d.open = true; })")
    snap("checker-illegal")
    page.goto(f"{live_server}/t/{d_id}/check?previous=8+8&play=9+9")
    page.evaluate("document.querySelectorAll('details').forEach(d => { d.open = true; })")
    snap("checker-legal")
    page.goto(f"{live_server}/t/{g_id}/history")
    snap("history")
    page.goto(f"{live_server}/new/gandengyan")
    page.click("details.switches summary")
    snap("new")
    ctx.close()
