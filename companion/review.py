"""Reviewing a night: settle-up, the score sheet, the chart's data, the summary, export and import.

Every figure comes from SQL aggregates (or window functions) over the stored hands, deltas and facts,
in a fixed number of queries per page: never one query per hand. The queries run on SQLite ≥ 3.25 and
PostgreSQL alike; the only dialect difference (iterating over a JSON object) is kept in one helper.

This module may import the models, the extensions and the engine; it never imports the views, the
forms or the CLI.
"""
from __future__ import annotations

import csv
import hashlib
import importlib
import io
import json
from dataclasses import dataclass, field
from datetime import datetime, timezone
from decimal import ROUND_HALF_EVEN, Decimal
from typing import NamedTuple

from sqlalchemy import JSON, String, and_, case, column, desc, false, func, literal, or_, select, true
from sqlalchemy.dialects.postgresql import JSONB

from . import access
from .engine.common import EngineError, N_
from .scoring import Standing, in_money, points_and_money, standings  # noqa: F401  (review re-exports standings)
from .extensions import db
from .models import ACTIVE, VOID, Hand, HandDelta, HandEvent, Player, Table

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


def balances(table: Table, rows=None) -> tuple[dict[str, Decimal], bool]:
    """What each player is owed (+) or owes (−): money (each hand at the stake it was played at), or
    points when the table plays for no money. Returns ``(balances, in_money)``. ``rows`` (with
    ``name``, ``points`` and ``money``, e.g. a summary's players) saves reading the standings again."""
    rows = standings(table) if rows is None else rows
    if in_money(table):
        return {r.name: r.money for r in rows}, True
    return {r.name: Decimal(r.points) for r in rows}, False


class SettleUp(NamedTuple):
    transfers: list[Transfer]
    balances: dict[str, Decimal]  # exact
    rounded: dict[str, Decimal]  # to ``unit``, adding up to zero
    absorbed: dict[str, Decimal]  # who took a unit of rounding (see round_balances)
    in_money: bool  # False: the table plays for no money, the amounts are points
    unit: Decimal


def settle_table(table: Table, rows=None) -> SettleUp:
    """Settle-up for the table: money rounded to the cent, or whole points when the table plays for
    no money. ``rows``: see :func:`balances`."""
    values, in_money = balances(table, rows)
    unit = CENT if in_money else Decimal(1)
    rounded, absorbed = round_balances(values, unit)
    return SettleUp(settle_up(values, unit), values, rounded, absorbed, in_money, unit)


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
    series: dict[str, list[int]]  # player name -> running totals, one per number
    thinned: bool  # True when only some of the active hands are drawn


def chart_series(table: Table, points: int = CHART_POINTS) -> ChartSeries:
    """Running totals per player over the active hands, starting from 0 before the first hand. Long
    tables are thinned in SQL to about ``points`` hands (evenly spread, the last hand always shown),
    so the chart stays light."""
    active = int(db.session.scalar(select(func.count(Hand.id))
                                   .where(Hand.table_id == table.id, Hand.status == ACTIVE)) or 0)
    names = {p.id: p.name for p in table.players}
    series: dict[str, list[int]] = {p.name: [0] for p in table.players}
    numbers = [0]
    if not active:
        return ChartSeries(numbers, series, False)
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
    return ChartSeries(numbers, series, step > 1)


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
    counts_shut_out: bool = False  # 干瞪眼 tables whose rules have shut-outs (春天)


def _count(condition):
    return func.sum(case((condition, 1), else_=0))


def _text(json_expr):
    return json_expr.as_string()


def _active_hands(table: Table):
    """``(FROM clause, facts, outcome, id, condition)`` of the table's active hands. The facts are read
    field by field where they are stored: jsonb on PostgreSQL (parsed once, when the hand was written),
    JSON text on SQLite (see ``models.HandJSON``)."""
    return Hand, Hand.facts, Hand.outcome, Hand.id, and_(Hand.table_id == table.id, Hand.status == ACTIVE)


