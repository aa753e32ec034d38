"""Who holds this phone, in a real browser (issue 33 item 1): joining by the record link (script)
or by the PIN (no script) asks which player holds the phone; one tap answers, and that player's
name, not the platform's, is in the undo button and the history."""
from playwright.sync_api import expect

from companion import access, scoring


def new_table(live_server, pin=None):
    with live_server.app.app_context():
        table = scoring.create_table(game="gandengyan", name="Who", players=["Ann", "Bo", "Cy"])
        if pin:
            access.set_pin(table, pin)
        return table.public_id, access.edit_token(table)


def test_joining_by_the_record_link_asks_who_holds_the_phone(browser, browser_context_args, live_server):
    public_id, token = new_table(live_server)
    context = browser.new_context(**browser_context_args)
    try:
        page = context.new_page()
        page.goto(f"{live_server}/t/{public_id}#key={token}")
        expect(page.locator("#holder-title")).to_have_text("Who holds this phone?")
        page.locator("#holder button.pill", has_text="Bo").click()  # one tap
        expect(page.locator("details#holder > summary")).to_contain_text("This phone: Bo")
        page.click("#record")
        page.locator("label.pill", has_text="Ann").click()
        page.click("#cards_1-field .chip[data-value='3']")
        page.click("#cards_2-field .chip[data-value='2']")
        page.click("#save-hand")
        expect(page.locator("#saved")).to_be_visible()
        page.goto(f"{live_server}/t/{public_id}")
        expect(page.locator("#undo")).to_have_text("Undo: hand 1 recorded by Bo")
        assert "Linux" not in page.locator("main").inner_text()
        page.goto(f"{live_server}/t/{public_id}/history")
        expect(page.locator("main")).to_contain_text("Bo")
        assert "Linux" not in page.locator("main").inner_text()
        # and changed later, from the line at the top of the table page
        page.goto(f"{live_server}/t/{public_id}")
        page.locator("details#holder > summary").click()
        page.locator("#holder button.pill", has_text="Cy").click()
        expect(page.locator("details#holder > summary")).to_contain_text("This phone: Cy")
    finally:
        context.close()


def test_without_javascript_the_pin_join_asks_too_and_someone_else_may_type_a_name(browser, browser_context_args,
                                                                                    live_server):
    public_id, _ = new_table(live_server, pin="271828")
    context = browser.new_context(**{**browser_context_args, "java_script_enabled": False})
    try:
        page = context.new_page()
        page.goto(f"{live_server}/t/{public_id}")
        page.locator("#join-details summary").click()
        page.fill("#join-key", "271828")
        page.click("#join-button")
        expect(page.locator("#holder-title")).to_be_visible()
        page.locator(".holder-other summary").click()
        page.fill("#holder-other", "Li")
        page.click("#holder-other-save")
        expect(page.locator("details#holder > summary")).to_contain_text("This phone: Li")
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
    finally:
        context.close()
