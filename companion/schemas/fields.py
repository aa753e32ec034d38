"""Fields: one parser per kind of value (the game, card text, whole numbers, the stake, house
rules, names, ...), and the base of every request schema."""
from __future__ import annotations

from typing import Any

from flask_babel import gettext as _
from marshmallow import RAISE, Schema, fields
from marshmallow.utils import missing

from ..engine import ENGINES
from ..engine.errors import EngineError
from ..engine.money import parse_stake
from ..i18n import tr
from ..scoring import PLAYER_NAME_MAX

from .errors import (MAX_HAND_NUMBER, MAX_TEXT, UNKNOWN, InputError, engine_guard, input_error,  # noqa: F401
                     problem, show, type_name)


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
                                            value=show(value), choices=self.choices()))
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


# The document's card notation: the plainest spelling the engine's parser reads (a rank, then an
# optional suit; jokers SJ, BJ, JK; cards separated by spaces). The parser reads more (lower case,
# no separators, 小王 / 大王), so a request the document calls valid is never refused for its spelling.
CARD = "(?:10|[3-9TJQKA2])[shcd\u2660\u2665\u2663\u2666]?|SJ|BJ|JK"
CARDS_PATTERN = f"^ *(?:{CARD})(?: +(?:{CARD}))* *$"


class Cards(Text):
    """Card notation: text, or a list of card texts (joined with spaces)."""

    def __init__(self, **kwargs):
        super().__init__(example="\"7 7\" or \"5h 10h Kh\"", metadata={"oneOf": [
            {"type": "string", "maxLength": MAX_TEXT, "pattern": CARDS_PATTERN},
            {"type": "array", "items": {"type": "string", "pattern": f"^(?:{CARD})$"}, "minItems": 1}],
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
                            key=key, minimum=low, maximum=high, value=show(value)))
        if not low <= value <= high:
            raise problem("out_of_range", _("\"%(key)s\" must be from %(minimum)s to %(maximum)s, not %(value)s.",
                                            key=key, minimum=low, maximum=high, value=show(value)))
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
                      {"type": "string", "maxLength": 40, "pattern": "^[0-9]{1,6}(?:[.,][0-9]{1,4})?$"}],
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
        return value if isinstance(value, str) else show(value)  # the engine names it unknown


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




class Flag(Value):
    """true or false (nothing else: "false" as text is refused, never read as true)."""

    def __init__(self, description: str):
        super().__init__(metadata={"type": "boolean", "description": description})

    def parse(self, value, key):
        if not isinstance(value, bool):
            raise problem("wrong_type", _("\"%(key)s\" must be true or false, not %(value)s.", key=key,
                                          value=show(value)))
        return value



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
