"""JSON API v1 (a contract: see design.md "JSON API v1"; fields may be added, never renamed).

- ``POST /check``                      is a play legal?            (engine ``check``)
- ``POST /settle``                     who pays whom, with steps    (engine ``settle``)
- ``POST /tables``                     open a table (returns its id and edit token)
- ``GET  /tables/<id>``                the table, its players, standings and hand count
- ``GET  /tables/<id>/hands``          hands, newest first, paginated (``?page=&per_page=``)
- ``POST /tables/<id>/hands``          record a hand (``request_id`` makes it idempotent)
- ``GET  /tables/<id>/hands/<n>``      one hand
- ``PUT  /tables/<id>/hands/<n>``      edit a hand (carries ``revision``; stale -> 409 with both)
- ``POST /tables/<id>/hands/<n>/void`` and ``/restore``; ``POST /tables/<id>/undo``

Writes need the table's edit token: header ``X-Edit-Token`` or ``"token"`` in the body.
Every bad input is a 4xx with ``{"error": {"code", "message", "field"}}``.

Views stay thin: every rule decision is the engine's; every stored change goes through ``scoring``.
The parsing helpers below are shared with the CLI (``companion/cli.py``).
"""
from __future__ import annotations

import importlib
import json
import math
import re
import secrets
from contextlib import contextmanager
from decimal import Decimal, InvalidOperation
from typing import Any

from flask import Blueprint, current_app, jsonify, request, url_for
from flask_babel import gettext as _
from werkzeug.routing import BuildError

from ..engine.common import EngineError
from ..i18n import tr

bp = Blueprint("api", __name__)

GAMES = {"gandengyan": "gandengyan", "dagong": "dagong", "干瞪眼": "gandengyan", "大冶打拱": "dagong"}
MAX_STAKE = Decimal(1_000_000)
MAX_TEXT = 200          # longest card text / reading we accept
MAX_REQUEST_ID = 64
MAX_PAGE = 1_000_000
MAX_HAND_NUMBER = 2**31 - 1
MAX_DEPTH = 16          # hand facts nest 3 or 4 levels; nothing we take needs more


# --------------------------------------------------------------------------------------------
# Errors


class ApiError(Exception):
    """A 4xx answer: ``{"error": {"code", "message", "field"}}`` plus optional extra keys."""

    def __init__(self, status: int, code: str, message: str, field: str | None = None, **extra):
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message
        self.field = field
        self.extra = extra

    def to_dict(self) -> dict:
        return {"code": self.code, "message": str(self.message), "field": self.field}


def engine_error(error: EngineError, status: int = 400) -> ApiError:
    """An engine (or scoring) error as an API error, its sentence translated."""
    return ApiError(status, error.code or "invalid", tr(error.message), error.field)


# What an engine raises when it failed to refuse bad input itself (a bug to fix in the engine).
UNEXPECTED = (ValueError, TypeError, KeyError, IndexError, AttributeError, ArithmeticError, RecursionError)


@contextmanager
def engine_guard(field: str | None):
    """Bad input must never become a 500: an engine or scoring failure that is not one of their own
    errors is logged (with its traceback, to be fixed there) and answered as a 400."""
    try:
        yield
    except EngineError:
        raise
    except UNEXPECTED:
        from ..extensions import db

        db.session.rollback()
        current_app.logger.exception("The engine failed on input it should have refused")
        raise ApiError(400, "unreadable",
                       _("Some of the values sent could not be read%(where)s. Check each value's type and "
                         "spelling against the examples at /api.",
                         where=_(" in \"%(field)s\"", field=field) if field else ""), field) from None


@bp.errorhandler(ApiError)
def _api_error(error: ApiError):
    body = {"error": error.to_dict(), **error.extra}
    return jsonify(body), error.status


@bp.errorhandler(EngineError)
def _engine_error(error: EngineError):
    return _api_error(engine_error(error))


