"""The OpenAPI document as strict as the server (issue 31): a request that names its game (check,
answers, settle, a new table) is described once per game of the registry, as a ``oneOf`` whose
variants differ by ``game``. Each variant lists that game's presets, its house-rule switches with
their values (enums, whole numbers with their minimum; no other switch), its player counts and, for
the settle body, only its own facts: so a 干瞪眼 ``/settle`` with ``banker`` or a ``/check`` with an
unknown switch is invalid by the document, as the server refuses it. Generated from the engine's
registry (``ENGINES``: SWITCHES, PRESETS, PLAYER_RANGE, describe_facts), so it names no game.

Also the import body: the shape of an exported table document (the format, the versions this
server reads, the parts every export has), so that ``{}`` is invalid by the document too.
"""
from __future__ import annotations

import copy

from ..engine import ENGINES
from ..engine.described import PLAYER, PLAYERS
from ..scoring.document import FORMAT, FORMAT_VERSION

# The request schemas (components) that are described per game, by their component name.
SETTLE = "SettleRequest"  # the one whose other properties are a hand's facts
PER_GAME = ("CheckRequest", "AnswersRequest", SETTLE, "NewTableRequest")
_COMMON = {"game", "stake", "preset", "rules", "token", "players", "previous", "play", "hand", "previous_as",
           "play_as", "name", "currency", "notes", "first_dealer"}


def switch_schema(switch) -> dict:
    """The JSON schema of one house-rule switch's value."""
    text = {"description": str(getattr(switch.help, "template", switch.help) or "")}
    if switch.kind == "bool":
        return {"type": "boolean", **text}
    if switch.kind in ("int", "number"):
        schema = {"type": "integer" if switch.kind == "int" else "number", **text}
        if switch.minimum is not None:
            schema["minimum"] = switch.minimum
        return schema
    return {"enum": list(switch.choices), **text}


def rules_schema(module) -> dict:
    return {"type": "object", "nullable": True, "additionalProperties": False,
            "description": f"{module.TITLE} house-rule switches (GET /api/v1/games), on top of the preset.",
            "properties": {key: switch_schema(switch) for key, switch in module.SWITCHES.items()}}


def _facts_of(module) -> set:
    description = module.describe_facts()
    return set(description.heads()) | set(description.aliases())


def _variant(schema: dict, module) -> dict:
    variant = copy.deepcopy(schema)
    properties = variant.setdefault("properties", {})
    properties["game"] = {**properties.get("game", {}), "enum": [module.NAME, module.TITLE]}
    if "preset" in properties:
        properties["preset"] = {**properties["preset"], "enum": [*module.PRESETS, None]}
    if "rules" in properties:
        properties["rules"] = rules_schema(module)
    low, high = module.PLAYER_RANGE
    players = properties.get("players")
    if players and players.get("type") == "integer":
        players.update(minimum=max(low, players.get("minimum", low)), maximum=min(high, players.get("maximum", high)))
    elif players and players.get("type") == "array":
        players.update(minItems=low, maxItems=high, uniqueItems=True)
    if schema.get("title") == SETTLE:  # the settle body: this game's facts only
        own = _facts_of(module)
        for name in [n for n in properties if n not in _COMMON and n not in own]:
            del properties[name]
        variant["required"] = sorted(set(variant.get("required", [])) | {"players"} | _required_facts(module))
    for name in TEXT_REQUIRED.get(schema.get("title", ""), ()):
        variant["required"] = sorted(set(variant.get("required", [])) | {name})
        properties[name].pop("nullable", None)
    for name in variant.get("required", []):
        _not_blank(properties.get(name, {}))
    variant["title"] = module.TITLE
    return variant


# Texts the server requires although the request schema lets scoring say so ("The table needs a name.")
TEXT_REQUIRED = {"NewTableRequest": ("name",)}


def _required_facts(module) -> set:
    """The facts without which the game's engine refuses a hand: its players, who won or banked, and
    every fact the description says is missing when left empty (the order out)."""
    return {f.head for f in module.describe_facts() if f.kind in (PLAYERS, PLAYER) or f.missing is not None}


def _not_blank(schema: dict) -> None:
    """A required text is not blank: the server refuses "" and " " where it needs cards or a name."""
    for part in [schema, *schema.get("oneOf", [])]:
        if part.get("type") == "string":
            part.setdefault("pattern", NOT_BLANK)
            part["minLength"] = max(1, part.get("minLength", 0))
        elif part.get("type") == "array" and part.get("items", {}).get("type") == "string":
            part["items"] = {**part["items"], "minLength": 1}
            part["items"].setdefault("pattern", NOT_BLANK)
            part["minItems"] = max(1, part.get("minItems", 0))


# Readable text: the input guard refuses control characters (tab and newlines aside) in every string
# of a request (companion/guard.py), so the document says so for every string of a request body.
READABLE = "^[^\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]*$"


_CONTROL = "\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f"
NOT_BLANK = f"^[^{_CONTROL}]*[^\\s{_CONTROL}][^{_CONTROL}]*$"  # readable, and more than spaces


def readable_strings(schema) -> None:
    """Every string of ``schema`` (nested) without a pattern gets :data:`READABLE`."""
    if isinstance(schema, dict):
        if schema.get("type") == "string" and "pattern" not in schema and "enum" not in schema:
            schema["pattern"] = READABLE
        for value in schema.values():
            readable_strings(value)
    elif isinstance(schema, list):
        for item in schema:
            readable_strings(item)


def strict_per_game(schemas: dict) -> None:
    """Rewrite the named component schemas in place: one variant per game (see the module); every
    request's strings readable text."""
    for name in PER_GAME:
        schema = schemas.get(name)
        if not isinstance(schema, dict) or "oneOf" in schema:
            continue
        variants = [_variant({**schema, "title": name}, module) for module in ENGINES.values()]
        schemas[name] = {"oneOf": variants, "description": schema.get("description", "") or
                         "One variant per game: the game's presets, house rules and facts."}
    for name, schema in schemas.items():
        if name.endswith("Request") or name.endswith("Query"):
            readable_strings(schema)


def import_body_schema() -> dict:
    """An exported table document, as POST /import takes it."""
    return {"type": "object", "required": ["format", "format_version", "table", "players", "hands", "events",
                                           "checksum"],
            "properties": {
                "format": {"type": "string", "enum": [FORMAT]},
                "format_version": {"type": "integer", "minimum": 1, "maximum": FORMAT_VERSION},
                "table": {"type": "object", "required": ["game", "name", "rules"]},
                "players": {"type": "array", "items": {"type": "object"}},
                "hands": {"type": "array", "items": {"type": "object"}},
                "events": {"type": "array", "items": {"type": "object"}},
                "stakes": {"type": "array", "items": {"type": "object"},
                           "description": "Format 3: the table's stake history, each change from which hand on."},
                "checksum": {"type": "string", "pattern": "^sha256:[0-9a-f]{64}$",
                             "description": "SHA-256 of the rest: a check against corruption, not a signature."},
                "signature": {"type": "string", "description": "Format 3: the exporting server's HMAC of the "
                                                               "content (only that server can check it)."}}}
