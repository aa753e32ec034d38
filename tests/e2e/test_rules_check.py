"""Issue 13 in Chromium at 390×844: the checker opened from a table (its house rules), a verdict,
"what beats this?", pinning a joker reading with one tap, attaching the ruling to a hand; the
table's rules page with its switches. Screenshots go to $SCREENSHOTS when set."""
import os
import re

from playwright.sync_api import Page, expect

from companion import access, scoring

from e2e_helpers import shot

SHOTS = os.environ.get("SCREENSHOTS")
HAND = {"banker": "P1", "partner": "P3", "shout": None, "order": ["P1", "P2", "P3", "P4"],
        "captured": {"P1": 60, "P2": 50, "P3": 30, "P4": 40}, "last_hand_points": 20}


def key(page: Page, label: str):
    return page.locator(".card-keys button", has_text=re.compile(f"^{re.escape(label)}$"))


def _table(live_server):
    with live_server.app.app_context():
        table = scoring.create_table(game="dagong", name="Straights", players=["P1", "P2", "P3", "P4"],
                                     rules={"allow_straights": True})
        scoring.record_hand(table, HAND, request_id="e2e-1")
        return table.public_id, access.edit_token(table)


def test_checker_at_a_table(page: Page, live_server):
    public_id, token = _table(live_server)
    page.goto(f"{live_server}/t/{public_id}#key={token}")  # the record link: this phone joins
    expect(page.locator("#record")).to_be_visible()
    page.goto(f"{live_server}/t/{public_id}/hands/1")
    page.locator("#check-at-table").tap()
    expect(page.locator("#table-rules")).to_contain_text("Straights")
    page.locator("#previous").tap()
    for label in ("5", "SJ", "BJ"):
        key(page, label).tap()
    page.locator("#play").tap()
    for label in ("6", "6", "6"):
        key(page, label).tap()
    page.locator("#check-button").tap()
    # read at its strongest (5 6 7) the triple does not beat it; the page says it depends
    expect(page.locator("#verdict")).to_have_class(re.compile(r"\bdepends\b"))
    expect(page.locator("#verdict .cards")).to_have_attribute("aria-label", "6, 6, 6")
    readings = page.locator("#table-readings li")
    expect(readings).to_have_count(4)
    triple = page.locator('#table-readings li[data-pin="5 5 5"]')
    expect(triple).to_contain_text("Legal")
    shot(page, "1-verdict-readings", SHOTS)
    # what beats this?
    page.locator("#answers summary").tap()
    expect(page.locator("#answers .answer").first).to_be_visible()
    expect(page.locator('#answers .answer-set[data-pin="5 5 5"] .answer[data-kind="follow"]')).to_contain_text("triple")
    expect(page.locator('#answers-shared .answer[data-kind="bomb_4"]')).to_have_count(1)
    shot(page, "2-what-beats-this", SHOTS)
    shot(page.locator("#answers"), "2b-answers", SHOTS)
    # one tap pins the joker reading
    triple.get_by_role("link").tap()
    expect(page.locator("#verdict")).to_have_class(re.compile(r"\blegal\b"))
    expect(page.locator("#pinned")).to_contain_text("5 5 5")
    expect(page.locator("#reason-link")).to_have_attribute("href", re.compile(r"/rules#follow$"))
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, f"the page scrolls sideways ({width} px)"
    shot(page, "3-pinned", SHOTS)
    # attach the ruling to the hand
    expect(page.locator("#attach-hand")).to_have_value("1")
    page.locator("#attach-button").tap()
    expect(page.locator(".ruling")).to_contain_text("Ruled: 6 6 6 follows 5 SJ BJ")
    expect(page.locator(".ruling")).to_contain_text("5 5 5")
    shot(page, "4-hand-history", SHOTS)
    shot(page.locator("#events"), "4b-events", SHOTS)


def test_what_beats_this_from_a_hand_and_the_rules_page(page: Page, live_server):
    public_id, _token = _table(live_server)
    page.goto(f"{live_server}/check?game=dagong")
    page.locator("#previous").fill("7 7")
    page.locator("#hand").fill("3 8 BJ 9 9 9 9 5h 10h Kh")
    page.locator("#beat-button").tap()
    answers = page.locator("#answers .answer")
    expect(answers.first.locator(".cards")).to_have_attribute("aria-label", "8, big joker")
    expect(page.locator('#answers .answer[data-kind="pure_510k"] .card.red').first).to_be_visible()
    shot(page, "5-answers-with-a-hand", SHOTS)
    shot(page.locator("#answers"), "5b-answers", SHOTS)
    page.goto(f"{live_server}/t/{public_id}/rules?lang=zh")
    expect(page.locator('[data-switch="allow_straights"] .switch-value')).to_have_class(re.compile(r"\bon\b"))
    expect(page.locator('[data-switch="allow_straights"]')).to_have_class("changed")
    expect(page.locator("#worked-1 table")).to_be_visible()
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, f"the rules page scrolls sideways ({width} px)"
    shot(page, "6-table-rules-zh", SHOTS)
    shot(page.locator("#plays"), "6b-plays", SHOTS)
    shot(page.locator("#example"), "6c-example", SHOTS)


def test_gandengyan_rules_and_answers_in_arabic(page: Page, live_server):
    page.goto(f"{live_server}/rules/gandengyan?lang=ar")
    expect(page.locator("html")).to_have_attribute("dir", "rtl")
    expect(page.locator("#follow")).to_be_visible()
    expect(page.locator(".plays .cards").first).to_have_attribute("dir", "ltr")
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, f"the rules page scrolls sideways ({width} px)"
    shot(page, "7-gandengyan-rules-ar", SHOTS)
    page.goto(f"{live_server}/check?game=gandengyan&previous=4+5+6&play=6+7+8&lang=ar")
    expect(page.locator("#verdict")).to_have_class(re.compile(r"\billegal\b"))
    page.locator("#answers summary").tap()
    expect(page.locator('#answers .answer[data-kind="follow"] .cards')).to_have_attribute("aria-label", "5, 6, 7")
    page.locator("#reason-link").tap()
    expect(page).to_have_url(re.compile(r"/rules/gandengyan#follow$"))
    shot(page, "8-gandengyan-follow-ar", SHOTS)
