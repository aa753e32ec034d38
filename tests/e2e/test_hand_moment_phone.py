"""A hand keeps its own moment, on a phone (390×844; issue 29): hand 1's explanation ("How it was
counted") and its players, before and after a player joins through the Players page, in English,
Chinese and Arabic; and the chart of that table (late joiner, a tap on a hand) in light and dark.
Screenshots under tests/e2e/artifacts/ (hand1-before-<lang>.png, hand1-after-<lang>.png,
chart-<scheme>-<lang>.png)."""
from playwright.sync_api import Page, expect

from companion import access, scoring

from e2e_helpers import phone_context, shot

LANGS = ("en", "zh", "ar")


def _hand1(page: Page, url: str, moment: str) -> dict:
    """Hand 1's block in each language: its players and its steps; a screenshot each."""
    seen = {}
    for lang in LANGS:
        page.goto(f"{url}?lang={lang}")
        expect(page.locator("ol.steps li").first).to_be_visible()
        seen[lang] = (page.locator("#hand-deltas tr").evaluate_all("rows => rows.map(r => r.dataset.player)"),
                      page.locator("ol.steps li").all_inner_texts())
        shot(page, f"hand1-{moment}-{lang}", fits=True)
    return seen


def test_hand_1_keeps_its_explanation_when_a_player_joins(page: Page, live_server, browser):
    with live_server.app.app_context():
        table = scoring.create_table(game="gandengyan", name="Friday", players=["Ann", "李小龙", "Cy"], stake="0.5",
                                     currency="¥", first_dealer="Ann")
        scoring.record_hand(table, {"winner": "Ann", "losers": {"李小龙": {"cards": 3, "jokers": 1},
                                                                "Cy": {"cards": 2, "jokers": 0}}}, request_id="h1")
        public_id, key = table.public_id, access.edit_token(table)
    base = f"{live_server}/t/{public_id}"
    page.goto(f"{base}#key={key}")
    expect(page.locator("#record")).to_be_visible()
    before = _hand1(page, base + "/hands/1", "before")
    assert before["en"][0] == ["Ann", "李小龙", "Cy"] and any("李小龙" in s for s in before["en"][1])

    page.goto(base + "/players?lang=en")
    page.fill("#new_0", "Dorothea")
    page.locator("#save-players").click()
    expect(page.locator(".flash")).to_contain_text("Players saved")
    with live_server.app.app_context():
        table = scoring.get_table(public_id)
        assert table.player_names == ["Ann", "李小龙", "Cy", "Dorothea"]
        scoring.record_hand(table, {"winner": "Dorothea", "losers": {n: {"cards": 4, "jokers": 0}
                                                                     for n in ("Ann", "李小龙", "Cy")}},
                            request_id="h2")

    after = _hand1(page, base + "/hands/1", "after")
    assert after == before  # the same players, the same steps, in every language; Dorothea not there

    for scheme in ("light", "dark"):
        ctx = phone_context(browser, scheme)
        phone = ctx.new_page()
        for lang in LANGS:
            phone.goto(f"{base}/chart?lang={lang}")
            expect(phone.locator("#running-totals")).to_be_visible()
            assert phone.evaluate("document.documentElement.scrollWidth") <= 390
            background = phone.evaluate("getComputedStyle(document.querySelector('#running-totals')).backgroundColor")
            page_background = phone.evaluate("getComputedStyle(document.body).backgroundColor")
            if scheme == "dark":
                assert background != "rgb(255, 255, 255)" and page_background != "rgb(255, 255, 255)"
            phone.locator('.hand-taps a[href="#at-hand-1"]').tap()
            row = phone.locator("#at-hand-1")
            expect(row).to_be_visible()
            expect(row).to_contain_text("Dorothea")  # absent from hand 1: shown as such
            expect(row.locator(".visually-hidden")).to_have_count(1)
            legend = phone.locator("#running-totals .legend text").all()
            box = phone.locator("#running-totals").bounding_box()
            for name in legend:  # every legend name inside the chart: nothing clipped
                b = name.bounding_box()
                assert b["x"] >= box["x"] - 1 and b["x"] + b["width"] <= box["x"] + box["width"] + 1
            shot(phone, f"chart-{scheme}-{lang}")
        ctx.close()
