"""A whole table as one JSON document (export): streamed in chunks with bounded memory, the same
table always giving the same bytes, a SHA-256 checksum against corruption and a signature made with
the server's secret (HMAC-SHA256 under a key derived from SECRET_KEY) that says where it comes from."""
from __future__ import annotations

import hashlib
import hmac
import json
from datetime import datetime

from flask import current_app
from sqlalchemy import select

from ..engine.public import EngineError
from ..extensions import db
from ..db.models import Hand, HandDelta, HandEvent, Player, Table
from .errors_limits import as_utc

FORMAT = "card-table-companion/table"
# 2: each hand carries the stake it was played at, the table when it was archived. A version 1 file
# (every hand at the table's stake) still imports.
# 3: the table's stake history ("stakes": each change, from which hand on), which every hand's stake
# must agree with, and a signature (this server's HMAC of the content).
FORMAT_VERSION = 3
SIGNATURE = "hmac-sha256:"
IMPORT_MAX_BYTES = 2 * 1024 * 1024  # the largest table file (config IMPORT_MAX_BYTES)
_TIME = "%Y-%m-%dT%H:%M:%S.%fZ"


class ImportRefused(EngineError):
    """The file cannot be imported (damaged, foreign, newer); nothing was stored."""

    default_code = "import_refused"


def _iso(value: datetime | None) -> str | None:
    value = as_utc(value)
    return value.strftime(_TIME) if value else None


def _canonical(doc) -> bytes:
    return json.dumps(doc, ensure_ascii=False, sort_keys=True, indent=1, separators=(",", ": ")).encode()


def _content(doc: dict) -> bytes:
    """What the checksum and the signature are made of: the canonical document without either."""
    return _canonical({k: v for k, v in doc.items() if k not in ("checksum", "signature")})


def _checksum(doc: dict) -> str:
    return "sha256:" + hashlib.sha256(_content(doc)).hexdigest()


def _signing_key() -> bytes:
    """A key for export signatures only, derived from the server's secret (never the secret itself,
    so that a signature tells nothing about the key of the edit tokens)."""
    secret = current_app.config["SECRET_KEY"]
    secret = secret.encode() if isinstance(secret, str) else bytes(secret)
    return hmac.new(secret, b"card-table-companion:export-signature:1", hashlib.sha256).digest()


def _signer():
    return hmac.new(_signing_key(), digestmod=hashlib.sha256)


def signed_here(doc: dict) -> bool:
    """Was this document exported by this server (same secret) and left unchanged since?"""
    given = doc.get("signature")
    if not isinstance(given, str) or not given.startswith(SIGNATURE):
        return False
    signer = _signer()
    signer.update(_content(doc))
    return hmac.compare_digest(given, SIGNATURE + signer.hexdigest())


def in_this_session(table: Table) -> Table:
    """A streamed answer runs after its view returned, in a new application context (and database
    session): the table is read again there."""
    return db.session.get(Table, table.id)


def hands_in_batches(table: Table, batch: int = 500):
    """(hand, {player id: points}) in hand order, ``batch`` hands per query pair: memory stays bounded
    whatever the number of hands."""
    last = 0
    while True:
        hands = list(db.session.scalars(select(Hand).where(Hand.table_id == table.id, Hand.number > last)
                                        .order_by(Hand.number).limit(batch)))
        if not hands:
            return
        points: dict[int, dict[int, int]] = {h.id: {} for h in hands}
        for hand_id, player_id, value in db.session.execute(
                select(HandDelta.hand_id, HandDelta.player_id, HandDelta.points)
                .where(HandDelta.hand_id.in_(list(points)))):
            points[hand_id][player_id] = int(value)
        for hand in hands:
            yield hand, points[hand.id]
        last = hands[-1].number
        for hand in hands:
            db.session.expunge(hand)


def _events_in_batches(table: Table, batch: int = 1000):
    last = 0
    while True:
        events = list(db.session.scalars(select(HandEvent).where(HandEvent.table_id == table.id, HandEvent.id > last)
                                         .order_by(HandEvent.id).limit(batch)))
        if not events:
            return
        yield from events
        last = events[-1].id
        for event in events:
            db.session.expunge(event)


def _table_part(table: Table) -> dict:
    return {"game": table.game, "name": table.name, "stake": table.stake_text, "currency": table.currency,
            "preset": table.preset, "rules": table.rules, "rules_version": table.rules_version,
            "notes": table.notes, "first_dealer": table.first_dealer, "created_at": _iso(table.created_at),
            "updated_at": _iso(table.updated_at), "revision": table.revision, "hand_seq": table.hand_seq,
            "archived_at": _iso(table.archived_at)}


