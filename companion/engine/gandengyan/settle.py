"""Who pays what (rules file §3.8, §4 "Full settlement formula", §8).

Every multiplier is a step ``(factor, sentence)``: a loser pays ``base × the product of exactly
his steps`` (base = cards left, or 20 + 10 × 炸数 under ``shutOut=fixed20``), capped by ``cap``;
the sentence of each step is what the player reads. A fractional ``unit`` and the stake are the
two steps applied to the money after the (integer) points.
"""
from __future__ import annotations

from decimal import Decimal

from ..money import apply_stake, check_points, parse_stake
from ..results import Settlement
from ..text import N_, NP_, Text
from .facts import validate_facts
from .rules import Rules, as_rules

_S_PLAIN = N_("{name}: {cards} cards = {pay}")
_S_PLAIN_1 = N_("{name}: 1 card = {pay}")
_S_STEP = N_("{name}: {cards} cards, {factors} = {pay}")
_S_STEP_1 = N_("{name}: 1 card, {factors} = {pay}")
_S_STEP_CAP = N_("{name}: {cards} cards, {factors} = {raw}, capped at {pay}")
_S_STEP_CAP_1 = N_("{name}: 1 card, {factors} = {raw}, capped at {pay}")
_S_PLAIN_CAP = N_("{name}: {cards} cards = {raw}, capped at {pay}")
_F_JOKER = N_("holds a joker, ×2")
_F_JOKERS_ONCE = N_("holds {count} jokers, ×2 once")
# plural templates: the number of jokers, 2s or bombs chooses the form when the step is made
_F_PER_JOKER = NP_("holds {count} joker, ×{factor}", "holds {count} jokers, ×2 each = ×{factor}", None)
_F_TWOS = NP_("holds one 2, ×{factor}", "holds {count} 2s, ×2 each = ×{factor}", None)
_F_HELD_ONCE = N_("holds a bomb, ×2")
_F_HELD_NOT_STACKED = N_("holds a bomb, no extra ×2 on top of the joker doubling")
_F_HELD_PER = NP_("holds {count} bomb, ×{factor}", "holds {count} bombs, ×2 each = ×{factor}", None)
_F_HELD_SIZE = NP_("holds a bomb of {sizes} cards, ×{factor}", "holds bombs of {sizes} cards, ×{factor}", None)
_F_SHUT = N_("never played (shut out), ×2")
_F_SHUT_DEALER = N_("dealer who only made the opening lead (shut out), ×2")
_F_THRESHOLD = N_("{threshold} or more cards left, ×2")
_F_PLAYED_DOUBLE = NP_("{count} bomb played, ×{factor}", "{count} bombs played, ×2 each = ×{factor}", None)
_F_PLAYED_SIZE = NP_("a bomb of {sizes} cards played, ×{factor}", "bombs of {sizes} cards played, ×{factor}",
                     None)
_F_PLAYED_LINEAR = N_("bombs played count {count} (炸数), ×(1 + {count}) = ×{factor}")
_F_LONG = N_("long hand ({tricks} tricks), ×{factor}")
_F_UNIT = N_("{unit} points per card, ×{unit}")
_S_FIXED = N_("{name}: shut out, pays 20 + 10 × {count} (炸数 of the bombs played) = {raw}")
_S_FIXED_CAP = N_("{name}: shut out, pays 20 + 10 × {count} (炸数 of the bombs played) = {raw}, capped at {pay}")
_S_FIXED_STEP = N_("{name}: shut out, 20 + 10 × {count} (炸数 of the bombs played) = {base}, {factors} = {pay}")
_S_FIXED_STEP_CAP = N_("{name}: shut out, 20 + 10 × {count} (炸数 of the bombs played) = {base}, {factors} = "
                       "{raw}, capped at {pay}")
_S_EXEMPT = N_("{name}: 1 card left (报警), pays nothing at this table.")
_S_TOTAL = N_("{winner} collects {total} from {count} players.")
_S_TOTAL_ONE = N_("{winner} collects {total} from 1 player.")
_S_UNIT_MONEY = N_("Unit: {unit} per card, so the money is the points × {unit}.")
_S_STAKE = N_("Stake: {stake} per point, so the money is the points × {stake}.")

