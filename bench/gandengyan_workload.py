"""干瞪眼 engine workload for ``bench/engine.py``.

Checks: a fixed, seeded pool of plays of all six types (singles, pairs, triples, straights,
connected pairs, bombs) in leads (a third) and follows (two thirds: the next rank up, a skip,
a 2, a bomb, a mismatch), about a third of them with a joker standing in for a card; 2 decks.
Settlements: a fixed pool of valid hands, 2–6 players, under the four presets and a few
switch mixes (jokers, twos, held and played bombs, shut-outs, caps, long hands).

``CASES`` lists (label, function(n), target per second; issue 7: 50,000 cold). "warm" repeats the
pool (the game's one cache, readings by card codes, and the card parser's cache can answer);
"cold" clears both caches before each batch so every card string is new to them. Settlement keeps
no cache: warm and cold differ only in the pool.
"""
from __future__ import annotations

import marshal
import os
import random
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from companion.engine import cards as cards_module  # noqa: E402
from companion.engine import gandengyan as g  # noqa: E402
from companion.engine.cards import Card, format_cards  # noqa: E402
from companion.engine.errors import FactsError  # noqa: E402
from companion.engine.gandengyan import combos  # noqa: E402

SEED = 20261130
SUITS = "shcd"


_USED: dict = {}  # (rank, suit) -> copies used in the current pool entry (2 decks: 2 of each)


def _suit(rank, rng):
    free = [s for s in SUITS if _USED.get((rank, s), 0) < 2]
    suit = rng.choice(free) if free else None
    _USED[(rank, suit)] = _USED.get((rank, suit), 0) + 1
    return suit


def _cards(ranks, rng, jokers=0):
    out = [Card(r, _suit(r, rng)) for r in ranks]
    for _ in range(jokers):
        natural = [i for i, c in enumerate(out) if not c.is_joker and c.rank != 15]
        if len(natural) < 2:  # keep at least one natural card
            break
        out[rng.choice(natural)] = Card(rng.choice((16, 17, 18)))
    rng.shuffle(out)
    return out


def _play(kind, rank, rng, length=None, jokers=0):
    if kind == "single":
        ranks = [rank]
    elif kind == "pair":
        ranks = [rank] * 2
    elif kind == "triple":
        ranks = [rank] * 3
    elif kind == "bomb":
        ranks = [rank] * (length or 4)
    elif kind == "straight":
        ranks = list(range(rank, rank + length))
    else:  # connected pairs
        ranks = [r for r in range(rank, rank + length) for _ in (0, 1)]
    if kind == "single" and jokers:
        jokers = 0
    return _cards(ranks, rng, jokers)


def _random_kind(rng):
    kind = rng.choice(("single", "pair", "triple", "straight", "connected_pairs", "bomb"))
    if kind == "straight":
        length = rng.randint(3, 7)
        return kind, rng.randint(3, 15 - length), length
    if kind == "connected_pairs":
        length = rng.randint(2, 4)
        return kind, rng.randint(3, 15 - length), length
    if kind == "bomb":
        return kind, rng.randint(3, 15), rng.choice((4, 4, 4, 5, 6))
    return kind, rng.randint(3, 15), None


def _check_pool(size=3000):
    rng = random.Random(SEED)
    pool = []
    for i in range(size):
        _USED.clear()
        kind, rank, length = _random_kind(rng)
        jokers = 1 if rng.random() < 0.34 else 0
        if i % 3 == 0:  # lead
            pool.append((None, format_cards(_play(kind, rank, rng, length, jokers))))
            continue
        top = _play(kind, rank, rng, length, 0)
        choice = rng.random()
        if choice < 0.45:  # the next rank up (legal unless at the top)
            cand_rank = rank + 1 if kind not in ("straight", "connected_pairs") else min(rank + 1, 15 - length)
            cand = _play(kind, min(cand_rank, 15), rng, length, jokers)
        elif choice < 0.6:  # a skip
            cand = _play(kind, min(rank + 2, 15 - (length or 1) + (1 if length is None else 0)), rng, length, jokers)
        elif choice < 0.7 and kind in ("single", "pair", "triple"):  # 2s
            cand = _play(kind, 15, rng)
        elif choice < 0.85:  # a bomb
            cand = _play("bomb", rng.randint(3, 15), rng, rng.choice((4, 5)), jokers)
        else:  # something else
            k2, r2, l2 = _random_kind(rng)
            cand = _play(k2, r2, rng, l2, jokers)
        pool.append((format_cards(top), format_cards(cand)))
    return pool


