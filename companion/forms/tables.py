"""Web forms (Flask-WTF, CSRF on). Which facts a hand form asks for comes from the engine.

The hand form (:mod:`.hands`) is generated from the engine's description of a game's facts.
"""
from __future__ import annotations

from typing import Any

from flask_babel import LazyString
from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from wtforms import BooleanField, HiddenField, SelectField, StringField, TextAreaField

from ..engine import ENGINES
from .hands import FormError, HandForm, _c, facts_to_data, hand_form  # noqa: F401  (the hand form)
from ..middleware.guard import check_json_document, loads
from ..words import first_dealer_label, preset_label, standard_preset, switch_label, value_label
from ..scoring import CURRENCY_MAX, DEVICE_MAX, NAME_MAX, NOTES_MAX, PLAYER_NAME_MAX

MAX_SEATS = max(module.PLAYER_RANGE[1] for module in ENGINES.values())  # most seats of any game


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


_NEW_TABLE_CLASSES: dict = {}  # (game, id(engine)) -> (engine, class)


def _new_table_class(game: str, module) -> type:
    """The open-a-table form class of one game (made once from its engine, then reused)."""
    key = (game, id(module))
    if key not in _NEW_TABLE_CLASSES:
        _NEW_TABLE_CLASSES[key] = (module, _new_table_class_of(game, module))
    return _NEW_TABLE_CLASSES[key][1]


def _new_table_class_of(game: str, module) -> type:
    seats = module.PLAYER_RANGE[1]  # the engine decides how many may play
    attrs: dict[str, Any] = {"_switches": dict(module.SWITCHES), "_choice_values": {}}
    for i in range(1, seats + 1):
        attrs[f"player_{i}"] = StringField(_l("Player %(n)s", n=i),
                                           render_kw={"autocomplete": "off", "maxlength": PLAYER_NAME_MAX})
    for key, switch in module.SWITCHES.items():
        if switch.kind in ("int", "number"):
            attrs[f"rule_{key}"] = StringField(LazyString(switch_label, module, key), render_kw={"inputmode": "decimal" if switch.kind == "number" else "numeric",
                                                               "autocomplete": "off", "maxlength": 12})
        else:
            choices = [("", _l("(as the preset says)"))]
            values = {}
            for choice in switch.choices:
                label = str(choice).lower() if isinstance(choice, bool) else str(choice)
                choices.append((label, LazyString(value_label, module, key, choice)))  # the class outlives a language
                values[label] = choice
            attrs["_choice_values"] = {**attrs["_choice_values"], key: values}
            attrs[f"rule_{key}"] = SelectField(LazyString(switch_label, module, key), choices=_c(choices), default="")
    return type(f"NewTableForm_{game}", (NewTableForm,), attrs)


def new_table_form(game: str, module, formdata=None) -> NewTableForm:
    """The open-a-table form for one game: its player rows, presets and every switch."""
    seats = module.PLAYER_RANGE[1]
    cls = _new_table_class(game, module)
    form = cls(formdata=formdata) if formdata is not None else cls()
    # "" (no preset) is the standard rules: the preset that only repeats them is not offered twice
    form.preset.choices = _c([("", _l("Standard rules"))] + [(p, LazyString(preset_label, module, p))
                                                             for p in module.PRESETS if not standard_preset(module, p)])
    form.first_dealer.label.text = LazyString(first_dealer_label, module)
    form.first_dealer.choices = _c([("", _l("Decide at the table"))] + [
        (str(i), _l("Player %(n)s", n=i)) for i in range(1, seats + 1)])
    return form


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