def _show(value: Any, limit: int = 40) -> str:
    """A short, safe rendering of a bad value for an error message."""
    try:
        text = json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError):
        text = repr(value)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _type_name(value: Any) -> str:
    if value is None:
        return _("null")
    if isinstance(value, bool):
        return _("true/false")
    if isinstance(value, (int, float)):
        return _("a number")
    if isinstance(value, str):
        return _("text")
    if isinstance(value, list):
        return _("a list")
    if isinstance(value, dict):
        return _("an object")
    return type(value).__name__


# --------------------------------------------------------------------------------------------
# Reading the request


def _reject_constant(name: str):
    raise ValueError(f"{name} is not valid JSON")


def parse_json_text(raw: bytes | str) -> Any:
    """Decode a JSON document; ApiError 400 'bad_json' saying what is wrong and where."""
    if isinstance(raw, bytes) and not raw.strip() or isinstance(raw, str) and not raw.strip():
        raise ApiError(400, "empty_body",
                       _("The request body is empty. Send a JSON object, for example "
                         "{\"game\": \"gandengyan\", \"previous\": \"7\", \"play\": \"8\"}."))
    try:
        return json.loads(raw, parse_constant=_reject_constant)
    except RecursionError:
        raise ApiError(400, "bad_json", _("The JSON is nested too deeply.")) from None
    except UnicodeDecodeError:
        raise ApiError(400, "bad_json", _("The request body is not UTF-8 text. Send JSON encoded as UTF-8.")) from None
    except json.JSONDecodeError as error:
        raise ApiError(400, "bad_json",
                       _("The request body is not valid JSON (%(problem)s at line %(line)s, column %(column)s). "
                         "Check the quotes, commas and brackets.",
                         problem=error.msg, line=error.lineno, column=error.colno)) from None
    except ValueError as error:  # NaN / Infinity, or an integer with thousands of digits
        raise ApiError(400, "bad_json",
                       _("The request body is not valid JSON: %(problem)s.", problem=str(error)[:80])) from None


def _depth(value) -> int:
    """How deeply lists/objects nest (iteratively: no recursion on hostile input)."""
    deepest, stack = 0, [(value, 1)]
    while stack:
        node, level = stack.pop()
        if isinstance(node, dict):
            node = list(node.values())
        if isinstance(node, list):
            deepest = max(deepest, level)
            stack.extend((child, level + 1) for child in node if isinstance(child, (list, dict)))
    return deepest


def json_body() -> dict:
    """The request's JSON object (whatever the Content-Type says)."""
    data = parse_json_text(request.get_data(cache=True))
    if _depth(data) > MAX_DEPTH:
        raise ApiError(400, "bad_json", _("The JSON is nested too deeply."))
    if not isinstance(data, dict):
        raise ApiError(400, "not_an_object",
                       _("The request body must be a JSON object ({…}), not %(kind)s.", kind=_type_name(data)))
    return data


def game_module(value: Any, field: str = "game"):
    """The engine module for a game name; ApiError naming the known games."""
    if value is None:
        raise ApiError(400, "missing", _("Say which game: \"game\" must be \"gandengyan\" (干瞪眼) or "
                                         "\"dagong\" (大冶打拱)."), field)
    if not isinstance(value, str) or value.strip().lower() not in GAMES and value.strip() not in GAMES:
        raise ApiError(400, "unknown_game",
                       _("Unknown game %(value)s: \"game\" must be \"gandengyan\" (干瞪眼) or \"dagong\" (大冶打拱).",
                         value=_show(value)), field)
    key = value.strip()
    name = GAMES.get(key) or GAMES[key.lower()]
    return importlib.import_module(f"companion.engine.{name}")


def game_name(module) -> str:
    return module.__name__.rsplit(".", 1)[-1]


