"""JSON API v1 (a contract: see docs/api.md; fields may be added, never renamed). Routes only.

- ``POST /check``                      is a play legal?            (engine ``check``)
- ``POST /answers``                    what beats this?            (engine ``answers``)
- ``POST /settle``                     who pays whom, with steps    (engine ``settle``)
- ``GET  /games``                      the games, presets and switches
- ``POST /tables``                     open a table (returns its id and edit token)
- ``GET  /tables/<id>``                the table, its players, standings and hand count
- ``GET  /tables/<id>/hands``          hands, newest first, paginated (``?page=&per_page=``)
- ``POST /tables/<id>/hands``          record a hand (``request_id`` makes it idempotent)
- ``GET  /tables/<id>/hands/<n>``      one hand
- ``PUT  /tables/<id>/hands/<n>``      edit a hand (carries ``revision``; stale -> 409 with both)
- ``POST /tables/<id>/hands/<n>/void`` and ``/restore``; ``POST /tables/<id>/undo``
- ``GET  /openapi.json``               the OpenAPI 3 document, generated from companion/schemas.py

Bodies and queries are parsed by the schemas of ``companion/schemas.py`` (flask-smorest +
marshmallow); answers are written by ``companion/serializers.py``; every read and write goes
through ``companion/scoring.py``. Writes need the table's edit token: ``Authorization: Bearer
<token>`` (or ``X-Edit-Token``; ``"token"`` in the body is deprecated).
Every bad input is a 4xx with ``{"error": {"code", "message", "field"}}``; what the engine refused
also lists every problem it found in ``"errors"`` (the first is ``"error"``).
"""
from __future__ import annotations

import secrets

from flask import Response, jsonify, request, stream_with_context
from flask_babel import gettext as _
from flask_smorest import Blueprint

from .. import access, scoring, serializers
from ..engine.errors import EngineError
from ..i18n import tr
from ..schemas import (MAX_HAND_NUMBER, MAX_REQUEST_ID, AnswersAnswer, AnswersRequest, CheckAnswer, CheckRequest, ConflictAnswer,
                       EditHandRequest, ErrorAnswer, GamesAnswer, HandAnswer, HandChangeAnswer,
                       HandsPageAnswer, HandsQuery, IndexAnswer, InputError, NewTableRequest,
                       RecordHandRequest, RevisionRequest, SettleAnswer, SettleRequest, TableAnswer,
                       RequestParser, UndoAnswer, UndoRequest, engine_guard, strict_numbers)
from ..schemas import ExportAnswer, ImportAnswer, PlayersRequest, SummaryAnswer, UpdateTableRequest
from .review import conditional, table_etag

class ApiBlueprint(Blueprint):
    ARGUMENTS_PARSER = RequestParser()  # our JSON reader and error shape (companion/schemas.py)


bp = ApiBlueprint("api", __name__, description="Card Table Companion JSON API v1")

EDIT_TOKEN = [{"bearer": []}, {"editToken": []}]
# X-Edit-Token is also described as a header parameter, so that OpenAPI links can pass the token
# of a table just opened to the operations that change it (schemathesis follows them).
TOKEN_HEADER = [{"in": "header", "name": "X-Edit-Token", "required": False, "schema": {"type": "string"},
                 "description": "The table's edit token (Authorization: Bearer is the usual form)."}]
TABLE = {"public_id": "$request.path.public_id", "header.X-Edit-Token": "$request.header.X-Edit-Token"}


def links(**targets):
    """OpenAPI links of a success answer: {name: (operationId, parameters)}."""
    return {name: {"operationId": operation, "parameters": parameters}
            for name, (operation, parameters) in targets.items()}


HAND_LINKS = links(
    hand=("get_hand", {"public_id": "$request.path.public_id", "number": "$response.body#/number"}),
    edit=("edit_hand", {**TABLE, "number": "$response.body#/number"}),
    void=("void_hand", {**TABLE, "number": "$response.body#/number"}),
    restore=("restore_hand", {**TABLE, "number": "$response.body#/number"}),
    undo=("undo", TABLE))


def writes(view):
    """A change to a table: the edit token (security schemes and the X-Edit-Token parameter)."""
    return bp.doc(security=EDIT_TOKEN, parameters=TOKEN_HEADER)(view)


@bp.errorhandler(InputError)
def _input_error(error: InputError):
    return jsonify({"error": error.to_dict(), **error.extra}), error.status


@bp.errorhandler(EngineError)
def _engine_error(error: EngineError):
    return _input_error(InputError.from_engine(error))