_JOINS = {n: ", ".join("{f%d}" % i for i in range(n)) for n in range(2, 12)}


def _say(template: Text, count: int | None = None, /, **params) -> Text:
    """``template`` filled in; ``count`` chooses a plural template's form."""
    return Text(template.template, params, template.plural, count)


def _factors_text(steps: list) -> Text:
    """The sentences of some steps as one Text (each stays a translatable Text parameter)."""
    if len(steps) == 1:
        return steps[0][1]
    return Text(_JOINS[len(steps)], {f"f{i}": text for i, (_, text) in enumerate(steps)})


def _product(steps: list) -> int:
    result = 1
    for factor, _ in steps:
        result *= factor
    return result


def _joker_bomb_size(size: int, rules: Rules) -> int:
    """Bombs played are listed by size; the double-joker bomb (2) counts as the size it stands for."""
    if size == 2:
        return 3 if rules.joker_bomb == "as3" else 4
    return size


def _bomb_count(bombs: list, rules: Rules) -> int:
    """炸数 of the bombs played (§8 S5/S11): the smallest kind of bomb counts 1, each extra card +1."""
    return sum(_joker_bomb_size(s, rules) - rules.min_bomb + 1 for s in bombs)


def _played_bombs_step(bombs: list, rules: Rules) -> list:
    """``playedBombMult``: one step shared by every loser."""
    mode = rules.played_bomb_mult
    if not bombs or mode == "off":
        return []
    if mode == "double":
        factor = 2 ** len(bombs)
        return [(factor, _say(_F_PLAYED_DOUBLE, len(bombs), count=len(bombs), factor=factor))]
    if mode == "bySize":
        factor = 1
        for size in bombs:
            factor *= 2 ** (_joker_bomb_size(size, rules) - 2)
        return [(factor, _say(_F_PLAYED_SIZE, len(bombs), sizes=", ".join(str(s) for s in bombs), factor=factor))]
    count = _bomb_count(bombs, rules)
    return [(1 + count, _say(_F_PLAYED_LINEAR, count=count, factor=1 + count))]


def _long_hand_step(tricks, rules: Rules) -> list:
    """``longHandMult``: ×2 from trick 20, ×2 again from trick 30."""
    if rules.long_hand_mult != "on" or tricks is None or tricks < 20:
        return []
    factor = 4 if tricks >= 30 else 2
    return [(factor, _say(_F_LONG, tricks=tricks, factor=factor))]


def _unit_step(rules: Rules) -> list:
    """A whole ``unit`` multiplies the points; a fractional one is applied to the money."""
    unit = rules.unit
    if isinstance(unit, int) and unit != 1:
        return [(unit, _say(_F_UNIT, unit=unit))]
    return []


def _joker_step(jokers: int, rules: Rules) -> list:
    """``jokerDoubling`` (§3.8: jokers held double the pay; §6-D8 once or per joker)."""
    mode = rules.joker_doubling
    if not jokers or mode == "off":
        return []
    if mode == "once":
        return [(2, _F_JOKER if jokers == 1 else _say(_F_JOKERS_ONCE, count=jokers))]
    factor = 2 ** jokers
    return [(factor, _say(_F_PER_JOKER, jokers, count=jokers, factor=factor))]


def _twos_step(twos: int, rules: Rules) -> list:
    """``twosAreTrumps=perTwo``: ×2 per 2 held."""
    if not twos or rules.twos_are_trumps != "perTwo":
        return []
    return [(2 ** twos, _say(_F_TWOS, twos, count=twos, factor=2 ** twos))]


def _held_bombs_step(held: list, joker_doubled: bool, rules: Rules) -> list:
    """``heldBombMult``: once (not on top of the joker ×2), per bomb, or by size."""
    mode = rules.held_bomb_mult
    if not held or mode == "off":
        return []
    if mode == "once":
        return [(1, _F_HELD_NOT_STACKED)] if joker_doubled else [(2, _F_HELD_ONCE)]
    if mode == "perBomb":
        return [(2 ** len(held), _say(_F_HELD_PER, len(held), count=len(held), factor=2 ** len(held)))]
    factor = 1
    for size in held:
        factor *= 2 ** (size - 2)
    return [(factor, _say(_F_HELD_SIZE, len(held), sizes=", ".join(str(s) for s in held), factor=factor))]


