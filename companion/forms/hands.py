"""The hand form, generated from the engine's description of a game's facts (Flask-WTF, CSRF on).

One form for every game: its fields come from :meth:`GameEngine.describe_facts` (one row per
player, fields named by seat, never by name, since names are any Unicode); :meth:`HandForm.facts`
turns the posted form into the engine's facts following the description's paths,
:func:`facts_to_data` turns stored facts back into form data, and :meth:`HandForm.apply_error`
puts an engine error next to the field its path names. No game is named here.
"""
from __future__ import annotations

import re
from functools import lru_cache
from typing import Any

from flask_babel import LazyString, lazy_gettext as _l
from flask_wtf import FlaskForm
from wtforms import BooleanField, HiddenField, IntegerField, RadioField, SelectChoice, SelectField, StringField
from wtforms.validators import Optional as OptionalValidator

from ..engine import ENGINES, described
from ..engine.public import EngineError
from ..i18n import tr
from ..db.models import Table
from ..scoring import DEVICE_MAX, table_rules

__all__ = ["FormError", "HandForm", "hand_form", "facts_to_data"]


def _ascii_int(text) -> bool:
    """True for a short run of ASCII digits: '²'.isdigit() is True, yet int('²') fails, and int()
    refuses thousands of digits."""
    return isinstance(text, str) and 0 < len(text) <= 6 and text.isascii() and text.isdigit()


def _c(pairs) -> list:
    """(value, label) pairs as WTForms choices."""
    return [SelectChoice(value, label) for value, label in pairs]


class FormError(Exception):
    """Input a form cannot even turn into facts (empty required number, unreadable list)."""


# --------------------------------------------------------------------------------------------
# Recording a hand: one form for every game, generated from the engine's description of the facts


class GroupErrors:
    """Errors about a whole fact shown by its box (the finishing order, the captured points)."""

    def __init__(self):
        self.errors: list = []


def _t(text) -> LazyString | None:
    """An engine sentence (a label, a help line), translated when the page is drawn."""
    return None if text is None else LazyString(tr, text)


