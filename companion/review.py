"""Reviewing a night: settle-up, the score sheet, the chart's data, the summary, export and import.

Every figure comes from SQL aggregates (or window functions) over the stored hands, deltas and facts,
in a fixed number of queries per page: never one query per hand. The queries run on SQLite ≥ 3.25 and
PostgreSQL alike; the only dialect difference (iterating over a JSON object) is kept in one helper.

This module may import the models, the extensions and the engine; it never imports the views, the
forms or the CLI.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timezone
from decimal import ROUND_HALF_EVEN, Decimal
from typing import NamedTuple

from sqlalchemy import JSON, String, and_, case, column, desc, false, func, or_, select, true

from .extensions import db
from .models import ACTIVE, Hand, HandDelta, Player, Table

# --------------------------------------------------------------------------------------------
# Settle up: the fewest money transfers that square everyone

CENT = Decimal("0.01")
EXACT_GROUPS_MAX = 10  # players with a non-zero balance up to which the fewest transfers are exact


class Transfer(NamedTuple):
    payer: str
    payee: str
    amount: Decimal


def round_balances(balances: dict[str, Decimal], unit: Decimal = CENT) -> tuple[dict[str, Decimal],
                                                                                  dict[str, Decimal]]:
    """Each balance rounded to ``unit`` so that they still add up to exactly zero.

    Returns ``(rounded, absorbed)``: ``absorbed[name]`` is what rounding took from (negative) or gave
    to (positive) a player beyond ordinary rounding, one ``unit`` at a time: when the rounded balances
    do not add up to zero, the players whose ordinary rounding moved them furthest the other way give
    or take the difference (ties: by name). ``balances`` must add up to exactly zero.
    """
    unit = Decimal(unit)
    if unit <= 0:
        raise ValueError("the unit must be positive")
    values = {name: Decimal(value) for name, value in balances.items()}
    if sum(values.values(), Decimal(0)) != 0:
        raise ValueError("the balances do not add up to zero")
    rounded = {name: (value / unit).to_integral_value(ROUND_HALF_EVEN) * unit for name, value in values.items()}
    excess = int(sum(rounded.values(), Decimal(0)) / unit)  # whole units too many (> 0) or too few
    absorbed: dict[str, Decimal] = {}
    if excess:
        step = unit if excess < 0 else -unit
        # who was rounded furthest in the direction we now undo goes first
        order = sorted(values, key=lambda n: (-(rounded[n] - values[n]) * (1 if excess > 0 else -1), n))
        for name in order[:abs(excess)]:
            rounded[name] += step
            absorbed[name] = step
    return rounded, absorbed


def _zero_sum_groups(amounts: list[int]) -> list[list[int]]:
    """Split indexes of ``amounts`` (non-zero integers adding up to zero) into as many zero-sum
    groups as possible: the fewest transfers are (players − groups). Exact by a DP over subsets."""
    n = len(amounts)
    full = (1 << n) - 1
    sums = [0] * (1 << n)
    for mask in range(1, 1 << n):
        low = mask & -mask
        sums[mask] = sums[mask ^ low] + amounts[low.bit_length() - 1]
    # best[mask]: most zero-sum groups that the players in mask (a zero-sum set) split into
    best = [-1] * (1 << n)
    best[0] = 0
    choice = [0] * (1 << n)
    for mask in range(1, 1 << n):
        if sums[mask] != 0:
            continue
        low = mask & -mask
        rest = mask ^ low
        sub = rest
        while True:  # groups containing mask's lowest player: sub ∪ {low}
            group = sub | low
            if sums[group] == 0 and best[mask ^ group] >= 0 and best[mask ^ group] + 1 > best[mask]:
                best[mask] = best[mask ^ group] + 1
                choice[mask] = group
            if sub == 0:
                break
            sub = (sub - 1) & rest
    groups, mask = [], full
    while mask:
        group = choice[mask]
        groups.append([i for i in range(n) if group >> i & 1])
        mask ^= group
    return groups


def _greedy(group: list[tuple[str, int]]) -> list[tuple[str, str, int]]:
    """Largest debtor pays largest creditor until all are square: ≤ len(group) − 1 transfers."""
    debtors = sorted(((-v, n) for n, v in group if v < 0), key=lambda x: (-x[0], x[1]))
    creditors = sorted(((v, n) for n, v in group if v > 0), key=lambda x: (-x[0], x[1]))
    out = []
    while debtors and creditors:
        (owe, payer), (due, payee) = debtors[0], creditors[0]
        amount = min(owe, due)
        out.append((payer, payee, amount))
        debtors[0], creditors[0] = (owe - amount, payer), (due - amount, payee)
        if debtors[0][0] == 0:
            debtors.pop(0)
        if creditors[0][0] == 0:
            creditors.pop(0)
        debtors.sort(key=lambda x: (-x[0], x[1]))
        creditors.sort(key=lambda x: (-x[0], x[1]))
    return out


def settle_up(balances: dict[str, Decimal], unit: Decimal = CENT) -> list[Transfer]:
    """The fewest transfers that square everyone, in multiples of ``unit``.

    ``balances``: money per player, positive = is owed, negative = owes; they must add up to zero.
    Balances are first rounded to ``unit`` (see :func:`round_balances`, which says who absorbs a unit
    of rounding), so the transfers add up exactly. Debtors only pay, creditors only receive, and there
    are at most (players − 1) transfers: exactly the fewest possible up to 10 players with a non-zero
    balance (players are split into the most zero-sum groups, each settled in size − 1 transfers).
    """
    unit = Decimal(unit)
    rounded, _absorbed = round_balances(balances, unit)
    units = [(name, int(value / unit)) for name, value in sorted(rounded.items()) if value]
    if len(units) <= EXACT_GROUPS_MAX:
        groups = [[units[i] for i in g] for g in _zero_sum_groups([u for _n, u in units])]
    else:
        groups = [units]
    transfers = []
    for group in groups:
        transfers += [Transfer(payer, payee, amount * unit) for payer, payee, amount in _greedy(group)]
    return sorted(transfers, key=lambda t: (t.payer, -t.amount, t.payee))


# --------------------------------------------------------------------------------------------
# Reading the stored night: standings, the score sheet, the chart's series, the summary

SHEET_PER_PAGE = 50
CHART_POINTS = 120  # the chart shows at most this many hands (evenly spread, the last one always)


def _dialect() -> str:
    return db.session.get_bind().dialect.name


class Standing(NamedTuple):
    player_id: int
    name: str
    seat: int
    points: int
    money: Decimal


def standings(table: Table) -> list[Standing]:
    """Totals per player, highest first: one SQL aggregate over the deltas of active hands."""
    totals = (select(HandDelta.player_id.label("player_id"), func.sum(HandDelta.points).label("points"))
              .join(Hand, Hand.id == HandDelta.hand_id)
              .where(Hand.table_id == table.id, Hand.status == ACTIVE)
              .group_by(HandDelta.player_id).subquery())
    points = func.coalesce(totals.c.points, 0)
    rows = db.session.execute(
        select(Player.id, Player.name, Player.seat, points.label("points"))
        .outerjoin(totals, totals.c.player_id == Player.id)
        .where(Player.table_id == table.id)
        .order_by(desc(points), Player.seat)).all()
    stake = table.stake
    return [Standing(r.id, r.name, r.seat, int(r.points), stake * int(r.points)) for r in rows]


def balances(table: Table) -> tuple[dict[str, Decimal], bool]:
    """What each player is owed (+) or owes (−): money at the table's stake, or points when the
    table plays for no money. Returns ``(balances, in_money)``."""
    rows = standings(table)
    if table.stake:
        return {r.name: r.money for r in rows}, True
    return {r.name: Decimal(r.points) for r in rows}, False


def settle_table(table: Table):
    """``(transfers, absorbed, in_money, unit)`` for the table: money rounded to the cent, or whole
    points when the table plays for no money."""
    values, in_money = balances(table)
    unit = CENT if in_money else Decimal(1)
    _rounded, absorbed = round_balances(values, unit)
    return settle_up(values, unit), absorbed, in_money, unit


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
    total after it. The running totals come from ONE window function over the whole table
    (``SUM(points) OVER (PARTITION BY player ORDER BY hand number)``, void hands counting 0), so
    they are right on every page."""
    page = max(1, int(page))
    counted = case((Hand.status == ACTIVE, HandDelta.points), else_=0)
    running = func.sum(counted).over(partition_by=HandDelta.player_id, order_by=Hand.number)
    grid = (select(Hand.number.label("number"), Hand.status.label("status"),
                   HandDelta.player_id.label("player_id"), HandDelta.points.label("points"),
                   running.label("running"))
            .join(Hand, Hand.id == HandDelta.hand_id)
            .where(Hand.table_id == table.id).subquery())
    numbers = (select(Hand.number).where(Hand.table_id == table.id).order_by(Hand.number)
               .limit(per_page).offset((page - 1) * per_page).subquery())
    rows: dict[int, SheetRow] = {}
    for r in db.session.execute(select(grid).where(grid.c.number.in_(select(numbers.c.number)))
                                .order_by(grid.c.number, grid.c.player_id)):
        row = rows.get(r.number)
        if row is None:
            row = rows[r.number] = SheetRow(r.number, r.status)
        row.cells[r.player_id] = (int(r.points), int(r.running))
    return list(rows.values())


