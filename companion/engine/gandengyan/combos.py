"""Reading cards as 干瞪眼 combinations (rules file §3.4–§3.6, §9 classify) and which reading beats
which (§3.7). This is the one reader of cards: :func:`check` and :func:`classify` both ask
:func:`readings_of`.

Representation: a card is an integer code ``rank * 8 + suit`` (suit: none 0, c 1, d 2, h 3, s 4,
so codes sort like ``(rank, suit or "")``); the small and big joker are 129 and 137 (a deck holds
each once, like a suited card), an unspecified joker ``JK`` is 144. ``code >> 3`` is the rank,
``code < 128`` marks a natural card, ``code & 7`` a card a deck holds only once. A set of cards is
the sorted tuple of its codes; that tuple (with the three reading switches) is the key of the
game's one cache.
"""
from __future__ import annotations

from bisect import bisect_left
from functools import lru_cache

from .. import inputs
from ..cards import ANY_JOKER, BIG_JOKER, RANK_NAMES, SMALL_JOKER, SUITS, Card, CardError, parse_cards
from ..results import Reading
from ..text import N_, Text
from .rules import DEFAULT, Rules, as_rules

ACE, TWO, JOKER = 14, 15, 16  # JOKER: the rank of a lone joker (joker_single), above 2
SINGLE, PAIR, TRIPLE = "single", "pair", "triple"
STRAIGHT, CONNECTED_PAIRS, BOMB, JOKER_BOMB = "straight", "connected_pairs", "bomb", "joker_bomb"
TYPES = (SINGLE, PAIR, TRIPLE, STRAIGHT, CONNECTED_PAIRS, BOMB, JOKER_BOMB)
BOMB_TYPES = frozenset((BOMB, JOKER_BOMB))
SEQUENCES = frozenset((STRAIGHT, CONNECTED_PAIRS))
_TOP = 99  # "above everything" in bomb keys
_JOKER_BOMB_SIZE = {"top": _TOP, "as3": 3, "as4": 4}  # jokerBomb: the size the double joker counts as

NATURAL_LIMIT = 128  # codes below are natural cards
SJ_CODE, BJ_CODE, JK_CODE = SMALL_JOKER * 8 + 1, BIG_JOKER * 8 + 1, ANY_JOKER * 8

_SUIT_INDEX = {None: 0, "c": 1, "d": 2, "h": 3, "s": 4}
_CODE: dict = {}  # (rank, suit) -> code
_CARD: dict = {}  # code -> Card
for _rank in range(3, TWO + 1):
    for _suit, _index in _SUIT_INDEX.items():
        _CODE[_rank, _suit] = _rank * 8 + _index
for _rank, _code in ((SMALL_JOKER, SJ_CODE), (BIG_JOKER, BJ_CODE), (ANY_JOKER, JK_CODE)):
    _CODE[_rank, None] = _code
for (_rank, _suit), _code in _CODE.items():
    _CARD[_code] = Card(_rank, _suit)
assert set(SUITS) <= set(_SUIT_INDEX)

_NOT_A_CARD = N_("'{token}' at position {position} is not a card: ranks are 3–10, J, Q, K, A, 2; "
                 "jokers SJ, BJ")


def cards_of(value, field: str = "cards") -> tuple:
    """The cards of ``value`` (card text, or a sequence of :class:`Card`); a :class:`CardError`
    naming ``field`` if they cannot be read."""
    if isinstance(value, (tuple, list)) and value and all(isinstance(c, Card) for c in value):
        return tuple(value)
    try:
        return parse_cards(value)
    except CardError as error:
        raise CardError(error.message, code=error.code, field=field) from None


def codes_of(cards: tuple, field: str = "cards") -> tuple:
    """The codes of some cards: the natural cards sorted, then the jokers in the order given
    (they fill a sequence's gaps in that order, from the last); :class:`CardError` for a Card
    that no deck holds."""
    try:
        codes = sorted([_CODE[card.rank, card.suit] for card in cards])
    except KeyError:
        for position, card in enumerate(cards, 1):
            if (card.rank, card.suit) not in _CODE:
                token = f"{card.rank}{card.suit or ''}"
                raise CardError(Text(_NOT_A_CARD.template, {"token": token, "position": position}),
                                field=field) from None
        raise
    if codes[-1] < NATURAL_LIMIT:
        return tuple(codes)
    return tuple([c for c in codes if c < NATURAL_LIMIT] + [_CODE[c.rank, c.suit] for c in cards if c.is_joker])