def get_text(body: dict, key: str, *, required: bool = False, allow_null: bool = True,
             max_length: int = MAX_TEXT, example: str = "", field: str | None = None) -> str | None:
    field = field or key
    value = body.get(key)
    if value is None:
        if required or (key in body and not allow_null):
            message = (_("\"%(key)s\" is required, for example %(example)s.", key=key, example=example)
                       if example else _("\"%(key)s\" is required.", key=key))
            raise ApiError(400, "missing", message, field)
        return None
    if not isinstance(value, str):
        message = (_("\"%(key)s\" must be text such as %(example)s, not %(kind)s.", key=key,
                     kind=_type_name(value), example=example)
                   if example else _("\"%(key)s\" must be text, not %(kind)s.", key=key, kind=_type_name(value)))
        raise ApiError(400, "wrong_type", message, field)
    if len(value) > max_length:
        raise ApiError(400, "too_long",
                       _("\"%(key)s\" is too long: at most %(limit)s characters.", key=key, limit=max_length), field)
    return value


def get_cards_text(body: dict, key: str, *, required: bool) -> str | None:
    """Card notation: text, or a list of card texts (joined with spaces)."""
    value = body.get(key)
    if isinstance(value, list) and value and all(isinstance(v, str) for v in value):
        value = " ".join(value)
        if len(value) > MAX_TEXT:
            raise ApiError(400, "too_long", _("\"%(key)s\" is too long: at most %(limit)s characters.",
                                                key=key, limit=MAX_TEXT), key)
        return value
    return get_text(body, key, required=required, example="\"7 7\" or \"5h 10h Kh\"")


def get_int(body: dict, key: str, *, minimum: int, maximum: int, field: str | None = None) -> int | None:
    field = field or key
    value = body.get(key)
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int):
        if isinstance(value, float) and value.is_integer() and minimum <= value <= maximum:
            return int(value)
        raise ApiError(400, "wrong_type",
                       _("\"%(key)s\" must be a whole number from %(minimum)s to %(maximum)s, not %(value)s.",
                         key=key, minimum=minimum, maximum=maximum, value=_show(value)), field)
    if not minimum <= value <= maximum:
        raise ApiError(400, "out_of_range",
                       _("\"%(key)s\" must be from %(minimum)s to %(maximum)s, not %(value)s.",
                         key=key, minimum=minimum, maximum=maximum, value=_show(value)), field)
    return value


def get_players_count(body: dict, module) -> int | None:
    low, high = module.PLAYER_RANGE  # the engine decides how many may play
    return get_int(body, "players", minimum=low, maximum=high)


def get_stake(body: dict, key: str = "stake") -> Decimal | None:
    """Money per point: a JSON number or a decimal string ("0.5"), 0 to 1,000,000."""
    value = body.get(key)
    if value is None:
        return None
    problem = _("\"%(key)s\" (money per point) must be a number from 0 to 1000000, such as 1 or 0.5, "
                "not %(value)s.", key=key, value=_show(value))
    if isinstance(value, bool) or not isinstance(value, (int, float, str)):
        raise ApiError(400, "wrong_type", problem, key)
    if isinstance(value, float) and not math.isfinite(value):
        raise ApiError(400, "out_of_range", problem, key)
    try:
        stake = Decimal(str(value).strip()) if len(str(value)) <= 40 else None
    except InvalidOperation:
        stake = None
    if stake is None or not stake.is_finite():
        raise ApiError(400, "wrong_type", problem, key)
    if not Decimal(0) <= stake <= MAX_STAKE:
        raise ApiError(400, "out_of_range", problem, key)
    if stake.as_tuple().exponent < -4:
        raise ApiError(400, "out_of_range",
                       _("\"%(key)s\" may have at most 4 decimal places.", key=key), key)
    return stake


