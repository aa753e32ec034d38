"""What beats this? The smallest legal answers of each kind to a 大冶打拱 play (issue 13).

This module decides no rule. It proposes card sets (the cheapest way to make each kind of
answer from a hand, or from the two decks when no hand is given) and asks :func:`.check.judge`,
the one judge, about each; an answer is listed only when ``judge`` calls it legal, with
``judge``'s own reason. Of the legal proposals, the weakest of each kind is kept (by
:func:`.combos.strength`, then the fewest jokers): the ordinary follow, a mixed and a pure 510K,
a bomb of each size, 滚龙, four jokers.
"""
from __future__ import annotations

from itertools import product
from typing import NamedTuple

from .. import inputs
from ..cards import ACE, ANY_JOKER, SUITS, TWO, Card, CardError, decks_limit_error
from ..errors import RulesError
from ..answering import answers_of, reading_answered, weakest_of_each_kind
from ..results import Reading
from ..text import N_
from .check import _declared, _is_lead, _seated, declaration_words, declared_readings, judge, to_cards
from .combos import BOMB_CLASS, analyse, cards_key, strength
from .rules import DECKS, DEFAULT_RULES, HAND_SIZE, MAX_BOMB, PlayRules, Rules, coerce_rules, play_rules

_WIDTH = {"straight": 1, "linked_pairs": 2, "linked_triples": 3}
_GROUPS = frozenset({"single", "pair", "triple"})
_510K_RANKS = (5, 10, 13)
NO_HAND_BOMB = 8  # without a hand, bombs are listed up to 8 cards (the natural cards of a rank)


class Pool(NamedTuple):
    """The cards answers are made from: naturals by rank, and the jokers."""

    naturals: dict
    jokers: tuple
    size: int


def kind_of(reading: Reading) -> str:
    """The kind of answer a reading is: "follow" (an ordinary play), "510k", "pure_510k",
    "bomb_<n>", "gunlong", "four_jokers"."""
    inputs.reading(reading)
    if reading.type not in BOMB_CLASS:
        return "follow"
    if reading.type == "510k":
        return "pure_510k" if reading.get("pure") else "510k"
    if reading.type == "bomb":
        return f"bomb_{reading.length}"
    return reading.type


def answers(previous, rules: Rules = DEFAULT_RULES, hand=None, *, players=None, previous_as=None) -> tuple:
    """The smallest legal answers of each kind to ``previous`` (text or Cards), weakest first,
    each an :class:`Answer` whose verdict is ``check``'s. With ``hand`` (text or Cards), only
    plays those cards can make; without, plays from the two decks (less the cards on the
    table). Empty when nothing can beat it. ``previous_as`` declares the table's reading, as in
    ``check``. Bad input raises an :class:`EngineError` naming its field."""
    rules = coerce_rules(rules)
    _check_players(players)
    table_cards, prev, declared = _table(previous, rules, previous_as)
    rules = play_rules(rules)
    pool = _pool(hand, table_cards)
    def redeclare(cards: tuple, reading: Reading):
        """A reading of ``cards`` other than the one used (dagong.md §5.1: the player says what a
        joker stands for): the first declaration under which check's verdict plays that reading,
        with that verdict (check decides which reading a declaration pins when following)."""
        for word in declaration_words(reading):
            verdict = judge(table_cards, cards, rules, declared, word)
            if verdict.legal and verdict.play == reading:
                return word, verdict
        return None

    ranked = weakest_of_each_kind(_candidates(prev, pool, rules, hand is None),
                                  lambda cards: judge(table_cards, cards, rules, declared), kind_of,
                                  lambda play: strength(play, rules), ("follow",), redeclare)
    return answers_of(ranked, hand is None)


def _check_players(players) -> None:
    if players is not None and not _seated(players):
        raise RulesError(N_("大冶打拱 is played by exactly 4 players, not {players}.", players=players),
                         code="player_count", field="players")


def _table(previous, rules: Rules, previous_as) -> tuple:
    """(the table's cards, the reading answered, the declaration) or an error naming "previous"."""
    if _is_lead(previous):
        raise CardError(N_("Type the play on the table: a new trick can be led with any combination."),
                        code="missing", field="previous")
    cards = to_cards(previous, "previous")
    table = analyse(cards_key(cards), play_rules(rules))
    if table.deck_problem is not None:
        raise CardError(table.deck_problem, code="too_many_copies", field="previous")
    declared = _declared(previous_as, "previous_as")
    readings = table.readings
    if declared is not None:
        readings = declared_readings(readings, declared)
    return cards, reading_answered(readings, declared), declared


