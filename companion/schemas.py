"""The input layer: every JSON body and query of API v1, described once with marshmallow.

The same schemas parse the JSON API's requests (through flask-smorest, which also writes the
OpenAPI document at ``/api/v1/openapi.json`` from them), the CLI's JSON input (``flask settle
hand.json``) and the rule-checker page's query. Each value has one parser:

- the stake: the engine's :func:`companion.engine.money.parse_stake`;
- presets and house-rule switches: the game's ``rules_from_dict`` (the engine);
- the game: the engine's registry :data:`companion.engine.ENGINES`;
- whole numbers and texts: the fields below.

Every bad input becomes an :class:`InputError`: a 4xx answer ``{"error": {"code", "message",
"field"}}``. The codes are listed once, in :data:`ERROR_CODES` (and in docs/api.md).
"""
from __future__ import annotations

import json
from contextlib import contextmanager
from typing import Any

from flask import current_app
from flask_babel import gettext as _, lazy_gettext as _l
from marshmallow import INCLUDE, RAISE, Schema, ValidationError, fields, post_load
from marshmallow.utils import missing
from webargs.flaskparser import FlaskParser

from .engine import ENGINES
from .engine.errors import EngineError
from .engine.money import parse_stake
from .i18n import tr
from .scoring import CURRENCY_MAX, NAME_MAX, NOTES_MAX, PLAYER_NAME_MAX

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
    # HTTP
    "not_found": _l("No such address (HTTP 404)."),
    "method_not_allowed": _l("The address does not take this method (HTTP 405)."),
    "server_error": _l("A fault of ours (HTTP 500); never expected."),
    "unavailable": _l("The database cannot be reached just now (HTTP 503, with Retry-After): it is not known whether a change was saved; retrying with the same request_id is safe."),
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
             "API description at /api.", name=_show(str(name), 40)[1:-1])


def show(value: Any, limit: int = 40) -> str:
    """A short, safe rendering of a bad value for an error message."""
    return _show(value, limit)


def _show(value: Any, limit: int = 40) -> str:
    try:
        text = json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError):
        text = repr(value)
    return text if len(text) <= limit else text[: limit - 1] + "…"


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
        from .scoring import discard_changes

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


# --------------------------------------------------------------------------------------------
# Fields: one parser per kind of value


class Value(fields.Field):
    """A field whose missing / null answers carry our codes. ``parse`` reads a present value."""

    def __init__(self, *, required: bool = False, allow_null: bool = True, example: str = "", what=None,
                 **kwargs):
        super().__init__(required=required, allow_none=allow_null and not required, **kwargs)
        self.example = example
        self.what = what  # the whole sentence for a missing value, when the field has its own

    def deserialize(self, value, attr=None, data=None, **kwargs):
        if value is missing or value is None:
            if self.required or (value is None and not self.allow_none):
                raise problem("missing", self.missing_message(attr))
            return missing if value is missing else None
        return self.parse(value, attr)

    def missing_message(self, key: str) -> str:
        if self.what:
            return str(self.what)
        if self.example:
            return _("\"%(key)s\" is required, for example %(example)s.", key=key, example=self.example)
        return _("\"%(key)s\" is required.", key=key)

    def parse(self, value, key: str):
        return value


class Game(Value):
    """A game of the engine's registry, by key ("gandengyan") or Chinese name ("干瞪眼"); any case."""

    def __init__(self, **kwargs):
        super().__init__(required=True, metadata={"type": "string",
                                                  "description": "The game: its key or its Chinese name."},
                         **kwargs)

    @property
    def metadata(self) -> dict:  # the games of the registry when the OpenAPI document is made
        return {**self._metadata, "enum": [*ENGINES] + [module.TITLE for module in ENGINES.values()]}

    @metadata.setter
    def metadata(self, value: dict) -> None:
        self._metadata = value

    @staticmethod
    def choices() -> str:
        return ", ".join(f"\"{name}\" ({module.TITLE})" for name, module in ENGINES.items())

    def missing_message(self, key: str) -> str:
        return _("Say which game: \"game\" must be one of %(choices)s.", choices=self.choices())

    def parse(self, value, key):
        module = lookup_game(value)
        if module is None:
            raise problem("unknown_game", _("Unknown game %(value)s: \"game\" must be one of %(choices)s.",
                                            value=_show(value), choices=self.choices()))
        return module


def lookup_game(value: Any):
    """The engine module of a game key or title, or None."""
    if not isinstance(value, str):
        return None
    key = value.strip()
    for name, module in ENGINES.items():
        if key.lower() == name or key == module.TITLE:
            return module
    return None


