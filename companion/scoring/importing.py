"""Import: an exported document replayed into a new table through the writers of this package
(:func:`.tables.create_table`, :func:`.hands.record_hand_once`, :func:`.players.change_players`),
so that every imported hand passes the same engine checks as a new one."""
from __future__ import annotations

import json
import time
from datetime import datetime, timezone
from decimal import Decimal
from typing import NamedTuple

from sqlalchemy import delete, select

from ..engine import ENGINES
from ..engine.public import N_, EngineError
from ..extensions import db
from ..db.models import ACTIVE, VOID, Hand, HandEvent, RateBucket, Table, stake_text
from .errors_limits import DEVICE_MAX, NAME_MAX, NOTE
from .document import _TIME, FORMAT, FORMAT_VERSION, ImportRefused, _checksum, signed_here
from .hands import record_hand_once, void_hand
from .players import change_players
from .tables import archive_table, create_table, remove_tables, update_table
from .text import _clean_text, parse_stake
from .transactions import commit, lock_table

# An import is a replay. The file is read (size-capped by the view before the body is read, every
# string through the same text checks as the forms), the table is opened with create_table
# (the forms' limits on names, currency, notes, the engine's rules) and every hand is recorded
# through record_hand_once, the path of a new hand: the engine validates the facts and
# settles them; points and outcome are never read from the file. A hand whose points in the file
# differ from the engine's refuses the whole file, naming the hand. The file's history of changes
# cannot be checked (its before/after versions are claims), so it is not replayed: each hand's
# history starts with its "recorded" event (device "import"), followed, when the file had more, by
# one note holding the file's history of that hand as plain, size-capped text. The checksum is a
# corruption check (an unkeyed SHA-256 anyone can recompute); the signature (format 3, this server's
# HMAC) only says whether the file comes from here unchanged: the answer says so, or says plainly
# that the facts were checked against the rules but who played what is as the file says. Each hand's
# stake must agree with the file's own history of stakes (format 3), as its points must agree with
# its facts.
#
# Until the import answers, nobody knows the new table's id; when any hand is refused, the table
# and everything recorded for it are removed before the refusal is answered.

IMPORT_DEVICE = "import"
IMPORTED_HISTORY_MAX = 600  # characters of the file's history kept per hand, as inert text
IMPORTED_EVENTS_MAX = 20    # events of the file's history listed per hand

_DAMAGED = N_("This file is damaged or incomplete ({where}); nothing was imported.")


def _damaged(where: str) -> ImportRefused:
    return ImportRefused(N_(_DAMAGED.template, where=where), code="damaged")


def _need(ok: bool, where: str) -> None:
    if not ok:
        raise _damaged(where)


def _text_problem(value: str) -> bool:
    """NUL, lone surrogates and control characters (tab and newlines aside) are never stored."""
    return any((ord(ch) < 32 and ch not in "\t\n\r") or 0x7F <= ord(ch) < 0xA0 or 0xD800 <= ord(ch) <= 0xDFFF
               for ch in value)


def _check_strings(value, where: str, depth: int = 0) -> None:
    """Every string (and key) in the document is readable text; nesting is bounded."""
    _need(depth <= 32, where or "document")
    if isinstance(value, str):
        _need(not _text_problem(value), where or "document")
    elif isinstance(value, dict):
        for key, item in value.items():
            path = f"{where}.{key}" if where else str(key)
            _need(not _text_problem(str(key)), where or "document")
            _check_strings(item, path[:200], depth + 1)
    elif isinstance(value, list):
        for i, item in enumerate(value):
            _check_strings(item, f"{where}.{i}" if where else str(i), depth + 1)
    elif isinstance(value, float):
        _need(value == value and abs(value) != float("inf"), where or "document")


def _text_field(value, where: str, maximum: int, *, optional: bool = False, empty: bool = True) -> str | None:
    if value is None and optional:
        return None
    _need(isinstance(value, str) and len(value) <= maximum and (empty or bool(value.strip())), where)
    return value