class HandForm(FlaskForm):
    """The record/edit form of a hand: its fields come from the game's :class:`FactsDescription`
    (``description``); ``facts()`` follows the description's paths, ``apply_error()`` puts an
    engine error next to the field its path names."""

    request_id = HiddenField()
    expected_number = HiddenField()
    revision = HiddenField()

    table: Table
    names: list[str]
    description: described.FactsDescription

    def group(self, name: str) -> GroupErrors:
        groups = self.__dict__.setdefault("_groups", {})
        return groups.setdefault(name, GroupErrors())

    def group_errors(self) -> list:
        return [e for g in self.__dict__.get("_groups", {}).values() for e in g.errors]

    def seat_field(self, prefix: str, seat: int):
        return self._fields.get(f"{prefix}_{seat}")

    def fact(self, key: str):
        """The description of the fact at ``key`` when these rules need it, else None."""
        fact = self.description.get(key)
        return fact if fact is not None and fact.needed else None

    def behaviour(self, fact) -> dict:
        """The ``data-*`` attributes that tell app.js what a fact's box does, from the description
        (no game and no rule number in the script): a fixed total whose last share it fills in
        (``data-total``: the sum; ``-of``: the shares' field prefix; ``-with``: other fields in the
        sum; ``-if``: ``field:n`` conditions, n values given at least, 0: empty), rows a player's
        choice hides (``data-skip-by``) and an option only the player a field names may tick
        (``data-only-for``)."""
        if fact is None:
            return {}
        out: dict = {}
        if fact.total is not None:
            out = {"data-total": fact.total, "data-total-of": fact.field_name,
                   "data-total-with": " ".join(self._field_name(k) for k in fact.total_with),
                   "data-total-if": " ".join(f"{self._field_name(k)}:{n}" for k, n in fact.total_if)}
        for attr, key in (("data-skip-by", fact.skip), ("data-only-for", fact.only_for),
                          ("data-not-same-as", fact.not_same_as)):
            if key:
                out[attr] = self._field_name(key)
        if fact.clears:
            out["data-clears"] = " ".join(self._field_name(k) for k in fact.clears)
        return out

    def _field_name(self, key: str) -> str:
        fact = self.description.get(key)
        return fact.field_name if fact is not None else key

    def sections(self) -> list:
        """The needed facts in order, each player's facts of a group together (the form's boxes)."""
        return self.description.sections(needed_only=True)

    def apply_error(self, error: EngineError, message: str, translate=None) -> None:
        """Put the engine's message next to the field it names (else at the top of the form); with
        ``translate`` (an engine sentence -> the text shown), every problem the error lists
        (``error.errors``), each next to its own field."""
        entries = error.errors if translate is not None else ((error.field, error.code, error.message),)
        for i, (path, _code, text) in enumerate(entries):
            shown = message if i == 0 else translate(text)
            field = self._field_for(path or "")
            if field is not None:
                field.errors = list(field.errors or []) + [shown]
            else:
                self.form_errors.append(shown)

    def _field_for(self, path: str):
        """``losers.<name>.<fact>`` / ``captured.<name>`` -> that seat's field (names may contain
        dots); ``order.<i>`` -> that place; a grouped fact -> its box; a fact -> its field."""
        needed = self.description.needed()
        for head in dict.fromkeys(f.head for f in needed if f.per_player):
            inner = [f for f in needed if f.head == head and f.per_player]
            for seat, name in sorted(enumerate(self.names), key=lambda x: -len(x[1])):
                start = f"{head}.{name}"
                if path == start or path.startswith(start + "."):
                    rest = path[len(start) + 1:].split(".")[0]
                    fact = next((f for f in inner if rest and rest in (f.part, *f.aliases)), inner[0])
                    return self.seat_field(fact.field_name, seat)
        parts = path.split(".")
        fact = next((f for f in needed if f.head == parts[0] and f.kind != described.PLAYERS), None)
        if fact is None:
            return None
        if fact.kind == described.ORDERED_PLAYERS:
            if len(parts) > 1 and _ascii_int(parts[1]):
                return self._fields.get(f"{fact.field_name}_{min(int(parts[1]), len(fact.places) - 1) + 1}")
            return self.group(fact.head)
        if fact.per_player:
            return self.group(fact.head) if fact.grouped else None
        return self._fields.get(fact.field_name)

    def facts(self) -> dict:
        """The engine's facts, following the description's paths; FormError when a field cannot
        even be read (its error is already set)."""
        facts: dict[str, Any] = {"players": list(self.names)}
        failed = False
        for fact in self.description.needed():
            try:
                _read(self, fact, facts)
            except FormError:
                failed = True
        if failed:
            self._engine_errors_too(facts)
            raise FormError()
        return facts

    def _engine_errors_too(self, facts: dict) -> None:
        """Every error of the hand at once (issue 33 item 6): what the form could read is checked by
        the engine too, and each refusal goes beside its field unless that field already has its
        error (no winner chosen: every player's cards are still checked)."""
        check = getattr(self, "check_facts", None)
        boxes = list(self._fields.values()) + list(self.__dict__.get("_groups", {}).values())
        told = {id(box) for box in boxes if box.errors}  # a field or box that has its error keeps it alone
        try:
            if check is not None:
                check(facts)
        except EngineError as error:
            for path, _code, text in error.errors:
                field = self._field_for(path or "")
                if field is None:
                    self.form_errors.append(tr(text))
                elif id(field) not in told:
                    field.errors = list(field.errors or []) + [tr(text)]


def _number(field, fact) -> int | None:
    if field.data is None:
        if field.raw_data and field.raw_data[0].strip():
            raise FormError()  # IntegerField already recorded "not a valid integer"
        if fact.missing is not None:
            field.errors = list(field.errors or []) + [_t(fact.missing)]
            raise FormError()
        return fact.default
    return int(field.data)


_SIZES = re.compile(r"^[\s,;+/0-9]*$")


def _sizes(field, fact=None) -> list[int]:
    text = (field.data or "").strip()
    if not _SIZES.match(text):
        field.errors = list(field.errors or []) + [
            _l("Write the bomb sizes as numbers separated by spaces, e.g. 4 5.")]
        raise FormError()
    numbers = re.findall(r"[0-9]+", text)
    if any(len(n) > 3 for n in numbers):
        field.errors = list(field.errors or []) + [_l("A bomb has at most a few dozen cards: check the sizes.")]
        raise FormError()
    return [int(n) for n in numbers]


def _player(form, field, fact):
    """The name a player field holds ('' or None when none is chosen)."""
    value = field.data
    if fact.by_seat:
        value = form.names[int(value)] if _ascii_int(value) and int(value) < len(form.names) else None
    if value not in form.names and fact.missing is not None:
        field.errors = list(field.errors or []) + [_t(fact.missing)]
        raise FormError()
    return value