class Text(Value):
    def __init__(self, *, max_length: int = MAX_TEXT, **kwargs):
        kwargs.setdefault("metadata", {"type": "string", "maxLength": max_length})
        super().__init__(**kwargs)
        self.max_length = max_length

    def parse(self, value, key):
        if not isinstance(value, str):
            message = (_("\"%(key)s\" must be text such as %(example)s, not %(kind)s.", key=key,
                         kind=type_name(value), example=self.example)
                       if self.example else _("\"%(key)s\" must be text, not %(kind)s.", key=key,
                                              kind=type_name(value)))
            raise problem("wrong_type", message)
        if len(value) > self.max_length:
            raise problem("too_long", _("\"%(key)s\" is too long: at most %(limit)s characters.",
                                        key=key, limit=self.max_length))
        return value


class Cards(Text):
    """Card notation: text, or a list of card texts (joined with spaces)."""

    def __init__(self, **kwargs):
        super().__init__(example="\"7 7\" or \"5h 10h Kh\"", metadata={"oneOf": [
            {"type": "string", "maxLength": MAX_TEXT},
            {"type": "array", "items": {"type": "string"}, "minItems": 1}],
            "description": "Card notation, e.g. \"5h 10h Kh\" or [\"5h\", \"10h\", \"Kh\"]."}, **kwargs)

    def parse(self, value, key):
        if isinstance(value, list) and value and all(isinstance(v, str) for v in value):
            value = " ".join(value)
        return super().parse(value, key)


class Whole(Value):
    """A whole number from ``minimum`` to ``maximum`` (a JSON number; 4.0 counts as 4)."""

    def __init__(self, *, minimum: int = 0, maximum: int = MAX_HAND_NUMBER, **kwargs):
        kwargs.setdefault("metadata", {"type": "integer", "minimum": minimum, "maximum": maximum})
        super().__init__(**kwargs)
        self.minimum, self.maximum = minimum, maximum

    def parse(self, value, key, minimum: int | None = None, maximum: int | None = None):
        low = self.minimum if minimum is None else minimum
        high = self.maximum if maximum is None else maximum
        if isinstance(value, bool) or not isinstance(value, int):
            if isinstance(value, float) and value.is_integer() and low <= value <= high:
                return int(value)
            raise problem("wrong_type",
                          _("\"%(key)s\" must be a whole number from %(minimum)s to %(maximum)s, not %(value)s.",
                            key=key, minimum=low, maximum=high, value=_show(value)))
        if not low <= value <= high:
            raise problem("out_of_range", _("\"%(key)s\" must be from %(minimum)s to %(maximum)s, not %(value)s.",
                                            key=key, minimum=low, maximum=high, value=_show(value)))
        return value


class QueryWhole(Whole):
    """A whole number in the query string: ASCII digits only ("²" is a digit to str.isdigit)."""

    def parse(self, value, key):
        text = value.strip() if isinstance(value, str) else ""
        if not (text.isascii() and text.isdigit() and len(text) <= 9):
            raise problem("wrong_type", _("\"%(key)s\" must be a whole number.", key=key))
        return super().parse(int(text), key)


class Stake(Value):
    """Money per point: a JSON number or a decimal string ("0.5", "0,5"), read by the engine's
    one stake parser. ``allow_zero``: a table may keep points only (stake 0)."""

    def __init__(self, *, allow_zero: bool, **kwargs):
        super().__init__(metadata={
            "oneOf": [{"type": "number", "minimum": 0 if allow_zero else 0.0001, "maximum": 1_000_000},
                      {"type": "string", "maxLength": 40}],
            "description": "Money per point: a number or a decimal string such as \"0.5\" or \"0,5\"; "
                           "at most 4 decimals and 1000000." + (" 0 keeps points only." if allow_zero else "")},
            **kwargs)
        self.allow_zero = allow_zero

    def parse(self, value, key):
        try:
            return parse_stake(value, field=key, allow_zero=self.allow_zero)
        except EngineError as error:
            raise problem(error.code, tr(error.message), error.field) from None


