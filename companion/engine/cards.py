"""Cards, ranks, suits and jokers; the card notation; deck limits.

Notation (accepted everywhere): ranks ``3 4 5 6 7 8 9 10 J Q K A 2`` (``T`` = 10, any case),
jokers ``SJ`` small, ``BJ`` big, ``JK`` either (also 小王 / 大王 / 王 / 鬼 / joker, 大小王 for both); an optional suit suffix
``s h c d`` or ``♠ ♥ ♣ ♦``; separators: spaces, commas, or none (``456``, ``TJQ``).
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
import unicodedata
from functools import lru_cache

from . import inputs
from .errors import EngineError
from .text import N_, NP_

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
_SEPARATORS = set(" \t\r\n,，、;；/|·")
# Words for jokers, longest first where one starts another. 大小王 is the pair of both jokers.
_JOKER_WORDS = (("大小王", (BIG_JOKER, SMALL_JOKER)), ("JOKER", (ANY_JOKER,)), ("小王", (SMALL_JOKER,)),
                ("大王", (BIG_JOKER,)), ("小鬼", (SMALL_JOKER,)), ("大鬼", (BIG_JOKER,)), ("SJ", (SMALL_JOKER,)),
                ("BJ", (BIG_JOKER,)), ("JK", (ANY_JOKER,)), ("王", (ANY_JOKER,)), ("鬼", (ANY_JOKER,)))
_MAX_READINGS = 2  # a word is ambiguous as soon as it has two readings

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

    Text is NFKC-normalised first, so full-width digits and letters from Chinese keyboards
    (``８``, ``Ｊ``) read as their ASCII forms. Cards written together (``456``, ``10sJsQs``) are
    split in every possible way: exactly one way must work. Run-together text that reads two
    ways (``5sJ``: 5♠ J or 5 SJ; ``QJK``: Q J K or Q JK) is an error that shows both spellings,
    except a word that is itself a joker's name (``JK``, ``SJ``). ``position`` in messages counts
    cards from 1 (``"4 5 1"``: ``'1'`` is at position 3).
    """
    if isinstance(text, (list, tuple)):
        text = " ".join(str(t) for t in text)
    if not isinstance(text, str):
        raise CardError(N_("Cards must be written as text, such as '4 5 6' or '5h 10h Kh'."), field="cards")
    return _parse(text)


def _words(text: str):
    """The runs of NFKC-normalised text between separators, as written."""
    word: list[str] = []
    for ch in unicodedata.normalize("NFKC", text):
        if ch in _SEPARATORS or ch.isspace():
            if word:
                yield "".join(word)
                word = []
        else:
            word.append(ch)
    if word:
        yield "".join(word)


def _tokens_at(word: str, i: int):
    """Every way one card (or a joker word) can start at ``word[i]``: (cards, next index)."""
    for name, ranks in _JOKER_WORDS:
        if word.startswith(name, i):
            yield tuple(Card(rank) for rank in ranks), i + len(name)
    if word.startswith("10", i):
        rank, j = 10, i + 2
    elif word[i] in _RANK_INPUT:
        rank, j = _RANK_INPUT[word[i]], i + 1
    else:
        return
    yield (Card(rank),), j
    if j < len(word) and word[j] in _SUIT_INPUT:
        yield (Card(rank, _SUIT_INPUT[word[j]]),), j + 1


@lru_cache(maxsize=4096)
def _readings_of(word: str) -> tuple[tuple[Card, ...], ...]:
    """Up to :data:`_MAX_READINGS` complete readings of one (upper-case) word, in the order found.
    Words repeat ("5", "JK", "10s"), so each is read once."""
    memo: dict[int, list[tuple[Card, ...]]] = {len(word): [()]}

    def rest(i: int) -> list[tuple[Card, ...]]:
        if i not in memo:
            found: list[tuple[Card, ...]] = []
            for cards, j in _tokens_at(word, i):
                found.extend(cards + tail for tail in rest(j))
                if len(found) >= _MAX_READINGS:
                    break
            memo[i] = found[:_MAX_READINGS]
        return memo[i]

    return tuple(rest(0))


def _bad_word(written: str, first_position: int) -> CardError:
    """The error for a word with no reading: the first piece that is not a card, and where."""
    word = written.upper()
    i, position = 0, first_position
    while i < len(word):
        step = next(iter(_tokens_at(word, i)), None)
        if step is None:  # quote the bad piece: a run of digits, else up to 8 characters
            end = i + 1
            while end < len(word) and end - i < 8 and (word[end].isdigit() or not word[i].isdigit()):
                end += 1
            return _bad_token(written[i:end], position)
        cards, i = step
        if i < len(word) and word[i] in _SUIT_INPUT and not any(word.startswith(n, i) for n, _ in _JOKER_WORDS):
            i += 1
        position += len(cards)
    return _bad_token(written, first_position)


