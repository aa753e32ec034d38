"""Review the night in a phone browser (390×844): score sheet, chart, summary and settle-up, one
screenshot each under tests/e2e/artifacts/ (git-ignored; CI keeps them)."""
import uuid

from playwright.sync_api import Page, expect

from companion import scoring

from e2e_helpers import shot

PLAYERS = ["Ann", "李小龙", "Chen Wei-Ling", "Bo", "Dorothea", "王"]


def seed(app) -> str:
    """A six-player 干瞪眼 table (stake 0.5 ¥) with 14 hands, one of them void."""
    with app.app_context():
        table = scoring.create_table(game="gandengyan", name="Friday 干瞪眼", players=PLAYERS, stake="0.5",
                                     currency="¥", first_dealer="Ann")
        for i in range(14):
            winner = PLAYERS[(i * 5) % 6]
            losers = {n: {"cards": 1 + (i + j) % 7, "jokers": 1 if (i + j) % 5 == 0 else 0}
                      for j, n in enumerate(PLAYERS) if n != winner}
            hand = scoring.record_hand(table, {"winner": winner, "losers": losers}, request_id=uuid.uuid4().hex)
            if i == 4:
                scoring.void_hand(table, hand.number, revision=hand.revision)
        return table.public_id


def page_width(page: Page) -> int:
    return page.evaluate("document.documentElement.scrollWidth")


def small_targets(page: Page):
    """Visible buttons and links people tap, smaller than 44 px high."""
    return page.evaluate("""() => [...document.querySelectorAll('main button, main .button, .review-nav a, .sheet a')]
        .filter(e => e.offsetParent !== null)
        .map(e => [e.textContent.trim(), e.getBoundingClientRect().height])
        .filter(([_, h]) => h < 44)""")


def test_review_pages_on_a_phone(page: Page, live_server):
    public_id = seed(live_server.app)
    base = f"{live_server}/t/{public_id}"

    # Score sheet: the grid scrolls inside its box, the page does not; the hand column stays put.
    page.goto(base + "/sheet")
    expect(page.locator("#sheet")).to_be_visible()
    assert page_width(page) <= 390
    wrap = page.locator(".sheet-wrap")
    assert wrap.evaluate("e => e.scrollWidth > e.clientWidth")
    first = page.locator("#sheet-1 th.hand-col")
    before = first.bounding_box()["x"]
    wrap.evaluate("e => { e.scrollLeft = 400; }")
    assert wrap.evaluate("e => e.scrollLeft") > 0
    assert abs(first.bounding_box()["x"] - before) < 1
    header = page.locator("#sheet thead th").nth(1)
    top = header.bounding_box()["y"]
    wrap.evaluate("e => { e.scrollTop = 200; }")
    assert abs(header.bounding_box()["y"] - top) < 1
    wrap.evaluate("e => { e.scrollLeft = 0; e.scrollTop = 0; }")
    expect(page.locator("#sheet-5")).to_have_class("void")
    assert small_targets(page) == []
    shot(page, "review-sheet")

    # Chart: an SVG with a title, a description and a line per player, fitting the phone.
    page.click(".review-nav >> text=Chart")
    svg = page.locator("figure.chart svg")
    expect(svg).to_be_visible()
    assert svg.bounding_box()["width"] <= 390
    assert svg.locator("desc").count() == 1
    assert svg.locator("path.line.reactive").count() == len(PLAYERS)
    assert page_width(page) <= 390
    shot(page, "review-chart")

    # Summary: standings, transfers, the figures grid.
    page.click(".review-nav >> text=Summary")
    expect(page.locator("#final-standings")).to_be_visible()
    expect(page.locator("#figures")).to_be_visible()
    expect(page.locator("#hands-played")).to_have_text("14 hands played, 1 void")  # issue 21: as recorded
    assert page_width(page) <= 390
    assert small_targets(page) == []
    shot(page, "review-summary")

    # Settle up: the copy button appears with JavaScript and copies the text.
    page.context.grant_permissions(["clipboard-read", "clipboard-write"])
    page.click(".review-nav >> text=Settle up")
    page.wait_for_url("**/settle")
    items = page.locator("#transfers li")
    expect(items.first).to_be_visible()
    assert 1 <= items.count() <= len(PLAYERS) - 1
    button = page.locator("button.copy-button")
    expect(button).to_be_visible()
    button.click()
    expect(page.locator(".copy-status")).to_have_text("Copied")
    copied = page.evaluate("navigator.clipboard.readText()")
    assert copied.splitlines()[0] == "Friday 干瞪眼 · Settle up" and " pays " in copied
    assert page_width(page) <= 390
    assert small_targets(page) == []
    shot(page, "review-settle")

    # Export the complete record and import it from the start page (CSRF on): a new table, same standings.
    page.goto(base)
    standings = page.locator("#standings tbody").inner_text()
    data = page.request.get(base + "/export.json").body()
    page.goto(live_server + "/")
    page.set_input_files("#import-file", files=[{"name": "night.json", "mimeType": "application/json", "buffer": data}])
    page.click("#import-table")
    expect(page.locator("h1.table-name")).to_contain_text("Friday 干瞪眼")
    expect(page.locator("#record")).to_be_visible()  # this phone can record at the copy
    assert public_id not in page.url
    assert page.locator("#standings tbody").inner_text() == standings
