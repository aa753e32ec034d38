"""Types shared by both games' rules: translatable text, errors, switches, verdicts, settlements.

Pure Python: nothing here imports Flask or the database.
"""
from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any, Mapping


class Text(str):
    """An English sentence that remembers its template and parameters.

    It *is* a ``str`` (so ``reason`` and ``steps`` are plain sentences), and the web layer can
    translate it with ``gettext(text.template).format(**text.params)``. Templates are marked
    with :func:`N_` so that ``pybabel extract -k N_`` finds them.
    """

    template: str
    params: dict

    def __new__(cls, template: str, params: Mapping[str, Any] | None = None):
        params = dict(params or {})
        obj = super().__new__(cls, template.format(**params) if params else template)
        obj.template = template
        obj.params = params
        return obj

    def __reduce__(self):  # keep pickling/copying working
        return (Text, (self.template, self.params))


_str_new = str.__new__


def new_text(template: str, params: dict) -> Text:
    """``Text(template, params)`` taking over a dict nobody else holds (no copy: the engines' hot path)."""
    obj = _str_new(Text, template.format_map(params) if params else template)
    obj.template = template
    obj.params = params
    return obj


def N_(template: str, **params: Any) -> Text:
    """Mark a sentence for translation and fill in its parameters."""
    return new_text(template, params)  # **params is already a fresh dict


class EngineError(ValueError):
    """Base of every error the engine raises on bad input.

    ``message`` is a :class:`Text`; ``code`` a stable machine code; ``field`` names the input
    that is wrong (``"play"``, ``"losers.B.jokers"``, ``"rules.tripleFollow"`` …) or is None.
    """

    default_code = "invalid"

    def __init__(self, message: Text | str, *, code: str | None = None, field: str | None = None):
        if not isinstance(message, Text):
            message = Text(message)
        super().__init__(str(message))
        self.message = message
        self.code = code or self.default_code
        self.field = field

    def to_dict(self) -> dict:
        return {"code": self.code, "message": str(self.message), "field": self.field}


class RulesError(EngineError):
    default_code = "bad_rules"


class FactsError(EngineError):
    default_code = "bad_facts"


# --------------------------------------------------------------------------------------------
# House-rule switches


def snake(name: str) -> str:
    """``tripleFollow`` -> ``triple_follow``; snake_case stays as it is."""
    return re.sub(r"(?<=[a-z0-9])([A-Z])", r"_\1", name).lower()


@dataclass(frozen=True)
class Switch:
    """One house-rule switch: its key (snake_case), allowed values, and a one-line explanation.

    ``choices`` is a tuple of allowed values; for free numbers ``kind`` is "int" or "number" and
    ``choices`` is empty. ``bool`` switches have choices (False, True).
    """

    key: str
    help: Text
    choices: tuple = ()
    kind: str = "choice"  # "choice" | "bool" | "int" | "number"
    minimum: float | None = None

    def coerce(self, value: Any) -> Any:
        field_name = f"rules.{self.key}"
        if self.kind == "bool":
            if isinstance(value, bool):
                return value
            if isinstance(value, str) and value.lower() in ("true", "on", "yes", "1"):
                return True
            if isinstance(value, str) and value.lower() in ("false", "off", "no", "0"):
                return False
            if isinstance(value, int) and value in (0, 1):
                return bool(value)
            raise RulesError(N_("The house rule '{key}' must be true or false, not '{value}'.",
                                key=self.key, value=value), field=field_name)
        if self.kind in ("int", "number"):
            try:
                if isinstance(value, bool):
                    raise ValueError
                number = int(value) if self.kind == "int" else Decimal(str(value))
                if self.kind == "int" and str(value).strip() not in (str(number),) and not isinstance(value, int):
                    raise ValueError
            except (ValueError, TypeError, ArithmeticError):
                raise RulesError(N_("The house rule '{key}' must be a number, not '{value}'.",
                                    key=self.key, value=value), field=field_name) from None
            if self.kind == "number" and not number.is_finite():
                raise RulesError(N_("The house rule '{key}' must be a number, not '{value}'.",
                                    key=self.key, value=value), field=field_name)
            if self.minimum is not None and number < self.minimum:
                raise RulesError(N_("The house rule '{key}' must be at least {minimum}, not {value}.",
                                    key=self.key, minimum=self.minimum, value=value), field=field_name)
            return number if self.kind == "int" else (int(number) if number == int(number) else float(number))
        if value in self.choices:
            return value
        # accept the same value written in another case or camelCase
        for choice in self.choices:
            if isinstance(choice, str) and isinstance(value, str) and snake(choice) == snake(value):
                return choice
        raise RulesError(N_("The house rule '{key}' cannot be '{value}': choose one of {choices}.",
                            key=self.key, value=value,
                            choices=", ".join(str(c) for c in self.choices)), field=field_name)


def build_rules(cls, switches: Mapping[str, Switch], data: Mapping[str, Any] | None, base=None,
                aliases: Mapping[str, str] | None = None):
    """Build a frozen Rules dataclass from a dict of switches (camelCase or snake_case keys).

    ``aliases`` maps other spellings (e.g. the rules file's ``maxJokersIn510K``) to field names.

    Unknown keys and values raise :class:`RulesError` naming the key and the allowed values.
    """
    if data is None:
        return base if base is not None else cls()
    if not isinstance(data, Mapping):
        raise RulesError(N_("The house rules must be a set of switch: value pairs."), field="rules")
    values = {}
    for raw_key, value in data.items():
        key = (aliases or {}).get(str(raw_key)) or snake(str(raw_key))
        if key not in switches:
            raise RulesError(N_("Unknown house rule '{key}'. Known rules: {known}.",
                                key=raw_key, known=", ".join(sorted(switches))),
                             code="unknown_rule", field=f"rules.{raw_key}")
        values[key] = switches[key].coerce(value)
    return dataclasses.replace(base if base is not None else cls(), **values)


