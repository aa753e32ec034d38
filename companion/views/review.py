"""Review the night: the score sheet, the chart, the summary, settle-up, export and import.

Thin views: every figure comes from :mod:`companion.review` (SQL aggregates); nothing here runs SQL.
"""
from __future__ import annotations

import functools
import threading
import xml.etree.ElementTree as ET
from collections import OrderedDict
from decimal import Decimal

from flask import (Blueprint, Response, abort, current_app, flash, g, redirect, render_template, request, session,
                   stream_with_context, url_for)
from flask_babel import format_decimal, get_locale
from flask_babel import gettext as _
from flask_babel import ngettext
from markupsafe import Markup

from .. import review
from ..engine import ENGINES
from ..i18n import imported_mark, tr
from ..models import Table
from .tables import format_money as money
from .tables import page_number
from .tables import table_view

bp = Blueprint("review", __name__)

# Okabe–Ito: distinguishable with every common colour-vision deficiency; each line also gets its own dash.
PALETTE = ("#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9")
DASHES = ("", "8,4", "2,3", "10,3,2,3", "4,4", "12,2,2,2")


def _bdi(name: str) -> Markup:
    return Markup("<bdi>%s</bdi>") % name


def unsigned_amount(value: Decimal, table: Table, in_money: bool) -> str:
    """An amount to pay: money with two decimals and the currency label, or whole points."""
    if not in_money:
        return ngettext("%(num)s point", "%(num)s points", int(value))
    return f"{format_decimal(value, format='#,##0.00')} {table.currency}".strip()


# --------------------------------------------------------------------------------------------
# Score sheet


