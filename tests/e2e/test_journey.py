"""Browser journeys at a 390×844 phone viewport, CSRF on: open a table, record three hands of each
game, edit one, void one, check the standings."""
import re

from playwright.sync_api import Page, expect


def no_horizontal_scroll(page: Page):
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, f"{page.url} is {width}px wide"


def small_targets(page: Page):
    """Visible buttons and button-like links smaller than 44 px high."""
    return page.evaluate("""() => [...document.querySelectorAll('button, .button, input[type=submit], select, .pill')]
        .filter(e => e.offsetParent !== null)
        .map(e => [e.textContent.trim() || e.id || e.name, e.getBoundingClientRect().height])
        .filter(([_, h]) => h < 44)""")


def set_number(page: Page, field_id: str, value: int):
    """Tap the number chip (or "10+" and type, for big numbers)."""
    chip = page.locator(f"#{field_id}-field .chip[data-value='{value}']")
    if chip.count():
        chip.click()
    else:
        page.click(f"#{field_id}-field .chip.more")
        page.fill(f"#{field_id}", str(value))


def standings(page: Page) -> dict:
    rows = page.locator("#standings tbody tr")
    return {rows.nth(i).get_attribute("data-player"): rows.nth(i).locator(".points").inner_text()
            for i in range(rows.count())}


def open_table(page: Page, base: str, game: str, name: str, players: list[str]):
    page.goto(base + "/")
    no_horizontal_scroll(page)
    page.click(f"#new-{game}")
    page.fill("#name", name)
    for i, player in enumerate(players, start=1):
        page.fill(f"#player_{i}", player)
    page.fill("#stake", "1")
    page.fill("#currency", "¥")
    page.select_option("#first_dealer", "1")
    no_horizontal_scroll(page)
    assert small_targets(page) == []
    page.click("#open-table")
    expect(page.locator("h1.table-name")).to_contain_text(name)
    expect(page.locator("#record")).to_be_visible()


def record_gandengyan(page: Page, winner: str, losers: dict):
    page.click("#record") if page.locator("#record").count() else page.click("#next-hand")
    page.locator("label.pill", has_text=winner).click()
    for seat, (cards, jokers) in losers.items():
        set_number(page, f"cards_{seat}", cards)
        set_number(page, f"jokers_{seat}", jokers)
    no_horizontal_scroll(page)
    page.click("#save-hand")
    expect(page.locator("#saved")).to_be_visible()
    expect(page.locator("ol.steps li").first).to_be_visible()


def test_gandengyan_evening(page: Page, live_server):
    page.on("dialog", lambda dialog: dialog.accept())
    open_table(page, live_server, "gandengyan", "Friday 干瞪眼", ["Ann", "Bo", "Cy"])
    record_gandengyan(page, "Ann", {1: (3, 1), 2: (2, 0)})     # Ann +8, Bo −6, Cy −2
    # the winner's row is hidden by the script once the winner is tapped
    page.click("#next-hand")
    page.locator("label.pill", has_text="Bo").click()
    expect(page.locator("#loser-1")).to_be_hidden()
    set_number(page, "cards_0", 4)
    set_number(page, "jokers_0", 1)                            # a joker chip
    set_number(page, "jokers_0", 0)                            # and back to 0 jokers
    set_number(page, "cards_2", 1)
    page.click("#save-hand")                                   # Bo +5, Ann −4, Cy −1
    expect(page.locator("#saved")).to_be_visible()
    # the dealer suggested for the next hand is the winner
    page.click("#next-hand")
    expect(page.locator("#dealer")).to_have_value("Bo")
    page.go_back()
    record_gandengyan(page, "Cy", {0: (2, 0), 1: (2, 0)})     # Cy +4, Ann −2, Bo −2
    page.click("#back-to-table")
    expect(page.locator("#hand-count")).to_have_text("3 hands")
    assert standings(page) == {"Ann": "+2", "Bo": "−3", "Cy": "+1"}

    # edit hand 2: Cy had 3 cards, not 1
    page.click("#hand-2 a.hand-link")
    page.click("#edit")
    expect(page.locator("#cards_2")).to_have_value("1")
    expect(page.locator("#cards_2-field .chip[data-value='1']")).to_have_attribute("aria-pressed", "true")
    set_number(page, "cards_2", 3)
    page.click("#save-hand")
    expect(page.locator("#saved")).to_be_visible()
    page.click("#back-to-table")
    assert standings(page) == {"Ann": "+2", "Bo": "−1", "Cy": "−1"}

    # void hand 3
    page.click("#hand-3 a.hand-link")
    page.click("#void")
    expect(page.locator("#void-tag")).to_be_visible()
    page.click("#back-to-table")
    expect(page.locator("#hand-count")).to_have_text("3 hands, 1 void")  # issue 21: what was recorded
    assert standings(page) == {"Ann": "+4", "Bo": "+1", "Cy": "−5"}
    assert re.search(r"Ann", page.locator("#standings tbody tr").first.inner_text())
    no_horizontal_scroll(page)
    assert small_targets(page) == []

    # a bad record keeps the input and says what is wrong
    page.click("#record")
    page.locator("label.pill", has_text="Ann").click()
    set_number(page, "cards_1", 2)
    set_number(page, "jokers_1", 9)                            # typed: no chip says 9
    set_number(page, "cards_2", 1)
    page.click("#save-hand")
    expect(page.locator("#jokers_1-error")).to_be_visible()
    expect(page.locator("#jokers_1")).to_have_value("9")


