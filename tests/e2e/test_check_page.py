"""The rule-checker page in Chromium at a phone viewport: the tap-to-pick card keyboard types into
the focused field, the verdict is shown big, and the page fits a 390 px screen."""
import re

from playwright.sync_api import Page, expect


def key(page: Page, label: str):
    return page.locator(".card-keys button", has_text=re.compile(f"^{re.escape(label)}$"))


def test_tap_cards_and_check(page: Page, live_server):
    page.goto(live_server + "/check")
    expect(page.locator(".card-keys")).to_be_visible()
    page.locator("#previous").tap()
    key(page, "7").tap()
    key(page, "7").tap()
    expect(page.locator("#previous")).to_have_value("7 7")
    page.locator("#play").tap()
    key(page, "8").tap()
    key(page, "SJ").tap()
    expect(page.locator("#play")).to_have_value("8 SJ")
    page.locator("#check-button").tap()
    expect(page.locator("#verdict")).to_have_class(re.compile(r"\blegal\b"))
    expect(page.locator("#verdict .verdict-word")).to_contain_text("Legal")
    expect(page.locator("#reading-used")).to_contain_text("8 8")
    # what was typed is still there, and the illegal twin: 9 + joker on 7 7
    expect(page.locator("#previous")).to_have_value("7 7")
    page.locator("#play").tap()
    page.get_by_role("button", name="Clear").tap()
    key(page, "9").tap()
    key(page, "BJ").tap()
    page.locator("#check-button").tap()
    expect(page.locator("#verdict")).to_have_class(re.compile(r"\billegal\b"))
    expect(page.locator("#verdict .verdict-word")).to_contain_text("Not legal")
    expect(page.locator("#reason")).not_to_be_empty()


def test_suits_backspace_and_no_horizontal_scroll(page: Page, live_server):
    page.goto(live_server + "/check")
    page.select_option("#game", "dagong")
    page.locator("#previous").tap()
    for label in ("5", "♥", "10", "♣", "K", "♠"):
        key(page, label).tap()
    expect(page.locator("#previous")).to_have_value("5♥ 10♣ K♠")
    key(page, "♦").tap()  # a second suit replaces the first
    expect(page.locator("#previous")).to_have_value("5♥ 10♣ K♦")
    page.get_by_role("button", name="Delete the last card").tap()
    expect(page.locator("#previous")).to_have_value("5♥ 10♣ K")
    page.get_by_role("button", name="Delete the last card").tap()
    expect(page.locator("#previous")).to_have_value("5♥ 10♣")
    key(page, "K").tap()
    key(page, "♠").tap()
    page.get_by_role("button", name="Next").tap()  # now typing into "cards to play"
    for label in ("5", "♦", "10", "♦", "K", "♦"):
        key(page, label).tap()
    expect(page.locator("#play")).to_have_value("5♦ 10♦ K♦")
    page.locator("#check-button").tap()
    expect(page.locator("#verdict")).to_have_class(re.compile(r"\blegal\b"))
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, f"the page scrolls sideways ({width} px)"
    for box in [page.locator("#check-button").bounding_box(), key(page, "7").bounding_box()]:
        assert box["height"] >= 44  # thumb-sized


def test_presets_follow_the_game(page: Page, live_server):
    page.goto(live_server + "/check")

    def offered():
        return [o.strip() for o in page.locator("#preset optgroup:not([disabled]) option").all_inner_texts()]

    # issue 21: words, not codes; the preset that only repeats the standard rules is not offered twice
    assert offered() == ["QQ game tables (one deck, jokers on top)", "High-stakes tables (bombs multiply by size)",
                         "Xiangshan (象山) tables"]
    assert page.locator("#preset > option").all_inner_texts() == ["Standard rules"]
    page.select_option("#game", "dagong")
    assert offered() == []                                   # Daye's rules are the standard 大冶打拱 rules
    page.goto(live_server + "/check?game=gandengyan&preset=xiangshan&play=5")
    expect(page.locator("#preset")).to_have_value("xiangshan")


def test_bad_cards_show_the_error_next_to_the_field(page: Page, live_server):
    page.goto(live_server + "/check")
    page.locator("#previous").fill("7")
    page.get_by_role("button", name="Phone keyboard").tap()
    page.locator("#play").fill("4 5 1")
    page.locator("#check-button").tap()
    expect(page.locator("#play-error")).to_contain_text("position 3")
    expect(page.locator("#play")).to_have_value("4 5 1")


def test_works_without_javascript(page: Page, browser_context_args, live_server):
    context = page.context.browser.new_context(**{**browser_context_args, "java_script_enabled": False})
    page = context.new_page()
    try:
        page.goto(live_server + "/check")
        expect(page.locator(".card-keys")).to_have_count(0)  # the keyboard is JavaScript's addition
        page.locator("#previous").fill("8 8 8")
        page.locator("#play").fill("9 9 JK")
        page.locator("#check-button").click()
        expect(page.locator("#verdict")).to_have_class(re.compile(r"\blegal\b"))
        expect(page.locator("#reading-used")).to_contain_text("9 9 9")
        page.locator("#play").fill("J J J")
        page.locator("#check-button").click()
        expect(page.locator("#verdict")).to_have_class(re.compile(r"\billegal\b"))
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
    finally:
        context.close()


def test_the_headline_says_it_depends_on_the_reading(page: Page, live_server):
    """Issue 32 item 4: 5 JK JK on the table, 6 6 6 played: legal if the table is 5 5 5, not if it
    is a straight; the headline says so in each language (the twin: 5 5 5 on the table, plain ✓)."""
    from e2e_helpers import shot
    for lang, word in (("en", "depends"), ("zh", "要看"), ("ar", "يتوقف")):
        page.goto(f"{live_server}/check?game=gandengyan&previous=5+JK+JK&play=6+6+6&lang={lang}")
        expect(page.locator("#verdict")).to_have_attribute("data-way", "depends")
        expect(page.locator("#verdict .verdict-word")).to_contain_text(word)
        expect(page.locator("#verdict-ways")).to_contain_text("5 5 5")
        shot(page, f"check-depends-{lang}", full_page=False, fits=True)
    page.goto(f"{live_server}/check?game=gandengyan&previous=5+5+5&play=6+6+6")
    expect(page.locator("#verdict")).to_have_attribute("data-way", "legal")
    expect(page.locator("#verdict-ways")).to_have_count(0)


def test_a_card_text_is_never_cut_across_two_lines(page: Page, live_server):
    """On a 390 px Arabic page the "Read as" line puts the cards as typed, "(10h Kh JK)", on the next
    line whole rather than "(10h Kh" here and "JK)" there: each card text is one box. The twin: the
    sentence beside it (plain text) does wrap over several lines."""
    page.goto(live_server + "/check?game=dagong&previous=8+8&play=JK+10h+Kh&lang=ar")
    expect(page.locator("#reading-used")).to_contain_text("10h Kh JK")
    boxes = page.locator("#reading-used bdi").evaluate_all("els => els.map(e => e.getClientRects().length)")
    assert boxes == [1, 1], boxes
    assert page.locator("#reason").evaluate("e => Math.round(e.getBoundingClientRect().height / "
                                            "parseFloat(getComputedStyle(e).lineHeight))") > 1
