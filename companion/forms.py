"""Web forms (Flask-WTF, CSRF on). Which facts a hand form asks for comes from the engine.

The hand forms are built per table: one row per player (fields named by seat, never by name,
since names are any Unicode). ``facts()`` turns the posted form into the engine's facts;
``apply_error()`` puts an engine error next to the field it names.
"""
from __future__ import annotations

import re
from typing import Any

from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from wtforms import (BooleanField, SelectChoice, HiddenField, IntegerField, RadioField, SelectField, StringField,
                     TextAreaField)
from wtforms.fields import Field
from wtforms.validators import Optional as OptionalValidator

from .engine import ENGINES
from .guard import check_json_document, loads
from .engine.common import EngineError
from .models import Table
from .words import preset_label, switch_label, value_label
from .scoring import CURRENCY_MAX, DEVICE_MAX, NAME_MAX, NOTES_MAX, PLAYER_NAME_MAX

MAX_SEATS = max(module.PLAYER_RANGE[1] for module in ENGINES.values())  # most seats of any game


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
# Opening a table


class NewTableForm(FlaskForm):
    # No WTForms validators on values the core parses: scoring (and the engine) judge them, so the
    # page, the JSON API and the CLI give the same code and message.
    name = StringField(_l("Name of the table"),
                       render_kw={"autocomplete": "off", "maxlength": NAME_MAX, "required": True})
    stake = StringField(_l("Money per point"), default="1",
                        render_kw={"inputmode": "decimal", "autocomplete": "off", "maxlength": 20})
    currency = StringField(_l("Currency (optional)"), render_kw={"autocomplete": "off", "maxlength": CURRENCY_MAX,
                                                                 "placeholder": "¥ € Rp ₩ $"})
    # validate_choice=False: the engine's rules_from_dict judges the preset (one code and message)
    preset = SelectField(_l("House rules preset"), choices=[], default="", validate_choice=False)
    first_dealer = SelectField(_l("Who deals first (optional)"), choices=[], default="")
    notes = TextAreaField(_l("Notes (optional)"), render_kw={"rows": 2, "maxlength": NOTES_MAX})

    def player_fields(self):
        return [getattr(self, f"player_{i}") for i in range(1, MAX_SEATS + 1) if hasattr(self, f"player_{i}")]

    def rule_fields(self):
        return [(key, getattr(self, f"rule_{key}"), switch) for key, switch in self._switches.items()]

    def players(self) -> list[str]:
        return [f.data.strip() for f in self.player_fields() if f.data and f.data.strip()]

    def rules(self) -> dict:
        out = {}
        for key, field, _switch in self.rule_fields():
            value = (field.data or "").strip() if isinstance(field.data, str) else field.data
            if value in ("", None):
                continue
            out[key] = self._choice_values.get(key, {}).get(value, value)
        return out

    def first_dealer_name(self, players: list[str]) -> str | None:
        value = self.first_dealer.data
        if not value:
            return None
        all_names = [(f.data or "").strip() for f in self.player_fields()]
        try:
            name = all_names[int(value) - 1]
        except (ValueError, IndexError):
            return None
        return name or None


