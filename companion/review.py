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
import io
import json
import time
from dataclasses import dataclass, field
from datetime import datetime, timezone
from decimal import ROUND_HALF_EVEN, Decimal
from typing import NamedTuple

from sqlalchemy import delete, case, desc, func, or_, select

from . import scoring
from .engine import ENGINES
from .engine.common import EngineError, N_
from .scoring import DEVICE_MAX, Standing, engine_for, in_money, points_and_money, standings  # noqa: F401  (review re-exports standings)
from .extensions import db
from .models import ACTIVE, VOID, Hand, HandDelta, HandEvent, HandTally, Player, RateBucket, Table, stake_text

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

    # The figures by the names the pages and the API have always used (a figure the game does not
    # tally reads 0). Which hands count as what is the engine's decision, stored with each hand.
    def _n(self, figure: str) -> int:
        return self.counts.get(figure, 0)

    @property
    def won(self) -> int:
        return self._n("won")

    @property
    def shut_out(self) -> int:
        return self._n("shut_out")

    @property
    def jokers(self) -> int:
        return self._n("jokers")

    @property
    def places(self) -> tuple:  # 头游, 二游, 三游, 末游
        return tuple(self._n(f) for f in ("first_out", "second_out", "third_out", "last_out"))

    @property
    def arch_wins(self) -> dict:  # arch -> 2-against-2 hands won with it
        return {f.removeprefix("arch_"): n for f, n in self.counts.items() if f.startswith("arch_")}

    @property
    def shouts_won(self) -> int:
        return self._n("shouts_won")

    @property
    def shouts_lost(self) -> int:
        return self._n("shouts_lost")

    @property
    def banker(self) -> int:
        return self._n("banker")


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
    return Summary(table, players, active, int(span[1] or 0) - active, _utc(span[2]), _utc(span[3]),
                   "shut_out" in shown, shown)


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
IMPORT_MAX_BYTES = 2 * 1024 * 1024  # the largest table file (config IMPORT_MAX_BYTES)
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


def _in_this_session(table: Table) -> Table:
    """A streamed answer runs after its view returned, in a new application context (and database
    session): the table is read again there."""
    return db.session.get(Table, table.id)


