"""Issue 10: a typical hand of each game recorded by taps alone, counted; and the no-JS form.

Every interaction goes through ``Taps.tap`` (a real click on a visible element): no ``fill``, no
``select_option``, so the count is what a player's thumb does, Save included.
"""
import re

from playwright.sync_api import Page, expect

from companion import access, scoring


class Taps:
    def __init__(self, page: Page):
        self.page, self.count = page, 0

    def tap(self, locator):
        expect(locator).to_be_visible()
        locator.click()
        self.count += 1


def _table(live_server, game, players, **kw):
    with live_server.app.app_context():
        table = scoring.create_table(game=game, name="quick", players=players, **kw)
        return table.public_id, access.edit_token(table)


def test_gandengyan_typical_hand_in_at_most_8_taps(page: Page, live_server):
    public_id, token = _table(live_server, "gandengyan", ["Ann", "Bo", "Cy", "Dee"], first_dealer="Ann")
    page.goto(f"{live_server}/t/{public_id}#key={token}")  # join.js joins this phone
    page.click("#record")
    t = Taps(page)
    t.tap(page.locator("label.pill", has_text="Bo"))                     # the winner
    t.tap(page.locator("#cards_0-field .chip[data-value='3']"))           # Ann: 3 cards
    t.tap(page.locator("#jokers_0-field .chip[data-value='1']"))          # … and a joker
    t.tap(page.locator("#cards_2-field .chip[data-value='5']"))           # Cy: 5 cards
    t.tap(page.locator("#cards_3-field .chip[data-value='1']"))           # Dee: 1 card
    t.tap(page.locator("#save-hand"))
    expect(page.locator("#saved")).to_be_visible()
    print(f"\n干瞪眼 typical hand: {t.count} taps")
    assert t.count <= 8
    expect(page.locator("#hand-deltas")).to_contain_text("+12")           # 3×2 + 5 + 1


def test_gandengyan_ten_or_more_cards_opens_the_field(page: Page, live_server):
    public_id, token = _table(live_server, "gandengyan", ["Ann", "Bo"], first_dealer="Ann")
    page.goto(f"{live_server}/t/{public_id}#key={token}")  # join.js joins this phone
    page.click("#record")
    page.locator("label.pill", has_text="Bo").click()
    expect(page.locator("#cards_0")).to_be_hidden()
    page.click("#cards_0-field .chip.more")
    expect(page.locator("#cards_0")).to_be_visible()
    expect(page.locator("#cards_0")).to_have_value("10")
    page.fill("#cards_0", "12")
    page.click("#save-hand")
    expect(page.locator("#hand-deltas")).to_contain_text("+12")


def test_dagong_typical_2v2_hand_in_at_most_10_taps(page: Page, live_server):
    public_id, token = _table(live_server, "dagong", ["Li", "Wang", "Zhang", "Zhao"], first_dealer="Li")
    page.goto(f"{live_server}/t/{public_id}#key={token}")  # join.js joins this phone
    page.click("#record")
    expect(page.locator("#banker")).to_have_value("Li")                   # remembered: no tap
    t = Taps(page)
    t.tap(page.locator("#partner-field label.pill", has_text="Zhang"))    # the partner
    for name in ("Li", "Wang", "Zhang"):                                  # the order; Zhao is fourth
        t.tap(page.locator(".tap-order button.tap", has_text=name))
    expect(page.locator("#order_4")).to_have_value("Zhao")
    t.tap(page.locator("#captured_0-field .chip[data-value='50']"))       # Li 60
    t.tap(page.locator("#captured_0-field .chip[data-value='10']"))
    t.tap(page.locator("#captured_1-field .chip[data-value='50']"))       # Wang 50
    t.tap(page.locator("#captured_2-field .chip[data-value='20']"))       # Zhang 30
    t.tap(page.locator("#captured_2-field .chip[data-value='10']"))
    expect(page.locator("#captured_3")).to_have_value("60")               # Zhao: the rest of 200
    t.tap(page.locator("#save-hand"))
    expect(page.locator("#saved")).to_be_visible()
    print(f"\n大冶打拱 2v2 typical hand: {t.count} taps")
    assert t.count <= 10
    expect(page.locator("#hand-deltas")).to_contain_text("+1")


