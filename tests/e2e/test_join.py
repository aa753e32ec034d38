"""Joining a table in a real browser: the record link's key rides in the fragment (#key=…); the
page's script joins this phone after the load and takes the key out of the address bar. An old
"?key=" link grants nothing until "Join" is tapped; without JavaScript the PIN form works."""
import logging

from playwright.sync_api import expect

from companion import access, scoring


def test_phone_a_joins_by_the_record_link_and_the_key_leaves_the_address(browser, browser_context_args,
                                                                           live_server, caplog):
    caplog.set_level(logging.INFO, logger="werkzeug")  # the live server's access log
    live_server.app.config["PUBLIC_URL"] = str(live_server)
    with live_server.app.app_context():
        table = scoring.create_table(game="gandengyan", name="Join", players=["Ann", "Bo", "Cy"])
        public_id, token = table.public_id, access.edit_token(table)
    phone_a = browser.new_context(**browser_context_args)
    phone_b = browser.new_context(**browser_context_args)
    try:
        a = phone_a.new_page()
        csp = []
        a.on("console", lambda m: csp.append(m.text) if "Content Security Policy" in m.text else None)
        a.goto(f"{live_server}/t/{public_id}#key={token}")
        expect(a.locator("#record")).to_be_visible()  # joined after the load
        expect(a.locator(".flash")).to_contain_text("This phone can now record")
        assert "key" not in a.url and token not in a.url and a.url == f"{live_server}/t/{public_id}"
        assert token not in a.evaluate("location.href + document.referrer")
        a.go_back()  # no entry of the history holds the key (the one before is the blank start page)
        assert token not in a.url
        a.go_forward()
        expect(a.locator("#share-record")).to_be_visible()
        assert a.locator("#record-link").input_value() == f"{live_server}/t/{public_id}#key={token}"
        assert csp == []

        b = phone_b.new_page()  # an old "?key=" link: the join form, one tap; nothing before the tap
        b.goto(f"{live_server}/t/{public_id}?key={token}")
        expect(b.locator("#join-button")).to_be_visible()
        expect(b.locator("#read-only")).to_be_visible()
        assert "key=" not in b.url  # the script cleaned the address bar
        b.click("#join-button")
        expect(b.locator("#record")).to_be_visible()
    finally:
        phone_a.close()
        phone_b.close()
    logged = [r.getMessage() for r in caplog.records if r.name == "werkzeug"]
    assert any(f"/t/{public_id}/join" in line for line in logged)
    # only the old-style "?key=" link (made before record links used the fragment) ever logs its key
    assert [line for line in logged if token in line and "?key=" not in line] == []


def test_without_javascript_a_phone_joins_by_pin(browser, browser_context_args, live_server):
    with live_server.app.app_context():
        table = scoring.create_table(game="gandengyan", name="PIN", players=["Ann", "Bo", "Cy"])
        public_id = table.public_id
        access.set_pin(table, "314159")
    context = browser.new_context(**{**browser_context_args, "java_script_enabled": False})
    try:
        page = context.new_page()
        page.goto(f"{live_server}/t/{public_id}")
        expect(page.locator("#record")).to_have_count(0)
        page.locator("#join-details summary").click()
        page.fill("#join-key", "314150")
        page.click("#join-button")
        expect(page.locator("#join-error")).to_contain_text("not this table's")
        page.fill("#join-key", "314159")
        page.click("#join-button")
        expect(page.locator("#record")).to_be_visible()
        expect(page.locator("#pin-is-set")).to_be_visible()
    finally:
        context.close()
