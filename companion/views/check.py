"""The rule-checker page: "Is this play legal?" (a GET form; works without JavaScript), and the
API help page built from the OpenAPI document.

The page's query is parsed by the same schema as ``POST /api/v1/check`` (companion/schemas/)
and answered by the same scoring call, so an input gets the same code and message on both.
"""
from __future__ import annotations

from flask import Blueprint, abort, current_app, flash, g, redirect, render_template, request, url_for
from flask_babel import gettext as _

from .. import scoring
from ..engine import ENGINES
from ..engine.errors import EngineError
from ..engine.text import to_data
from ..forms.tables import ActionForm
from ..i18n import tr
from ..words import play_name, preset_choices
from ..db.models import Table
from ..schemas import AnswersAnswer, CheckAnswer, CheckRequest, InputError, ReadingAnswer, engine_guard, load, merged, url
from .tables import can_edit, device_label, table_view

bp = Blueprint("check", __name__)

# The page shows the API's answers (its own schemas write them; the template shows their sentences).
CHECK, ANSWERS, READING = CheckAnswer(), AnswersAnswer(), ReadingAnswer()

FIELDS = ("game", "preset", "players", "previous", "play", "previous_as", "play_as", "hand")


@bp.app_template_global("type_name")
def type_name(game: str, code: str) -> str:
    """A reading's type in the words of its game (the game's ``WORDS.plays``)."""
    module = ENGINES.get(game)
    return play_name(module, code) if module is not None else str(code)


def game_choices() -> list[tuple[str, str]]:
    return [(name, tr(module.LABEL)) for name, module in ENGINES.items()]  # each game names itself


def _query_body(form: dict, table: Table | None) -> dict:
    body: dict = {"game": form["game"], "previous": form["previous"].strip() or None, "play": form["play"]}
    if form["preset"] and table is None:
        body["preset"] = form["preset"]
    for key in ("previous_as", "play_as"):
        if form[key].strip():
            body[key] = form[key].strip()
    if table is not None:  # the table's own rules (every switch) and player count
        body["rules"] = dict(table.rules or {})
        body["players"] = len(table.player_names)  # those seated now
    elif form["players"].strip():
        players = request.args.get("players", type=int)
        # not a whole number: the schema refuses it with the API's message
        body["players"] = players if players is not None and form["players"].strip().isascii() else form["players"]
    return body


@bp.get("/check")
def page():
    table = None
    if request.args.get("table"):
        table = scoring.get_table(request.args["table"])
        if table is None or table.deleted_at is not None:  # a deleted table is hidden here too
            abort(404)
        g.can_edit = can_edit(table)
    return _page(table)


@bp.get("/t/<public_id>/check")
@table_view()
def table_page(table: Table):
    return _page(table)


def _page(table: Table | None):
    form = {key: request.args.get(key, "") for key in FIELDS}
    form["game"] = table.game if table is not None else (form["game"] or next(iter(ENGINES)))
    beat = request.args.get("beat") == "1"
    errors: dict = {}  # field -> message (engine messages stay Text: the template translates them)
    result, context = None, {}
    status = 200
    asked = request.args.get("play") is not None or bool(request.args.get("previous"))
    if asked:
        try:
            body = _query_body(form, table)
            if beat and not form["play"].strip():
                body["play"] = "pass"  # only "what beats this?" was asked
            data = load(CheckRequest, body)
            with engine_guard(None):
                if not (beat and not form["play"].strip()):
                    verdict = scoring.check_play(data["game"], data.get("previous"), data["play"], data["rules"],
                                                 players=data.get("players"), previous_as=data.get("previous_as"),
                                                 play_as=data.get("play_as"))
                    result = CHECK.dump(merged(verdict, game=data["game"].NAME))
                context = _more(data, result, form)
            if context.get("answers_field") == "hand":
                errors["hand"] = context["answers_error"]
        except (InputError, EngineError) as error:
            errors[_field(error.field)] = error.message
            status = 400
    context["headline"] = headline(result, context.get("table_readings") or [])
    low = min(m.PLAYER_RANGE[0] for m in ENGINES.values())
    high = max(m.PLAYER_RANGE[1] for m in ENGINES.values())
    latest = scoring.latest_hand_number(table) if table is not None else None
    return render_template("check/check.html", form=form, errors=errors, result=result, games=game_choices(),
                           presets={name: preset_choices(m) for name, m in ENGINES.items()},
                           players_range=(low, high), type_name=type_name, table=table, beat=beat,
                           can_attach=table is not None and g.get("can_edit") and latest is not None,
                           latest_hand=latest, here=_here(table), **context), status


def headline(result: dict | None, table_readings: list) -> dict | None:
    """The verdict's headline: ``{"way": "legal" | "illegal"}``, or, when the readings of the cards
    on the table disagree about the play, ``{"way": "depends", "legal": [...], "illegal": [...]}``
    (the readings under which it is legal, and those under which it is not)."""
    if result is None:
        return None
    judged = [t for t in table_readings if t.get("verdict") is not None]
    legal = [t["reading"] for t in judged if t["verdict"]["legal"]]
    illegal = [t["reading"] for t in judged if not t["verdict"]["legal"]]
    if legal and illegal:
        return {"way": "depends", "legal": legal, "illegal": illegal}
    return {"way": "legal" if result["legal"] else "illegal"}


