"""Errors and JSON text: the error shape of every bad input (:class:`InputError`), the error
codes (:data:`ERROR_CODES`), the engine guard and the JSON reader."""
from __future__ import annotations

import json
from contextlib import contextmanager
from typing import Any

from flask import current_app
from flask_babel import gettext as _, lazy_gettext as _l
from marshmallow import ValidationError

from ..engine.errors import EngineError
from ..i18n import tr
from ..scoring.factcheck import show_value


MAX_TEXT = 200          # longest card text / reading we accept
MAX_REQUEST_ID = 64
MAX_PAGE = 1_000_000
MAX_PER_PAGE = 200
MAX_HAND_NUMBER = 2**31 - 1
MAX_DEPTH = 16          # hand facts nest 3 or 4 levels; nothing we take needs more

# Every error code an answer can carry, each documented once (docs/api.md is written from this).
ERROR_CODES = {
    # the request as a whole
    "empty_body": _l("The body is empty."),
    "bad_json": _l("The body is not valid JSON (or nests too deeply, or is not UTF-8)."),
    "not_an_object": _l("The body is JSON but not an object."),
    "request_entity_too_large": _l("The body is too large: at most 64 KiB, and 8 KiB to change a hand (HTTP 413)."),
    "unsupported_media_type": _l("A body sent without Content-Type: application/json (HTTP 415)."),
    "rate_limited": _l("Too many requests from this address for a while (HTTP 429); wait and try again."),
    "storage_full": _l("The server's storage budget is used up: no new table or import (HTTP 507)."),
    "export_busy": _l("The export is being written for another request just now (HTTP 503 with Retry-After): "
                      "ask again in a few seconds."),
    "unknown_field": _l("A field the request does not take; \"field\" names it."),
    "unreadable": _l("A value the engine could not read (a bug to report); nothing was saved."),
    # one value
    "missing": _l("A required field is missing or null."),
    "wrong_type": _l("A value of the wrong JSON type (text for a number, a list for text, ...)."),
    "too_long": _l("A text longer than its limit."),
    "out_of_range": _l("A whole number outside its range."),
    "unknown_game": _l("The game is not one of the engine's games."),
    "unknown_preset": _l("The preset is not one of the game's presets."),
    "unknown_rule": _l("A house-rule switch the game does not have."),
    "bad_rules": _l("A house-rule value the switch does not allow."),
    "bad_stake": _l("The stake is not a number from 0 to 1000000 with at most 4 decimals."),
    "bad_card": _l("Card text that cannot be read; the message says what and where."),
    "too_many_copies": _l("More copies of a card than the decks hold."),
    "too_many_jokers": _l("More jokers than the decks hold."),
    "too_many_cards": _l("A hand with more cards than the game deals."),
    "previous_not_a_combination": _l("What beats this: the cards on the table are no combination."),
    "reading_not_possible": _l("The cards cannot be read as the declared reading (previous_as)."),
    "bad_facts": _l("Hand facts the engine refuses (other fact codes name the exact problem)."),
    "player_count": _l("Too few or too many players for the game."),
    "bad_players": _l("The players are not a list of names (or not the table's players in seat order)."),
    "duplicate_player": _l("Two players with the same name."),
    "required": _l("An empty name."),
    "bad_text": _l("Text with control characters."),
    "fractional_unit": _l("A fractional 干瞪眼 unit at a table: set the stake instead."),
    "bad_dealer": _l("A first dealer who is not one of the players."),
    "unknown_player": _l("A name that is not a player at this table (a rename's \"was\")."),
    "name_taken": _l("A new name that a player of this table (also one who left) already has."),
    "rename_changes_hand": _l("New names that would make a hand already played read differently."),
    "invalid": _l("Any other bad value; the message says what."),
    # tables
    "bad_request_id": _l("A request_id that is empty or longer than 64 characters."),
    "token_required": _l("A change without the table's edit token (HTTP 403)."),
    "bad_token": _l("An edit token that is not the table's, or no longer is: its share link was reset (HTTP 403)."),
    "unknown_table": _l("No table has this id (HTTP 404)."),
    "unknown_hand": _l("The table has no hand with this number (HTTP 404)."),
    "stale_revision": _l("The hand changed since it was read (HTTP 409, with both versions)."),
    "hand_recorded_meanwhile": _l("Another hand was recorded first (HTTP 409, with both versions)."),
    "request_id_reused": _l("A request_id or Idempotency-Key that already recorded a hand, sent with other "
                            "facts (HTTP 409, with both versions): nothing new was saved."),
    "nothing_to_undo": _l("The table has no change left to undo (HTTP 409)."),
    # import
    "damaged": _l("The file is damaged, incomplete or changed after export; the message names the place."),
    "foreign": _l("The file is not a table exported from this app (or is for an unknown game)."),
    "newer_version": _l("The file was written by a newer version of the app."),
    "bad_hand": _l("A hand in the file that the engine refuses; the message names the hand."),
    "points_differ": _l("A hand whose points in the file are not the engine's settlement of its facts."),
    "stake_differs": _l("A hand whose stake in the file is not the one the file's own history of stakes gives it."),
    # HTTP
    "not_found": _l("No such address (HTTP 404)."),
    "method_not_allowed": _l("The address does not take this method (HTTP 405)."),
    "server_error": _l("A fault of ours (HTTP 500); never expected."),
    "unavailable": _l("The database cannot be reached just now (HTTP 503, with Retry-After): it is not known whether a change was saved; retrying with the same request_id is safe."),
    "disk_full": _l("The server's disk is full (HTTP 503, with Retry-After): nothing was saved; the same request can be sent again once there is room."),
    "not_migrated": _l("The server's database lacks this version's migrations (HTTP 503): nothing was saved until whoever runs it applies them."),
}