def get_rules(body: dict, module):
    """preset + rules -> Rules. Unknown preset/switch: 400 naming the field and the choices."""
    preset = body.get("preset")
    if preset is not None:
        if not isinstance(preset, str) or preset not in module.PRESETS:
            raise ApiError(400, "unknown_preset",
                           _("Unknown preset %(value)s for this game. Choose one of: %(choices)s.",
                             value=_show(preset), choices=", ".join(module.PRESETS)), "preset")
    rules = body.get("rules")
    if rules is not None and not isinstance(rules, dict):
        raise ApiError(400, "wrong_type",
                       _("\"rules\" must be an object of house-rule switches such as {\"%(example)s\": …}, "
                         "not %(kind)s.", example=next(iter(module.SWITCHES), "switch"), kind=_type_name(rules)),
                       "rules")
    check_rule_values(rules)
    with engine_guard("rules"):
        return module.rules_from_dict(rules, preset=preset)


def check_rule_values(rules: dict | None) -> None:
    """House-rule values are JSON scalars (true/false, a number, text); the engine judges them."""
    for key, value in (rules or {}).items():
        if value is None or isinstance(value, (list, dict)):
            raise ApiError(400, "wrong_type",
                           _("The house rule \"%(key)s\" needs a value such as true, false, a number or a "
                             "word, not %(kind)s. Leave it out to use the preset's value.",
                             key=str(key)[:40], kind=_type_name(value)), f"rules.{key}")


def reading_json(reading) -> dict:
    """A Reading as notation strings: cards as played, reading as the ranks they stand for."""
    from ..engine.cards import RANK_NAMES, format_cards

    cards = format_cards(reading.cards)
    values = tuple(getattr(reading, "values", ()) or ())
    text = " ".join(RANK_NAMES.get(v, str(v)) for v in values) if values else cards
    extra = {}
    for key, value in tuple(getattr(reading, "extra", ()) or ()):
        extra[str(key)] = value if isinstance(value, (bool, int, float, str, type(None))) else str(value)
    return {"type": reading.type, "cards": cards, "reading": text,
            "rank": RANK_NAMES.get(reading.rank, str(reading.rank)), "length": reading.length,
            "extra": extra}


def check_request(body: dict, *, translate: bool = True) -> dict:
    """Validate a check request, ask the engine, return the response dict (ApiError on bad input).

    ``translate=False`` keeps the engine's reason as its :class:`Text` (pages translate it with the
    ``tr`` filter)."""
    module = game_module(body.get("game"))
    previous = get_cards_text(body, "previous", required=False)
    play = get_cards_text(body, "play", required=True)
    players = get_players_count(body, module)
    previous_as = get_text(body, "previous_as", example="\"5 5 5\"")
    play_as = get_text(body, "play_as", example="\"5 5 5\"")
    rules = get_rules(body, module)
    with engine_guard(None):
        verdict = module.check(previous, play, rules, players=players, previous_as=previous_as, play_as=play_as)
    return {"legal": bool(verdict.legal), "code": verdict.code,
            "reason": tr(verdict.reason) if translate else verdict.reason,
            "play": reading_json(verdict.play) if verdict.play is not None else None,
            "readings": [reading_json(r) for r in verdict.readings],
            "game": game_name(module)}


SETTLE_RESERVED = ("game", "stake", "preset", "rules", "token")

# Facts that are counts or points. The JSON API takes them as JSON numbers only ("3" is refused
# here, with the field named); the engine still decides what values are valid.
NUMERIC_FACTS = {
    "gandengyan": ("losers.*.cards", "losers.*.jokers", "losers.*.twos", "losers.*.held_bombs.*",
                   "bombs_played.*", "tricks"),
    "dagong": ("captured.*", "last_hand_points"),
}


def strict_numbers(facts: Any, game: str) -> None:
    """ApiError 400 'wrong_type' for a number written as text (or true/false) in the facts."""
    def walk(node, parts, path):
        if not parts:
            if isinstance(node, (str, bool)):
                raise ApiError(400, "wrong_type",
                               _("\"%(field)s\" must be a number such as 3, not %(value)s.",
                                 field=".".join(path), value=_show(node)), ".".join(path))
            return
        head, rest = parts[0], parts[1:]
        if head == "*":
            items = node.items() if isinstance(node, dict) else enumerate(node) if isinstance(node, list) else ()
            for key, value in items:
                walk(value, rest, path + [str(key)])
        elif isinstance(node, dict) and head in node and node[head] is not None:
            walk(node[head], rest, path + [head])

    for pattern in NUMERIC_FACTS.get(game, ()):
        walk(facts, pattern.split("."), [])


