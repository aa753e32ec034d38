"""Two phones at one table (two browser contexts on one live server): one joins by the watch link
shown under the QR code, the other records; the watcher sees the new hand within 5 s, without
reloading. Also: no Content-Security-Policy violation on the way, and screenshots at 390×844."""
import os
import time

from playwright.sync_api import expect

from companion import access, scoring

from e2e_helpers import shot

SHOTS = os.environ.get("SCREENSHOTS_DIR")


def csp_errors(page):
    errors = []
    page.on("console", lambda m: errors.append(m.text) if "Content Security Policy" in m.text else None)
    return errors


def test_a_watcher_sees_a_new_hand_within_5_seconds(browser, browser_context_args, live_server):
    live_server.app.config["PUBLIC_URL"] = str(live_server)
    with live_server.app.app_context():
        table = scoring.create_table(game="gandengyan", name="Two phones", players=["Ann", "Bo", "Cy"],
                                     stake="0.5", currency="¥")
        public_id, token = table.public_id, access.edit_token(table)
    recorder = browser.new_context(**browser_context_args)
    watcher = browser.new_context(**browser_context_args)
    try:
        a, b = recorder.new_page(), watcher.new_page()
        a_errors, b_errors = csp_errors(a), csp_errors(b)

        a.goto(f"{live_server}/t/{public_id}#key={token}")  # the record link: join.js joins this phone
        expect(a.locator("#record")).to_be_visible()
        expect(a.locator("#share-record svg.qr")).to_be_visible()
        watch_link = a.locator("#watch-link").input_value()
        assert watch_link == f"{live_server}/t/{public_id}"
        assert token in a.locator("#record-link").input_value()

        b.goto(watch_link)  # what the watcher's camera reads from the watch QR code
        expect(b.locator("#read-only")).to_be_visible()
        expect(b.locator("#share-record")).to_have_count(0)
        expect(b.locator("#hand-count")).to_have_text("0 hands")
        expect(b.locator("#live-note")).to_be_visible()  # the script runs: no refresh link needed
        expect(b.locator("#refresh")).to_be_hidden()
        b.evaluate("window.notReloaded = true")
        shot(b, "watcher-empty", SHOTS)

        a.click("#record")
        a.locator("label.pill", has_text="Ann").click()
        a.click("#cards_1-field .chip[data-value='3']")
        a.click("#jokers_1-field .chip[data-value='0']")
        a.click("#cards_2-field .chip[data-value='2']")
        a.click("#jokers_2-field .chip[data-value='0']")
        a.click("#save-hand")
        expect(a.locator("#saved")).to_be_visible()
        saved = time.monotonic()

        expect(b.locator("#hand-count")).to_have_text("1 hand", timeout=5000)
        seen = time.monotonic() - saved
        assert seen < 5, f"the watcher saw the hand after {seen:.1f} s"
        expect(b.locator("#hand-1")).to_be_visible()
        expect(b.locator('#standings tr[data-player="Ann"] .points')).to_have_text("+5")
        assert b.evaluate("window.notReloaded") is True  # updated in place

        a.click("#back-to-table")
        expect(a.locator("#hand-count")).to_have_text("1 hand")
        # Keep the screen on: a toggle where the Wake Lock API exists, remembered on the phone
        wake = b.locator("#wake-lock")
        if b.evaluate("'wakeLock' in navigator"):
            expect(wake).to_have_attribute("aria-pressed", "true")
            wake.click()
            expect(wake).to_have_attribute("aria-pressed", "false")
            assert b.evaluate("localStorage.getItem('wakeLock')") == "off"
            b.reload()
            expect(b.locator("#wake-lock")).to_have_attribute("aria-pressed", "false")
        else:
            expect(wake).to_be_hidden()
        shot(a, "recorder", SHOTS)
        shot(b, "watcher", SHOTS)
        for page in (a, b):
            assert page.evaluate("document.documentElement.scrollWidth") <= 390
        assert a_errors == [] and b_errors == []
    finally:
        recorder.close()
        watcher.close()