def _here(table: Table | None):
    """A link to this page with some arguments changed (a pinned reading, "what beats this?")."""
    def link(**changes) -> str:
        args = {k: v for k, v in request.args.items() if k != "lang"}
        args.update({k: v for k, v in changes.items() if v is not None})
        if table is not None:
            args.pop("table", None)
            return url_for("check.table_page", public_id=table.public_id, **args)
        return url_for("check.page", **args)
    return link


def _more(data: dict, result: dict | None, form: dict) -> dict:
    """The readings of the table's play and of the play (each with the words that pin it) and
    the answers to "what beats this?"."""
    module, rules, players = data["game"], data["rules"], data.get("players")
    out: dict = {"table_readings": [], "play_pins": {}, "answer_sets": None, "answers_error": None,
                 "answers_field": None}
    previous = data.get("previous")
    if previous and not data.get("previous_as"):
        readings = scoring.pins(module, previous, rules, players)
        if len(readings) > 1:
            out["table_readings"] = [_table_reading(module, data, reading, pin) for reading, pin in readings]
    if result is not None and len(result["readings"]) > 1:
        out["play_pins"] = {READING.dump(r)["read_as"] + "|" + r.type: pin
                            for r, pin in scoring.pins(module, data["play"], rules, players) if pin}
    if previous:
        try:
            with engine_guard(None):
                sets = scoring.answer_play(module, previous, rules, hand=form["hand"].strip() or None,
                                           players=players, previous_as=data.get("previous_as"))
            out["answer_sets"] = _shared(ANSWERS.dump({"sets": sets, "game": module.NAME}))
        except EngineError as error:
            out["answers_error"] = error.message
            out["answers_field"] = error.field
    return out


def _shared(answer: dict) -> dict:
    """Answers that beat every reading of the table's play are shown once ("shared"); each
    reading keeps the answers of its own."""
    sets = answer["readings"]
    if len(sets) < 2:
        return {**answer, "shared": []}
    def key(item):
        return (item["kind"], item["play"])
    common = set.intersection(*({key(a) for a in one["answers"]} for one in sets))
    shared = [a for a in sets[0]["answers"] if key(a) in common]
    readings = [{**one, "answers": [a for a in one["answers"] if key(a) not in common]} for one in sets]
    return {**answer, "readings": readings, "shared": shared}


def _table_reading(module, data: dict, reading, pin) -> dict:
    """One reading of the cards on the table, and the verdict on the play under it."""
    verdict = None
    if pin is not None and data.get("play") not in (None, "pass"):
        verdict = CHECK.dump(merged(
            scoring.check_play(module, data["previous"], data["play"], data["rules"], players=data.get("players"),
                               previous_as=pin, play_as=data.get("play_as")), game=module.NAME))
    return {"reading": READING.dump(reading), "pin": pin, "verdict": verdict}


@bp.post("/t/<public_id>/check/note")
@table_view(write=True)
def attach(table: Table):
    """Attach the checker's ruling to a hand of the table, as a note in the hand's history."""
    if not ActionForm().validate():
        abort(400)
    body = {"game": table.game, "rules": dict(table.rules or {}), "players": len(table.player_names),
            "previous": request.form.get("previous", "").strip() or None, "play": request.form.get("play", "")}
    for key in ("previous_as", "play_as"):
        if request.form.get(key, "").strip():
            body[key] = request.form[key].strip()
    number = request.form.get("hand", type=int)
    try:
        data = load(CheckRequest, body)
        with engine_guard(None):
            verdict = scoring.check_play(data["game"], data.get("previous"), data["play"], data["rules"],
                                         players=data.get("players"), previous_as=data.get("previous_as"),
                                         play_as=data.get("play_as"))
        ruling = {"previous": data.get("previous") or "", "play": data["play"],
                  "previous_as": data.get("previous_as"), "play_as": data.get("play_as"),
                  "legal": bool(verdict.legal), "code": verdict.code, "reason": to_data(verdict.reason)}
        scoring.add_ruling(table, number, ruling, device=device_label())
    except (InputError, EngineError) as error:
        flash(_("The ruling was not attached: %(reason)s", reason=tr(error.message)))
        return redirect(url_for("check.table_page", public_id=table.public_id))
    flash(_("Ruling attached to hand %(number)s.", number=number))
    return redirect(url_for("hands.hand_history", public_id=table.public_id, number=number))


def _field(field: str | None) -> str:
    """Where on the page an error belongs ("rules.x" and unknown fields go to the top)."""
    if field in FIELDS:
        return field
    if field == "cards":
        return "play"
    return "form"


@bp.get("/api")
def api_help():
    """A human help page for the JSON API, built from its OpenAPI document."""
    spec = current_app.extensions["openapi"].spec.to_dict()
    operations = []
    for path, item in spec.get("paths", {}).items():
        for method, operation in item.items():
            if method in ("get", "post", "put", "patch", "delete"):
                operations.append({"method": method.upper(), "path": path,
                                   "summary": operation.get("summary") or operation.get("description", ""),
                                   "statuses": sorted(str(s) for s in operation.get("responses", {})
                                                      if s != "default"),
                                   "token": bool(operation.get("security"))})
    from ..schemas import ERROR_CODES

    return render_template("check/api.html", base=request.host_url.rstrip("/"), operations=operations,
                           error_codes=ERROR_CODES, openapi_url=url("api-docs.openapi_json"))
