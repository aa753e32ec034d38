"""The table PIN field on a phone (issue 33 item 7): 5 or 7 digits get the reason beside the field
in the page's language (no browser bubble in English), the 7th digit is not cut, nothing is set
until 6 digits are typed; without JavaScript the server says the same."""
from playwright.sync_api import expect

from companion import access, scoring


def new_table(live_server):
    with live_server.app.app_context():
        table = scoring.create_table(game="gandengyan", name="PIN", players=["Ann", "Bo", "Cy"])
        return table.public_id, access.edit_token(table)


def has_pin(live_server, public_id):
    with live_server.app.app_context():
        return bool(scoring.get_table(public_id).pin_hash)


def test_the_pin_field_says_why_beside_it_in_the_pages_language(browser, browser_context_args, live_server):
    public_id, token = new_table(live_server)
    context = browser.new_context(**{**browser_context_args, "locale": "zh-CN"})
    try:
        page = context.new_page()
        page.goto(f"{live_server}/t/{public_id}?lang=zh#key={token}")
        expect(page.locator("#record")).to_be_visible()
        posts = []
        page.on("request", lambda r: posts.append(r.url) if r.method == "POST" else None)
        page.fill("#table-pin", "12345")
        page.click("#set-pin")
        expect(page.locator("#table-pin-error")).to_contain_text("6 位数字")
        expect(page.locator("#table-pin")).to_have_attribute("aria-invalid", "true")
        page.fill("#table-pin", "")
        page.locator("#table-pin").press_sequentially("1234567")
        expect(page.locator("#table-pin")).to_have_value("1234567")  # all 7 stay: nothing cut to 6
        page.click("#set-pin")
        expect(page.locator("#table-pin-error")).to_be_visible()
        assert posts == [] and not has_pin(live_server, public_id)
        page.fill("#table-pin", "123456")
        expect(page.locator("#table-pin-error")).to_be_hidden()
        page.click("#set-pin")
        expect(page.locator("#pin-is-set")).to_be_visible()
        assert has_pin(live_server, public_id)
    finally:
        context.close()


def test_without_javascript_the_server_says_it_beside_the_field(browser, browser_context_args, live_server):
    public_id, token = new_table(live_server)
    context = browser.new_context(**browser_context_args)
    try:
        page = context.new_page()
        page.goto(f"{live_server}/t/{public_id}#key={token}")  # joined with the script on
        expect(page.locator("#record")).to_be_visible()
        page.context.set_extra_http_headers({})
        page.route("**/*.js", lambda route: route.abort())  # then no script
        page.reload()
        page.fill("#table-pin", "1234567")
        page.click("#set-pin")
        expect(page.locator("#table-pin-error")).to_contain_text("exactly 6 digits")
        expect(page.locator("#table-pin")).to_have_value("1234567")
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
        assert not has_pin(live_server, public_id)
    finally:
        context.close()


def test_full_width_and_arabic_indic_digits_pass_the_page_check_and_are_set(browser, browser_context_args, live_server):
    """The page's own check (join.js) takes 6 digits of any script, as the server does: ０１２…
    from a Chinese keyboard, ٠١٢… from an Arabic one; 5 of them are still refused beside the field."""
    public_id, token = new_table(live_server)
    context = browser.new_context(**browser_context_args)
    try:
        page = context.new_page()
        page.goto(f"{live_server}/t/{public_id}?lang=ar#key={token}")
        expect(page.locator("#record")).to_be_visible()
        page.fill("#table-pin", "١٢٣٤٥")
        page.click("#set-pin")
        expect(page.locator("#table-pin-error")).to_be_visible()
        page.fill("#table-pin", "١٢٣٤٥٦")
        expect(page.locator("#table-pin-error")).to_be_hidden()
        page.click("#set-pin")
        expect(page.locator("#pin-is-set")).to_be_visible()
        with live_server.app.app_context():
            assert access.check_pin(scoring.get_table(public_id), "123456")
        page.fill("#table-pin", "６５４３２１")
        page.click("#set-pin")
        expect(page.locator("#pin-is-set")).to_be_visible()
        with live_server.app.app_context():
            assert access.check_pin(scoring.get_table(public_id), "654321")
    finally:
        context.close()
