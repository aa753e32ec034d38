"""Record a hand, see its settlement, edit / void / restore it, its history, and conflicts."""
from __future__ import annotations

import json
import time
import uuid

from flask import Blueprint, abort, current_app, flash, g, redirect, render_template, request, session, url_for
from flask_babel import gettext as _
from flask_wtf.csrf import CSRFError

from .. import access, scoring
from ..engine.public import EngineError
from ..forms.tables import ActionForm, FormError, ResubmitForm, facts_to_data, hand_form
from ..db.models import Hand, Table
from .tables import device_label, engine_message, history_page, load_table, remember, table_view

bp = Blueprint("hands", __name__)


def _form(table: Table, data=None, post=False, hand: Hand | None = None):
    module = scoring.engine_for(table.game)
    rules = scoring.table_rules(table)
    names = scoring.hand_players(hand) if hand is not None else None  # a stored hand keeps its players
    return hand_form(table, module, rules, formdata=request.form if post else None, data=data, names=names)


def _hand(table: Table, number: int) -> Hand:
    hand = scoring.get_hand(table, number)
    if hand is None:
        abort(404)
    return hand


def _render_form(table, form, *, hand=None, status=200, duplicate=None):
    earlier = scoring.hand_settlement(table, hand).earlier if hand is not None else None  # recorded under earlier rules
    return render_template("hands/hand_form.html", table=table, form=form, hand=hand, duplicate=duplicate,
                           earlier=engine_message(earlier) if earlier is not None else None,
                           edit_key=access.edit_token(table),
                           dealer=scoring.current_dealer(table)), status


# --------------------------------------------------------------------------------------------
# The same hand twice from one phone (Back after Save, a fresh request id): ask before recording


def _remember_saved(table: Table, hand: Hand, digest: str, request_id: str) -> None:
    session["last_saved"] = {"t": table.public_id, "n": hand.number, "d": digest, "r": request_id,
                             "at": int(time.time())}


def _mark_seen(table: Table, number: int) -> None:
    """This phone showed the "Saved." page of the hand it saved last: a form sent again with that
    hand's request id from now on is Back after Save (or a reload), no longer a double tap."""
    last = session.get("last_saved")
    if isinstance(last, dict) and last.get("t") == table.public_id and last.get("n") == number and not last.get("seen"):
        session["last_saved"] = {**last, "seen": 1}


def _sent_again_from_history(table: Table, request_id: str) -> bool:
    """A plain form (no script: WebKit and Firefox give a page back from the back/forward cache
    with its hidden request id, a reload posts it again) sent with the request id of a hand this
    phone already saved, AFTER it showed that hand's "Saved." page or saved another one: the player
    means a new hand, so the answer is the "This looks like hand N again" question, never a silent
    "Saved.". A double tap or a retry whose answer was lost (nothing seen yet) stays one hand, and
    the outbox's own retries (``X-Outbox``) are always retries."""
    if request.headers.get("X-Outbox"):
        return False
    last = session.get("last_saved")
    if not isinstance(last, dict) or last.get("t") != table.public_id:
        return False
    return last.get("r") != request_id or bool(last.get("seen"))


def _looks_like_again(table: Table, digest: str, request_id: str) -> Hand | None:
    """The hand this phone saved moments ago with these very facts (still counting), if any."""
    last = session.get("last_saved")
    if not isinstance(last, dict) or last.get("t") != table.public_id or last.get("d") != digest:
        return None
    if last.get("r") == request_id:  # the very same form again: the request id makes it one hand
        return None
    at = last.get("at")
    if not isinstance(at, int) or time.time() - at > current_app.config["DUPLICATE_WINDOW_SECONDS"]:
        return None
    hand = scoring.get_hand(table, last.get("n"))
    return hand if hand is not None and hand.status == scoring.ACTIVE else None