def _read(form, fact, facts: dict) -> None:
    """Put one described fact, read from its fields, into ``facts``."""
    kind, name = fact.kind, fact.field_name
    if kind == described.PLAYERS:
        return
    if fact.per_player:
        return _read_per_player(form, fact, facts)
    if kind == described.ORDERED_PLAYERS:
        return _read_order(form, fact, facts)
    field = form._fields[name]
    if kind == described.PLAYER:
        value = _player(form, field, fact)
        facts[fact.key] = value if value is not None else ""
        return
    if kind == described.OPTIONAL_PLAYER:
        value = _player(form, field, fact)
    elif kind == described.COUNT:
        value = _number(field, fact)
    elif kind == described.SIZES:
        value = _sizes(field)
    elif kind == described.FLAG:
        facts[fact.key] = bool(field.data)
        return
    elif kind == described.CHOICE:
        value = _choice(field, fact)
    else:  # a card, as text
        value = (field.data or "").strip() or None
    if value or value == 0 or value == [] or fact.keep_empty:
        facts[fact.key] = value if value != "" else None


def _choice(field, fact):
    """The value of a choice (the form sends its text: "3" is the value 3); None when none is chosen."""
    value = next((v for v, _label in fact.values if str(v) == (field.data or "")), None)
    if value is None and fact.missing is not None:
        field.errors = list(field.errors or []) + [_t(fact.missing)]
        raise FormError()
    return value


def _read_per_player(form, fact, facts: dict) -> None:
    failed = False
    values = {}
    for seat, player in enumerate(form.names):
        if fact.skip and facts.get(fact.skip) == player:
            continue
        field = form.seat_field(fact.field_name, seat)
        if fact.skip and facts.get(fact.skip) not in form.names and not (field.raw_data and str(
                field.raw_data[0]).strip()):
            continue  # nobody chosen as the winner yet: a player left empty may be the winner
        try:
            if fact.kind == described.PER_PLAYER_COUNT:
                value = _number(field, fact)
            elif fact.kind == described.PER_PLAYER_SIZES:
                value = _sizes(field)
            else:
                value = bool(field.data) != fact.invert
        except FormError:
            failed = True
            continue
        if fact.part is not None:
            facts.setdefault(fact.head, {}).setdefault(player, {})[fact.part] = value
        elif value or not fact.omit_empty:
            values[player] = value
    if fact.part is None and (values or not fact.omit_empty):
        facts[fact.head] = values
    if failed:
        raise FormError()


def _read_order(form, fact, facts: dict) -> None:
    order, gap, failed = [], False, False
    for i in range(1, len(fact.places) + 1):
        value = form._fields[f"{fact.field_name}_{i}"].data
        if value:
            if gap:
                form.group(fact.head).errors.append(_l("Fill the places in order, from the first player out."))
                failed = True
            order.append(value)
        else:
            gap = True
    if not order and fact.missing is not None:
        first = form._fields[f"{fact.field_name}_1"]
        first.errors = list(first.errors or []) + [_t(fact.missing)]
        failed = True
    facts[fact.key] = order
    if failed:
        raise FormError()


_NUMBER_KW = {"inputmode": "numeric", "min": 0}


def _fields_of(fact, seats: int) -> dict:
    """The WTForms fields of one described fact (per player: one per seat; choices come later)."""
    label, kind = _t(fact.label), fact.kind
    if kind == described.CHOICE:
        pairs = ([] if fact.missing is not None and fact.widget == "pills" else [("", "—")]) + [
            (str(value), _t(words)) for value, words in fact.values]
        if fact.widget == "pills":
            return {fact.field_name: RadioField(label, choices=_c(pairs), validators=[OptionalValidator()],
                                                validate_choice=False, default="")}
        return {fact.field_name: SelectField(label, choices=_c(pairs), validate_choice=False, default="")}
    if kind in (described.PLAYER, described.OPTIONAL_PLAYER):
        if fact.widget == "pills":
            return {fact.field_name: RadioField(label, choices=[], validators=[OptionalValidator()],
                                                validate_choice=False, default="")}
        return {fact.field_name: SelectField(label, choices=[], validate_choice=False, default="")}
    if kind == described.ORDERED_PLAYERS:
        return {f"{fact.field_name}_{i}": SelectField(_t(place), choices=[], validate_choice=False, default="")
                for i, place in enumerate(fact.places, start=1)}
    if kind in (described.COUNT, described.PER_PLAYER_COUNT):
        kw = {**_NUMBER_KW, "step": fact.step} if fact.step != 1 else _NUMBER_KW
        make = lambda: IntegerField(label, default=fact.default, validators=[OptionalValidator()],  # noqa: E731
                                    render_kw=dict(kw))
    elif kind in (described.SIZES, described.PER_PLAYER_SIZES, described.CARD):
        make = lambda: StringField(label, render_kw={"autocomplete": "off",  # noqa: E731
                                                     "maxlength": fact.max_length or DEVICE_MAX})
    else:
        make = lambda: BooleanField(label)  # noqa: E731
    if fact.per_player:
        return {f"{fact.field_name}_{seat}": make() for seat in range(seats)}
    return {fact.field_name: make()}