def rules_to_dict(rules) -> dict:
    """The switches of a Rules value as a plain JSON-able dict (snake_case keys)."""
    return {f.name: getattr(rules, f.name) for f in dataclasses.fields(rules)}


# --------------------------------------------------------------------------------------------
# Results


@dataclass(frozen=True)
class Reading:
    """One way to read a set of cards as a combination.

    ``rank``: the rank of a same-rank group, or the LOW rank of a sequence; ``length``: number of
    cards; ``cards``: the physical cards; ``values``: the rank each card stands for (jokers
    resolved), in the same order as a sorted reading; ``extra``: game-specific facts
    (e.g. ``suit`` and ``pure`` of a 510K, ``soft`` of a bomb).
    """

    type: str
    rank: int
    length: int
    cards: tuple
    values: tuple = ()
    extra: tuple = ()  # tuple of (key, value) pairs, hashable

    def get(self, key: str, default: Any = None) -> Any:
        return dict(self.extra).get(key, default)


@dataclass(frozen=True)
class Verdict:
    legal: bool
    code: str
    reason: Text
    play: Reading | None = None
    readings: tuple = ()

    # An engine may leave ``reason`` out of a new Verdict's ``__dict__`` and put ``_reason`` there
    # instead: ``(function, *arguments)``, called on first read to write the sentence (most
    # verdicts are never read as text). The field behaves as an ordinary one everywhere.
    def __getattr__(self, name: str):
        if name == "reason":
            d = self.__dict__
            lazy = d.get("_reason")
            if lazy is not None:
                value = d.get("reason")
                if value is None:
                    value = d["reason"] = lazy[0](*lazy[1:])
                return value
        raise AttributeError(f"'{type(self).__name__}' object has no attribute '{name}'")

    def __reduce__(self):  # pickles and copies carry the sentence itself
        return (type(self), (self.legal, self.code, self.reason, self.play, self.readings))


_new = object.__new__


def new_reading(type_: str, rank: int, length: int, cards: tuple, values: tuple = (),
                extra: tuple = ()) -> Reading:
    """``Reading(...)`` without the frozen-dataclass ``__init__``: the engines' hot path (same value)."""
    obj = _new(Reading)
    d = obj.__dict__
    d["type"] = type_
    d["rank"] = rank
    d["length"] = length
    d["cards"] = cards
    d["values"] = values
    d["extra"] = extra
    return obj


def new_verdict(legal: bool, code: str, reason, play: Reading | None = None, readings: tuple = ()) -> Verdict:
    """``Verdict(...)`` without the frozen-dataclass ``__init__``: the engines' hot path (same value)."""
    obj = _new(Verdict)
    d = obj.__dict__
    d["legal"] = legal
    d["code"] = code
    d["reason"] = reason
    d["play"] = play
    d["readings"] = readings
    return obj


@dataclass
class Settlement:
    """``deltas``: name -> points × stake (ints when the stake is whole); ``points``: name -> integer
    points before the stake; ``steps``: plain sentences. 大冶打拱 fills ``winners``, ``arch`` and
    ``multiplier``."""

    deltas: dict
    steps: list
    points: dict = field(default_factory=dict)
    winners: list | None = None
    arch: str | None = None
    multiplier: int | None = None
    next_dealer: str | None = None


def lazy_verdict(legal: bool, code: str, lazy: tuple, play: Reading | None = None, readings: tuple = ()) -> Verdict:
    """A Verdict whose reason is ``lazy[0](*lazy[1:])``, written when first read (see :class:`Verdict`)."""
    obj = _new(Verdict)
    d = obj.__dict__
    d["legal"] = legal
    d["code"] = code
    d["_reason"] = lazy
    d["play"] = play
    d["readings"] = readings
    return obj


class LazySettlement(Settlement):
    """A :class:`Settlement` whose ``steps`` are written on first read (most are never read).

    An engine puts ``_spec = (function, *arguments)`` in the instance instead of ``steps``; the
    first read of ``steps`` calls it and keeps the list, which from then on is an ordinary
    attribute. Equality with any Settlement compares the fields; ``repr``, copies and pickles are
    those of a plain Settlement."""

    def __getattr__(self, name):
        if name == "steps":
            d = self.__dict__
            spec = d.pop("_spec", None)
            if spec is not None:
                steps = d["steps"] = spec[0](*spec[1:])
                return steps
        raise AttributeError(f"'Settlement' object has no attribute '{name}'")

    def _fields(self) -> tuple:
        return (self.deltas, self.steps, self.points, self.winners, self.arch, self.multiplier,
                self.next_dealer)

    def __eq__(self, other):
        if isinstance(other, Settlement):
            return self._fields() == (other.deltas, other.steps, other.points, other.winners, other.arch,
                                      other.multiplier, other.next_dealer)
        return NotImplemented

    __hash__ = None

    def __repr__(self) -> str:
        return repr(Settlement(*self._fields()))

    def __reduce__(self):
        return (Settlement, self._fields())


def apply_stake(points: Mapping[str, int], stake) -> dict:
    """Multiply integer points by the stake; keep ints when the result is whole."""
    if isinstance(stake, bool) or not isinstance(stake, (int, float, Decimal)):
        try:
            stake = Decimal(str(stake))
        except ArithmeticError:
            raise FactsError(N_("The stake must be a number, not '{value}'.", value=stake), field="stake") from None
    if stake == 1:
        return {name: int(p) for name, p in points.items()}
    out = {}
    for name, p in points.items():
        value = Decimal(str(stake)) * p
        out[name] = int(value) if value == value.to_integral_value() else float(value)
    return out