def _settle_pool(size=600):
    rng = random.Random(SEED + 1)
    rule_sets = [g.PRESETS["source"], g.PRESETS["qq"], g.PRESETS["m2"], g.PRESETS["xiangshan"],
                 g.rules_from_dict({"playedBombMult": "double", "shutOut": "double", "cap": "perLoser:20"}),
                 g.rules_from_dict({"tripleIsBomb": True, "playedBombMult": "linear", "shutOut": "fixed20"}),
                 g.rules_from_dict({"jokerDoubling": "perJoker", "twosAreTrumps": "perTwo"}),
                 g.rules_from_dict({"oneCardExempt": True, "shutOut": "threshold:5", "unit": 2})]
    names = ["Ann", "Bo", "Cai", "Dee", "Eve", "Fu"]
    pool = []
    while len(pool) < size:
        rules = rng.choice(rule_sets)
        players = names[:rng.randint(2, 6)]
        winner = rng.choice(players)
        losers = {}
        jokers_left = 2
        for name in players:
            if name == winner:
                continue
            shut = rng.random() < 0.15
            cards = 5 if shut else rng.randint(1, 9)
            jokers = 1 if jokers_left and rng.random() < 0.3 else 0
            jokers_left -= jokers
            loser = {"cards": cards, "jokers": jokers}
            if rng.random() < 0.3:
                loser["twos"] = rng.randint(0, min(1, cards - jokers))
            if cards - jokers >= 4 and rng.random() < 0.2:
                loser["held_bombs"] = [4]
            if shut:
                loser["played"] = False
            losers[name] = loser
        facts = {"players": players, "winner": winner, "losers": losers}
        if rng.random() < 0.5:
            facts["bombs_played"] = [rng.choice((4, 4, 5)) for _ in range(rng.randint(1, 2))]
        if rng.random() < 0.2:
            facts["tricks"] = rng.randint(5, 35)
        try:
            g.validate_facts(facts, rules)
        except FactsError:
            continue
        pool.append((facts, rules))
    return pool


def _distinct(pool, size):
    """The first ``size`` entries of ``pool`` that differ from each other (as the memo sees them)."""
    seen, out = set(), []
    for facts, rules in pool:
        key = (marshal.dumps(facts), rules)
        if key not in seen:
            seen.add(key)
            out.append((facts, rules))
    return out[:size]


CHECKS = _check_pool()
SETTLES = _settle_pool()
# cold settlements: a batch (1000) never meets the same hand twice, so the memo cannot answer
COLD_SETTLES = _distinct(_settle_pool(1500), 1200)
_RULES = g.Rules()


def checks(n):
    check, rules, pool, size = g.check, _RULES, CHECKS, len(CHECKS)
    for i in range(n):
        previous, play = pool[i % size]
        check(previous, play, rules, players=4)


def settlements(n, pool=SETTLES):
    settle, size = g.settle, len(pool)
    for i in range(n):
        facts, rules = pool[i % size]
        settle(facts, rules)


def _clear():
    """Empty every cache the engine keeps per input: the game's readings cache and the card parser's."""
    combos.readings_of.cache_clear()
    cards_module._parse.cache_clear()
    cards_module._readings_of.cache_clear()
    from companion.engine import money

    money._read_stake.cache_clear()


def cold_checks(n):
    _clear()
    checks(n)


def cold_settlements(n):
    _clear()
    settlements(n, COLD_SETTLES)


def mix():
    """How the check pool splits: legal share, joker share, types."""
    from collections import Counter
    verdicts = [g.check(p, c, players=4) for p, c in CHECKS]
    return {"legal": sum(v.legal for v in verdicts) / len(verdicts),
            "jokers": sum(("JK" in c or "SJ" in c or "BJ" in c) for _, c in CHECKS) / len(CHECKS),
            "leads": sum(p is None for p, _ in CHECKS) / len(CHECKS),
            "codes": Counter(v.code for v in verdicts).most_common(),
            "types": Counter(v.play.type for v in verdicts if v.play).most_common()}


CASES = [
    ("干瞪眼 check (mixed leads/follows, warm)", checks, 50_000),
    ("干瞪眼 settle (presets and switches, warm)", settlements, 50_000),
    ("干瞪眼 check (cold: caches cleared)", cold_checks, 50_000),
    ("干瞪眼 settle (cold: distinct hands)", cold_settlements, 50_000),
]

if __name__ == "__main__":
    print(mix())
