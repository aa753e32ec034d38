"""大冶打拱 engine workload for ``bench/engine.py``.

Plays are cut from random 27-card hands of a 108-card double deck (jokers included): singles,
pairs, triples, consecutive pairs and triples, 510Ks (pure and mixed, some with a joker),
bombs (hard and soft) and a few impossible or mismatched follows. Settlements cover every
pattern: 1&2, 1&3, 1&4, early ends E1/E2/E3 and shouts.

``CASES`` lists (label, function(n), target per second). The "warm" cases repeat a pool of a
few thousand distinct inputs (the engine caches readings by card key, as a table at a game does);
the "cold" cases clear the engine's caches before every batch (1,000 operations, taken in
order from the pool with repeated inputs removed), so every input is new to the engine.
"""
from __future__ import annotations

import os
import random
import sys
from collections import Counter

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from companion.engine import dagong  # noqa: E402
from companion.engine.cards import Card, format_cards  # noqa: E402

SEED = 20261130
PLAYERS = ["Ann", "Bo", "Cai", "Dee"]


def _deck():
    deck = [Card(rank, suit) for _ in range(2) for rank in range(3, 16) for suit in "shcd"]
    deck += [Card(16), Card(17)] * 2
    return deck


def _plays_from_hand(hand, rng):
    """Plausible plays cut from one 27-card hand."""
    by_rank = {}
    jokers = [c for c in hand if c.is_joker]
    for card in hand:
        if not card.is_joker:
            by_rank.setdefault(card.rank, []).append(card)
    plays = [[c] for c in rng.sample(hand, 4)]
    for cards in by_rank.values():
        if len(cards) >= 2:
            plays.append(cards[:2])
        if len(cards) >= 3:
            plays.append(cards[:3])
        if len(cards) >= 4:
            plays.append(cards[:])                      # hard bomb
        if jokers and len(cards) >= 3:
            plays.append(cards[:3] + jokers[:1])        # soft bomb
        if jokers and len(cards) == 1:
            plays.append(cards[:1] + jokers[:1])        # pair with a joker
    ranks = sorted(r for r in by_rank if r <= 14)
    for low in ranks:
        for width, length in ((2, 2), (2, 3), (3, 2)):
            run = list(range(low, low + length))
            if run[-1] <= 14 and all(r in by_rank and len(by_rank[r]) >= width for r in run):
                plays.append([c for r in run for c in by_rank[r][:width]])
    fives, tens, kings = by_rank.get(5, []), by_rank.get(10, []), by_rank.get(13, [])
    if fives and tens and kings:
        plays.append([fives[0], tens[0], kings[0]])
    if fives and tens and jokers:
        plays.append([fives[0], tens[0], jokers[0]])
    if len(jokers) >= 2:
        plays.append(jokers[:2])
    plays.append(rng.sample(hand, 5))                   # usually not a combination
    return [format_cards(p) for p in plays]


def _check_pool(size=4000):
    rng = random.Random(SEED)
    pool = []
    while len(pool) < size:
        deck = _deck()
        rng.shuffle(deck)
        hands = [deck[i * 27:(i + 1) * 27] for i in range(4)]
        plays = [p for hand in hands for p in _plays_from_hand(hand, rng)]
        tables = [p for p in plays if dagong.classify(p)]  # what can lie on the table
        by_size = {}
        for p in tables:
            by_size.setdefault(len(p.split()), []).append(p)
        for play in plays:
            roll = rng.random()
            if roll < 0.1:
                pool.append((None, play))
            elif roll < 0.15:
                pool.append((rng.choice(tables), "pass"))
            elif roll < 0.6 and len(by_size.get(len(play.split()), ())) > 1:
                pool.append((rng.choice(by_size[len(play.split())]), play))  # same size: a real contest
            else:
                pool.append((rng.choice(tables), play))
    return pool[:size]


