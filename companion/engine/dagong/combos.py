"""The one reader of cards into 大冶打拱 combinations (rules/dagong.md §5), and ``beats``.

Cards are handled as integer codes ``rank * 8 + suit strength`` (♠ 4, ♥ 3, ♣ 2, ♦ 1, none 0;
jokers 128 SJ, 136 BJ, 144 JK): a play is the sorted tuple of its codes, which is also the key of
the one bounded cache (:func:`analyse`). Every reading of a play comes from :func:`read`.

``Reading.rank`` is the rank of a same-rank group, the LOW rank of a sequence (straight,
consecutive pairs or triples, 滚龙) and 13 for a 510K; sequences also carry ``low`` and ``top``
in ``extra``.
"""
from __future__ import annotations

from functools import lru_cache
from typing import NamedTuple

from .. import inputs
from ..cards import ACE, ANY_JOKER, SMALL_JOKER, SUIT_STRENGTH, SUITS, TWO, Card, decks_limit_error
from ..results import Reading
from ..text import Text
from .rules import DECKS, MAX_BOMB, PlayRules, laizi, sequence_kinds

TYPES = ("single", "pair", "triple", "linked_pairs", "linked_triples", "straight", "510k", "bomb",
         "four_jokers", "gunlong")
BOMB_CLASS = frozenset({"510k", "bomb", "four_jokers", "gunlong"})
SEQUENCES = frozenset({"straight", "linked_pairs", "linked_triples", "gunlong"})
_TYPE_ORDER = {t: i for i, t in enumerate(TYPES)}
_510K_RANKS = frozenset({5, 10, 13})
_510K_VALUES = (5, 10, 13)

JOKER_CODE = SMALL_JOKER * 8  # codes from here up are jokers
_SUIT_OF = {strength: suit for suit, strength in SUIT_STRENGTH.items()}
_CARD_AT = {rank * 8 + strength: Card(rank, _SUIT_OF.get(strength))
            for rank in range(3, TWO + 1) for strength in range(5)}
_CARD_AT.update({rank * 8: Card(rank) for rank in range(SMALL_JOKER, ANY_JOKER + 1)})


def card_code(card: Card) -> int:
    return card.rank * 8 + SUIT_STRENGTH.get(card.suit, 0)


def cards_key(cards) -> tuple:
    """The normalised key of a play: its card codes, sorted."""
    return tuple(sorted([card_code(c) for c in cards]))


def key_cards(key: tuple) -> tuple:
    """The cards of a key (jokers keep their names: SJ, BJ, JK)."""
    return tuple([_CARD_AT[code] for code in key])


# --------------------------------------------------------------------------------------------
# Reading (§5.1–§5.3)


def read(key: tuple, rules: PlayRules, *, allow_two: bool = False) -> tuple:
    """Every reading of the cards of ``key`` under ``rules``, strongest first. ``allow_two`` lets
    sequences run up to 2 (only to explain why a play is no combination)."""
    cards = key_cards(key)
    naturals = [code for code in key if code < JOKER_CODE]
    jokers = len(key) - len(naturals)
    counts: dict[int, int] = {}
    for code in naturals:
        counts[code >> 3] = counts.get(code >> 3, 0) + 1
    found = (_groups(cards, counts, jokers, rules) + _510ks(cards, naturals, counts, jokers, rules)
             + _sequences(cards, counts, jokers, rules, allow_two))
    if len(found) > 1:
        found.sort(key=lambda reading: strength(reading, rules), reverse=True)
    return tuple(found)