def new_table_form(game: str, module, formdata=None) -> NewTableForm:
    """The open-a-table form for one game: its player rows, presets and every switch."""
    seats = module.PLAYER_RANGE[1]  # the engine decides how many may play
    attrs: dict[str, Any] = {"_switches": dict(module.SWITCHES), "_choice_values": {}}
    for i in range(1, seats + 1):
        attrs[f"player_{i}"] = StringField(_l("Player %(n)s", n=i),
                                           render_kw={"autocomplete": "off", "maxlength": PLAYER_NAME_MAX})
    for key, switch in module.SWITCHES.items():
        if switch.kind in ("int", "number"):
            attrs[f"rule_{key}"] = StringField(switch_label(key), render_kw={"inputmode": "decimal" if switch.kind == "number" else "numeric",
                                                               "autocomplete": "off", "maxlength": 12})
        else:
            choices = [("", _l("(as the preset says)"))]
            values = {}
            for choice in switch.choices:
                label = str(choice).lower() if isinstance(choice, bool) else str(choice)
                choices.append((label, value_label(key, choice)))
                values[label] = choice
            attrs["_choice_values"] = {**attrs["_choice_values"], key: values}
            attrs[f"rule_{key}"] = SelectField(switch_label(key), choices=_c(choices), default="")
    cls = type(f"NewTableForm_{game}", (NewTableForm,), attrs)
    form = cls(formdata=formdata) if formdata is not None else cls()
    # "" (no preset) is the standard rules: the preset that only repeats them is not offered twice
    form.preset.choices = _c([("", _l("Standard rules"))] + [(p, preset_label(p)) for p in module.PRESETS
                                                             if p != "source"])
    form.first_dealer.choices = _c([("", _l("Decide at the table"))] + [
        (str(i), _l("Player %(n)s", n=i)) for i in range(1, seats + 1)])
    return form


# --------------------------------------------------------------------------------------------
# Recording a hand


class GroupErrors:
    """Errors about a group of fields (the finishing order, the captured points), shown by the group."""

    def __init__(self):
        self.errors: list = []


class HandForm(FlaskForm):
    request_id = HiddenField()
    expected_number = HiddenField()
    revision = HiddenField()

    table: Table
    names: list[str]

    def group(self, name: str) -> GroupErrors:
        groups = self.__dict__.setdefault("_groups", {})
        return groups.setdefault(name, GroupErrors())

    def seat_field(self, prefix: str, seat: int):
        return self._fields.get(f"{prefix}_{seat}")

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
        """``losers.<name>.<fact>`` / ``captured.<name>`` -> that seat's field (names may contain dots)."""
        for group in ("losers", "captured"):
            for seat, name in sorted(enumerate(self.names), key=lambda x: -len(x[1])):
                head = f"{group}.{name}"
                if path == head or path.startswith(head + "."):
                    rest = path[len(head) + 1:].split(".")[0] or None
                    prefix = self._nested_prefix(group, rest)
                    return self.seat_field(prefix, seat) if prefix else None
        return self._top_field(path.split("."))

    def _nested_prefix(self, group, key):  # overridden per game
        return None

    def _top_field(self, parts):
        if not parts[0] or parts[0] in ("request_id", "revision", "expected_number", "csrf_token"):
            return None
        field = self._fields.get(parts[0])
        return field if isinstance(field, Field) else None


def _number(field, label_required: bool = False, default: int | None = None) -> int | None:
    if field.data is None:
        if field.raw_data and field.raw_data[0].strip():
            raise FormError()  # IntegerField already recorded "not a valid integer"
        if label_required:
            field.errors = list(field.errors or []) + [_l("Enter a number.")]
            raise FormError()
        return default
    return int(field.data)


_SIZES = re.compile(r"^[\s,;+/0-9]*$")


def _sizes(field) -> list[int]:
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


