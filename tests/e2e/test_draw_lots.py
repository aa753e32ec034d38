"""Issue 21, item 6, in Chromium at 390×844: a table that decides its first dealer at the table gets
a "Draw" button on the first hand's form; it picks one of the players and says who."""
import re

from playwright.sync_api import Page, expect

from companion import access, scoring


def _open(page: Page, live_server, game, players):
    with live_server.app.app_context():
        table = scoring.create_table(game=game, name="draw", players=players)
        public_id, token = table.public_id, access.edit_token(table)
    page.goto(f"{live_server}/t/{public_id}#key={token}")
    page.click("#record")


def test_draw_the_first_dealer_says_who(page: Page, live_server):
    players = ["Ann", "Bo", "Cy"]
    _open(page, live_server, "gandengyan", players)
    expect(page.locator("#dealer")).to_have_value("")
    page.click("#draw-dealer-button")
    chosen = page.locator("#dealer").input_value()
    assert chosen in players
    expect(page.locator("#draw-dealer-said")).to_have_text(f"{chosen} deals first (drawn by lot).")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390


def test_draw_the_first_banker_in_arabic(page: Page, live_server):
    players = ["Li", "Wang", "Zhang", "Zhao"]
    _open(page, live_server, "dagong", players)
    page.goto(page.url + "?lang=ar")
    page.click("#draw-banker-button")
    chosen = page.locator("#banker").input_value()
    assert chosen in players
    expect(page.locator("#draw-banker-said bdi")).to_have_text(chosen)
    expect(page.locator("#draw-banker-said")).to_have_text(re.compile(r"بالقرعة"))