def errors(*statuses):
    """Document the error answers an operation can give."""
    def decorator(view):
        for status in statuses:
            view = bp.alt_response(status, schema=ConflictAnswer if status == 409 else ErrorAnswer)(view)
        return view
    return decorator


# --------------------------------------------------------------------------------------------
# Rules


@bp.route("/check", methods=["POST"])
@bp.arguments(CheckRequest, example={"game": "gandengyan", "previous": "4 5 6", "play": "5 6 JK"})
@bp.alt_response(200, schema=CheckAnswer, success=True)
@errors(413)
def check(data):
    """Is a play legal? The answer names the rule."""
    module = data["game"]
    with engine_guard(None):
        verdict = scoring.check_play(module, data.get("previous"), data["play"], data["rules"],
                                     players=data.get("players"), previous_as=data.get("previous_as"),
                                     play_as=data.get("play_as"))
    return jsonify(serializers.verdict_json(verdict, module.NAME))


@bp.route("/answers", methods=["POST"])
@bp.arguments(AnswersRequest, example={"game": "dagong", "previous": "7 7", "hand": "8 JK 9 9 9 9 5h 10h Kh"})
@bp.alt_response(200, schema=AnswersAnswer, success=True)
@errors(413)
def answers(data):
    """What beats this? The smallest legal answer of each kind (from the hand, when given); when the
    cards on the table read several ways, the answers to each reading."""
    module = data["game"]
    with engine_guard(None):
        sets = scoring.answer_play(module, data["previous"], data["rules"], hand=data.get("hand"),
                                   players=data.get("players"), previous_as=data.get("previous_as"))
    return jsonify(serializers.answers_json(sets, module.NAME))


@bp.route("/settle", methods=["POST"])
@bp.arguments(SettleRequest, example={
    "game": "gandengyan", "players": ["A", "B", "C"], "winner": "A", "stake": "0.5",
    "losers": {"B": {"cards": 3, "jokers": 0}, "C": {"cards": 5, "jokers": 1}}})
@bp.alt_response(200, schema=SettleAnswer, success=True)
@errors(413)
def settle(data):
    """Who pays whom for one hand, with every step."""
    module = data["module"]
    with engine_guard(None):
        settlement = scoring.settle_facts(module, data["facts"], data["rules"], data["stake"])
    return jsonify(serializers.settlement_json(settlement, module.NAME))


@bp.route("/", methods=["GET"])
@bp.alt_response(200, schema=IndexAnswer, success=True)
def index():
    """What this API offers (a human help page is at /api; the OpenAPI document at openapi.json)."""
    return jsonify(version=1, help=serializers.url("check.api_help"), endpoints={
        "check": "POST /api/v1/check", "answers": "POST /api/v1/answers", "settle": "POST /api/v1/settle", "games": "GET /api/v1/games",
        "open_table": "POST /api/v1/tables", "table": "GET /api/v1/tables/<id>",
        "hands": "GET|POST /api/v1/tables/<id>/hands", "hand": "GET|PUT /api/v1/tables/<id>/hands/<n>",
        "void": "POST /api/v1/tables/<id>/hands/<n>/void",
        "restore": "POST /api/v1/tables/<id>/hands/<n>/restore", "undo": "POST /api/v1/tables/<id>/undo",
        "openapi": "GET /api/v1/openapi.json"})


@bp.route("/games", methods=["GET"])
@bp.alt_response(200, schema=GamesAnswer, success=True)
def games():
    """The games, their presets and house-rule switches (so clients can build forms)."""
    return jsonify(games=serializers.games_json())


# --------------------------------------------------------------------------------------------
# Tables


def _table_or_404(public_id: str, *, deleted_ok: bool = False):
    """The table; a deleted one (still in its undo window) only for ``deleted_ok`` (PATCH)."""
    table = scoring.get_table(public_id)
    if table is None or (table.deleted_at is not None and not deleted_ok):
        raise InputError(404, "unknown_table",
                         _("There is no table with this id. Check the address, or open the table from its link again."),
                         "table")
    return table


def _hand_or_404(table, number: int):
    hand = scoring.get_hand(table, number) if 0 < number <= MAX_HAND_NUMBER else None
    if hand is None:
        raise InputError(404, "unknown_hand", _("This table has no hand number %(number)s.", number=number), "number")
    return hand


def _given_token(data: dict) -> object:
    """The edit token: ``Authorization: Bearer``, else ``X-Edit-Token``, else (deprecated) the body."""
    scheme, _space, value = request.headers.get("Authorization", "").strip().partition(" ")
    if scheme.lower() == "bearer" and value.strip():
        return value.strip()
    return request.headers.get("X-Edit-Token") or data.get("token")


