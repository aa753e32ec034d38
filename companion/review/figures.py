"""The night's summary: final standings and the per-player figures, sums over the deltas and over
the engine's stored tallies in ONE statement. Nothing here knows what a figure means."""
from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from decimal import Decimal

from sqlalchemy import case, desc, func, select

from ..engine import ENGINES
from ..extensions import db
from ..db.models import ACTIVE, Hand, HandDelta, HandTally, Player, Table
from ..scoring.errors_limits import as_utc, engine_for
from ..scoring.totals import points_and_money

@dataclass
class PlayerFigures:
    player_id: int
    name: str
    seat: int
    points: int = 0
    money: Decimal = Decimal(0)
    hands: int = 0
    biggest_win: int | None = None  # the best single hand, None when the player never won points
    biggest_loss: int | None = None  # the worst single hand (negative), None when never lost points
    counts: dict = field(default_factory=dict)  # figure -> sum of the stored tallies (the engine's figures)

    # A figure by its name (``p.won``, ``p.shut_out``): the sum of the engine's stored tally, 0 for
    # a figure the game does not tally. Which hands count as what is the engine's decision.
    def __getattr__(self, figure: str) -> int:
        if figure.startswith("_"):
            raise AttributeError(figure)
        return self.counts.get(figure, 0)

    def grouped(self) -> dict:
        """The counts as the API gives them: a figure of a group (the engine's ``WORDS.tally_groups``:
        places, arches won) under its group, any other under its own name."""
        return grouped_figures(self.counts)


def grouped_figures(counts: dict) -> dict:
    """``{figure: count}`` with each figure a game puts in a group (``first_out`` -> ``places.first``)
    under that group: the groups of every registered game."""
    groups = {figure: where for module in ENGINES.values() for figure, where in module.WORDS.tally_groups.items()}
    out: dict = {}
    for figure, count in counts.items():
        if figure in groups:
            group, key = groups[figure]
            out.setdefault(group, {})[key] = count
        else:
            out[figure] = count
    return out


@dataclass
class Summary:
    table: Table
    players: list[PlayerFigures]  # by standing, highest first
    hands: int  # active hands
    void: int
    first_at: datetime | None
    last_at: datetime | None
    counts_shut_out: bool = False  # the table's rules count shut-outs (春天)
    figures: tuple = ()  # the figures the table's game can tally under its rules, in the engine's order


def _count(condition):
    return func.sum(case((condition, 1), else_=0))


def _tallies(table: Table, figures: tuple):
    """Per player, the SUM of each stored tally figure over the active hands (one row per player).
    The figures are the engine's; nothing here knows what they mean."""
    cols = [func.sum(case((HandTally.figure == figure, HandTally.count), else_=0)).label(f"t{i}")
            for i, figure in enumerate(figures)]
    return (select(HandTally.player_id.label("player_id"), *cols)
            .join(Hand, Hand.id == HandTally.hand_id)
            .where(Hand.table_id == table.id, Hand.status == ACTIVE)
            .group_by(HandTally.player_id).subquery("review_tallies"))


def summary(table: Table) -> Summary:
    """Final standings and the per-player figures of the night, in ONE SQL statement (sums over the
    deltas and over the stored tallies of the active hands), plus one for the money (points per
    stake played) and one for the hand counts."""
    module = engine_for(table.game)
    figures = tuple(module.TALLIES)  # every figure is summed; the rules say which ones the page shows
    shown = tuple(module.tally_figures(module.rules_from_dict(dict(table.rules or {}))))
    deltas = (select(HandDelta.player_id.label("player_id"), func.sum(HandDelta.points).label("points"),
                     func.count(HandDelta.id).label("hands"), func.max(HandDelta.points).label("best"),
                     func.min(HandDelta.points).label("worst"))
              .join(Hand, Hand.id == HandDelta.hand_id)
              .where(Hand.table_id == table.id, Hand.status == ACTIVE)
              .group_by(HandDelta.player_id).subquery("review_deltas"))
    tallies = _tallies(table, figures)
    points = func.coalesce(deltas.c.points, 0)
    cols = [Player.id, Player.name, Player.seat, points.label("points"),
            func.coalesce(deltas.c.hands, 0).label("hands"), deltas.c.best, deltas.c.worst]
    query = (select(*cols, *[tallies.c[f"t{i}"] for i in range(len(figures))])
             .outerjoin(deltas, deltas.c.player_id == Player.id)
             .outerjoin(tallies, tallies.c.player_id == Player.id)
             .where(Player.table_id == table.id).order_by(desc(points), Player.seat))
    money = points_and_money(table)
    players = []
    for r in db.session.execute(query).mappings():
        best, worst = r["best"], r["worst"]
        players.append(PlayerFigures(
            r["id"], r["name"], r["seat"], int(r["points"]), money.get(r["id"], (0, Decimal(0)))[1], int(r["hands"]),
            int(best) if best is not None and best > 0 else None, int(worst) if worst is not None and worst < 0 else None,
            {figure: int(r[f"t{i}"] or 0) for i, figure in enumerate(figures)}))
    span = db.session.execute(
        select(_count(Hand.status == ACTIVE), func.count(Hand.id),
               func.min(Hand.created_at).filter(Hand.status == ACTIVE),
               func.max(Hand.created_at).filter(Hand.status == ACTIVE))
        .where(Hand.table_id == table.id)).one()
    active = int(span[0] or 0)
    return Summary(table, players, active, int(span[1] or 0) - active, as_utc(span[2]), as_utc(span[3]),
                   "shut_out" in shown, shown)