# --------------------------------------------------------------------------------------------
# Errors


class InputError(Exception):
    """A 4xx answer: ``{"error": {"code", "message", "field"}}`` plus optional extra keys."""

    def __init__(self, status: int, code: str, message: str, field: str | None = None, **extra):
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message
        self.field = field
        self.extra = extra

    def to_dict(self) -> dict:
        return {"code": self.code, "message": str(self.message), "field": self.field}

    @classmethod
    def from_engine(cls, error: EngineError, status: int = 400) -> "InputError":
        """An engine (or scoring) error, its sentence translated. ``errors`` (an extra key of the
        answer) lists every problem the engine found, this one first (EngineError.errors)."""
        every = [{"code": code or "invalid", "message": tr(message), "field": field}
                 for field, code, message in getattr(error, "errors", ())] or None
        return cls(status, error.code or "invalid", tr(error.message), error.field,
                   **({"errors": every} if every else {}))


class Problem(str):
    """A field's error message that keeps its machine code (and, for nested values, its path)."""

    code: str = "invalid"
    path: str | None = None


def problem(code: str, message: Any, path: str | None = None) -> ValidationError:
    text = Problem(str(message))
    text.code = code
    text.path = path
    return ValidationError(text)


def _first(messages: Any, path: list[str]) -> tuple[Problem | str, list[str]]:
    """The first error of a marshmallow error dict (schema order) and where it is."""
    if isinstance(messages, dict):
        key, value = next(iter(messages.items()))
        return _first(value, path + ([str(key)] if key != "_schema" else []))
    if isinstance(messages, list) and messages:
        return _first(messages[0], path)
    return messages, path


def input_error(error: ValidationError) -> InputError:
    """A marshmallow ValidationError as the one InputError it starts with."""
    message, path = _first(error.messages, [])
    field = ".".join(path) or None
    if isinstance(message, Problem):
        return InputError(400, message.code, str(message), message.path or field)
    if message == UNKNOWN and path:
        return InputError(400, "unknown_field", unknown_field_message(path[-1]), field)
    return InputError(400, "invalid", str(message), field)


