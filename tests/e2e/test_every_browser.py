"""The same answer in every browser (issue 33 item 10), in Chromium with the older engines' gaps
made by script: no FormData(form, submitter), no SubmitEvent.submitter, no :has(); a page kept in
the back/forward cache after Save; the record link opened in a tab already showing the table."""
from playwright.sync_api import expect

from companion import access, scoring

# Older WebKit / Firefox: FormData ignores a submitter, a submit event names none.
OLD_ENGINE = """
  (function () {
    var Native = window.FormData;
    window.FormData = function (form) { return new Native(form); };
    window.FormData.prototype = Native.prototype;
    if (window.SubmitEvent) Object.defineProperty(SubmitEvent.prototype, "submitter", { get: function () { return undefined; } });
  })();
"""


def new_table(live_server):
    with live_server.app.app_context():
        table = scoring.create_table(game="gandengyan", name="Every", players=["Ann", "Bo", "Cy"], first_dealer="Ann")
        return table.public_id, access.edit_token(table)


def fill_hand(page):
    page.locator("label.pill", has_text="Ann").click()
    page.click("#cards_1-field .chip[data-value='4']")
    page.click("#cards_2-field .chip[data-value='2']")


def test_back_after_save_from_a_kept_page_asks_and_the_buttons_value_is_sent(browser, browser_context_args,
                                                                            live_server):
    public_id, token = new_table(live_server)
    context = browser.new_context(**browser_context_args)
    context.add_init_script(OLD_ENGINE)
    try:
        page = context.new_page()
        page.goto(f"{live_server}/t/{public_id}#key={token}")
        page.click("#record")
        fill_hand(page)
        expect(page.locator("label.pill", has_text="Ann")).to_have_class("pill checked")  # without :has()
        page.locator("label.pill", has_text="Bo").click()
        expect(page.locator("label.pill.checked")).to_have_text("Bo")
        page.locator("label.pill", has_text="Ann").click()
        first_id = page.locator("input[name=request_id]").input_value()
        page.evaluate("window.__kept = 1")
        page.click("#save-hand")
        expect(page.locator("#saved")).to_be_visible()
        page.go_back()
        expect(page.locator("#save-hand")).to_be_visible()
        kept = page.evaluate("window.__kept === 1")  # Chromium's back/forward cache kept the page
        if not kept:  # it did not: make the kept page as WebKit and Firefox give it back
            fill_hand(page)
            page.evaluate("""id => { document.querySelector('input[name=request_id]').value = id;
                window.dispatchEvent(new PageTransitionEvent('pageshow', {persisted: true})); }""", first_id)
        expect(page.locator("input[name=request_id]")).not_to_have_value(first_id)
        page.click("#save-hand")
        expect(page.locator("#duplicate")).to_contain_text("hand 1 again")  # not a silent "Saved."
        page.click("#record-anyway")  # its value (confirm_duplicate=1) is sent without FormData(form, submitter)
        expect(page.locator("#saved")).to_be_visible()
        expect(page.locator("h1")).to_contain_text("2")
    finally:
        context.close()


def test_the_record_link_opened_in_a_tab_showing_the_table_joins(browser, browser_context_args, live_server):
    public_id, token = new_table(live_server)
    context = browser.new_context(**browser_context_args)
    try:
        page = context.new_page()
        page.goto(f"{live_server}/t/{public_id}")
        expect(page.locator("#read-only")).to_be_visible()
        page.goto(f"{live_server}/t/{public_id}#key={token}")  # only the fragment changes: no page load
        expect(page.locator("#record")).to_be_visible()
        assert "key" not in page.url
    finally:
        context.close()


def test_back_after_save_without_javascript_asks_too(browser, browser_context_args, live_server):
    """No script to renew the request id: the page Back gives (kept, or its form state restored)
    sends the id of the hand it saved; the server asks "hand 1 again" instead of a silent "Saved."."""
    public_id, token = new_table(live_server)
    context = browser.new_context(**{**browser_context_args, "java_script_enabled": False})
    try:
        page = context.new_page()
        page.goto(f"{live_server}/t/{public_id}?key={token}")
        page.click("#join-button")
        page.goto(f"{live_server}/t/{public_id}/record")
        page.locator("label.pill", has_text="Ann").click()
        page.fill("#cards_1", "4")
        page.fill("#cards_2", "2")
        first_id = page.locator("input[name=request_id]").input_value()
        page.click("#save-hand")
        expect(page.locator("#saved")).to_be_visible()
        page.go_back()
        expect(page.locator("#save-hand")).to_be_visible()
        if page.locator("input[name=request_id]").input_value() != first_id:  # the page was fetched again
            page.evaluate("id => document.querySelector('input[name=request_id]').value = id", first_id)
        page.fill("#cards_1", "4")
        page.fill("#cards_2", "2")
        page.locator("label.pill", has_text="Ann").click()
        page.click("#save-hand")
        expect(page.locator("#duplicate")).to_contain_text("hand 1 again")
        page.click("#record-anyway")
        expect(page.locator("#saved")).to_be_visible()
        expect(page.locator("h1")).to_contain_text("2")
    finally:
        context.close()