def _stake_field(value, where: str) -> str:
    """A stake as exported: the engine's stake parser decides (points only, 0, is allowed)."""
    _need(isinstance(value, str) and len(value) <= 32, where)
    try:
        return stake_text(parse_stake(value))
    except EngineError:
        raise _damaged(where) from None


def _time_field(value, where: str) -> datetime:
    _need(isinstance(value, str), where)
    try:
        return datetime.strptime(value, _TIME).replace(tzinfo=timezone.utc)
    except ValueError:
        raise _damaged(where) from None


def _read_document(data: bytes | str) -> dict:
    if isinstance(data, bytes):
        try:
            data = data.decode("utf-8-sig")
        except UnicodeDecodeError:
            raise ImportRefused(N_("This file is not a table exported from Card Table Companion (it is not "
                                   "text); nothing was imported."), code="foreign") from None
    try:
        doc = json.loads(data, parse_constant=_no_constant, parse_float=Decimal)
    except (ValueError, RecursionError, ArithmeticError):
        raise ImportRefused(N_("This file is damaged: it is not complete JSON. Export the table again; "
                               "nothing was imported."), code="damaged") from None
    if not isinstance(doc, dict) or doc.get("format") != FORMAT:
        raise ImportRefused(N_("This file is not a table exported from Card Table Companion; nothing was "
                               "imported."), code="foreign")
    version = doc.get("format_version")
    if not isinstance(version, int) or isinstance(version, bool) or version < 1:
        raise _damaged("format_version")
    if version > FORMAT_VERSION:
        raise ImportRefused(N_("This file was written by a newer version of the app (format {version}); this "
                               "server reads up to format {supported}. Update the app first; nothing was "
                               "imported.", version=version, supported=FORMAT_VERSION), code="newer_version")
    _check_strings(doc, "")
    if any(isinstance(x, Decimal) for x in _leaves(doc)):
        raise _damaged("document")  # an export holds whole numbers only
    if doc.get("checksum") != _checksum(doc):
        raise ImportRefused(N_("This file is damaged: its contents changed after it was exported (the "
                               "checksum does not match); nothing was imported."), code="damaged")
    return doc


def _no_constant(name: str):
    raise ValueError(name)


def _leaves(value):
    if isinstance(value, dict):
        for item in value.values():
            yield from _leaves(item)
    elif isinstance(value, list):
        for item in value:
            yield from _leaves(item)
    else:
        yield value



class _Plan(NamedTuple):
    """What the file asks for, checked for shape: the table's arguments and the hands in order."""
    table: dict
    stake: str
    archived: bool
    hands: list
    history: dict
    seated: list = []  # the players seated at the end, in seat order
    left: dict = {}  # {name: former seat} of the players who left (issue 21)


def _plan_players(players) -> tuple[list, dict]:
    """(seated names in seat order, {name: former seat} of those who left): the seated first, with
    seats 0…n−1, then those who left (seat null)."""
    _need(isinstance(players, list) and len(players) <= 64, "players")
    seated = [p for p in players if not (isinstance(p, dict) and "seat" in p and p["seat"] is None)]
    _need(len(seated) <= 8, "players")
    names, left = [], {}
    for i, p in enumerate(players):
        gone = i >= len(seated)
        _need(isinstance(p, dict) and p.get("seat") == (None if gone else i), f"players.{i}")
        name = _text_field(p.get("name"), f"players.{i}.name", 40, empty=False)
        if gone:
            former = p.get("former_seat")
            _need(former is None or (isinstance(former, int) and not isinstance(former, bool) and 0 <= former < 8),
                  f"players.{i}.former_seat")
            left[name] = former
        else:
            names.append(name)
    return names, left


def _replay_players(table: Table, names, number: int) -> None:
    """Seat ``names`` (a hand's players, or the players at the end) before replaying on."""
    if not isinstance(names, list) or names == table.player_names:
        return
    try:
        change_players(table, names, device=IMPORT_DEVICE)
    except EngineError as error:
        raise _refused_hand(number, error) from None