class HouseRules(Value):
    """House-rule switches: an object of JSON scalars. The game's ``rules_from_dict`` judges them."""

    def __init__(self, **kwargs):
        super().__init__(metadata={"type": "object", "additionalProperties": {
            "oneOf": [{"type": "boolean"}, {"type": "number"}, {"type": "string"}]},
            "description": "House-rule switches (see GET /api/v1/games), on top of the preset."}, **kwargs)

    def parse(self, value, key):
        if not isinstance(value, dict):
            raise problem("wrong_type",
                          _("\"rules\" must be an object of house-rule switches such as {\"%(example)s\": …}, "
                            "not %(kind)s.", example="triple_is_bomb", kind=type_name(value)))
        for name, item in value.items():
            if item is None or isinstance(item, (list, dict)):
                raise problem("wrong_type",
                              _("The house rule \"%(key)s\" needs a value such as true, false, a number or a "
                                "word, not %(kind)s. Leave it out to use the preset's value.",
                                key=str(name)[:40], kind=type_name(item)), f"rules.{name}")
        return value


class Preset(Value):
    """A preset name; the game's ``rules_from_dict`` decides whether it exists."""

    def __init__(self, **kwargs):
        super().__init__(metadata={"type": "string", "description": "A house-rules preset of the game "
                                   "(see GET /api/v1/games)."}, **kwargs)

    def parse(self, value, key):
        return value if isinstance(value, str) else _show(value)  # the engine names it unknown


class JSONObject(Value):
    def __init__(self, **kwargs):
        kwargs.setdefault("metadata", {"type": "object"})
        super().__init__(**kwargs)

    def parse(self, value, key):
        if not isinstance(value, dict):
            raise problem("wrong_type", _("\"%(key)s\" must be an object, not %(kind)s.", key=key,
                                          kind=type_name(value)))
        return value


class Names(Value):
    """Player names in seat order (scoring judges each name)."""

    def __init__(self, **kwargs):
        super().__init__(metadata={"type": "array", "items": {"type": "string", "maxLength": PLAYER_NAME_MAX}},
                         **kwargs)

    def missing_message(self, key):
        return _("\"players\" is required: a list of names in seat order.")

    def parse(self, value, key):
        if not isinstance(value, list) or not all(isinstance(p, str) for p in value):
            raise problem("wrong_type",
                          _("\"players\" must be a list of names in seat order, such as [\"Ana\", \"Bo\", \"Cy\"]."))
        return value


class Fact(fields.Raw):
    """A fact of a hand, passed to the engine, which checks it (the settle body)."""


def strict_numbers(facts: Any, game: str) -> None:
    """InputError 400 'wrong_type' for a number written as text (or true/false) in the facts."""
    def walk(node, parts, path):
        if not parts:
            if isinstance(node, (str, bool)):
                raise InputError(400, "wrong_type",
                                 _("\"%(field)s\" must be a number such as 3, not %(value)s.",
                                   field=".".join(path), value=_show(node)), ".".join(path))
            return
        head, rest = parts[0], parts[1:]
        if head == "*":
            items = node.items() if isinstance(node, dict) else enumerate(node) if isinstance(node, list) else ()
            for key, value in items:
                walk(value, rest, path + [str(key)])
        elif isinstance(node, dict) and head in node and node[head] is not None:
            walk(node[head], rest, path + [head])

    # the engine's description of the facts says which are counts (and lists of sizes)
    for pattern in (ENGINES[game].describe_facts().numeric_paths() if game in ENGINES else ()):
        walk(facts, pattern.split("."), [])


# --------------------------------------------------------------------------------------------
# Request schemas


class Request(Schema):
    """Unknown fields are refused with their name."""

    class Meta:
        unknown = RAISE

    error_messages = {"unknown": UNKNOWN}


def game_rules(data: dict, module):
    """preset + rules -> the game's Rules, through the engine's rules_from_dict only."""
    with engine_guard("rules"):
        try:
            return module.rules_from_dict(data.get("rules"), preset=data.get("preset"))
        except EngineError as error:
            raise InputError.from_engine(error) from None


_FEWEST = min(m.PLAYER_RANGE[0] for m in ENGINES.values())
_MOST = max(m.PLAYER_RANGE[1] for m in ENGINES.values())
PLAYERS = Whole(minimum=_FEWEST, maximum=_MOST, metadata={
    "type": "integer", "minimum": _FEWEST, "maximum": _MOST,
    "description": "Players at the table (decides the decks; each game has its own range)."})


