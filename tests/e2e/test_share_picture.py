"""Issue 33 item 9, in Chromium at 390×844: "Share as picture" on the summary and settle-up pages
draws the standings and the fewest transfers as a PNG on the phone and shares it (Web Share with
files) or downloads it. The PNG is decoded here (no image library: zlib and the PNG filters) and
must be a real picture of the page's size, not an empty canvas. With SHOTS=dir the pages and the
pictures are written there in en, zh, ar, light and dark."""
import base64
import os
import pathlib
import struct
import uuid
import zlib

import pytest
from playwright.sync_api import Page, expect

from companion import access, scoring

PLAYERS = ["Ann", "李小龙", "Chen Wei-Ling", "王"]

# Web Share with files, as a phone has it: the file handed to the share sheet is kept for the test.
SHARE_SHEET = """
  window.__shared = null;
  navigator.canShare = function (d) { return !!(d && d.files && d.files.length); };
  navigator.share = function (d) {
    return d.files[0].arrayBuffer().then(function (b) {
      var s = "", bytes = new Uint8Array(b);
      for (var i = 0; i < bytes.length; i++) s += String.fromCharCode(bytes[i]);
      window.__shared = {name: d.files[0].name, type: d.files[0].type, title: d.title, data: btoa(s)};
    });
  };
"""


def seed(live_server, stake="0.5"):
    with live_server.app.app_context():
        table = scoring.create_table(game="gandengyan", name="Friday 干瞪眼", players=PLAYERS, stake=stake,
                                     currency="¥", first_dealer="Ann")
        for i in range(5):
            winner = PLAYERS[i % 4]
            losers = {n: {"cards": 1 + (i + j) % 6, "jokers": 0} for j, n in enumerate(PLAYERS) if n != winner}
            scoring.record_hand(table, {"winner": winner, "losers": losers}, request_id=uuid.uuid4().hex)
        return table.public_id, access.edit_token(table)


def shared_file(page: Page) -> dict:
    """The file the page handed to the share sheet (polled: the page's CSP refuses a string predicate)."""
    for _ in range(200):
        shared = page.evaluate("window.__shared")
        if shared is not None:
            return shared
        page.wait_for_timeout(50)
    raise AssertionError("nothing was shared")


def decode_png(data: bytes):
    """(width, height, distinct colours) of an 8-bit RGB(A) PNG, its rows unfiltered."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n", data[:8]
    pos, idat, width = 8, b"", None
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            width, height, depth, colour = struct.unpack(">IIBB", body[:10])
            assert depth == 8 and colour in (2, 6)
            bpp = 4 if colour == 6 else 3
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    raw, stride, prev, colours = zlib.decompress(idat), width * bpp, bytearray(width * bpp), set()
    for r in range(height):
        kind, line = raw[r * (stride + 1)], bytearray(raw[r * (stride + 1) + 1:(r + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b, c = prev[i], prev[i - bpp] if i >= bpp else 0
            if kind == 1:
                line[i] = (line[i] + a) & 255
            elif kind == 2:
                line[i] = (line[i] + b) & 255
            elif kind == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif kind == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        if r % 4 == 0:
            colours.update(bytes(line[i:i + 3]) for i in range(0, stride, bpp * 3))
        prev = line
    return width, height, colours


def check_picture(data: bytes, players: int):
    width, height, colours = decode_png(data)
    assert width == 1200  # 600 px drawn at twice the pixels: sharp in a chat
    assert 2 * (200 + 40 * players) < height < 2 * 900, height
    assert len(colours) > 20, len(colours)  # text drawn (antialiased), not one flat colour


def test_summary_picture_is_downloaded_where_the_phone_cannot_share_files(page: Page, live_server):
    public_id, _ = seed(live_server)
    page.goto(f"{live_server}/t/{public_id}/summary?lang=en")
    button = page.locator("#share-picture")
    expect(button).to_be_visible()
    expect(button).to_have_text("Share as picture")
    assert page.evaluate("!!(navigator.canShare && navigator.canShare({files: [new File(['x'], 'x.png')]}))") is False
    data = page.evaluate("JSON.parse(document.getElementById('share-picture').dataset.picture)")
    money = page.locator("#final-standings tbody tr").first.locator("td.money").inner_text()
    assert data["rows"][0][2] == money  # the page's own figures, not computed again
    assert data["headers"] == ["Player", "Points", "Money"] and data["transfers_title"] == "Settle up"
    with page.expect_download() as caught:
        button.click()
    download = caught.value
    assert download.suggested_filename == "standings.png"
    check_picture(pathlib.Path(download.path()).read_bytes(), len(PLAYERS))


def test_settle_up_picture_goes_to_the_share_sheet_in_arabic(browser, browser_context_args, live_server):
    public_id, _ = seed(live_server)
    context = browser.new_context(**{**browser_context_args, "locale": "ar"})
    context.add_init_script(SHARE_SHEET)
    try:
        page = context.new_page()
        page.goto(f"{live_server}/t/{public_id}/settle?lang=ar")
        assert page.evaluate("document.documentElement.dir") == "rtl"
        button = page.locator("#share-picture")
        expect(button).to_be_visible()
        assert button.inner_text() != "Share as picture"  # in the page's language
        data = page.evaluate("JSON.parse(document.getElementById('share-picture').dataset.picture)")
        lines = page.locator("#transfers li").all_inner_texts()
        assert len(data["transfers"]) == len(lines) >= 1
        button.click()
        shared = shared_file(page)
        assert shared["name"] == "standings.png" and shared["type"] == "image/png"
        assert shared["title"] == "Friday 干瞪眼"
        check_picture(base64.b64decode(shared["data"]), len(PLAYERS))
    finally:
        context.close()


def test_without_javascript_there_is_no_button(browser, browser_context_args, live_server):
    public_id, _ = seed(live_server)
    context = browser.new_context(**{**browser_context_args, "java_script_enabled": False})
    try:
        page = context.new_page()
        for where in ("summary", "settle"):
            page.goto(f"{live_server}/t/{public_id}/{where}")
            expect(page.locator("#share-picture")).to_be_hidden()
            expect(page.locator("h1")).to_be_visible()
    finally:
        context.close()


@pytest.mark.skipif(not os.environ.get("SHOTS"), reason="screenshots only when SHOTS=dir is given")
@pytest.mark.parametrize("lang", ["en", "zh", "ar"])
@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_screenshots_of_the_pages_and_the_pictures(browser, browser_context_args, live_server, lang, scheme):
    out = pathlib.Path(os.environ["SHOTS"])
    out.mkdir(parents=True, exist_ok=True)
    public_id, _ = seed(live_server)
    context = browser.new_context(**{**browser_context_args, "color_scheme": scheme})
    context.add_init_script(SHARE_SHEET)
    try:
        page = context.new_page()
        for where in ("summary", "settle"):
            page.goto(f"{live_server}/t/{public_id}/{where}?lang={lang}")
            page.locator("#share-picture").scroll_into_view_if_needed()
            page.screenshot(path=str(out / f"share-{where}-{lang}-{scheme}.png"))
            page.click("#share-picture")
            (out / f"picture-{where}-{lang}-{scheme}.png").write_bytes(base64.b64decode(shared_file(page)["data"]))
            page.evaluate("window.__shared = null")
    finally:
        context.close()
