"""Players who come and go, on a phone (390×844; issue 21, item 3): a player joins, one leaves, and in
大冶打拱 a substitute takes a seat, through the Players page; the totals on the table page checked by
hand. Screenshots of the page in en, zh, ar and ko under tests/e2e/artifacts/."""
from playwright.sync_api import Page, expect

from companion import access, scoring

from e2e_helpers import screenshots_in_languages


def loses(**cards):
    return {"losers": {name: {"cards": n, "jokers": 0} for name, n in cards.items()}}


def points(page: Page, name: str):
    return expect(page.locator(f'#standings tr[data-player="{name}"] .points'))


def test_a_player_joins_and_one_leaves_on_a_phone(page: Page, live_server):
    with live_server.app.app_context():
        table = scoring.create_table(game="gandengyan", name="Friday", players=["Ann", "Bo", "Cy", "Di"])
        scoring.record_hand(table, {"winner": "Ann", **loses(Bo=3, Cy=1, Di=2)}, request_id="h1")  # Ann +6
        public_id, key = table.public_id, access.edit_token(table)
    base = f"{live_server}/t/{public_id}"
    page.goto(f"{base}#key={key}")
    expect(page.locator("#record")).to_be_visible()
    page.goto(base + "/settings")
    page.locator("#change-players").click()
    expect(page.locator("#players-form")).to_be_visible()
    assert page.evaluate("document.documentElement.scrollWidth") <= 390

    # A name already at the table: the message is beside the field, the typed text stays.
    page.fill("#new_0", "ann")
    page.locator("#save-players").click()
    expect(page.locator("#new_0-error")).to_contain_text("twice")
    expect(page.locator("#new_0")).to_have_value("ann")

    page.fill("#new_0", "Eve")
    page.locator("#save-players").click()
    expect(page.locator(".flash")).to_contain_text("Players saved")
    with live_server.app.app_context():
        table = scoring.get_table(public_id)
        assert table.player_names == ["Ann", "Bo", "Cy", "Di", "Eve"]
        scoring.record_hand(table, {"winner": "Eve", **loses(Ann=2, Bo=1, Cy=1, Di=4)}, request_id="h2")  # Eve +8

    page.goto(base + "/players")
    page.locator("#leave_3").check()  # Di goes home
    page.locator("#save-players").click()
    expect(page.locator(".flash")).to_contain_text("Players saved")
    with live_server.app.app_context():
        table = scoring.get_table(public_id)
        assert table.player_names == ["Ann", "Bo", "Cy", "Eve"]
        scoring.record_hand(table, {"winner": "Bo", **loses(Ann=1, Cy=2, Eve=3)}, request_id="h3")  # Bo +6
    page.goto(base)
    # Ann +6 −2 −1; Bo −3 −1 +6; Cy −1 −1 −2; Di −2 −4 (left, keeps it); Eve +8 −3.
    for name, value in (("Ann", "+3"), ("Bo", "+2"), ("Cy", "−4"), ("Di", "−6"), ("Eve", "+5")):
        points(page, name).to_have_text(value)
    expect(page.locator("#undo")).to_contain_text("hand 3")
    screenshots_in_languages(page, base + "/players", "players-gandengyan", ("en", "zh", "ar", "ko"))
    screenshots_in_languages(page, base + "/history", "players-history", ("en", "zh", "ar"))


def test_a_substitute_takes_a_seat_at_dagong(page: Page, live_server):
    facts = {"banker": "P1", "partner": "P3", "bright_card": "7h", "order": ["P1", "P2", "P3", "P4"],
             "captured": {"P1": 60, "P2": 50, "P3": 30, "P4": 40}, "last_hand_points": 20}
    with live_server.app.app_context():
        table = scoring.create_table(game="dagong", name="大冶", players=["P1", "P2", "P3", "P4"], preset="daye",
                                     first_dealer="P1")
        scoring.record_hand(table, facts, request_id="d1")  # P1 +1, P2 −1, P3 +1, P4 −1
        public_id, key = table.public_id, access.edit_token(table)
    base = f"{live_server}/t/{public_id}"
    page.goto(f"{base}#key={key}")
    expect(page.locator("#record")).to_be_visible()  # this phone joined (join.js) before going on
    page.goto(base + "/players")
    expect(page.locator("#new_0")).to_have_count(0)  # always four: no joiners, substitutes only
    page.fill("#sub_0", "Quinn")
    page.locator("#save-players").click()
    expect(page.locator(".flash")).to_contain_text("Players saved")
    with live_server.app.app_context():
        table = scoring.get_table(public_id)
        assert scoring.current_dealer(table) == "Quinn"  # P1's turn as banker goes with the seat
        scoring.record_hand(table, dict(facts, banker="Quinn", order=["Quinn", "P2", "P3", "P4"],
                                        captured={"Quinn": 60, "P2": 50, "P3": 30, "P4": 40}), request_id="d2")
    page.goto(base)
    for name, value in (("P1", "+1"), ("Quinn", "+1"), ("P2", "−2"), ("P3", "+2"), ("P4", "−2")):
        points(page, name).to_have_text(value)
    screenshots_in_languages(page, base + "/players", "players-dagong", ("en", "zh", "ar", "ko"))