def _hands_in_batches(table: Table, batch: int = 500):
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
    sorted order (the bytes :func:`_canonical` gives for it), the checksum added last. The checksum is
    SHA-256 over the canonical document without it: a check against corruption, not a signature."""
    table = _in_this_session(table)
    names = {p.id: p.name for p in table.players}
    digest = hashlib.sha256()
    numbers: dict[int, int] = {}
    for hand_id, number in db.session.execute(select(Hand.id, Hand.number).where(Hand.table_id == table.id)):
        numbers[hand_id] = number

    def out(text: str) -> bytes:
        data = text.encode()
        digest.update(data)
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
    for hand, points in _hands_in_batches(table):
        yield out(("," if count else "") + "\n  " + _nested(_hand_part(hand, points, names), 2))
        count += 1
    yield out(("\n ]" if count else "]") + ',\n "players": ' + _nested(head["players"], 1)
              + ',\n "table": ' + _nested(head["table"], 1))
    digest.update(b"\n}")
    yield f',\n "checksum": "sha256:{digest.hexdigest()}"\n}}\n'.encode()


def export_document(table: Table) -> dict:
    """The whole table as one JSON-ready document: table, rules, players, hands (facts, status, points,
    revisions) and the history of changes. No public id and no edit token: an import gets new ones."""
    return json.loads(b"".join(export_chunks(table)))


def export_json(table: Table) -> bytes:
    """The export document as UTF-8 JSON (the same table always gives the same bytes)."""
    return b"".join(export_chunks(table))


# CSV -------------------------------------------------------------------------------------------

PLACES = ("头游", "二游", "三游", "末游")


def _player_facts(table: Table, hand: Hand, name: str) -> list:
    """What the facts say about one player in one hand, as translatable phrases: which, and in
    what words, the engine's description of the game's facts says (no game is named here)."""
    description = engine_for(table.game).describe_facts(scoring.table_rules(table))
    return description.phrases(hand.facts or {}, name, (hand.outcome or {}).get("winners") or ())


_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def csv_text(value: str) -> str:
    """A text cell a spreadsheet never runs as a formula (OWASP CSV injection): a cell starting with
    = + - @, a tab or a carriage return gets a leading apostrophe. Numbers are written as numbers."""
    return "'" + value if value.startswith(_FORMULA_START) else value


def export_csv_chunks(table: Table, *, labels: dict, translate=str):
    """One row per hand and player: hand, status, player, points, money, what the facts say about
    the player. UTF-8 with a byte-order mark, so spreadsheets keep Chinese names. Streamed, a few
    hundred hands at a time (memory stays bounded); every text cell through :func:`csv_text`."""
    table = _in_this_session(table)
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

    for hand, points in _hands_in_batches(table):
        for player in players:
            value = points.get(player.id, 0)
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


# Import ----------------------------------------------------------------------------------------
#
# An import is a replay. The file is read (size-capped by the view before the body is read, every
# string through the same text checks as the forms), the table is opened with scoring.create_table
# (the forms' limits on names, currency, notes, the engine's rules) and every hand is recorded
# through scoring.record_hand_once, the path of a new hand: the engine validates the facts and
# settles them; points and outcome are never read from the file. A hand whose points in the file
# differ from the engine's refuses the whole file, naming the hand. The file's history of changes
# cannot be checked (its before/after versions are claims), so it is not replayed: each hand's
# history starts with its "recorded" event (device "import"), followed, when the file had more, by
# one note holding the file's history of that hand as plain, size-capped text. The checksum is a
# corruption check (an unkeyed SHA-256 anyone can recompute), not a signature.
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
        return stake_text(scoring.parse_stake(value))
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


def _player_entry(player: Player) -> dict:
    """A player in the file; one who left (issue 21) has no seat and says which seat they left."""
    if player.seated:
        return {"seat": player.seat, "name": player.name}
    return {"seat": None, "name": player.name, "former_seat": player.former_seat}


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
        scoring.change_players(table, names, device=IMPORT_DEVICE)
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
        planned.append({"number": i + 1, "status": h["status"], "facts": h["facts"], "points": points,
                        "stake": _stake_field(h["stake"], f"{where}.stake") if "stake" in h else stake})
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


def _refused_hand(number: int, error: EngineError) -> ImportRefused:
    return ImportRefused(N_("Hand {number} in this file cannot be recorded: {reason} Nothing was imported.",
                            number=number, reason=error.message), code="bad_hand", field=f"hands.{number - 1}")


def _replay_hand(table: Table, planned: dict) -> None:
    number = planned["number"]
    if planned["stake"] != table.stake_text:
        scoring.update_table(table, stake=planned["stake"])
    try:
        hand, new = scoring.record_hand_once(table, planned["facts"], request_id=f"import-{number}",
                                             device=IMPORT_DEVICE)
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
        scoring.void_hand(table, number, revision=hand.revision, device=IMPORT_DEVICE)


def _keep_former_seats(table: Table, left: dict) -> None:
    """The seat each player who left had left, as the file says (the replay may have seen them leave
    from another seat, when they changed seats and left between the same two hands)."""
    changed = [p for p in table.players if not p.seated and p.name in left and p.former_seat != left[p.name]]
    if changed:
        scoring.lock_table(table)
        for player in changed:
            player.former_seat = left[player.name]
        scoring.commit()


def _keep_history(table: Table, history: dict[int, list[str]]) -> None:
    """The file's own history of each hand, as one note of plain text (when it says more than "recorded")."""
    notes = {n: lines for n, lines in history.items() if len(lines) > 1}
    if not notes:
        return
    scoring.lock_table(table)
    hands = dict(db.session.execute(select(Hand.number, Hand.id).where(Hand.table_id == table.id)).all())
    for number, lines in notes.items():
        text = "; ".join(lines[:IMPORTED_EVENTS_MAX]) + ("; …" if len(lines) > IMPORTED_EVENTS_MAX else "")
        db.session.add(HandEvent(table_id=table.id, hand_id=hands[number], kind=scoring.NOTE, before=None,
                                 after={"imported": text[:IMPORTED_HISTORY_MAX]}, hand_revision=1,
                                 device=IMPORT_DEVICE))
    scoring.commit()


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
    plan = _plan(_read_document(data))
    if mark and isinstance(plan.table["name"], str):
        plan.table["name"] = copy_name(plan.table["name"], mark)
    try:
        table = scoring.create_table(stake=plan.hands[0]["stake"] if plan.hands else plan.stake, **plan.table)
    except EngineError as error:
        raise ImportRefused(N_("This file's table cannot be opened: {reason} Nothing was imported.",
                               reason=error.message), code=error.code, field=f"table.{error.field or ''}".rstrip(".")
                            ) from None
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
            scoring.update_table(table, stake=plan.stake)
        _keep_history(table, plan.history)
        if plan.archived:
            scoring.archive_table(table)
    except BaseException:
        db.session.rollback()
        scoring.remove_tables([table.id])
        raise
    finally:
        db.session.execute(delete(RateBucket).where(RateBucket.key == marker))
        db.session.commit()
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
    scoring.remove_tables(ids)
    if keys:
        db.session.execute(delete(RateBucket).where(RateBucket.key.in_(keys)))
        db.session.commit()
    return len(ids)
