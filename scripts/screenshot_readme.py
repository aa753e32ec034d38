"""Draw the README's pictures again: the table page of a demo 干瞪眼 table, as a phone that may
record sees it, at 390×844 in English, Chinese and Arabic -> docs/img/table-<lang>.png.

    make screenshot            (= .venv/bin/python scripts/screenshot_readme.py [OUT_DIR])

The demo table is opened and its hands recorded through the JSON API v1 (a fixed contract), on a
throwaway SQLite database migrated as ``flask db upgrade`` does; the app is served on a loopback
port and photographed by Playwright driving Debian's Chromium (``CHROMIUM_PATH``, default
/usr/lib/chromium/chromium). Nothing in the instance folder or the real database is touched."""
from __future__ import annotations

import logging
import os
import sys
import tempfile
import threading
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CHROMIUM = os.environ.get("CHROMIUM_PATH", "/usr/lib/chromium/chromium")
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--disable-background-networking",
        "--no-first-run", "--font-render-hinting=none"]

# Each picture: the language, the table's name, the players (seat order) and the phone's holder.
TABLES = {
    "en": ("Friday night", ["Ana", "Bo", "Chen", "Dee"], "Ana"),
    "zh": ("周五牌局", ["王小明", "李娜", "欧阳", "张伟"], "王小明"),
    "ar": ("سهرة الجمعة", ["محمد", "سارة", "ليلى", "Li 李"], "محمد"),
}
# (winner, {loser: (cards, jokers)}) by seat index: a short evening with a joker and a shut-out.
HANDS = [(0, {1: (3, 0), 2: (5, 1), 3: (1, 0)}),
         (2, {0: (2, 0), 1: (4, 0), 3: (6, 2)}),
         (1, {0: (1, 0), 2: (2, 1), 3: (3, 0)}),
         (0, {1: (2, 0), 2: (5, 0), 3: (4, 1)})]


def seed(app) -> dict[str, tuple[str, str]]:
    """Open one demo table per language through the API: {lang: (public id, edit token)}."""
    client = app.test_client()
    tables = {}
    for lang, (name, players, holder) in TABLES.items():
        answer = client.post("/api/v1/tables", json={
            "game": "gandengyan", "name": name, "players": players, "stake": "0.5", "currency": "¥",
            "preset": "source", "first_dealer": players[0]})
        assert answer.status_code == 201, answer.get_json()
        table = answer.get_json()
        for number, (winner, losers) in enumerate(HANDS, 1):
            facts = {"winner": players[winner],
                     "losers": {players[i]: {"cards": c, "jokers": j} for i, (c, j) in losers.items()}}
            recorded = client.post(f"/api/v1/tables/{table['id']}/hands",
                                   json={"facts": facts, "request_id": f"readme-{number}", "device": holder},
                                   headers={"Authorization": f"Bearer {table['token']}"})
            assert recorded.status_code == 201, recorded.get_json()
        tables[lang] = (table["id"], table["token"])
    return tables


def photograph(base: str, tables: dict[str, tuple[str, str]], out: Path) -> list[Path]:
    from playwright.sync_api import sync_playwright

    written = []
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        for lang, (public_id, token) in tables.items():
            context = browser.new_context(viewport={"width": 390, "height": 844}, device_scale_factor=1,
                                          is_mobile=True, has_touch=True, color_scheme="light")
            page = context.new_page()
            page.goto(f"{base}/t/{public_id}?lang={lang}#key={token}")  # the record link: joins
            page.locator("#holder button.pill", has_text=TABLES[lang][2]).click()  # who holds it
            page.locator("details#holder > summary").wait_for()
            page.goto(f"{base}/t/{public_id}")
            page.wait_for_load_state("networkidle")
            path = out / f"table-{lang}.png"
            page.screenshot(path=str(path))  # the first screen, as the phone shows it
            written.append(path)
            context.close()
        browser.close()
    return written


def main(out: Path) -> None:
    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as folder:
        os.environ["DATABASE_URL"] = f"sqlite:///{folder}/readme.sqlite3"
        os.environ.setdefault("SECRET_KEY", "readme-screenshot")  # no key file in the instance folder
        sys.path.insert(0, str(ROOT))
        from flask_migrate import upgrade
        from werkzeug.serving import make_server

        from companion import create_app

        app = create_app()
        logging.disable(logging.INFO)  # the migrations' and the server's lines: one line a picture is enough
        with app.app_context():
            upgrade()
        tables = seed(app)
        server = make_server("127.0.0.1", 0, app, threaded=True)
        thread = threading.Thread(target=server.serve_forever, daemon=True)
        thread.start()
        try:
            for path in photograph(f"http://127.0.0.1:{server.server_port}", tables, out):
                print(f"{path.relative_to(ROOT) if path.is_relative_to(ROOT) else path} written")
        finally:
            server.shutdown()
            thread.join(5)


if __name__ == "__main__":
    main(Path(sys.argv[1]).resolve() if len(sys.argv) > 1 else ROOT / "docs" / "img")