@bp.errorhandler(CSRFError)
def expired_form(error):
    """The session or the form's token expired while the form was open: show the form again with
    everything typed still in it (a fresh token; the edit key on the page restores write access)."""
    from .errors import csrf_answer

    args = request.view_args or {}
    if request.method != "POST" or request.endpoint not in ("hands.record", "hands.edit") or \
            "public_id" not in args or request.form.get("facts_json") is not None:
        return csrf_answer()
    scoring.discard_changes()
    table = load_table(args["public_id"])
    if not g.can_edit:
        if not scoring.check_edit_token(table, request.form.get("edit_key", "")):
            return csrf_answer()
        remember(table)
        g.can_edit = True
    hand = _hand(table, args["number"]) if request.endpoint == "hands.edit" else None
    form = _form(table, post=True)
    form.form_errors.append(_("This page was open a long time and its safety token expired. Everything you "
                              "entered is still here: check it and tap Save again."))
    return _render_form(table, form, hand=hand, status=400)


def _conflict(table, error: scoring.Conflict, *, kind: str, request_id: str | None = None):
    """Both versions side by side, and the choices."""
    current = error.current
    submitted = error.submitted
    preview = scoring.safe_settlement(table, submitted) if submitted is not None else None
    choice = ResubmitForm(formdata=None)
    choice.facts_json.data = json.dumps(submitted, ensure_ascii=False) if submitted is not None else ""
    choice.revision.data = str(current.revision)
    choice.request_id.data = request_id or ""
    names = {p.id: p.name for p in table.players}
    current_points = {names[d.player_id]: d.points for d in current.deltas}
    return render_template("hands/conflict.html", table=table, current=current, current_points=current_points,
                           current_settlement=scoring.safe_settlement(table, current.facts), kind=kind,
                           submitted=submitted, preview=preview, choice=choice, action=ActionForm(),
                           message=engine_message(error)), 409


def _closed(table: Table):
    """A form on an archived table could save nothing: say so before any typing (the table page)."""
    flash(_("This table is archived; restore it to record or correct hands."))
    return redirect(url_for("tables.show", public_id=table.public_id))


@bp.route("/t/<public_id>/record", methods=["GET", "POST"])
@table_view(write=True)
def record(table: Table):
    if request.method == "GET" and table.archived:
        return _closed(table)
    if request.method == "GET":
        dealer = scoring.current_dealer(table)
        data = {scoring.engine_for(table.game).DEALER_FACT: dealer or ""}
        form = _form(table, data=data)
        form.request_id.data = uuid.uuid4().hex
        form.expected_number.data = str(table.hand_seq + 1)
        return _render_form(table, form)
    if request.form.get("facts_json") is not None:  # a choice made on the conflict page
        choice = ResubmitForm()
        if not choice.validate():
            abort(400)
        try:
            facts = choice.facts()
            hand = scoring.record_hand(table, facts, request_id=choice.request_id.data or uuid.uuid4().hex,
                                       device=device_label())
        except (FormError, EngineError):
            abort(400)
        return redirect(url_for("hands.show", public_id=table.public_id, number=hand.number, saved=1))
    form = _form(table, post=True)
    if not form.validate():
        return _render_form(table, form, status=400)
    expected = request.form.get("expected_number", type=int)
    request_id = form.request_id.data or ""
    try:
        facts = form.facts()
        digest = scoring.facts_digest(table, facts)
        again = _looks_like_again(table, digest, request_id)
        if again is not None and request.form.get("confirm_duplicate") != "1":
            return _render_form(table, form, status=409, duplicate=again)
        hand, created = scoring.record_hand_once(
            table, facts, request_id=request_id, device=device_label(),
            expected_number=expected if expected is not None and expected > 0 else None)
        if created:
            _remember_saved(table, hand, digest, request_id)
        elif _sent_again_from_history(table, request_id):
            form.request_id.data = uuid.uuid4().hex  # "Yes, record it" makes a new hand
            form.expected_number.data = str(table.hand_seq + 1)
            return _render_form(table, form, status=409, duplicate=hand)
    except FormError:
        return _render_form(table, form, status=400)
    except scoring.Conflict as error:
        if error.code == "request_id_reused":
            # This form was already saved once (back button, then changed and sent again): nothing is
            # recorded twice, and nothing typed is lost either — show both and let the user choose.
            error = scoring.Conflict(_("This form was already saved as hand %(number)s; what you sent now is "
                                       "different.", number=error.current.number), current=error.current,
                                     submitted=error.submitted, code="already_saved")
            return _conflict(table, error, kind="resent")
        return _conflict(table, error, kind="record", request_id=form.request_id.data)
    except EngineError as error:
        form.apply_error(error, engine_message(error), _engine_text)
        return _render_form(table, form, status=400)
    return redirect(url_for("hands.show", public_id=table.public_id, number=hand.number, saved=1))


