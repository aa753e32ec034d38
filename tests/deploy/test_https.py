"""The app deployed as the README says (issue 28): gunicorn on loopback behind Debian's nginx with
deploy/nginx.conf, TLS from a CA that Chromium trusts, TRUSTED_PROXIES=1, PUBLIC_URL on
https://cards.test:PORT. A phone walks the evening there; the proxy's own promises (compression,
HTTP sent to HTTPS, the phone's address in the logs and the rate limits) are checked by plain
HTTPS clients, each from an address of its own (127.0.0.x)."""
import gzip
import http.client
import json
import re
import time

from playwright.sync_api import expect

from proxy import NGINX_CONF, caddy_proxy, main_config, nginx_check, require_tools, site_config
from e2e_helpers import shot
from test_journey import open_table, record_gandengyan
from test_offline import fill_hand, outbox, ready, wait_for_service_worker, wait_until

PLAYERS = ["Ann", "Bo", "Cy"]


def api_json(deployment, method, path, body=None, source="127.0.0.1", headers=None):
    status, _, data = deployment.request(method, path, source=source, body=json.dumps(body).encode() if body else None,
                                         headers={"Content-Type": "application/json", **(headers or {})})
    return status, json.loads(data) if data else None


def test_nginx_accepts_the_repositorys_file(deployment, tmp_path):
    """`nginx -t` on deploy/nginx.conf (only names, ports and certificate paths replaced) with two
    upstreams, in Debian's nginx."""
    site = tmp_path / "site.conf"
    site.write_text(site_config([8001, 8002], https_port=8443, http_port=8080, certs=deployment.certs))
    assert "server 127.0.0.1:8001;\n    server 127.0.0.1:8002;" in site.read_text()
    checked = nginx_check(main_config(tmp_path, site), tmp_path)
    assert checked.returncode == 0, checked.stderr
    assert "gzip on;" in NGINX_CONF.read_text()


def test_text_answers_are_compressed_and_plain_http_goes_to_https(deployment):
    for path in ("/", "/static/css/app.css", "/static/js/outbox.js", "/api/v1/openapi.json", "/manifest.webmanifest"):
        status, headers, body = deployment.request("GET", path, headers={"Accept-Encoding": "gzip"})
        assert status == 200, path
        assert headers.get("content-encoding") == "gzip", (path, headers)
        assert gzip.decompress(body)
    status, headers, _ = deployment.request("GET", "/t/abc?x=1", https=False)
    assert status == 301 and headers["location"] == "https://cards.test/t/abc?x=1"


def test_caddy_with_the_repositorys_caddyfile(deployment, tmp_path):
    """deploy/Caddyfile in front of the same app: HTTPS with the public address, compressed text,
    and the phone's own address in the app's access log (not Caddy's, nor one the phone claims)."""
    require_tools(["caddy"])
    with caddy_proxy(deployment.upstream_ports, tmp_path / "caddy") as caddy:
        for path in ("/", "/static/css/app.css", "/static/js/outbox.js", "/api/v1/openapi.json"):
            status, headers, body = caddy.request("GET", path, headers={"Accept-Encoding": "gzip"})
            assert status == 200 and headers.get("content-encoding") == "gzip", (path, headers)
            assert gzip.decompress(body)
        status, headers, _ = caddy.request("GET", "/healthz?caddy", source="127.0.0.9",
                                           headers={"X-Forwarded-For": "203.0.113.9"})
        assert status == 200 and headers["strict-transport-security"].startswith("max-age=")  # https seen
    log = deployment.upstream_log.read_text()
    assert re.search(r"^\S+ 127\.0\.0\.9 GET /healthz 200 ", log, re.M), log
    assert "203.0.113.9" not in log


def test_gunicorn_keeps_a_connection_open_past_the_live_poll(deployment):
    """A phone's live poll comes every 3 s (LIVE_POLL_SECONDS): gunicorn (scripts/gunicorn_conf.py)
    keeps the idle connection longer, so the next poll does not meet a connection being closed
    (its default of 2 s dropped polls under load)."""
    from companion.config import Defaults

    conn = http.client.HTTPConnection("127.0.0.1", deployment.upstream_ports[0], timeout=10)
    try:
        conn.request("GET", "/healthz", headers={"Host": deployment.host})
        answer = conn.getresponse()
        answer.read()
        assert answer.status == 200 and answer.getheader("Connection", "").lower() != "close"
        first = conn.sock
        time.sleep(Defaults.LIVE_POLL_SECONDS + 1)
        conn.request("GET", "/healthz", headers={"Host": deployment.host})  # closed meanwhile: RemoteDisconnected
        assert conn.getresponse().status == 200 and conn.sock is first
    finally:
        conn.close()