def settle_request(body: dict) -> dict:
    """Validate a settle request, ask the engine, return the response dict."""
    module = game_module(body.get("game"))
    stake = get_stake(body)
    rules = get_rules(body, module)
    facts = {k: v for k, v in body.items() if k not in SETTLE_RESERVED}
    strict_numbers(facts, game_name(module))
    with engine_guard(None):
        settlement = module.settle(facts, rules, stake=stake if stake is not None else 1)
    return settlement_json(settlement, module)


def settlement_json(settlement, module) -> dict:
    out = {"deltas": dict(settlement.deltas), "steps": [tr(s) for s in settlement.steps],
           "points": dict(settlement.points or {}), "next_dealer": settlement.next_dealer}
    if game_name(module) == "dagong":
        out.update(winners=list(settlement.winners or []), arch=settlement.arch, multiplier=settlement.multiplier)
    return out


# --------------------------------------------------------------------------------------------
# Rules endpoints


@bp.post("/check")
def check():
    return jsonify(check_request(json_body()))


@bp.post("/settle")
def settle():
    return jsonify(settle_request(json_body()))


@bp.get("/")
def index():
    """What this API offers (a human help page is at /api)."""
    return jsonify(version=1, help=_url("check.api_help"), endpoints={
        "check": "POST /api/v1/check", "settle": "POST /api/v1/settle", "games": "GET /api/v1/games",
        "open_table": "POST /api/v1/tables", "table": "GET /api/v1/tables/<id>",
        "hands": "GET|POST /api/v1/tables/<id>/hands", "hand": "GET|PUT /api/v1/tables/<id>/hands/<n>",
        "void": "POST /api/v1/tables/<id>/hands/<n>/void",
        "restore": "POST /api/v1/tables/<id>/hands/<n>/restore", "undo": "POST /api/v1/tables/<id>/undo"})


@bp.get("/games")
def games():
    """The games, their presets and house-rule switches (so clients can build forms)."""
    from ..engine.common import rules_to_dict

    out = {}
    for name in ("gandengyan", "dagong"):
        module = importlib.import_module(f"companion.engine.{name}")
        out[name] = {
            "players": {"min": module.PLAYER_RANGE[0], "max": module.PLAYER_RANGE[1]},
            "presets": {key: _jsonable(rules_to_dict(rules)) for key, rules in module.PRESETS.items()},
            "switches": {key: {"help": tr(sw.help), "kind": sw.kind, "choices": _jsonable(list(sw.choices))}
                         for key, sw in module.SWITCHES.items()},
        }
    return jsonify(games=out)


def _jsonable(value):
    if isinstance(value, dict):
        return {str(k): _jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_jsonable(v) for v in value]
    if isinstance(value, Decimal):
        return int(value) if value == value.to_integral_value() else float(value)
    if isinstance(value, (bool, int, float, str, type(None))):
        return value
    return str(value)


# --------------------------------------------------------------------------------------------
# Tables


def _scoring():
    from .. import scoring

    return scoring


def _table_or_404(public_id: str):
    table = _scoring().get_table(public_id)
    if table is None:
        raise ApiError(404, "unknown_table",
                       _("There is no table with this id. Check the address, or open the table from its link again."),
                       "table")
    return table


def _hand_or_404(table, number: int):
    hand = _scoring().get_hand(table, number) if 0 < number <= MAX_HAND_NUMBER else None
    if hand is None:
        raise ApiError(404, "unknown_hand",
                       _("This table has no hand number %(number)s.", number=number), "number")
    return hand