class CheckRequest(Request):
    game = Game()
    previous = Cards()
    play = Cards(required=True)
    players = PLAYERS
    previous_as = Text(example="\"5 5 5\"")
    play_as = Text(example="\"5 5 5\"")
    preset = Preset()
    rules = HouseRules()

    @post_load
    def _per_game(self, data, **kwargs):
        module = data["game"]
        if data.get("players") is not None:
            low, high = module.PLAYER_RANGE  # the engine decides how many may play
            try:
                PLAYERS.parse(data["players"], "players", low, high)
            except ValidationError as error:
                raise input_error(ValidationError({"players": error.messages})) from None
        data["rules"] = game_rules(data, module)
        return data


class AnswersRequest(Request):
    """What beats this? The play on the table, and optionally the cards in hand."""

    game = Game()
    previous = Cards(required=True)
    hand = Cards()
    players = PLAYERS
    previous_as = Text(example="\"5 5 5\"")
    preset = Preset()
    rules = HouseRules()

    _per_game = CheckRequest._per_game


# The facts of one hand (the settle body and a table's hand), as every registered game describes
# them (GameEngine.describe_facts): computed when asked, so a game registered later is described
# too. The engine checks them.
_DESCRIBED: dict = {}


def _described() -> tuple:
    """({fact: (JSON schema, text)}, {alias: fact}) over the games registered now."""
    registry = tuple((key, id(module)) for key, module in ENGINES.items())
    if registry not in _DESCRIBED:
        fields: dict = {}
        aliases: dict = {}
        for key in ENGINES:
            description = ENGINES[key].describe_facts()
            aliases.update(description.aliases())
            for head in description.heads():
                inner = [f for f in description if f.head == head]
                text = f"{description.title}: {inner[0].doc or inner[0].label}"
                schema = description.head_schema(head)
                if head in fields:
                    known, said = fields[head]
                    schema = known if known == schema else {"anyOf": [known, schema]}
                    text = f"{said} · {text}"
                fields[head] = (schema, text)
        _DESCRIBED.clear()
        _DESCRIBED[registry] = (fields, aliases)
    return _DESCRIBED[registry]


class _Described:
    """A read-only mapping computed from the registered games each time it is read."""

    def __init__(self, which: int):
        self._which = which

    def _now(self) -> dict:
        return _described()[self._which]

    def __getitem__(self, key):
        return self._now()[key]

    def __contains__(self, key) -> bool:
        return key in self._now()

    def __iter__(self):
        return iter(self._now())

    def __len__(self) -> int:
        return len(self._now())

    def keys(self):
        return self._now().keys()

    def items(self):
        return self._now().items()

    def values(self):
        return self._now().values()

    def get(self, key, default=None):
        return self._now().get(key, default)


FACT_FIELDS = _Described(0)   # fact -> (JSON schema, text), every registered game's
FACT_ALIASES = _Described(1)  # the other spellings the engines read too ("bombsPlayed")


def _fact_fields() -> dict:
    """The settle body's fact fields: every described fact and alias (each passed to the engine as sent)."""
    return {name: Fact(allow_none=True, metadata={**kind, "description": help_text})
            for name, (kind, help_text) in {**FACT_FIELDS, **{alias: (FACT_FIELDS[name][0], f"= {name}")
                                                              for alias, name in FACT_ALIASES.items()}}.items()}


class _SettleBody(Request):
    game = Game()
    stake = Stake(allow_zero=True)
    preset = Preset()
    rules = HouseRules()
    token = fields.Raw(load_default=None, metadata={"deprecated": True,
                                                    "description": "Ignored (never needed here)."})

    @post_load
    def _per_game(self, data, **kwargs):
        module = data.pop("game")
        rules = game_rules(data, module)
        facts = {key: value for key, value in data.items() if key not in ("stake", "preset", "rules", "token")}
        strict_numbers(facts, module.NAME)
        return {"module": module, "rules": rules, "stake": data.get("stake"), "facts": facts}


class _SettleFacts(_SettleBody):
    def _init_fields(self) -> None:
        for name, field in _fact_fields().items():  # also the facts of a game registered after start-up
            self.declared_fields.setdefault(name, field)
        super()._init_fields()


# The settle body: the request fields, then the facts of the hand (each passed to the engine as sent).
SettleRequest = type("SettleRequest", (_SettleFacts,), _fact_fields())


