"""API v1, the rules side: is a play legal, what beats it, who pays whom, the games."""
from __future__ import annotations

from ... import scoring
from ...engine import ENGINES
from ...schemas import (AnswersAnswer, AnswersRequest, CheckAnswer, CheckRequest, GamesAnswer, IndexAnswer,
                        SettleAnswer, SettleRequest, engine_guard, merged)
from .blueprint import bp, errors

ENDPOINTS = {
    "check": "POST /api/v1/check", "answers": "POST /api/v1/answers", "settle": "POST /api/v1/settle",
    "games": "GET /api/v1/games", "open_table": "POST /api/v1/tables", "table": "GET /api/v1/tables/<id>",
    "hands": "GET|POST /api/v1/tables/<id>/hands", "hand": "GET|PUT /api/v1/tables/<id>/hands/<n>",
    "void": "POST /api/v1/tables/<id>/hands/<n>/void",
    "restore": "POST /api/v1/tables/<id>/hands/<n>/restore", "undo": "POST /api/v1/tables/<id>/undo",
    "openapi": "GET /api/v1/openapi.json"}


@bp.route("/check", methods=["POST"])
@bp.arguments(CheckRequest, example={"game": "gandengyan", "previous": "4 5 6", "play": "5 6 JK"})
@bp.response(200, CheckAnswer)
@errors(413)
def check(data):
    """Is a play legal? The answer names the rule."""
    module = data["game"]
    with engine_guard(None):
        verdict = scoring.check_play(module, data.get("previous"), data["play"], data["rules"],
                                     players=data.get("players"), previous_as=data.get("previous_as"),
                                     play_as=data.get("play_as"))
    return merged(verdict, game=module.NAME)


@bp.route("/answers", methods=["POST"])
@bp.arguments(AnswersRequest, example={"game": "dagong", "previous": "7 7", "hand": "8 JK 9 9 9 9 5h 10h Kh"})
@bp.response(200, AnswersAnswer)
@errors(413)
def answers(data):
    """What beats this? The smallest legal answer of each kind (from the hand, when given); when the
    cards on the table read several ways, the answers to each reading."""
    module = data["game"]
    with engine_guard(None):
        sets = scoring.answer_play(module, data["previous"], data["rules"], hand=data.get("hand"),
                                   players=data.get("players"), previous_as=data.get("previous_as"))
    return {"sets": sets, "game": module.NAME}


@bp.route("/settle", methods=["POST"])
@bp.arguments(SettleRequest, example={
    "game": "gandengyan", "players": ["A", "B", "C"], "winner": "A", "stake": "0.5",
    "losers": {"B": {"cards": 3, "jokers": 0}, "C": {"cards": 5, "jokers": 1}}})
@bp.response(200, SettleAnswer)
@errors(413)
def settle(data):
    """Who pays whom for one hand, with every step."""
    module = data["module"]
    with engine_guard(None):
        return scoring.settle_facts(module, data["facts"], data["rules"], data["stake"])


@bp.route("/", methods=["GET"])
@bp.response(200, IndexAnswer)
def index():
    """What this API offers (a human help page is at /api; the OpenAPI document at openapi.json)."""
    return {"version": 1, "endpoints": ENDPOINTS}


@bp.route("/games", methods=["GET"])
@bp.response(200, GamesAnswer)
def games():
    """The games, their presets and house-rule switches (so clients can build forms)."""
    return {"games": ENGINES}