@bp.get("/t/<public_id>/hands/<int:number>")
@table_view()
def show(table: Table, number: int):
    hand = _hand(table, number)
    names = {p.id: p.name for p in table.players}
    points = {names[d.player_id]: d.points for d in hand.deltas}
    settled = scoring.hand_settlement(table, hand, points)
    if request.args.get("saved") == "1":
        _mark_seen(table, hand.number)
    played = [name for name in scoring.hand_players(hand) if name in points]  # the hand's own players, seat order
    played += [name for name in points if name not in played]
    return render_template("hands/hand.html", table=table, hand=hand, settlement=settled.settlement, points=points,
                           played=played, earlier=engine_message(settled.earlier) if settled.earlier is not None else None,
                           saved=request.args.get("saved") == "1", can_edit=g.can_edit,
                           action=ActionForm(), dealer=scoring.current_dealer(table),
                           arch_names=scoring.engine_for(table.game).OUTCOME_NAMES)


@bp.route("/t/<public_id>/hands/<int:number>/edit", methods=["GET", "POST"])
@table_view(write=True)
def edit(table: Table, number: int):
    hand = _hand(table, number)
    if request.method == "GET" and table.archived:
        return _closed(table)
    if request.method == "GET":
        form = _form(table, data=facts_to_data(table, hand.facts), hand=hand)
        form.revision.data = str(hand.revision)
        return _render_form(table, form, hand=hand)
    if request.form.get("facts_json") is not None:
        choice = ResubmitForm()
        if not choice.validate():
            abort(400)
        try:
            facts = choice.facts()
            scoring.edit_hand(table, number, facts, revision=choice.revision.data, device=device_label())
        except scoring.Conflict as error:
            return _conflict(table, error, kind="edit")
        except (FormError, EngineError):
            abort(400)
        return redirect(url_for("hands.show", public_id=table.public_id, number=number, saved=1))
    form = _form(table, post=True, hand=hand)
    if not form.validate():
        return _render_form(table, form, hand=hand, status=400)
    try:
        facts = form.facts()
        scoring.edit_hand(table, number, facts, revision=form.revision.data, device=device_label())
    except FormError:
        return _render_form(table, form, hand=hand, status=400)
    except scoring.Conflict as error:
        return _conflict(table, error, kind="edit")
    except EngineError as error:
        form.apply_error(error, engine_message(error), _engine_text)
        return _render_form(table, form, hand=hand, status=400)
    return redirect(url_for("hands.show", public_id=table.public_id, number=number, saved=1))


def _engine_text(text) -> str:
    """An engine sentence as the form shows it (the words of ``engine_message``)."""
    return engine_message(EngineError(text))


def _status_change(table: Table, number: int, change, done_message: str):
    _hand(table, number)
    form = ActionForm()
    if not form.validate():
        abort(400)
    try:
        change(table, number, revision=form.revision.data, device=device_label())
    except scoring.Conflict as error:
        return _conflict(table, error, kind="status")
    except EngineError:
        abort(400)
    flash(done_message)
    return redirect(url_for("hands.show", public_id=table.public_id, number=number))


@bp.post("/t/<public_id>/hands/<int:number>/void")
@table_view(write=True)
def void(table: Table, number: int):
    return _status_change(table, number, scoring.void_hand,
                          _("Hand %(number)s is void: it no longer counts.", number=number))


@bp.post("/t/<public_id>/hands/<int:number>/restore")
@table_view(write=True)
def restore(table: Table, number: int):
    return _status_change(table, number, scoring.restore_hand,
                          _("Hand %(number)s counts again.", number=number))


@bp.get("/t/<public_id>/hands/<int:number>/history")
@table_view()
def hand_history(table: Table, number: int):
    return history_page(table, _hand(table, number))  # paginated like the table's