class NewTableRequest(Request):
    game = Game()
    # scoring judges the lengths (one message on every face); the document states the same limits
    name = Text(max_length=10_000, metadata={"type": "string", "maxLength": NAME_MAX})
    players = Names(required=True)
    stake = Stake(allow_zero=True)
    currency = Text(max_length=10_000, metadata={"type": "string", "maxLength": CURRENCY_MAX})
    preset = Preset()
    rules = HouseRules()
    notes = Text(max_length=100_000, metadata={"type": "string", "maxLength": NOTES_MAX})
    first_dealer = Text(max_length=10_000)

    @post_load
    def _table(self, data, **kwargs):
        module = data.pop("game")
        return {"game": module.NAME, "name": data.get("name") or "", "players": data["players"],
                "stake": data.get("stake") if data.get("stake") is not None else "0",
                "currency": data.get("currency") or "", "preset": data.get("preset"),
                "rules": data.get("rules"), "notes": data.get("notes") or "",
                "first_dealer": data.get("first_dealer")}


class TokenField(Value):
    """The edit token in the body: deprecated (send ``Authorization: Bearer <token>``); the view
    compares it, so any value is taken here."""

    def __init__(self):
        super().__init__(metadata={"type": "string", "deprecated": True,
                                   "description": "Deprecated: send the edit token as "
                                                  "Authorization: Bearer <token>."})


class Device(Text):
    def __init__(self):
        super().__init__(max_length=60, metadata={"type": "string", "maxLength": 60,
                                                  "description": "A name for the device, kept in the history."})


FACTS_MISSING = _l("\"facts\" is required: the hand as the settle API takes it, without game and stake.")
REVISION_MISSING = _l("\"revision\" is required: send the hand's revision as you last read it.")


class Facts(JSONObject):
    """A hand's facts at a table: the settle body's facts (unknown keys refused by name)."""

    @property
    def metadata(self) -> dict:
        """The JSON schema, from the games registered when it is read."""
        return {"type": "object", "additionalProperties": False,
                "properties": {name: dict(field.metadata) for name, field in _fact_fields().items()},
                "description": "The hand as POST /settle takes it, without game, stake, preset and rules."}

    @metadata.setter
    def metadata(self, value) -> None:  # marshmallow sets it in __init__: always computed instead
        pass

    def parse(self, value, key):
        value = super().parse(value, key)
        for name in value:
            if name not in FACT_FIELDS and name not in FACT_ALIASES:
                raise problem("unknown_field", unknown_field_message(name), f"{key}.{name}")
        return value


class RecordHandRequest(Request):
    facts = Facts(required=True, what=FACTS_MISSING)
    request_id = Text(max_length=MAX_REQUEST_ID)
    expected_number = Whole(minimum=1, maximum=MAX_HAND_NUMBER)
    device = Device()
    token = TokenField()


class EditHandRequest(Request):
    facts = Facts(required=True, what=FACTS_MISSING)
    revision = Whole(required=True, minimum=0, maximum=MAX_HAND_NUMBER, what=REVISION_MISSING)
    device = Device()
    token = TokenField()


class RevisionRequest(Request):
    body_optional = True  # an empty body is {} (and then "revision" is missing)
    revision = Whole(required=True, minimum=0, maximum=MAX_HAND_NUMBER, what=REVISION_MISSING)
    device = Device()
    token = TokenField()


class UndoRequest(Request):
    body_optional = True  # an empty body is {}
    device = Device()
    token = TokenField()


class Flag(Value):
    """true or false (nothing else: "false" as text is refused, never read as true)."""

    def __init__(self, description: str):
        super().__init__(metadata={"type": "boolean", "description": description})

    def parse(self, value, key):
        if not isinstance(value, bool):
            raise problem("wrong_type", _("\"%(key)s\" must be true or false, not %(value)s.", key=key,
                                          value=_show(value)))
        return value


class UpdateTableRequest(Request):
    """PATCH a table: only the fields sent change. A new stake applies from the next hand on."""

    name = Text(max_length=10_000, metadata={"type": "string", "maxLength": NAME_MAX})
    stake = Stake(allow_zero=True)
    currency = Text(max_length=10_000, metadata={"type": "string", "maxLength": CURRENCY_MAX})
    notes = Text(max_length=100_000, metadata={"type": "string", "maxLength": NOTES_MAX})
    archived = Flag("true archives the table (it takes no hands until restored); false restores it.")
    deleted = Flag("true deletes the table (gone for good after the undo window); false, within that "
                   "window, brings it back.")
    token = TokenField()


