"""A slow, obviously-correct reference for 大冶打拱, written from rules/dagong.md (not from the engine).

Plays (§5): every joker takes every natural rank in turn (brute force over the multisets of ranks
the jokers stand for); each all-natural result is read by its shape. Jokers alone are a group of
the joker value (§5.1). Suits matter only for a pure 510K.

Settlement (§6–§8, §10): the pseudocode of §10, line by line, with the updated
``firstThirdAlwaysWins`` (E1 and E3 do not apply; ×2 only when the winner holds all 200).
"""
from __future__ import annotations

from collections import Counter
from itertools import combinations, combinations_with_replacement

NATURAL = range(3, 16)          # 3 .. 2
ACE, TWO = 14, 15
SUIT_ORDER = {"s": 4, "h": 3, "c": 2, "d": 1}


# --------------------------------------------------------------------------------------------
# Readings: (type, rank, length, values, facts) with facts a frozenset of (key, value)


def _shape(ranks: list, jokers: int, rules) -> set:
    """Readings of ranks (each joker already replaced by a rank); no 510K (see _510k)."""
    n = len(ranks)
    count = Counter(ranks)
    values = tuple(sorted(ranks))
    soft = jokers > 0
    out = set()
    if len(count) == 1:
        rank = ranks[0]
        if n == 1:
            out.add(("single", rank, 1, values, frozenset({("joker", False)})))
        if n == 2:
            out.add(("pair", rank, 2, values, frozenset()))
        if n == 3:
            out.add(("triple", rank, 3, values, frozenset()))
        if max(rules.bomb_min, 3) <= n <= 12:
            out.add(("bomb", rank, n, values, frozenset({("soft", soft)})))
    low, high = min(count), max(count)
    consecutive = sorted(count) == list(range(low, high + 1))
    if consecutive and high <= ACE:
        widths = set(count.values())
        if len(widths) == 1:
            width = widths.pop()
            k = len(count)
            kinds = {2: ("linked_pairs", rules.min_linked_pairs), 3: ("linked_triples", rules.min_linked_triples)}
            if rules.allow_straights:
                kinds[1] = ("straight", rules.min_straight)
            if width in kinds and k >= max(kinds[width][1], 2):
                out.add((kinds[width][0], low, n, values, frozenset()))
            if rules.gunlong and width >= 4 and k >= 2:
                out.add(("gunlong", low, n, values, frozenset({("soft", soft), ("per_rank", width)})))
    return out


def _510k(cards: list, rules) -> set:
    """A 5, a 10 and a K; jokers (at most max_jokers_in_510k) fill in any rank and suit."""
    naturals = [c for c in cards if c.rank < 16]
    jokers = len(cards) - len(naturals)
    ranks = sorted(c.rank for c in naturals)
    if len(cards) != 3 or not naturals or jokers > rules.max_jokers_in_510k:
        return set()
    if len(set(ranks)) != len(ranks) or not set(ranks) <= {5, 10, 13}:
        return set()
    suits = {c.suit for c in naturals}
    out = set()
    values = (5, 10, 13)
    if None not in suits and len(suits) == 1:  # jokers take the same suit
        out.add(("510k", 13, 3, values, frozenset({("pure", True), ("suit", suits.pop()), ("suited", True)})))
    if jokers or not (None not in {c.suit for c in naturals} and len({c.suit for c in naturals}) == 1):
        suited = None not in {c.suit for c in naturals}
        out.add(("510k", 13, 3, values, frozenset({("pure", False), ("suit", None), ("suited", suited)})))
    return out


def readings(cards: list, rules) -> set:
    """Every reading of the physical cards (Card objects)."""
    naturals = [c.rank for c in cards if c.rank < 16]
    jokers = len(cards) - len(naturals)
    if not naturals:
        return _jokers_alone(jokers, rules)
    out = set()
    for filling in combinations_with_replacement(NATURAL, jokers):
        out |= _shape(naturals + list(filling), jokers, rules)
    return out | _510k(cards, rules)


def _jokers_alone(n: int, rules) -> set:
    value = 15 if rules.laizi_single_value == 2 else 3
    values = (value,) * n
    if n == 1:
        return {("single", value, 1, values, frozenset({("joker", True)}))}
    if n == 2:
        return {("pair", value, 2, values, frozenset())}
    if n == 3:
        if rules.three_jokers == "pure510KSpade":
            return {("510k", 13, 3, (5, 10, 13), frozenset({("pure", True), ("suit", "s"), ("suited", True)}))}
        out = {("triple", value, 3, values, frozenset())}
        if rules.bomb_min <= 3:
            out.add(("bomb", value, 3, values, frozenset({("soft", True)})))
        return out
    if n == 4 and rules.four_jokers == "topBomb":
        return {("four_jokers", 18, 4, (18,) * 4, frozenset({("soft", True)}))}
    return {("bomb", value, n, values, frozenset({("soft", True)}))}


# --------------------------------------------------------------------------------------------
# Beating (§5.2, §5.3)


