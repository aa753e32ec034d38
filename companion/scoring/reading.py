"""Reading a table's hands as the pages list them: counts, one page of hands with their deltas, the
next dealer, the history of changes."""
from __future__ import annotations

from typing import Iterable

from sqlalchemy import desc, func, select

from ..extensions import db
from ..db.models import ACTIVE, Hand, HandDelta, HandEvent, Table
from .players import seated_successor


def hand_counts(table: Table) -> tuple[int, int]:
    """(active hands, all hands including void)."""
    row = db.session.execute(
        select(func.count(Hand.id), func.count(Hand.id).filter(Hand.status == ACTIVE))
        .where(Hand.table_id == table.id)).one()
    return int(row[1]), int(row[0])


def hands_page(table: Table, page: int = 1, per_page: int = 25):
    """(hands newest first, {hand_id: {player_id: points}}) for one page; deltas in ONE query."""
    page = max(1, page)
    hands = list(db.session.scalars(
        select(Hand).where(Hand.table_id == table.id).order_by(desc(Hand.number))
        .limit(per_page).offset((page - 1) * per_page)))
    deltas: dict[int, dict[int, int]] = {h.id: {} for h in hands}
    if hands:
        for hand_id, player_id, pts in db.session.execute(
                select(HandDelta.hand_id, HandDelta.player_id, HandDelta.points)
                .where(HandDelta.hand_id.in_(list(deltas)))):
            deltas[hand_id][player_id] = pts
    return hands, deltas


def current_dealer(table: Table) -> str | None:
    """The dealer (干瞪眼) / banker (大冶打拱) of the next hand: the engine's next dealer of the
    latest counting hand, else the table's first dealer."""
    name = db.session.scalar(
        select(Hand.next_dealer).where(Hand.table_id == table.id, Hand.status == ACTIVE,
                                       Hand.next_dealer.is_not(None))
        .order_by(desc(Hand.number)).limit(1))
    return seated_successor(table, name or table.first_dealer)


def history(table: Table, hand: Hand | None = None, limit: int | None = None, offset: int = 0) -> list[HandEvent]:
    """Events newest first, for the whole table or one hand (``limit`` and ``offset``: one page)."""
    query = select(HandEvent).where(HandEvent.table_id == table.id)
    if hand is not None:
        query = query.where(HandEvent.hand_id == hand.id)
    query = query.order_by(desc(HandEvent.id))
    if limit:
        query = query.limit(limit)
    if offset:
        query = query.offset(offset)
    return list(db.session.scalars(query))


def hand_numbers(table: Table, hand_ids: Iterable[int] | None = None) -> dict[int, int]:
    """{hand id: hand number} for the table's hands (only ``hand_ids`` when given: one page's)."""
    query = select(Hand.id, Hand.number).where(Hand.table_id == table.id)
    if hand_ids is not None:
        query = query.where(Hand.id.in_(list(set(hand_ids))))
    return dict(db.session.execute(query).all())


def undone_event(event: HandEvent) -> HandEvent | None:
    """The change an ``undo`` event undid."""
    return db.session.get(HandEvent, event.undoes_id) if event.undoes_id else None


def latest_hand_number(table: Table) -> int | None:
    """The number of the table's latest hand (the one a ruling is attached to by default)."""
    return table.hand_seq or None
