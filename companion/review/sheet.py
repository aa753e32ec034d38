"""The score sheet (each hand's delta and running total, one statement per page) and the chart's
series (running totals, thinned in SQL on a long table)."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import NamedTuple

from sqlalchemy import case, func, or_, select

from ..extensions import db
from ..db.models import ACTIVE, Hand, HandDelta, Table

SHEET_PER_PAGE = 50
CHART_POINTS = 120  # the chart shows at most this many hands (evenly spread, the last one always)


# Score sheet ---------------------------------------------------------------------------------


@dataclass
class SheetRow:
    number: int
    status: str
    cells: dict[int, tuple[int, int]] = field(default_factory=dict)  # player id -> (delta, running total)

    @property
    def active(self) -> bool:
        return self.status == ACTIVE


def hand_total(table: Table) -> int:
    """All hands (void included): the score sheet shows every hand."""
    return int(db.session.scalar(select(func.count(Hand.id)).where(Hand.table_id == table.id)) or 0)


def sheet_page(table: Table, page: int = 1, per_page: int = SHEET_PER_PAGE) -> list[SheetRow]:
    """One page of the score sheet, oldest hand first: each cell the hand's delta and the running
    total after it, in ONE statement. The running totals are a window function,
    ``SUM(points) OVER (PARTITION BY player ORDER BY hand number)`` over the page's hands (void hands
    counting 0), started from each player's total of the active hands before the page (one SUM), so
    they are right on every page without reading the earlier pages' rows."""
    page = max(1, int(page))
    numbers = (select(Hand.number.label("number")).where(Hand.table_id == table.id).order_by(Hand.number)
               .limit(per_page).offset((page - 1) * per_page).subquery("review_page"))
    low = select(func.min(numbers.c.number)).scalar_subquery()
    high = select(func.max(numbers.c.number)).scalar_subquery()
    before = (select(HandDelta.player_id.label("player_id"), func.sum(HandDelta.points).label("points"))
              .join(Hand, Hand.id == HandDelta.hand_id)
              .where(Hand.table_id == table.id, Hand.status == ACTIVE, Hand.number < low)
              .group_by(HandDelta.player_id).subquery("review_before"))
    counted = case((Hand.status == ACTIVE, HandDelta.points), else_=0)
    running = (func.sum(counted).over(partition_by=HandDelta.player_id, order_by=Hand.number)
               + func.coalesce(before.c.points, 0))
    query = (select(Hand.number, Hand.status, HandDelta.player_id, HandDelta.points, running.label("running"))
             .join(Hand, Hand.id == HandDelta.hand_id)
             .outerjoin(before, before.c.player_id == HandDelta.player_id)
             .where(Hand.table_id == table.id, Hand.number >= low, Hand.number <= high)
             .order_by(Hand.number, HandDelta.player_id))
    rows: dict[int, SheetRow] = {}
    for r in db.session.execute(query):
        row = rows.get(r.number)
        if row is None:
            row = rows[r.number] = SheetRow(r.number, r.status)
        row.cells[r.player_id] = (int(r.points), int(r.running))
    return list(rows.values())


# Chart ---------------------------------------------------------------------------------------


class ChartSeries(NamedTuple):
    numbers: list[int]  # hand numbers, 0 first (before the first hand)
    series: dict[str, list[int | None]]  # player name -> running totals, one per number; None: not at that hand
    thinned: bool  # True when only some of the active hands are drawn


def chart_series(table: Table, points: int = CHART_POINTS) -> ChartSeries:
    """Running totals per player over the active hands, each value at its hand's number: a player
    has a value only at the hands they played (None elsewhere: the line starts at the hand where
    they joined and stops where they left); those who played the first hand start from 0 before
    it. Long tables are thinned in SQL to about ``points`` hands (the same hands for everyone,
    evenly spread, the last one always shown), so the chart stays light. Two statements (the count, the series)."""
    active = int(db.session.scalar(select(func.count(Hand.id))
                                   .where(Hand.table_id == table.id, Hand.status == ACTIVE)) or 0)
    names = {p.id: p.name for p in table.players}
    numbers = [0]
    if not active:
        return ChartSeries(numbers, {}, False)
    step = max(1, -(-active // max(1, points)))
    counted = (Hand.table_id == table.id, Hand.status == ACTIVE)
    running = func.sum(HandDelta.points).over(partition_by=HandDelta.player_id, order_by=Hand.number)
    sub = (select(Hand.number.label("number"), HandDelta.player_id.label("player_id"), running.label("total"))
           .join(Hand, Hand.id == HandDelta.hand_id).where(*counted).subquery())
    first = (select(HandDelta.player_id.label("player_id"), func.min(Hand.number).label("first"))
             .join(Hand, Hand.id == HandDelta.hand_id).where(*counted).group_by(HandDelta.player_id).subquery())
    opening = select(func.min(Hand.number)).where(*counted).scalar_subquery()
    query = (select(sub.c.number, sub.c.player_id, sub.c.total, first.c.first, opening)
             .join(first, first.c.player_id == sub.c.player_id).order_by(sub.c.number, sub.c.player_id))
    if step > 1:  # the same hands for everyone: every step-th active hand, and the last
        place = (select(Hand.number.label("number"), func.row_number().over(order_by=Hand.number).label("i"))
                 .where(*counted).subquery())
        query = query.where(sub.c.number.in_(select(place.c.number).where(or_(place.c.i % step == 0,
                                                                                place.c.i == active))))
    cells: dict[str, dict[int, int]] = {}
    for number, player_id, total, first_hand, opening in db.session.execute(query):
        if numbers[-1] != number:
            numbers.append(number)
        row = cells.setdefault(names[player_id], {})
        row[number] = int(total)
        if first_hand == opening:
            row[0] = 0
    order = [p.name for p in table.players if p.name in cells]  # seated first, in seat order, then those who left
    series = {name: [cells[name].get(n) for n in numbers] for name in order}
    return ChartSeries(numbers, series, step > 1)