def _hand_facts(table: Table, active):
    """One row per active hand with the facts the summary counts, each extracted from the JSON once."""
    src, facts, outcome, hand_id, where = active
    cols = [hand_id.label("hand_id")]
    if table.game == "gandengyan":
        cols += [_text(facts["winner"]).label("winner")]
    else:
        cols += [_text(facts["banker"]).label("banker"), _text(facts["shout"]).label("shout"),
                 _text(outcome["arch"]).label("arch")]
        cols += [_text(facts[("order", i)]).label(f"o{i}") for i in range(4)]
        cols += [_text(outcome[("winners", i)]).label(f"w{i}") for i in range(3)]
    return select(*cols).select_from(src).where(where).cte("review_hands").prefix_with("MATERIALIZED")


def shut_out_mode(table: Table):
    """How the table's 干瞪眼 rules count a shut-out (春天): None (they do not), ``"played"`` (a loser
    who never played, and with the dealer exception a dealer whose only play was the opening lead), or
    an int k (``threshold:k``: k or more cards left)."""
    mode = str((table.rules or {}).get("shut_out", "off"))
    if mode in ("double", "fixed20"):
        return "played"
    if mode.startswith("threshold:") and mode.partition(":")[2].isdigit():
        return int(mode.partition(":")[2])
    return None


