"""Open a table, the table page (standings, hands, dealer), its history, undo, write access."""
from __future__ import annotations

from flask import Blueprint, abort, current_app, flash, g, redirect, render_template, request, url_for
from flask_babel import gettext as _

from ..middleware import pagecache
from .. import scoring
from ..engine import ENGINES
from ..engine.public import EngineError
from ..forms.tables import ActionForm, DeleteTableForm, TableSettingsForm, new_table_form
from ..db.models import Table
# The shared helpers, also re-exported here for the views that have always imported them from this module.
from .table_context import (GAME_NAMES, REMEMBERED, can_edit, device_label, engine_message, forget,  # noqa: F401
                     format_money, has_right, holder, load_table, page_number, phone_tables, remember, remembered,
                     revoked_message, rules_module, table_view)
from .conditional import review_page
from .live import live_fragment

bp = Blueprint("tables", __name__)


@bp.app_context_processor
def inject_helpers():
    return {"game_names": GAME_NAMES, "engines": ENGINES, "money": format_money,
            "plays_for_money": scoring.in_money}


# --------------------------------------------------------------------------------------------
# Pages


@bp.route("/new/<game>", methods=["GET", "POST"])
def new(game):
    if game not in ENGINES:
        abort(404)
    module = scoring.engine_for(game)
    form = new_table_form(game, module, formdata=request.form if request.method == "POST" else None)
    if request.method == "POST" and form.validate():
        players = form.players()
        problems = scoring.table_problems(name=form.name.data, players=players, stake=form.stake.data,
                                          currency=form.currency.data, notes=form.notes.data)
        for problem in problems:  # every bad field flagged at once
            _put_error(form, problem)
        table = None if problems else _create(form, game, players)
        if table is not None:
            remember(table)
            return redirect(url_for("tables.show", public_id=table.public_id))
    status = 400 if request.method == "POST" else 200
    return render_template("tables/table_new.html", form=form, game=game, module=module), status


def _create(form, game: str, players: list) -> Table | None:
    """The new table, or None with the error placed on its field."""
    try:
        return scoring.create_table(
            game=game, name=form.name.data, players=players, stake=form.stake.data,
            currency=form.currency.data, preset=form.preset.data or None, rules=form.rules(),
            notes=form.notes.data, first_dealer=form.first_dealer_name(players))
    except EngineError as error:
        _put_error(form, error)
        return None


def _put_error(form, error: EngineError) -> None:
    message = engine_message(error)
    path = error.field or ""
    field = None
    if path.startswith("players."):
        index = path.split(".", 1)[1]
        filled = [f for f in form.player_fields() if f.data and f.data.strip()]
        field = filled[int(index)] if index.isascii() and index.isdigit() and int(index) < len(filled) else None
    elif path == "players":
        field = form.player_1
    elif path.startswith("rules."):
        key = scoring_key(form, path.split(".", 1)[1])
        field = getattr(form, f"rule_{key}", None) if key else None
    elif path in ("name", "stake", "currency", "preset", "notes", "first_dealer"):
        field = getattr(form, path)
    if field is not None:
        field.errors = list(field.errors or []) + [message]
    else:
        form.form_errors.append(message)


def scoring_key(form, key: str) -> str | None:
    from ..engine.public import snake

    for candidate in (key, snake(key)):
        if candidate in form._switches:
            return candidate
    return None


@bp.get("/t/<public_id>")
@table_view()
def show(table: Table):
    key = request.args.get("key")
    if key is not None and g.can_edit:  # an old record link on a phone that may record already
        return redirect(url_for("tables.show", public_id=table.public_id))
    # A GET never grants a right: an old "?key=" link shows the join form with the key filled in.
    return table_page(table, join_key=key[:200] if key else None)


def table_page(table: Table, *, join_key: str | None = None, join_error: str | None = None, status: int = 200,
               pin_error: str | None = None, pin_value: str = ""):
    """The table page; for a phone that may not record, the join form (``join_key`` filled in,
    ``join_error`` shown next to it); for one that may, a refused PIN (``pin_error`` beside what was
    typed, ``pin_value``)."""
    page = page_number()
    live = live_fragment(table, page, g.can_edit)  # cached per revision
    if page > 1 and live.empty:
        abort(404)
    return render_template("tables/table.html", table=table, page=page, total=live.total, live_html=live.html,
                           can_edit=g.can_edit, join_key=join_key, join_error=join_error,
                           holder=holder(table) if g.can_edit else None, pin_error=pin_error, pin_value=pin_value,
                           right_revoked=revoked_message(table) if g.get("right_revoked") else None), status


@bp.get("/t/<public_id>/history")
@table_view()
def history(table: Table):
    return history_page(table)


def history_page(table: Table, hand=None):
    """One page of the history of changes, newest first: the table's, or one hand's (``hand``);
    ETag per (table revision, hand, page, language) like the review pages."""
    page = page_number()
    per_page = int(current_app.config.get("HISTORY_PER_PAGE", 50))
    return review_page(table, "history", lambda: _history(table, hand, page, per_page),
                       hand.number if hand is not None else "all", page, per_page)


def _history(table: Table, hand, page: int, per_page: int):
    """The page around the list of events, which is drawn once per table revision (pagecache)."""
    events_html = pagecache.block(("history", table.public_id, table.revision, hand.number if hand else 0, page,
                                   per_page), "tables/history.html", "events",
                                  lambda: _history_events(table, hand, page, per_page), budget="heavy_read")
    return render_template("tables/history.html", table=table, hand=hand, events_html=events_html)