class PlayerEntries(Value):
    """The new players in seat order: each a name, or ``{"name": ..., "was": <current name>}`` to
    rename (scoring judges each name and the count)."""

    def __init__(self, **kwargs):
        entry = {"oneOf": [{"type": "string", "maxLength": PLAYER_NAME_MAX},
                           {"type": "object", "required": ["name"], "additionalProperties": False,
                            "properties": {"name": {"type": "string", "maxLength": PLAYER_NAME_MAX},
                                           "was": {"type": "string", "maxLength": PLAYER_NAME_MAX}}}]}
        super().__init__(metadata={"type": "array", "maxItems": 12, "items": entry}, **kwargs)

    def missing_message(self, key):
        return _("\"players\" is required: a list of names in seat order.")

    def parse(self, value, key):
        def ok(entry):
            return isinstance(entry, str) or (
                isinstance(entry, dict) and set(entry) <= {"name", "was"} and isinstance(entry.get("name"), str)
                and isinstance(entry.get("was", ""), str))
        if not isinstance(value, list) or len(value) > 12 or not all(ok(e) for e in value):
            raise problem("wrong_type", _("\"players\" must be a list of names in seat order, each a name or "
                                          "{\"name\": new name, \"was\": current name}."))
        return value


class PlayersRequest(Request):
    """PUT a table's players between hands: rename, join, leave, change seats, a substitute."""

    players = PlayerEntries(required=True)
    device = Device()
    token = TokenField()


class HandsQuery(Schema):
    """``?page=&per_page=`` (other query parameters, such as ``lang``, are left alone)."""

    class Meta:
        unknown = INCLUDE

    page = QueryWhole(minimum=1, maximum=MAX_PAGE)
    per_page = QueryWhole(minimum=1, maximum=MAX_PER_PAGE)


class RequestParser(FlaskParser):
    """webargs, reading bodies with the schemas module's JSON reader (whatever the Content-Type)
    and answering a schema error as our error shape, status 400."""

    DEFAULT_VALIDATION_STATUS = 400

    def load_json(self, req, schema):
        raw = req.get_data(cache=True)
        if getattr(schema, "body_optional", False) and not raw.strip():
            return {}
        return json_object(raw)

    def handle_error(self, error, req, schema, *, error_status_code, error_headers):
        messages = error.messages  # webargs files them under the location: {"json": {...}}
        if isinstance(messages, dict) and len(messages) == 1 and next(iter(messages)) in self.__location_map__:
            error = type(error)(next(iter(messages.values())))
        raise input_error(error)


def load(schema: type[Schema], data: Any) -> dict:
    """Parse ``data`` with ``schema``: the loaded values, or the first problem as an InputError."""
    if not isinstance(data, dict):
        raise InputError(400, "not_an_object",
                         _("The request body must be a JSON object ({…}), not %(kind)s.", kind=type_name(data)))
    try:
        return schema().load(data)
    except ValidationError as error:
        raise input_error(error) from None


# --------------------------------------------------------------------------------------------
# Answer schemas (they document the answers in the OpenAPI document; serializers.py writes them)


class Answer(Schema):
    class Meta:
        unknown = INCLUDE  # answers may gain fields (add, never rename)


def _str(**kw):
    return fields.String(required=True, **kw)


def _nullable_str(**kw):
    return fields.String(required=True, allow_none=True, **kw)


def _time(description: str = "") -> fields.String:
    """A moment: ISO 8601 with its time zone (always UTC, ``+00:00``), or null."""
    text = "ISO 8601 with its time zone (UTC, +00:00)." + (f" {description}" if description else "")
    return fields.String(required=True, allow_none=True, metadata={"format": "date-time", "description": text})


class ErrorDetail(Answer):
    code = _str(metadata={"description": "A stable machine code (see docs/api.md)."})
    message = _str(metadata={"description": "One sentence in the request's language: what and how to fix it."})
    field = _nullable_str(metadata={"description": "The input that is wrong (\"play\", \"losers.B.jokers\"), or null."})


class ErrorAnswer(Answer):
    error = fields.Nested(ErrorDetail, required=True)
    errors = fields.List(fields.Nested(ErrorDetail), metadata={
        "description": "When the rules engine refused the input: every problem it found, each with its own code, "
                       "message and field, the first being `error` (a hand with three mistakes lists three). "
                       "Absent for errors found before the engine (JSON, types, the edit token)."})


class ReadingAnswer(Answer):
    type = _str()
    cards = _str()
    reading = _str()
    rank = _str()
    length = fields.Integer(required=True)
    extra = fields.Dict(required=True)


class CheckAnswer(Answer):
    legal = fields.Boolean(required=True)
    code = _str()
    reason = _str()
    play = fields.Nested(ReadingAnswer, required=True, allow_none=True)
    readings = fields.List(fields.Nested(ReadingAnswer), required=True)
    game = _str()


