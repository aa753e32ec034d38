"""Fields that write answers: the one place each kind of value gets its JSON form (money as an exact
decimal string, a moment as ISO 8601 with its zone, an engine sentence translated, cards in
notation, absolute links on a trusted base). The answer schemas (``answers``, ``table_answers``)
are made of them, so the OpenAPI document and the bytes on the wire come from the same class."""
from __future__ import annotations

from datetime import timezone
from decimal import Decimal
from typing import Any

from flask import current_app, g, has_request_context, request, url_for
from marshmallow import INCLUDE, Schema, fields
from marshmallow.utils import get_value, missing
from werkzeug.routing import BuildError

from ..i18n import tr


def url(endpoint: str, **values) -> str | None:
    """An absolute URL on a trusted base (:func:`sharing.trusted_base`), or None when the endpoint is
    not served by this app."""
    from ..sharing import links as sharing

    try:
        path = url_for(endpoint, **values)
    except BuildError:
        return None
    if not has_request_context():
        return url_for(endpoint, _external=True, **values)
    base = g.get("link_base") or sharing.trusted_base(  # link_base: a base the operator gave (the CLI)
        public_url=current_app.config.get("PUBLIC_URL"), scheme=request.scheme, host=request.host,
        trusted_hosts=current_app.config.get("TRUSTED_HOSTS"))
    return base + path


def jsonable(value: Any) -> Any:
    """Rules and outcomes as JSON types (Decimals as ints or floats; anything else as text)."""
    if isinstance(value, dict):
        return {str(k): jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [jsonable(v) for v in value]
    if isinstance(value, Decimal):
        return int(value) if value == value.to_integral_value() else float(value)
    if isinstance(value, (bool, int, float, str, type(None))):
        return value
    return str(value)


def money(value) -> str:
    """Money as an exact decimal string without trailing zeros: "6", "-1.5", "0.25"."""
    if value is None:
        return "0"
    value = Decimal(value)
    return format(value.normalize() if value else Decimal(0), "f")


def iso_time(moment) -> str | None:
    """A stored time as ISO 8601 with its zone (UTC): SQLite gives stored times back without one."""
    if moment is None:
        return None
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=timezone.utc)
    return moment.astimezone(timezone.utc).isoformat()


class Merged:
    """A domain object with a few more values for its answer (what the object does not hold itself:
    the game of a verdict, the edit token of a table just opened). Attributes given here win."""

    def __init__(self, base: Any, **values):
        self.__dict__.update(values)
        self._base = base

    def __getattr__(self, name: str):
        return getattr(self.__dict__["_base"], name)


def merged(base: Any, **values) -> Merged:
    if type(base) is Merged:  # one level: a field's value is one lookup away
        more = dict(base.__dict__)
        return Merged(more.pop("_base"), **{**more, **values})
    return Merged(base, **values)


class Answer(Schema):
    """An answer schema: it writes answers (``dump``); answers may gain fields (add, never rename)."""

    class Meta:
        unknown = INCLUDE

    def get_attribute(self, obj, attr, default):
        """A value of the object answered: a key of a dict, else an attribute (dotted: a path)."""
        if "." in attr:
            return get_value(obj, attr, default)
        if type(obj) is dict:
            return obj.get(attr, default)
        return getattr(obj, attr, default)

    def _serialize(self, obj, *, many: bool = False):
        """marshmallow's loop over the fields, with less machinery per field (an answer page writes
        hundreds): each field's value fetched here and formatted by the field, absent values left out."""
        if many and obj is not None:
            return [self._serialize(item) for item in obj]
        plan = self.__dict__.get("_plan")
        if plan is None:
            plan = self._plan = [(field.data_key if field.data_key is not None else name, name, field,
                                  field.attribute or name, field._CHECK_ATTRIBUTE, field.dump_default is missing)
                                 for name, field in self.dump_fields.items()]
        out = {}
        for key, name, field, source, check, plain in plan:
            if not plain:  # a dump_default: marshmallow's own way
                value = field.serialize(name, obj, accessor=self.get_attribute)
            else:
                value = self.get_attribute(obj, source, missing) if check else None
                if value is missing:
                    continue
                value = field._serialize(value, name, obj)
            if value is not missing:
                out[key] = value
        return out


class Money(fields.Field):
    """Money (or points) as an exact decimal string; null counts as "0"."""

    def __init__(self, **kwargs):
        kwargs.setdefault("metadata", {})
        kwargs["metadata"] = {"type": "string", **kwargs["metadata"]}
        super().__init__(required=True, **kwargs)

    def _serialize(self, value, attr, obj, **kwargs):
        return money(value)


class Time(fields.Field):
    """A moment: ISO 8601 with its time zone (always UTC, ``+00:00``), or null."""

    def __init__(self, description: str = "", **kwargs):
        text = "ISO 8601 with its time zone (UTC, +00:00)." + (f" {description}" if description else "")
        super().__init__(required=True, allow_none=True,
                         metadata={"type": "string", "format": "date-time", "description": text}, **kwargs)

    def _serialize(self, value, attr, obj, **kwargs):
        return iso_time(value)


class Sentence(fields.String):
    """An engine sentence (:class:`Text`), translated into the request's language."""

    def _serialize(self, value, attr, obj, **kwargs):
        return None if value is None else tr(value)


class Number(fields.Raw):
    """A number as the engine computed it (an int stays an int: 6, not 6.0)."""

    def __init__(self, **kwargs):
        kwargs.setdefault("metadata", {})
        kwargs["metadata"] = {"type": "number", **kwargs["metadata"]}
        super().__init__(**kwargs)


class JSONValue(fields.Dict):
    """Rules or an outcome: an object of JSON values (Decimals as numbers, anything else as text);
    none stored is {}."""

    def _serialize(self, value, attr, obj, **kwargs):
        return jsonable(dict(value or {}))


class Link(fields.Function):
    """An absolute link (see :func:`url`), or null: ``target(obj) -> (endpoint, values)`` or None."""

    def __init__(self, target, **kwargs):
        def build(obj):
            where = target(obj)
            return url(where[0], **where[1]) if where is not None else None

        kwargs.setdefault("metadata", {})
        kwargs["metadata"] = {"type": "string", "format": "uri", **kwargs["metadata"]}
        super().__init__(build, allow_none=True, required=True, **kwargs)


class Alias(fields.Function):
    """A second name of another value (``id`` of ``public_id``): the same value, or absent with it."""

    def __init__(self, name: str, **kwargs):
        kwargs.setdefault("metadata", {})
        kwargs["metadata"] = {"type": "string", **kwargs["metadata"]}
        super().__init__(lambda obj: get_value(obj, name), **kwargs)