class GandengyanHandForm(HandForm):
    def _nested_prefix(self, group, key):
        if group != "losers":
            return None
        return {None: "cards", "cards": "cards", "jokers": "jokers", "twos": "twos",
                "held_bombs": "held_bombs", "played": "never_played",
                "dealer_only_opening": "only_opening"}.get(key, "cards")

    def _top_field(self, parts):
        if parts[0] == "bombs_played":
            return self._fields.get("bombs_played")
        return super()._top_field(parts)

    def facts(self) -> dict:
        """The engine's facts, or FormError (the field errors are already set)."""
        failed = False
        winner_seat = int(self.winner.data) if _ascii_int(self.winner.data) else None
        if winner_seat is None or winner_seat >= len(self.names):
            self.winner.errors = list(self.winner.errors or []) + [_l("Choose who went out first.")]
            raise FormError()
        facts: dict[str, Any] = {"players": list(self.names), "winner": self.names[winner_seat]}
        if self.dealer.data:
            facts["dealer"] = self.dealer.data
        losers = {}
        for seat, name in enumerate(self.names):
            if seat == winner_seat:
                continue
            loser: dict[str, Any] = {}
            try:
                loser["cards"] = _number(self.seat_field("cards", seat), label_required=True)
                loser["jokers"] = _number(self.seat_field("jokers", seat), default=0)
                if "twos" in self.needed:
                    loser["twos"] = _number(self.seat_field("twos", seat), default=0)
                if "held_bombs" in self.needed:
                    loser["held_bombs"] = _sizes(self.seat_field("held_bombs", seat))
            except FormError:
                failed = True
            if "played" in self.needed:
                loser["played"] = not self.seat_field("never_played", seat).data
            if "dealer_only_opening" in self.needed:
                loser["dealer_only_opening"] = bool(self.seat_field("only_opening", seat).data)
            losers[name] = loser
        facts["losers"] = losers
        try:
            if "bombs_played" in self.needed:
                facts["bombs_played"] = _sizes(self.bombs_played)
            if "tricks" in self.needed:
                tricks = _number(self.tricks)
                if tricks is not None:
                    facts["tricks"] = tricks
        except FormError:
            failed = True
        if failed:
            raise FormError()
        return facts


class DagongHandForm(HandForm):
    def _nested_prefix(self, group, key):
        return group if group in ("captured", "xi_bombs") else None

    def _top_field(self, parts):
        if parts[0] == "order":
            if len(parts) > 1 and _ascii_int(parts[1]):
                return self._fields.get(f"order_{min(int(parts[1]), 3) + 1}")
            return self.group("order")
        if parts[0] == "captured":
            return self.group("captured")
        return super()._top_field(parts)

    def facts(self) -> dict:
        failed = False
        names = self.names
        order = []
        gap = False
        for i in range(1, 5):
            value = getattr(self, f"order_{i}").data
            if value:
                if gap:
                    self.group("order").errors.append(
                        _l("Fill the places in order, from the first player out."))
                    failed = True
                order.append(value)
            else:
                gap = True
        if not order:
            self.order_1.errors = list(self.order_1.errors or []) + [_l("Choose who went out first.")]
            failed = True
        captured = {}
        for seat, name in enumerate(names):
            try:
                captured[name] = _number(self.seat_field("captured", seat), default=0)
            except FormError:
                failed = True
        try:
            last = _number(self.last_hand_points, default=0)
        except FormError:
            failed = True
            last = 0
        xi_bombs = {}
        if "xi_bombs" in self.needed:
            for seat, name in enumerate(names):
                try:
                    sizes = _sizes(self.seat_field("xi_bombs", seat))
                except FormError:
                    failed = True
                    continue
                if sizes:
                    xi_bombs[name] = sizes
        if failed:
            raise FormError()
        bright = (self.bright_card.data or "").strip() or None
        facts = {"players": list(names), "banker": self.banker.data,
                 "partner": self.partner.data or None, "shout": self.shout.data or None,
                 "order": order, "captured": captured, "last_hand_points": last,
                 "bright_card": bright}
        if xi_bombs:
            facts["xi_bombs"] = xi_bombs
        return facts


