"""People across tables: link a table's players to people, a person's page, the past tables.

Thin views: every figure comes from :mod:`companion.sharing.people` (SQL aggregates); nothing here runs SQL.
A phone sees its own tables (those it may record at, as on the start page) and the tables of the
people linked at them; nothing else of the server.
"""
from __future__ import annotations

from types import SimpleNamespace

from flask import Blueprint, abort, flash, g, redirect, render_template, request, url_for
from flask_babel import gettext as _
from flask_babel import ngettext
from markupsafe import Markup

from ..sharing import people
from ..engine.public import EngineError
from ..forms.people import PersonNameForm, link_players_form
from ..db.models import Table
from .review import _signed, running_totals_svg  # the review chart's drawing and signs
from .tables import GAME_NAMES, engine_message, format_money, page_number, phone_tables, table_view

bp = Blueprint("people", __name__)


def own_table_ids() -> list[int]:
    """The tables this phone may record at (the start page's list)."""
    return [t.id for t in phone_tables()]


# --------------------------------------------------------------------------------------------
# Link players


def _links_page(table: Table, form=None, status: int = 200):
    offers = people.people_for_tables(own_table_ids()) if g.can_edit else []
    current = people.current_links(table)
    if form is None and g.can_edit:
        form = link_players_form(table, offers, {pid: p.public_id for pid, p in current.items()})
    return render_template("people/links.html", table=table, form=form, current=current,
                           can_edit=g.can_edit), status


@bp.get("/t/<public_id>/people")
@table_view()
def links(table: Table):
    return _links_page(table)


@bp.post("/t/<public_id>/people")
@table_view(write=True)
def save_links(table: Table):
    own = own_table_ids()
    offers = people.people_for_tables(own)
    current = {pid: p.public_id for pid, p in people.current_links(table).items()}
    form = link_players_form(table, offers, current, formdata=request.form)  # a select not sent: no change
    if not form.validate():  # the CSRF token (the selects judge nothing themselves)
        abort(400)
    try:
        changed = people.link_players(table, form.links(table), offered_from=own)
    except EngineError as error:
        field = form.field_for(table, error.field)
        message = engine_message(error)
        if field is not None:
            field.errors = list(field.errors or []) + [message]
        else:
            form.form_errors.append(message)
        return _links_page(table, form, 400)
    flash(ngettext("%(num)s link saved.", "%(num)s links saved.", changed) if changed else _("Nothing changed."))
    return redirect(url_for("people.links", public_id=table.public_id), code=303)


# --------------------------------------------------------------------------------------------
# A person's page


def _trend_svg(page: people.PersonPage, game_names: dict):
    numbers, series = people.trend(page)
    if len(numbers) < 2:
        return None
    named = {str(game_names.get(game, game)): values for game, values in series.items()}
    finals = ", ".join(f"{name} {_signed(values[-1])}" for name, values in named.items())
    desc = _("Running total in points after each table, one line per game, from 0 before the first table to "
             "table %(last)s. After the last table: %(finals)s.", last=numbers[-1], finals=finals)
    return running_totals_svg(numbers, named, title=_("Running total: %(name)s", name=page.person.name), desc=desc,
                              x_title=_("Table"), y_title=_("Points"))


def _visible_person(public_id: str):
    """The person, if linked at one of this phone's tables: anyone else's page is "not found" here."""
    found = people.get_person(public_id)
    if found is None or found.public_id not in {o.public_id for o in people.people_for_tables(own_table_ids())}:
        abort(404)
    return found


@bp.get("/p/<public_id>")
def person(public_id: str, form=None, status: int = 200):
    found = _visible_person(public_id)
    page = people.person_page(found)
    money_totals = [(label, format_money(value, SimpleNamespace(currency=label)))
                    for label, value in sorted(page.money.items())]
    return render_template("people/person.html", page=page, person=found, money_totals=money_totals,
                           svg=_trend_svg(page, GAME_NAMES),
                           name_form=form or PersonNameForm(data={"name": found.name})), status


@bp.post("/p/<public_id>/name")
def rename(public_id: str):
    found = _visible_person(public_id)
    form = PersonNameForm()
    if not form.validate():
        abort(400)
    try:
        people.rename_person(found, form.name.data)
    except EngineError as error:
        form.name.errors = [engine_message(error)]
        return person(public_id, form=form, status=400)
    flash(_("Saved."))
    return redirect(url_for("people.person", public_id=found.public_id))


# --------------------------------------------------------------------------------------------
# Past tables


@bp.get("/tables")
def past_tables():
    query = request.args.get("q", "")
    result = people.search_tables(people.visible_table_ids(own_table_ids()), query, page_number(),
                                  people.PER_PAGE)
    if result.page > result.pages:
        abort(404)
    return render_template("people/tables.html", result=result, query=result.query,
                           query_bdi=Markup("<bdi>%s</bdi>") % result.query)