def logged(deployment, *patterns: str, timeout: float = 10.0) -> str:
    """The upstream access log once every regex of ``patterns`` is in it (gunicorn writes a line after
    the answer has gone out, so a busy machine may show it a moment later), or as it is at ``timeout``."""
    import time

    end = time.monotonic() + timeout
    while True:
        log = deployment.upstream_log.read_text()
        if all(re.search(p, log, re.M) for p in patterns) or time.monotonic() > end:
            return log
        time.sleep(0.05)


def test_the_access_log_and_the_rate_limits_see_the_phones_address(deployment):
    """Each phone its own address: 127.0.0.7 opens its 3 tables an hour (the test's limit), the 4th
    is refused even when it claims another address in X-Forwarded-For (nginx overwrites it);
    127.0.0.8 behind the same proxy still opens one. The app's access log names the phones."""
    table = {"game": "gandengyan", "name": "Limits", "players": PLAYERS}
    for _ in range(3):
        assert api_json(deployment, "POST", "/api/v1/tables", table, source="127.0.0.7")[0] == 201
    assert api_json(deployment, "POST", "/api/v1/tables", table, source="127.0.0.7")[0] == 429
    forged = {"X-Forwarded-For": "203.0.113.5"}
    assert api_json(deployment, "POST", "/api/v1/tables", table, source="127.0.0.7", headers=forged)[0] == 429
    status, answer = api_json(deployment, "POST", "/api/v1/tables", table, source="127.0.0.8")
    assert status == 201
    assert answer["urls"]["share"].startswith(deployment.url + "/t/")  # PUBLIC_URL, https
    log = logged(deployment, r"^\S+ 127\.0\.0\.8 POST /api/v1/tables 201 ")
    assert re.search(r"^\S+ 127\.0\.0\.7 POST /api/v1/tables 201 ", log, re.M), log
    assert re.search(r"^\S+ 127\.0\.0\.7 POST /api/v1/tables 429 ", log, re.M), log
    assert re.search(r"^\S+ 127\.0\.0\.8 POST /api/v1/tables 201 ", log, re.M), log
    assert "203.0.113.5" not in log


def test_an_evening_over_https(browser_type, browser_type_launch_args, browser_context_args, deployment):
    """Open a table from the form, two more phones join (record link, PIN), record, correct, void,
    undo; offline: the table page reloads from the service worker, a hand waits and is sent; the
    wake lock; share links, HSTS and a Secure session cookie. Every form posts over HTTPS (with
    Referrer-Policy: no-referrer they all answered 400, issue 28)."""
    browser = browser_type.launch(**deployment.chromium_launch_args(browser_type_launch_args))
    phones = [browser.new_context(**browser_context_args) for _ in range(3)]
    try:
        a, b, c = (phone.new_page() for phone in phones)
        for page in (a, b, c):
            page.on("dialog", lambda dialog: dialog.accept())
        answer = a.goto(deployment.url + "/")
        assert answer.headers["strict-transport-security"].startswith("max-age=")
        assert a.evaluate("window.isSecureContext")
        open_table(a, deployment.url, "gandengyan", "HTTPS night", PLAYERS)  # the form's POST
        public_id = a.url.rsplit("/t/", 1)[1].split("?")[0].split("#")[0]
        table = f"{deployment.url}/t/{public_id}"
        session = next(c for c in phones[0].cookies() if c["name"] == "session")
        assert session["secure"] and session["httpOnly"]
        record_link = a.locator("#record-link").input_value()
        assert record_link.startswith(table + "#key=")
        assert a.locator("#watch-link").input_value() == table
        expect(a.locator("#share-record button.copy-link")).to_be_visible()  # the clipboard: a secure origin
        expect(a.locator("#install-note")).to_be_hidden()  # no "plain HTTP" note on this origin

        a.fill("#table-pin", "271828")  # the PIN form
        a.click("#set-pin")
        expect(a.locator("#pin-is-set")).to_be_visible()

        b.goto(record_link)  # phone B joins by the record link (the script's POST)
        expect(b.locator("#record")).to_be_visible()
        c.goto(table)  # phone C by the PIN
        c.locator("#join-details summary").click()
        c.fill("#join-key", "271828")
        c.click("#join-button")
        expect(c.locator("#record")).to_be_visible()

        record_gandengyan(a, "Ann", {1: (3, 0), 2: (2, 0)})  # hand 1
        expect(b.locator("#hand-count")).to_have_text("1 hand", timeout=10000)  # B's live poll
        b.goto(f"{table}/hands/1/edit")  # B corrects it: Cy had 1 card
        b.click("#cards_2-field .chip[data-value='1']")
        b.click("#save-hand")
        expect(b.locator("#saved")).to_be_visible()
        c.goto(f"{table}/hands/1")  # C voids it, then undoes the void
        c.click("#void")
        expect(c.locator("#void-tag")).to_be_visible()
        c.goto(table)
        c.click("#undo")
        expect(c.locator(".flash")).to_contain_text("Undone")
        expect(c.locator("#hand-1")).not_to_have_class(re.compile(r"\bvoid\b"))

        a.goto(table)  # offline: the service worker opens the table, a hand waits and is sent
        wait_for_service_worker(a)
        a.goto(f"{table}/record")  # seen once online, so the service worker has it too
        a.goto(table)
        phones[0].set_offline(True)
        a.reload()
        expect(a.locator("#offline-copy")).to_be_visible()
        a.goto(f"{table}/record")
        fill_hand(a, "Bo", {0: 2, 2: 1})
        a.click("#save-hand")
        expect(a.locator(".outbox-note.waiting")).to_contain_text("Saved on this phone")
        assert [item["state"] for item in outbox(a)] == ["waiting"]
        phones[0].set_offline(False)
        ready(a)
        a.evaluate("window.ctcOutbox.flush()")
        wait_until(a, "window.ctcOutbox.all().then(i => i.length === 0)", 30)
        a.goto(table)
        expect(a.locator("#hand-count")).to_have_text("2 hands")

        assert a.evaluate("'wakeLock' in navigator")  # a secure origin: the wake lock exists
        wake = a.locator("#wake-lock")
        expect(wake).to_have_attribute("aria-pressed", "true")
        wake.click()
        expect(wake).to_have_attribute("aria-pressed", "false")
        wake.click()
        expect(wake).to_have_attribute("aria-pressed", "true")
        shot(a, "https-evening")
    finally:
        browser.close()
    log = deployment.upstream_log.read_text()
    for line in (f"POST /t/{public_id}/pin 303", f"POST /t/{public_id}/join", f"POST /t/{public_id}/record"):
        assert line in log, line
    assert not re.search(r" (POST|GET) /t/\S+ (400|5\d\d) ", log), log


