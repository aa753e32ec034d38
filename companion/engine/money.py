"""The stake: money per point. One parser and one set of limits for every face (engine, pages,
JSON API, CLI), and the one multiplication of points by the stake."""
from __future__ import annotations

from decimal import Decimal, InvalidOperation
from functools import lru_cache
from typing import Any, Mapping

from . import inputs
from .errors import FactsError
from .text import N_

STAKE_MAX = Decimal("1000000")
# No hand moves more points than this: beyond it a house rule or a fact is absurd (and the numbers
# would no longer fit the database or a JSON client's whole numbers).
MAX_POINTS = 10**9
STAKE_DECIMALS = 4
_TEXT_MAX = 40


def parse_stake(value: Any, *, field: str = "stake", allow_zero: bool = False) -> Decimal:
    """Read a stake: a number with a decimal point or comma ("0.5", "0,5"), at most 4 decimals,
    positive (zero too when ``allow_zero``: a table that keeps points only) and at most
    :data:`STAKE_MAX`. Anything else is a :class:`FactsError` (code ``bad_stake``) that says why."""
    if type(value) in (int, str) or (type(value) is Decimal and not value.is_nan()):  # read once, remembered
        return _read_stake(type(value), value, field, allow_zero)
    return _parse(value, field, allow_zero)


@lru_cache(maxsize=256)
def _read_stake(_kind: type, value: Any, field: str, allow_zero: bool) -> Decimal:
    return _parse(value, field, allow_zero)  # the type is part of the key: 1, "1" and Decimal(1) apart


def _parse(value: Any, field: str, allow_zero: bool) -> Decimal:
    if isinstance(value, Decimal):
        number = value
    elif isinstance(value, bool) or not isinstance(value, (int, float, str)):
        raise FactsError(N_("The stake must be a number such as 1 or 0.5, not '{value}'.", value=value),
                         code="bad_stake", field=field)
    else:
        text = str(value).strip()
        if "e" in text.lower() and text.lower() not in ("inf", "infinity", "-inf", "-infinity"):
            raise FactsError(N_("Write the stake as a plain number such as 1000 or 0.5, not '{value}' "
                                "(no exponent).", value=value), code="bad_stake", field=field)
        try:
            if len(text) > _TEXT_MAX or not text.isascii():
                raise InvalidOperation
            number = Decimal(text.replace(",", "."))
        except (InvalidOperation, ValueError):
            raise FactsError(N_("The stake must be a number such as 1 or 0.5, not '{value}'.", value=value),
                             code="bad_stake", field=field) from None
    if not number.is_finite() or number < 0 or (number == 0 and not allow_zero):
        if allow_zero:  # whole sentences, so that each translates as a unit
            message = N_("The stake must be zero or a positive number, not '{value}'.", value=value)
        else:
            message = N_("The stake must be a positive number, not '{value}'.", value=value)
        raise FactsError(message, code="bad_stake", field=field)
    if number > STAKE_MAX:
        raise FactsError(N_("The stake is too large: at most {maximum}.", maximum=STAKE_MAX),
                         code="bad_stake", field=field)
    if number != number.quantize(Decimal(1).scaleb(-STAKE_DECIMALS)):
        raise FactsError(N_("The stake may have at most {count} decimals, not '{value}'.",
                            count=STAKE_DECIMALS, value=value), code="bad_stake", field=field)
    return number.quantize(Decimal(1)) if number.as_tuple().exponent > 0 else number  # 1E+3 shown as 1000


def apply_stake(points: Mapping[str, int], stake: Any) -> dict:
    """Multiply integer points by the (already parsed) stake; whole results stay ints."""
    inputs.points(points)
    stake = stake if isinstance(stake, Decimal) and stake.is_finite() else parse_stake(stake)
    out = {}
    for name, p in points.items():
        value = stake * p
        out[name] = int(value) if value == value.to_integral_value() else float(value)
    return out


def check_points(points: Mapping[str, int], field: str) -> None:
    """Refuse a hand whose points go past :data:`MAX_POINTS`, naming the ``field`` (a fact, or
    ``rules.<switch>``) that makes them absurd."""
    largest = max((abs(p) for p in points.values()), default=0)
    if largest > MAX_POINTS:
        raise FactsError(N_("This hand would move {points} points, more than the {limit} one hand may: check "
                            "{field}.", points=largest, limit=MAX_POINTS, field=field),
                         code="too_many_points", field=field)
