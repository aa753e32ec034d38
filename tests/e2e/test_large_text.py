"""Large text (issue 33 item 3): at 200 % text size (the phone's text zoom: the root font size
doubled) every main page fits a 390 px phone without sideways scrolling; a word such as "Player"
never breaks in the middle; wide tables scroll inside their own box, which says so."""
import os

import pytest
from playwright.sync_api import expect

from companion import access, scoring

from e2e_helpers import shot

SHOTS = os.environ.get("SHOTS")
LARGE = """document.documentElement.style.setProperty('font-size', '200%', 'important');  // (CSP: no <style>)
  window.dispatchEvent(new Event('resize'))"""

# scroll boxes with more than they show, but no visible cue (the fade and the line under it)
NO_CUE = """() => [...document.querySelectorAll('.scroll-x, .sheet-wrap')]
  .filter(b => b.scrollWidth > b.clientWidth + 2)
  .filter(b => !b.classList.contains('more-after') || !b.nextElementSibling || b.nextElementSibling.hidden
               || !b.nextElementSibling.classList.contains('scroll-cue'))
  .map(b => b.className)"""

# every element wider than the viewport, or whose own content overflows it without a scroll box
WIDE = """() => {
  const out = [];
  for (const e of document.querySelectorAll('body *')) {
    const r = e.getBoundingClientRect();
    if (r.width === 0 || e.closest('.scroll-x, .sheet-wrap')) continue;
    if (r.right > innerWidth + 1 || r.left < -1) out.push(e.tagName + '#' + e.id + '.' + e.className + ' ' + Math.round(r.left) + '..' + Math.round(r.right));
  }
  return out.slice(0, 8);
}"""

# one word (Latin or Arabic letters, no space) laid out on more than one line: "Play/er"
BROKEN_WORDS = """() => {
  const out = [], walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const word = node.textContent.trim();
    if (!/^[\\p{Script=Latin}\\p{Script=Arabic}]{2,}$/u.test(word) || !node.parentElement.offsetParent) continue;
    const range = document.createRange();
    range.selectNodeContents(node);
    const lines = new Set([...range.getClientRects()].filter(r => r.width > 0).map(r => Math.round(r.top)));
    if (lines.size > 1) out.push(word);
  }
  return out.slice(0, 8);
}"""


@pytest.fixture
def evening(live_server):
    names = ["Ann", "Bo", "Christopher", "Dee"]
    with live_server.app.app_context():
        table = scoring.create_table(game="gandengyan", name="Large type", players=names, first_dealer="Ann",
                                     stake="0.5", currency="¥")
        for i in range(6):
            winner = names[i % 4]
            scoring.record_hand(table, {"winner": winner, "losers": {n: {"cards": 3 + i + j, "jokers": 0}
                                                                      for j, n in enumerate(names) if n != winner}},
                                request_id=f"large-{i}", device="Ann")
        return table.public_id, access.edit_token(table)


AR_PAGES = ["", "/hands/1", "/sheet", "/summary", "/settle", "/check"]  # right to left: the tables and keys
PAGES = ["", "/record", "/hands/1", "/history", "/sheet", "/summary", "/settle", "/chart", "/rules", "/check",
         "/settings", "/players", "/export"]


@pytest.mark.parametrize("lang", ["en", "ar"])
def test_every_page_fits_at_200_percent_text(browser, browser_context_args, live_server, evening, lang):
    public_id, token = evening
    context = browser.new_context(**browser_context_args)
    try:
        page = context.new_page()
        page.goto(f"{live_server}/t/{public_id}?lang={lang}#key={token}")
        expect(page.locator("#record")).to_be_visible()
        problems = {}
        for path in ["/"] * (lang == "en") + [f"/t/{public_id}{p}" for p in (PAGES if lang == "en" else AR_PAGES)]:
            page.goto(f"{live_server}{path}")
            page.evaluate(LARGE)
            width = page.evaluate("document.documentElement.scrollWidth")
            wide, broken, no_cue = page.evaluate(WIDE), page.evaluate(BROKEN_WORDS), page.evaluate(NO_CUE)
            if width > 390 or wide or broken or no_cue:
                problems[path] = (width, wide, broken, no_cue)
            if SHOTS:
                box = page.locator(".scroll-x").first
                if box.count():
                    box.scroll_into_view_if_needed()
                shot(page, f"large-{lang}-{path.rsplit('/', 1)[-1] or 'index'}", SHOTS, full_page=False)
        assert problems == {}, "\n".join(f"{k}: {v}" for k, v in problems.items())
    finally:
        context.close()