def _groups(cards: tuple, counts: dict, jokers: int, rules: PlayRules) -> list:
    """Single, pair, triple, bomb: cards of one rank; jokers fill in, and jokers alone are a group
    of the joker value (three jokers may be a pure ♠ 510K, four jokers the top bomb)."""
    n = len(cards)
    if len(counts) > 1 or n > MAX_BOMB:
        return []
    if jokers == 3 == n and rules.three_jokers == "pure510KSpade":
        return [Reading("510k", 13, 3, cards, _510K_VALUES, (("pure", True), ("suit", "s"), ("suited", True)),
                        ("s",) * 3)]
    rank = next(iter(counts)) if counts else laizi(rules)
    values = (rank,) * n
    out = []
    if n == 1:
        out.append(Reading("single", rank, 1, cards, values, (("joker", jokers == 1),)))
    elif n in (2, 3):
        out.append(Reading("pair" if n == 2 else "triple", rank, n, cards, values))
    if n >= max(rules.bomb_min, 3):
        if jokers == 4 == n and rules.four_jokers == "topBomb":
            out.append(Reading("four_jokers", ANY_JOKER, 4, cards, (ANY_JOKER,) * 4, (("soft", True),)))
        else:
            out.append(Reading("bomb", rank, n, cards, values, (("soft", jokers > 0),)))
    return out


def _510ks(cards: tuple, naturals: list, counts: dict, jokers: int, rules: PlayRules) -> list:
    """A 5, a 10 and a K; at most ``max_jokers_in_510k`` jokers fill in. Pure when every natural
    card has the same (typed) suit; a joker lets it be read either way."""
    if len(cards) != 3 or not naturals or jokers > rules.max_jokers_in_510k:
        return []
    if len(counts) != len(naturals) or not _510K_RANKS.issuperset(counts):
        return []
    suits = {_SUIT_OF.get(code & 7) for code in naturals}
    suited = None not in suits
    pure = suited and len(suits) == 1
    out = []
    if pure:
        suit = next(iter(suits))
        out.append(Reading("510k", 13, 3, cards, _510K_VALUES, (("pure", True), ("suit", suit), ("suited", True)),
                           _510k_suits(naturals, suit)))
    if jokers or not pure:
        out.append(Reading("510k", 13, 3, cards, _510K_VALUES, (("pure", False), ("suit", None), ("suited", suited)),
                           _510k_suits(naturals, None) if suited else ()))
    return out


def _510k_suits(naturals: list, pure_suit: str | None) -> tuple:
    """The suit each card of a 510K (5, 10, K) stands for: a natural card keeps its own (a
    declaration never changes a natural card); a joker takes the pure 510K's suit, or (mixed,
    ``pure_suit`` None) the strongest suit none of the natural cards has."""
    own = {code >> 3: _SUIT_OF.get(code & 7) for code in naturals}
    joker = pure_suit or next(s for s in SUITS if s not in own.values())
    return tuple(own.get(value, joker) for value in _510K_VALUES)


