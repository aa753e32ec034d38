"""Live table: the state poll (ETag = the table's revision) and the share panel (links, QR codes).

The poll answers ``304 Not Modified`` after one indexed lookup when nothing changed. When the
table changed it answers with the live part of the table page (the ``live`` block of
``table.html``: counts, dealer, standings, one page of hands) as an HTML fragment, rendered by the
same template as the page, so translations, plurals, money and right-to-left text are written once
and the script only swaps it in. Any worker answers any poll: the only thing a worker keeps is
a cache of rendered blocks keyed by the table's revision (see ``companion/middleware/pagecache.py``), which a
write never has to invalidate.
"""
from __future__ import annotations

from typing import NamedTuple

from flask import Blueprint, abort, current_app, g, request, url_for
from flask_babel import get_locale
from flask_babel import gettext as _
from markupsafe import Markup

from .. import access
from ..sharing import links as sharing
from ..db.models import Table
from ..middleware.pagecache import fragments, render_block  # one cache of rendered parts per worker
from .table_context import load_table, page_number

bp = Blueprint("live", __name__)


def etag_for(revision: int) -> str:
    return f"r{revision}"


class Fragment(NamedTuple):
    html: Markup  # the live block of table.html
    total: int  # hands recorded, void ones included
    empty: bool  # no hand on this page


def live_fragment(table: Table, page: int, can_edit: bool) -> Fragment:
    """The live block of the table page: standings, counts, dealer and one page of hands."""
    key = (table.public_id, table.revision, page, str(get_locale()), bool(can_edit))
    fragment = fragments.get(key)
    if fragment is None:
        context = sharing.live_view(table, page, current_app.config["HANDS_PER_PAGE"])
        context["can_edit"] = bool(can_edit)
        fragment = Fragment(Markup(render_block("tables/table.html", "live", context)), context["total"],
                            not context["hands"])
        fragments.put(key, fragment)
    return fragment


@bp.app_template_global()
def rules_section(table: Table) -> Markup:
    """The table page's house rules (a sentence per switch, in this language), rendered once per
    table revision and language: a change of rules, preset or notes is a new revision."""
    key = ("rules", table.public_id, table.revision, str(get_locale()))
    html = fragments.get(key)
    if html is None:
        html = Markup(render_block("tables/table.html", "rules", {"table": table}))
        fragments.put(key, html)
    return html


@bp.get("/t/<public_id>/state")
def state(public_id: str):
    revision = sharing.table_revision(public_id)
    if revision is None:
        abort(404)
    if etag_for(revision) in request.if_none_match:
        response = current_app.response_class(status=304)
    else:
        table = load_table(public_id)
        page = page_number()
        fragment = live_fragment(table, page, g.can_edit)
        if page > 1 and fragment.empty:
            abort(404)
        response = current_app.response_class(fragment.html, mimetype="text/html")
        revision = table.revision
        response.vary.add("Cookie")  # the record button depends on this phone's right
        response.vary.add("Accept-Language")
    response.set_etag(etag_for(revision))
    response.headers["Cache-Control"] = "no-cache, private"
    return response


@bp.app_template_global()
def share_panel(table: Table, can_edit: bool) -> dict:
    """The links (and QR codes) a phone at this table can pass on: *watch* for everyone,
    *record* (``…#key=<edit token>``) only for a phone that may record, and only when the server
    can show the token (not for a legacy table: its share link must be reset first)."""
    base, reachable = sharing.reachable_base(
        public_url=current_app.config.get("PUBLIC_URL"), scheme=request.scheme, host=request.host,
        trusted_hosts=current_app.config.get("TRUSTED_HOSTS"))
    watch = base + url_for("tables.show", public_id=table.public_id)
    panel = {"reachable": reachable, "base": base,
             "watch": {"url": watch, "svg": QRCode(watch, _("QR code: watch this table"))},
             "record": None}
    token = access.edit_token(table) if can_edit else None
    if token:  # in the fragment: a browser never sends it, so no server or proxy log sees it
        record = f"{watch}#key={token}"
        panel["record"] = {"url": record, "svg": QRCode(record, _("QR code: record at this table"))}
    return panel


class QRCode:
    """A QR code of ``url`` as SVG, drawn only when a template writes it out (``__html__``): the
    page's share cards are a kept part (``pagecache.table_part``), so a page served with them from
    the cache draws no QR code at all; drawing one costs milliseconds (segno), far more than the
    rest of the page."""

    __slots__ = ("url", "title")

    def __init__(self, url: str, title: str):
        self.url, self.title = url, title

    def __html__(self) -> str:
        return sharing.qr_svg(self.url, self.title)