def _require_token(table, body: dict | None = None) -> None:
    given = request.headers.get("X-Edit-Token")
    if not given and isinstance(body, dict):
        given = body.get("token")
    if not isinstance(given, str) or not given:
        raise ApiError(403, "token_required",
                       _("Changing this table needs its edit token: send it in the X-Edit-Token header "
                         "or as \"token\" in the body."), "token")
    if not _scoring().check_edit_token(table, given):
        raise ApiError(403, "bad_token",
                       _("This edit token is not the table's. Copy the token (or the share link) from the "
                         "table's creator again."), "token")


def _url(endpoint: str, **values) -> str | None:
    try:
        return url_for(endpoint, _external=True, **values)
    except BuildError:
        return None


def _money(value) -> str:
    """Money as an exact decimal string without trailing zeros: "6", "-1.5", "0.25"."""
    if value is None:
        return "0"
    value = Decimal(value)
    return format(value.normalize() if value else Decimal(0), "f")


def table_json(table, *, with_token: bool = False) -> dict:
    scoring = _scoring()
    players = sorted(table.players, key=lambda p: p.seat)
    standings = [{"player": row.name, "seat": row.seat, "points": int(row.points), "money": _money(row.money)}
                 for row in scoring.standings(table)]
    active, total = scoring.hand_counts(table)
    out = {
        "id": table.public_id, "game": table.game, "name": table.name, "stake": _money(table.stake),
        "currency": table.currency or "", "preset": table.preset,
        "rules": _jsonable(dict(table.rules or {})), "rules_version": table.rules_version,
        "notes": table.notes or "", "revision": table.revision,
        "created_at": table.created_at.isoformat() if table.created_at else None,
        "players": [{"seat": p.seat, "name": p.name} for p in players],
        "standings": standings, "hand_count": active, "hands_recorded": total,
        "first_dealer": table.first_dealer, "current_dealer": scoring.current_dealer(table),
        "urls": _table_urls(table, with_token=with_token),
    }
    if with_token:
        out["token"] = table.edit_token
    return out


def _row(row, key):
    """A field of a standings row (a NamedTuple, a Row or a dict)."""
    if isinstance(row, dict):
        return row.get(key)
    return getattr(row, key, None)


def _table_urls(table, *, with_token: bool) -> dict:
    urls = {"api": _url("api.get_table", public_id=table.public_id),
            "hands": _url("api.list_hands", public_id=table.public_id),
            "page": _url("tables.show", public_id=table.public_id)}
    if with_token:
        urls["share"] = _url("tables.show", public_id=table.public_id, key=table.edit_token)
    return urls


def hand_json(hand, players_by_id: dict | None = None, deltas: dict | None = None) -> dict:
    """A hand; ``deltas`` ({player_id: points}) when already fetched for a whole page."""
    if players_by_id is None:
        players_by_id = {p.id: p.name for p in hand.table.players}
    if deltas is None:
        deltas = {d.player_id: d.points for d in hand.deltas}
    return {"number": hand.number, "status": hand.status, "revision": hand.revision,
            "facts": hand.facts,
            "deltas": {players_by_id.get(pid, str(pid)): points for pid, points in deltas.items()},
            "outcome": _jsonable(hand.outcome or {}), "next_dealer": hand.next_dealer,
            "request_id": hand.request_id,
            "created_at": hand.created_at.isoformat() if hand.created_at else None,
            "updated_at": hand.updated_at.isoformat() if hand.updated_at else None}


def _facts_from(body: dict) -> dict:
    facts = body.get("facts")
    if facts is None:
        raise ApiError(400, "missing",
                       _("\"facts\" is required: the hand as the settle API takes it, without game and stake."),
                       "facts")
    if not isinstance(facts, dict):
        raise ApiError(400, "wrong_type", _("\"facts\" must be an object, not %(kind)s.", kind=_type_name(facts)),
                       "facts")
    return facts