def _hand_part(hand: Hand, points: dict[int, int], names: dict[int, str]) -> dict:
    return {"number": hand.number, "status": hand.status, "facts": hand.facts, "outcome": hand.outcome,
            "next_dealer": hand.next_dealer, "points": {names[p]: v for p, v in points.items()},
            "request_id": hand.request_id, "stake": hand.stake_text, "revision": hand.revision,
            "created_at": _iso(hand.created_at), "updated_at": _iso(hand.updated_at)}


def _nested(value, depth: int) -> str:
    """``value`` as it appears ``depth`` levels deep in :func:`_canonical`'s output (strings in JSON
    never hold a raw newline, so re-indenting the lines is exact)."""
    return json.dumps(value, ensure_ascii=False, sort_keys=True, indent=1,
                      separators=(",", ": ")).replace("\n", "\n" + " " * depth)


def export_chunks(table: Table):
    """The export document as UTF-8 chunks, streamed with bounded memory: the document's keys in
    sorted order (the bytes :func:`_canonical` gives for it), the signature and the checksum added
    last. The checksum is SHA-256 over the canonical document without them (a check against
    corruption anyone can recompute); the signature is this server's HMAC of the same bytes (only a
    server holding the same secret can make it)."""
    table = in_this_session(table)
    names = {p.id: p.name for p in table.players}
    digest = hashlib.sha256()
    signer = _signer()
    numbers: dict[int, int] = {}
    for hand_id, number in db.session.execute(select(Hand.id, Hand.number).where(Hand.table_id == table.id)):
        numbers[hand_id] = number

    def out(text: str) -> bytes:
        data = text.encode()
        digest.update(data)
        signer.update(data)
        return data

    head = {"table": _table_part(table), "players": [_player_entry(p) for p in table.players]}
    yield out('{\n "events": [')
    position: dict[int, int] = {}
    for i, e in enumerate(_events_in_batches(table)):
        position[e.id] = i
        item = {"hand": numbers[e.hand_id], "kind": e.kind, "before": e.before, "after": e.after,
                "hand_revision": e.hand_revision,
                "undoes": position.get(e.undoes_id) if e.undoes_id is not None else None,
                "device": e.device, "created_at": _iso(e.created_at)}
        yield out(("," if i else "") + "\n  " + _nested(item, 2))
    yield out(("\n ]" if position else "]") + f',\n "format": {json.dumps(FORMAT)},\n "format_version": '
              f'{FORMAT_VERSION},\n "hands": [')
    count = 0
    stakes: list[dict] = []  # the stake history: one entry per change, from the hands as they stream
    for hand, points in hands_in_batches(table):
        yield out(("," if count else "") + "\n  " + _nested(_hand_part(hand, points, names), 2))
        count += 1
        if not stakes or stakes[-1]["stake"] != hand.stake_text:
            stakes.append({"from_hand": hand.number, "stake": hand.stake_text})
    yield out(("\n ]" if count else "]") + ',\n "players": ' + _nested(head["players"], 1)
              + ',\n "stakes": ' + _nested(stakes, 1) + ',\n "table": ' + _nested(head["table"], 1))
    digest.update(b"\n}")
    signer.update(b"\n}")
    yield (f',\n "signature": "{SIGNATURE}{signer.hexdigest()}",\n "checksum": "sha256:{digest.hexdigest()}"'
           '\n}\n').encode()


def stake_history(stakes: list) -> list[dict]:
    """The stake history a list of hand stakes gives: one entry per change, from which hand on."""
    history: list[dict] = []
    for number, stake in enumerate(stakes, 1):
        if not history or history[-1]["stake"] != stake:
            history.append({"from_hand": number, "stake": stake})
    return history


def export_document(table: Table) -> dict:
    """The whole table as one JSON-ready document: table, rules, players, hands (facts, status, points,
    revisions) and the history of changes. No public id and no edit token: an import gets new ones."""
    return json.loads(b"".join(export_chunks(table)))


def export_json(table: Table) -> bytes:
    """The export document as UTF-8 JSON (the same table always gives the same bytes)."""
    return b"".join(export_chunks(table))


def _player_entry(player: Player) -> dict:
    """A player in the file; one who left (issue 21) has no seat and says which seat they left."""
    if player.seated:
        return {"seat": player.seat, "name": player.name}
    return {"seat": None, "name": player.name, "former_seat": player.former_seat}