def _pool(hand, table_cards: tuple) -> Pool:
    """The hand's cards; without a hand, the two decks less the cards on the table (suits dropped
    except where a 510K needs them)."""
    if hand is None or (isinstance(hand, str) and not hand.strip()):
        cards = _decks_without(table_cards)
    else:
        cards = to_cards(hand, "hand")
        if len(cards) > HAND_SIZE:
            raise CardError(N_("A 大冶打拱 hand has at most {limit} cards, not {count}.", limit=HAND_SIZE,
                               count=len(cards)), code="too_many_cards", field="hand")
        error = decks_limit_error(cards, DECKS, "hand")
        if error is not None:
            raise error
        together = decks_limit_error(cards + table_cards, DECKS, "hand")
        if together is not None:
            raise CardError(N_("Your hand and the cards on the table together are impossible: {problem}",
                               problem=together.message), code="too_many_copies", field="hand")
    naturals: dict = {}
    for card in cards:
        if not card.is_joker:
            naturals.setdefault(card.rank, []).append(card)
    return Pool({rank: tuple(group) for rank, group in naturals.items()},
                tuple(card for card in cards if card.is_joker), len(cards))


def _decks_without(table_cards: tuple) -> list:
    deck = [Card(rank, suit) for rank in range(3, TWO + 1) for suit in SUITS for _copy in range(DECKS)]
    deck += [Card(ANY_JOKER)] * (2 * DECKS)
    for card in table_cards:
        match = next((c for c in deck if c == card), None)
        if match is None:  # an unsuited card, or a named joker: any copy of its rank
            joker = card.is_joker
            match = next((c for c in reversed(deck) if (c.is_joker if joker else c.rank == card.rank)), None)
        if match is not None:
            deck.remove(match)
    return deck


# --------------------------------------------------------------------------------------------
# Proposals: card sets that may answer (judge decides)


def _candidates(prev: Reading, pool: Pool, rules: PlayRules, no_hand: bool):
    plain = _plain if no_hand else _same
    if prev.type in _GROUPS:
        for rank in range(prev.rank + 1, TWO + 1):
            yield from map(plain, _group(pool, rank, prev.length))
    if prev.type in _WIDTH:
        yield from map(plain, _sequence_follows(prev, pool))
    for cards in _510ks(pool, rules):
        yield _plain_510k(cards) if no_hand else cards
    yield from map(plain, _bombs(prev, pool, rules, no_hand))
    if rules.gunlong:
        yield from map(plain, _gunlongs(pool))
    for n in range(1, len(pool.jokers) + 1):
        yield pool.jokers[:n]


def _same(cards: tuple) -> tuple:
    return cards


def _plain(cards: tuple) -> tuple:
    """Without a hand, suits are left out (they matter only to a 510K)."""
    return tuple(Card(c.rank) if c.suit else c for c in cards)


def _plain_510k(cards: tuple) -> tuple:
    suits = {c.suit for c in cards if not c.is_joker}
    return cards if len(suits) == 1 else _plain(cards)


def _group(pool: Pool, rank: int, n: int) -> list:
    """n cards of ``rank``: as many naturals as there are, jokers for the rest; and, when there
    are more naturals than needed and a joker, the soft version (one joker)."""
    naturals = pool.naturals.get(rank, ())
    use = min(len(naturals), n)
    if not use or n - use > len(pool.jokers):
        return []
    out = [naturals[:use] + pool.jokers[:n - use]]
    if use == n and pool.jokers and n > 1:
        out.append(naturals[:n - 1] + pool.jokers[:1])
    return out


def _run(pool: Pool, low: int, k: int, width: int):
    """``k`` consecutive ranks from ``low``, ``width`` cards each, jokers filling in (or None)."""
    cards: list = []
    need = 0
    for rank in range(low, low + k):
        naturals = pool.naturals.get(rank, ())[:width]
        cards.extend(naturals)
        need += width - len(naturals)
    if not cards or need > len(pool.jokers):
        return None
    return tuple(cards) + pool.jokers[:need]


def _sequence_follows(prev: Reading, pool: Pool) -> list:
    width = _WIDTH[prev.type]
    k = prev.length // width
    runs = (_run(pool, low, k, width) for low in range(prev.rank + 1, ACE - k + 2))
    return [run for run in runs if run is not None]


def _510ks(pool: Pool, rules: PlayRules) -> list:
    """Every distinct 5, 10, K the pool can show (one card of each rank, by suit, or a joker)."""
    options = []
    for rank in _510K_RANKS:
        distinct = tuple(dict.fromkeys(pool.naturals.get(rank, ())))
        options.append(distinct + ((None,) if pool.jokers else ()))
    out = []
    for choice in product(*options):
        jokers = choice.count(None)
        if jokers < 3 and jokers <= min(rules.max_jokers_in_510k, len(pool.jokers)):
            out.append(tuple(c for c in choice if c is not None) + pool.jokers[:jokers])
    return out


def _bombs(prev: Reading, pool: Pool, rules: PlayRules, no_hand: bool) -> list:
    largest = min(MAX_BOMB, pool.size)
    if no_hand:
        largest = min(largest, max(NO_HAND_BOMB, prev.length + 2))
    out = []
    for n in range(max(rules.bomb_min, 3), largest + 1):
        for rank in range(3, TWO + 1):
            out += _group(pool, rank, n)
    return out


def _gunlongs(pool: Pool) -> list:
    out = []
    for width in range(4, MAX_BOMB + 1):
        for k in range(2, pool.size // width + 1):
            runs = (_run(pool, low, k, width) for low in range(3, ACE - k + 2))
            out += [run for run in runs if run is not None]
    return out