def hand_form(table: Table, module, rules, formdata=None, data: dict | None = None,
              names: list[str] | None = None) -> HandForm:
    """The record/edit form of this table: its players (``names``: a stored hand's own players,
    by default those seated now), and only the facts its switches need."""
    names = table.player_names if names is None else list(names)
    player_choices = [(n, n) for n in names]
    attrs: dict[str, Any] = {}
    if table.game == "gandengyan":
        needed = tuple(module.needed_facts(rules))
        base = GandengyanHandForm
        attrs["winner"] = RadioField(_l("Who went out first?"), choices=_c((str(i), n) for i, n in enumerate(names)),
                                     validators=[OptionalValidator()], validate_choice=False, default="")
        attrs["dealer"] = SelectField(_l("Dealer of this hand"), choices=_c([("", "—")] + player_choices),
                                      validate_choice=False, default="")
        for seat in range(len(names)):
            attrs[f"cards_{seat}"] = IntegerField(_l("Cards left"), validators=[OptionalValidator()],
                                                  render_kw={"inputmode": "numeric", "min": 0})
            attrs[f"jokers_{seat}"] = IntegerField(_l("Jokers held"), default=0, validators=[OptionalValidator()],
                                                   render_kw={"inputmode": "numeric", "min": 0})
            if "twos" in needed:
                attrs[f"twos_{seat}"] = IntegerField(_l("2s held"), default=0, validators=[OptionalValidator()],
                                                     render_kw={"inputmode": "numeric", "min": 0})
            if "held_bombs" in needed:
                attrs[f"held_bombs_{seat}"] = StringField(_l("Bombs held (sizes, e.g. 4 5)"),
                                                          render_kw={"autocomplete": "off", "maxlength": DEVICE_MAX})
            if "played" in needed:
                attrs[f"never_played_{seat}"] = BooleanField(_l("Never played a card"))
            if "dealer_only_opening" in needed:
                attrs[f"only_opening_{seat}"] = BooleanField(_l("Dealer: only the opening lead"))
        if "bombs_played" in needed:
            attrs["bombs_played"] = StringField(_l("Bombs played this hand (sizes, e.g. 4 4 5)"),
                                                render_kw={"autocomplete": "off", "maxlength": 120})
        if "tricks" in needed:
            attrs["tricks"] = IntegerField(_l("Number of tricks played"), validators=[OptionalValidator()],
                                           render_kw={"inputmode": "numeric", "min": 0})
    else:
        needed = tuple(module.needed_facts(rules))
        base = DagongHandForm
        attrs["banker"] = SelectField(_l("Banker"), choices=_c(player_choices), validate_choice=False, default="")
        # pills (radio buttons): one tap, with or without JavaScript
        attrs["partner"] = RadioField(_l("Partner (holds the bright card's twin)"),
                                      choices=_c(player_choices + [("", _l("Nobody"))]),
                                      validators=[OptionalValidator()], validate_choice=False, default="")
        attrs["shout"] = SelectField(_l("Who shouted (plays alone, 1 against 3)?"),
                                     choices=_c([("", _l("Nobody"))] + player_choices), validate_choice=False, default="")
        attrs["bright_card"] = StringField(_l("Bright card (optional, e.g. 7h)"),
                                           render_kw={"autocomplete": "off", "maxlength": 8})
        places = [_l("1st out"), _l("2nd out"), _l("3rd out"), _l("4th out")]
        for i in range(1, 5):
            attrs[f"order_{i}"] = SelectField(places[i - 1], choices=_c([("", "—")] + player_choices),
                                              validate_choice=False, default="")
        for seat in range(len(names)):
            attrs[f"captured_{seat}"] = IntegerField(_l("Points captured"), default=0,
                                                     validators=[OptionalValidator()],
                                                     render_kw={"inputmode": "numeric", "step": 5, "min": 0})
        if "xi_bombs" in needed:
            for seat in range(len(names)):
                attrs[f"xi_bombs_{seat}"] = StringField(_l("Hard 7- or 8-card bombs played (喜), e.g. 7 8"),
                                                        render_kw={"autocomplete": "off", "maxlength": DEVICE_MAX})
        attrs["last_hand_points"] = IntegerField(_l("Points left in the last player's hand"), default=0,
                                                 validators=[OptionalValidator()],
                                                 render_kw={"inputmode": "numeric", "step": 5, "min": 0})
    cls = type(f"{base.__name__}_{table.id}", (base,), attrs)
    form = cls(formdata=formdata, data=data) if formdata is not None else cls(data=data)
    form.table = table
    form.names = names
    form.needed = needed
    form.bounds = module.facts_description(rules, len(names))  # the chips offer only what the rules allow
    return form


