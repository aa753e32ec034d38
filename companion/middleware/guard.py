"""The input guard at the edge: every request passes here before any view runs.

Whatever a view, a form, a schema or the engine does later, it never sees:
- an id in the path that is not of the id alphabet (no database lookup is made for it);
- text with NUL, a lone surrogate, or a control character (tab and newlines excepted);
- a JSON document nested deeper than :data:`MAX_JSON_DEPTH`, or with NaN / Infinity;
- a single form or query value longer than :data:`MAX_FIELD_CHARS`.

Refusals are :class:`InputRejected` (a 4xx with the usual error body, see ``views/errors.py``).
Names and notes are judged once more, field by field, by ``scoring`` (NFKC, invisible characters).
"""
from __future__ import annotations

import json
import re
from typing import Any

from flask import Flask, current_app, request
from flask.json.provider import DefaultJSONProvider
from flask_babel import gettext as _
from werkzeug.exceptions import NotFound, RequestEntityTooLarge

# new_public_id() makes 22 characters of the URL-safe base64 alphabet; older or imported ids
# may differ in length, never in alphabet.
ID_PATTERN = re.compile(r"[A-Za-z0-9_-]{8,64}")
MAX_JSON_DEPTH = 32
MAX_FIELD_CHARS = 8192
_ID_ARGS = ("public_id",)
_ALLOWED_CONTROLS = frozenset("\t\n\r")


class InputRejected(Exception):
    """Input refused at the edge: ``status`` (400, 404, 413), a stable ``code``, a message, a field."""

    def __init__(self, status: int, code: str, message: str, field: str | None = None):
        super().__init__(message)
        self.status, self.code, self.message, self.field = status, code, message, field

    def to_dict(self) -> dict:
        return {"code": self.code, "message": self.message, "field": self.field}


# Control characters (Unicode category Cc: U+0000–U+001F and U+007F–U+009F) but tab and newlines,
# and lone surrogates (Cs): one scan in C, no allocation when the text is clean (nearly always).
_UNREADABLE = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\ud800-\udfff]")


def text_problem(value: str) -> str | None:
    """Why ``value`` cannot be stored or shown, or None: NUL, lone surrogates, control characters."""
    found = _UNREADABLE.search(value)
    if found is None:
        return None
    ch = found.group()
    if ch == "\x00":
        return _("it contains a NUL character")
    if "\ud800" <= ch <= "\udfff":
        return _("it contains a broken character (a lone surrogate)")
    return _("it contains a control character")


def _walk(value: Any, path: str, depth: int) -> None:
    if depth > MAX_JSON_DEPTH:
        raise InputRejected(400, "bad_json", _("The JSON is nested too deeply (at most %(depth)d levels).",
                                               depth=MAX_JSON_DEPTH), path or None)
    if isinstance(value, str):
        problem = text_problem(value)
        if problem:
            raise InputRejected(400, "bad_text", _("A value cannot be read: %(problem)s.", problem=problem),
                                path or None)
    elif isinstance(value, dict):
        for key, item in value.items():
            where = f"{path}.{key}" if path else str(key)
            if text_problem(str(key)):
                raise InputRejected(400, "bad_text", _("A field name cannot be read: %(problem)s.",
                                                       problem=text_problem(str(key))), None)
            _walk(item, where, depth + 1)
    elif isinstance(value, list):
        for i, item in enumerate(value):
            _walk(item, f"{path}.{i}" if path else str(i), depth + 1)


def check_json_document(value: Any) -> None:
    """Refuse a parsed JSON document that is too deep or holds unreadable text (also for the
    JSON that forms carry in hidden fields)."""
    _walk(value, "", 0)


def _reject_constant(name: str):
    raise ValueError(f"{name} is not a number JSON allows")


def loads(text: str | bytes) -> Any:
    """``json.loads`` that refuses NaN/Infinity and turns runaway nesting into a ValueError."""
    try:
        return json.loads(text, parse_constant=_reject_constant)
    except RecursionError:
        raise ValueError("the JSON is nested too deeply") from None


class SafeJSONProvider(DefaultJSONProvider):
    """Flask's JSON provider with :func:`loads` (every ``request.get_json`` goes through it)."""

    def loads(self, s: str | bytes, **kwargs: Any) -> Any:
        return loads(s)


def _check_fields(items, source: str) -> None:
    for key, value in items:
        if len(value) > MAX_FIELD_CHARS:
            raise InputRejected(413, "request_entity_too_large", _("The value of %(field)s is too long.", field=key), key)
        problem = text_problem(value) or text_problem(key)
        if problem:
            raise InputRejected(400, "bad_text", _("A value cannot be read: %(problem)s.", problem=problem), key)


# Writes of one hand are small: their bodies are capped lower than MAX_CONTENT_LENGTH, so what a
# hand stores stays bounded. Importing a whole table may send more.
HAND_WRITE_MAX_BYTES = 8 * 1024
HAND_WRITES = frozenset({"tables.undo", "hands.record", "hands.edit", "hands.void", "hands.restore",
                         "api.record_hand", "api.edit_hand", "api.void_hand", "api.restore_hand", "api.undo"})


def _set_body_limit() -> None:
    if request.endpoint in HAND_WRITES:
        request.max_content_length = int(current_app.config.get("HAND_WRITE_MAX_BYTES", HAND_WRITE_MAX_BYTES))
    elif request.endpoint in ("review.import_table", "api.import_table"):
        request.max_content_length = int(current_app.config.get("IMPORT_MAX_BYTES", 2 * 1024 * 1024))


def _refuse_long_chunked_body() -> None:
    """A body that announces more than the limit is refused before a byte of it is read. A body
    sent without a length (chunked) is cut at the limit by Werkzeug, which would then read as
    broken JSON: a body that reaches the limit is refused as too large."""
    limit = request.max_content_length
    if limit and request.content_length is not None and request.content_length > limit:
        raise RequestEntityTooLarge()
    if limit and request.content_length is None and len(request.get_data(cache=True)) >= limit:
        raise RequestEntityTooLarge()


def guard_request() -> None:
    req = request._get_current_object()  # one context lookup, not one per attribute
    view_args = req.view_args or {}
    for name in _ID_ARGS:
        value = view_args.get(name)
        if value is not None and not ID_PATTERN.fullmatch(value):  # the usual 404, before any lookup
            if req.path.startswith("/api/"):
                raise InputRejected(404, "unknown_table", _("There is no table with this id. Check the address, "
                                                            "or open the table from its link again."), "table")
            raise NotFound()
    if req.query_string:
        _check_fields(req.args.items(multi=True), "query")
    if req.method in ("POST", "PUT", "PATCH", "DELETE"):
        _set_body_limit()
        _refuse_long_chunked_body()
        if req.path.startswith("/api/") and req.content_length != 0 and not req.is_json \
                and (req.content_length or req.mimetype):
            raise InputRejected(415, "unsupported_media_type", _(
                "The API reads JSON only: send the body with Content-Type: application/json."), None)
        if req.mimetype in ("application/x-www-form-urlencoded", "multipart/form-data"):
            _check_fields(req.form.items(multi=True), "form")
        elif (req.is_json or req.path.startswith("/api/")) and req.content_length != 0:
            body = req.get_json(force=True, silent=True)  # the API reads any body as JSON
            if body is not None:
                check_json_document(body)


def init_app(app: Flask) -> None:
    app.json_provider_class = SafeJSONProvider
    app.json = SafeJSONProvider(app)
    app.before_request(guard_request)
