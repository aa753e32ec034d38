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
import re

from ..engine import ENGINES
from ..engine.described import PLAYER, PLAYERS
from ..scoring.document import FORMAT, FORMAT_VERSION
from ..scoring.tables import WHOLE_AT_A_TABLE

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
        schema.update(getattr(switch, "bounds", {}))  # a switch's own stricter range (OpenAPI 3.0 words)
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
        if schema.get("title") in AT_A_TABLE:  # a table holds these switches as whole numbers
            for key, switch in properties["rules"]["properties"].items():
                if key in WHOLE_AT_A_TABLE and switch.get("type") == "number":
                    switch["type"] = "integer"
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
        properties.get(name, {}).pop("nullable", None)  # the server refuses a required fact given as null
        _not_blank(properties.get(name, {}))
    variant["title"] = module.TITLE
    return variant


AT_A_TABLE = ("NewTableRequest",)  # the requests whose rules a table will hold

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
        elif part.get("type") == "object" and "additionalProperties" in part:  # losers: at least one
            part["minProperties"] = max(1, part.get("minProperties", 0))
        elif part.get("type") == "array" and part.get("items", {}).get("type") == "string":
            part["items"] = {**part["items"], "minLength": 1}
            part["items"].setdefault("pattern", NOT_BLANK)
            part["minItems"] = max(1, part.get("minItems", 0))


# Readable text: the input guard refuses control characters (tab and newlines aside) in every string
# of a request (companion/middleware/guard.py), so the document says so for every string of a request body.
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
    _named_entries(schemas.get("PlayersRequest"))
    for name, schema in schemas.items():
        if name.endswith("Request") or name.endswith("Query"):
            readable_strings(schema)


def _named_entries(schema) -> None:
    """PUT …/players: every entry needs a name ("Player 3 needs a name."), as text or as ``name``."""
    players = (schema or {}).get("properties", {}).get("players") or {}
    players["uniqueItems"] = True
    items = players.get("items", {})
    for part in items.get("oneOf", []):
        _not_blank(part if part.get("type") == "string" else part.get("properties", {}).get("name", {}))


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


# What the OpenAPI document cannot say (issue 31). A request valid by the document is never refused,
# except for these reasons, each a rule between two values, over the stored table, or beyond what an
# OpenAPI 3.0 schema can state. (code, the fields it concerns as a regular expression ("" for a
# field name, which the answer does not name), why). docs/api.md lists them (scripts/api_doc.py) and
# tests/api/test_openapi_schemathesis.py allows exactly these, no other refusal.
BEYOND_THE_DOCUMENT = (
    ("unknown_player", r".*", "a name must be one of the players named elsewhere (a banker, a partner, a "
                              "rename's `was`): a schema cannot compare one value with another"),
    ("unknown_winner", r"winner", "the winner must be one of the players (the same reason)"),
    ("unknown_loser", r"losers\..*", "each loser must be one of the players (the same reason)"),
    ("bad_dealer", r"first_dealer", "the first dealer must be one of the players (the same reason)"),
    ("missing_partner", r"partner", "the partner is needed unless someone shouted: which fact is needed "
                                    "depends on another fact's value"),
    ("bad_players", r"players", "a hand's players must be the table's players in seat order, and a preset "
                                "can narrow the player count: the document describes every table alike"),
    ("player_count", r"players", "the player count of the table's game: the path does not say the game"),
    ("unknown_fact", r".*", "a hand at a table takes the facts of the table's game: the path does not say "
                            "the game (the facts of each game are described under /settle)"),
    ("losers_missing", r"losers", "the same: which facts a hand needs depends on the table's game"),
    ("missing_banker", r"banker", "the same: which facts a hand needs depends on the table's game"),
    ("unknown_dealer", r"dealer", "the dealer must be one of the players (the same reason)"),
    ("duplicate_player", r"players\..*", "the same name twice, once as text and once as {\"name\": …}, or the "
                                        "same after Unicode normalisation (\"Ａ\" and \"A\"): equal names that "
                                        "`uniqueItems` cannot see"),
    ("table_deleted", r"table", "the table was deleted by an earlier request: a state, not a shape"),
    ("too_many_copies", r".*", "more copies of a card than the decks hold: a count across the cards"),
    ("too_many_jokers", r".*", "more jokers than the decks hold: a count across the cards"),
    ("too_many_cards", r".*", "more cards than the game deals: a count across the cards"),
    ("previous_not_a_combination", r"previous", "whether cards form a combination is the engine's rule"),
    ("reading_not_possible", r"previous_as|play_as", "whether the cards can be read as declared is the "
                                                      "engine's rule"),
    ("bad_card", r"previous_as|play_as", "a declared reading is cards or a type name of the game, whichever "
                                         "the engine can read the cards as"),
    ("bomb_size", r"bombs_played\..*", "the sizes a bomb can have depend on the house rules"),
    ("damaged", r".*", "an import's checksum is the SHA-256 of the rest of the file"),
    ("bad_text", r".*", "a control character in a field name (OpenAPI 3.0 has no `propertyNames`) or anywhere in "
                        "an imported file (a free-form document): every string the document describes carries "
                        "the readable-text pattern, so only these reach the server"),
    ("invisible", r".*", "an invisible or text-direction character in a name (Unicode format characters: "
                         "a pattern of ECMA regular expressions without \\p{Cf} cannot list them all)"),
    ("too_long", r"players\..*|name|currency|notes|first_dealer", "a text within its limit as sent but longer "
                                                                 "once normalised (NFKC: \"ﬃ\" is three letters), "
                                                                 "as every name is stored"),
    ("bad_stake", r"stake", "a stake written as a JSON number with more than 4 decimals: binary floats make "
                            "`multipleOf: 0.0001` unreliable; write such a stake as text (\"0.5\")"),
    ("request_entity_too_large", r".*", "a body over its size in bytes (64 KiB, 8 KiB for a hand)"),
)


def beyond_the_document(code: str, field) -> bool:
    """Is a refusal with this code and field one of :data:`BEYOND_THE_DOCUMENT`?"""
    # a field's path holds the request's own keys, newlines included (DOTALL: "." matches them too)
    return any(code == known and re.fullmatch(fields, field or "", re.DOTALL)
               for known, fields, _why in BEYOND_THE_DOCUMENT)