def _revision(body: dict) -> int:
    value = body.get("revision")
    if value is None:
        raise ApiError(400, "missing",
                       _("\"revision\" is required: send the hand's revision as you last read it."), "revision")
    return get_int(body, "revision", minimum=0, maximum=MAX_HAND_NUMBER)


def _device(body: dict) -> str:
    device = get_text(body, "device", max_length=60)
    return device or request.headers.get("X-Device", "")[:60] or "api"


def _scoring_call(function, *args, **kwargs):
    """Call scoring; its errors become 4xx (Conflict -> 409 with both versions)."""
    scoring = _scoring()
    try:
        with engine_guard(None):
            return function(*args, **kwargs)
    except scoring.Conflict as conflict:
        current = conflict.current
        raise ApiError(409, conflict.code or "conflict", tr(conflict.message), conflict.field or "revision",
                       current=hand_json(current) if current is not None else None,
                       submitted=conflict.submitted) from None
    except EngineError as error:
        from ..extensions import db

        db.session.rollback()
        raise engine_error(error, 404 if isinstance(error, scoring.NotFound) else 400) from None


@bp.post("/tables")
def create_table():
    body = json_body()
    module = game_module(body.get("game"))
    players = body.get("players")
    if players is None:
        raise ApiError(400, "missing", _("\"players\" is required: a list of names in seat order."), "players")
    if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
        raise ApiError(400, "wrong_type",
                       _("\"players\" must be a list of names in seat order, such as [\"Ana\", \"Bo\", \"Cy\"]."),
                       "players")
    name = get_text(body, "name", max_length=10_000) or ""
    stake = get_stake(body)
    currency = get_text(body, "currency", max_length=10_000) or ""
    notes = get_text(body, "notes", max_length=100_000) or ""
    preset = body.get("preset")
    if preset is not None and (not isinstance(preset, str) or preset not in module.PRESETS):
        raise ApiError(400, "unknown_preset",
                       _("Unknown preset %(value)s for this game. Choose one of: %(choices)s.",
                         value=_show(preset), choices=", ".join(module.PRESETS)), "preset")
    rules = body.get("rules")
    if rules is not None and not isinstance(rules, dict):
        raise ApiError(400, "wrong_type", _("\"rules\" must be an object of house-rule switches, not %(kind)s.",
                                            kind=_type_name(rules)), "rules")
    check_rule_values(rules)
    first_dealer = get_text(body, "first_dealer", max_length=10_000)
    scoring = _scoring()
    table = _scoring_call(scoring.create_table, game=game_name(module), name=name, players=players,
                          stake=str(stake if stake is not None else "0"), currency=currency, preset=preset,
                          rules=rules, notes=notes, first_dealer=first_dealer)
    return jsonify(table_json(table, with_token=True)), 201


@bp.get("/tables/<public_id>")
def get_table(public_id):
    return jsonify(table_json(_table_or_404(public_id)))