_HARD = (("soft", False),)
_SOFT = (("soft", True),)
_LONE_JOKER = (("joker", True),)


def _joker_readings(jokers: tuple, jbomb: str, jsingle: bool) -> tuple:
    """Plays without a natural card (§3.5): a lone joker (``jokerSingle``), the double joker (``jokerBomb``)."""
    if len(jokers) == 1 and jsingle:
        code = jokers[0]
        return (Reading(SINGLE, JOKER, 1, (_CARD[code],), (code >> 3,), _LONE_JOKER),)
    if len(jokers) == 2 and jbomb != "off" and jokers not in ((SJ_CODE, SJ_CODE), (BJ_CODE, BJ_CODE)):
        low, high = sorted(jokers)
        return (Reading(JOKER_BOMB, JOKER, 2, (_CARD[low], _CARD[high]), (low >> 3, high >> 3), _HARD),)
    return ()


def _group(naturals: list, jokers: tuple, rank: int, tib: bool) -> Reading | None:
    """One rank (§3.6): single, pair, triple or bomb; jokers stand in, but never for a 2."""
    if jokers and rank == TWO:
        return None
    n = len(naturals) + len(jokers)
    kind = (SINGLE, PAIR, BOMB if tib else TRIPLE)[n - 1] if n <= 3 else BOMB
    cards = tuple([_CARD[c] for c in naturals] + [_CARD[c] for c in jokers])
    return Reading(kind, rank, n, cards, (rank,) * n, _SOFT if jokers else _HARD)


def _aligned(naturals: list, jokers: tuple, values: tuple) -> tuple:
    """The cards ordered so that card i stands for ``values[i]`` (jokers fill the gaps)."""
    pool: dict = {}
    for code in reversed(naturals):
        pool.setdefault(code >> 3, []).append(code)
    spare = list(jokers)
    return tuple([_CARD[pool[v].pop() if pool.get(v) else spare.pop()] for v in values])


def _runs(naturals: list, jokers: tuple, ranks: list, width: int, copies: int) -> list:
    """Straights (``copies`` 1) or connected pairs (2) of ``width`` ranks within 3…A that hold
    these naturals, jokers filling the rest; highest start first."""
    extra = _SOFT if jokers else _HARD
    kind = STRAIGHT if copies == 1 else CONNECTED_PAIRS
    lo, hi = ranks[0], ranks[-1]
    out = []
    for start in range(min(lo, ACE - width + 1), max(3, hi - width + 1) - 1, -1):
        values = tuple([v for v in range(start, start + width) for _ in range(copies)])
        out.append(Reading(kind, start, width * copies, _aligned(naturals, jokers, values), values, extra))
    return out


def _order(reading: Reading) -> tuple:
    """Best first: bombs, then the highest rank, then the highest top card."""
    return (reading.type in BOMB_TYPES, reading.rank, reading.values[-1])