def test_dagong_evening(page: Page, live_server):
    page.on("dialog", lambda dialog: dialog.accept())
    open_table(page, live_server, "dagong", "大冶打拱", ["Li", "Wang", "Zhang", "Zhao"])

    def record(partner, shout, order, captured, last):
        page.click("#record") if page.locator("#record").count() else page.click("#next-hand")
        if partner:
            page.locator("#partner-field label.pill", has_text=partner).click()
        if shout:
            page.select_option("#shout", shout)
        for name in order:                                     # tap players in the order they went out
            page.locator(".tap-order button.tap", has_text=name).click()
        for seat, points in enumerate(captured):
            page.fill(f"#captured_{seat}", str(points))
        page.fill("#last_hand_points", str(last))
        no_horizontal_scroll(page)
        page.click("#save-hand")
        expect(page.locator("#saved")).to_be_visible()

    # #5: Li+Zhang win ×1 after the end-of-hand transfers
    record("Zhang", None, ["Li", "Wang", "Zhang", "Zhao"], [60, 50, 30, 40], 20)
    page.click("#next-hand")
    expect(page.locator("#banker")).to_have_value("Li")           # the previous 头游 banks
    page.go_back()
    # #1: Li and Zhang out first and second, the others captured nothing: ×4
    record("Zhang", None, ["Li", "Zhang"], [120, 0, 80, 0], 0)
    # Zhang shouts and goes out first: +12, the others −4
    page.click("#next-hand")
    page.select_option("#shout", "Zhang")
    expect(page.locator("#partner-field input[value='']")).to_be_checked()
    page.go_back()
    record(None, "Zhang", ["Zhang"], [0, 0, 0, 0], 0)
    page.click("#back-to-table")
    expect(page.locator("#hand-count")).to_have_text("3 hands")
    assert standings(page) == {"Zhang": "+17", "Li": "+1", "Wang": "−9", "Zhao": "−9"}

    # void hand 2, then edit hand 1 (Wang, not Zhang, held the twin: now Li+Wang are the 1&2 pair)
    page.click("#hand-2 a.hand-link")
    page.click("#void")
    expect(page.locator("#void-tag")).to_be_visible()
    page.click("#back-to-table")
    assert standings(page) == {"Zhang": "+13", "Li": "−3", "Wang": "−5", "Zhao": "−5"}
    page.click("#hand-1 a.hand-link")
    page.click("#edit")
    expect(page.locator("#order_4")).to_have_value("Zhao")
    page.locator("#partner-field label.pill", has_text="Wang").click()
    page.click(".tap-order .clear")      # partners 1st and 2nd: the hand ended there (E12)
    page.locator(".tap-order button.tap", has_text="Li").click()
    page.locator(".tap-order button.tap", has_text="Wang").click()
    page.click("#save-hand")
    expect(page.locator("#saved")).to_be_visible()
    page.click("#back-to-table")
    # Li+Wang have 1st & 2nd; Zhang+Zhao captured 70 → ×2
    assert standings(page) == {"Zhang": "+10", "Li": "−2", "Wang": "−2", "Zhao": "−6"}
    page.click("text=History of changes")
    expect(page.locator("#events li.event")).to_have_count(5)
    no_horizontal_scroll(page)


def test_arabic_pages_are_rtl_and_fit(page: Page, live_server):
    page.goto(live_server + "/?lang=ar")
    assert page.locator("html").get_attribute("dir") == "rtl"
    page.click("#new-gandengyan")
    no_horizontal_scroll(page)


def test_house_rule_fields_and_read_only_friend(page: Page, live_server, browser):
    from companion import access, scoring

    with live_server.app.app_context():
        table = scoring.create_table(game="gandengyan", name="m2", players=["Ann", "Bo", "Cy"],
                                     rules={"shut_out": "double"}, first_dealer="Ann")
        public_id, token = table.public_id, access.edit_token(table)
    page.goto(f"{live_server}/t/{public_id}#key={token}")  # join.js joins this phone after the load
    page.click("#record")
    # "only the opening lead" is offered on the dealer's row only
    expect(page.locator("#only_opening_0")).to_be_visible()
    expect(page.locator("#only_opening_1")).to_be_hidden()
    page.select_option("#dealer", "Bo")
    expect(page.locator("#only_opening_1")).to_be_visible()
    expect(page.locator("#only_opening_0")).to_be_hidden()
    page.select_option("#dealer", "Ann")
    page.locator("label.pill", has_text="Cy").click()
    set_number(page, "cards_0", 4)
    page.check("#only_opening_0")
    set_number(page, "cards_1", 5)
    page.check("#never_played_1")
    page.click("#save-hand")
    expect(page.locator("#saved")).to_be_visible()
    expect(page.locator("#hand-deltas")).to_contain_text("+18")   # Ann 4×2 + Bo 5×2

    # a friend with the plain link can look but not record
    friend = browser.new_context(viewport={"width": 390, "height": 844}).new_page()
    friend.goto(f"{live_server}/t/{public_id}")
    expect(friend.locator("#read-only")).to_be_visible()
    expect(friend.locator("#record")).to_have_count(0)
    assert friend.locator("#standings").inner_text().count("+18") == 1
    friend.context.close()


def test_table_page_refreshes_itself(page: Page, live_server):
    from companion import scoring

    with live_server.app.app_context():
        table = scoring.create_table(game="gandengyan", name="live", players=["Ann", "Bo"])
        public_id = table.public_id
    page.clock.install()
    page.goto(f"{live_server}/t/{public_id}")
    expect(page.locator("#no-hands")).to_be_visible()
    with live_server.app.app_context():   # another phone records a hand
        table = scoring.get_table(public_id)
        scoring.record_hand(table, {"winner": "Ann", "losers": {"Bo": {"cards": 3, "jokers": 0}}}, request_id="x")
    page.clock.run_for(31_000)
    expect(page.locator("#hand-1")).to_be_visible()
    expect(page.locator("#standings")).to_contain_text("+3")