def _history_events(table: Table, hand, page: int, per_page: int) -> dict:
    events = scoring.history(table, hand, limit=per_page + 1, offset=(page - 1) * per_page)
    if not events and page > 1:
        abort(404)
    more, events = len(events) > per_page, events[:per_page]
    numbers = {hand.id: hand.number} if hand is not None else scoring.hand_numbers(table, [e.hand_id for e in events])
    changes = scoring.player_changes(table) if hand is None and page == 1 else []
    return {"table": table, "events": events, "numbers": numbers, "hand": hand, "page": page, "more": more,
            "player_changes": changes}


@bp.post("/t/<public_id>/undo")
@table_view(write=True)
def undo(table: Table):
    form = ActionForm()
    if not form.validate():
        abort(400)
    try:
        event = scoring.undo_last(table, device=device_label(), expected=request.form.get("undo_event") or None)
    except EngineError as error:  # e.g. the earlier facts no longer settle under the engine
        if error.code == "undo_moved":  # a late undo (a phone's outbox): refused, with the reason
            abort(409, description=engine_message(error))
        flash(_("Could not undo: %(reason)s", reason=engine_message(error)))
        return redirect(url_for("tables.show", public_id=table.public_id))
    if event is None:
        flash(_("There is nothing to undo."))
    elif isinstance(event, scoring.PlayerChange):
        flash(_("Undone: the last change of players."))
    else:
        number = event.hand.number
        flash(_("Undone: the last change to hand %(number)s.", number=number))
    return redirect(url_for("tables.show", public_id=table.public_id))


# --------------------------------------------------------------------------------------------
# Managing a table: name, stake, currency, notes; archive, delete (with an undo window); forget


def _settings_page(table: Table, form=None, delete_form=None, status: int = 200):
    if form is None:
        form = TableSettingsForm(data={"name": table.name, "stake": table.stake_text, "currency": table.currency,
                                       "notes": table.notes})
    counted, total = scoring.hand_counts(table)
    return render_template("tables/table_settings.html", table=table, form=form, action_form=ActionForm(),
                           delete_form=delete_form or DeleteTableForm(), total=total,
                           undo_minutes=scoring.DELETE_UNDO_SECONDS // 60), status


@bp.route("/t/<public_id>/settings", methods=["GET", "POST"])
@table_view(write=True)
def settings(table: Table):
    if request.method == "GET":
        return _settings_page(table)
    form = TableSettingsForm()
    if not form.validate():
        abort(400)
    old_stake = table.stake
    try:
        scoring.update_table(table, name=form.name.data or "", currency=form.currency.data or "",
                             notes=form.notes.data or "", stake=form.stake.data or "0")
    except EngineError as error:
        scoring.discard_changes()
        _put_error(form, error)
        return _settings_page(table, form=form, status=400)
    if table.stake != old_stake:
        flash(_("Saved. The new stake counts from hand %(number)s on; earlier hands keep theirs.",
                number=table.hand_seq + 1))
    else:
        flash(_("Saved."))
    return redirect(url_for("tables.show", public_id=table.public_id))


def _action(table: Table, change, done: str, target: str = "tables.show"):
    if not ActionForm().validate():
        abort(400)
    try:
        change(table)
    except EngineError as error:
        scoring.discard_changes()
        flash(engine_message(error))
    else:
        flash(done)
    return redirect(url_for(target, public_id=table.public_id))


@bp.post("/t/<public_id>/rematch")
@table_view(write=True)
def rematch(table: Table):
    """A new night with the same people: a new table, same seats, house rules, stake and people
    links; this phone may record there; the table it was opened from stays as it was."""
    if not ActionForm().validate():
        abort(400)
    try:
        new = scoring.rematch_table(table)
    except EngineError as error:
        scoring.discard_changes()
        flash(engine_message(error))
        return redirect(url_for("tables.show", public_id=table.public_id))
    remember(new)
    flash(_("A new night with the same people: the same seats, house rules and stake. The earlier table is kept "
            "as it was."))
    return redirect(url_for("tables.show", public_id=new.public_id))


@bp.post("/t/<public_id>/archive")
@table_view(write=True)
def archive(table: Table):
    return _action(table, scoring.archive_table,
                   _("Archived. The table keeps its hands and standings; restore it to record again."))


@bp.post("/t/<public_id>/unarchive")
@table_view(write=True)
def unarchive(table: Table):
    return _action(table, scoring.unarchive_table, _("Restored: you can record hands again."))


@bp.post("/t/<public_id>/delete")
@table_view(write=True)
def delete(table: Table):
    form = DeleteTableForm()
    if not form.validate():
        abort(400)
    if not form.confirm.data:
        form.confirm.errors = [_("Tick the box to confirm: deleting removes the table for everyone.")]
        return _settings_page(table, delete_form=form, status=400)
    scoring.delete_table(table)
    flash(_("Deleted “%(name)s”. You can bring it back for %(minutes)s minutes from the list below.",
            name=table.name, minutes=scoring.DELETE_UNDO_SECONDS // 60))
    return redirect(url_for("main.index"))


@bp.post("/t/<public_id>/undelete")
@table_view(write=True, deleted_ok=True)
def undelete(table: Table):
    return _action(table, scoring.undelete_table, _("The table is back, with all its hands."))


@bp.post("/t/<public_id>/forget")
@table_view()
def forget_table(table: Table):
    if not ActionForm().validate():
        abort(400)
    if forget(table):
        flash(_("“%(name)s” is no longer listed on this phone. To record there again, open its share link.",
                name=table.name))
    return redirect(url_for("main.index"))