UNKNOWN = "Unknown field."


def unknown_field_message(name: str) -> str:
    return _("\"%(name)s\" is not a field of this request. Leave it out, or check its spelling against the "
             "API description at /api.", name=show_value(str(name), 40)[1:-1])


show = show_value  # a short, safe rendering of a bad value for an error message


def type_name(value: Any) -> str:
    if value is None:
        return _("null")
    if isinstance(value, bool):
        return _("true/false")
    if isinstance(value, (int, float)):
        return _("a number")
    if isinstance(value, str):
        return _("text")
    if isinstance(value, list):
        return _("a list")
    if isinstance(value, dict):
        return _("an object")
    return type(value).__name__


# What an engine raises when it failed to refuse bad input itself (a bug to fix in the engine).
UNEXPECTED = (ValueError, TypeError, KeyError, IndexError, AttributeError, ArithmeticError, RecursionError)


@contextmanager
def engine_guard(field: str | None):
    """Bad input must never become a 500: an engine or scoring failure that is not one of their own
    errors is logged (with its traceback, to be fixed there) and answered as a 400."""
    try:
        yield
    except EngineError:
        raise
    except UNEXPECTED:
        from ..scoring import discard_changes

        discard_changes()
        current_app.logger.exception("The engine failed on input it should have refused")
        raise InputError(400, "unreadable",
                         _("Some of the values sent could not be read%(where)s. Check each value's type and "
                           "spelling against the examples at /api.",
                           where=_(" in \"%(field)s\"", field=field) if field else ""), field) from None


# --------------------------------------------------------------------------------------------
# JSON text


def _reject_constant(name: str):
    raise ValueError(f"{name} is not valid JSON")


def parse_json_text(raw: bytes | str) -> Any:
    """Decode a JSON document; InputError 400 'bad_json' saying what is wrong and where."""
    if not raw.strip():
        raise InputError(400, "empty_body",
                         _("The request body is empty. Send a JSON object, for example "
                           "{\"game\": \"gandengyan\", \"previous\": \"7\", \"play\": \"8\"}."))
    try:
        data = json.loads(raw, parse_constant=_reject_constant)
    except RecursionError:
        raise InputError(400, "bad_json", _("The JSON is nested too deeply.")) from None
    except UnicodeDecodeError:
        raise InputError(400, "bad_json",
                         _("The request body is not UTF-8 text. Send JSON encoded as UTF-8.")) from None
    except json.JSONDecodeError as error:
        raise InputError(400, "bad_json",
                         _("The request body is not valid JSON (%(problem)s at line %(line)s, column %(column)s). "
                           "Check the quotes, commas and brackets.",
                           problem=error.msg, line=error.lineno, column=error.colno)) from None
    except ValueError as error:  # NaN / Infinity, or an integer with thousands of digits
        raise InputError(400, "bad_json",
                         _("The request body is not valid JSON: %(problem)s.", problem=str(error)[:80])) from None
    if _depth(data) > MAX_DEPTH:
        raise InputError(400, "bad_json", _("The JSON is nested too deeply."))
    return data


def json_object(raw: bytes | str) -> dict:
    """A JSON object (the body of every API request and of the CLI's input files)."""
    data = parse_json_text(raw)
    if not isinstance(data, dict):
        raise InputError(400, "not_an_object",
                         _("The request body must be a JSON object ({…}), not %(kind)s.", kind=type_name(data)))
    return data


def _depth(value) -> int:
    """How deeply lists/objects nest (iteratively: no recursion on hostile input)."""
    deepest, stack = 0, [(value, 1)]
    while stack:
        node, level = stack.pop()
        if isinstance(node, dict):
            node = list(node.values())
        if isinstance(node, list):
            deepest = max(deepest, level)
            stack.extend((child, level + 1) for child in node if isinstance(child, (list, dict)))
    return deepest