def _is_shut_out(name: str, loser: dict, dealer, rules: Rules) -> bool:
    """Shut out (全关): never played; with the dealer exception a dealer whose only play was the
    opening lead counts too (§4 ``shutOut``)."""
    if rules.shut_out not in ("double", "fixed20"):
        return False
    return not loser["played"] or (rules.shut_out_dealer_exception and loser["dealer_only_opening"]
                                   and name == dealer)


def _threshold(rules: Rules) -> int | None:
    """k of ``shutOut=threshold:k``, else None."""
    mode = rules.shut_out
    return int(mode.partition(":")[2]) if mode.startswith("threshold:") else None


def _over_threshold(loser: dict, rules: Rules) -> bool:
    """``shutOut=threshold:k``: the loser is left with k or more cards (§4)."""
    k = _threshold(rules)
    return k is not None and loser["cards"] >= k


def _shut_out_step(loser: dict, shut_out: bool, rules: Rules) -> list:
    """``shutOut=double`` (×2 for a shut-out loser) or ``threshold:k`` (×2 from k cards)."""
    if shut_out:
        return [(2, _F_SHUT_DEALER if loser["played"] else _F_SHUT)]
    if _over_threshold(loser, rules):
        return [(2, _say(_F_THRESHOLD, threshold=_threshold(rules)))]
    return []


TALLIES = ("won", "shut_out", "jokers", "bombs_held")  # every figure a hand may tally, in summary order


def tally_figures(rules: Rules = None) -> tuple:
    """The review figures a hand can tally under ``rules`` (keys of ``Settlement.tallies``), in the
    order a summary shows them: hands won, shut-outs (春天, only where the rules have them), jokers
    and bombs held at the end."""
    rules = as_rules(rules)
    return tuple(f for f in TALLIES if f != "shut_out" or rules.shut_out != "off")


def _tallies(hand: dict, rules: Rules) -> dict:
    """Per player, the figures of this hand (non-zero counts only), decided by the settlement's
    own functions: a loser is counted shut out exactly when his pay has a shut-out step."""
    out = {hand["winner"]: {"won": 1}}
    for name, loser in hand["losers"].items():
        shut = _is_shut_out(name, loser, hand.get("dealer"), rules) or _over_threshold(loser, rules)
        counts = {"shut_out": int(shut), "jokers": loser["jokers"],
                  "bombs_held": len(loser["held_bombs"])}
        out[name] = {k: v for k, v in counts.items() if v}
    return {name: counts for name, counts in out.items() if counts}


def _limit(rules: Rules) -> int | None:
    """``cap`` (perLoser:x or multiplier:x) bounds the multiple, cards included; a whole unit scales it."""
    if rules.cap == "none":
        return None
    limit = int(rules.cap.partition(":")[2])
    return limit * rules.unit if isinstance(rules.unit, int) else limit


def _capped(raw: int, limit: int | None) -> int:
    return raw if limit is None or raw <= limit else limit


def _fixed20(name: str, bombs: list, rules: Rules) -> tuple:
    """``shutOut=fixed20``: a shut-out loser pays 20 + 10 × 炸数 instead (§4, §8 S11)."""
    count = _bomb_count(bombs, rules)
    base = 20 + 10 * count
    steps = _unit_step(rules)
    raw = base * _product(steps)
    pay = _capped(raw, _limit(rules))
    if not steps:
        if pay == raw:
            return pay, _say(_S_FIXED, name=name, count=count, raw=raw)
        return pay, _say(_S_FIXED_CAP, name=name, count=count, raw=raw, pay=pay)
    factors = _factors_text(steps)
    if pay == raw:
        return pay, _say(_S_FIXED_STEP, name=name, count=count, base=base, factors=factors, pay=pay)
    return pay, _say(_S_FIXED_STEP_CAP, name=name, count=count, base=base, factors=factors, raw=raw, pay=pay)