def test_dagong_played_out_hand_with_odd_fives_in_at_most_10_taps(page: Page, live_server):
    """Issue 33 item 5: 35 was +20 +10 +5; a played-out hand with fives now fits in 10 taps, Save
    included (35 45 65 each took two chips: 11 taps; every multiple of 5 up to 50 is one chip now),
    and every chip, "+100" too, sits inside its field's box at 390 px."""
    public_id, token = _table(live_server, "dagong", ["Li", "Wang", "Zhang", "Zhao"], first_dealer="Li")
    page.goto(f"{live_server}/t/{public_id}#key={token}")  # join.js joins this phone
    page.click("#record")
    box = page.locator("#captured_0-field").bounding_box()
    for chip in page.locator("#captured_0-field .chip").all():
        inner = chip.bounding_box()
        assert box["x"] <= inner["x"] and inner["x"] + inner["width"] <= box["x"] + box["width"] + 0.5
        assert chip.evaluate("c => c.scrollWidth <= c.clientWidth"), chip.inner_text()  # its text fits in it
    shout = page.locator("#shout-field").bounding_box()  # the shout where a shout hand starts:
    assert shout["y"] < page.locator("#partner-field").bounding_box()["y"]  # before the partner and the points
    t = Taps(page)
    t.tap(page.locator("#partner-field label.pill", has_text="Zhang"))    # the partner
    for name in ("Li", "Wang", "Zhang"):                                  # the order; Zhao is fourth
        t.tap(page.locator(".tap-order button.tap", has_text=name))
    t.tap(page.locator("#captured_0-field .chip[data-value='35']"))       # Li 35
    t.tap(page.locator("#captured_1-field .chip[data-value='45']"))       # Wang 45
    t.tap(page.locator("#captured_2-field .chip[data-value='60']"))       # Zhang 65
    t.tap(page.locator("#captured_2-field .chip[data-value='5']"))
    expect(page.locator("#captured_3")).to_have_value("55")               # Zhao: the rest
    t.tap(page.locator("#save-hand"))
    expect(page.locator("#saved")).to_be_visible()
    print(f"\n大冶打拱 played-out hand with fives: {t.count} taps")
    assert t.count <= 10


def test_dagong_filled_fourth_points_stay_editable(page: Page, live_server):
    public_id, token = _table(live_server, "dagong", ["Li", "Wang", "Zhang", "Zhao"], first_dealer="Li")
    page.goto(f"{live_server}/t/{public_id}#key={token}")  # join.js joins this phone
    page.click("#record")
    for name in ("Li", "Wang", "Zhang"):                                  # played out: the points add up to 200
        page.locator(".tap-order button.tap", has_text=name).click()
    for seat, points in ((0, "100"), (1, "50"), (2, "20")):
        page.click(f"#captured_{seat}-field .chip[data-value='{points}']")
    expect(page.locator("#captured_3")).to_have_value("30")
    expect(page.locator("#auto-note")).to_be_visible()
    page.fill("#last_hand_points", "10")
    page.locator("#last_hand_points").dispatch_event("input")
    expect(page.locator("#captured_3")).to_have_value("20")
    page.fill("#captured_3", "25")
    expect(page.locator("#auto-note")).to_be_hidden()


def test_no_js_form_hides_what_needs_javascript(browser, live_server):
    public_id, token = _table(live_server, "dagong", ["Li", "Wang", "Zhang", "Zhao"], first_dealer="Li")
    context = browser.new_context(java_script_enabled=False, viewport={"width": 390, "height": 844})
    page = context.new_page()
    page.goto(f"{live_server}/t/{public_id}?key={token}")      # no script: an old link waits for a tap
    page.click("#join-button")
    page.goto(f"{live_server}/t/{public_id}/record")
    expect(page.locator(".tap-order")).to_be_hidden()
    expect(page.locator(".chips").first).to_be_hidden()
    expect(page.locator("#order_1")).to_be_visible()
    page.locator("#partner-field label.pill", has_text="Zhang").click()
    page.select_option("#order_1", "Li")
    page.select_option("#order_2", "Zhang")
    page.fill("#captured_0", "120")
    page.fill("#captured_2", "80")
    page.click("#save-hand")
    expect(page.locator("#saved")).to_be_visible()

    public_id, token = _table(live_server, "gandengyan", ["Ann", "Bo", "Cy"], first_dealer="Ann",
                              rules={"played_bomb_mult": "double"})
    page.goto(f"{live_server}/t/{public_id}?key={token}")      # no script: an old link waits for a tap
    page.click("#join-button")
    page.goto(f"{live_server}/t/{public_id}/record")
    expect(page.locator(".chips").first).to_be_hidden()
    page.locator("label.pill", has_text="Ann").click()
    page.fill("#cards_1", "12")                                # plain fields, any number
    page.fill("#jokers_1", "1")
    page.fill("#cards_2", "3")
    page.fill("#bombs_played", "4 5")                           # typed with a space
    page.click("#save-hand")
    expect(page.locator("#hand-deltas")).to_contain_text("+108")   # (12×2 joker + 3) ×2 ×2 for two bombs
    context.close()


