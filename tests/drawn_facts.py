"""Facts of a hand drawn from a game's own description of them (``describe_facts``), for the fuzz
tests over every game of the registry: no game is named here, a game registered later (the fixture
games of tests/thirdgame) is drawn the same way."""
import random

from hypothesis import strategies as st

from companion.engine import EngineError, described


def described_hand(pick, number, module, names: list, loose: bool = False) -> dict:
    """A hand's facts drawn from the engine's description of them (no game named here), over one of
    the engine's own example hands (a fact the drawing leaves alone, a card, keeps the example's
    value). ``pick(seq)`` picks an item, ``number(low, high)`` a whole number. Coherent (``loose``
    false): the facts the rules need, within their bounds; no entry for the player a per-player
    fact ``skip``s; a player fact never the one its ``not_same_as`` names; per-player counts adding
    up to their ``total``. Loose: optional facts too, names and numbers beyond the bounds."""
    description = module.describe_facts(None, len(names))
    facts = {k: v for k, v in pick(module.example_hands(names)).items() if k != "players"}
    who = [*names, "Zed"] if loose else names

    def value(fact):
        if fact.kind in (described.PLAYER, described.OPTIONAL_PLAYER):
            other = None if loose or not fact.not_same_as else facts.get(fact.not_same_as)
            return pick([n for n in who if n != other] + ([None] if fact.kind == described.OPTIONAL_PLAYER else []))
        if fact.kind == described.ORDERED_PLAYERS:  # coherent: everybody, in some order (a finished hand)
            rest, order = list(who), []
            while rest:
                order.append(rest.pop(number(0, len(rest) - 1)))
            return order[:number(0, len(order))] if loose else order
        if fact.kind in (described.COUNT, described.PER_PLAYER_COUNT):
            high = fact.high if fact.high is not None else fact.low + 12
            if loose:
                return number(fact.low - 2, high + 30)
            if fact.default is not None and pick([True, False]):
                return fact.default
            return pick(fact.chips) if fact.chips else number(fact.low, high) // fact.step * fact.step
        if fact.kind in (described.SIZES, described.PER_PLAYER_SIZES):
            return [pick(fact.chips or (fact.low,)) for _ in range(number(0, 3))]
        if fact.kind in (described.FLAG, described.PER_PLAYER_FLAG):
            return pick([True, False])
        if fact.kind == described.CHOICE:
            return pick([v for v, _label in fact.values] + (["x", 0] if loose else []))
        return pick(["7h", "", "JK", None])  # a card (loose only)

    def put(fact, name, v):
        group = facts.get(fact.head)
        if not isinstance(group, dict):
            group = facts[fact.head] = {}
        if fact.part is None:
            group[name] = v
        else:
            group[name] = {**(group[name] if isinstance(group.get(name), dict) else {}), fact.part: v}

    for fact in description:
        if fact.kind == described.PLAYERS or (not fact.needed and not (loose and pick([True, False]))):
            continue
        if fact.kind == described.CARD and not loose:
            continue
        if not fact.per_player:
            facts[fact.key] = value(fact)
            if facts[fact.key] is not None and not loose:
                facts.update({cleared: None for cleared in fact.clears})
            continue
        if not loose and fact.skip:
            (facts.get(fact.head) or {}).pop(facts.get(fact.skip), None)
        for name in who:
            if not loose and (name == facts.get(fact.skip) or fact.only_for and name != facts.get(fact.only_for)):
                continue
            put(fact, name, value(fact))
    for fact in description:  # coherent: the shares of a fixed total add up to it
        if loose or fact.total is None or fact.kind != described.PER_PLAYER_COUNT:
            continue
        left = fact.total - sum(facts.get(k) or 0 for k in fact.total_with)
        if left < 0:
            facts.update({k: 0 for k in fact.total_with if k in facts})
            left = fact.total
        for name in names[:-1]:
            share = number(0, left // fact.step) * fact.step
            put(fact, name, share)
            left -= share
        put(fact, names[-1], left)
    return facts


def coherent_hand(pick, number, module, names: list) -> dict:
    """Drawn facts the engine itself settles under the standard rules, else one of its examples."""
    facts = described_hand(pick, number, module, names)
    try:
        module.settle({**facts, "players": names}, module.rules_from_dict(None))
        return facts
    except EngineError:
        return {k: v for k, v in pick(module.example_hands(names)).items() if k != "players"}


def drawn(draw):
    """``pick`` and ``number`` from one drawn seed (one draw a hand, not one a value: drawing is the cost)."""
    rng = random.Random(draw(st.integers(0, 2**32)))
    return (lambda seq: rng.choice(list(seq))), rng.randint