@lru_cache(maxsize=256)
def _hand_form_class(description: described.FactsDescription, seats: int) -> type:
    """The form class of a description and a number of seats (made once, then reused)."""
    attrs: dict[str, Any] = {"description": description}
    for fact in description.needed():
        if fact.kind != described.PLAYERS:
            attrs.update(_fields_of(fact, seats))
    return type(f"HandForm_{description.game}_{seats}", (HandForm,), attrs)


def _choices(fact, names: list) -> list:
    pairs = [(str(i) if fact.by_seat else n, n) for i, n in enumerate(names)]
    if fact.kind == described.OPTIONAL_PLAYER:
        empty = ("", _t(fact.none_label) if fact.none_label else "—")
        pairs = pairs + [empty] if fact.widget == "pills" else [empty] + pairs
    elif fact.kind == described.ORDERED_PLAYERS:
        pairs = [("", "—")] + pairs
    return _c(pairs)


def hand_form(table: Table, module, rules, formdata=None, data: dict | None = None,
              names: list[str] | None = None) -> HandForm:
    """The record/edit form of this table: its players (``names``: a stored hand's own players,
    by default those seated now), and only the facts its switches need."""
    names = table.player_names if names is None else list(names)
    description = module.describe_facts(rules, len(names))
    cls = _hand_form_class(description, len(names))
    form = cls(formdata=formdata, data=data) if formdata is not None else cls(data=data)
    for fact in description.needed():
        if fact.kind in (described.PLAYER, described.OPTIONAL_PLAYER):
            form._fields[fact.field_name].choices = _choices(fact, names)
        elif fact.kind == described.ORDERED_PLAYERS:
            for i in range(1, len(fact.places) + 1):
                form._fields[f"{fact.field_name}_{i}"].choices = _choices(fact, names)
    form.table = table
    form.names = names
    form.check_facts = lambda facts: module.validate_facts(facts, rules)
    return form


def facts_to_data(table: Table, facts: dict, rules=None) -> dict:
    """Form data that shows these facts (for editing a stored hand, with the hand's own players)."""
    names = facts.get("players") if isinstance(facts.get("players"), list) else table.player_names
    description = ENGINES[table.game].describe_facts(table_rules(table) if rules is None else rules, len(names))
    data: dict[str, Any] = {}
    for fact in description:
        _show(fact, facts, names, data)
    return data


def _given(entry, key: str, aliases=()):
    """``entry[key]`` or under one of its other spellings (stored facts keep the spelling sent)."""
    if not isinstance(entry, dict):
        return None
    return next((entry[k] for k in (key, *aliases) if entry.get(k) is not None), None)


def _as_field(fact, value, names):
    """A fact's value as its field shows it."""
    if fact.kind in (described.SIZES, described.PER_PLAYER_SIZES):
        return " ".join(str(s) for s in value or [])
    if fact.kind in (described.COUNT, described.PER_PLAYER_COUNT):
        return fact.default if value is None else value
    if fact.kind == described.PER_PLAYER_FLAG:
        return (value is False) if fact.invert else bool(value)
    if fact.kind == described.FLAG:
        return bool(value)
    if fact.kind == described.CHOICE:
        return "" if value is None else str(value)
    if fact.by_seat:
        return str(names.index(value)) if value in names else None
    return value or ""


def _show(fact, facts: dict, names: list, data: dict) -> None:
    if fact.kind == described.PLAYERS:
        return
    if fact.kind == described.ORDERED_PLAYERS:
        for i, name in enumerate((facts.get(fact.key) or [])[:len(fact.places)], start=1):
            data[f"{fact.field_name}_{i}"] = name
        return
    if not fact.per_player:
        data[fact.field_name] = _as_field(fact, _given(facts, fact.key, fact.aliases), names)
        return
    entries = facts.get(fact.head)
    for name, entry in (entries.items() if isinstance(entries, dict) else ()):
        if name in names:
            value = _given(entry, fact.part, fact.aliases) if fact.part else entry
            data[f"{fact.field_name}_{names.index(name)}"] = _as_field(fact, value, names)