def test_back_after_save_does_not_record_the_hand_twice(page: Page, live_server):
    public_id, token = _table(live_server, "gandengyan", ["Ann", "Bo", "Cy"], first_dealer="Ann")
    page.goto(f"{live_server}/t/{public_id}#key={token}")  # join.js joins this phone
    page.click("#record")
    page.locator("label.pill", has_text="Ann").click()
    page.click("#cards_1-field .chip[data-value='4']")
    page.click("#cards_2-field .chip[data-value='2']")
    page.click("#save-hand")
    expect(page.locator("#saved")).to_be_visible()
    page.go_back()
    expect(page.locator("#save-hand")).to_be_visible()
    if not page.locator("#cards_1").input_value():          # the browser did not keep the form: refill it
        page.locator("label.pill", has_text="Ann").click()
        page.click("#cards_1-field .chip[data-value='4']")
        page.click("#cards_2-field .chip[data-value='2']")
    page.click("#save-hand")
    expect(page.locator("#duplicate")).to_contain_text("hand 1 again")
    page.click("#record-anyway")                            # one tap when it really was the same again
    expect(page.locator("#saved")).to_be_visible()
    expect(page.locator("h1")).to_contain_text("2")


def test_bomb_sizes_by_chips_local_times_and_large_numbers(page: Page, live_server):
    public_id, token = _table(live_server, "gandengyan", ["Ann", "Bo"], first_dealer="Ann",
                              rules={"played_bomb_mult": "double"})
    page.goto(f"{live_server}/t/{public_id}#key={token}")  # join.js joins this phone
    page.click("#record")
    page.locator("label.pill", has_text="Ann").click()
    page.click("#cards_1-field .chip[data-value='2']")
    for size in ("4", "5", "4"):                                 # three bombs: no keyboard needed
        page.click(f"#bombs_played-field .add-size[data-value='{size}']")
    expect(page.locator("#bombs_played")).to_have_value("4 5 4")
    page.locator("#bombs_played-field .chosen-size").nth(1).click()   # take the 5 away again
    expect(page.locator("#bombs_played")).to_have_value("4 4")
    assert page.get_attribute("#bombs_played", "inputmode") is None   # typed: a keyboard with spaces
    page.click("#save-hand")
    expect(page.locator("#hand-deltas")).to_contain_text("+8")       # 2 cards ×2 ×2
    page.goto(f"{live_server}/t/{public_id}/history")
    stamp = page.locator("time").first
    assert "UTC" in stamp.get_attribute("title") and "UTC" not in stamp.inner_text()
    page.goto(f"{live_server}/t/{public_id}")
    page.click("#big-type")
    expect(page.locator("html")).to_have_class(re.compile("big-type"))
    page.reload()
    expect(page.locator("#big-type")).to_have_attribute("aria-pressed", "true")


def test_dagong_point_chips_reach_the_points_values_in_one_or_two_taps():
    """The chips come from the engine's facts description (the page draws what it says): every
    multiple of 5 from 0 to 150 in at most two adding taps, every one up to 50 and the round tens a
    played-out hand mostly has in one."""
    from companion.engine import ENGINES

    field = next(f for f in ENGINES["dagong"].describe_facts().fields if f.key == "captured.*")
    chips = set(field.chips) - {0}
    one = chips | {0}
    two = {a + b for a in chips for b in chips}
    assert all(v in one or v in two for v in range(0, 151, 5))
    assert set(range(0, 51, 5)) | {60, 70, 80, 100} <= one
    assert len(field.chips) <= 15  # three rows of five at 390 px