class AnswerItem(Answer):
    play = _str(metadata={"description": "The cards to play, in card notation (\"8 8\", \"9 9 9 9 JK\")."})
    type = _str(metadata={"description": "The type of the play as the checker reads it (\"pair\", \"bomb\", …)."})
    reason = _str(metadata={"description": "The checker's reason: why this play beats the table."})
    kind = _str(metadata={"description": "The kind of answer: \"follow\", \"two\", \"510k\", \"pure_510k\", "
                                         "\"bomb_<cards>\", …"})
    reading = fields.Nested(ReadingAnswer, required=True)
    declare = _nullable_str(metadata={"description": "The play_as to declare so that the cards are read as "
                                                     "this answer (a joker's other reading); null when "
                                                     "they are read so without one."})


class AnswerReading(Answer):
    reading = fields.Nested(ReadingAnswer, required=True, allow_none=True,
                            metadata={"description": "The reading of the cards on the table answered."})
    pin = _nullable_str(metadata={"description": "The previous_as that pins this reading."})
    answers = fields.List(fields.Nested(AnswerItem), required=True)
    can_beat = fields.Boolean(required=True)


class AnswersAnswer(Answer):
    answers = fields.List(fields.Nested(AnswerItem), required=True,
                          metadata={"description": "The smallest legal answer of each kind, weakest first."})
    can_beat = fields.Boolean(required=True, metadata={"description": "False: nothing (in the hand) can beat it."})
    game = _str()
    previous = fields.Nested(ReadingAnswer, required=True, allow_none=True,
                             metadata={"description": "The reading of the cards on the table answered."})
    readings = fields.List(fields.Nested(AnswerReading), required=True,
                           metadata={"description": "When the cards on the table read several ways and no "
                                                    "previous_as was sent: the answers to each reading, the "
                                                    "first as above. Otherwise empty."})


NUMBER_MAP = {"type": "object", "additionalProperties": {"type": "number"}}


class SettleAnswer(Answer):
    deltas = fields.Dict(keys=fields.String(), values=fields.Float(), required=True,
                         metadata={"description": "Money per player: points × stake."})
    steps = fields.List(fields.String(), required=True)
    points = fields.Dict(keys=fields.String(), values=fields.Float(), required=True)
    next_dealer = _nullable_str()
    winners = fields.List(fields.String(), metadata={"description": "大冶打拱 only."})
    arch = fields.String(allow_none=True, metadata={"description": "大冶打拱 only: half, straight, dry, shout."})
    multiplier = fields.Integer(allow_none=True, metadata={"description": "大冶打拱 only."})


class SeatAnswer(Answer):
    seat = fields.Integer(required=True)
    name = _str()


class StandingAnswer(Answer):
    player = _str()
    seat = fields.Integer(required=True, allow_none=True, metadata={"description": "null: the player left."})
    points = fields.Integer(required=True)
    money = _str(metadata={"description": "An exact decimal string."})


class TableAnswer(Answer):
    id = _str()
    game = _str()
    name = _str()
    stake = _str(metadata={"description": "An exact decimal string; \"0\" keeps points only."})
    currency = _str()
    preset = _nullable_str()
    rules = fields.Dict(required=True)
    rules_version = fields.Integer(required=True)
    notes = _str()
    revision = fields.Integer(required=True)
    created_at = _time()
    players = fields.List(fields.Nested(SeatAnswer), required=True)
    players_left = fields.List(fields.Dict(), metadata={
        "description": "Players who left: [{\"name\", \"former_seat\"}]; they keep their total and hands."})
    standings = fields.List(fields.Nested(StandingAnswer), required=True)
    hand_count = fields.Integer(required=True)
    hands_recorded = fields.Integer(required=True)
    first_dealer = _nullable_str()
    current_dealer = _nullable_str()
    urls = fields.Dict(keys=fields.String(), values=fields.String(allow_none=True), required=True)
    token = fields.String(metadata={"description": "The edit token: only in the answer that opened the table."})
    public_id = _str(metadata={"description": "The same as id (the name POST /import answers with)."})
    edit_token = fields.String(metadata={"description": "The same as token (the name POST /import answers "
                                                        "with): only in the answer that opened the table."})
    archived = fields.Boolean(metadata={"description": "An archived table takes no hands until restored."})
    archived_at = _time()
    deleted_at = _time("Set while a deleted table can still be brought back (PATCH deleted: false).")
    stakes = fields.List(fields.Dict(), metadata={
        "description": "The stakes the hands were played at: [{\"from_hand\", \"stake\"}], one per change."})