def _sequences(cards: tuple, counts: dict, jokers: int, rules: PlayRules, allow_two: bool) -> list:
    """Straights, consecutive pairs and triples (3 up to A, no 2) and 滚龙 (two or more consecutive
    ranks with the same number, at least 4, of cards each)."""
    if not counts:
        return []
    n = len(cards)
    low, high, most = min(counts), max(counts), max(counts.values())
    out = []
    for width, kind, fewest in sequence_kinds(rules):
        out += _runs(cards, kind, width, fewest, (low, high, most), TWO if allow_two else ACE, ())
    if rules.gunlong:
        for width in range(4, n // 2 + 1):
            extra = (("per_rank", width), ("soft", jokers > 0))
            out += _runs(cards, "gunlong", width, 2, (low, high, most), ACE, extra)
    return out


def _runs(cards: tuple, kind: str, width: int, fewest: int, span: tuple, top_limit: int, extra: tuple) -> list:
    """Every run of ``width`` cards per rank that the natural cards (lowest and highest rank, most
    cards of a rank: ``span``) and the jokers can make."""
    n = len(cards)
    low, high, most = span
    if n % width or most > width or high > top_limit:
        return []
    k = n // width
    if k < fewest or high - low + 1 > k:
        return []
    out = []
    for top in range(max(high, 2 + k), min(low + k - 1, top_limit) + 1):
        bottom = top - k + 1
        values = tuple([rank for rank in range(bottom, top + 1) for _ in range(width)])
        out.append(Reading(kind, bottom, n, cards, values, (("low", bottom), ("top", top)) + extra))
    return out


# --------------------------------------------------------------------------------------------
# Beating (§5.2, §5.3)


def top_rank(reading: Reading) -> int:
    """The highest rank of a reading (the rank itself for anything but a sequence)."""
    return reading.get("top", reading.rank) if reading.type in SEQUENCES else reading.rank


def power(reading: Reading, rules: PlayRules):
    """Strength of a bomb-class reading as a comparable tuple (None for ordinary plays).

    A play beats a bomb-class play only when its power is strictly greater; equal powers
    (two mixed 510Ks, two same-size same-rank bombs) cannot beat each other.
    """
    kind = reading.type
    if kind == "510k":
        return (3, SUIT_STRENGTH[reading.get("suit")]) if reading.get("pure") else (2, 0)
    if kind == "bomb":
        hard = not reading.get("soft")
        n = reading.length
        tier = 1 if (rules.bomb_vs_510k == "510KAboveFourBomb" and n <= 4) else 4
        xi = 1 if (rules.xi_premium and hard and n >= 7) else 0
        return (tier, xi, n, 1 if (rules.hard_beats_soft and hard) else 0, reading.rank)
    if kind == "gunlong":
        return (5, reading.length, top_rank(reading))
    if kind == "four_jokers":
        return (6,)
    return None


def strength(reading: Reading, rules: PlayRules) -> tuple:
    """Sort key of readings, strongest first: bomb class by power, then ordinary by top rank."""
    p = power(reading, rules)
    if p is not None:
        return (1,) + p
    return (0, top_rank(reading), _TYPE_ORDER[reading.type], reading.length)


def beats(previous: Reading, play: Reading, rules) -> bool:
    """Does ``play`` beat ``previous`` under ``rules`` (Rules or PlayRules)? An ordinary play needs
    the same type and number of cards and a higher rank; the bomb class beats every ordinary play,
    and a stronger power wins."""
    inputs.reading(previous, "previous")
    inputs.reading(play, "play")
    before, after = power(previous, rules), power(play, rules)
    if after is None:
        return (before is None and play.type == previous.type and play.length == previous.length
                and play.rank > previous.rank)
    return before is None or after > before


# --------------------------------------------------------------------------------------------
# The one cache: what a play is, by its key


class Analysis(NamedTuple):
    readings: tuple          # every reading, strongest first
    deck_problem: Text | None  # why two decks cannot hold these cards, or None


@lru_cache(maxsize=8192)
def analyse(key: tuple, rules: PlayRules) -> Analysis:
    """The readings of a play and whether two decks can hold it (the one bounded cache; ``rules``
    are the play switches, :func:`.rules.play_rules`)."""
    error = decks_limit_error(key_cards(key), DECKS)
    return Analysis(read(key, rules), None if error is None else error.message)


def fits_decks(codes: list) -> bool:
    """Do the two decks hold every card of ``codes`` (sorted card codes, e.g. two plays together)?
    The quick test on codes, the same as ``cards.decks_limit_error`` (which says why not)."""
    rank = previous = -1
    in_rank = in_code = jokers = 0
    for code in codes:
        if code >= JOKER_CODE:
            jokers += 1
            if jokers > 2 * DECKS:
                return False
        elif code >> 3 == rank:
            in_rank += 1
            if in_rank > 4 * DECKS:
                return False
        else:
            rank, in_rank = code >> 3, 1
        in_code = in_code + 1 if code == previous else 1
        if in_code > DECKS and code in _ONE_PER_DECK:
            return False
        previous = code
    return True


# the codes a deck holds once: each suited card, the small and the big joker
_ONE_PER_DECK = frozenset([code for code in _CARD_AT if code < JOKER_CODE and code & 7]
                          + [SMALL_JOKER * 8, (SMALL_JOKER + 1) * 8])


def jokers_over_510k_limit(key: tuple, rules: PlayRules):
    """The joker count when the cards would be a 510K but for ``max_jokers_in_510k``, else None."""
    if len(key) != 3:
        return None
    naturals = [code >> 3 for code in key if code < JOKER_CODE]
    jokers = 3 - len(naturals)
    if not naturals or jokers <= rules.max_jokers_in_510k or jokers > 2:
        return None
    if len(set(naturals)) == len(naturals) and _510K_RANKS.issuperset(naturals):
        return jokers
    return None
