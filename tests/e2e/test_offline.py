"""Offline at the table (issue 18): the outbox keeps every hand the server could not take, the
service worker opens visited pages without the network, and the app is installable.

The journey runs twice: on 127.0.0.1 (a secure origin: the service worker works) and on a
plain-HTTP name of the local network (``table.lan``, mapped to loopback by Chromium's
``--host-resolver-rules``), where only the outbox (IndexedDB) is there."""
import json
import time
from contextlib import contextmanager

import pytest
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import expect

from sqlalchemy import select

from companion import access, scoring
from companion.extensions import db
from companion.db.models import Hand
from e2e_helpers import shot

PLAYERS = ["Ann", "Bo", "Cy"]
FIRST = {"winner": "Ann", "losers": {"Bo": {"cards": 2, "jokers": 0}, "Cy": {"cards": 1, "jokers": 0}}}


def fill_hand(page, winner: str, cards: dict):
    """干瞪眼 on the phone: tap the winner, then each loser's cards and jokers (0)."""
    page.locator("#winner-field label.pill", has_text=winner).click()
    for seat, n in cards.items():
        page.click(f"#cards_{seat}-field .chip[data-value='{n}']")
        page.click(f"#jokers_{seat}-field .chip[data-value='0']")


def outbox(page) -> list:
    ready(page)
    return page.evaluate("window.ctcOutbox.all().then(items => items.map(i => ({state: i.state, kind: i.kind, reason: i.reason})))")


def ready(page, timeout: float = 30) -> None:
    """Until the page's outbox script has run: a page just opened may show its content before its
    deferred scripts run (a page that is still loading answers evaluate with an error)."""
    end = time.monotonic() + timeout
    while True:
        try:
            if page.evaluate("typeof window.ctcOutbox !== 'undefined'"):
                return
        except PlaywrightError:
            pass
        assert time.monotonic() < end, f"the outbox script did not run within {timeout} s"
        page.wait_for_timeout(100)


def wait_until(page, script: str, timeout: float = 20):
    """Poll ``script`` (may return a promise) until it is true (wait_for_function would need eval,
    which the pages' Content-Security-Policy refuses)."""
    end = time.monotonic() + timeout
    if "ctcOutbox" in script:
        ready(page, timeout)
    while not page.evaluate(script):
        assert time.monotonic() < end, f"still false after {timeout} s: {script}: {outbox(page)}"
        page.wait_for_timeout(200)


def wait_for_service_worker(page, timeout: float = 60):
    """Until the service worker controls ``page``. A worker whose install failed (a shell file the
    busy test server answered late) is registered again by the next page load, as on a phone: so
    the page is reloaded every 10 s while no worker controls it. A page that loaded while the worker
    was installing may stay without it although it is active (its claim missed the page): the next
    load has it, so such a page is reloaded after 1 s (it had waited the 10 s, in most runs)."""
    end = time.monotonic() + timeout
    next_reload = time.monotonic() + 10
    active_since = None
    while not page.evaluate("navigator.serviceWorker.controller !== null"):
        assert time.monotonic() < end, f"no service worker after {timeout} s"
        if active_since is None and page.evaluate(
                "navigator.serviceWorker.getRegistration().then(r => !!(r && r.active && r.active.state === 'activated'))"):
            active_since = time.monotonic()
        if time.monotonic() > next_reload or (active_since is not None and time.monotonic() - active_since > 1):
            page.reload()
            next_reload, active_since = time.monotonic() + 10, None
        page.wait_for_timeout(200)


def table_with_a_hand(live_server):
    with live_server.app.app_context():
        table = scoring.create_table(game="gandengyan", name="Offline", players=PLAYERS)
        scoring.record_hand(table, FIRST, request_id="first")
        return table.public_id, access.edit_token(table)


def stored_hands(live_server, public_id):
    with live_server.app.app_context():
        table = scoring.get_table(public_id)
        hands = db.session.scalars(select(Hand).where(Hand.table_id == table.id).order_by(Hand.number)).all()
        out = [(h.number, h.facts["winner"], h.revision) for h in hands]
        db.session.remove()
        return out


