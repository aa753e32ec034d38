"""The CSV export: one row per hand and player, streamed; every text cell safe from spreadsheet
formulas."""
from __future__ import annotations

import csv
import io
from decimal import Decimal

from ..db.models import Hand, Table
from ..scoring.errors_limits import engine_for, table_rules
from ..scoring.document import hands_in_batches, in_this_session

PLACES = ("头游", "二游", "三游", "末游")


def _player_facts(table: Table, hand: Hand, name: str) -> list:
    """What the facts say about one player in one hand, as translatable phrases: which, and in
    what words, the engine's description of the game's facts says (no game is named here)."""
    description = engine_for(table.game).describe_facts(table_rules(table))
    return description.phrases(hand.facts or {}, name, (hand.outcome or {}).get("winners") or ())


_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def csv_text(value: str) -> str:
    """A text cell a spreadsheet never runs as a formula (OWASP CSV injection): a cell starting with
    = + - @, a tab or a carriage return gets a leading apostrophe. Numbers are written as numbers."""
    return "'" + value if value.startswith(_FORMULA_START) else value


def export_csv_chunks(table: Table, *, labels: dict, translate=str):
    """One row per hand and each player who played it (a player absent from a hand has no row):
    hand, status, player, points, money, what the facts say about
    the player. UTF-8 with a byte-order mark, so spreadsheets keep Chinese names. Streamed, a few
    hundred hands at a time (memory stays bounded); every text cell through :func:`csv_text`."""
    table = in_this_session(table)
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\r\n")
    money = labels["money"] + (f" ({table.currency})" if table.currency else "")
    buffer.write("\ufeff")
    writer.writerow([csv_text(x) for x in (labels["hand"], labels["status"], labels["player"], labels["points"],
                                           money, labels["facts"])])
    yield buffer.getvalue().encode("utf-8")  # the first bytes go out before any hand is read
    buffer.seek(0)
    buffer.truncate()
    players = list(table.players)
    words: dict[str, str] = {}  # a few hundred distinct phrases on any table: each translated once

    def translate_once(phrase) -> str:
        key = str(phrase)
        if key not in words:
            words[key] = translate(phrase)
        return words[key]

    for hand, points in hands_in_batches(table):
        for player in players:  # the hand's own players only: nobody absent reads as "played, 0"
            if player.id not in points:
                continue
            value = points[player.id]
            amount = hand.stake * value
            writer.writerow([hand.number, csv_text(labels[hand.status]), csv_text(player.name), value,
                             format(amount.normalize() if amount else Decimal(0), "f"),
                             csv_text("; ".join(translate_once(x) for x in _player_facts(table, hand, player.name)))])
        if buffer.tell() >= 32 * 1024:  # about 32 KiB a chunk
            yield buffer.getvalue().encode("utf-8")
            buffer.seek(0)
            buffer.truncate()
    yield buffer.getvalue().encode("utf-8")


def export_csv(table: Table, *, labels: dict, translate=str) -> bytes:
    """The whole CSV at once (tests and the CLI); the pages stream :func:`export_csv_chunks`."""
    return b"".join(export_csv_chunks(table, labels=labels, translate=translate))
