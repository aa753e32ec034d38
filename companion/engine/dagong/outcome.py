"""Who won a 大冶打拱 hand, and at what multiplier (rules/dagong.md §4, §6, §7, §8.1, §10).

:func:`decide` is the one place where the winning side, the arch, the multiplier, the early end
(E12, E1, E2, E3 or none) and the shout result are worked out; :mod:`.settle` only pays what the
:class:`Outcome` says. The multiplier is data: each step is ``(factor, sentence)`` and the
multiplier is the product of the factors of exactly those steps."""
from __future__ import annotations

import math
from typing import NamedTuple

from ..errors import FactsError
from ..text import N_, Text
from .rules import TOTAL_POINTS, Rules

ARCH_NAMES = {"half": N_("half arch (半拱)"), "straight": N_("straight arch (直拱)"),
              "dry": N_("dry arch (干带直)"), "shout": N_("shout (独牌)")}
# Each arch's factor, the one place it is said (§8.1). The source names an arch by its factor
# (X4 ``overType``: 1 半拱, 2 直拱, 4 干带直), so a house-rule multiplier is named by it too.
ARCH_FACTORS = {"half": 1, "straight": 2, "dry": 4}


class Outcome(NamedTuple):
    """The result of a hand, decided once.

    ``winners`` / ``losers``: seat order. ``early_end``: "E12", "E1", "E2", "E3" or None (the hand
    was played out, or it was a shout). ``shout``: None in 2v2, else "won" or "lost". ``shares``:
    player -> signed shares of the stake (zero-sum; a player alone against three stakes one share
    against each). ``steps``: ((factor, sentence), …) explaining the result.
    """

    winners: tuple
    losers: tuple
    arch: str
    early_end: str | None
    shout: str | None
    shares: dict
    steps: tuple

    @property
    def multiplier(self) -> int:
        """The product of the factors of the steps."""
        return math.prod(factor for factor, _ in self.steps)


def _plus(names) -> str:
    return "+".join(names)


def last_out(hand) -> str | None:
    """末游: the player still holding cards once three are out (None while fewer are out)."""
    if len(hand.order) < 3:
        return None
    return next(p for p in hand.players if p not in hand.order[:3])


def shares(winners: tuple, losers: tuple) -> dict:
    """Each winner +, each loser −; a player alone stakes one share against each opponent (§8.2:
    the shouter wins or pays 3 shares, each of the three pays or wins 1)."""
    out = {}
    for side, sign, opponents in ((winners, 1, losers), (losers, -1, winners)):
        weight = len(opponents) if len(side) == 1 else 1
        for name in side:
            out[name] = sign * weight
    return out


def _outcome(hand, winners, arch: str, early_end, shout, steps: list) -> Outcome:
    winners = tuple(p for p in hand.players if p in winners)
    losers = tuple(p for p in hand.players if p not in winners)
    return Outcome(winners, losers, arch, early_end, shout, shares(winners, losers), tuple(steps))


def _not_over(message: Text):
    raise FactsError(message, code="hand_not_over", field="order")


def decide(hand, rules: Rules) -> Outcome:
    """The outcome of a checked hand (:class:`.facts.Hand`); FactsError ``hand_not_over`` when the
    finishing order does not end the hand yet."""
    if hand.shout is not None:
        return _shout(hand, rules)
    order = hand.order
    if not order:
        _not_over(N_("The hand is not over: nobody has gone out yet; play on until three players are out, or "
                     "until the first two out are partners."))
    if len(order) == 1:
        _not_over(N_("The hand is not over: only {first} has gone out; play on until three players are out, or "
                     "until an early end (E12, E1, E2, E3) applies.", first=order[0]))
    steps = [(1, N_("Teams: {banker_side} (banker {banker}) against {other_side}.",
                    banker_side=_plus(hand.banker_side), banker=hand.banker, other_side=_plus(hand.other_side)))]
    if order[1] in hand.side_of(order[0]):
        return _e12(hand, steps)
    if len(order) == 2:
        return _early_end(hand, rules, steps)
    return _played_out(hand, rules, steps)


# --------------------------------------------------------------------------------------------
# 1 v 3 (§4)


def _shout(hand, rules: Rules) -> Outcome:
    shouter, first = hand.shout, hand.order[0]
    others = tuple(p for p in hand.players if p != shouter)
    m = rules.shout_multiplier
    steps = [(1, N_("{shouter} shouted (独牌) and plays alone against {others}; card points do not count.",
                    shouter=shouter, others=_plus(others)))]
    if hand.ignored_partner is not None:
        steps.append((1, N_("The partner given ({partner}) is ignored: in a one-against-three hand the bright "
                            "card does not matter.", partner=hand.ignored_partner)))
    if first == shouter:
        steps.append((m, N_("{shouter} went out first and wins the shout, ×{m}.", shouter=shouter, m=m)))
        return _outcome(hand, (shouter,), "shout", None, "won", steps)
    steps.append((m, N_("{first} went out before {shouter}, so {shouter} loses the shout, ×{m}.",
                        first=first, shouter=shouter, m=m)))
    return _outcome(hand, others, "shout", None, "lost", steps)


# --------------------------------------------------------------------------------------------
# 2 v 2


def _win(winners, m: int, steps: list, sentence=None) -> list:
    """The closing step: ``winners`` win the arch of multiplier ``m`` (factor m)."""
    arch = _arch(m)
    if sentence is None:
        sentence = N_("{winners} win a {arch}, ×{m}.", winners=_plus(winners), arch=ARCH_NAMES[arch], m=m)
    return steps + [(m, sentence)]


