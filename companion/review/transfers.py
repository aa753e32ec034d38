"""Settle up: balances (money, or points at a table that plays for none) and the fewest transfers
that square everyone, rounded to the cent so that they still add up to zero."""
from __future__ import annotations

from decimal import ROUND_HALF_EVEN, Decimal
from typing import NamedTuple

from ..db.models import Table
from ..scoring.totals import in_money, standings

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