@contextmanager
def joined_phone(browser, browser_context_args, live_server, query=""):
    """A table with one hand and a new phone whose page joined it by the record link (``query``,
    e.g. ``?lang=zh``, goes before the key): yields (public_id, phone, page); the phone is closed after."""
    public_id, token = table_with_a_hand(live_server)
    phone = browser.new_context(**browser_context_args)
    try:
        page = phone.new_page()
        page.goto(f"{live_server}/t/{public_id}{query}#key={token}")
        expect(page.locator("#record")).to_be_visible()
        yield public_id, phone, page
    finally:
        phone.close()


@pytest.fixture(params=["secure", "lan"])
def origin(request, browser_type, browser_type_launch_args, live_server):
    """(browser, base URL): 127.0.0.1 is a secure origin; http://table.lan:PORT is not."""
    port = live_server.rsplit(":", 1)[1]
    launch = dict(browser_type_launch_args)
    if request.param == "lan":
        launch["args"] = list(launch.get("args", [])) + ["--host-resolver-rules=MAP table.lan 127.0.0.1"]
    browser = browser_type.launch(**launch)
    yield request.param, browser, (live_server if request.param == "secure" else f"http://table.lan:{port}")
    browser.close()


def test_two_phones_offline_every_hand_once_in_order_and_the_conflict(origin, browser_context_args, live_server):
    kind, browser, base = origin
    public_id, token = table_with_a_hand(live_server)
    phones = [browser.new_context(**browser_context_args) for _ in range(2)]
    try:
        tabs = []
        for phone in phones:
            table_page = phone.new_page()
            table_page.goto(f"{base}/t/{public_id}#key={token}")  # the record link: joins this phone
            expect(table_page.locator("#record")).to_be_visible()
            expect(table_page.locator("#install-note")).to_be_visible() if kind == "lan" else \
                expect(table_page.locator("#install-note")).to_be_hidden()
            if kind == "secure":  # the service worker controls the pages from now on
                wait_for_service_worker(table_page)
            record, edit = phone.new_page(), phone.new_page()
            record.goto(f"{base}/t/{public_id}/record")
            edit.goto(f"{base}/t/{public_id}/hands/1/edit")
            tabs.append((table_page, record, edit))

        for phone in phones:
            phone.set_offline(True)
        # Each tab is brought to the front before it is used, as a person switches tabs: a tab in
        # the background gets no animation frames, and every click there waited for one (~1.5 s).
        # Phone A: a new hand won by Bo, then a correction of hand 1 (Cy had 3 cards).
        (a_table, a_record, a_edit), (b_table, b_record, b_edit) = tabs
        a_record.bring_to_front()
        fill_hand(a_record, "Bo", {0: 4, 2: 1})
        a_record.click("#save-hand")
        expect(a_record.locator(".outbox-note.waiting")).to_contain_text("Saved on this phone")
        expect(a_record.locator("#save-hand")).to_be_visible()  # the form is still there, as typed
        a_edit.bring_to_front()
        a_edit.click("#cards_2-field .chip[data-value='3']")
        a_edit.click("#save-hand")
        expect(a_edit.locator(".outbox-note.waiting")).to_be_visible()
        # Phone B: a new hand won by Cy, then its own correction of hand 1 (Bo had 5 cards).
        b_record.bring_to_front()
        fill_hand(b_record, "Cy", {0: 2, 1: 6})
        b_record.click("#save-hand")
        expect(b_record.locator(".outbox-note.waiting")).to_be_visible()
        b_edit.bring_to_front()
        b_edit.click("#cards_1-field .chip[data-value='5']")
        b_edit.click("#save-hand")
        expect(b_edit.locator(".outbox-note.waiting")).to_be_visible()
        assert [i["state"] for i in outbox(b_edit)] == ["waiting", "waiting"]

        a_table.bring_to_front()
        if kind == "secure":  # reload offline: the service worker has the table page, with the outbox
            a_table.reload()
            expect(a_table.locator("#outbox li.waiting")).to_have_count(2)
            expect(a_table.locator("#offline-copy")).to_be_visible()
            expect(a_table.locator("#standings")).to_be_visible()
            a_table.goto(f"{base}/t/{public_id}/record")  # the record form opens offline too
            expect(a_table.locator("#save-hand")).to_be_visible()
            a_table.goto(f"{base}/t/{public_id}")
            expect(a_table.locator("#outbox")).to_contain_text("New hand")
        assert stored_hands(live_server, public_id) == [(1, "Ann", 1)]  # nothing reached the server

        phones[0].set_offline(False)
        ready(a_table)
        a_table.evaluate("window.ctcOutbox.flush()")
        wait_until(a_table, "window.ctcOutbox.all().then(i => i.length === 0)", 30)
        assert stored_hands(live_server, public_id) == [(1, "Ann", 2), (2, "Bo", 1)]

        b_table.bring_to_front()
        phones[1].set_offline(False)
        ready(b_table)
        b_table.evaluate("window.ctcOutbox.flush()")
        wait_until(b_table, "window.ctcOutbox.all().then(i => i.length === 1 && i[0].state === 'refused')", 30)
        # every hand once, in the order typed; B's correction of hand 1 was refused, not applied
        assert stored_hands(live_server, public_id) == [(1, "Ann", 2), (2, "Bo", 1), (3, "Cy", 1)]
        b_table.reload()
        refused = b_table.locator("#outbox li.refused")
        expect(refused).to_contain_text("changed by someone else")
        refused.locator(".outbox-fix").click()
        expect(b_table.locator("#conflict-message")).to_be_visible()  # both versions, and the choice
        expect(b_table.locator("#version-mine")).to_be_visible()
        b_table.click("#use-mine")  # B chooses: its correction over A's
        expect(b_table.locator("#saved")).to_be_visible()
        wait_until(b_table, "window.ctcOutbox.all().then(i => i.length === 0)", 30)  # chosen: no longer waiting
        assert stored_hands(live_server, public_id) == [(1, "Ann", 3), (2, "Bo", 1), (3, "Cy", 1)]
    finally:
        for phone in phones:
            phone.close()


