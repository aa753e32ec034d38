"""The web-app manifest and the service worker (installable where the origin is secure).

The service worker must be served from the site's root to control every page; its cache
version is a digest of the static files, so every change to them is a new version and the old
caches are cleaned when it activates."""
from __future__ import annotations

import hashlib
import json
from functools import lru_cache
from pathlib import Path

from flask import Blueprint, Response, current_app, url_for
from flask_babel import gettext as _

bp = Blueprint("pwa", __name__)

SHELL = ("css/app.css", "css/outbox.css", "css/fit.css", "js/app.js", "js/outbox.js", "js/compat.js", "js/live.js", "js/join.js", "css/cards.css", "icon.svg", "favicon-32.png",
         "icon-192.png", "apple-touch-icon.png")


@lru_cache(maxsize=4)
def static_version(folder: str) -> str:
    """A digest of every static file (names and contents): the service worker's cache version."""
    digest = hashlib.sha256()
    for path in sorted(Path(folder).rglob("*")):
        if path.is_file():
            digest.update(path.relative_to(folder).as_posix().encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()[:16]


@bp.get("/manifest.webmanifest")
def manifest():
    icon = lambda name, size, purpose: {"src": url_for("static", filename=name), "sizes": f"{size}x{size}",  # noqa: E731
                                        "type": "image/png", "purpose": purpose}
    body = {
        "name": _("Card Table Companion"), "short_name": _("Card Table"),
        "description": _("Scores, settlements and rulings for 干瞪眼 and 大冶打拱 at a real card table."),
        "start_url": url_for("main.index"), "scope": "/", "id": "/", "display": "standalone",
        "orientation": "portrait", "background_color": "#f7f7f5", "theme_color": "#0d5c3a",
        "icons": [icon("icon-192.png", 192, "any"), icon("icon-512.png", 512, "any"),
                  icon("icon-maskable-192.png", 192, "maskable"), icon("icon-maskable-512.png", 512, "maskable")],
    }
    return Response(json.dumps(body, ensure_ascii=False), mimetype="application/manifest+json")


@bp.get("/sw.js")
def service_worker():
    folder = current_app.static_folder
    source = (Path(folder) / "js/sw.js").read_text(encoding="utf-8")
    shell = [url_for("static", filename=name) for name in SHELL]
    source = source.replace("__VERSION__", static_version(folder)).replace("__SHELL__", json.dumps(shell))
    response = Response(source, mimetype="text/javascript")
    response.headers["Service-Worker-Allowed"] = "/"
    return response