def _losers(table: Table, active):
    """干瞪眼: one row per (active hand, loser) from the stored facts — the loser's name and the
    figures the summary counts. The only dialect-specific SQL here: iterating over a JSON object."""
    src, facts, _outcome, _id, where = active
    if _dialect() == "postgresql":
        each = func.jsonb_each(facts["losers"]).table_valued(column("key", String), column("value", JSONB))
    else:
        each = func.json_each(facts, "$.losers").table_valued(column("key", String), column("value", JSON))
    each = each.alias("loser")
    value = each.c.value

    def first(*keys, kind):
        parts = [getattr(value[k], kind)() for k in keys]
        return func.coalesce(*parts) if len(parts) > 1 else parts[0]

    cards = value["cards"].as_integer()
    mode = shut_out_mode(table)
    if mode is None:  # the table does not play shut-outs (春天): nothing to count
        shut = None
    elif isinstance(mode, int):  # threshold:k — k or more cards left
        shut = cards >= mode
    else:
        shut = first("played", "playedAny", "played_any", kind="as_boolean") == false()
        if (table.rules or {}).get("shut_out_dealer_exception", True):
            shut = or_(shut, first("dealer_only_opening", "dealerOnlyOpening", kind="as_boolean") == true())
    shut_out = _count(shut) if shut is not None else literal(0)
    return (select(each.c.key.label("name"), shut_out.label("shut_out"),
                   func.sum(func.coalesce(value["jokers"].as_integer(), 0)).label("jokers"))
            .select_from(src).join(each, true()).where(where)
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
    over the deltas and over the stored facts of the active hands), plus one for the money (points
    per stake played) and one for the hand counts."""
    deltas = (select(HandDelta.player_id.label("player_id"), func.sum(HandDelta.points).label("points"),
                     func.count(HandDelta.id).label("hands"), func.max(HandDelta.points).label("best"),
                     func.min(HandDelta.points).label("worst"))
              .join(Hand, Hand.id == HandDelta.hand_id)
              .where(Hand.table_id == table.id, Hand.status == ACTIVE)
              .group_by(HandDelta.player_id).subquery("review_deltas"))
    active = _active_hands(table)
    hands = _hand_facts(table, active)
    facts = _facts_figures(table, hands)
    points = func.coalesce(deltas.c.points, 0)
    cols = [Player.id, Player.name, Player.seat, points.label("points"),
            func.coalesce(deltas.c.hands, 0).label("hands"), deltas.c.best, deltas.c.worst]
    query = (select(*cols, *[c for c in facts.c if c.name != "player_id"])
             .outerjoin(deltas, deltas.c.player_id == Player.id)
             .outerjoin(facts, facts.c.player_id == Player.id))
    if table.game == "gandengyan":
        losers = _losers(table, active)
        query = query.add_columns(losers.c.shut_out, losers.c.jokers).outerjoin(losers, losers.c.name == Player.name)
    query = query.where(Player.table_id == table.id).order_by(desc(points), Player.seat)
    money = points_and_money(table)
    players = []
    for r in db.session.execute(query).mappings():
        best, worst = r["best"], r["worst"]
        fig = PlayerFigures(r["id"], r["name"], r["seat"], int(r["points"]), money.get(r["id"], (0, Decimal(0)))[1],
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
    return Summary(table, players, active, int(span[1] or 0) - active, _utc(span[2]), _utc(span[3]),
                   table.game == "gandengyan" and shut_out_mode(table) is not None)


def _utc(value: datetime | None) -> datetime | None:
    if value is None:
        return None
    return value.replace(tzinfo=timezone.utc) if value.tzinfo is None else value.astimezone(timezone.utc)


# --------------------------------------------------------------------------------------------
# Export and import

FORMAT = "card-table-companion/table"
# 2: each hand carries the stake it was played at, the table when it was archived. A version 1 file
# (every hand at the table's stake) still imports.
FORMAT_VERSION = 2
IMPORT_MAX_BYTES = 32 * 1024 * 1024
_TIME = "%Y-%m-%dT%H:%M:%S.%fZ"


class ImportRefused(EngineError):
    """The file cannot be imported (damaged, foreign, newer); nothing was stored."""

    default_code = "import_refused"


def _iso(value: datetime | None) -> str | None:
    value = _utc(value)
    return value.strftime(_TIME) if value else None


def _canonical(doc) -> bytes:
    return json.dumps(doc, ensure_ascii=False, sort_keys=True, indent=1, separators=(",", ": ")).encode()


def _checksum(doc: dict) -> str:
    body = {k: v for k, v in doc.items() if k != "checksum"}
    return "sha256:" + hashlib.sha256(_canonical(body)).hexdigest()


def export_document(table: Table) -> dict:
    """The whole table as one JSON-ready document: table, rules, players, hands (facts, status, points,
    revisions) and the history of changes. No public id and no edit token: an import gets new ones.
    Four queries, whatever the number of hands."""
    names = {p.id: p.name for p in table.players}
    hands = list(db.session.scalars(select(Hand).where(Hand.table_id == table.id).order_by(Hand.number)))
    points: dict[int, dict[str, int]] = {h.id: {} for h in hands}
    for hand_id, player_id, value in db.session.execute(
            select(HandDelta.hand_id, HandDelta.player_id, HandDelta.points)
            .join(Hand, Hand.id == HandDelta.hand_id).where(Hand.table_id == table.id)):
        points[hand_id][names[player_id]] = int(value)
    number_of = {h.id: h.number for h in hands}
    events = list(db.session.scalars(select(HandEvent).where(HandEvent.table_id == table.id)
                                     .order_by(HandEvent.id)))
    position = {e.id: i for i, e in enumerate(events)}
    doc = {
        "format": FORMAT,
        "format_version": FORMAT_VERSION,
        "table": {"game": table.game, "name": table.name, "stake": table.stake_text, "currency": table.currency,
                  "preset": table.preset, "rules": table.rules, "rules_version": table.rules_version,
                  "notes": table.notes, "first_dealer": table.first_dealer, "created_at": _iso(table.created_at),
                  "updated_at": _iso(table.updated_at), "revision": table.revision, "hand_seq": table.hand_seq,
                  "archived_at": _iso(table.archived_at)},
        "players": [_player_entry(p) for p in table.players],
        "hands": [{"number": h.number, "status": h.status, "facts": h.facts, "outcome": h.outcome,
                   "next_dealer": h.next_dealer, "points": points[h.id], "request_id": h.request_id,
                   "stake": h.stake_text,
                   "revision": h.revision, "created_at": _iso(h.created_at), "updated_at": _iso(h.updated_at)}
                  for h in hands],
        "events": [{"hand": number_of[e.hand_id], "kind": e.kind, "before": e.before, "after": e.after,
                    "hand_revision": e.hand_revision,
                    "undoes": position.get(e.undoes_id) if e.undoes_id is not None else None,
                    "device": e.device, "created_at": _iso(e.created_at)} for e in events],
    }
    doc["checksum"] = _checksum(doc)
    return doc


def export_json(table: Table) -> bytes:
    """The export document as UTF-8 JSON (keys sorted: the same table always gives the same bytes)."""
    return _canonical(export_document(table)) + b"\n"


# CSV -------------------------------------------------------------------------------------------

PLACES = ("头游", "二游", "三游", "末游")


def _player_facts(table: Table, hand: Hand, name: str) -> list:
    """What the facts say about one player in one hand, as translatable phrases."""
    facts, out = hand.facts or {}, []
    if table.game == "gandengyan":
        if facts.get("dealer") == name:
            out.append(N_("dealer"))
        if facts.get("winner") == name:
            out.append(N_("went out first"))
        loser = (facts.get("losers") or {}).get(name)
        if isinstance(loser, dict):
            out.append(N_("cards left: {cards}", cards=loser.get("cards")))
            if loser.get("jokers"):
                out.append(N_("jokers held: {jokers}", jokers=loser.get("jokers")))
            if loser.get("played", loser.get("playedAny", True)) is False:
                out.append(N_("never played"))
            if loser.get("dealer_only_opening", loser.get("dealerOnlyOpening")):
                out.append(N_("only the opening lead"))
        return out
    if facts.get("banker") == name:
        out.append(N_("banker"))
    if facts.get("shout") == name:
        out.append(N_("shouted"))
    elif facts.get("partner") == name:
        out.append(N_("partner"))
    order = facts.get("order") or []
    if name in order[:4]:
        out.append(PLACES[order.index(name)])
    captured = (facts.get("captured") or {}).get(name)
    if captured:
        out.append(N_("points captured: {points}", points=captured))
    if name in ((hand.outcome or {}).get("winners") or []):
        out.append(N_("winning side"))
    return out


def export_csv(table: Table, *, labels: dict, translate=str) -> bytes:
    """One row per hand and player: hand, status, player, points, money, what the facts say about
    the player. UTF-8 with a byte-order mark, so spreadsheets keep Chinese names."""
    doc_hands = list(db.session.scalars(select(Hand).where(Hand.table_id == table.id).order_by(Hand.number)))
    names = {p.id: p.name for p in table.players}
    points: dict[int, dict[int, int]] = {h.id: {} for h in doc_hands}
    for hand_id, player_id, value in db.session.execute(
            select(HandDelta.hand_id, HandDelta.player_id, HandDelta.points)
            .join(Hand, Hand.id == HandDelta.hand_id).where(Hand.table_id == table.id)):
        points[hand_id][player_id] = int(value)
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\r\n")
    money = labels["money"] + (f" ({table.currency})" if table.currency else "")
    writer.writerow([labels["hand"], labels["status"], labels["player"], labels["points"], money, labels["facts"]])
    for hand in doc_hands:
        for player in table.players:
            value = points[hand.id].get(player.id, 0)
            amount = hand.stake * value
            writer.writerow([hand.number, labels[hand.status], names[player.id], value,
                             format(amount.normalize() if amount else Decimal(0), "f"),
                             "; ".join(translate(x) for x in _player_facts(table, hand, player.name))])
    return ("\ufeff" + buffer.getvalue()).encode("utf-8")


# Import ----------------------------------------------------------------------------------------

_DAMAGED = N_("This file is damaged or incomplete ({where}); nothing was imported.")


def _damaged(where: str) -> ImportRefused:
    return ImportRefused(N_(_DAMAGED.template, where=where), code="damaged")


def _need(ok: bool, where: str) -> None:
    if not ok:
        raise _damaged(where)


def _text_field(value, where: str, maximum: int, *, optional: bool = False, empty: bool = True) -> str | None:
    if value is None and optional:
        return None
    _need(isinstance(value, str) and len(value) <= maximum and (empty or bool(value.strip())), where)
    return value


def _int_field(value, where: str, low: int = 0) -> int:
    _need(isinstance(value, int) and not isinstance(value, bool) and low <= value < 2**31, where)
    return value


def _stake_field(value, where: str) -> str:
    """A stake as exported: exact decimal text, finite and not negative."""
    text = _text_field(value, where, 32)
    try:
        _need(Decimal(text).is_finite() and Decimal(text) >= 0, where)
    except ArithmeticError:
        raise _damaged(where) from None
    return text


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
        doc = json.loads(data)
    except (ValueError, RecursionError):
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
    if doc.get("checksum") != _checksum(doc):
        raise ImportRefused(N_("This file is damaged: its contents changed after it was exported (the "
                               "checksum does not match); nothing was imported."), code="damaged")
    return doc


def _import_table(doc: dict) -> Table:
    t = doc.get("table")
    _need(isinstance(t, dict), "table")
    game = t.get("game")
    if game not in ("gandengyan", "dagong"):
        raise ImportRefused(N_("This file is for a game this server does not know ('{game}'); nothing was "
                               "imported.", game=game), code="foreign")
    rules = t.get("rules")
    _need(isinstance(rules, dict), "table.rules")
    try:
        importlib.import_module(f"companion.engine.{game}").rules_from_dict(dict(rules))
    except Exception:  # any refusal by the engine: this server cannot play by these rules
        raise ImportRefused(N_("This file's house rules are not known to this server; nothing was imported."),
                            code="unknown_rules") from None
    stake = _stake_field(t.get("stake"), "table.stake")
    table = Table(game=game, name=_text_field(t.get("name"), "table.name", 80, empty=False),
                  currency=_text_field(t.get("currency"), "table.currency", 12),
                  preset=_text_field(t.get("preset"), "table.preset", 32, optional=True), rules=rules,
                  rules_version=_int_field(t.get("rules_version"), "table.rules_version", 1),
                  notes=_text_field(t.get("notes"), "table.notes", 10_000),
                  first_dealer=_text_field(t.get("first_dealer"), "table.first_dealer", 40, optional=True),
                  created_at=_time_field(t.get("created_at"), "table.created_at"),
                  updated_at=_time_field(t.get("updated_at"), "table.updated_at"),
                  revision=_int_field(t.get("revision"), "table.revision", 1),
                  hand_seq=_int_field(t.get("hand_seq"), "table.hand_seq"),
                  archived_at=(_time_field(t["archived_at"], "table.archived_at")
                               if t.get("archived_at") is not None else None))
    table.stake_text = stake
    access.issue_token(table)  # a new id and edit token (version 1): the file carries neither
    return table


def _player_entry(player: Player) -> dict:
    """A player in the file; one who left (issue 21) has no seat and says which seat they left."""
    if player.seated:
        return {"seat": player.seat, "name": player.name}
    return {"seat": None, "name": player.name, "former_seat": player.former_seat}


LEFT_SEAT_BASE = 10**9  # an imported player who left holds seat −(this + n): unique, clear of −id


def _import_players(doc: dict, table: Table) -> list[str]:
    """The seated players' names in seat order (then those who left, seat None, are added too)."""
    players = doc.get("players")
    _need(isinstance(players, list) and 2 <= len(players) <= 200, "players")
    seated = [p for p in players if not (isinstance(p, dict) and p.get("seat") is None)]
    _need(2 <= len(seated) <= 6, "players")
    names, rows = [], []
    for i, p in enumerate(players):
        gone = i >= len(seated)
        _need(isinstance(p, dict) and p.get("seat") == (None if gone else i), f"players.{i}")
        name = _text_field(p.get("name"), f"players.{i}.name", 40, empty=False)
        names.append(name)
        if gone:
            former = p.get("former_seat")
            _need(former is None or (isinstance(former, int) and not isinstance(former, bool) and 0 <= former < 6),
                  f"players.{i}.former_seat")
            rows.append(Player(seat=-(LEFT_SEAT_BASE + i), name=name, former_seat=former))
        else:
            rows.append(Player(seat=i, name=name))
    _need(len(set(names)) == len(names), "players")
    if table.first_dealer is not None:
        _need(table.first_dealer in names, "table.first_dealer")
    table.players = rows
    return names[:len(seated)]


