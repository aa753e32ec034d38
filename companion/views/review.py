"""Review the night: the score sheet, the chart, the summary, settle-up, export and import.

Thin views: every figure comes from :mod:`companion.review` (SQL aggregates); nothing here runs SQL.
"""
from __future__ import annotations

import threading
from collections import OrderedDict
from decimal import Decimal

from flask import (Blueprint, Response, abort, current_app, flash, redirect, render_template, request,
                   url_for)
from flask_babel import format_decimal, get_locale
from flask_babel import gettext as _
from flask_babel import ngettext
from markupsafe import Markup

from .. import review, scoring
from ..i18n import imported_mark, tr
from ..db.models import Table
from .chart import chart_css, running_totals_svg
from .table_context import format_money as money
from .table_context import page_number, remember, table_view
from .conditional import review_page
from .export_cache import cached_download

bp = Blueprint("review", __name__)


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
    svg, at_hand = svg
    return render_template("review/chart.html", table=table, svg=svg or None, at_hand=at_hand)


def _last(values: list) -> int:
    return next(v for v in reversed(values) if v is not None)


def _draw_chart(table: Table, points: int) -> tuple[Markup, list]:
    """The chart and, for each hand drawn, every player's total at it (None: not at that hand)."""
    numbers, series, thinned = review.chart_series(table, points)
    svg = Markup("")
    at_hand = [(number, [(name, values[i]) for name, values in series.items()])
               for i, number in enumerate(numbers) if i]
    if len(numbers) > 1:
        finals = ", ".join(f"{name} {_signed(_last(values))}" for name, values in series.items())
        desc = _("Running totals in points after each hand, one line per player, from 0 before the first hand "
                 "to hand %(last)s. After the last hand: %(finals)s.", last=numbers[-1], finals=finals)
        if thinned:
            desc += " " + _("Only some hands are drawn on a long table; the score sheet has every one.")
        svg = running_totals_svg(numbers, series, title=_("Running totals: %(name)s", name=table.name),
                                 desc=desc, x_title=_("Hand"), y_title=_("Points"),
                                 tap=lambda n: (f"at-hand-{n}", _("Hand %(n)s", n=n)))
    return svg, at_hand


# --------------------------------------------------------------------------------------------
# Summary and settle-up


def _transfer_lines(table: Table, transfers, in_money: bool, style: str) -> list:
    """The fewest transfers as sentences, one catalog sentence for every place: ``html`` (the page:
    names isolated, amounts bold), ``text`` (copy as text) and ``picture`` (the shared PNG: Unicode
    isolates, since a canvas has no markup)."""
    out = []
    for t in transfers:
        amount = unsigned_amount(t.amount, table, in_money)
        if style == "html":  # names and amounts are escaped by Markup's %; the sentence is our own catalog's
            out.append(Markup(_("%(payer)s pays %(payee)s %(amount)s", payer=_bdi(t.payer), payee=_bdi(t.payee),
                                amount=Markup('<b dir="ltr">%s</b>') % amount)))
        elif style == "picture":
            out.append(_("%(payer)s pays %(payee)s %(amount)s", payer=_FSI + t.payer + _PDI,
                         payee=_FSI + t.payee + _PDI, amount=_LRI + amount + _PDI))
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
    text_lines = _transfer_lines(table, result.transfers, result.in_money, "text")
    copy_text = "\n".join([f"{table.name} · {_('Settle up')}"] + text_lines)
    return {"transfers": _transfer_lines(table, result.transfers, result.in_money, "html"),
            "rounding_notes": notes, "in_money": result.in_money, "copy_text": copy_text,
            "picture": _picture(table, rows if rows is not None else review.standings(table), result)}


_FSI, _LRI, _PDI = "\u2068", "\u2066", "\u2069"  # isolates: a name or an amount keeps its own direction


def _picture(table: Table, rows, result) -> dict:
    """What "Share as picture" draws (static/js/share.js only lays it out): every text already in the
    page's language, every number already written (signed points, money), the fewest transfers."""
    for_money = scoring.in_money(table)
    transfers = _transfer_lines(table, result.transfers, result.in_money, "picture")
    return {
        "title": table.name, "headers": [_("Player"), _("Points")] + ([_("Money")] if for_money else []),
        "rows": [[row.name, _signed(row.points)] + ([money(row.money, table)] if for_money else [])
                 for row in rows],
        "transfers_title": _("Settle up"),
        "transfers": transfers or [_("Everyone is square: nobody pays anybody.")],
        "note": "" if result.in_money else _("This table plays for no money, so these are points."),
        "footer": _("Card Table Companion"), "filename": "standings.png",
    }


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


def _download(table: Table, kind: str, chunks, content_type: str, filename: str) -> Response:
    """A file computed once per table revision and language, kept and served from there
    (:mod:`.export_cache`), with an ETag per table revision (and language): a client that has this
    revision gets a 304 before anything is read."""
    return cached_download(table, kind, chunks, content_type, filename)


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
                report = getattr(table, "import_report", None)
                for note in report.notes if report else ():
                    flash(tr(note))  # where the file comes from; a format 1 file: the stake it applied
                return redirect(url_for("tables.show", public_id=table.public_id))
    return render_template("review/import.html", error=error), 400 if error else 200


def register(app) -> None:
    """The import view checks its CSRF token itself, after raising the upload limit for this request."""
    from ..extensions import csrf

    csrf.exempt(import_table)
    app.register_blueprint(bp)

