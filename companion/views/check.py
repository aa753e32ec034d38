"""The rule-checker page: "Is this play legal?" (a GET form; works without JavaScript).

Validation and the verdict come from the same code as ``POST /api/v1/check`` (views/api.py), which
asks the engine: no rule logic here.
"""
from __future__ import annotations

import importlib
import re

from flask import Blueprint, render_template, request
from flask_babel import lazy_gettext as _l, gettext as _

from ..engine.common import EngineError
from .api import ApiError, check_request

bp = Blueprint("check", __name__)

GAME_CHOICES = (("gandengyan", _l("干瞪眼 Gan Deng Yan")), ("dagong", _l("大冶打拱 Da Gong")))

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


def _presets() -> dict:
    out = {}
    for game, _label in GAME_CHOICES:
        try:
            out[game] = list(importlib.import_module(f"companion.engine.{game}").PRESETS)
        except ImportError:  # an engine not installed yet: the page still opens
            out[game] = []
    return out


@bp.get("/check")
def page():
    form = {key: request.args.get(key, "") for key in FIELDS}
    form["game"] = form["game"] or "gandengyan"
    errors: dict = {}  # field -> message (engine messages stay Text: the template translates them)
    result = None
    status = 200
    if request.args.get("play") is not None or request.args.get("previous"):
        body: dict = {"game": form["game"], "previous": form["previous"].strip() or None,
                      "play": form["play"]}
        if form["preset"]:
            body["preset"] = form["preset"]
        for key in ("previous_as", "play_as"):
            if form[key].strip():
                body[key] = form[key].strip()
        players = form["players"].strip()
        if players:
            if re.fullmatch(r"[0-9]{1,3}", players):  # ASCII digits only ("²".isdigit() is True)
                body["players"] = int(players)
            else:
                errors["players"] = _("Players must be a whole number, such as 4.")
        if not errors:
            try:
                result = check_request(body, translate=False)  # the template translates (|tr)
            except ApiError as error:
                errors[_field(error.field)] = error.message
            except EngineError as error:
                errors[_field(error.field)] = error.message
        if errors:
            status = 400
    return render_template("check.html", form=form, errors=errors, result=result,
                           games=GAME_CHOICES, presets=_presets(), type_name=type_name), status


def _field(field: str | None) -> str:
    """Where on the page an error belongs ("rules.x" and unknown fields go to the top)."""
    if field in FIELDS:
        return field
    if field == "cards":
        return "play"
    return "form"


@bp.get("/api")
def api_help():
    """A human help page for the JSON API (views/api.py)."""
    return render_template("api.html", base=request.host_url.rstrip("/"))