def test_an_error_answer_keeps_the_form_with_the_reason(browser, browser_context_args, live_server):
    """The share link was reset while the form was open: the form stays as typed, the reason
    next to Save; nothing goes into the outbox (the person is there to act on it)."""
    with joined_phone(browser, browser_context_args, live_server) as (public_id, phone, page):
        page.goto(f"{live_server}/t/{public_id}/record")
        fill_hand(page, "Cy", {0: 3, 1: 2})
        with live_server.app.app_context():
            access.reset_token(scoring.get_table(public_id))
        page.click("#save-hand")
        expect(page.locator(".outbox-note.error")).to_contain_text("share link was reset")
        expect(page.locator("#winner-field input[data-name='Cy']")).to_be_checked()
        assert outbox(page) == []


def test_a_5xx_answer_keeps_the_hand_in_the_outbox_and_it_goes_later(browser, browser_context_args, live_server):
    with joined_phone(browser, browser_context_args, live_server) as (public_id, phone, page):
        page.goto(f"{live_server}/t/{public_id}/record")
        fill_hand(page, "Bo", {0: 1, 2: 1})
        page.route("**/record", lambda route: route.fulfill(status=503, body="<main><p role=alert>Busy</p></main>",
                                                            headers={"Retry-After": "5"}))
        page.click("#save-hand")
        expect(page.locator(".outbox-note.waiting")).to_contain_text("Busy")
        assert [i["state"] for i in outbox(page)] == ["waiting"]
        page.unroute("**/record")
        ready(page)
        page.evaluate("window.ctcOutbox.flush()")
        expect(page.locator(".outbox-note.sent")).to_contain_text("Sent")  # the form page says so
        page.goto(f"{live_server}/t/{public_id}")
        wait_until(page, "window.ctcOutbox.all().then(i => i.length === 0)", 30)
        expect(page.locator("#hand-2")).to_be_visible(timeout=10000)
        assert [h[:2] for h in stored_hands(live_server, public_id)] == [(1, "Ann"), (2, "Bo")]