def _ambiguous(word: str, readings: list) -> CardError:
    first, second = (format_cards(r) for r in readings[:2])
    return CardError(
        N_("'{word}' can be read two ways: {first} or {second}. Separate the cards with spaces to say "
           "which (for example '{first}').", word=word, first=first, second=second),
        code="ambiguous_cards", field="cards")


@lru_cache(maxsize=4096)
def _parse(text: str) -> tuple[Card, ...]:
    cards: list[Card] = []
    for written in _words(text):
        word = written.upper()
        readings = _readings_of(word)
        if not readings:
            raise _bad_word(written, len(cards) + 1)
        if len(readings) > 1 and not any(word == name for name, _ in _JOKER_WORDS):
            raise _ambiguous(written, readings)
        whole_joker = next((ranks for name, ranks in _JOKER_WORDS if word == name), None)
        cards.extend(Card(rank) for rank in whole_joker) if whole_joker else cards.extend(readings[0])
    if not cards:
        raise CardError(N_("No cards given: write cards such as '4 5 6', '10 J Q' or '7 JK'."),
                        code="no_cards", field="cards")
    return tuple(cards)


def declared_text(value, field: str) -> str | None:
    """A declared reading (``previous_as`` / ``play_as``) as the text written, stripped, or None
    when nothing is declared. It must be text ("5 5 5", "pair") or Cards; anything else is a
    :class:`CardError` naming ``field`` that says how to write it."""
    if value is None:
        return None
    if isinstance(value, (list, tuple)) and all(isinstance(item, (Card, str)) for item in value):
        value = " ".join(str(item).strip() for item in value)
    if not isinstance(value, str):
        raise CardError(N_("Declare a reading as text: the ranks the cards stand for, such as '5 5 5', or its type, "
                           "such as 'pair'."), code="bad_reading", field=field)
    return value.strip() or None


def format_cards(cards, pretty: bool = False) -> str:
    """Cards in the notation, separated by spaces; ``parse_cards(format_cards(c)) == c``."""
    inputs.cards(cards, Card)
    return " ".join(card.pretty() if pretty else str(card) for card in cards)


def decks_limit_error(cards, decks: int, field: str = "cards") -> CardError | None:
    """The error for using more copies of a card than ``decks`` decks hold, else None."""
    inputs.cards(cards, Card, field)
    inputs.decks(decks)
    ranks = Counter(c.rank for c in cards if not c.is_joker)
    for rank, count in sorted(ranks.items()):
        if count > 4 * decks:
            return CardError(
                NP_("There are {count} cards of rank {rank}, but {decks} deck holds only {limit}.",
                    "There are {count} cards of rank {rank}, but {decks} decks hold only {limit}.", decks,
                    count=count, rank=RANK_NAMES[rank], decks=decks, limit=4 * decks),
                code="too_many_copies", field=field)
    suited = Counter((c.rank, c.suit) for c in cards if c.suit)
    for (rank, suit), count in sorted(suited.items()):
        if count > decks:
            return CardError(
                NP_("{card} appears {count} times, but {decks} deck holds only {limit}.",
                    "{card} appears {count} times, but {decks} decks hold only {limit}.", decks,
                    card=RANK_NAMES[rank] + SUIT_SYMBOLS[suit], count=count, decks=decks, limit=decks),
                code="too_many_copies", field=field)
    jokers = [c.rank for c in cards if c.is_joker]
    limit = JOKERS_PER_DECK * decks
    if len(jokers) > limit:
        return CardError(NP_("There are {count} jokers, but {decks} deck holds only {limit}.",
                             "There are {count} jokers, but {decks} decks hold only {limit}.", decks,
                             count=len(jokers), decks=decks, limit=limit),
                         code="too_many_jokers", field=field)
    for rank, name in ((SMALL_JOKER, "SJ"), (BIG_JOKER, "BJ")):
        if jokers.count(rank) > decks:
            return CardError(NP_("There are {count} {card}, but {decks} deck holds only {limit}.",
                                 "There are {count} {card}, but {decks} decks hold only {limit}.", decks,
                                 count=jokers.count(rank), card=name, decks=decks, limit=decks),
                             code="too_many_jokers", field=field)
    return None


def check_deck(cards, decks: int, field: str = "cards") -> None:
    """Raise :class:`CardError` if ``cards`` use more copies of a card than ``decks`` decks hold."""
    error = decks_limit_error(cards, decks, field)
    if error is not None:
        raise error
