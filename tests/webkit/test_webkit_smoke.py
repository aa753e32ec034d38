"""A smoke journey in WebKit (issue 33 item 10): half the phones at a table are iPhones. Debian's
WebKitGTK (WebKitWebDriver + MiniBrowser) driven by Selenium under a private Xvfb display: open a
table by its record link, say who holds the phone, record, correct, Back after Save (the page comes
back from WebKit's back/forward cache with its old request id: the server must ask "hand N
again?"), save while the server cannot be reached and see the outbox send it when it is back.

"Offline" is a loopback proxy in front of the live server that drops every connection while it is
down (the driver has no offline switch). Skipped with the reason when WebKitWebDriver or Xvfb is
missing (scripts/system_deps.sh installs them), except under CI=true: then it fails.
"""
import os
import shutil
import socket
import subprocess
import threading
import time

import pytest

from companion import access, scoring

pytestmark = pytest.mark.browser

DRIVER = shutil.which("WebKitWebDriver")
XVFB = shutil.which("Xvfb")
MINIBROWSER = next((p for p in ("/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser",
                                "/usr/lib/aarch64-linux-gnu/webkit2gtk-4.1/MiniBrowser",
                                "/usr/lib/x86_64-linux-gnu/webkit2gtk-4.0/MiniBrowser") if os.path.exists(p)), None)
MISSING = "WebKit smoke skipped: apt-get install webkit2gtk-driver xvfb (scripts/system_deps.sh does it as root)"
IPHONE = ("Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) "
          "Version/18.0 Mobile/15E148 Safari/604.1")


class Proxy:
    """A loopback TCP proxy to ``port`` that can go down (it then closes every connection at once)."""

    def __init__(self, port: int):
        self.target, self.up = port, True
        self.server = socket.create_server(("127.0.0.1", 0))
        self.port = self.server.getsockname()[1]
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self):
        while True:
            try:
                client, _ = self.server.accept()
            except OSError:
                return
            if not self.up:
                client.close()
                continue
            try:
                upstream = socket.create_connection(("127.0.0.1", self.target))
            except OSError:
                client.close()
                continue
            for a, b in ((client, upstream), (upstream, client)):
                threading.Thread(target=self._pipe, args=(a, b), daemon=True).start()

    @staticmethod
    def _pipe(source, sink):
        try:
            while data := source.recv(65536):
                sink.sendall(data)
        except OSError:
            pass
        finally:
            for s in (source, sink):
                try:
                    s.shutdown(socket.SHUT_RDWR)
                except OSError:
                    pass

    def close(self):
        self.server.close()


@pytest.fixture(scope="module")
def webkit():
    """One WebKit (under its own Xvfb) for the module's tests: starting one takes seconds."""
    if not (DRIVER and XVFB and MINIBROWSER):
        if os.environ.get("CI"):
            pytest.fail("CI is set but " + MISSING)
        pytest.skip(MISSING)
    from selenium import webdriver
    from selenium.webdriver.webkitgtk.options import Options
    from selenium.webdriver.webkitgtk.service import Service

    read, write = os.pipe()
    xvfb = subprocess.Popen([XVFB, "-displayfd", str(write), "-screen", "0", "800x1000x24", "-nolisten", "tcp"],
                            pass_fds=[write], stderr=subprocess.DEVNULL)
    os.close(write)
    display = os.read(read, 16).decode().strip()  # Xvfb says its display once it is ready
    options = Options()
    options.binary_location = MINIBROWSER
    options.add_argument("--automation")
    options.add_argument(f"--user-agent={IPHONE}")
    service = Service(executable_path=DRIVER, env={**os.environ, "DISPLAY": f":{display}", "LANG": "C.UTF-8"})
    driver = webdriver.WebKitGTK(options=options, service=service)
    driver.set_window_size(390, 844)
    try:
        yield driver
    finally:
        driver.quit()
        xvfb.terminate()
        xvfb.wait(10)
        os.close(read)


def wait_for(driver, script, timeout=10.0):
    """Wait until ``script`` (a JavaScript expression) is truthy; its value."""
    end = time.monotonic() + timeout
    while True:
        value = driver.execute_script(f"return {script}")
        if value or time.monotonic() > end:
            assert value, (script, driver.current_url, driver.execute_script(
                "return document.querySelector('main') && document.querySelector('main').innerText.slice(0, 500)"))
            return value
        time.sleep(0.1)


def tap(driver, selector):
    driver.find_element("css selector", selector).click()


