"""House-rule switches: one :class:`Switch` per key of a rules file, and the one way to build a
frozen ``Rules`` value from a dict of switches (camelCase or snake_case keys)."""
from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass
from decimal import Decimal
from typing import Any, Mapping

from .errors import RulesError
from .text import N_, Text


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
        """The value as the Rules hold it, or a RulesError that names the switch and what it takes."""
        if self.kind == "bool":
            return self._boolean(value)
        if self.kind in ("int", "number"):
            return self._number(value)
        return self._choice(value)

    def _error(self, sentence: Text) -> RulesError:
        return RulesError(sentence, field=f"rules.{self.key}")

    def _boolean(self, value: Any) -> bool:
        if isinstance(value, bool):
            return value
        word = value.lower() if isinstance(value, str) else value if type(value) is int else None
        if word in ("true", "on", "yes", "1", 1):
            return True
        if word in ("false", "off", "no", "0", 0):
            return False
        raise self._error(N_("The house rule '{key}' must be true or false, not '{value}'.", key=self.key, value=value))

    def _read_number(self, value: Any):
        """int(value) for "int" switches (written exactly: "3", not "3.0"), a finite Decimal else."""
        try:
            if isinstance(value, bool):
                raise ValueError
            if self.kind == "int":
                number = int(value)
                if not isinstance(value, int) and str(value).strip() != str(number):
                    raise ValueError
                return number
            number = Decimal(str(value))
            if not number.is_finite():
                raise ValueError
            return number
        except (ValueError, TypeError, ArithmeticError):
            raise self._error(N_("The house rule '{key}' must be a number, not '{value}'.", key=self.key,
                                 value=value)) from None

    def _number(self, value: Any):
        number = self._read_number(value)
        if self.minimum is not None and number < self.minimum:
            raise self._error(N_("The house rule '{key}' must be at least {minimum}, not {value}.", key=self.key,
                                 minimum=self.minimum, value=value))
        if self.kind == "int":
            return number
        return int(number) if number == int(number) else float(number)

    def _choice(self, value: Any):
        try:
            if value in self.choices:
                return value
        except (ArithmeticError, TypeError):  # a signalling NaN cannot even be compared
            value = str(value)
        for choice in self.choices:  # the same value written in another case or camelCase
            if isinstance(choice, str) and isinstance(value, str) and snake(choice) == snake(value):
                return choice
        raise self._error(N_("The house rule '{key}' cannot be '{value}': choose one of {choices}.", key=self.key,
                             value=value, choices=", ".join(str(c) for c in self.choices)))


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
