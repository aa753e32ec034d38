"""The rule-checker page: "Is this play legal?" (a GET form; works without JavaScript), and the
API help page built from the OpenAPI document.

The page's query is parsed by the same schema as ``POST /api/v1/check`` (companion/schemas.py)
and answered by the same scoring call, so an input gets the same code and message on both.
"""
from __future__ import annotations

from flask import Blueprint, current_app, render_template, request
from flask_babel import lazy_gettext as _l

from .. import scoring, serializers
from ..engine import ENGINES
from ..engine.errors import EngineError
from ..schemas import CheckRequest, InputError, engine_guard, load

bp = Blueprint("check", __name__)

# How the pages name each game (the list of games itself is the engine's ENGINES).
GAME_LABELS = {"gandengyan": _l("干瞪眼 Gan Deng Yan"), "dagong": _l("大冶打拱 Da Gong")}

TYPE_NAMES = {
    "single": _l("single"), "pair": _l("pair"), "triple": _l("triple"), "straight": _l("straight"),
    "connected_pairs": _l("connected pairs"), "linked_pairs": _l("connected pairs"),
    "linked_triples": _l("connected triples"), "bomb": _l("bomb"), "joker_bomb": _l("joker bomb"),
    "510k": _l("510K"), "four_jokers": _l("four jokers"), "gunlong": _l("rolling bombs"),
    "pass": _l("pass"),
}

FIELDS = ("game", "preset", "players", "previous", "play", "previous_as", "play_as")


def type_name(code: str) -> str:
    return str(TYPE_NAMES.get(code, code))


def game_choices() -> list[tuple[str, str]]:
    return [(name, GAME_LABELS.get(name, module.TITLE)) for name, module in ENGINES.items()]


def _query_body(form: dict) -> dict:
    body: dict = {"game": form["game"], "previous": form["previous"].strip() or None, "play": form["play"]}
    if form["preset"]:
        body["preset"] = form["preset"]
    for key in ("previous_as", "play_as"):
        if form[key].strip():
            body[key] = form[key].strip()
    if form["players"].strip():
        players = request.args.get("players", type=int)
        # not a whole number: the schema refuses it with the API's message
        body["players"] = players if players is not None and form["players"].strip().isascii() else form["players"]
    return body


@bp.get("/check")
def page():
    form = {key: request.args.get(key, "") for key in FIELDS}
    form["game"] = form["game"] or next(iter(ENGINES))
    errors: dict = {}  # field -> message (engine messages stay Text: the template translates them)
    result = None
    status = 200
    if request.args.get("play") is not None or request.args.get("previous"):
        try:
            data = load(CheckRequest, _query_body(form))
            with engine_guard(None):
                verdict = scoring.check_play(data["game"], data.get("previous"), data["play"], data["rules"],
                                             players=data.get("players"), previous_as=data.get("previous_as"),
                                             play_as=data.get("play_as"))
            result = serializers.verdict_json(verdict, data["game"].NAME, translate=False)
        except (InputError, EngineError) as error:
            errors[_field(error.field)] = error.message
            status = 400
    low = min(m.PLAYER_RANGE[0] for m in ENGINES.values())
    high = max(m.PLAYER_RANGE[1] for m in ENGINES.values())
    return render_template("check.html", form=form, errors=errors, result=result, games=game_choices(),
                           presets={name: list(m.PRESETS) for name, m in ENGINES.items()},
                           players_range=(low, high), type_name=type_name), status


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

    return render_template("api.html", base=request.host_url.rstrip("/"), operations=operations,
                           error_codes=ERROR_CODES, openapi_url=serializers.url("api-docs.openapi_json"))