def loaded(driver, selector):
    """Wait for ``selector`` on a fresh page and start catching its script errors."""
    wait_for(driver, f"document.readyState === 'complete' && document.querySelector({selector!r})")
    driver.execute_script("""if (!window.__errors) { window.__errors = [];
        window.addEventListener('error', function (e) { window.__errors.push(String(e.message)); });
        window.addEventListener('unhandledrejection', function (e) { window.__errors.push(String(e.reason)); }); }""")


def record(driver, winner, cards):
    loaded(driver, "#save-hand")
    tap(driver, f"#hand-form label.pill:nth-of-type({winner + 1})")
    for seat, n in cards.items():
        tap(driver, f"#cards_{seat}-field .chip[data-value='{n}']")


def test_webkit_journey(webkit, live_server):
    with live_server.app.app_context():
        table = scoring.create_table(game="gandengyan", name="iPhone", players=["Ann", "Bo", "Cy"], first_dealer="Ann")
        public_id, token = table.public_id, access.edit_token(table)
    proxy = Proxy(int(live_server.rsplit(":", 1)[1]))
    base, d = f"http://127.0.0.1:{proxy.port}", webkit
    try:
        d.get(f"{base}/t/{public_id}#key={token}")  # joins by itself, then asks who holds the phone
        loaded(d, "#holder-title")
        d.find_element("xpath", "//section[@id='holder']//button[normalize-space()='Bo']").click()
        loaded(d, "details#holder")
        tap(d, "#record")
        record(d, 0, {1: 4, 2: 2})
        assert d.execute_script("return document.querySelector('#hand-form label.pill.checked').textContent").strip() == "Ann"
        tap(d, "#save-hand")
        loaded(d, "#saved")
        assert "Hand 1" in d.find_element("css selector", "h1").text or "1" in d.find_element("css selector", "h1").text

        tap(d, "#edit")  # correct it: Cy had 3 cards, not 2
        loaded(d, "#save-hand")
        tap(d, "#cards_2-field .chip[data-value='3']")
        tap(d, "#save-hand")
        loaded(d, "#saved")

        d.get(f"{base}/t/{public_id}/record")  # a second hand, then Back after Save
        record(d, 1, {0: 5, 2: 1})
        d.execute_script("window.__kept = 1")
        tap(d, "#save-hand")
        loaded(d, "#saved")
        d.execute_script("history.back()")
        loaded(d, "#save-hand")
        kept = d.execute_script("return window.__kept === 1")  # the page came back from the cache
        if not kept:
            record(d, 1, {0: 5, 2: 1})
        tap(d, "#save-hand")
        loaded(d, "#duplicate")  # "This looks like hand 2 again", not a silent "Saved."
        tap(d, "#record-anyway")
        loaded(d, "#saved")

        d.get(f"{base}/t/{public_id}/record")  # the server cannot be reached: the outbox keeps it
        record(d, 2, {0: 1, 1: 1})
        proxy.up = False
        tap(d, "#save-hand")
        wait_for(d, "document.querySelector('.outbox-note.waiting')", timeout=20)
        proxy.up = True  # back: the outbox sends it within a few seconds
        wait_for(d, "document.querySelector('.outbox-note.sent')", timeout=30)
        d.get(f"{base}/t/{public_id}")
        loaded(d, "#hands")
        assert d.execute_script("return document.querySelectorAll('#hands > li').length") == 4
        assert d.execute_script("return window.__errors") == []
    finally:
        proxy.close()
    with live_server.app.app_context():
        hands = scoring.get_table(public_id)
        assert hands.hand_seq == 4
    print("kept by the back/forward cache:", kept)


def test_webkit_shares_the_standings_as_a_picture(webkit, live_server):
    """The share sheet path on an iPhone's engine (Chromium covers it too): on the summary page
    "Share as picture" draws the standings on a WebKit canvas and hands the share sheet a PNG
    (navigator.share/canShare stand in for the iPhone's, keeping the file for the test). The twin:
    before the tap nothing was shared."""
    import base64
    import sys
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "e2e"))
    from test_share_picture import PLAYERS, SHARE_SHEET, check_picture, seed

    public_id, _token = seed(live_server)
    d = webkit
    d.get(f"{live_server}/t/{public_id}/summary?lang=zh")
    loaded(d, "#share-picture:not([hidden])")
    d.execute_script(SHARE_SHEET)
    assert d.execute_script("return window.__shared") is None
    tap(d, "#share-picture")
    shared = wait_for(d, "window.__shared", timeout=20)
    assert shared["name"] == "standings.png" and shared["type"] == "image/png"
    check_picture(base64.b64decode(shared["data"]), len(PLAYERS))
    assert d.execute_script("return window.__errors") == []
