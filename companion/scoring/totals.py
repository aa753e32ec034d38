"""Points and money per player: ONE aggregate grouped by player and stake (the one place money is
computed), the standings, whether a table plays for money, the stakes its hands were played at."""
from __future__ import annotations

from decimal import Decimal
from typing import NamedTuple

from sqlalchemy import func, select

from ..extensions import db
from ..db.models import ACTIVE, Hand, HandDelta, Table


class Standing(NamedTuple):
    player_id: int
    name: str
    seat: int | None  # None: the player left (their total stays)
    points: int
    money: Decimal


def points_and_money(table: Table) -> dict[int, tuple[int, Decimal]]:
    """{player id: (points, money)} of the table's players: see :func:`player_totals`."""
    return player_totals(Hand.table_id == table.id)


def player_totals(*where) -> dict[int, tuple[int, Decimal]]:
    """{player id: (points, money)} over the active hands matching ``where``: ONE SQL aggregate,
    grouped by player and by the stake the hands were played at (a handful of rows), each group's
    points × its stake added up exactly in decimals. The one place money is computed."""
    totals: dict[int, tuple[int, Decimal]] = {}
    for player_id, stake, points in db.session.execute(
            select(HandDelta.player_id, Hand.stake_text, func.sum(HandDelta.points))
            .join(Hand, Hand.id == HandDelta.hand_id)
            .where(Hand.status == ACTIVE, *where)
            .group_by(HandDelta.player_id, Hand.stake_text)):
        old_points, old_money = totals.get(player_id, (0, Decimal(0)))
        totals[player_id] = (old_points + int(points), old_money + Decimal(stake or "0") * int(points))
    return totals


def standings(table: Table) -> list[Standing]:
    """Totals per player, highest points first (then seat): see :func:`points_and_money`. The
    players seated now and those who left having played a counting hand (they keep their total)."""
    totals = points_and_money(table)
    rows = [Standing(p.id, p.name, p.seat if p.seated else None, *totals.get(p.id, (0, Decimal(0))))
            for p in table.players if p.seated or p.id in totals]
    return sorted(rows, key=lambda r: (-r.points, r.seat is None, r.seat or 0))


def in_money(table: Table) -> bool:
    """Does the table play for money: a stake now, or any counting hand played at one?"""
    if table.stake:
        return True
    return db.session.scalar(select(Hand.id).where(Hand.table_id == table.id, Hand.stake_text != "0")
                             .limit(1)) is not None


class StakeChange(NamedTuple):
    from_hand: int  # the first hand played at this stake
    stake: Decimal


def stake_changes(table: Table) -> list[StakeChange]:
    """The stakes the table's hands were played at, in hand order: one row per change (a window
    function; as many rows as the stake changed, whatever the number of hands)."""
    previous = func.lag(Hand.stake_text).over(order_by=Hand.number)
    sub = (select(Hand.number.label("number"), Hand.stake_text.label("stake"), previous.label("previous"))
           .where(Hand.table_id == table.id).subquery())
    rows = db.session.execute(select(sub.c.number, sub.c.stake)
                              .where((sub.c.previous.is_(None)) | (sub.c.previous != sub.c.stake))
                              .order_by(sub.c.number))
    return [StakeChange(int(n), Decimal(s or "0")) for n, s in rows]