def test_installable_over_https(browser_type, browser_type_launch_args, deployment, tmp_path):
    """Chromium's own installability check, in a persistent profile, on the HTTPS origin."""
    context = browser_type.launch_persistent_context(
        str(tmp_path / "profile"), **deployment.chromium_launch_args(browser_type_launch_args),
        viewport={"width": 390, "height": 844})
    try:
        page = context.pages[0] if context.pages else context.new_page()
        page.goto(deployment.url + "/")
        wait_for_service_worker(page)
        cdp = context.new_cdp_session(page)
        errors = cdp.send("Page.getInstallabilityErrors")["installabilityErrors"]
        assert errors == [], json.dumps(errors)
    finally:
        context.close()


def test_nginx_refuses_a_flood_of_downloads_before_the_app(deployment):
    """deploy/nginx.conf limits the exports per address (10 at once, then one every 5 s): a client that
    keeps asking is answered 429 with Retry-After by nginx itself (its requests never reach gunicorn),
    while another address still downloads and the same address still polls its table. The app's own
    budget is larger here, so every 429 of this test is nginx's."""
    table = api_json(deployment, "POST", "/api/v1/tables",
                     {"game": "gandengyan", "name": "Flood", "players": PLAYERS}, source="127.0.0.11")[1]
    export = f"/t/{table['id']}/export.csv"
    answers = [deployment.request("GET", export, source="127.0.0.12") for _ in range(14)]
    statuses = [answer[0] for answer in answers]
    assert statuses[:10] == [200] * 10 and 429 in statuses[10:], statuses
    refused = next(answer for answer in answers if answer[0] == 429)
    assert int(refused[1]["retry-after"]) > 0
    line = rf"^\S+ 127\.0\.0\.12 GET {re.escape(export)} "
    end = time.monotonic() + 10  # gunicorn logs a line after the answer has gone out
    while len(re.findall(line, log := deployment.upstream_log.read_text(), re.M)) < statuses.count(200) \
            and time.monotonic() < end:
        time.sleep(0.05)
    assert len(re.findall(line, log, re.M)) == statuses.count(200)
    assert deployment.request("GET", export, source="127.0.0.13")[0] == 200  # another address
    assert [deployment.request("GET", f"/t/{table['id']}/state", source="127.0.0.12")[0]
            for _ in range(14)] == [200] * 14  # the twin: the live poll is not limited