def _arch(m: int) -> str:
    """The arch of factor ``m`` (a factor no arch has: a straight arch at a house rule's multiplier)."""
    return next((arch for arch, factor in ARCH_FACTORS.items() if factor == m), "straight")


def _e12(hand, steps: list) -> Outcome:
    """E12: the first two out are partners; ×4 when the others captured nothing, else ×2 (§8.1)."""
    first, second = hand.order[:2]
    team = hand.side_of(first)
    other = tuple(p for p in hand.players if p not in team)
    other_points = sum(hand.captured[p] for p in other)
    m = ARCH_FACTORS["dry"] if other_points == 0 else ARCH_FACTORS["straight"]
    steps = steps + [(1, N_("{first} and {second} are partners and went out first and second: the hand ends "
                            "(E12).", first=first, second=second))]
    arch = ARCH_NAMES[_arch(m)]
    if other_points == 0:
        last = N_("{other} captured no points: {team} win a {arch}, ×{m}.", other=_plus(other), team=_plus(team),
                  arch=arch, m=m)
    else:
        last = N_("{other} captured {points} points: {team} win a {arch}, ×{m}.", other=_plus(other),
                  points=other_points, team=_plus(team), arch=arch, m=m)
    return _outcome(hand, team, _arch(m), "E12", None, _win(team, m, steps, last))


def _early_end(hand, rules: Rules, steps: list) -> Outcome:
    """E1, E2, E3 (§7) when the first two out are opponents; otherwise the hand is not over.
    Under ``first_third_always_wins`` only E2 applies (§8.1)."""
    first, second = hand.order
    team = hand.side_of(first)
    other = hand.side_of(second)
    second_points = hand.captured[second]
    team_points = sum(hand.captured[p] for p in team)
    literal = rules.first_third_always_wins
    if rules.early_end_e1 and not literal and second_points >= rules.e1_fence and team_points > 0:
        steps = steps + [(1, N_("{second} went out second with {points} points (at least {fence}) and {first}'s "
                                "team has {team_points} (more than 0): the hand ends early (E1).", second=second,
                                points=second_points, fence=rules.e1_fence, first=first, team_points=team_points))]
        return _outcome(hand, other, "half", "E1", None, _win(other, ARCH_FACTORS["half"], steps))
    if rules.early_end_e2 and team_points >= rules.e2_fence and second_points > 0:
        steps = steps + [(1, N_("{team} have {points} (at least {fence}) and {second} has {second_points} (more "
                                "than 0): the hand ends early (E2).", team=_plus(team), points=team_points,
                                fence=rules.e2_fence, second=second, second_points=second_points))]
        return _outcome(hand, team, "half", "E2", None, _win(team, ARCH_FACTORS["half"], steps))
    if rules.early_end_e3 and not literal and TOTAL_POINTS in (second_points, team_points):
        holder = second if second_points == TOTAL_POINTS else _plus(team)
        winners = other if second_points == TOTAL_POINTS else team
        m = rules.shutout_multiplier_13_14
        steps = steps + [(1, N_("{holder} already has all 200 points: the hand ends early (E3).", holder=holder))]
        return _outcome(hand, winners, _arch(m), "E3", None, _win(winners, m, steps))
    _not_over(N_("The hand is not over: {first} and {second} are on opposite teams and no early end applies "
                 "({second} has {second_points}, {first}'s team has {team_points}); play on until three "
                 "players are out.", first=first, second=second, second_points=second_points,
                 team_points=team_points))


def _played_out(hand, rules: Rules, steps: list) -> Outcome:
    """Three players out (§6 transfers, §8.1 1&3 / 1&4): the 末游's captured points go to the 头游,
    the points in the 末游's hand to the 三游; the 头游's team wins with ``win_threshold``."""
    first, _, third = hand.order[:3]
    last = last_out(hand)
    team = hand.side_of(first)
    other = tuple(p for p in hand.players if p not in team)
    cap = hand.captured
    moved = cap[last]
    points = sum(cap[p] for p in team) + (cap[last] if last not in team else 0)
    if third in team:
        points += hand.in_hand
    if moved:
        steps = steps + [(1, N_("{last} finished last: their {points} captured points go to {first} (first).",
                                last=last, points=moved, first=first))]
    else:
        steps = steps + [(1, N_("{last} finished last with no captured points.", last=last))]
    if hand.in_hand:
        steps.append((1, N_("The {points} points left in {last}'s hand go to {third} (third).",
                            points=hand.in_hand, last=last, third=third)))
    always = rules.first_third_always_wins and third in team
    won = always or points >= rules.win_threshold
    winner_points = points if won else TOTAL_POINTS - points
    m = rules.shutout_multiplier_13_14 if winner_points == TOTAL_POINTS else ARCH_FACTORS["half"]
    arch = ARCH_NAMES[_arch(m)]
    if always:
        last_step = N_("{team} went out first and third, so they win whatever their points (house rule "
                       "firstThirdAlwaysWins): {arch}, ×{m}.", team=_plus(team), arch=arch, m=m)
    elif won:
        last_step = N_("{team} have {points} ≥ {threshold}: they win a {arch}, ×{m}.", team=_plus(team),
                       points=points, threshold=rules.win_threshold, arch=arch, m=m)
    else:
        last_step = N_("{team} have {points} < {threshold}: {other} win a {arch}, ×{m}.", team=_plus(team),
                       points=points, threshold=rules.win_threshold, other=_plus(other), arch=arch, m=m)
    winners = team if won else other
    return _outcome(hand, winners, _arch(m), None, None, _win(winners, m, steps, last_step))
