"""Paying a 大冶打拱 hand (rules/dagong.md §8.2): the :class:`.outcome.Outcome` decides who wins
and the multiplier; here the shares are multiplied by the factors of the steps (the outcome's,
then the base stake), the 喜钱 bonuses are added, and the stake turns points into money."""
from __future__ import annotations

import math

from ..money import apply_stake, check_points, parse_stake
from ..results import Settlement
from ..text import N_
from .facts import XI_SIZES, validate
from .outcome import ARCH_NAMES, Outcome, decide, last_out
from .rules import DEFAULT_RULES, PLAYERS, Rules, coerce_rules


def _signed(value) -> str:
    return ("+" if value > 0 else "−" if value < 0 else "") + str(abs(value))


def _plus(names) -> str:
    return "+".join(names)


def settle(facts, rules: Rules = DEFAULT_RULES, stake=1) -> Settlement:
    """Settle one hand: winners, arch, multiplier, zero-sum integer points (with the base stake),
    deltas (= points × stake), plain-language steps and the next dealer (the 头游)."""
    rules = coerce_rules(rules)
    return _settled(validate(facts, rules), rules, parse_stake(stake))


def settle_as_recorded(facts, rules: Rules = DEFAULT_RULES, stake=1) -> Settlement:
    """A STORED hand settled as the engine that accepted it did (see ``validate``'s
    ``as_recorded``): only for reading hands recorded under earlier rules, never for a new one."""
    rules = coerce_rules(rules)
    return _settled(validate(facts, rules, as_recorded=True), rules, parse_stake(stake))


def _settled(hand, rules: Rules, stake) -> Settlement:
    outcome = decide(hand, rules)
    steps = list(outcome.steps) + _base_stake_steps(outcome, rules)
    factor = math.prod(f for f, _ in steps)  # the points are the product of exactly these steps
    points = {p: outcome.shares[p] * factor for p in hand.players}
    bonus_steps = _xi_qian(hand, rules, points)
    check_points(points, "xi_bombs" if hand.xi_bombs else "rules.base_stake")
    deltas = apply_stake(points, stake)
    texts = [text for _, text in steps] + bonus_steps + [_result_line(hand, outcome, deltas, bool(bonus_steps))]
    if stake != 1:
        texts.append(N_("Amounts are points × the stake of {stake} per point.", stake=stake))
    return Settlement(deltas=deltas, steps=texts, points=points, winners=list(outcome.winners), arch=outcome.arch,
                      multiplier=outcome.multiplier, next_dealer=hand.order[0], tallies=_tallies(hand, outcome))


PLACES = ("first_out", "second_out", "third_out", "last_out")  # 头游, 二游, 三游, 末游
ARCHES = tuple(arch for arch in ARCH_NAMES if arch != "shout")  # a shout is tallied as won or lost


def tally_figures(rules: Rules = DEFAULT_RULES) -> tuple:
    """The review figures a hand tallies (the keys of ``Settlement.tallies``), in the order a
    summary shows them: places, arches won (2 against 2), shouts won and lost, hands as banker,
    hands won, 喜 bombs played (only where 喜钱 is on)."""
    rules = coerce_rules(rules)
    return tuple(f for f in TALLIES if f != "xi_bombs" or rules.bonus_xi_qian)


TALLIES = (PLACES + tuple(f"arch_{arch}" for arch in ARCHES)  # every figure a hand may tally, in summary order
           + ("shouts_won", "shouts_lost", "banker", "won", "xi_bombs"))


def _tallies(hand, outcome: Outcome) -> dict:
    """Per player, the figures of this hand (non-zero counts only), read off the decided outcome."""
    out = {p: {} for p in hand.players}
    places = list(hand.order[:3]) + [last_out(hand)]
    for figure, name in zip(PLACES, places):
        if name is not None:
            out[name][figure] = 1
    out[hand.shout or hand.banker]["banker"] = 1  # §4: after a shout the shouter is the banker
    for name in outcome.winners:
        out[name]["won"] = 1
        if outcome.shout is None:
            out[name][f"arch_{outcome.arch}"] = 1
    if outcome.shout is not None:
        out[hand.shout]["shouts_won" if outcome.shout == "won" else "shouts_lost"] = 1
    for name, sizes in (hand.xi_bombs or {}).items():
        if sizes:
            out[name]["xi_bombs"] = len(sizes)
    return {name: counts for name, counts in out.items() if counts}


def _base_stake_steps(outcome: Outcome, rules: Rules) -> list:
    b = rules.base_stake
    if b == 1:
        return []
    m = outcome.multiplier
    return [(b, N_("Base stake {base}: each share is {m} × {base} = {share}.", base=b, m=m, share=m * b))]


def _xi_qian(hand, rules: Rules, points: dict) -> list:
    """喜钱: each hard 7-bomb (8-bomb) collects 1 (2) base stakes from each other player; adds them to
    ``points`` and gives the steps."""
    if not hand.xi_bombs:
        return []
    steps = []
    for p in hand.players:
        for size in hand.xi_bombs.get(p, ()):
            gain = XI_SIZES[size] * rules.base_stake
            points[p] += gain * (PLAYERS - 1)
            for q in hand.players:
                if q != p:
                    points[q] -= gain
            steps.append(N_("{player} played a hard bomb of {size} cards (喜钱): +{gain} from each other player.",
                            player=p, size=size, gain=gain))
    return steps


def _result_line(hand, outcome: Outcome, deltas: dict, bonus: bool):
    if bonus:
        return N_("Result: {lines}.", lines=", ".join(p + " " + _signed(deltas[p]) for p in hand.players))
    if outcome.shout is not None:
        others = [p for p in hand.players if p != hand.shout]
        return N_("{shouter}: {amount}; {others}: {other_amount} each.", shouter=hand.shout,
                  amount=_signed(deltas[hand.shout]), others=_plus(others), other_amount=_signed(deltas[others[0]]))
    return N_("{winners}: {amount} each; {losers}: {loss} each.", winners=_plus(outcome.winners),
              amount=_signed(deltas[outcome.winners[0]]), losers=_plus(outcome.losers),
              loss=_signed(deltas[outcome.losers[0]]))