def _import_hands(doc: dict, table: Table, names: list[str]) -> dict[int, Hand]:
    hands = doc.get("hands")
    _need(isinstance(hands, list), "hands")
    by_number: dict[int, Hand] = {}
    requests = set()
    player_of = {p.name: p for p in table.players}  # everyone who played, also those who left
    for i, h in enumerate(hands):
        where = f"hands.{i}"
        _need(isinstance(h, dict), where)
        number = _int_field(h.get("number"), f"{where}.number", 1)
        _need(number not in by_number and number <= table.hand_seq, f"{where}.number")
        _need(h.get("status") in (ACTIVE, VOID), f"{where}.status")
        hand_names = h.get("facts", {}).get("players") if isinstance(h.get("facts"), dict) else None
        _need(isinstance(hand_names, list) and len(set(map(str, hand_names))) == len(hand_names)
              and all(isinstance(n, str) and n in player_of for n in hand_names), f"{where}.facts")
        _need(isinstance(h.get("outcome"), dict), f"{where}.outcome")
        points = h.get("points")
        _need(isinstance(points, dict) and sorted(points) == sorted(hand_names), f"{where}.points")
        for name in hand_names:
            _need(isinstance(points[name], int) and not isinstance(points[name], bool)
                  and -2**63 <= points[name] < 2**63, f"{where}.points")
        _need(sum(points.values()) == 0, f"{where}.points")
        request_id = _text_field(h.get("request_id"), f"{where}.request_id", 64, empty=False)
        _need(request_id not in requests, f"{where}.request_id")
        requests.add(request_id)
        hand = Hand(number=number, status=h["status"], facts=h["facts"], outcome=h["outcome"],
                    next_dealer=_text_field(h.get("next_dealer"), f"{where}.next_dealer", 40, optional=True),
                    request_id=request_id, revision=_int_field(h.get("revision"), f"{where}.revision", 1),
                    stake_text=(_stake_field(h["stake"], f"{where}.stake") if "stake" in h else table.stake_text),
                    created_at=_time_field(h.get("created_at"), f"{where}.created_at"),
                    updated_at=_time_field(h.get("updated_at"), f"{where}.updated_at"))
        hand.table = table
        hand.deltas = [HandDelta(player=player_of[name], points=points[name]) for name in hand_names]
        by_number[number] = hand
    return by_number


