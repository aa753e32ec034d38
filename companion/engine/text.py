"""Translatable sentences: the engine speaks English and the web layer translates.

The engine must not import Flask-Babel, yet its reasons, steps and errors reach players in six
languages. A :class:`Text` is a ``str`` (so every contract that says "a plain sentence" holds)
that also keeps its template and parameters, so that the web layer can translate the template
and fill in the same parameters. Templates are marked with :func:`N_` so that
``pybabel extract -k N_`` finds them.
"""
from __future__ import annotations

from typing import Any, Mapping


class Text(str):
    """An English sentence that remembers its template and parameters."""

    template: str
    params: dict

    def __new__(cls, template: str, params: Mapping[str, Any] | None = None):
        params = dict(params or {})
        obj = super().__new__(cls, template.format(**params) if params else template)
        obj.template = template
        obj.params = params
        return obj

    def __reduce__(self):  # keep pickling and copying working
        return (Text, (self.template, self.params))


def N_(template: str, **params: Any) -> Text:
    """Mark a sentence for translation and fill in its parameters."""
    return Text(template, params)


def to_data(value: Any) -> Any:
    """A :class:`Text` (with its Text parameters) as JSON-able data, so that a stored sentence can
    be translated when it is shown; other values are kept as they are."""
    if isinstance(value, Text):
        return {"template": value.template, "params": {k: to_data(v) for k, v in value.params.items()}}
    return value


def from_data(data: Any) -> Any:
    """The :class:`Text` that :func:`to_data` stored (anything else is returned as it is)."""
    if isinstance(data, dict) and isinstance(data.get("template"), str) and isinstance(data.get("params"), dict):
        return Text(data["template"], {str(k): from_data(v) for k, v in data["params"].items()})
    return data