def _sentence(name: str, cards: int, steps: list, raw: int, pay: int) -> Text:
    if not steps:
        if pay != raw:
            return _say(_S_PLAIN_CAP, name=name, cards=cards, raw=raw, pay=pay)
        return _say(_S_PLAIN_1 if cards == 1 else _S_PLAIN, name=name, cards=cards, pay=pay)
    factors = _factors_text(steps)
    if pay != raw:
        return _say(_S_STEP_CAP_1 if cards == 1 else _S_STEP_CAP, name=name, cards=cards, factors=factors,
                    raw=raw, pay=pay)
    return _say(_S_STEP_1 if cards == 1 else _S_STEP, name=name, cards=cards, factors=factors, pay=pay)


def loser_steps(loser: dict, shut_out: bool, rules: Rules, shared: list) -> list:
    """Every ``(factor, sentence)`` step of one loser, personal ones first, then the shared ones."""
    jokers = _joker_step(loser["jokers"], rules)
    return (jokers + _twos_step(loser["twos"], rules) + _held_bombs_step(loser["held_bombs"], bool(jokers), rules)
            + _shut_out_step(loser, shut_out, rules) + shared)


def _pay(name: str, loser: dict, hand: dict, rules: Rules, shared: list, limit: int | None) -> tuple:
    """(points a loser pays, the sentence that shows how)."""
    if rules.one_card_exempt and loser["cards"] == 1:
        return 0, _say(_S_EXEMPT, name=name)
    shut_out = _is_shut_out(name, loser, hand.get("dealer"), rules)
    if shut_out and rules.shut_out == "fixed20":
        return _fixed20(name, hand["bombs_played"], rules)
    steps = loser_steps(loser, shut_out, rules, shared)
    raw = loser["cards"] * _product(steps)
    pay = _capped(raw, limit)
    return pay, _sentence(name, loser["cards"], steps, raw, pay)


def _money_steps(rules: Rules, stake: Decimal) -> tuple:
    """(money per point, the steps that say so): a fractional unit, then the stake."""
    per_point, steps = stake, []
    if not isinstance(rules.unit, int):
        unit = Decimal(str(rules.unit))
        per_point = unit * stake
        steps.append(_say(_S_UNIT_MONEY, unit=rules.unit))
    if stake != 1:
        steps.append(_say(_S_STAKE, stake=stake))
    return per_point, steps


def settle(facts, rules: Rules = None, stake=1) -> Settlement:
    """Who pays what (§3.8, §4): validates the facts first; points are zero-sum integers.

    ``points`` include the ``unit`` when it is a whole number; a fractional unit is applied with the
    stake, so ``deltas`` always equal points-before-unit × unit × stake. The stake goes through
    :func:`money.parse_stake` (positive, finite, at most 4 decimals).
    """
    rules = as_rules(rules)
    hand = validate_facts(facts, rules)
    money = parse_stake(stake)
    sources = (("bombs_played", _played_bombs_step(hand["bombs_played"], rules)),
               ("tricks", _long_hand_step(hand["tricks"], rules)), ("rules.unit", _unit_step(rules)))
    shared = [step for _, steps in sources for step in steps]
    limit = _limit(rules)
    points = {name: 0 for name in hand["players"]}
    steps = []
    total = 0
    losers = hand["losers"]
    for name in (n for n in hand["players"] if n in losers):  # seat order, however the facts list them
        pay, sentence = _pay(name, losers[name], hand, rules, shared, limit)
        points[name] = -pay
        total += pay
        steps.append(sentence)
    winner = hand["winner"]
    points[winner] = total
    check_points(points, max(((f, field) for field, steps in sources for f, _ in steps), default=(0, "losers"))[1])
    count = len(hand["losers"])
    steps.append(_say(_S_TOTAL_ONE, winner=winner, total=total) if count == 1
                 else _say(_S_TOTAL, winner=winner, total=total, count=count))
    per_point, money_steps = _money_steps(rules, money)
    return Settlement(deltas=apply_stake(points, per_point), steps=steps + money_steps, points=points,
                      next_dealer=winner, tallies=_tallies(hand, rules))
