"""What beats this? The smallest legal answers of each kind to a 干瞪眼 play (issue 13).

This module decides no rule. It proposes card sets (the cheapest way to make each kind of
answer from a hand, or from the table's decks when no hand is given) and asks :func:`.check.check`,
the one judge, about each; an answer is listed only when ``check`` calls it legal, with its own
reason. Of the legal proposals the weakest of each kind is kept: the exact follow (one rank
higher), a 2 (or 2 2, 2 2 2), a lone joker (``jokerSingle``), a bomb of each size (ordered by
:func:`.combos.bomb_key`), the double-joker bomb.
"""
from __future__ import annotations

from typing import NamedTuple

from .. import inputs
from ..cards import BIG_JOKER, SMALL_JOKER, SUITS, Card, CardError
from ..answering import answers_of, reading_answered, weakest_of_each_kind
from ..results import Reading
from ..text import N_
from .check import _declared_text, _excess_text, _is_lead, check
from .combos import (BOMB_TYPES, CONNECTED_PAIRS, JOKER, PAIR, SINGLE, STRAIGHT, TRIPLE, TWO, bomb_key,
                     cards_of, codes_of, deck_excess, readings_for)
from .rules import Rules, as_rules, decks, players_error

MAX_BOMB = 12  # 8 natural cards of a rank (two decks) and 4 jokers
NO_HAND_BOMB = 8
_GROUPS = frozenset({SINGLE, PAIR, TRIPLE})


class Pool(NamedTuple):
    """The cards answers are made from: naturals by rank, and the jokers."""

    naturals: dict
    jokers: tuple
    size: int


def kind_of(reading: Reading) -> str:
    """The kind of answer a reading is: "follow", "two", "joker" (a lone joker), "bomb_<n>",
    "joker_bomb"."""
    inputs.reading(reading)
    if reading.type in BOMB_TYPES:
        return "joker_bomb" if reading.type != "bomb" else f"bomb_{reading.length}"
    if reading.rank == JOKER:
        return "joker"
    return "two" if reading.rank == TWO else "follow"


def weight(reading: Reading, rules: Rules) -> tuple:
    """Which of two answers of a kind is smaller: ordinary plays by rank, bombs by ``bomb_key``."""
    if reading.type in BOMB_TYPES:
        return (1,) + bomb_key(reading, rules)
    return (0, reading.rank)


def answers(previous, rules: Rules = None, hand=None, *, players=None, previous_as=None) -> tuple:
    """The smallest legal answers of each kind to ``previous`` (text or Cards), weakest first,
    each an :class:`Answer` whose verdict is ``check``'s. With ``hand`` (text or Cards), only
    plays those cards can make; without, plays from the table's decks (less the cards on the
    table). Empty when nothing can beat it. ``previous_as`` declares the table's reading, as in
    ``check``. Bad input raises an :class:`EngineError` naming its field."""
    rules = as_rules(rules)
    error = players_error(rules, players)
    if error is not None:
        raise error
    n_decks = decks(rules, players)
    table_cards, top = _table(previous, rules, previous_as, n_decks)
    whole_decks = hand is None or (isinstance(hand, str) and not hand.strip())
    pool = _pool(hand, table_cards, n_decks)
    # an answer that would empty the hand is judged as the player's last card (twoAsLastCard)
    ranked = weakest_of_each_kind(_candidates(top, pool, rules, n_decks),
                                  lambda cards: check(table_cards, cards, rules, players=players,
                                                      previous_as=previous_as,
                                                      last_card=not whole_decks and len(cards) == pool.size),
                                  kind_of, lambda play: weight(play, rules), ("follow", "two", "joker"))
    return answers_of(ranked, whole_decks)


def _table(previous, rules: Rules, previous_as, n_decks: int) -> tuple:
    """(the table's cards, the reading answered) or an error naming "previous" / "previous_as"."""
    if _is_lead(previous):
        raise CardError(N_("Type the play on the table: a new trick can be led with any combination."),
                        code="missing", field="previous")
    cards = cards_of(previous, "previous")
    codes = codes_of(cards, "previous")
    excess = deck_excess(codes, n_decks)
    if excess is not None:  # the sentence names the rank (or card) there are too many of
        raise CardError(N_("The cards on the table need more decks than the table has: {problem}",
                           problem=_excess_text(excess, n_decks)), code="too_many_copies", field="previous")
    readings = readings_for(codes, rules)
    declared = _declared_text(previous_as, "previous_as")
    if declared is not None:
        want = sorted(min(c.rank, JOKER) for c in cards_of(declared, "previous_as"))
        readings = tuple(r for r in readings if sorted(min(v, JOKER) for v in r.values) == want)
    return cards, reading_answered(readings, declared)


