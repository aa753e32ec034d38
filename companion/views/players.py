"""The "Players" page (issue 21): rename, join, leave, change seats and substitutes between hands,
on a phone that may record. Everything is judged by scoring.change_players; errors go beside their
field with the typed text kept."""
from __future__ import annotations

from flask import Blueprint, flash, redirect, render_template, request, url_for
from flask_babel import gettext as _

from .. import scoring
from ..engine.errors import EngineError
from ..forms.players import players_form
from ..db.models import Table
from .tables import device_label, engine_message, table_view

bp = Blueprint("players", __name__)


def _most(table: Table) -> int:
    """How many may sit at the table: the engine's PLAYER_RANGE and the house rules' range."""
    high = scoring.engine_for(table.game).PLAYER_RANGE[1]
    return min(high, getattr(scoring.table_rules(table), "player_range", (0, high))[1])


def _fewest(table: Table) -> int:
    low = scoring.engine_for(table.game).PLAYER_RANGE[0]
    return max(low, getattr(scoring.table_rules(table), "player_range", (low, 0))[0])


def _page(table: Table, form, status: int = 200, general: list | None = None):
    left = [p.name for p in table.players if not p.seated]
    return render_template("players/players.html", table=table, form=form, left=left, general=general or [],
                           most=_most(table), can_leave=len(table.player_names) > _fewest(table)), status


@bp.route("/t/<public_id>/players", methods=["GET", "POST"])
@table_view(write=True)
def edit(table: Table):
    if request.method == "GET":
        return _page(table, players_form(table, _most(table)))
    form = players_form(table, _most(table), formdata=request.form)
    if not form.validate():  # the CSRF token
        return _page(table, form, 400, [_("The form expired; check the players and save again.")])
    entries, fields = form.roster()
    problems = scoring.players_problems(table, entries)
    general = []
    for problem in problems:
        path = problem.field or ""
        index = path.partition(".")[2]
        if index.isdigit() and int(index) < len(fields):
            field = fields[int(index)]
            field.errors = list(field.errors or []) + [engine_message(problem)]
        else:
            general.append(engine_message(problem))
    if problems:
        return _page(table, form, 400, general)
    try:
        change = scoring.change_players(table, entries, device=device_label())
    except EngineError as error:  # e.g. archived, or a name that would change a hand
        scoring.discard_changes()
        return _page(table, form, 400, [engine_message(error)])
    flash(_("Players saved. Hands already played keep their players.") if change else _("Nothing changed."))
    return redirect(url_for("tables.show", public_id=table.public_id))
