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
- ``GET  /openapi.json``               the OpenAPI 3 document, generated from companion/schemas/

Bodies and queries are parsed by the request schemas of ``companion/schemas/`` (flask-smorest +
marshmallow); answers are written by its answer schemas (``@bp.response``: the OpenAPI document
and the bytes on the wire come from the same class); every read and write goes through
``companion/scoring/``. Routes by concern: ``rules`` (check, answers, settle, games), ``tables``
and ``hands``; this module holds the blueprint and what they share. Writes need the table's edit token: ``Authorization: Bearer
<token>`` (or ``X-Edit-Token``; ``"token"`` in the body is deprecated).
Every bad input is a 4xx with ``{"error": {"code", "message", "field"}}``; what the engine refused
also lists every problem it found in ``"errors"`` (the first is ``"error"``).
"""
from __future__ import annotations

from flask import jsonify, request
from flask_babel import gettext as _
from flask_smorest import Blueprint

from ... import access, scoring
from ...engine.errors import EngineError
from ...i18n import tr
from ...schemas import MAX_HAND_NUMBER, ConflictAnswer, ErrorAnswer, InputError, RequestParser, engine_guard


class ApiBlueprint(Blueprint):
    ARGUMENTS_PARSER = RequestParser()  # our JSON reader and error shape (companion/schemas/)


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


CONFLICT = ConflictAnswer()  # the error shape, and for a 409 the hand as it is now


@bp.errorhandler(InputError)
def _input_error(error: InputError):
    return jsonify(CONFLICT.dump({"error": error.to_dict(), **error.extra})), error.status


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
# What the table routes share


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
                         current=current,
                         submitted=conflict.submitted) from None
    except EngineError as error:
        scoring.discard_changes()
        raise InputError.from_engine(error, 404 if isinstance(error, scoring.NotFound) else 400) from None


