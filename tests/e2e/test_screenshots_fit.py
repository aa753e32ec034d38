"""Screenshots of the pages issue 33 changed (who holds this phone, the PIN field, large text, the
picture for the group chat) at 390×844 in English, Chinese and Arabic, light and dark: only when
SHOTS names a directory (SHOTS=/tmp/shots pytest tests/e2e/test_screenshots_fit.py)."""
import os

import pytest

from companion import access, scoring

from e2e_helpers import phone_context, shot

SHOTS = os.environ.get("SHOTS")
pytestmark = pytest.mark.skipif(not SHOTS, reason="set SHOTS=<directory> to take screenshots")

NAMES = {"en": ["Ann", "Bo", "Christopher Alexander Montgomery", "Dee"],
         "zh": ["王小明", "李", "欧阳娜娜", "张伟"], "ar": ["محمد", "سارة", "عبد الرحمن بن عبد العزيز", "Li 李"]}


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("lang", ["en", "zh", "ar"])
def test_screens(browser, live_server, lang, scheme):
    ctx = phone_context(browser, scheme)
    page = ctx.new_page()
    names = NAMES[lang]
    with live_server.app.app_context():
        table = scoring.create_table(game="gandengyan", name="Friday", players=names, first_dealer=names[0],
                                     stake="0.5", currency="¥")
        for i in range(3):
            scoring.record_hand(table, {"winner": names[i], "losers": {n: {"cards": 2 + i + j, "jokers": 0} for j, n in enumerate(names) if n != names[i]}},
                                request_id=f"shot-{i}", device="Linux")
        public_id, key = table.public_id, access.edit_token(table)

    def snap(name, full=True):
        shot(page, f"{lang}-{scheme}-{name}", SHOTS, full_page=full)

    page.goto(f"{live_server}/t/{public_id}?lang={lang}#key={key}")
    page.wait_for_load_state("networkidle")
    snap("holder-ask", full=False)
    page.locator("#holder button.pill").nth(1).click()
    page.wait_for_load_state("networkidle")
    page.locator("details#holder > summary").click()
    snap("holder-change", full=False)
    page.fill("#table-pin", "1234567")
    page.click("#set-pin")
    page.locator("#table-pin-error").scroll_into_view_if_needed()
    snap("pin-error", full=False)
    page.goto(f"{live_server}/t/{public_id}/summary")
    page.evaluate("document.documentElement.style.setProperty('font-size', '200%', 'important');"
                  "window.dispatchEvent(new Event('resize'))")
    page.locator(".scroll-x").first.scroll_into_view_if_needed()
    snap("summary-200", full=False)
    ctx.close()