def _require_token(table, data: dict) -> None:
    given = _given_token(data)
    if not isinstance(given, str) or not given:
        raise InputError(403, "token_required",
                         _("Changing this table needs its edit token: send the header \"Authorization: Bearer "
                           "<token>\" (X-Edit-Token is accepted too)."), "token")
    if not scoring.check_edit_token(table, given):  # constant time
        if access.was_reset(table, given):
            message = _("This edit token was replaced: someone at the table reset its share link. Ask a phone "
                        "that can record there for the new link or token.")
        else:
            message = _("This edit token is not the table's, or the table's share link has been reset since. "
                        "Copy the token (or the record link) again from a phone that can record there.")
        raise InputError(403, "bad_token", message, "token")


def _device(data: dict) -> str:
    return data.get("device") or request.headers.get("X-Device", "")[:60] or "api"


def _scoring_call(function, *args, **kwargs):
    """Call scoring; its errors become 4xx (Conflict -> 409 with both versions)."""
    try:
        with engine_guard(None):
            return function(*args, **kwargs)
    except scoring.Conflict as conflict:
        current = conflict.current
        raise InputError(409, conflict.code or "conflict", tr(conflict.message), conflict.field or "revision",
                         current=serializers.hand_json(current) if current is not None else None,
                         submitted=conflict.submitted) from None
    except EngineError as error:
        scoring.discard_changes()
        raise InputError.from_engine(error, 404 if isinstance(error, scoring.NotFound) else 400) from None


@bp.route("/tables", methods=["POST"])
@bp.arguments(NewTableRequest, example={"game": "gandengyan", "name": "Friday", "players": ["A", "B", "C"],
                                        "stake": "0.5", "currency": "¥", "preset": "source"})
@bp.alt_response(201, schema=TableAnswer, success=True)
@bp.doc(operationId="create_table", responses={201: {"links": links(
    table=("get_table", {"public_id": "$response.body#/id"}),
    hands=("list_hands", {"public_id": "$response.body#/id"}),
    record=("record_hand", {"public_id": "$response.body#/id", "header.X-Edit-Token": "$response.body#/token"}),
    undo=("undo", {"public_id": "$response.body#/id", "header.X-Edit-Token": "$response.body#/token"}))}})
@errors(413)
def create_table(data):
    """Open a table. The answer holds its id and its edit token (only here), under both names
    (``id``/``public_id``, ``token``/``edit_token``), as POST /import answers them."""
    table = _scoring_call(scoring.create_table, **data)
    return jsonify(serializers.table_json(table, with_token=True)), 201


@bp.route("/tables/<public_id>", methods=["GET"])
@bp.alt_response(200, schema=TableAnswer, success=True)
@bp.doc(operationId="get_table")
@errors(404)
def get_table(public_id):
    """The table, its players, standings and hand count."""
    return jsonify(serializers.table_json(_table_or_404(public_id)))


@bp.route("/tables/<public_id>", methods=["PATCH"])
@bp.arguments(UpdateTableRequest, example={"stake": "2", "name": "Friday (after midnight)"})
@bp.alt_response(200, schema=TableAnswer, success=True)
@writes
@bp.doc(operationId="update_table")
@errors(403, 404, 413)
def update_table(data, public_id):
    """Change the table: name, currency label, notes, stake (from the next hand on: every hand keeps
    the stake it was played at), archive or restore it, delete it or bring it back within the undo
    window. Only the fields sent change; an archived table refuses other changes until restored."""
    table = _table_or_404(public_id, deleted_ok=True)
    _require_token(table, data)
    changes = {key: data.get(key) for key in ("name", "currency", "notes", "stake", "archived", "deleted")}
    _scoring_call(scoring.update_table, table, **changes)  # one transaction: all of it or nothing
    return jsonify(serializers.table_json(table))


@bp.route("/tables/<public_id>/players", methods=["PUT"])
@bp.arguments(PlayersRequest, example={"players": ["Ann", {"name": "Bob", "was": "Bo"}, "Cy", "Eve"]})
@bp.alt_response(200, schema=TableAnswer, success=True)
@writes
@bp.doc(operationId="change_players")
@errors(403, 404, 413)
def change_players(data, public_id):
    """Change who sits at the table between hands: the new players in seat order. A current or
    earlier player's name keeps that player (their total follows them; ``{"name", "was"}`` renames
    them, in every hand too); a new name joins; a seated player left out leaves (keeps their total,
    is in no later hand); a new name in the seat of one who left is a substitute. Hands already
    played keep their players. Kept in the history; ``POST …/undo`` takes it back."""
    table = _table_or_404(public_id)
    _require_token(table, data)
    _scoring_call(scoring.change_players, table, data["players"], device=_device(data))
    return jsonify(serializers.table_json(table))