def _pool(hand, table_cards: tuple, n_decks: int) -> Pool:
    """The hand's cards; without a hand, the decks less the cards on the table (no suits)."""
    if hand is None or (isinstance(hand, str) and not hand.strip()):
        cards = _decks_without(table_cards, n_decks)
    else:
        cards = cards_of(hand, "hand")
        together = tuple(sorted(codes_of(cards, "hand") + codes_of(table_cards, "previous")))
        excess = deck_excess(together, n_decks)
        if excess is not None:
            raise CardError(N_("Your hand and the cards on the table together need more decks than the table "
                               "has: {problem}", problem=_excess_text(excess, n_decks)),
                            code="too_many_copies", field="hand")
    naturals: dict = {}
    for card in cards:
        if not card.is_joker:
            naturals.setdefault(card.rank, []).append(card)
    return Pool({rank: tuple(group) for rank, group in naturals.items()},
                tuple(card for card in cards if card.is_joker), len(cards))


def _decks_without(table_cards: tuple, n_decks: int) -> list:
    deck = [Card(rank) for rank in range(3, TWO + 1) for _suit in SUITS for _copy in range(n_decks)]
    deck += [Card(SMALL_JOKER), Card(BIG_JOKER)] * n_decks
    for card in table_cards:
        if card.is_joker:
            match = next((c for c in deck if c.rank == card.rank), None) or next(
                (c for c in deck if c.is_joker), None)
        else:
            match = next((c for c in deck if c.rank == card.rank), None)
        if match is not None:
            deck.remove(match)
    return deck


# --------------------------------------------------------------------------------------------
# Proposals: card sets that may answer (check decides)


def _candidates(top: Reading, pool: Pool, rules: Rules, n_decks: int):
    if top.type in _GROUPS:
        for rank in range(top.rank + 1, TWO + 1):
            yield from _group(pool, rank, top.length)
    if top.type in (STRAIGHT, CONNECTED_PAIRS):
        copies = 1 if top.type == STRAIGHT else 2
        run = _run(pool, top.rank + 1, top.length // copies, copies)
        if run is not None:
            yield run
    smallest = 3 if rules.triple_is_bomb else 4
    for n in range(smallest, min(MAX_BOMB, 4 * n_decks + len(pool.jokers), pool.size) + 1):
        for rank in range(3, TWO + 1):
            yield from _group(pool, rank, n)
    for n in (1, 2):
        yield from _joker_sets(pool, n)


def _group(pool: Pool, rank: int, n: int) -> list:
    """n cards of ``rank``: as many naturals as there are, jokers for the rest; and the soft version
    (one joker) when there are enough naturals and a joker. Whether a joker may stand for a card of
    this rank (never for a 2, §3.6) is the classifier's rule alone: ``check`` refuses what it forbids."""
    naturals = pool.naturals.get(rank, ())
    use = min(len(naturals), n)
    spare = pool.jokers
    if not use or n - use > len(spare):
        return []
    out = [naturals[:use] + spare[:n - use]]
    if use == n and spare and n > 1:
        out.append(naturals[:n - 1] + spare[:1])
    return out


def _run(pool: Pool, low: int, k: int, copies: int):
    """``k`` consecutive ranks from ``low`` (up to the 2), ``copies`` cards each, jokers filling in.
    Whether a 2 may join a sequence (never, §3.6) is the classifier's rule alone: ``check`` decides."""
    if low + k - 1 > TWO:
        return None
    cards: list = []
    for rank in range(low, low + k):
        cards.extend(pool.naturals.get(rank, ())[:copies])
    need = k * copies - len(cards)
    if not cards or need > len(pool.jokers):
        return None
    return tuple(cards) + pool.jokers[:need]


def _joker_sets(pool: Pool, n: int) -> list:
    """Jokers alone: a lone joker (``jokerSingle``), the small and the big joker (``jokerBomb``)."""
    if n == 1:
        return [pool.jokers[:1]] if pool.jokers else []
    small = next((c for c in pool.jokers if c.rank == SMALL_JOKER), None)
    big = next((c for c in pool.jokers if c.rank == BIG_JOKER), None)
    if small and big:
        return [(small, big)]
    return [pool.jokers[:2]] if len(pool.jokers) >= 2 else []
