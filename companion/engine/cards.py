"""Cards, ranks, suits and jokers; the card notation; deck limits.

Notation (accepted everywhere): ranks ``3 4 5 6 7 8 9 10 J Q K A 2`` (``T`` = 10, any case),
jokers ``SJ`` small, ``BJ`` big, ``JK`` either (also 小王 / 大王 / 王); an optional suit suffix
``s h c d`` or ``♠ ♥ ♣ ♦``; separators: spaces, commas, or none (``456``, ``TJQ``).
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from functools import lru_cache

from .errors import EngineError
from .text import N_

# Numeric ranks: 3..10, J=11, Q=12, K=13, A=14, 2=15. Jokers: 16 small, 17 big, 18 unspecified.
ACE, TWO = 14, 15
SMALL_JOKER, BIG_JOKER, ANY_JOKER = 16, 17, 18
NATURAL_RANKS = tuple(range(3, 16))
RANK_NAMES = {3: "3", 4: "4", 5: "5", 6: "6", 7: "7", 8: "8", 9: "9", 10: "10", 11: "J", 12: "Q",
              13: "K", 14: "A", 15: "2", SMALL_JOKER: "SJ", BIG_JOKER: "BJ", ANY_JOKER: "JK"}
# Suits, strongest first for 510K: spades > hearts > clubs > diamonds.
SUITS = ("s", "h", "c", "d")
SUIT_STRENGTH = {"s": 4, "h": 3, "c": 2, "d": 1}
SUIT_SYMBOLS = {"s": "♠", "h": "♥", "c": "♣", "d": "♦"}
_SUIT_INPUT = {"S": "s", "H": "h", "C": "c", "D": "d", "♠": "s", "♥": "h", "♣": "c", "♦": "d",
               "♤": "s", "♡": "h", "♧": "c", "♢": "d"}
_RANK_INPUT = {"3": 3, "4": 4, "5": 5, "6": 6, "7": 7, "8": 8, "9": 9, "T": 10, "J": 11, "Q": 12,
               "K": 13, "A": 14, "2": 15}
_SEPARATORS = set(" \t\r\n,，、;；/|")
_JOKER_WORDS = (("小王", SMALL_JOKER), ("大王", BIG_JOKER), ("SJ", SMALL_JOKER), ("BJ", BIG_JOKER),
                ("JK", ANY_JOKER), ("王", ANY_JOKER))

CARDS_PER_DECK = 54
JOKERS_PER_DECK = 2


class CardError(EngineError):
    """A card string that cannot be read, or more copies of a card than the deck holds."""

    default_code = "bad_card"


@dataclass(frozen=True, slots=True, order=True)
class Card:
    rank: int
    suit: str | None = None

    @property
    def is_joker(self) -> bool:
        return self.rank >= SMALL_JOKER

    @property
    def points(self) -> int:
        """Card points of 大冶打拱: 5 -> 5, 10 and K -> 10 (jokers never score)."""
        return 5 if self.rank == 5 else 10 if self.rank in (10, 13) else 0

    def __str__(self) -> str:
        return RANK_NAMES[self.rank] + (self.suit or "")

    def pretty(self) -> str:
        return RANK_NAMES[self.rank] + (SUIT_SYMBOLS[self.suit] if self.suit else "")


def rank_name(rank: int) -> str:
    return RANK_NAMES[rank]


def _bad_token(token: str, position: int) -> CardError:
    return CardError(
        N_("'{token}' at position {position} is not a card: ranks are 3–10, J, Q, K, A, 2; "
           "jokers SJ, BJ", token=token, position=position),
        field="cards")


def parse_cards(text) -> tuple[Card, ...]:
    """Read a card string. Raises :class:`CardError` saying what is wrong and where.

    ``position`` in messages counts cards from 1 (``"4 5 1"``: ``'1'`` is at position 3).
    """
    if isinstance(text, (list, tuple)):
        text = " ".join(str(t) for t in text)
    if not isinstance(text, str):
        raise CardError(N_("Cards must be written as text, such as '4 5 6' or '5h 10h Kh'."), field="cards")
    return _parse(text)


@lru_cache(maxsize=4096)
def _parse(text: str) -> tuple[Card, ...]:
    cards: list[Card] = []
    up = text.upper()
    i, n = 0, len(up)
    while i < n:
        ch = up[i]
        if ch in _SEPARATORS or ch.isspace():
            i += 1
            continue
        position = len(cards) + 1
        for word, rank in _JOKER_WORDS:
            if up.startswith(word, i):
                cards.append(Card(rank))
                i += len(word)
                break
        else:
            if ch == "1":
                if up.startswith("10", i):
                    rank, i = 10, i + 2
                else:
                    end = i + 1
                    while end < n and up[end].isdigit():
                        end += 1
                    raise _bad_token(text[i:end], position)
            elif ch in _RANK_INPUT:
                rank, i = _RANK_INPUT[ch], i + 1
            else:
                end = i + 1
                while end < n and not (up[end] in _SEPARATORS or up[end].isspace()) and end - i < 8:
                    end += 1
                raise _bad_token(text[i:end], position)
            suit = None
            if i < n and up[i] in _SUIT_INPUT and not (up[i] == "S" and up.startswith("SJ", i)):
                suit = _SUIT_INPUT[up[i]]
                i += 1
            cards.append(Card(rank, suit))
    if not cards:
        raise CardError(N_("No cards given: write cards such as '4 5 6', '10 J Q' or '7 JK'."),
                        code="no_cards", field="cards")
    return tuple(cards)


def format_cards(cards, pretty: bool = False) -> str:
    """Cards in the notation, separated by spaces; ``parse_cards(format_cards(c)) == c``."""
    return " ".join(card.pretty() if pretty else str(card) for card in cards)


def decks_limit_error(cards, decks: int, field: str = "cards") -> CardError | None:
    """The error for using more copies of a card than ``decks`` decks hold, else None."""
    ranks = Counter(c.rank for c in cards if not c.is_joker)
    for rank, count in sorted(ranks.items()):
        if count > 4 * decks:
            return CardError(
                N_("There are {count} cards of rank {rank}, but {decks} deck(s) hold only {limit}.",
                   count=count, rank=RANK_NAMES[rank], decks=decks, limit=4 * decks),
                code="too_many_copies", field=field)
    suited = Counter((c.rank, c.suit) for c in cards if c.suit)
    for (rank, suit), count in sorted(suited.items()):
        if count > decks:
            return CardError(
                N_("{card} appears {count} times, but {decks} deck(s) hold only {limit}.",
                   card=RANK_NAMES[rank] + SUIT_SYMBOLS[suit], count=count, decks=decks, limit=decks),
                code="too_many_copies", field=field)
    jokers = [c.rank for c in cards if c.is_joker]
    limit = JOKERS_PER_DECK * decks
    if len(jokers) > limit:
        return CardError(N_("There are {count} jokers, but {decks} deck(s) hold only {limit}.",
                            count=len(jokers), decks=decks, limit=limit),
                         code="too_many_jokers", field=field)
    for rank, name in ((SMALL_JOKER, "SJ"), (BIG_JOKER, "BJ")):
        if jokers.count(rank) > decks:
            return CardError(N_("There are {count} {card}, but {decks} deck(s) hold only {limit}.",
                                count=jokers.count(rank), card=name, decks=decks, limit=decks),
                             code="too_many_jokers", field=field)
    return None


def check_deck(cards, decks: int, field: str = "cards") -> None:
    """Raise :class:`CardError` if ``cards`` use more copies of a card than ``decks`` decks hold."""
    error = decks_limit_error(cards, decks, field)
    if error is not None:
        raise error