@bp.route("/tables/<public_id>/summary", methods=["GET"])
@bp.alt_response(200, schema=SummaryAnswer, success=True)
@bp.doc(operationId="table_summary")
@errors(404)
def table_summary(public_id):
    """How the night went: standings, each player's figures, and the fewest transfers that square
    everyone (rounded to the cent and still adding up to zero). ETag per table revision
    (If-None-Match: 304)."""
    table = _table_or_404(public_id)
    return conditional(table_etag(table, "summary.json"), lambda: jsonify(serializers.summary_json(table)))


@bp.route("/tables/<public_id>/export", methods=["GET"])
@bp.alt_response(200, schema=ExportAnswer, success=True)
@bp.doc(operationId="export_table")
@errors(404)
def export_table(public_id):
    """The whole table as one JSON document (format version, rules, players, hands with their facts,
    the history of changes, a checksum against corruption, not a signature). Streamed; ETag per table
    revision (If-None-Match: 304). No id and no edit token: POST it to /import to recreate it."""
    table = _table_or_404(public_id)
    return conditional(table_etag(table, "json"), lambda: Response(stream_with_context(scoring.export_chunks(table)),
                                                                   content_type="application/json"))


@bp.route("/import", methods=["POST"])
@bp.alt_response(201, schema=ImportAnswer, success=True)
@bp.doc(operationId="import_table", requestBody={
    "required": True, "description": "A document from GET /tables/{public_id}/export, unchanged.",
    "content": {"application/json": {"schema": {"type": "object"}}}})
@errors(413)
def import_table():
    """Recreate an exported table under a new id and edit token by replaying it: every hand is recorded
    as a new hand (the engine validates and settles its facts; points in the file that differ are
    refused, naming the hand); the file's history is kept as plain text. At most 2 MiB
    (IMPORT_MAX_BYTES), refused before the body is read. A damaged, foreign, forged or newer-version
    document is refused and changes nothing. The new id and edit token come under both names
    (``public_id``/``id``, ``edit_token``/``token``), as POST /tables answers them."""
    table = _scoring_call(scoring.import_document, request.get_data(cache=True))
    token = access.edit_token(table)  # both names, as POST /tables answers them (issue 17)
    return jsonify(public_id=table.public_id, edit_token=token, id=table.public_id, token=token,
                   table=serializers.table_json(table, with_token=True)), 201