def _plan(doc: dict) -> _Plan:
    t = doc.get("table")
    _need(isinstance(t, dict), "table")
    game = t.get("game")
    if not isinstance(game, str) or game not in ENGINES:  # the registry says which games this server knows
        raise ImportRefused(N_("This file is for a game this server does not know ('{game}'); nothing was "
                               "imported.", game=str(game)[:40]), code="foreign")
    rules = t.get("rules")
    _need(isinstance(rules, dict), "table.rules")
    names, left = _plan_players(doc.get("players"))
    stake = _stake_field(t.get("stake"), "table.stake")
    hands = doc.get("hands")
    _need(isinstance(hands, list), "hands")
    planned = []
    for i, h in enumerate(hands):
        where = f"hands.{i}"
        _need(isinstance(h, dict), where)
        _need(h.get("number") == i + 1 and not isinstance(h.get("number"), bool), f"{where}.number")
        _need(h.get("status") in (ACTIVE, VOID), f"{where}.status")
        _need(isinstance(h.get("facts"), dict), f"{where}.facts")
        points = h.get("points")
        _need(isinstance(points, dict) and all(isinstance(v, int) and not isinstance(v, bool)
                                               for v in points.values()), f"{where}.points")
        if doc["format_version"] >= 2:  # every hand says its stake (a version 1 file: the table's)
            _need("stake" in h, f"{where}.stake")
        planned.append({"number": i + 1, "status": h["status"], "facts": h["facts"], "points": points,
                        "stake": _stake_field(h["stake"], f"{where}.stake") if "stake" in h else stake})
    if doc["format_version"] >= 3:
        _check_stakes(doc.get("stakes"), planned)
    events = doc.get("events")
    _need(isinstance(events, list), "events")
    history: dict[int, list[str]] = {}
    for i, e in enumerate(events):
        where = f"events.{i}"
        _need(isinstance(e, dict) and e.get("hand") in range(1, len(planned) + 1)
              and not isinstance(e.get("hand"), bool) and e.get("kind") in _EVENT_KINDS, where)
        when = _time_field(e.get("created_at"), f"{where}.created_at")
        device = e.get("device") if isinstance(e.get("device"), str) else ""
        device = " ".join(device.split())[:DEVICE_MAX]
        line = f"{when:%Y-%m-%d %H:%M} UTC {e['kind']}" + (f" ({device})" if device else "")
        history.setdefault(e["hand"], []).append(line)
    archived = t.get("archived_at") is not None
    if archived:
        _time_field(t["archived_at"], "table.archived_at")
    first = planned[0]["facts"].get("players") if planned else None  # who sat at the first hand
    table = {"game": game, "name": t.get("name"), "players": first if isinstance(first, list) else names,
             "currency": t.get("currency") or "", "preset": t.get("preset"), "rules": rules,
             "notes": t.get("notes") or "", "first_dealer": t.get("first_dealer")}
    return _Plan(table, stake, archived, planned, history, names, left)


_EVENT_KINDS = ("create", "edit", "void", "restore", "undo", "note")


def _check_stakes(stakes, planned: list) -> None:
    """Stakes are checked like points: each hand's stake must be the one the file's own stake history
    (the table's stake changes, from which hand on) gives it; else the file is refused naming the hand."""
    _need(isinstance(stakes, list) and len(stakes) <= len(planned), "stakes")
    history = []
    for i, entry in enumerate(stakes):
        where = f"stakes.{i}"
        _need(isinstance(entry, dict) and set(entry) == {"from_hand", "stake"}, where)
        start = entry["from_hand"]
        _need(isinstance(start, int) and not isinstance(start, bool) and 1 <= start <= len(planned)
              and (not history or start > history[-1][0]), f"{where}.from_hand")
        history.append((start, _stake_field(entry["stake"], f"{where}.stake")))
    _need(not planned or (history and history[0][0] == 1), "stakes")
    expected = None
    for hand in planned:
        while history and history[0][0] == hand["number"]:
            expected = history.pop(0)[1]
        if hand["stake"] != expected:
            raise ImportRefused(N_("Hand {number}: its stake in this file ({stake}) is not the stake the file's own "
                                   "history of stakes gives it ({expected}); nothing was imported.",
                                   number=hand["number"], stake=hand["stake"], expected=expected),
                                code="stake_differs", field=f"hands.{hand['number'] - 1}.stake")