_EVENT_KINDS = ("create", "edit", "void", "restore", "undo", "note")


def _import_events(doc: dict, hands: dict[int, Hand]) -> list[tuple[HandEvent, int | None]]:
    events = doc.get("events")
    _need(isinstance(events, list), "events")
    out = []
    for i, e in enumerate(events):
        where = f"events.{i}"
        _need(isinstance(e, dict) and e.get("hand") in hands and e.get("kind") in _EVENT_KINDS, where)
        for key in ("before", "after"):
            _need(e.get(key) is None or isinstance(e.get(key), dict), f"{where}.{key}")
        undoes = e.get("undoes")
        _need(undoes is None or (isinstance(undoes, int) and not isinstance(undoes, bool) and 0 <= undoes < i),
              f"{where}.undoes")
        event = HandEvent(kind=e["kind"], before=e.get("before"), after=e.get("after"),
                          hand_revision=_int_field(e.get("hand_revision"), f"{where}.hand_revision", 1),
                          device=_text_field(e.get("device"), f"{where}.device", 60),
                          created_at=_time_field(e.get("created_at"), f"{where}.created_at"))
        event.hand = hands[e["hand"]]
        out.append((event, undoes))
    return out


def copy_name(name: str, mark: str, limit: int = 80) -> str:
    """``name (mark)`` within ``limit`` characters (the name shortened when needed)."""
    suffix = f" ({mark})"
    return name[:max(1, limit - len(suffix))].rstrip() + suffix[:limit - 1]


def import_json(data: bytes | str, mark: str | None = None) -> Table:
    """Recreate an exported table, exactly (same hands, facts, points, revisions and history), under a
    new public id and edit token. Everything is checked first and stored in ONE transaction: a damaged,
    foreign or newer-version file raises :class:`ImportRefused` and changes nothing. ``mark`` (such as
    "imported 1 Dec", in the face's language) is added to the copy's name so that no list shows the
    copy exactly like its original."""
    doc = _read_document(data)
    table = _import_table(doc)
    if mark:
        table.name = copy_name(table.name, mark)
    names = _import_players(doc, table)
    hands = _import_hands(doc, table, names)
    events = _import_events(doc, hands)
    try:
        db.session.add(table)
        db.session.add_all(sorted(hands.values(), key=lambda h: h.number))
        db.session.flush()
        for event, _undoes in events:
            event.table_id = table.id
            event.hand_id = event.hand.id
            db.session.add(event)
        db.session.flush()
        for event, undoes in events:
            if undoes is not None:
                event.undoes_id = events[undoes][0].id
        db.session.commit()
    except Exception:
        db.session.rollback()
        raise
    return table
