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