class HandAnswer(Answer):
    number = fields.Integer(required=True)
    status = _str(metadata={"enum": ["active", "void"]})
    revision = fields.Integer(required=True)
    facts = fields.Dict(required=True)
    deltas = fields.Dict(keys=fields.String(), values=fields.Integer(), required=True)
    outcome = fields.Dict(required=True)
    next_dealer = _nullable_str()
    request_id = _nullable_str()
    created_at = _time()
    updated_at = _time()
    stake = fields.String(metadata={"description": "Money per point this hand was played at (exact decimal)."})


class HandChangeAnswer(HandAnswer):
    steps = fields.List(fields.String(), required=True)
    table_revision = fields.Integer(required=True)
    standings = fields.List(fields.Nested(StandingAnswer), required=True)
    created = fields.Boolean(metadata={"description": "After POST …/hands: false when the request_id was "
                                                     "already recorded (nothing new was stored)."})
    idempotent = fields.Boolean(metadata={"description": "After POST …/hands: false when the request had "
                                                        "neither request_id nor Idempotency-Key, so a retry "
                                                        "would record the hand again."})


class HandsPageAnswer(Answer):
    hands = fields.List(fields.Nested(HandAnswer), required=True)
    page = fields.Integer(required=True)
    per_page = fields.Integer(required=True)
    total = fields.Integer(required=True)
    pages = fields.Integer(required=True)
    next = _nullable_str()


class UndoneAnswer(Answer):
    kind = _nullable_str(metadata={"description": "create, edit, void, restore; players: a change of players."})
    hand = fields.Integer(required=True, allow_none=True, metadata={"description": "null for a change of players."})


class UndoAnswer(Answer):
    undone = fields.Nested(UndoneAnswer, required=True)
    hand = fields.Nested(HandAnswer, required=True, allow_none=True)
    table = fields.Nested(TableAnswer, required=True)


class ConflictAnswer(ErrorAnswer):
    current = fields.Nested(HandAnswer, allow_none=True)
    submitted = fields.Raw(allow_none=True)


class GamesAnswer(Answer):
    games = fields.Dict(keys=fields.String(), values=fields.Dict(), required=True)


class IndexAnswer(Answer):
    version = fields.Integer(required=True)
    help = _nullable_str()
    endpoints = fields.Dict(keys=fields.String(), values=fields.String(), required=True)


class TransferAnswer(Answer):
    from_ = fields.String(required=True, data_key="from", metadata={"description": "Who pays."})
    to = _str(metadata={"description": "Who is paid."})
    amount = _str(metadata={"description": "An exact decimal string: money, or points when in_money is false."})


class PlayerFiguresAnswer(Answer):
    player = _str()
    seat = fields.Integer(required=True, allow_none=True, metadata={"description": "null: the player left."})
    points = fields.Integer(required=True)
    money = _str()
    hands = fields.Integer(required=True)
    biggest_win = fields.Integer(required=True, allow_none=True)
    biggest_loss = fields.Integer(required=True, allow_none=True)


class SummaryAnswer(Answer):
    id = _str()
    game = _str()
    hands = fields.Integer(required=True, metadata={"description": "Hands that count (not void)."})
    void = fields.Integer(required=True)
    first_at = _time()
    last_at = _time()
    standings = fields.List(fields.Nested(StandingAnswer), required=True)
    players = fields.List(fields.Nested(PlayerFiguresAnswer), required=True,
                          metadata={"description": "By standing, with each figure the game tallies (its engine's "
                                                   "TALLIES, summed over the hands that count). 干瞪眼 adds won, "
                                                   "shut_out, jokers, bombs_held; 大冶打拱 adds places, arch_wins, "
                                                   "shouts_won, shouts_lost, banker, won, xi_bombs."})
    in_money = fields.Boolean(required=True)
    transfers = fields.List(fields.Nested(TransferAnswer), required=True)


class ExportAnswer(Answer):
    format = _str(metadata={"description": "\"card-table-companion/table\""})
    format_version = fields.Integer(required=True)
    checksum = _str()


class ImportAnswer(Answer):
    public_id = _str()
    edit_token = _str(metadata={"description": "The new table's edit token (only here)."})
    id = _str(metadata={"description": "The same as public_id (the name POST /tables answers with)."})
    token = _str(metadata={"description": "The same as edit_token (the name POST /tables answers with)."})
    table = fields.Nested("TableAnswer", required=True)