def test_the_manifest_passes_chromiums_installability_check(browser_type, browser_type_launch_args,
                                                            live_server, tmp_path):
    context = browser_type.launch_persistent_context(str(tmp_path / "profile"), **browser_type_launch_args,
                                                     viewport={"width": 390, "height": 844})
    try:
        page = context.pages[0] if context.pages else context.new_page()
        page.goto(f"{live_server}/")
        wait_for_service_worker(page)
        cdp = context.new_cdp_session(page)
        errors = cdp.send("Page.getInstallabilityErrors")["installabilityErrors"]
        assert errors == [], json.dumps(errors)
        manifest = cdp.send("Page.getAppManifest")
        assert not manifest.get("errors"), manifest.get("errors")
    finally:
        context.close()


@pytest.mark.parametrize("lang", ["en", "zh", "ar"])
def test_waiting_and_refused_states_screenshots(browser, browser_context_args, live_server, lang):
    """A hand saved offline (the note next to Save, then the table page opened offline by the
    service worker with the hand waiting), then refused when the phone is back (the share link
    was reset meanwhile): kept, with the server's reason, to correct or discard. Screenshots in
    tests/e2e/artifacts/offline-*-<lang>.png."""
    with joined_phone(browser, browser_context_args, live_server, f"?lang={lang}") as (public_id, phone, page):
        wait_for_service_worker(page)
        page.goto(f"{live_server}/t/{public_id}/record")
        phone.set_offline(True)
        fill_hand(page, "Cy", {0: 3, 1: 2})
        page.click("#save-hand")
        expect(page.locator(".outbox-note.waiting")).to_be_visible()
        shot(page, f"offline-waiting-form-{lang}", full_page=False, fits=True)
        page.goto(f"{live_server}/t/{public_id}")  # offline: the service worker's copy
        expect(page.locator("#outbox li.waiting")).to_have_count(1)
        page.locator("#outbox").scroll_into_view_if_needed()
        shot(page, f"offline-waiting-table-{lang}", full_page=False)

        with live_server.app.app_context():
            access.reset_token(scoring.get_table(public_id))
        phone.set_offline(False)
        ready(page)
        page.evaluate("window.ctcOutbox.flush()")
        wait_until(page, "window.ctcOutbox.all().then(i => i.length === 1 && i[0].state === 'refused')", 30)
        page.reload()
        refused = page.locator("#outbox li.refused")
        expect(refused.locator(".reason")).not_to_be_empty()
        expect(refused.locator(".outbox-discard")).to_be_visible()
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
        page.locator("#outbox").scroll_into_view_if_needed()
        shot(page, f"offline-refused-{lang}", full_page=False)
        assert [h[:2] for h in stored_hands(live_server, public_id)] == [(1, "Ann")]
        page.on("dialog", lambda d: d.accept())
        refused.locator(".outbox-discard").click()  # discarded on purpose, never silently
        expect(page.locator("#outbox")).to_be_hidden()


def test_online_a_void_and_its_undo_show_their_messages(browser, browser_context_args, live_server):
    """Online the script's fetch is invisible: the page the server names opens, with its message."""
    with joined_phone(browser, browser_context_args, live_server) as (public_id, phone, page):
        page.on("dialog", lambda d: d.accept())
        page.goto(f"{live_server}/t/{public_id}/hands/1")
        page.click("#void")
        expect(page.locator(".flash")).to_contain_text("Hand 1 is void")
        expect(page.locator("#void-tag")).to_be_visible()
        page.goto(f"{live_server}/t/{public_id}")
        page.click("#undo")
        expect(page.locator(".flash")).to_contain_text("Undone")
        assert [h[:2] for h in stored_hands(live_server, public_id)] == [(1, "Ann")]
        assert outbox(page) == []