def _table_refused(error: EngineError) -> ImportRefused:
    return ImportRefused(N_("This file's table cannot be opened: {reason} Nothing was imported.",
                            reason=error.message), code=error.code, field=f"table.{error.field or ''}".rstrip("."))


def _refused_hand(number: int, error: EngineError) -> ImportRefused:
    return ImportRefused(N_("Hand {number} in this file cannot be recorded: {reason} Nothing was imported.",
                            number=number, reason=error.message), code="bad_hand", field=f"hands.{number - 1}")


def _replay_hand(table: Table, planned: dict) -> None:
    number = planned["number"]
    if planned["stake"] != table.stake_text:
        update_table(table, stake=planned["stake"])
    try:
        hand, new = record_hand_once(table, planned["facts"], request_id=f"import-{number}",
                                     device=IMPORT_DEVICE, as_recorded=True)  # issue 29: earlier rules
    except EngineError as error:
        raise _refused_hand(number, error) from None
    _need(new and hand.number == number, f"hands.{number - 1}.number")
    names = {p.id: p.name for p in table.players}
    settled = {names[d.player_id]: int(d.points) for d in hand.deltas}
    if {k: v for k, v in planned["points"].items() if v} != {k: v for k, v in settled.items() if v}:
        raise ImportRefused(N_("Hand {number}: the points in this file are not what the rules give for its "
                               "facts ({points}); nothing was imported.", number=number,
                               points=", ".join(f"{n} {v:+d}" for n, v in settled.items())),
                            code="points_differ", field=f"hands.{number - 1}.points")
    if planned["status"] == VOID:
        void_hand(table, number, revision=hand.revision, device=IMPORT_DEVICE)


def _keep_former_seats(table: Table, left: dict) -> None:
    """The seat each player who left had left, as the file says (the replay may have seen them leave
    from another seat, when they changed seats and left between the same two hands)."""
    changed = [p for p in table.players if not p.seated and p.name in left and p.former_seat != left[p.name]]
    if changed:
        lock_table(table)
        for player in changed:
            player.former_seat = left[player.name]
        commit()


def _keep_history(table: Table, history: dict[int, list[str]]) -> None:
    """The file's own history of each hand, as one note of plain text (when it says more than "recorded")."""
    notes = {n: lines for n, lines in history.items() if len(lines) > 1}
    if not notes:
        return
    lock_table(table)
    hands = dict(db.session.execute(select(Hand.number, Hand.id).where(Hand.table_id == table.id)).all())
    for number, lines in notes.items():
        text = "; ".join(lines[:IMPORTED_EVENTS_MAX]) + ("; …" if len(lines) > IMPORTED_EVENTS_MAX else "")
        db.session.add(HandEvent(table_id=table.id, hand_id=hands[number], kind=NOTE, before=None,
                                 after={"imported": text[:IMPORTED_HISTORY_MAX]}, hand_revision=1,
                                 device=IMPORT_DEVICE))
    commit()


class ImportReport(NamedTuple):
    """What an import says about the file besides the table: whether this server signed it, and the
    sentences (engine Text) the faces show."""
    signed: bool
    notes: tuple