def _tier(reading, rules):
    """Bomb-class order, weakest first: (small bombs below 510K under 510KAboveFourBomb), mixed
    510K, pure 510K, bombs, 滚龙, four jokers as the top bomb. None for ordinary plays."""
    kind, rank, length, values, facts = reading
    facts = dict(facts)
    if kind == "510k":
        return (3, SUIT_ORDER[facts["suit"]]) if facts["pure"] else (2, 0)
    if kind == "bomb":
        hard = not facts["soft"]
        small = rules.bomb_vs_510k == "510KAboveFourBomb" and length <= 4
        return (1 if small else 4, int(rules.xi_premium and hard and length >= 7), length,
                int(rules.hard_beats_soft and hard), rank)
    if kind == "gunlong":
        return (5, length, max(values))
    if kind == "four_jokers":
        return (6,)
    return None


def beats(previous, play, rules) -> bool:
    before, after = _tier(previous, rules), _tier(play, rules)
    if after is None:
        return before is None and play[0] == previous[0] and play[2] == previous[2] and play[1] > previous[1]
    return before is None or after > before


_TYPES = ("single", "pair", "triple", "linked_pairs", "linked_triples", "straight")


def highest(found: set, rules):
    """The strongest reading: bomb class by tier, then ordinary by top rank (then type)."""
    def key(reading):
        tier = _tier(reading, rules)
        if tier is not None:
            return (1,) + tier
        return (0, max(reading[3]), _TYPES.index(reading[0]))
    return max(found, key=key)


def judge(previous: list | None, play: list, rules):
    """(legal, reading used) for a play of physical cards (no deck limits, no declarations)."""
    mine = readings(play, rules)
    if not mine:
        return False, None
    if previous is None:
        return True, highest(mine, rules)
    table = readings(previous, rules)
    if not table:
        return False, None
    top = highest(table, rules)
    beating = {r for r in mine if beats(top, r, rules)}
    if not beating:
        return False, None
    ordinary = {r for r in beating if _tier(r, rules) is None}
    return True, highest(ordinary or beating, rules)


def answer_kind(reading) -> str:
    """follow, 510k, pure_510k, bomb_<n>, gunlong, four_jokers."""
    kind, _rank, length, _values, facts = reading
    if kind not in ("510k", "bomb", "gunlong", "four_jokers"):
        return "follow"
    if kind == "510k":
        return "pure_510k" if dict(facts)["pure"] else "510k"
    return f"bomb_{length}" if kind == "bomb" else kind


def strength(reading, rules) -> tuple:
    """The order of readings, weakest first (the key of :func:`highest`)."""
    tier = _tier(reading, rules)
    return (1,) + tier if tier is not None else (0, max(reading[3]), _TYPES.index(reading[0]))


def answers(previous: list, hand: list, rules) -> dict:
    """{kind: weakest strength} over every subset of the hand and EVERY reading of it that beats
    the table's highest reading (§5.1: the player says what a joker stands for); no deck limits."""
    table = readings(previous, rules)
    if not table:
        return {}
    top = highest(table, rules)
    best: dict = {}
    for n in range(1, len(hand) + 1):
        for subset in set(combinations(sorted(hand, key=str), n)):
            for reading in readings(list(subset), rules):
                if beats(top, reading, rules):
                    kind, value = answer_kind(reading), strength(reading, rules)
                    best[kind] = min(best.get(kind, value), value)
    return best


# --------------------------------------------------------------------------------------------
# Settlement (§10)


def settle(facts: dict, rules) -> dict:
    """Points per player (base stake included, no 喜钱), by §10's pseudocode."""
    players, b = facts["players"], rules.base_stake
    order, cap = facts["order"], facts.get("captured") or {}
    cap = {p: cap.get(p, 0) for p in players}
    if facts.get("shout"):
        shouter, m = facts["shout"], rules.shout_multiplier
        win = order[0] == shouter
        return {p: ((3 if win else -3) if p == shouter else (-1 if win else 1)) * m * b for p in players}
    side_a = {facts["banker"], facts["partner"]}
    team = side_a if order[0] in side_a else set(players) - side_a
    other = set(players) - team
    second_points, team_points = cap[order[1]], sum(cap[p] for p in team)
    literal = rules.first_third_always_wins
    if order[1] in team:
        winner, m = team, 4 if sum(cap[p] for p in other) == 0 else 2
    elif len(order) == 2 and rules.early_end_e1 and not literal and second_points >= rules.e1_fence \
            and team_points > 0:
        winner, m = other, 1
    elif len(order) == 2 and rules.early_end_e2 and team_points >= rules.e2_fence and second_points > 0:
        winner, m = team, 1
    elif len(order) == 2 and rules.early_end_e3 and not literal and 200 in (second_points, team_points):
        winner, m = (other if second_points == 200 else team), rules.shutout_multiplier_13_14
    elif len(order) == 2:
        raise ValueError("hand not over")
    else:
        last = [p for p in players if p not in order[:3]][0]
        points = dict(cap)
        points[order[0]] += points[last]              # the 末游's captured points go to the 头游
        points[last] = 0
        points[order[2]] += facts["last_hand_points"]  # the 末游's hand goes to the 三游
        p = sum(points[x] for x in team)
        first_third = order[2] in team
        winner = team if (p >= rules.win_threshold or (literal and first_third)) else other
        m = rules.shutout_multiplier_13_14 if sum(points[x] for x in winner) == 200 else 1
    return {p: (m * b if p in winner else -m * b) for p in players}