@bp.get("/t/<public_id>/sheet")
@table_view()
def sheet(table: Table):
    page = page_number()
    per_page = int(current_app.config.get("SHEET_PER_PAGE", review.SHEET_PER_PAGE))

    def answer():
        total = review.hand_total(table)
        pages = max(1, -(-total // per_page))
        if page > pages:
            abort(404)
        rows = review.sheet_page(table, page, per_page)
        return render_template("review/sheet.html", table=table, players=table.players, rows=rows, page=page,
                               pages=pages, total=total,
                               standings={s.player_id: s for s in review.standings(table)})
    return review_page(table, "sheet", answer, page, per_page)


# --------------------------------------------------------------------------------------------
# Chart


CHART_ID = "running-totals"


def whole_ticks(values: list[int], most: int = 8) -> list[int]:
    """Points are whole numbers: at most ``most`` + 1 ticks, a round step apart (1, 2, 5, 10, 20 …),
    covering every value and 0 (pygal's own choice shows 0.2, 0.4 … on a small range)."""
    low, high = min(values + [0]), max(values + [0])
    scale, step = 1, 1
    while (high - low) / step > most:
        step = next((f * scale for f in (2, 5, 10) if (high - low) / (f * scale) <= most), 10 * scale)
        scale *= 10
    start = (low // step) * step
    return list(range(start, -(-high // step) * step + 1, step))


def _pygal_chart(numbers: list[int], series: dict[str, list[int]], *, x_title: str, y_title: str) -> ET.Element:
    """pygal's drawing of the running totals, parsed (its own ``<style>`` still inside)."""
    import pygal
    from pygal.style import Style

    style = Style(colors=PALETTE, background="#ffffff", plot_background="#ffffff", foreground="#1a1a1a",
                  foreground_strong="#1a1a1a", foreground_subtle="#8a9096", opacity="1", opacity_hover="1",
                  font_family='system-ui, "Noto Sans CJK SC", "PingFang SC", "Microsoft YaHei", sans-serif',
                  label_font_size=12, major_label_font_size=12, legend_font_size=15, title_font_size=15,
                  stroke_width=3)
    columns = 2 if len(series) > 3 else len(series) or 1
    chart = pygal.Line(width=360, height=300 + 22 * -(-len(series) // columns), style=style, js=[],
                       legend_at_bottom=True, legend_at_bottom_columns=columns, truncate_legend=14,
                       show_dots=len(numbers) <= 30, dots_size=3, x_title=x_title, y_title=y_title,
                       show_minor_x_labels=False, x_labels_major_count=6, truncate_label=-1,
                       margin=8, margin_bottom=20, spacing=8, disable_xml_declaration=True, no_prefix=False)
    chart.x_labels = [str(n) for n in numbers]
    chart.y_labels = whole_ticks([v for values in series.values() for v in values])
    for i, (name, values) in enumerate(series.items()):
        dash = DASHES[i % len(DASHES)]
        chart.add(name, values, stroke_style={"width": 3, "dasharray": dash} if dash else {"width": 3})
    return ET.fromstring(chart.render(is_unicode=True))


_NS = "{http://www.w3.org/2000/svg}"


def _take_styles(root: ET.Element) -> str:
    """Remove pygal's ``<style>`` elements and return their CSS, its selectors on :data:`CHART_ID`."""
    css = []
    for parent in list(root.iter()):
        for child in list(parent):
            if child.tag == f"{_NS}style":
                css.append(child.text or "")
                parent.remove(child)
    return "".join(css).replace("#" + root.get("id", "chart"), "#" + CHART_ID)


def chart_css() -> str:
    """The chart's stylesheet, served from this site (the pages' CSP allows no inline style): pygal's
    own rules for as many lines as a table can have (of any registered game), the same for every chart."""
    return _chart_css(max(engine.PLAYER_RANGE[1] for engine in ENGINES.values()))


@functools.lru_cache(maxsize=4)
def _chart_css(most: int) -> str:
    names = {f"p{i}": [0, i] for i in range(most)}
    return _take_styles(_pygal_chart([1, 2], names, x_title="", y_title=""))


def running_totals_svg(numbers: list[int], series: dict[str, list[int]], *, title: str, desc: str,
                       x_title: str, y_title: str) -> Markup:
    """The running totals as an accessible SVG drawn by pygal: one line per player (colour-blind-safe
    colours and a dash of its own), names in the legend, ``<title>`` and ``<desc>``; no script, no
    inline style (the CSS is :func:`chart_css`, a stylesheet of this site)."""
    root = _pygal_chart(numbers, series, x_title=x_title, y_title=y_title)
    ns = _NS
    _take_styles(root)
    # pygal's tooltip script, its tooltip group and its per-point <title>/<desc> are for its
    # JavaScript, which we do not use: drop them, and give the chart one title and one description.
    for parent in list(root.iter()):
        for child in list(parent):
            if child.tag in (f"{ns}script", f"{ns}title", f"{ns}desc") or child.get("style") is not None:
                parent.remove(child)
    _legend_lines(root, ns)
    root.set("id", CHART_ID)
    chart_id = CHART_ID
    title_el = ET.Element(f"{ns}title", {"id": f"{chart_id}-title"})
    title_el.text = title
    desc_el = ET.Element(f"{ns}desc", {"id": f"{chart_id}-desc"})
    desc_el.text = desc
    root.insert(0, desc_el)
    root.insert(0, title_el)
    root.set("role", "img")
    root.set("aria-labelledby", f"{chart_id}-title {chart_id}-desc")
    root.set("class", (root.get("class", "") + " running-totals").strip())
    ET.register_namespace("", "http://www.w3.org/2000/svg")
    ET.register_namespace("xlink", "http://www.w3.org/1999/xlink")
    return Markup(ET.tostring(root, encoding="unicode"))


def _legend_lines(root, ns: str) -> None:
    """pygal's legend shows a coloured square: draw a short stretch of the line instead, with its dash,
    so that the legend tells the lines apart without colour too."""
    for group in root.iter(f"{ns}g"):
        if "legend" not in (group.get("class") or "").split():
            continue
        for i, rect in enumerate(list(group)):
            if rect.tag != f"{ns}rect":
                continue
            serie = (group.get("id") or "").rpartition("-")[2]
            dash = DASHES[int(serie) % len(DASHES)] if serie.isdigit() else ""
            x, y = float(rect.get("x", 0)), float(rect.get("y", 0)) + float(rect.get("height", 12)) / 2
            attrs = {"d": f"M{x - 8:.1f} {y:.1f} h22", "class": rect.get("class", "").replace(" reactive", ""),
                     "fill": "none", "stroke-width": "3"}
            if dash:
                attrs["stroke-dasharray"] = dash
            group.remove(rect)
            group.insert(i, ET.Element(f"{ns}path", attrs))


@bp.app_template_filter("sign")
def _signed(n: int) -> str:
    """+3, −3 (a real minus sign) or 0: the same as the ``signed`` macro, cheaper in long grids."""
    return f"+{n}" if n > 0 else (f"−{-n}" if n < 0 else "0")


# Drawn charts by (table, its revision, language, points): every change to a table bumps its revision,
# so an entry is never stale; it only saves drawing the same chart again. Small and per process.
_CHARTS: OrderedDict = OrderedDict()
_CHARTS_LOCK = threading.Lock()
CHARTS_KEPT = 32


@bp.get("/review/chart.css")
def chart_stylesheet():
    response = Response(chart_css(), mimetype="text/css")
    response.headers["Cache-Control"] = "public, max-age=86400"
    return response


@bp.get("/t/<public_id>/chart")
@table_view()
def chart(table: Table):
    points = int(current_app.config.get("CHART_POINTS", review.CHART_POINTS))
    return review_page(table, "chart", lambda: _chart_page(table, points), points)


def _chart_page(table: Table, points: int):
    key = (table.public_id, table.revision, str(get_locale()), points)
    with _CHARTS_LOCK:
        svg = _CHARTS.get(key)
    if svg is None:
        svg = _draw_chart(table, points)
        with _CHARTS_LOCK:
            _CHARTS[key] = svg
            while len(_CHARTS) > CHARTS_KEPT:
                _CHARTS.popitem(last=False)
    return render_template("review/chart.html", table=table, svg=svg or None)


def _draw_chart(table: Table, points: int) -> Markup:
    numbers, series, thinned = review.chart_series(table, points)
    svg = Markup("")
    if len(numbers) > 1:
        finals = ", ".join(f"{name} {_signed(values[-1])}" for name, values in series.items())
        desc = _("Running totals in points after each hand, one line per player, from 0 before the first hand "
                 "to hand %(last)s. After the last hand: %(finals)s.", last=numbers[-1], finals=finals)
        if thinned:
            desc += " " + _("Only some hands are drawn on a long table; the score sheet has every one.")
        svg = running_totals_svg(numbers, series, title=_("Running totals: %(name)s", name=table.name),
                                 desc=desc, x_title=_("Hand"), y_title=_("Points"))
    return svg


# --------------------------------------------------------------------------------------------
# Summary and settle-up


def _transfer_lines(table: Table, transfers, in_money: bool, html: bool) -> list:
    out = []
    for t in transfers:
        amount = unsigned_amount(t.amount, table, in_money)
        if html:  # names and amounts are escaped by Markup's %; the sentence is our own catalog's
            out.append(Markup(_("%(payer)s pays %(payee)s %(amount)s", payer=_bdi(t.payer), payee=_bdi(t.payee),
                                amount=Markup('<b dir="ltr">%s</b>') % amount)))
        else:
            out.append(_("%(payer)s pays %(payee)s %(amount)s", payer=t.payer, payee=t.payee, amount=amount))
    return out


def _settle_context(table: Table, rows=None) -> dict:
    result = review.settle_table(table, rows)
    notes = []
    for name in sorted(result.absorbed):
        if result.in_money:
            rounded, exact = money(result.rounded[name], table), money(result.balances[name], table)
        else:
            rounded, exact = _signed(int(result.rounded[name])), _signed(int(result.balances[name]))
        notes.append(Markup(_("%(name)s absorbs the rounding: %(rounded)s instead of exactly %(exact)s.",
                              name=_bdi(name), rounded=Markup('<span dir="ltr">%s</span>') % rounded,
                              exact=Markup('<span dir="ltr">%s</span>') % exact)))
    text_lines = _transfer_lines(table, result.transfers, result.in_money, html=False)
    copy_text = "\n".join([f"{table.name} · {_('Settle up')}"] + text_lines)
    return {"transfers": _transfer_lines(table, result.transfers, result.in_money, html=True),
            "rounding_notes": notes, "in_money": result.in_money, "copy_text": copy_text}


def _duration(delta) -> str:
    """How long the night lasted, to the minute: "3 h 35 min", "12 min"."""
    minutes = max(0, int(delta.total_seconds() // 60))
    if minutes < 60:
        return _("%(minutes)s min", minutes=minutes)
    return _("%(hours)s h %(minutes)s min", hours=minutes // 60, minutes=minutes % 60)


@bp.get("/t/<public_id>/summary")
@table_view()
def summary(table: Table):
    def answer():
        data = review.summary(table)
        span = None
        if data.first_at and data.last_at:
            span = _duration(data.last_at - data.first_at)
        return render_template("review/summary.html", table=table, summary=data, span=span,
                               **_settle_context(table, data.players))
    return review_page(table, "summary", answer)


@bp.get("/t/<public_id>/settle")
@table_view()
def settle(table: Table):
    def answer():
        standings = review.standings(table)
        return render_template("review/settle.html", table=table, standings=standings,
                               **_settle_context(table, standings))
    return review_page(table, "settle", answer)


# --------------------------------------------------------------------------------------------
# Export and import


def table_etag(table: Table, kind: str, *parts) -> str:
    """The ETag of one answer about a table: its kind, the table's revision (every change to a table
    bumps it), the language, the app's build, and ``parts`` (page, right to record ...): whatever else
    the bytes depend on, so that it differs whenever they would."""
    return "-".join(str(p) for p in (kind, table.public_id, table.revision, get_locale(), build_tag(), *parts))


@functools.lru_cache(maxsize=1)
def build_tag() -> str:
    """A short digest of the app's templates, code and catalogs: a new version of the app changes every
    ETag, so no browser keeps a page drawn by the previous one."""
    import hashlib
    from pathlib import Path

    root = Path(current_app.root_path)
    digest = hashlib.sha256()
    for folder, pattern in ((Path(current_app.template_folder or "templates"), "**/*.html"),
                            (root, "**/*.py"), (root, "**/*.mo")):
        folder = folder if folder.is_absolute() else root / folder
        for path in sorted(folder.glob(pattern)):
            digest.update(path.read_bytes())
    return digest.hexdigest()[:10]


def conditional(etag: str, answer, cache_control: str = "private, no-cache") -> Response:
    """The one conditional answer: 304 when the client holds ``etag`` (nothing read, nothing drawn),
    else ``answer()`` (a view's return value) with the ETag; never stored without revalidation."""
    if request.if_none_match.contains(etag):
        response = Response(status=304)
    else:
        response = current_app.make_response(answer())
    response.set_etag(etag)
    response.headers["Cache-Control"] = cache_control
    return response


def review_page(table: Table, kind: str, answer, *parts):
    """A review page (score sheet, chart, summary, settle up, a hand's history), conditional on
    :func:`table_etag`. A page with a message waiting (flash) is drawn afresh, without an ETag."""
    if session.get("_flashes"):
        return answer()
    return conditional(table_etag(table, kind, "e" if g.get("can_edit") else "v", *parts), answer)


def _download(table: Table, kind: str, chunks, content_type: str, filename: str) -> Response:
    """A file streamed in chunks (bounded memory), with an ETag per table revision (and language): a
    client that has this revision gets a 304 before anything is read."""
    def answer():
        response = Response(stream_with_context(chunks()), content_type=content_type)
        response.headers["Content-Disposition"] = f'attachment; filename="{filename}"'
        return response
    return conditional(table_etag(table, kind), answer)


def csv_labels() -> dict:
    return {"hand": _("Hand"), "status": _("Status"), "player": _("Player"), "points": _("Points"),
            "money": _("Money"), "facts": _("What happened"), "active": _("counts"), "void": _("void")}


@bp.get("/t/<public_id>/export.csv")
@table_view()
def export_csv(table: Table):
    labels = csv_labels()
    return _download(table, "csv", lambda: review.export_csv_chunks(table, labels=labels, translate=tr),
                     "text/csv; charset=utf-8", f"table-{table.public_id}.csv")


@bp.get("/t/<public_id>/export.json")
@table_view()
def export_json(table: Table):
    return _download(table, "json", lambda: review.export_chunks(table), "application/json",
                     f"table-{table.public_id}.json")


@bp.get("/t/<public_id>/export")
@table_view()
def export_page(table: Table):
    return render_template("review/export.html", table=table)


@bp.route("/import", methods=["GET", "POST"])
def import_table():
    from flask_wtf.csrf import CSRFError, validate_csrf
    from wtforms.validators import ValidationError

    from .tables import remember

    error = None
    if request.method == "POST":
        try:
            if current_app.config.get("WTF_CSRF_ENABLED", True):
                validate_csrf(request.form.get("csrf_token"))
        except (ValidationError, CSRFError):
            raise CSRFError() from None
        upload = request.files.get("file")
        data = upload.read() if upload is not None else b""
        if not data:
            error = _("Choose the table's JSON file (exported from this app) first.")
        else:
            try:
                table = review.import_json(data, imported_mark())
            except review.ImportRefused as refused:
                error = tr(refused.message)
            else:
                remember(table)
                flash(_("Imported: this is a new copy of the table, with its own link. This phone can record "
                        "at it."))
                return redirect(url_for("tables.show", public_id=table.public_id))
    return render_template("review/import.html", error=error), 400 if error else 200


def register(app) -> None:
    """The import view checks its CSRF token itself, after raising the upload limit for this request."""
    from ..extensions import csrf

    csrf.exempt(import_table)
    app.register_blueprint(bp)