def facts_to_data(table: Table, facts: dict) -> dict:
    """Form data that shows these facts (for editing a stored hand, with the hand's own players)."""
    names = facts.get("players") if isinstance(facts.get("players"), list) else table.player_names
    data: dict[str, Any] = {}
    if table.game == "gandengyan":
        winner = facts.get("winner")
        data["winner"] = str(names.index(winner)) if winner in names else None
        data["dealer"] = facts.get("dealer") or ""
        for name, loser in (facts.get("losers") or {}).items():
            if name not in names:
                continue
            seat = names.index(name)
            data[f"cards_{seat}"] = loser.get("cards")
            data[f"jokers_{seat}"] = loser.get("jokers", 0)
            data[f"twos_{seat}"] = loser.get("twos", 0)
            data[f"held_bombs_{seat}"] = " ".join(str(s) for s in loser.get("held_bombs") or [])
            data[f"never_played_{seat}"] = loser.get("played") is False
            data[f"only_opening_{seat}"] = bool(loser.get("dealer_only_opening"))
        data["bombs_played"] = " ".join(str(s) for s in facts.get("bombs_played") or [])
        data["tricks"] = facts.get("tricks")
    else:
        for key in ("banker", "partner", "shout", "bright_card"):
            data[key] = facts.get(key) or ""
        for i, name in enumerate((facts.get("order") or [])[:4], start=1):
            data[f"order_{i}"] = name
        for name, points in (facts.get("captured") or {}).items():
            if name in names:
                data[f"captured_{names.index(name)}"] = points
        data["last_hand_points"] = facts.get("last_hand_points", 0)
        for name, sizes in (facts.get("xi_bombs") or {}).items():
            if name in names:
                data[f"xi_bombs_{names.index(name)}"] = " ".join(str(s) for s in sizes or [])
    return data


class ResubmitForm(FlaskForm):
    """The conflict page's choices: the submitted facts travel as JSON (the engine checks them again)."""

    facts_json = HiddenField()
    revision = HiddenField()
    request_id = HiddenField()

    def facts(self) -> Any:
        try:
            facts = loads(self.facts_json.data or "")
        except ValueError:
            raise FormError() from None
        check_json_document(facts)  # too deep or unreadable text: a 400 like any other request
        return facts


class TableSettingsForm(FlaskForm):
    """A table's name, stake, currency label and notes (scoring judges the values)."""

    name = StringField(_l("Name of the table"),
                       render_kw={"autocomplete": "off", "maxlength": NAME_MAX, "required": True})
    stake = StringField(_l("Money per point"),
                        render_kw={"inputmode": "decimal", "autocomplete": "off", "maxlength": 20,
                                   "aria-describedby": "stake-help"})
    currency = StringField(_l("Currency (optional)"), render_kw={"autocomplete": "off", "maxlength": CURRENCY_MAX,
                                                                 "placeholder": "¥ € Rp ₩ $"})
    notes = TextAreaField(_l("Notes (optional)"), render_kw={"rows": 3, "maxlength": NOTES_MAX})


class DeleteTableForm(FlaskForm):
    """Deleting asks for a tick first (no script needed), then leaves an undo window."""

    confirm = BooleanField(_l("Yes, delete this table and all its hands"))


class ActionForm(FlaskForm):
    """Void / restore / undo: only the CSRF token and the revision the page showed."""

    revision = HiddenField()


class DeviceForm(FlaskForm):
    device = StringField(_l("This phone's name (shown in the history)"),
                         render_kw={"autocomplete": "off", "maxlength": DEVICE_MAX})