# Chart ---------------------------------------------------------------------------------------


def chart_series(table: Table, points: int = CHART_POINTS) -> tuple[list[int], dict[str, list[int]]]:
    """``(hand numbers, {player name: running totals})`` over the active hands, starting from 0
    before the first hand. Long tables are thinned in SQL to about ``points`` hands (evenly
    spread, the last hand always shown), so the chart stays light."""
    active = int(db.session.scalar(select(func.count(Hand.id))
                                   .where(Hand.table_id == table.id, Hand.status == ACTIVE)) or 0)
    names = {p.id: p.name for p in table.players}
    series: dict[str, list[int]] = {p.name: [0] for p in table.players}
    numbers = [0]
    if not active:
        return numbers, series
    step = max(1, -(-active // max(1, points)))
    index = func.row_number().over(partition_by=HandDelta.player_id, order_by=Hand.number)
    running = func.sum(HandDelta.points).over(partition_by=HandDelta.player_id, order_by=Hand.number)
    sub = (select(Hand.number.label("number"), HandDelta.player_id.label("player_id"), index.label("i"),
                  running.label("total"))
           .join(Hand, Hand.id == HandDelta.hand_id)
           .where(Hand.table_id == table.id, Hand.status == ACTIVE).subquery())
    query = (select(sub.c.number, sub.c.player_id, sub.c.total)
             .where(or_(sub.c.i % step == 0, sub.c.i == active))
             .order_by(sub.c.number, sub.c.player_id))
    for number, player_id, total in db.session.execute(query):
        if numbers[-1] != number:
            numbers.append(number)
        series[names[player_id]].append(int(total))
    return numbers, series


# Summary -------------------------------------------------------------------------------------

ARCHES = ("half", "straight", "dry")


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
    # 干瞪眼
    won: int = 0
    shut_out: int = 0
    jokers: int = 0
    # 大冶打拱
    places: tuple = (0, 0, 0, 0)  # 头游, 二游, 三游, 末游
    arch_wins: dict = field(default_factory=dict)  # "half" | "straight" | "dry" -> hands won
    shouts_won: int = 0
    shouts_lost: int = 0
    banker: int = 0


@dataclass
class Summary:
    table: Table
    players: list[PlayerFigures]  # by standing, highest first
    hands: int  # active hands
    void: int
    first_at: datetime | None
    last_at: datetime | None


def _count(condition):
    return func.sum(case((condition, 1), else_=0))


def _text(json_expr):
    return json_expr.as_string()


def _hand_facts(table: Table):
    """One row per active hand with the facts the summary counts, each extracted from the JSON once."""
    facts, outcome = Hand.facts, Hand.outcome
    cols = [Hand.id.label("hand_id")]
    if table.game == "gandengyan":
        cols += [_text(facts["winner"]).label("winner"), _text(facts["dealer"]).label("dealer")]
    else:
        cols += [_text(facts["banker"]).label("banker"), _text(facts["shout"]).label("shout"),
                 _text(outcome["arch"]).label("arch")]
        cols += [_text(facts[("order", i)]).label(f"o{i}") for i in range(4)]
        cols += [_text(outcome[("winners", i)]).label(f"w{i}") for i in range(3)]
    return (select(*cols).where(Hand.table_id == table.id, Hand.status == ACTIVE)
            .cte("review_hands"))


def _losers(table: Table):
    """干瞪眼: one row per (active hand, loser) from the stored facts — the loser's name and the
    figures the summary counts. The only dialect-specific SQL here: iterating over a JSON object."""
    if _dialect() == "postgresql":
        each = func.json_each(Hand.facts["losers"])
    else:
        each = func.json_each(Hand.facts, "$.losers")
    each = each.table_valued(column("key", String), column("value", JSON)).alias("loser")
    value = each.c.value

    def first(*keys, kind):
        parts = [getattr(value[k], kind)() for k in keys]
        return func.coalesce(*parts) if len(parts) > 1 else parts[0]

    played = first("played", "playedAny", "played_any", kind="as_boolean")
    opening = first("dealer_only_opening", "dealerOnlyOpening", kind="as_boolean")
    cards = value["cards"].as_integer()
    rules = dict(table.rules or {})
    mode = str(rules.get("shut_out", "off"))
    if mode.startswith("threshold:") and mode.partition(":")[2].isdigit():
        shut = cards >= int(mode.partition(":")[2])
    else:
        shut = played == false()
        if rules.get("shut_out_dealer_exception", True):
            shut = or_(shut, opening == true())
    return (select(each.c.key.label("name"), _count(shut).label("shut_out"),
                   func.sum(func.coalesce(value["jokers"].as_integer(), 0)).label("jokers"))
            .select_from(Hand).join(each, true())
            .where(Hand.table_id == table.id, Hand.status == ACTIVE)
            .group_by(each.c.key).subquery("review_losers"))


def _facts_figures(table: Table, hands):
    """Per player, counts over the facts of the active hands (one row per player)."""
    name = Player.name
    if table.game == "gandengyan":
        cols = [_count(hands.c.winner == name).label("won")]
    else:
        placed = [hands.c[f"o{i}"] for i in range(4)]
        last = or_(placed[3] == name, and_(placed[3].is_(None), placed[2].is_not(None),
                                          name.not_in([placed[0], placed[1], placed[2]])))
        won = or_(*(hands.c[f"w{i}"] == name for i in range(3)))
        cols = [_count(placed[i] == name).label(f"place{i}") for i in range(3)]
        cols += [_count(last).label("place3"), _count(hands.c.banker == name).label("banker"),
                 _count(and_(hands.c.shout == name, hands.c.w0 == name)).label("shouts_won"),
                 _count(and_(hands.c.shout == name, or_(hands.c.w0.is_(None), hands.c.w0 != name)))
                 .label("shouts_lost")]
        cols += [_count(and_(hands.c.arch == arch, won)).label(f"arch_{arch}") for arch in ARCHES]
    return (select(Player.id.label("player_id"), *cols)
            .select_from(Player).join(hands, true())
            .where(Player.table_id == table.id).group_by(Player.id).subquery("review_facts"))


def summary(table: Table) -> Summary:
    """Final standings and the per-player figures of the night, in ONE SQL statement (aggregates
    over the deltas and over the stored facts of the active hands), plus one for the hand counts."""
    deltas = (select(HandDelta.player_id.label("player_id"), func.sum(HandDelta.points).label("points"),
                     func.count(HandDelta.id).label("hands"), func.max(HandDelta.points).label("best"),
                     func.min(HandDelta.points).label("worst"))
              .join(Hand, Hand.id == HandDelta.hand_id)
              .where(Hand.table_id == table.id, Hand.status == ACTIVE)
              .group_by(HandDelta.player_id).subquery("review_deltas"))
    hands = _hand_facts(table)
    facts = _facts_figures(table, hands)
    points = func.coalesce(deltas.c.points, 0)
    cols = [Player.id, Player.name, Player.seat, points.label("points"),
            func.coalesce(deltas.c.hands, 0).label("hands"), deltas.c.best, deltas.c.worst]
    query = (select(*cols, *[c for c in facts.c if c.name != "player_id"])
             .outerjoin(deltas, deltas.c.player_id == Player.id)
             .outerjoin(facts, facts.c.player_id == Player.id))
    if table.game == "gandengyan":
        losers = _losers(table)
        query = query.add_columns(losers.c.shut_out, losers.c.jokers).outerjoin(losers, losers.c.name == Player.name)
    query = query.where(Player.table_id == table.id).order_by(desc(points), Player.seat)
    stake = table.stake
    players = []
    for r in db.session.execute(query).mappings():
        best, worst = r["best"], r["worst"]
        fig = PlayerFigures(r["id"], r["name"], r["seat"], int(r["points"]), stake * int(r["points"]),
                            int(r["hands"]), int(best) if best is not None and best > 0 else None,
                            int(worst) if worst is not None and worst < 0 else None)
        if table.game == "gandengyan":
            fig.won = int(r["won"] or 0)
            fig.shut_out, fig.jokers = int(r["shut_out"] or 0), int(r["jokers"] or 0)
        else:
            fig.places = tuple(int(r[f"place{i}"] or 0) for i in range(4))
            fig.arch_wins = {arch: int(r[f"arch_{arch}"] or 0) for arch in ARCHES}
            fig.banker = int(r["banker"] or 0)
            fig.shouts_won, fig.shouts_lost = int(r["shouts_won"] or 0), int(r["shouts_lost"] or 0)
        players.append(fig)
    span = db.session.execute(
        select(_count(Hand.status == ACTIVE), func.count(Hand.id),
               func.min(Hand.created_at).filter(Hand.status == ACTIVE),
               func.max(Hand.created_at).filter(Hand.status == ACTIVE))
        .where(Hand.table_id == table.id)).one()
    active = int(span[0] or 0)
    return Summary(table, players, active, int(span[1] or 0) - active, _utc(span[2]), _utc(span[3]))


def _utc(value: datetime | None) -> datetime | None:
    if value is None:
        return None
    return value.replace(tzinfo=timezone.utc) if value.tzinfo is None else value.astimezone(timezone.utc)