def _settle_pool(size=3000):
    rng = random.Random(SEED + 1)
    pool = []
    while len(pool) < size:
        players = PLAYERS[:]
        banker = rng.choice(players)
        roll = rng.random()
        if roll < 0.1:
            shouter = rng.choice(players)
            order = rng.sample(players, rng.choice((1, 4)))
            pool.append({"players": players, "banker": banker, "partner": None, "shout": shouter,
                         "order": order, "captured": {}, "last_hand_points": 0})
            continue
        partner = rng.choice([p for p in players if p != banker])
        order = rng.sample(players, 4)
        cuts = sorted(rng.randrange(0, 41) * 5 for _ in range(4))
        shares = [cuts[0], cuts[1] - cuts[0], cuts[2] - cuts[1], cuts[3] - cuts[2], 200 - cuts[3]]
        captured = dict(zip(order, shares[:4]))
        if (order[0] in (banker, partner)) == (order[1] in (banker, partner)):
            order = order[:2]  # E12: the hand ends when the second partner goes out
        facts = {"players": players, "banker": banker, "partner": partner, "shout": None,
                 "order": order, "captured": captured, "last_hand_points": shares[4],
                 "bright_card": "7h"}
        if roll < 0.4:  # an early end: keep only the first two out when the rules allow it
            short = dict(facts, order=order[:2])
            try:
                dagong.validate_facts(short)
                facts = short
            except dagong.FactsError:
                pass
        pool.append(facts)
    return pool


CHECK_POOL = _check_pool()
SETTLE_POOL = _settle_pool()
# The cold cases walk pools without repeats, so that no input meets a memo within a batch.
COLD_CHECK_POOL = list(dict.fromkeys(CHECK_POOL))
COLD_SETTLE_POOL = list({repr(sorted(f.items())): f for f in SETTLE_POOL}.values())
RULES = dagong.Rules()
_cursor = {"check": 0, "settle": 0}


def checks(n):
    pool, check, rules = CHECK_POOL, dagong.check, RULES
    size = len(pool)
    for i in range(n):
        previous, play = pool[i % size]
        check(previous, play, rules)


def settlements(n):
    pool, settle, rules = SETTLE_POOL, dagong.settle, RULES
    size = len(pool)
    for i in range(n):
        settle(pool[i % size], rules)


def _clear():
    """Empty every memo the engine keeps of inputs: the one cache of the dagong package (readings
    and deck limits by card key, :func:`companion.engine.dagong.combos.analyse`) and the card
    parser's cache. Nothing else is kept between calls."""
    from companion.engine import cards
    from companion.engine.dagong import combos

    combos.analyse.cache_clear()
    cards._parse.cache_clear()
    cards._readings_of.cache_clear()
    from companion.engine import money

    money._read_stake.cache_clear()


def cold_checks(n):
    _clear()
    pool, check, rules = COLD_CHECK_POOL, dagong.check, RULES
    start = _cursor["check"]
    for i in range(start, start + n):
        previous, play = pool[i % len(pool)]
        check(previous, play, rules)
    _cursor["check"] = (start + n) % len(pool)


def cold_settlements(n):
    _clear()
    pool, settle, rules = COLD_SETTLE_POOL, dagong.settle, RULES
    start = _cursor["settle"]
    for i in range(start, start + n):
        settle(pool[i % len(pool)], rules)
    _cursor["settle"] = (start + n) % len(pool)


def mix():
    """What the pools contain (for the report)."""
    verdicts = Counter()
    for previous, play in CHECK_POOL:
        verdicts[dagong.check(previous, play).code] += 1
    arches = Counter(dagong.settle(f).arch for f in SETTLE_POOL)
    return verdicts, arches


CASES = [  # targets: issue 7 asks for 50,000 checks and settlements per second, cold
    ("大冶打拱 check (27-card-hand plays, warm)", checks, 50_000),
    ("大冶打拱 settle (all patterns, warm)", settlements, 50_000),
    ("大冶打拱 check (cold: cache cleared)", cold_checks, 50_000),
    ("大冶打拱 settle (cold: cache cleared)", cold_settlements, 50_000),
]

if __name__ == "__main__":
    print(*mix(), sep="\n")