@bp.get("/tables/<public_id>/hands")
def list_hands(public_id):
    table = _table_or_404(public_id)
    args = {}
    for key in ("page", "per_page"):
        raw = request.args.get(key)
        if raw is not None:
            raw = raw.strip()
            if not re.fullmatch(r"[0-9]{1,9}", raw):  # not str.isdigit(): "²" is a digit to it
                raise ApiError(400, "wrong_type", _("\"%(key)s\" must be a whole number.", key=key), key)
            args[key] = int(raw)
    page = get_int(args, "page", minimum=1, maximum=MAX_PAGE) or 1
    per_page = get_int(args, "per_page", minimum=1, maximum=200) or 25
    scoring = _scoring()
    _active, total = scoring.hand_counts(table)
    hands, deltas = scoring.hands_page(table, page, per_page)
    names = {p.id: p.name for p in table.players}
    pages = max(1, -(-total // per_page))
    return jsonify(hands=[hand_json(h, names, deltas.get(h.id, {})) for h in hands], page=page,
                   per_page=per_page, total=total, pages=pages,
                   next=_url("api.list_hands", public_id=public_id, page=page + 1, per_page=per_page)
                   if page < pages else None)


@bp.get("/tables/<public_id>/hands/<int:number>")
def get_hand(public_id, number):
    table = _table_or_404(public_id)
    return jsonify(hand_json(_hand_or_404(table, number)))


def _hand_answer(table, hand, status: int = 200, **extra):
    scoring = _scoring()
    body = hand_json(hand)
    try:
        settlement = scoring.settlement_for(table, hand.facts)
        body["steps"] = [tr(s) for s in settlement.steps]
    except EngineError:
        body["steps"] = []
    body["table_revision"] = table.revision
    body["standings"] = table_json(table)["standings"]
    body.update(extra)
    return jsonify(body), status


@bp.post("/tables/<public_id>/hands")
def record_hand(public_id):
    body = json_body()
    table = _table_or_404(public_id)
    _require_token(table, body)
    facts = _facts_from(body)
    strict_numbers(facts, table.game)
    request_id = get_text(body, "request_id", max_length=MAX_REQUEST_ID)
    if request_id is None:
        request_id = (request.headers.get("Idempotency-Key") or "")[:MAX_REQUEST_ID] or secrets.token_urlsafe(16)
    expected = get_int(body, "expected_number", minimum=1, maximum=MAX_HAND_NUMBER)
    scoring = _scoring()
    existed = _request_seen(table, request_id)
    hand = _scoring_call(scoring.record_hand, table, facts, request_id=request_id, device=_device(body),
                         expected_number=expected)
    return _hand_answer(table, hand, 200 if existed else 201, created=not existed)


def _request_seen(table, request_id) -> bool:
    from ..extensions import db
    from ..models import Hand

    if not isinstance(request_id, str):
        return False
    return db.session.scalar(db.select(db.func.count(Hand.id)).where(
        Hand.table_id == table.id, Hand.request_id == request_id.strip())) > 0


@bp.route("/tables/<public_id>/hands/<int:number>", methods=["PUT", "PATCH"])
def edit_hand(public_id, number):
    body = json_body()
    table = _table_or_404(public_id)
    _require_token(table, body)
    _hand_or_404(table, number)
    facts = _facts_from(body)
    strict_numbers(facts, table.game)
    revision = _revision(body)
    scoring = _scoring()
    hand = _scoring_call(scoring.edit_hand, table, number, facts, revision=revision, device=_device(body))
    return _hand_answer(table, hand)


def _void_or_restore(public_id, number, action):
    body = json_body() if request.get_data(cache=True).strip() else {}
    table = _table_or_404(public_id)
    _require_token(table, body)
    _hand_or_404(table, number)
    revision = _revision(body)
    scoring = _scoring()
    function = scoring.void_hand if action == "void" else scoring.restore_hand
    hand = _scoring_call(function, table, number, revision=revision, device=_device(body))
    return _hand_answer(table, hand)


@bp.post("/tables/<public_id>/hands/<int:number>/void")
def void_hand(public_id, number):
    return _void_or_restore(public_id, number, "void")


@bp.post("/tables/<public_id>/hands/<int:number>/restore")
def restore_hand(public_id, number):
    return _void_or_restore(public_id, number, "restore")


@bp.post("/tables/<public_id>/undo")
def undo(public_id):
    body = json_body() if request.get_data(cache=True).strip() else {}
    table = _table_or_404(public_id)
    _require_token(table, body)
    scoring = _scoring()
    event = _scoring_call(scoring.undo_last, table, device=_device(body))
    if event is None:
        raise ApiError(409, "nothing_to_undo", _("There is nothing to undo at this table."), None)
    from ..extensions import db
    from ..models import HandEvent

    undone = db.session.get(HandEvent, event.undoes_id) if event.undoes_id else None
    return jsonify(undone={"kind": undone.kind if undone else None, "hand": event.hand.number},
                   hand=hand_json(event.hand), table=table_json(table))