def _report(doc: dict, plan: _Plan) -> ImportReport:
    notes = []
    signed = signed_here(doc)
    if signed:
        when = doc["table"].get("updated_at")
        try:
            when = _time_field(when, "table.updated_at").strftime("%Y-%m-%d %H:%M UTC")
        except ImportRefused:
            when = "?"
        notes.append(N_("This file is unchanged since it was exported from here: the table as it was on {date}.",
                        date=when))
    else:
        notes.append(N_("This file was not exported from this server, or was changed since: its facts were checked "
                        "against the rules, but who played what is as the file says."))
    if doc["format_version"] == 1:
        notes.append(N_("This file (format 1) gives no stake per hand: every hand was recorded at the table's "
                        "stake in the file, {stake} per point.", stake=plan.stake))
    elif doc["format_version"] == 2:
        notes.append(N_("This file (format 2) has no history of stakes: each hand was recorded at the stake the "
                        "file gives it."))
    return ImportReport(signed, tuple(notes))


def copy_name(name: str, mark: str, limit: int = 80) -> str:
    """``name (mark)`` within ``limit`` characters (the name shortened when needed)."""
    suffix = f" ({mark})"
    return name[:max(1, limit - len(suffix))].rstrip() + suffix[:limit - 1]


def import_json(data: bytes | str, mark: str | None = None) -> Table:
    """Recreate an exported table under a new public id and edit token by replaying it: the table is
    opened and every hand recorded as a new hand is (the engine validates and settles each; a hand
    whose points in the file differ is refused by number). A damaged, foreign, newer-version or
    forged file raises :class:`ImportRefused` and leaves nothing stored. ``mark`` (such as
    "imported 1 Dec", in the face's language) is added to the copy's name so that no list shows the
    copy exactly like its original."""
    doc = _read_document(data)
    plan = _plan(doc)
    report = _report(doc, plan)
    try:
        # the name is judged by the one rule of every door (page, API, import) before the mark is
        # added: a name too long for a new table is refused here too, never cut to fit
        plan.table["name"] = _clean_text(plan.table["name"], "name", NAME_MAX, required=True, what="name")
        if mark:
            plan.table["name"] = copy_name(plan.table["name"], mark)
        table = create_table(stake=plan.hands[0]["stake"] if plan.hands else plan.stake, **plan.table)
    except EngineError as error:
        raise _table_refused(error) from None
    marker = f"{IMPORTING}{table.id}"  # if this worker dies mid-replay, purge_unfinished_imports cleans up
    db.session.add(RateBucket(key=marker, window_start=int(time.time()), count=1))
    db.session.commit()
    try:
        for planned in plan.hands:
            _replay_players(table, planned["facts"].get("players"), planned["number"])  # players came and went
            _replay_hand(table, planned)
        _replay_players(table, plan.seated, len(plan.hands))
        _keep_former_seats(table, plan.left)
        if plan.stake != table.stake_text:
            update_table(table, stake=plan.stake)
        _keep_history(table, plan.history)
        if plan.archived:
            archive_table(table)
    except BaseException:
        db.session.rollback()
        remove_tables([table.id])
        raise
    finally:
        db.session.execute(delete(RateBucket).where(RateBucket.key == marker))
        db.session.commit()
    table.import_report = report  # not stored: what the answer to this import says about the file
    return table


IMPORTING = "importing:"
UNFINISHED_IMPORT_SECONDS = 3600


def purge_unfinished_imports(now: float | None = None) -> int:
    """Remove the tables of imports that never finished (their worker was killed mid-replay: nobody
    ever got their id) an hour after they began. Returns how many."""
    cutoff = int(now if now is not None else time.time()) - UNFINISHED_IMPORT_SECONDS
    keys = list(db.session.scalars(select(RateBucket.key).where(RateBucket.key.like(IMPORTING + "%"),
                                                                RateBucket.window_start < cutoff)))
    ids = [int(k[len(IMPORTING):]) for k in keys if k[len(IMPORTING):].isdigit()]
    remove_tables(ids)
    if keys:
        db.session.execute(delete(RateBucket).where(RateBucket.key.in_(keys)))
        db.session.commit()
    return len(ids)


def import_document(data: bytes | str) -> Table:
    """Recreate an exported table (the API's door): :func:`import_json` without a name mark."""
    return import_json(data)