@bp.route("/tables/<public_id>/hands", methods=["GET"])
@bp.arguments(HandsQuery, location="query")
@bp.alt_response(200, schema=HandsPageAnswer, success=True)
@bp.doc(operationId="list_hands")
@errors(404)
def list_hands(query, public_id):
    """Hands, newest first, a page at a time."""
    table = _table_or_404(public_id)
    page = query.get("page") or 1
    per_page = query.get("per_page") or 25
    _active, total = scoring.hand_counts(table)
    hands, deltas = scoring.hands_page(table, page, per_page)
    names = {p.id: p.name for p in table.players}
    pages = max(1, -(-total // per_page))
    return jsonify(hands=[serializers.hand_json(h, names, deltas.get(h.id, {})) for h in hands], page=page,
                   per_page=per_page, total=total, pages=pages,
                   next=serializers.url("api.list_hands", public_id=public_id, page=page + 1, per_page=per_page)
                   if page < pages else None)


@bp.route("/tables/<public_id>/hands/<int:number>", methods=["GET"])
@bp.alt_response(200, schema=HandAnswer, success=True)
@bp.doc(operationId="get_hand")
@errors(404)
def get_hand(public_id, number):
    """One hand."""
    table = _table_or_404(public_id)
    return jsonify(serializers.hand_json(_hand_or_404(table, number)))


@bp.route("/tables/<public_id>/hands", methods=["POST"])
@bp.arguments(RecordHandRequest, example={
    "facts": {"winner": "A", "losers": {"B": {"cards": 3, "jokers": 0}, "C": {"cards": 5, "jokers": 1}}},
    "request_id": "2f1c9a"})
@bp.alt_response(201, schema=HandChangeAnswer, success=True)
@bp.alt_response(200, schema=HandChangeAnswer, success=True,
                 description="This request_id was recorded before: nothing new was stored.")
@writes
@bp.doc(operationId="record_hand", responses={201: {"links": HAND_LINKS}, 200: {"links": HAND_LINKS}})
@errors(403, 404, 409, 413)
def record_hand(data, public_id):
    """Record a hand. The same request_id (or Idempotency-Key header) records it once: a retry answers
    200 with ``created: false``; the same id with other facts is a 409 ``request_id_reused`` naming
    the hand it recorded. Without either, every request records a new hand (``idempotent: false``
    in the answer), so a client that may retry must send one."""
    table = _table_or_404(public_id)
    _require_token(table, data)
    facts = data["facts"]
    strict_numbers(facts, table.game)
    request_id = data.get("request_id") or (request.headers.get("Idempotency-Key") or "").strip() or None
    idempotent = request_id is not None
    if len(request_id or "") > MAX_REQUEST_ID:
        raise InputError(400, "bad_request_id", _("The Idempotency-Key may have at most %(n)d characters.",
                                                  n=MAX_REQUEST_ID), "request_id")
    hand, created = _scoring_call(scoring.record_hand_once, table, facts,
                                  request_id=request_id or "server-" + secrets.token_urlsafe(16),
                                  device=_device(data), expected_number=data.get("expected_number"))
    return (jsonify(serializers.hand_answer(table, hand, created=created, idempotent=idempotent)),
            201 if created else 200)


@bp.route("/tables/<public_id>/hands/<int:number>", methods=["PUT", "PATCH"])
@bp.arguments(EditHandRequest, example={
    "facts": {"winner": "B", "losers": {"A": {"cards": 2, "jokers": 0}, "C": {"cards": 1, "jokers": 0}}},
    "revision": 1})
@bp.alt_response(200, schema=HandChangeAnswer, success=True)
@writes
@bp.doc(operationId="edit_hand", responses={200: {"links": HAND_LINKS}})
@errors(403, 404, 409, 413)
def edit_hand(data, public_id, number):
    """Edit a hand: send the revision you read; a stale one is a 409 with both versions."""
    table = _table_or_404(public_id)
    _require_token(table, data)
    _hand_or_404(table, number)
    facts = data["facts"]
    strict_numbers(facts, table.game)
    hand = _scoring_call(scoring.edit_hand, table, number, facts, revision=data["revision"], device=_device(data))
    return jsonify(serializers.hand_answer(table, hand))


def _void_or_restore(data, public_id, number, change):
    table = _table_or_404(public_id)
    _require_token(table, data)
    _hand_or_404(table, number)
    hand = _scoring_call(change, table, number, revision=data["revision"], device=_device(data))
    return jsonify(serializers.hand_answer(table, hand))


@bp.route("/tables/<public_id>/hands/<int:number>/void", methods=["POST"])
@bp.arguments(RevisionRequest, required=False, example={"revision": 1})
@bp.alt_response(200, schema=HandChangeAnswer, success=True)
@writes
@bp.doc(operationId="void_hand", responses={200: {"links": HAND_LINKS}})
@errors(403, 404, 409, 413)
def void_hand(data, public_id, number):
    """Void a hand: it stays in the list and the history but no longer counts."""
    return _void_or_restore(data, public_id, number, scoring.void_hand)


@bp.route("/tables/<public_id>/hands/<int:number>/restore", methods=["POST"])
@bp.arguments(RevisionRequest, required=False, example={"revision": 1})
@bp.alt_response(200, schema=HandChangeAnswer, success=True)
@writes
@bp.doc(operationId="restore_hand", responses={200: {"links": HAND_LINKS}})
@errors(403, 404, 409, 413)
def restore_hand(data, public_id, number):
    """Make a void hand count again."""
    return _void_or_restore(data, public_id, number, scoring.restore_hand)


@bp.route("/tables/<public_id>/undo", methods=["POST"])
@bp.arguments(UndoRequest, required=False)
@bp.alt_response(200, schema=UndoAnswer, success=True)
@writes
@bp.doc(operationId="undo")
@errors(403, 404, 409, 413)
def undo(data, public_id):
    """Undo the table's latest change that is not yet undone (repeat to go further back)."""
    table = _table_or_404(public_id)
    _require_token(table, data)
    event = _scoring_call(scoring.undo_last, table, device=_device(data))
    if event is None:
        raise InputError(409, "nothing_to_undo", _("There is nothing to undo at this table."), None)
    if isinstance(event, scoring.PlayerChange):  # the latest change was of the players
        return jsonify(undone={"kind": "players", "hand": None}, hand=None, table=serializers.table_json(table))
    undone = scoring.undone_event(event)
    return jsonify(undone={"kind": undone.kind if undone else None, "hand": event.hand.number},
                   hand=serializers.hand_json(event.hand), table=serializers.table_json(table))
