"""Translatable sentences: the engine speaks English and the web layer translates.

The engine must not import Flask-Babel, yet its reasons, steps and errors reach players in six
languages. A :class:`Text` is a ``str`` (so every contract that says "a plain sentence" holds)
that also keeps its template and parameters, so that the web layer can translate the template
and fill in the same parameters. Templates are marked with :func:`N_` so that
``pybabel extract -k N_`` finds them.

A sentence whose words depend on a number ("1 bomb" / "2 bombs") is made with :func:`NP_`: it
keeps both English forms and the number (``.plural``, ``.count``), so that the web layer can ask
the catalog for the language's own plural form (``ngettext``); ``pybabel extract -k NP_:1,2``
finds them as plural entries.
"""
from __future__ import annotations

from typing import Any, Mapping


class Text(str):
    """An English sentence that remembers its template and parameters (and, for a sentence with
    a plural, its plural template and the number that chooses the form; None otherwise)."""

    template: str
    params: dict
    plural: str | None
    count: int | None

    def __new__(cls, template: str, params: Mapping[str, Any] | None = None, plural: str | None = None,
                count: int | None = None):
        params = dict(params or {})
        english = plural if plural is not None and count is not None and count != 1 else template
        obj = super().__new__(cls, english.format(**params) if params else english)
        obj.template = template
        obj.params = params
        obj.plural = plural
        obj.count = count if plural is not None else None
        return obj

    def __reduce__(self):  # keep pickling and copying working
        return (Text, (self.template, self.params, self.plural, self.count))


def N_(template: str, **params: Any) -> Text:
    """Mark a sentence for translation and fill in its parameters."""
    return Text(template, params)


def NP_(singular: str, plural: str, count: int | None, /, **params: Any) -> Text:
    """Mark a sentence with a singular and a plural form for translation; ``count`` chooses the
    form (English: singular when it is 1) and ``params`` fill it in (positional, so a parameter
    may also be called ``count``). ``count`` None makes a template constant whose number is given
    when it is filled (:func:`fill`)."""
    return Text(singular, params, plural, count)


def fill(template: Text, count: int | None = None, /, **params: Any) -> Text:
    """A template constant (made with :func:`N_` or :func:`NP_`) with its parameters; ``count``
    (positional, so a parameter may also be called ``count``) chooses a plural template's form."""
    return Text(template.template, params, template.plural, count)


def to_data(value: Any) -> Any:
    """A :class:`Text` (with its Text parameters) as JSON-able data, so that a stored sentence can
    be translated when it is shown; other values are kept as they are."""
    if isinstance(value, Text):
        data = {"template": value.template, "params": {k: to_data(v) for k, v in value.params.items()}}
        if value.plural is not None:
            data["plural"] = value.plural
            data["count"] = value.count
        return data
    return value


def from_data(data: Any) -> Any:
    """The :class:`Text` that :func:`to_data` stored (anything else is returned as it is); data
    stored before sentences had plurals (no ``plural`` / ``count``) loads as an ordinary Text."""
    if isinstance(data, dict) and isinstance(data.get("template"), str) and isinstance(data.get("params"), dict):
        params = {str(k): from_data(v) for k, v in data["params"].items()}
        plural = data.get("plural") if isinstance(data.get("plural"), str) else None
        count = data.get("count")
        count = count if isinstance(count, int) and not isinstance(count, bool) else None
        return Text(data["template"], params, plural, count)
    return data