@lru_cache(maxsize=8192)
def readings_of(codes: tuple, tib: bool, jbomb: str, jsingle: bool) -> tuple:
    """Every reading of the cards with these codes (:func:`codes_of`), best first (§9 classify).

    ``tib``, ``jbomb``, ``jsingle``: the switches ``tripleIsBomb``, ``jokerBomb``, ``jokerSingle``."""
    n = len(codes)
    naturals = [c for c in codes if c < NATURAL_LIMIT]
    jokers = codes[len(naturals):]
    if not naturals:
        return _joker_readings(jokers, jbomb, jsingle)
    ranks = [c >> 3 for c in naturals]
    out = []
    if ranks[0] == ranks[-1]:
        group = _group(naturals, jokers, ranks[0], tib)
        if group is not None:
            out.append(group)
    if ranks[-1] != TWO:  # 2s never join a sequence (§3.6)
        if 3 <= n <= 12 and len(set(ranks)) == len(ranks):
            out += _runs(naturals, jokers, ranks, n, 1)
        if n % 2 == 0 and 4 <= n <= 24 and all(ranks[i] != ranks[i + 2] for i in range(len(ranks) - 2)):
            out += _runs(naturals, jokers, ranks, n // 2, 2)
    if len(out) > 1:
        out.sort(key=_order, reverse=True)
    return tuple(out)


def readings_for(codes: tuple, rules: Rules) -> tuple:
    return readings_of(codes, rules.triple_is_bomb, rules.joker_bomb, rules.joker_single)


def classify(cards, rules: Rules = None, players: int | None = None) -> tuple:
    """Every reading of ``cards`` (text or a sequence of :class:`Card`), best first.

    Order: bombs first (biggest first), then the other readings from the highest rank down.
    Raises :class:`CardError` for unreadable text. ``players`` is accepted for symmetry with
    :func:`check` (deck limits are enforced by :func:`check`).
    """
    return readings_for(codes_of(cards_of(cards)), as_rules(rules))


def bomb_key(reading: Reading, rules: Rules) -> tuple:
    """Bombs compare by (size, natural-over-soft when ``pureBeatsSoft``, rank) (§3.7)."""
    if reading.type == JOKER_BOMB:
        return (_JOKER_BOMB_SIZE[rules.joker_bomb], 1, _TOP)
    pure = 0 if not rules.pure_beats_soft else 0 if reading.extra == _SOFT else 1
    return (reading.length, pure, reading.rank)


def beats(top: Reading, cand: Reading, rules: Rules = None) -> bool:
    """Does ``cand`` legally follow ``top`` (§3.7)?

    A bomb beats any non-bomb and a smaller bomb. Otherwise the same type and length, and:
    sequences start exactly one rank higher; singles, pairs and triples are exactly one rank
    higher, or of a rank at or above 2 that is higher (a 2 beats any lower single, pair or
    triple; a lone joker ranks above 2 and beats any lower single); ``tripleFollow=anyHigher``:
    any higher triple.
    """
    inputs.reading(top, "previous")
    inputs.reading(cand, "play")
    rules = rules or DEFAULT
    if cand.type in BOMB_TYPES:
        return top.type not in BOMB_TYPES or bomb_key(cand, rules) > bomb_key(top, rules)
    if top.type in BOMB_TYPES or cand.type != top.type or cand.length != top.length:
        return False
    if cand.type in SEQUENCES:
        return cand.rank == top.rank + 1
    if cand.type == TRIPLE and rules.triple_follow == "anyHigher":
        return cand.rank > top.rank
    return cand.rank == top.rank + 1 or TWO <= cand.rank > top.rank


def describe(reading: Reading) -> str:
    """The ranks a reading stands for, e.g. ``"4 4 5 5"`` (jokers resolved; a joker single or the
    double-joker bomb shows its jokers)."""
    inputs.reading(reading)
    return " ".join([RANK_NAMES[v] for v in reading.values])


def show(reading: Reading) -> str:
    """A reading for a sentence: ``"8 8"``; with jokers ``"6 6 6 JK (= 6 6 6 6)"``."""
    if reading.extra == _SOFT:
        return " ".join([RANK_NAMES[c.rank] for c in reading.cards]) + " (= " + describe(reading) + ")"
    return describe(reading)


def deck_excess(codes: tuple, n_decks: int) -> tuple | None:
    """The first way these cards (:func:`codes_of`, or all sorted) use more copies than ``n_decks`` decks hold, as
    ``(what, key, count, limit)``: ``("rank", rank, …)``, ``("card", code, …)`` (a suited card,
    the small or the big joker) or ``("jokers", JOKER, …)``; None if they fit (§3.1: a deck is
    4 cards of each rank, one of each suited card, one small and one big joker)."""
    naturals = bisect_left(codes, NATURAL_LIMIT)  # the naturals come first
    if (len(codes) - len(set(codes)) < n_decks and naturals <= 4 * n_decks
            and len(codes) - naturals <= 2 * n_decks):
        return None  # no card is there n_decks + 1 times, and too few cards to overrun a rank or the jokers
    by_rank: dict = {}
    by_card: dict = {}
    for code in codes:
        if code < NATURAL_LIMIT:
            by_rank[code >> 3] = by_rank.get(code >> 3, 0) + 1
        if code & 7:
            by_card[code] = by_card.get(code, 0) + 1
    for rank, count in by_rank.items():
        if count > 4 * n_decks:
            return ("rank", rank, count, 4 * n_decks)
    for code, count in by_card.items():
        if code < NATURAL_LIMIT and count > n_decks:
            return ("card", code, count, n_decks)
    jokers = len(codes) - sum(by_rank.values())
    if jokers > 2 * n_decks:
        return ("jokers", JOKER, jokers, 2 * n_decks)
    for code in (SJ_CODE, BJ_CODE):
        if by_card.get(code, 0) > n_decks:
            return ("card", code, by_card[code], n_decks)
    return None


def card_name(code: int, symbols: bool) -> str:
    """A card code as text: ``7♥`` (``symbols``) or ``7h``; jokers ``SJ``, ``BJ``, ``JK``."""
    card = _CARD[code]
    return card.pretty() if symbols else str(card)
