"""干瞪眼 (Gan Deng Yan): house rules, combinations, the "exactly one higher" checker, settlement.

The specification is ``shared/rules/gandengyan.md`` (§3 rules, §4 switches, §5 presets, §7/§8
examples, §9 validation). Pure Python: nothing here imports Flask or the database.

Public contract: :class:`Rules`, :data:`SWITCHES`, :data:`PRESETS`, :func:`rules_from_dict`,
:func:`decks`, :func:`classify`, :func:`check`, :func:`needed_facts`, :func:`validate_facts`,
:func:`settle`, :func:`next_dealer`.
"""
from __future__ import annotations

import dataclasses
import marshal
import math
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass
from decimal import Decimal
from functools import lru_cache
from typing import Any

from .cards import (BIG_JOKER, JOKERS_PER_DECK, RANK_NAMES, SMALL_JOKER, Card, CardError,
                    decks_limit_error, parse_cards)
from .common import (FactsError, N_, Reading, RulesError, Settlement, Switch, Text, Verdict,
                     apply_stake, build_rules, LazySettlement, new_reading, new_text, new_verdict)

NAME = "gandengyan"
TITLE = "干瞪眼"
PLAYER_RANGE = (2, 6)  # fewest and most players at a table (§3.1)

__all__ = ["Rules", "SWITCHES", "PRESETS", "rules_from_dict", "decks", "classify", "check",
           "needed_facts", "validate_facts", "settle", "next_dealer", "describe"]

ACE, TWO, JOKER = 14, 15, 16
SINGLE, PAIR, TRIPLE = "single", "pair", "triple"
STRAIGHT, CONNECTED_PAIRS, BOMB, JOKER_BOMB = "straight", "connected_pairs", "bomb", "joker_bomb"
TYPES = (SINGLE, PAIR, TRIPLE, STRAIGHT, CONNECTED_PAIRS, BOMB, JOKER_BOMB)
_BOMB_TYPES = frozenset((BOMB, JOKER_BOMB))
_TOP = 99  # "above everything" in bomb keys

# --------------------------------------------------------------------------------------------
# House-rule switches (§4)


def _squash(word: str) -> str:
    return word.strip().replace("_", "").replace("-", "").lower()


class _ParamSwitch(Switch):
    """A switch whose values are fixed words or ``word:number`` (``threshold:5``, ``perLoser:20``).

    ``choices`` lists the values the web form offers; ``params`` the words that take a number.
    """

    def coerce(self, value: Any) -> Any:
        if isinstance(value, str):
            word, sep, number = value.strip().partition(":")
            for choice in self.choices:
                base = choice.partition(":")[0]
                if _squash(base) == _squash(word):
                    if ":" in choice and sep:
                        number = number.strip()
                        if number.isascii() and number.isdigit() and len(number) <= 6 and int(number) >= 1:
                            return f"{base}:{int(number)}"
                        raise RulesError(N_("The house rule '{key}' needs a whole number of at least 1 "
                                            "after '{word}:', not '{value}'.",
                                            key=self.key, word=base, value=value),
                                         field=f"rules.{self.key}")
                    if ":" not in choice and not sep:
                        return choice
        return Switch.coerce(self, value)


class _UnitSwitch(Switch):
    def coerce(self, value: Any) -> Any:
        number = Switch.coerce(self, value)
        if number <= 0 or number > 1_000_000:
            raise RulesError(N_("The house rule '{key}' must be a number above 0, not '{value}'.",
                                key=self.key, value=value), field=f"rules.{self.key}")
        return number


def _choice(key, help_text, *choices):
    return Switch(key, help_text, tuple(choices))


def _bool(key, help_text):
    return Switch(key, help_text, (False, True), kind="bool")


SWITCHES: dict[str, Switch] = {s.key: s for s in (
    _choice("deck_mode", N_("Decks: 'source' = 1 deck for 2 players, 2 decks for 3–6; 'oneDeck' = always 54 "
                            "cards; 'perThree' = one deck per 3 players."), "source", "oneDeck", "perThree"),
    _choice("first_dealer", N_("Who deals the first hand: the chosen (East/host) seat or a random player."),
            "chosen", "random"),
    _choice("draw_mode", N_("After each trick: 'all' = everyone draws one card, starting with the trick "
                            "winner; 'winnerOnly' = only the trick winner draws."), "all", "winnerOnly"),
    _choice("triple_follow", N_("Triples: 'plusOne' = exactly one rank higher (or 2 2 2); 'anyHigher' = "
                                "any higher triple."), "plusOne", "anyHigher"),
    _bool("triple_is_bomb", N_("Three of a kind is a bomb (the smallest kind of bomb).")),
    _choice("joker_bomb", N_("Small + big joker: 'off' = not a play; 'top' = beats everything; 'as3' = the "
                             "strongest 3-card bomb; 'as4' = the strongest 4-card bomb."),
            "off", "top", "as3", "as4"),
    _bool("pure_beats_soft", N_("A bomb of natural cards beats a bomb of the same size made with jokers.")),
    _bool("joker_single", N_("A joker may be played alone as a single that ranks above 2.")),
    _choice("two_as_last_card", N_("Whether a single 2 may be a player's last card."), "allowed", "forbidden"),
    _choice("joker_doubling", N_("Jokers left in a loser's hand: 'once' = ×2 if any; 'perJoker' = ×2 for each; "
                                 "'off' = no doubling."), "once", "perJoker", "off"),
    _choice("twos_are_trumps", N_("2s left in a loser's hand: 'perTwo' = ×2 for each."), "off", "perTwo"),
    _choice("held_bomb_mult", N_("Bombs left in a loser's hand: 'once' = ×2 (not on top of the joker ×2); "
                                 "'perBomb' = ×2 each; 'bySize' = 3 cards ×2, 4 ×4, 5 ×8."),
            "off", "once", "perBomb", "bySize"),
    _choice("played_bomb_mult", N_("Bombs played during the hand: 'double' = ×2 each; 'bySize' = 3 cards ×2, "
                                   "4 ×4, 5 ×8, 6 ×16; 'linear' = ×(1 + number of bombs)."),
            "off", "double", "bySize", "linear"),
    _ParamSwitch("shut_out", N_("A loser who never played (shut out): 'double' = ×2; 'fixed20' = pays 20 + 10 "
                                "per bomb; 'threshold:k' = ×2 for any loser with k or more cards."),
                 ("off", "double", "fixed20", "threshold:5")),
    _bool("shut_out_dealer_exception", N_("With shut-out ×2: a dealer whose only play was the opening lead "
                                          "counts as shut out.")),
    _ParamSwitch("cap", N_("Upper limit: 'perLoser:x' = no loser pays more than x; 'multiplier:x' = the "
                           "total multiple (cards included) is at most x."),
                 ("none", "perLoser:20", "multiplier:64")),
    _bool("one_card_exempt", N_("A loser holding exactly one card (报警) pays nothing.")),
    _choice("long_hand_mult", N_("Long hands: ×2 from trick 20 and ×2 again from trick 30."), "off", "on"),
    _UnitSwitch("unit", N_("Points per card left."), kind="number", minimum=0),
)}


@dataclass(frozen=True)
class Rules:
    """One table's house rules (§4); defaults = preset ``source``."""

    deck_mode: str = "source"
    first_dealer: str = "chosen"
    draw_mode: str = "all"
    triple_follow: str = "plusOne"
    triple_is_bomb: bool = False
    joker_bomb: str = "off"
    pure_beats_soft: bool = False
    joker_single: bool = False
    two_as_last_card: str = "allowed"
    joker_doubling: str = "once"
    twos_are_trumps: str = "off"
    held_bomb_mult: str = "off"
    played_bomb_mult: str = "off"
    shut_out: str = "off"
    shut_out_dealer_exception: bool = True
    cap: str = "none"
    one_card_exempt: bool = False
    long_hand_mult: str = "off"
    unit: Any = 1

    def __post_init__(self):
        for key, switch in SWITCHES.items():
            value = getattr(self, key)
            if type(value) in (str, bool) and value in _PLAIN_VALUES[key]:
                continue
            coerced = switch.coerce(value)
            if coerced != value or type(coerced) is not type(value):
                object.__setattr__(self, key, coerced)

    def __hash__(self):  # cached: Rules are hashed on every check (classify cache)
        try:
            return self.__dict__["_hash"]
        except KeyError:
            value = hash(tuple(getattr(self, f.name) for f in dataclasses.fields(self)))
            self.__dict__["_hash"] = value
            return value

    def __getstate__(self):  # the cached hash is per process: never pickle it
        state = dict(self.__dict__)
        state.pop("_hash", None)
        state.pop("_derived", None)
        return state

    @property
    def min_bomb(self) -> int:
        return 3 if self.triple_is_bomb else 4


_PLAIN_VALUES = {key: frozenset(v for v in switch.choices if type(v) is bool or ":" not in v)
                 for key, switch in SWITCHES.items()}
_ALIASES: dict[str, str] = {}

PRESETS: dict[str, Rules] = {
    "source": Rules(),
    "qq": Rules(deck_mode="oneDeck", draw_mode="all", triple_follow="anyHigher", joker_bomb="top"),
    "m2": Rules(deck_mode="oneDeck", triple_is_bomb=True, joker_bomb="as3", joker_doubling="perJoker",
                held_bomb_mult="bySize", played_bomb_mult="bySize", shut_out="double",
                cap="multiplier:64", long_hand_mult="on"),
    "xiangshan": Rules(deck_mode="oneDeck", triple_is_bomb=True, joker_single=True, draw_mode="winnerOnly",
                       played_bomb_mult="double", held_bomb_mult="once", shut_out="double",
                       shut_out_dealer_exception=False),
}


def rules_from_dict(data: Mapping[str, Any] | None = None, preset: str | None = None) -> Rules:
    """Rules from a preset name (default ``source``) and switches on top (camelCase or snake_case).

    A ``"preset"`` key inside ``data`` is used when ``preset`` is not given.
    """
    if isinstance(data, Mapping) and "preset" in data:
        data = dict(data)
        inner = data.pop("preset")
        if preset is None:
            preset = inner
    if preset is None or preset == "":
        preset = "source"
    if not isinstance(preset, str) or preset not in PRESETS:
        raise RulesError(N_("Unknown preset '{preset}': choose one of {choices}.",
                            preset=preset, choices=", ".join(PRESETS)),
                         code="unknown_preset", field="preset")
    return build_rules(Rules, SWITCHES, data, base=PRESETS[preset], aliases=_ALIASES)


def decks(rules: Rules = None, players: int | None = None) -> int:
    """How many 54-card decks the table uses (§3.1, ``deckMode``). ``players=None`` assumes 2 decks."""
    mode = (rules or _DEFAULT).deck_mode
    if players is not None and (isinstance(players, bool) or not isinstance(players, int)
                                or not PLAYER_RANGE[0] <= players <= PLAYER_RANGE[1]):
        raise RulesError(_t(_BAD_PLAYERS, players=players), code="bad_players", field="players")
    if mode == "oneDeck":
        return 1
    if players is None:
        return 2
    if mode == "perThree":
        return max(1, math.ceil(players / 3))
    return 1 if players <= 2 else 2


_DEFAULT = Rules()

# --------------------------------------------------------------------------------------------
# Readings (§3.5, §3.6, §9 classify)


def _names(values: tuple) -> str:
    try:
        return _NAMES[values]
    except KeyError:
        return " ".join([RANK_NAMES[v] for v in values])


def _name_table() -> dict:
    """The names of every values tuple a reading can have (same rank, runs, runs of pairs, jokers)."""
    table = {}
    for r in range(3, 19):
        for n in range(1, 25):
            table[(r,) * n] = " ".join([RANK_NAMES[r]] * n)
    for s in range(3, 15):
        for n in range(1, 13):
            if s + n - 1 <= ACE:
                table[tuple(range(s, s + n))] = " ".join([RANK_NAMES[v] for v in range(s, s + n)])
                values = tuple(v for r in range(s, s + n) for v in (r, r))
                table[values] = " ".join([RANK_NAMES[v] for v in values])
    for a in (SMALL_JOKER, BIG_JOKER, 18):
        for b in (SMALL_JOKER, BIG_JOKER, 18):
            table[(a, b)] = RANK_NAMES[a] + " " + RANK_NAMES[b]
    return table


_NAMES = _name_table()


def describe(reading: Reading) -> str:
    """The ranks a reading stands for, e.g. ``"4 4 5 5"`` (jokers resolved; a joker single or the
    double-joker bomb shows its jokers)."""
    return _names(reading.values)


_SOFT = ("soft", True)


def _show(reading: Reading) -> str:
    """A reading for a sentence: ``"8 8"``; with jokers ``"6 6 6 JK (= 6 6 6 6)"``."""
    values = _names(reading.values)
    if reading.extra and reading.extra[0] == _SOFT:
        return " ".join(RANK_NAMES[c.rank] for c in reading.cards) + " (= " + values + ")"
    return values


def _aligned(naturals, jokers, values):
    """Order the physical cards so card i stands for values[i] (naturals first at their ranks)."""
    pool = {}
    for card in naturals:
        pool.setdefault(card.rank, []).append(card)
    jokers = list(jokers)
    out = []
    for v in values:
        bucket = pool.get(v)
        out.append(bucket.pop() if bucket else jokers.pop())
    return tuple(out)


def _readings(cards: tuple, tib: bool, jbomb: str, jsingle: bool) -> tuple:
    n = len(cards)
    if not n:
        return ()
    naturals = sorted((c for c in cards if c.rank < SMALL_JOKER), key=lambda c: (c.rank, c.suit or ""),
                      reverse=True)
    jokers = [c for c in cards if c.rank >= SMALL_JOKER]
    j = len(jokers)
    out = []
    if not naturals:
        if n == 1 and jsingle:
            out.append(Reading(SINGLE, JOKER, 1, cards, (cards[0].rank,), (("joker", True),)))
        elif n == 2 and jbomb != "off":
            ranks = sorted(c.rank for c in jokers)
            if ranks not in ([SMALL_JOKER, SMALL_JOKER], [BIG_JOKER, BIG_JOKER]):
                ordered = tuple(sorted(jokers, key=lambda c: c.rank))
                out.append(Reading(JOKER_BOMB, JOKER, 2, ordered, tuple(c.rank for c in ordered),
                                   (("soft", False),)))
        return tuple(out)
    counts = Counter(c.rank for c in naturals)
    lo, hi = min(counts), max(counts)
    soft = j > 0
    # same-rank groups: single, pair, triple, bomb
    if lo == hi and not (soft and lo == TWO):
        values = (lo,) * n
        ordered = tuple(naturals[::-1]) + tuple(jokers)
        extra = (("soft", soft),)
        if n == 1:
            out.append(Reading(SINGLE, lo, 1, ordered, values, extra))
        elif n == 2:
            out.append(Reading(PAIR, lo, 2, ordered, values, extra))
        elif n == 3 and not tib:
            out.append(Reading(TRIPLE, lo, 3, ordered, values, extra))
        else:
            out.append(Reading(BOMB, lo, n, ordered, values, extra))
    if TWO not in counts:
        # straights: >= 3 distinct consecutive ranks within 3..A, jokers fill
        if 3 <= n <= 12 and len(counts) == len(naturals):
            for s in range(min(lo, ACE - n + 1), max(3, hi - n + 1) - 1, -1):
                values = tuple(range(s, s + n))
                out.append(Reading(STRAIGHT, s, n, _aligned(naturals, jokers, values), values, (("soft", soft),)))
        # connected pairs: >= 2 consecutive pairs within 3..A, jokers fill
        k = n // 2
        if n % 2 == 0 and 2 <= k <= 12 and max(counts.values()) <= 2:
            for s in range(min(lo, ACE - k + 1), max(3, hi - k + 1) - 1, -1):
                values = tuple(v for r in range(s, s + k) for v in (r, r))
                out.append(Reading(CONNECTED_PAIRS, s, n, _aligned(naturals, jokers, values), values,
                                   (("soft", soft),)))
    if len(out) > 1:
        out.sort(key=lambda r: (r.type in _BOMB_TYPES, r.rank, r.values[-1]), reverse=True)
    return tuple(out)


@lru_cache(maxsize=16384)
def _read_text(text: str, tib: bool, jbomb: str, jsingle: bool):
    cards = _profile(text)[0]
    return cards, _readings(cards, tib, jbomb, jsingle)


@lru_cache(maxsize=16384)
def _read_cards(cards: tuple, tib: bool, jbomb: str, jsingle: bool):
    return _readings(cards, tib, jbomb, jsingle)


def _needs(cards: tuple):
    """(decks needed to hold these cards, natural rank counts, number of jokers, counts of the
    cards a deck holds once: suited cards and the small/big joker)."""
    counts = Counter(c.rank for c in cards if c.rank < SMALL_JOKER)
    jokers = [c.rank for c in cards if c.rank >= SMALL_JOKER]
    unique = Counter((c.rank, c.suit) for c in cards if c.suit or c.rank in (SMALL_JOKER, BIG_JOKER))
    most = max(counts.values(), default=0)
    most_unique = max(unique.values(), default=0)
    need = max(1, -(-most // 4), -(-len(jokers) // JOKERS_PER_DECK), most_unique)
    return need, dict(counts), len(jokers), dict(unique), most, most_unique


@lru_cache(maxsize=16384)
def _profile(text: str):
    """(cards, decks needed, natural rank counts, jokers) of a card string (CardError if unreadable)."""
    cards = parse_cards(text)
    return (cards,) + _needs(cards)


def _cards_of(cards) -> tuple:
    if isinstance(cards, tuple) and all(isinstance(c, Card) for c in cards):
        return cards
    if isinstance(cards, list) and cards and all(isinstance(c, Card) for c in cards):
        return tuple(cards)
    return parse_cards(cards)


def classify(cards, rules: Rules = None, players: int | None = None) -> tuple:
    """Every reading of ``cards`` (text or a tuple of :class:`Card`), best first.

    Order: bombs first (biggest first), then the other readings from the highest rank down.
    Raises :class:`CardError` for unreadable text. ``players`` is accepted for symmetry with
    :func:`check` (deck limits are enforced by :func:`check`).
    """
    rules = rules or _DEFAULT
    if isinstance(cards, str):
        return _read_text(cards, rules.triple_is_bomb, rules.joker_bomb, rules.joker_single)[1]
    return _read_cards(_cards_of(cards), rules.triple_is_bomb, rules.joker_bomb, rules.joker_single)


# --------------------------------------------------------------------------------------------
# Following (§3.7)


def _bomb_key(r: Reading, rules: Rules) -> tuple:
    if r.type == JOKER_BOMB:
        size = {"top": _TOP, "as3": 3, "as4": 4}.get(rules.joker_bomb, _TOP)
        return (size, 1, _TOP)
    if rules.pure_beats_soft:
        return (r.length, 0 if r.get("soft") else 1, r.rank)
    return (r.length, 0, r.rank)


def beats(top: Reading, cand: Reading, rules: Rules = None) -> bool:
    """Does ``cand`` legally follow ``top`` (§3.7)?"""
    rules = rules or _DEFAULT
    ct, tt = cand.type, top.type
    if ct in _BOMB_TYPES:
        return tt not in _BOMB_TYPES or _bomb_key(cand, rules) > _bomb_key(top, rules)
    if tt in _BOMB_TYPES or ct != tt or cand.length != top.length:
        return False
    if ct == STRAIGHT or ct == CONNECTED_PAIRS:
        return cand.rank == top.rank + 1
    if ct == TRIPLE and rules.triple_follow == "anyHigher":
        return cand.rank > top.rank
    return cand.rank == top.rank + 1 or (cand.rank == TWO and top.rank < TWO)


# Sentences. Templates are marked with N_ (for pybabel) and filled with Text(template, params).
_LEAD = {
    SINGLE: N_("{play} leads as a single: any valid combination may lead a trick."),
    PAIR: N_("{play} leads as a pair: any valid combination may lead a trick."),
    TRIPLE: N_("{play} leads as a triple: any valid combination may lead a trick."),
    STRAIGHT: N_("{play} leads as a straight: any valid combination may lead a trick."),
    CONNECTED_PAIRS: N_("{play} leads as connected pairs: any valid combination may lead a trick."),
    BOMB: N_("{play} leads as a bomb: any valid combination may lead a trick."),
    JOKER_BOMB: N_("{play} leads as the double-joker bomb: any valid combination may lead a trick."),
}
_LEAD_AMBIGUOUS = N_("{cards} can be read {count} ways ({readings}); it counts as {play} unless you "
                     "declare another reading.")
_FOLLOW_OK = N_("{play} follows {top}: same kind of combination, exactly one rank higher.")
_FOLLOW_TWO = N_("{play} beats {top}: 2s beat any single, pair or triple of a lower rank.")
_FOLLOW_JOKER = N_("{play} beats {top}: a single joker ranks above 2.")
_FOLLOW_ANY_HIGHER = N_("{play} follows {top}: at this table any higher triple may follow a triple.")
_BOMB_ON_PLAIN = N_("{play} is a bomb: a bomb beats any play that is not a bomb.")
_BOMB_BIGGER = N_("{play} beats {top}: a bomb with more cards beats a bomb with fewer.")
_BOMB_HIGHER = N_("{play} beats {top}: between bombs of the same size the higher rank wins.")
_BOMB_PURE = N_("{play} beats {top}: at this table a bomb of natural cards beats a bomb of the same size "
                "made with jokers.")
_JOKER_BOMB_WINS = {
    "top": N_("{play} is the double-joker bomb: at this table it beats everything."),
    "as3": N_("{play} is the double-joker bomb: at this table it counts as the strongest 3-card bomb."),
    "as4": N_("{play} is the double-joker bomb: at this table it counts as the strongest 4-card bomb."),
}
_NOT_ONE_HIGHER = {
    SINGLE: N_("Only {next} may follow {top}: a single must be exactly one rank higher, or a 2."),
    PAIR: N_("Only {next} may follow {top}: a pair must be exactly one rank higher, or 2 2."),
    TRIPLE: N_("Only {next} may follow {top}: a triple must be exactly one rank higher, or 2 2 2."),
    STRAIGHT: N_("Only {next} may follow {top}: a straight must start exactly one rank higher, "
                 "with the same number of cards."),
    CONNECTED_PAIRS: N_("Only {next} may follow {top}: connected pairs must start exactly one rank "
                        "higher, with the same number of pairs."),
}
_SEQUENCE_AT_TOP = N_("Only a bomb can follow {top}: a sequence cannot go past A, so none starts one "
                      "rank higher.")
_NOT_HIGHER = N_("{play} does not beat {top}: a triple must be of a higher rank.")
_ONLY_BOMB_TWO = N_("Only a bomb can follow {top}: nothing ranks above 2 (no wrap-around to 3).")
_ONLY_BOMB_JOKER = N_("Only a bomb can follow a single joker: it ranks above everything else.")
_ONLY_BOMB_BOMB = N_("Only a bigger bomb can follow the bomb {top}.")
_BOMB_SMALL = N_("{play} does not beat {top}: a bomb must have more cards, or as many cards and a "
                 "higher rank.")
_BOMB_EQUAL = N_("{play} does not beat {top}: equal bombs never beat each other.")
_BOMB_SOFT = N_("{play} does not beat {top}: at this table a bomb made with jokers loses to a natural "
                "bomb of the same size.")
_BOMB_VS_JOKER_BOMB = N_("{play} does not beat the double-joker bomb.")
_TYPE_MISMATCH = {
    SINGLE: N_("{play} cannot follow {top}: on a single only a single exactly one rank higher, a 2, "
               "or a bomb may be played."),
    PAIR: N_("{play} cannot follow {top}: on a pair only a pair exactly one rank higher, 2 2, or a bomb "
             "may be played."),
    TRIPLE: N_("{play} cannot follow {top}: on a triple only a triple one rank higher, 2 2 2, or a bomb "
               "may be played."),
    STRAIGHT: N_("{play} cannot follow {top}: on a straight only a straight of the same length starting "
                 "one rank higher, or a bomb, may be played."),
    CONNECTED_PAIRS: N_("{play} cannot follow {top}: on connected pairs only as many pairs starting one "
                        "rank higher, or a bomb, may be played."),
}
_LENGTH_MISMATCH = {
    STRAIGHT: N_("{play} cannot follow {top}: a straight must have the same number of cards ({length})."),
    CONNECTED_PAIRS: N_("{play} cannot follow {top}: connected pairs must have the same number of cards "
                        "({length})."),
}
_JOKER_ALONE = N_("A joker cannot be played alone: it must go with at least one natural card.")
_JOKER_ONLY = N_("{play} has no natural card: jokers must be played with at least one natural card.")
_JOKER_ONLY_BOMB = N_("{play} has no natural card: jokers must be played with at least one natural card "
                      "(the double-joker bomb is a house rule, 'jokerBomb', that is off at this table).")
_JOKER_BOMB_SAME = N_("{play} is not the double-joker bomb: it needs one small and one big joker.")
_JOKER_AS_TWO = N_("{play} is not a combination: a joker can stand for any rank except 2.")
_TWO_IN_SEQUENCE = N_("{play} is not a combination: a 2 cannot be part of a straight or of connected pairs.")
_NOT_COMBINATION = N_("{play} is not a combination: play one rank (single, pair, triple, bomb), a straight "
                      "of 3 or more consecutive ranks, or 2 or more consecutive pairs.")
_TOO_MANY_TOGETHER = N_("{previous} and {play} together use {count} cards of rank {rank}, but {decks} "
                        "deck(s) hold only {limit}.")
_TOO_MANY_CARD = N_("{previous} and {play} together use {card} {count} times, but {decks} deck(s) hold "
                    "only {limit}.")
_TOO_MANY = N_("The cards use more copies of a card than the deck holds.")
_TWO_LAST = N_("A single 2 may not be a player's last card at this table.")
_BAD_PREVIOUS = N_("The play on the table, {previous}, is not a valid combination, so nothing can be "
                   "checked against it.")
_BAD_READING = N_("{cards} cannot be read as {declared}; it can be read as {readings}.")
_NO_READING = N_("{cards} cannot be read as {declared}.")
_BAD_PLAYERS = N_("The number of players must be a whole number from 2 to 6, not {players}.")
_BAD_RULES = N_("The house rules could not be read: {message}")


def _t(template: Text, **params) -> Text:
    return _text(template.template, params)


def _verdict(legal, code, template, _reading=None, _readings=(), **params) -> Verdict:
    return _new_verdict(legal, code, _text(template.template, params), _reading, _readings)


def _no_reading_verdict(cards: tuple, rules: Rules) -> Verdict:
    """Why ``cards`` form no combination (§3.5, §3.6)."""
    text = _names_of_cards(cards)
    naturals = [c.rank for c in cards if c.rank < SMALL_JOKER]
    jokers = [c.rank for c in cards if c.rank >= SMALL_JOKER]
    if not naturals:
        if len(jokers) == 1:
            return _verdict(False, "joker_alone", _JOKER_ALONE)
        if len(jokers) == 2 and rules.joker_bomb != "off":
            return _verdict(False, "joker_only", _JOKER_BOMB_SAME, play=text)
        if len(jokers) == 2:
            return _verdict(False, "joker_only", _JOKER_ONLY_BOMB, play=text)
        return _verdict(False, "joker_only", _JOKER_ONLY, play=text)
    distinct = set(naturals)
    if jokers and TWO in distinct and len(distinct) == 1:
        return _verdict(False, "joker_as_two", _JOKER_AS_TWO, play=text)
    if TWO in distinct and len(distinct) >= 2 and _sequence_if_two_allowed(naturals, len(cards)):
        return _verdict(False, "two_in_sequence", _TWO_IN_SEQUENCE, play=text)
    return _verdict(False, "not_a_combination", _NOT_COMBINATION, play=text)


def _sequence_if_two_allowed(naturals, n: int) -> bool:
    """Would these cards be a straight or connected pairs if 2s (and wrapping past 2) were allowed?
    (K A 2, A 2 3, A A 2 2, Q K A 2 JK …)"""
    counts = Counter(naturals)
    widths = []
    if n >= 3 and max(counts.values()) == 1:
        widths.append(n)
    if n >= 4 and n % 2 == 0 and max(counts.values()) <= 2:
        widths.append(n // 2)
    for width in widths:
        if width > 13:
            continue
        for start in range(13):
            window = {(start + i) % 13 + 3 for i in range(width)}
            if counts.keys() <= window:
                return True
    return False


def _names_of_cards(cards) -> str:
    return " ".join(str(c) for c in cards)


def _parse_field(text, field: str):
    try:
        return _cards_of(text)
    except CardError as error:
        raise CardError(error.message, code=error.code, field=field) from None


def _read(text, field: str, rules: Rules):
    """(cards, readings, decks needed, rank counts, jokers, once-per-deck counts) of a card string
    or tuple; CardError re-labelled with ``field``."""
    if isinstance(text, str):
        try:
            info = _profile(text)
            return (info[0], _read_text(text, rules.triple_is_bomb, rules.joker_bomb, rules.joker_single)[1],
                    info[1], info[2], info[3], info[4], info[5], info[6])
        except CardError as error:
            raise CardError(error.message, code=error.code, field=field) from None
    cards = _parse_field(text, field)
    return (cards, _read_cards(cards, rules.triple_is_bomb, rules.joker_bomb, rules.joker_single)) + _needs(cards)


def _normal_values(values) -> tuple:
    return tuple(sorted(JOKER if v >= SMALL_JOKER else v for v in values))


def _declared(cards, readings, declared, field: str):
    """The reading whose values are the declared ranks, or an illegal Verdict."""
    want = _normal_values(c.rank for c in _parse_field(declared, field))
    for r in readings:
        if _normal_values(r.values) == want:
            return r
    text = _names_of_cards(cards)
    if readings:
        return _verdict(False, "bad_reading", _BAD_READING, None, readings, cards=text, declared=_names(want),
                        readings="; ".join(describe(r) for r in readings))
    return _verdict(False, "bad_reading", _NO_READING, None, readings, cards=text, declared=_names(want))


def _deck_verdict(cards, n_decks: int, field: str, readings) -> Verdict:
    error = decks_limit_error(cards, n_decks, field)
    message = error.message if error is not None else _TOO_MANY
    return Verdict(False, "too_many_copies", message, None, readings)


def _is_lead(previous) -> bool:
    if previous is None:
        return True
    if isinstance(previous, str):
        s = previous.strip()
        return s == "" or s == "-"
    return isinstance(previous, (tuple, list)) and len(previous) == 0


# --------------------------------------------------------------------------------------------
# The fast path of check(): card text written as separate cards ("7s 8h JK 10d"), a Rules value,
# a valid player count, no declared reading. Anything else, and anything unusual found on the
# way (an unknown token, too many copies, no reading, a forbidden last 2), goes through
# _check_general, which gives every verdict and error. Nothing here is memoised per input.
#
# A card is an int key: rank * 8 + suit order (none 0, c 1, d 2, h 3, s 4, so keys sort like
# (rank, suit or "")); the small and big jokers get 1 (a deck holds them once), JK gets 0.
# key >> 3 is the rank, key & 7 is set for the cards a deck holds once, key < 128 for naturals.

_NEW = object.__new__
_STR_NEW = str.__new__


_text = new_text  # Text(template, params) without copying params (common.py)
_new_reading = new_reading  # Reading(...) without the dataclass __init__ (common.py)
_new_verdict = new_verdict

_SUIT_ORDER = {None: 0, "c": 1, "d": 2, "h": 3, "s": 4}
_KEY_CARD: dict = {}  # key -> Card
_KEY_TEXT: dict = {}  # key -> str(Card)
_TOKEN_KEY: dict = {}  # one card as written ("10h", "t♥", "jk", "大王") -> key


def _card_key(card: Card) -> int:
    if card.rank >= SMALL_JOKER:
        return card.rank * 8 + (card.rank != 18)
    return card.rank * 8 + _SUIT_ORDER[card.suit]


def _build_tokens() -> None:
    """Every way to write one card on its own, read by the card parser itself."""
    ranks = ("3", "4", "5", "6", "7", "8", "9", "10", "T", "t", "J", "j", "Q", "q", "K", "k", "A", "a", "2")
    suits = ("", "s", "h", "c", "d", "S", "H", "C", "D", "♠", "♥", "♣", "♦", "♤", "♡", "♧", "♢")
    words = [r + s for r in ranks for s in suits]
    for word in ("SJ", "BJ", "JK"):
        words += [word, word.lower(), word[0] + word[1].lower(), word[0].lower() + word[1]]
    words += ["小王", "大王", "王"]
    for word in words:
        if word.split() != [word]:
            continue
        try:
            cards = parse_cards(word)
        except CardError:
            continue
        if len(cards) == 1:
            key = _card_key(cards[0])
            _KEY_CARD.setdefault(key, cards[0])
            _KEY_TEXT.setdefault(key, str(cards[0]))
            _TOKEN_KEY[word] = key


_build_tokens()
_card_of = _KEY_CARD.__getitem__

_EXTRA_HARD = (("soft", False),)
_EXTRA_SOFT = (("soft", True),)
_EXTRA_JOKER = (("joker", True),)


def _fits(keys: list, n_decks: int) -> bool:
    """Do these cards fit in ``n_decks`` decks (copies of a rank, jokers, cards a deck holds once)?"""
    n = len(keys)
    if n - len(set(keys)) >= n_decks:  # some card may be there more than n_decks times
        once = [k for k in keys if k & 7]
        if len(once) - len(set(once)) >= n_decks:
            once.sort()
            for i in range(len(once) - n_decks):
                if once[i] == once[i + n_decks]:
                    return False
    if n > JOKERS_PER_DECK * n_decks:
        if keys.count(129) + keys.count(137) + keys.count(144) > JOKERS_PER_DECK * n_decks:
            return False
        limit = 4 * n_decks
        if n > limit:
            ranks = [k >> 3 for k in keys if k < 128]
            if len(ranks) > limit:
                ranks.sort()
                for i in range(len(ranks) - limit):
                    if ranks[i] == ranks[i + limit]:
                        return False
    return True


def _reading_order(r: Reading) -> tuple:
    return (r.type in _BOMB_TYPES, r.rank, r.values[-1])


def _aligned_keys(naturals: list, jokers: list, values: tuple) -> tuple:
    """_aligned for keys: naturals sorted high to low, jokers as played."""
    cards = _KEY_CARD
    pool = {}
    for k in naturals:
        r = k >> 3
        if r in pool:
            pool[r].append(k)
        else:
            pool[r] = [k]
    jokers = list(jokers)
    out = []
    for v in values:
        bucket = pool.get(v)
        out.append(cards[bucket.pop()] if bucket else cards[jokers.pop()])
    return tuple(out)


def _key_readings(keys: list, tib: bool, jbomb: str, jsingle: bool) -> tuple:
    """_readings of the cards with these keys (the same readings, in the same order)."""
    n = len(keys)
    if n == 1:
        k = keys[0]
        if k < 128:
            r = k >> 3
            return (_new_reading(SINGLE, r, 1, (_KEY_CARD[k],), (r,), _EXTRA_HARD),)
    elif max(keys) < 128:  # no joker: at most one reading
        naturals = sorted(keys)
        lo, hi = naturals[0] >> 3, naturals[-1] >> 3
        if lo == hi:
            kind = PAIR if n == 2 else TRIPLE if n == 3 and not tib else BOMB
            return (_new_reading(kind, lo, n, tuple(map(_card_of, naturals)), (lo,) * n, _EXTRA_HARD),)
        if hi == TWO or n < 3:
            return ()
        ranks = [k >> 3 for k in naturals]
        run = list(range(lo, hi + 1))
        if ranks == run:
            return (_new_reading(STRAIGHT, lo, n, tuple(map(_card_of, naturals)), tuple(run), _EXTRA_HARD),)
        if n % 2 == 0 and n >= 4:
            firsts = ranks[0::2]
            if firsts == run and firsts == ranks[1::2]:
                return (_new_reading(CONNECTED_PAIRS, lo, n, tuple(map(_card_of, naturals)), tuple(ranks),
                                     _EXTRA_HARD),)
        return ()
    cards = _KEY_CARD
    naturals = [k for k in keys if k < 128]
    jokers = [k for k in keys if k >= 128]
    if not naturals:
        if n == 1 and jsingle:
            k = keys[0]
            return (_new_reading(SINGLE, JOKER, 1, (cards[k],), (k >> 3,), _EXTRA_JOKER),)
        if n == 2 and jbomb != "off":
            a, b = sorted(jokers)
            ra, rb = a >> 3, b >> 3
            if not (ra == rb and ra != 18):
                return (_new_reading(JOKER_BOMB, JOKER, 2, (cards[a], cards[b]), (ra, rb), _EXTRA_HARD),)
        return ()
    naturals.sort(reverse=True)
    ranks = [k >> 3 for k in naturals]
    hi, lo = ranks[0], ranks[-1]
    out = []
    if lo == hi and lo != TWO:
        kind = PAIR if n == 2 else TRIPLE if n == 3 and not tib else BOMB
        ordered = tuple([cards[k] for k in reversed(naturals)] + [cards[k] for k in jokers])
        out.append(_new_reading(kind, lo, n, ordered, (lo,) * n, _EXTRA_SOFT))
    if hi != TWO:
        m = len(ranks)
        if 3 <= n <= 12 and len(set(ranks)) == m:
            for s in range(min(lo, ACE - n + 1), max(3, hi - n + 1) - 1, -1):
                values = tuple(range(s, s + n))
                out.append(_new_reading(STRAIGHT, s, n, _aligned_keys(naturals, jokers, values), values,
                                        _EXTRA_SOFT))
        k = n // 2
        if n % 2 == 0 and 2 <= k <= 12 and all(ranks[i] != ranks[i + 2] for i in range(m - 2)):
            for s in range(min(lo, ACE - k + 1), max(3, hi - k + 1) - 1, -1):
                values = tuple([v for r in range(s, s + k) for v in (r, r)])
                out.append(_new_reading(CONNECTED_PAIRS, s, n, _aligned_keys(naturals, jokers, values), values,
                                        _EXTRA_SOFT))
    if len(out) > 1:
        out.sort(key=_reading_order, reverse=True)
    return tuple(out)


class _Derived:
    """What check() and settle() need from a Rules value, worked out once per Rules object."""

    __slots__ = ("tib", "jbomb", "jsingle", "decks", "decks_none", "two_forbidden", "min_bomb", "held_by_size",
                 "winner_only", "joker_bomb_on", "whole_unit", "unit", "cap", "limit", "shut_mode", "threshold",
                 "shut_check", "exempt", "dealer_exception", "jd", "per_two", "hbm", "pbm", "long_hand", "points_args")

    def __init__(self, rules: Rules):
        self.tib = rules.triple_is_bomb
        self.jbomb = rules.joker_bomb
        self.jsingle = rules.joker_single
        self.decks = (None, None) + tuple(decks(rules, p) for p in range(2, PLAYER_RANGE[1] + 1))
        self.decks_none = decks(rules, None)
        self.two_forbidden = rules.two_as_last_card == "forbidden"
        self.min_bomb = rules.min_bomb
        self.held_by_size = rules.held_bomb_mult == "bySize"
        self.winner_only = rules.draw_mode == "winnerOnly"
        self.joker_bomb_on = rules.joker_bomb != "off"
        self.whole_unit = whole_unit = isinstance(rules.unit, int)
        self.unit = rules.unit
        self.cap = cap = _cap_limit(rules)
        self.limit = None if cap is None else cap * (rules.unit if whole_unit else 1)
        self.shut_mode = shut_mode = rules.shut_out
        self.threshold = int(shut_mode.partition(":")[2]) if shut_mode.startswith("threshold:") else None
        self.shut_check = shut_mode in ("double", "fixed20")
        self.exempt = rules.one_card_exempt
        self.dealer_exception = rules.shut_out_dealer_exception
        self.jd = rules.joker_doubling
        self.per_two = rules.twos_are_trumps == "perTwo"
        self.hbm = rules.held_bomb_mult
        self.pbm = rules.played_bomb_mult
        self.long_hand = rules.long_hand_mult == "on"
        self.points_args = (self.unit, whole_unit, cap, shut_mode, self.pbm, self.threshold, self.shut_check,
                            self.exempt, self.dealer_exception, self.jd, self.per_two, self.hbm, self.limit)


def _derive(rules: Rules) -> _Derived:
    derived = rules.__dict__.get("_derived")
    if derived is None:
        derived = _Derived(rules)
        rules.__dict__["_derived"] = derived
    return derived


def check(previous, play, rules: Rules = None, *, players: int | None = None, previous_as=None,
          play_as=None, last_card: bool = False) -> Verdict:
    """May ``play`` follow ``previous`` (``None``, ``""`` or ``"-"`` = a lead)? §3.7.

    ``previous_as`` / ``play_as`` declare a joker reading as the ranks the cards stand for
    (``"5 5 5"``). ``last_card``: the play would empty the player's hand (``twoAsLastCard``).
    Unreadable card text raises :class:`CardError` (field ``previous``, ``play``, ``previous_as``
    or ``play_as``); anything else wrong gives an illegal :class:`Verdict`.
    """
    if rules is None:
        rules = _DEFAULT
    if type(play) is not str or type(rules) is not Rules or previous_as is not None or play_as is not None:
        return _check_general(previous, play, rules, players=players, previous_as=previous_as,
                              play_as=play_as, last_card=last_card)
    derived = rules.__dict__.get("_derived") or _derive(rules)
    if players is None:
        n_decks = derived.decks_none
    elif type(players) is int and PLAYER_RANGE[0] <= players <= PLAYER_RANGE[1]:
        n_decks = derived.decks[players]
    else:
        n_decks = 0
    table = _TOKEN_KEY
    try:
        keys = [table[t] for t in play.split()]
        if previous is None:
            top_keys = None
        elif type(previous) is str:
            top_keys = [table[t] for t in previous.split()] if previous.strip() != "-" else None
            if not top_keys:
                top_keys = None
        else:
            n_decks = 0
    except KeyError:
        n_decks = 0
    if not n_decks or not keys or (last_card and derived.two_forbidden) or not _fits(
            keys if top_keys is None else top_keys + keys, n_decks):
        return _check_general(previous, play, rules, players=players, last_card=last_card)
    readings = _key_readings(keys, derived.tib, derived.jbomb, derived.jsingle)
    if not readings:
        return _check_general(previous, play, rules, players=players, last_card=last_card)
    if top_keys is None:  # a lead
        best = readings[0]
        if len(readings) > 1:
            return _new_verdict(True, "lead_ok", _text(_LEAD_AMBIGUOUS.template, {
                "cards": " ".join([_KEY_TEXT[k] for k in keys]), "count": len(readings),
                "readings": "; ".join([_names(r.values) for r in readings]), "play": _names(best.values)}),
                best, readings)
        return _new_verdict(True, "lead_ok", _text(_LEAD[best.type].template, {"play": _show(best)}), best,
                            readings)
    top_readings = _key_readings(top_keys, derived.tib, derived.jbomb, derived.jsingle)
    if not top_readings:
        return _check_general(previous, play, rules, players=players, last_card=last_card)
    top = top_readings[0]
    for cand in readings:
        if beats(top, cand, rules):
            return _new_verdict(True, "ok", _why_beats(top, cand, rules), cand, readings)
    return _why_not(top, readings, readings, rules)


def _check_general(previous, play, rules: Rules = None, *, players: int | None = None, previous_as=None,
                   play_as=None, last_card: bool = False) -> Verdict:
    """:func:`check` for any input: text, tuples or lists of cards, declared readings, errors."""
    if rules is None:
        rules = _DEFAULT
    elif not isinstance(rules, Rules):
        try:
            rules = rules_from_dict(rules)
        except RulesError as error:
            return _verdict(False, "bad_rules", _BAD_RULES, message=str(error.message))
    lead = _is_lead(previous)
    if not lead:
        (top_cards, top_readings, top_need, top_counts, top_jokers, top_unique, top_most,
         top_most_unique) = _read(previous, "previous", rules)
    cards, readings, need, counts, jokers, unique, most, most_unique = _read(play, "play", rules)
    if players is not None and (isinstance(players, bool) or not isinstance(players, int)
                                or not PLAYER_RANGE[0] <= players <= PLAYER_RANGE[1]):
        return _verdict(False, "bad_players", _BAD_PLAYERS, None, readings, players=players)
    n_decks = decks(rules, players)
    if need > n_decks:
        return _deck_verdict(cards, n_decks, "play", readings)
    if not readings:
        return _no_reading_verdict(cards, rules)
    if play_as is not None and str(play_as).strip() not in ("", "-"):
        chosen = _declared(cards, readings, play_as, "play_as")
        if isinstance(chosen, Verdict):
            return chosen
        candidates = (chosen,)
    else:
        candidates = readings
    if (last_card and rules.two_as_last_card == "forbidden" and len(cards) == 1
            and candidates[0].type == SINGLE and candidates[0].rank == TWO):
        return _verdict(False, "two_as_last_card", _TWO_LAST, candidates[0], readings)

    if lead:
        best = candidates[0]
        if len(candidates) > 1:
            return _verdict(True, "lead_ok", _LEAD_AMBIGUOUS, best, readings, cards=_names_of_cards(cards),
                            count=len(candidates), readings="; ".join(describe(r) for r in candidates),
                            play=describe(best))
        return _verdict(True, "lead_ok", _LEAD[best.type], best, readings, play=_show(best))

    # following
    if top_need > n_decks:
        return _deck_verdict(top_cards, n_decks, "previous", readings)
    limit = 4 * n_decks
    if (jokers + top_jokers > JOKERS_PER_DECK * n_decks
            or (most + top_most > limit
                and any(count + top_counts.get(rank, 0) > limit for rank, count in counts.items()))
            or (most_unique + top_most_unique > n_decks
                and any(count + top_unique.get(key, 0) > n_decks for key, count in unique.items()))):
        together = _together_error(top_cards, cards, n_decks)
        if together is not None:
            return Verdict(False, "too_many_copies", together, None, readings)
    if not top_readings:
        return _verdict(False, "bad_previous", _BAD_PREVIOUS, None, readings,
                        previous=_names_of_cards(top_cards))
    if previous_as is not None and str(previous_as).strip() not in ("", "-"):
        top = _declared(top_cards, top_readings, previous_as, "previous_as")
        if isinstance(top, Verdict):
            return Verdict(False, top.code, top.reason, None, readings)
    else:
        top = top_readings[0]
    for cand in candidates:
        if beats(top, cand, rules):
            return Verdict(True, "ok", _why_beats(top, cand, rules), cand, readings)
    return _why_not(top, candidates, readings, rules)


def _together_error(top_cards, cards, n_decks):
    limit = 4 * n_decks
    ranks = Counter(c.rank for c in top_cards if c.rank < SMALL_JOKER)
    for c in cards:
        if c.rank < SMALL_JOKER:
            ranks[c.rank] += 1
    for rank, count in ranks.items():
        if count > limit:
            return _t(_TOO_MANY_TOGETHER, previous=_names_of_cards(top_cards), play=_names_of_cards(cards),
                      count=count, rank=RANK_NAMES[rank], decks=n_decks, limit=limit)
    jokers = sum(1 for c in top_cards if c.is_joker) + sum(1 for c in cards if c.is_joker)
    if jokers > JOKERS_PER_DECK * n_decks:
        return _t(_TOO_MANY_TOGETHER, previous=_names_of_cards(top_cards), play=_names_of_cards(cards),
                  count=jokers, rank="JK", decks=n_decks, limit=JOKERS_PER_DECK * n_decks)
    unique = Counter((c.rank, c.suit) for c in top_cards + cards if c.suit or c.rank in (SMALL_JOKER, BIG_JOKER))
    for (rank, suit), count in unique.items():
        if count > n_decks:
            return _t(_TOO_MANY_CARD, previous=_names_of_cards(top_cards), play=_names_of_cards(cards),
                      count=count, card=RANK_NAMES[rank] + (suit or ""), decks=n_decks, limit=n_decks)
    return None


def _why_beats(top: Reading, cand: Reading, rules: Rules) -> Text:
    play, top_text = _show(cand), _show(top)
    if cand.type == JOKER_BOMB:
        return _t(_JOKER_BOMB_WINS.get(rules.joker_bomb, _JOKER_BOMB_WINS["top"]), play=play)
    if cand.type == BOMB:
        if top.type not in _BOMB_TYPES:
            return _t(_BOMB_ON_PLAIN, play=play)
        if cand.length > top.length:
            return _t(_BOMB_BIGGER, play=play, top=top_text)
        if rules.pure_beats_soft and top.get("soft") and not cand.get("soft"):
            return _t(_BOMB_PURE, play=play, top=top_text)
        if cand.rank > top.rank:
            return _t(_BOMB_HIGHER, play=play, top=top_text)
        return _t(_BOMB_PURE, play=play, top=top_text)
    if cand.type == SINGLE and cand.rank == JOKER:
        return _t(_FOLLOW_JOKER, play=play, top=top_text)
    if cand.rank == top.rank + 1:
        return _t(_FOLLOW_OK, play=play, top=top_text)
    if cand.type == TRIPLE and rules.triple_follow == "anyHigher":
        return _t(_FOLLOW_ANY_HIGHER, play=play, top=top_text)
    return _t(_FOLLOW_TWO, play=play, top=top_text)


def _next_of(top: Reading) -> str | None:
    """The ranks that follow ``top`` by the +1 rule, or None when no sequence starts higher."""
    if top.type in (STRAIGHT, CONNECTED_PAIRS):
        k = top.length if top.type == STRAIGHT else top.length // 2
        if top.rank + k > ACE:
            return None
        return _names(tuple(v + 1 for v in top.values))
    return _names((top.rank + 1,) * top.length)


def _why_not(top: Reading, candidates, readings, rules: Rules) -> Verdict:
    top_text = _show(top)
    if top.type in _BOMB_TYPES:
        bombs = [c for c in candidates if c.type in _BOMB_TYPES]
        if not bombs:
            return _verdict(False, "only_bomb_beats_bomb", _ONLY_BOMB_BOMB, candidates[0], readings, top=top_text)
        cand = bombs[0]
        play = _show(cand)
        if top.type == JOKER_BOMB:
            return _verdict(False, "bomb_too_small", _BOMB_VS_JOKER_BOMB, cand, readings, play=play)
        if (cand.type == BOMB and cand.length == top.length and rules.pure_beats_soft
                and cand.get("soft") and not top.get("soft")):
            return _verdict(False, "bomb_too_small", _BOMB_SOFT, cand, readings, play=play, top=top_text)
        if cand.type == BOMB and cand.length == top.length and cand.rank == top.rank:
            return _verdict(False, "bomb_too_small", _BOMB_EQUAL, cand, readings, play=play, top=top_text)
        return _verdict(False, "bomb_too_small", _BOMB_SMALL, cand, readings, play=play, top=top_text)
    same = [c for c in candidates if c.type == top.type]
    if not same:
        return _verdict(False, "type_mismatch", _TYPE_MISMATCH[top.type], candidates[0], readings,
                        play=_show(candidates[0]), top=top_text)
    same_length = [c for c in same if c.length == top.length]
    if not same_length:
        return _verdict(False, "length_mismatch", _LENGTH_MISMATCH[top.type], same[0], readings,
                        play=_show(same[0]), top=top_text, length=top.length)
    cand = same_length[0]
    if top.type == SINGLE and top.rank == JOKER:
        return _verdict(False, "only_bomb_beats_joker", _ONLY_BOMB_JOKER, cand, readings)
    if top.rank == TWO:
        return _verdict(False, "only_bomb_beats_two", _ONLY_BOMB_TWO, cand, readings, top=top_text)
    if top.type == TRIPLE and rules.triple_follow == "anyHigher":
        return _verdict(False, "not_higher", _NOT_HIGHER, cand, readings, play=_show(cand), top=top_text)
    following = _next_of(top)
    if following is None:
        return _verdict(False, "not_one_higher", _SEQUENCE_AT_TOP, cand, readings, top=top_text)
    return _verdict(False, "not_one_higher", _NOT_ONE_HIGHER[top.type], cand, readings, next=following,
                    top=top_text)


# --------------------------------------------------------------------------------------------
# Hand facts (§9) and settlement (§3.8, §4)

MAX_NUMBER = 108
_LOSER_KEYS = {"cards": "cards", "jokers": "jokers", "twos": "twos", "held_bombs": "held_bombs",
               "heldBombs": "held_bombs", "played": "played", "playedAny": "played", "played_any": "played",
               "dealer_only_opening": "dealer_only_opening", "dealerOnlyOpening": "dealer_only_opening"}


def needed_facts(rules: Rules = None) -> tuple:
    """The facts beyond each loser's ``cards`` and ``jokers`` that this table's switches use.

    Per loser: ``twos``, ``held_bombs``, ``played``, ``dealer_only_opening``; per hand:
    ``bombs_played``, ``tricks``.
    """
    rules = rules or _DEFAULT
    out = []
    if rules.twos_are_trumps != "off":
        out.append("twos")
    if rules.held_bomb_mult != "off":
        out.append("held_bombs")
    shut = rules.shut_out in ("double", "fixed20")
    if shut:
        out.append("played")
        if rules.shut_out_dealer_exception:
            out.append("dealer_only_opening")
    if rules.played_bomb_mult != "off" or rules.shut_out == "fixed20":
        out.append("bombs_played")
    if rules.long_hand_mult == "on":
        out.append("tricks")
    return tuple(out)


def _fail(code: str, field: str | None, template: Text, **params):
    raise FactsError(Text(template.template, params), code=code, field=field)


_E_FACTS = N_("The hand must be a set of facts: players, winner and losers.")
_E_PLAYERS = N_("List the players in seat order: 2 to 6 names.")
_E_PLAYER_COUNT = N_("{count} players listed: 干瞪眼 is played by 2 to 6 players.")
_E_PLAYER_NAME = N_("Player {position} has no name: every player needs a non-empty name.")
_E_PLAYER_DUP = N_("'{name}' is listed twice: player names must be different.")
_E_WINNER = N_("The winner '{name}' is not one of the players: choose the player who played out first.")
_E_DEALER = N_("The dealer '{name}' is not one of the players.")
_E_LOSERS = N_("Give the losers as a set of name: facts pairs.")
_E_LOSER_MISSING = N_("{name}: missing — every player except the winner needs their cards left.")
_E_LOSER_UNKNOWN = N_("'{name}' is not one of the players: losers must be players.")
_E_WINNER_LOSER = N_("{name} is the winner and cannot also be a loser: the winner has no cards left.")
_E_LOSER_FACTS = N_("{name}: give the facts as cards, jokers, … values.")
_E_LOSER_KEY = N_("{name}: '{key}' is not a fact of a hand; use {known}.")
_E_NOT_INT = N_("{name}: {what} must be a whole number, not '{value}'.")
_E_NEGATIVE = N_("{name}: {what} cannot be negative ({value}).")
_E_TOO_BIG = N_("{name}: {what} = {value} is more than a whole game holds.")
_E_NO_CARDS = N_("{name}: a loser has at least 1 card left — only the winner played out.")
_E_CARDS_MISSING = N_("{name}: how many cards are left? Give 'cards'.")
_E_JOKERS_CARDS = N_("{name}: {jokers} jokers held but only {cards} cards left — jokers cannot exceed cards.")
_E_JOKERS_CARD = N_("{name}: {jokers} jokers held but only 1 card left — jokers cannot exceed cards.")
_E_JOKERS_DECK = N_("{total} jokers held in all, but {decks} deck(s) have only {limit} — check the jokers.")
_E_TWOS_CARDS = N_("{name}: {twos} 2s and {jokers} jokers held but only {cards} card(s) left — 2s and jokers "
                   "together cannot exceed cards.")
_E_TWOS_DECK = N_("{total} 2s held in all, but {decks} deck(s) have only {limit} — check the 2s.")
_E_CARDS_DECK = N_("{total} cards left in all, but {decks} deck(s) have only {limit} — check the card counts.")
_E_BOOL = N_("{name}: {what} must be true or false, not '{value}'.")
_E_LIST = N_("{name}: {what} must be a list of bomb sizes such as [4, 5].")
_E_BOMB_SIZE = N_("{name}: a bomb of {size} cards is not possible here — bombs have {low} to {high} cards.")
_E_HELD_CARDS = N_("{name}: bombs of {total} cards in all held but only {cards} card(s) left.")
_E_HELD_CARDS_JOKERS = N_("{name}: bombs of {total} cards held besides {jokers} joker(s), but only {cards} "
                          "card(s) left — count the jokers first, then the bombs in the other cards.")
_E_SHUT_OUT = N_("{name}: never played, so {name} still holds the {need} cards dealt (or more after "
                 "drawing), not {cards}.")
_E_SHUT_OUT_EXACT = N_("{name}: never played and only trick winners draw, so {name} holds exactly 5 cards, "
                       "not {cards}.")
_E_DEALER_PLAYED = N_("{name}: the dealer always leads the first trick — mark 'only the opening lead' "
                      "instead of 'never played'.")
_E_NOT_DEALER = N_("{name}: only the dealer can have played just the opening lead — {dealer} is the dealer.")
_E_NEED_DEALER = N_("{name}: only the opening lead is marked, so say who the dealer is.")
_E_DEALER_WINNER = N_("{name}: the dealer won this hand, so the dealer is not a loser.")
_E_TRICKS = N_("The number of tricks must be a whole number from 0 to 108, not '{value}'.")

_WHAT = {"cards": N_("cards left"), "jokers": N_("jokers held"), "twos": N_("2s held"),
         "held_bombs": N_("a bomb size"), "bombs_played": N_("a bomb size"),
         "played": N_("'played'"), "dealer_only_opening": N_("'only the opening lead'")}


def _int(value, name: str, key: str, field: str, low: int = 0) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        _fail("not_integer", field, _E_NOT_INT, name=name, what=_WHAT.get(key, key), value=value)
    if value < low:
        if low == 1 and key == "cards":
            _fail("loser_without_cards", field, _E_NO_CARDS, name=name)
        _fail("negative", field, _E_NEGATIVE, name=name, what=_WHAT.get(key, key), value=value)
    if value > MAX_NUMBER:
        _fail("too_large", field, _E_TOO_BIG, name=name, what=_WHAT.get(key, key), value=value)
    return value


def _sizes(value, name: str, key: str, field: str, rules: Rules, n_decks: int, allow_joker_bomb: bool) -> list:
    if value is None:
        return []
    if not isinstance(value, (list, tuple)) or len(value) > 40:
        _fail("not_list", field, _E_LIST, name=name, what=_WHAT.get(key, key))
    low, high = rules.min_bomb, 6 * n_decks  # 4 naturals + 2 jokers per deck
    out = []
    for i, size in enumerate(value):
        size = _int(size, name, key, f"{field}.{i}")
        if not (low <= size <= high or (allow_joker_bomb and size == 2 and rules.joker_bomb != "off")):
            _fail("bomb_size", f"{field}.{i}", _E_BOMB_SIZE, name=name, size=size, low=low, high=high)
        out.append(size)
    return out


def _bool_fact(value, name: str, key: str, field: str, default: bool) -> bool:
    if value is None:
        return default
    if not isinstance(value, bool):
        _fail("not_boolean", field, _E_BOOL, name=name, what=_WHAT.get(key, key), value=value)
    return value


def _opt(value):
    return 0 if value is None else value


def validate_facts(facts, rules: Rules = None) -> dict:
    """Check hand facts (§9) and return them normalised (snake_case keys, every optional fact filled).

    Raises :class:`FactsError` with a ``code`` and a ``field`` such as ``losers.B.jokers``.
    """
    if rules is None:
        rules = _DEFAULT
    if not isinstance(facts, Mapping):
        _fail("bad_facts", None, _E_FACTS)
    players = facts.get("players")
    if type(players) is not list and not isinstance(players, (list, tuple)):
        _fail("players_missing", "players", _E_PLAYERS)
    n_players = len(players)
    if not PLAYER_RANGE[0] <= n_players <= PLAYER_RANGE[1]:
        _fail("player_count", "players", _E_PLAYER_COUNT, count=n_players)
    seen = set()
    for i, name in enumerate(players):
        if type(name) is not str or not name.strip():
            _fail("player_name", f"players.{i}", _E_PLAYER_NAME, position=i + 1)
        if name in seen:
            _fail("duplicate_player", f"players.{i}", _E_PLAYER_DUP, name=name)
        seen.add(name)
    n_decks = decks(rules, n_players)
    winner = facts.get("winner")
    if type(winner) is not str or winner not in seen:
        _fail("unknown_winner", "winner", _E_WINNER, name=winner)
    dealer = facts.get("dealer")
    if dealer == "":
        dealer = None
    if dealer is not None and (type(dealer) is not str or dealer not in seen):
        _fail("unknown_dealer", "dealer", _E_DEALER, name=dealer)
    losers = facts.get("losers")
    if type(losers) is not dict and not isinstance(losers, Mapping):
        _fail("losers_missing", "losers", _E_LOSERS)
    if winner in losers:
        _fail("winner_is_loser", f"losers.{winner}", _E_WINNER_LOSER, name=winner)
    if not losers.keys() <= seen:
        for name in losers:
            if name not in seen:
                _fail("unknown_loser", f"losers.{name}", _E_LOSER_UNKNOWN, name=name)
    out_losers = {}
    total_jokers = total_twos = total_cards = 0
    joker_limit, two_limit, card_limit = JOKERS_PER_DECK * n_decks, 4 * n_decks, 54 * n_decks
    for name in players:
        if name == winner:
            continue
        entry = losers.get(name)
        if entry is None:
            _fail("loser_missing", f"losers.{name}", _E_LOSER_MISSING, name=name)
        if type(entry) is not dict and not isinstance(entry, Mapping):
            _fail("bad_loser", f"losers.{name}", _E_LOSER_FACTS, name=name)
        if not entry.keys() <= _CANONICAL:
            entry = _canonical_loser(entry, name)
        cards = entry.get("cards")
        if type(cards) is not int or not 1 <= cards <= MAX_NUMBER:
            if cards is None:
                _fail("cards_missing", f"losers.{name}.cards", _E_CARDS_MISSING, name=name)
            _int(cards, name, "cards", f"losers.{name}.cards", low=1)
        jokers = entry.get("jokers", 0)
        if type(jokers) is not int or not 0 <= jokers <= MAX_NUMBER:
            jokers = _int(_opt(jokers), name, "jokers", f"losers.{name}.jokers")
        if jokers > cards:
            _fail("jokers_exceed_cards", f"losers.{name}.jokers", _E_JOKERS_CARD if cards == 1 else _E_JOKERS_CARDS,
                  name=name, jokers=jokers, cards=cards)
        total_jokers += jokers
        if total_jokers > joker_limit:
            _fail("jokers_exceed_deck", f"losers.{name}.jokers", _E_JOKERS_DECK, total=total_jokers,
                  decks=n_decks, limit=joker_limit)
        total_cards += cards
        if total_cards > card_limit:
            _fail("cards_exceed_deck", f"losers.{name}.cards", _E_CARDS_DECK, total=total_cards, decks=n_decks,
                  limit=card_limit)
        if not entry.keys() <= _BASIC:
            twos, held, played, opening = _more_loser_facts(entry, name, cards, jokers, dealer, rules, n_decks)
            total_twos += twos
            if total_twos > two_limit:
                _fail("twos_exceed_deck", f"losers.{name}.twos", _E_TWOS_DECK, total=total_twos, decks=n_decks,
                      limit=two_limit)
            out_losers[name] = {"cards": cards, "jokers": jokers, "twos": twos, "held_bombs": held,
                                "played": played, "dealer_only_opening": opening}
        else:
            out_losers[name] = {"cards": cards, "jokers": jokers, "twos": 0, "held_bombs": [],
                                "played": True, "dealer_only_opening": False}
    bombs = facts.get("bombs_played")
    if bombs is None:
        bombs = facts.get("bombsPlayed")
    bombs = _sizes(bombs, "bombs_played", "bombs_played", "bombs_played", rules, n_decks, True) if bombs else []
    tricks = facts.get("tricks")
    if tricks is not None and (type(tricks) is not int or not 0 <= tricks <= MAX_NUMBER):
        _fail("bad_tricks", "tricks", _E_TRICKS, value=tricks)
    out = {"players": list(players), "winner": winner, "losers": out_losers, "bombs_played": bombs,
           "tricks": tricks}
    if dealer is not None:
        out["dealer"] = dealer
    return out


_BASIC = frozenset(("cards", "jokers"))
_CANONICAL = frozenset(("cards", "jokers", "twos", "held_bombs", "played", "dealer_only_opening"))


def _canonical_loser(entry, name: str) -> dict:
    values = {}
    for key, value in entry.items():
        norm = _LOSER_KEYS.get(key)
        if norm is None:
            _fail("unknown_fact", f"losers.{name}.{key}", _E_LOSER_KEY, name=name, key=key,
                  known="cards, jokers, twos, held_bombs, played, dealer_only_opening")
        values[norm] = value
    return values


def _more_loser_facts(entry, name, cards, jokers, dealer, rules: Rules, n_decks: int):
    """twos, held bombs, played, dealer-only-opening of one loser, checked."""
    base = f"losers.{name}"
    twos = _int(_opt(entry.get("twos")), name, "twos", f"{base}.twos")
    if twos + jokers > cards:
        _fail("twos_exceed_cards", f"{base}.twos", _E_TWOS_CARDS, name=name, twos=twos, jokers=jokers, cards=cards)
    held = _sizes(entry.get("held_bombs"), name, "held_bombs", f"{base}.held_bombs", rules, n_decks, False)
    if held:
        by_size = rules.held_bomb_mult == "bySize"
        total = sum(held)
        if total > (cards - jokers if by_size else cards):
            _fail("held_bombs_exceed_cards", f"{base}.held_bombs",
                  _E_HELD_CARDS_JOKERS if by_size and jokers else _E_HELD_CARDS,
                  name=name, total=total, cards=cards, jokers=jokers)
    played = _bool_fact(entry.get("played"), name, "played", f"{base}.played", True)
    opening = _bool_fact(entry.get("dealer_only_opening"), name, "dealer_only_opening",
                         f"{base}.dealer_only_opening", False)
    if not played:
        if dealer is not None and name == dealer:
            _fail("dealer_played", f"{base}.played", _E_DEALER_PLAYED, name=name)
        if rules.draw_mode == "winnerOnly" and cards != 5:
            _fail("shut_out_cards", f"{base}.cards", _E_SHUT_OUT_EXACT, name=name, cards=cards)
        if cards < 5:
            _fail("shut_out_cards", f"{base}.cards", _E_SHUT_OUT, name=name, need=5, cards=cards)
    if opening:
        if dealer is None:
            _fail("dealer_missing", "dealer", _E_NEED_DEALER, name=name)
        if name != dealer:
            _fail("not_dealer", f"{base}.dealer_only_opening", _E_NOT_DEALER, name=name, dealer=dealer)
    return twos, held, played, opening


def next_dealer(facts) -> str:
    """The next hand's dealer: this hand's winner (§3.2)."""
    if isinstance(facts, Mapping) and isinstance(facts.get("winner"), str):
        return facts["winner"]
    raise FactsError(Text(_E_WINNER.template, {"name": None}), code="unknown_winner", field="winner")


# Settlement sentences
_S_PLAIN = N_("{name}: {cards} cards = {pay}")
_S_PLAIN_1 = N_("{name}: 1 card = {pay}")
_S_STEP = N_("{name}: {cards} cards, {factors} = {pay}")
_S_STEP_1 = N_("{name}: 1 card, {factors} = {pay}")
_S_STEP_CAP = N_("{name}: {cards} cards, {factors} = {raw}, capped at {pay}")
_S_STEP_CAP_1 = N_("{name}: 1 card, {factors} = {raw}, capped at {pay}")
_S_PLAIN_CAP = N_("{name}: {cards} cards = {raw}, capped at {pay}")
_F_JOKER = N_("holds a joker, ×2")
_F_JOKERS_ONCE = N_("holds {count} jokers, ×2 once")
_F_PER_JOKER = N_("holds {count} joker(s), ×2 each = ×{factor}")
_F_TWOS = N_("holds {count} 2(s), ×2 each = ×{factor}")
_F_HELD_ONCE = N_("holds a bomb, ×2")
_F_HELD_NOT_STACKED = N_("holds a bomb, no extra ×2 on top of the joker doubling")
_F_HELD_PER = N_("holds {count} bomb(s), ×2 each = ×{factor}")
_F_HELD_SIZE = N_("holds bomb(s) of {sizes} cards, ×{factor}")
_F_SHUT = N_("never played (shut out), ×2")
_F_SHUT_DEALER = N_("dealer who only made the opening lead (shut out), ×2")
_F_THRESHOLD = N_("{threshold} or more cards left, ×2")
_F_PLAYED_DOUBLE = N_("{count} bomb(s) played, ×2 each = ×{factor}")
_F_PLAYED_SIZE = N_("bomb(s) of {sizes} cards played, ×{factor}")
_F_PLAYED_LINEAR = N_("bombs played count {count} (炸数), ×(1 + {count}) = ×{factor}")
_F_LONG = N_("long hand ({tricks} tricks), ×{factor}")
_F_UNIT = N_("{unit} points per card, ×{unit}")
_S_FIXED = N_("{name}: shut out, pays 20 + 10 × {count} (炸数 of the bombs played) = {raw}")
_S_FIXED_CAP = N_("{name}: shut out, pays 20 + 10 × {count} (炸数 of the bombs played) = {raw}, capped at {pay}")
_S_EXEMPT = N_("{name}: 1 card left (报警), pays nothing at this table.")
_S_TOTAL = N_("{winner} collects {total} from {count} players.")
_S_TOTAL_ONE = N_("{winner} collects {total} from 1 player.")


def _cap_limit(rules: Rules) -> int | None:
    if rules.cap == "none":
        return None
    return int(rules.cap.partition(":")[2])


def _bomb_counts(sizes, rules: Rules) -> int:
    """炸数 of the bombs played (§8 S5/S11): the smallest kind of bomb counts 1, each extra card +1."""
    low = rules.min_bomb
    return sum(_joker_bomb_size(s, rules) - low + 1 for s in sizes)


def _joker_bomb_size(size: int, rules: Rules) -> int:
    if size == 2:  # the double-joker bomb counts as the bomb size it stands for
        return {"as3": 3, "as4": 4}.get(rules.joker_bomb, 4)
    return size


_JOINS = {n: ", ".join("{f%d}" % i for i in range(n)) for n in range(2, 12)}


def _factors_text(parts) -> Text:
    """The multipliers of one loser as one Text (each part stays a translatable Text parameter)."""
    if len(parts) == 1:
        return parts[0]
    return Text(_JOINS[len(parts)], {f"f{i}": part for i, part in enumerate(parts)})


_MEMO: dict = {}
_MEMO_SIZE = 4096
_PLAIN_STAKES = (int, float, Decimal, str)


_LazySettlement = LazySettlement  # steps written on first read (common.py)


def _lazy(deltas: dict, points: dict, winner: str, spec: tuple) -> Settlement:
    """A settlement of this game (``winners``, ``arch``, ``multiplier``: the class defaults, None)."""
    obj = _NEW(_LazySettlement)
    d = obj.__dict__
    d["deltas"] = deltas
    d["_spec"] = (_write_steps, spec)
    d["points"] = points
    d["next_dealer"] = winner
    return obj


def settle(facts, rules: Rules = None, stake=1) -> Settlement:
    """Who pays what (§3.8, §4): validates the facts first; points are zero-sum integers.

    ``points`` include the ``unit`` when it is a whole number; a fractional unit is applied with the
    stake, so ``deltas`` always equal points-before-unit × unit × stake.

    Facts written the usual way (snake_case keys, lists and dicts, exact ints and bools) with a
    whole-number stake are checked and settled in one pass, which is quicker than any memo
    lookup. Other facts are memoised by their ``marshal`` bytes (a faithful encoding of plain
    JSON-like values, so 1, 1.0 and True differ; anything else is not memoised), the rules and
    the stake. Every call returns a fresh :class:`Settlement`; its ``steps`` are written when
    first read.
    """
    if rules is None:
        rules = _DEFAULT
    elif not isinstance(rules, Rules):
        rules = rules_from_dict(rules)
    if type(facts) is dict and type(stake) is int:
        dv = rules.__dict__.get("_derived") or _derive(rules)
        hand = _plain_hand(facts, rules, dv)
        if hand is not None:
            return _settle_hand(hand, rules, dv, stake)
    if type(facts) is dict and type(stake) in _PLAIN_STAKES:
        try:
            key = (marshal.dumps(facts, 2), rules, type(stake), stake)
        except ValueError:  # not plain JSON-like values: no memo
            return _settle(facts, rules, stake)
        hit = _MEMO.get(key)
        if hit is None:
            result = _settle(facts, rules, stake)
            if len(_MEMO) >= _MEMO_SIZE:
                _MEMO.clear()
            d = result.__dict__
            _MEMO[key] = (dict(d["deltas"]), dict(d["points"]), d["next_dealer"], d["_spec"][1])
            return result
        return _lazy(dict(hit[0]), dict(hit[1]), hit[2], hit[3])
    return _settle(facts, rules, stake)


def _plain_hand(facts: dict, rules: Rules, dv: "_Derived"):
    """The hand of facts that pass every check of :func:`validate_facts` and are written the
    usual way (snake_case, lists, dicts), as ``(players, winner, dealer, rows, bombs, tricks)``
    with one row ``(name, cards, jokers, twos, held_bombs, played, dealer_only_opening)`` per
    loser in seat order; None for anything else (validate_facts then says what is wrong)."""
    players = facts.get("players")
    if type(players) is not list and type(players) is not tuple:
        return None
    n = len(players)
    if not PLAYER_RANGE[0] <= n <= PLAYER_RANGE[1]:
        return None
    winner = facts.get("winner")
    if type(winner) is not str or winner not in players:
        return None
    dealer = facts.get("dealer")
    if dealer is not None:
        if type(dealer) is not str:
            return None
        if dealer == "":
            dealer = None
        elif dealer not in players:
            return None
    losers = facts.get("losers")
    if type(losers) is not dict or len(losers) != n - 1 or winner in losers:
        return None
    n_decks = dv.decks[n]
    rows = []
    total_jokers = total_twos = total_cards = 0
    for name in players:
        if type(name) is not str or not name or name.isspace():
            return None
        if name == winner:
            continue
        entry = losers.get(name)
        if type(entry) is not dict:
            return None
        cards = entry.get("cards")
        if type(cards) is not int or not 1 <= cards <= MAX_NUMBER:
            return None
        jokers = entry.get("jokers", 0)
        if type(jokers) is not int or not 0 <= jokers <= cards:
            return None
        total_jokers += jokers
        total_cards += cards
        size = len(entry)
        if size == 1 or (size == 2 and "jokers" in entry):
            rows.append((name, cards, jokers, 0, (), True, False))
            continue
        if not entry.keys() <= _CANONICAL:
            return None
        twos = entry.get("twos")
        if twos is None:
            twos = 0
        elif type(twos) is not int or twos < 0 or twos + jokers > cards:
            return None
        held = entry.get("held_bombs")
        if held:
            if (type(held) is not list and type(held) is not tuple) or len(held) > 40:
                return None
            low, high = dv.min_bomb, 6 * n_decks
            for s in held:
                if type(s) is not int or not low <= s <= high:
                    return None
            if sum(held) > (cards - jokers if dv.held_by_size else cards):
                return None
            held = tuple(held)
        elif held is None or ((type(held) is list or type(held) is tuple) and not held):
            held = ()
        else:
            return None
        played = entry.get("played")
        if played is None:
            played = True
        elif type(played) is not bool:
            return None
        opening = entry.get("dealer_only_opening")
        if opening is None:
            opening = False
        elif type(opening) is not bool:
            return None
        if not played and (name == dealer or cards < 5 or (cards != 5 and dv.winner_only)):
            return None
        if opening and name != dealer:
            return None
        total_twos += twos
        rows.append((name, cards, jokers, twos, held, played, opening))
    if (total_jokers > JOKERS_PER_DECK * n_decks or total_cards > 54 * n_decks
            or total_twos > 4 * n_decks or len(set(players)) != n):
        return None
    bombs = facts.get("bombs_played")
    if bombs is None:
        bombs = facts.get("bombsPlayed")
    if not bombs:
        if bombs is not None and type(bombs) is not list and type(bombs) is not tuple:
            return None
        bombs = ()
    else:
        if (type(bombs) is not list and type(bombs) is not tuple) or len(bombs) > 40:
            return None
        low, high = dv.min_bomb, 6 * n_decks
        for s in bombs:
            if type(s) is not int or not (low <= s <= high or (s == 2 and dv.joker_bomb_on)):
                return None
        bombs = tuple(bombs)
    tricks = facts.get("tricks")
    if tricks is not None and (type(tricks) is not int or not 0 <= tricks <= MAX_NUMBER):
        return None
    return (tuple(players), winner, dealer, tuple(rows), bombs, tricks)


def _settle(facts, rules: Rules, stake) -> Settlement:
    dv = rules.__dict__.get("_derived") or _derive(rules)
    hand = _plain_hand(facts, rules, dv) if type(facts) is dict else None
    if hand is None:
        facts = validate_facts(facts, rules)
        rows = tuple((name, loser["cards"], loser["jokers"], loser["twos"], tuple(loser["held_bombs"]),
                      loser["played"], loser["dealer_only_opening"]) for name, loser in facts["losers"].items())
        hand = (tuple(facts["players"]), facts["winner"], facts.get("dealer"), rows, tuple(facts["bombs_played"]),
                facts["tricks"])
    return _settle_hand(hand, rules, dv, stake)


def _settle_hand(hand: tuple, rules: Rules, dv: _Derived, stake) -> Settlement:
    points = _points_only(rules, dv, hand)
    if dv.whole_unit:
        if type(stake) is int and stake == 1:
            deltas = dict(points)
        else:
            deltas = apply_stake(points, stake)
    else:
        deltas = apply_stake(points, _money(stake) * Decimal(str(rules.unit)))
    return _lazy(deltas, points, hand[1], (rules, hand))


def _write_steps(spec) -> list:
    steps = []
    _hand_points(spec[0], _derive(spec[0]), spec[1], steps)
    return steps


def _points_only(rules: Rules, dv: _Derived, hand: tuple) -> dict:
    """The points of :func:`_hand_points`, without writing the sentences."""
    players, winner, dealer, rows, bombs, tricks = hand
    (unit, whole_unit, cap, shut_mode, pbm, threshold, shut_check, exempt, dealer_exception, jd, per_two, hbm,
     limit) = dv.points_args
    shared = unit if whole_unit and unit != 1 else 1
    if bombs and pbm != "off":
        if pbm == "double":
            shared *= 2 ** len(bombs)
        elif pbm == "bySize":
            for s in bombs:
                shared *= 2 ** (_joker_bomb_size(s, rules) - 2)
        else:
            shared *= 1 + _bomb_counts(bombs, rules)
    if tricks is not None and tricks >= 20 and dv.long_hand:
        shared *= 4 if tricks >= 30 else 2
    points = {name: 0 for name in players}
    total = 0
    for name, cards, jokers, twos, held, played, opening in rows:
        if exempt and cards == 1:
            continue
        shut = shut_check and (not played or (dealer_exception and opening and name == dealer))
        if shut and shut_mode == "fixed20":
            pay = 20 + 10 * _bomb_counts(bombs, rules)
            if whole_unit:
                pay *= unit
            if limit is not None and pay > limit:
                pay = limit
            points[name] = -pay
            total += pay
            continue
        m = cards
        joker_factor = 1
        if jokers and jd != "off":
            joker_factor = 2 if jd == "once" else 2 ** jokers
            m *= joker_factor
        if twos and per_two:
            m *= 2 ** twos
        if held and hbm != "off":
            if hbm == "once":
                if joker_factor == 1:
                    m *= 2
            elif hbm == "perBomb":
                m *= 2 ** len(held)
            else:
                for s in held:
                    m *= 2 ** (s - 2)
        if shut or (threshold is not None and cards >= threshold):
            m *= 2
        m *= shared
        if limit is not None and m > limit:
            m = limit
        points[name] = -m
        total += m
    points[winner] = total
    return points


def _hand_points(rules: Rules, dv: _Derived, hand: tuple, steps: list | None) -> dict:
    """Points of every player for a checked hand; the sentences go to ``steps`` unless it is None."""
    players, winner, dealer, rows, bombs, tricks = hand
    texts = steps is not None
    (unit, whole_unit, cap, shut_mode, pbm, threshold, shut_check, exempt, dealer_exception, jd, per_two, hbm,
     limit) = dv.points_args
    # factor shared by every loser: bombs played, long hand
    shared, shared_parts = 1, []
    if bombs and pbm != "off":
        if pbm == "double":
            f = 2 ** len(bombs)
            if texts:
                shared_parts.append(_t(_F_PLAYED_DOUBLE, count=len(bombs), factor=f))
        elif pbm == "bySize":
            f = 1
            for s in bombs:
                f *= 2 ** (_joker_bomb_size(s, rules) - 2)
            if texts:
                shared_parts.append(_t(_F_PLAYED_SIZE, sizes=", ".join(str(s) for s in bombs), factor=f))
        else:
            n = _bomb_counts(bombs, rules)
            f = 1 + n
            if texts:
                shared_parts.append(_t(_F_PLAYED_LINEAR, count=n, factor=f))
        shared *= f
    if tricks is not None and tricks >= 20 and dv.long_hand:
        f = 4 if tricks >= 30 else 2
        shared *= f
        if texts:
            shared_parts.append(_t(_F_LONG, tricks=tricks, factor=f))
    if whole_unit and unit != 1:
        shared *= unit
        if texts:
            shared_parts.append(_t(_F_UNIT, unit=unit))
    points = {name: 0 for name in players}
    total = 0
    for name, cards, jokers, twos, held, played, opening in rows:
        if exempt and cards == 1:
            if texts:
                steps.append(_t(_S_EXEMPT, name=name))
            continue
        shut = False
        if shut_check:
            shut = not played or (dealer_exception and opening and name == dealer)
        if shut and shut_mode == "fixed20":
            n = _bomb_counts(bombs, rules)
            raw = 20 + 10 * n
            if whole_unit:
                raw *= unit
            pay = raw if cap is None else min(raw, cap * (unit if whole_unit else 1))
            if texts:
                steps.append(_t(_S_FIXED if pay == raw else _S_FIXED_CAP, name=name, count=n, raw=raw, pay=pay))
            points[name] = -pay
            total += pay
            continue
        m = cards
        parts = [] if texts else None
        joker_factor = 1
        if jokers and jd != "off":
            if jd == "once":
                joker_factor = 2
                if texts:
                    parts.append(_F_JOKER if jokers == 1 else _t(_F_JOKERS_ONCE, count=jokers))
            else:
                joker_factor = 2 ** jokers
                if texts:
                    parts.append(_t(_F_PER_JOKER, count=jokers, factor=joker_factor))
            m *= joker_factor
        if per_two and twos:
            f = 2 ** twos
            m *= f
            if texts:
                parts.append(_t(_F_TWOS, count=twos, factor=f))
        if hbm != "off" and held:
            if hbm == "once":
                if joker_factor == 1:
                    m *= 2
                    if texts:
                        parts.append(_F_HELD_ONCE)
                elif texts:
                    parts.append(_F_HELD_NOT_STACKED)
            elif hbm == "perBomb":
                f = 2 ** len(held)
                m *= f
                if texts:
                    parts.append(_t(_F_HELD_PER, count=len(held), factor=f))
            else:
                f = 1
                for s in held:
                    f *= 2 ** (s - 2)
                m *= f
                if texts:
                    parts.append(_t(_F_HELD_SIZE, sizes=", ".join(str(s) for s in held), factor=f))
        if shut:
            m *= 2
            if texts:
                parts.append(_F_SHUT_DEALER if played else _F_SHUT)
        elif threshold is not None and cards >= threshold:
            m *= 2
            if texts:
                parts.append(_t(_F_THRESHOLD, threshold=threshold))
        m *= shared
        pay = m if limit is None else min(m, limit)
        if texts:
            parts.extend(shared_parts)
            if not parts:
                if pay == m:
                    steps.append(Text((_S_PLAIN_1 if cards == 1 else _S_PLAIN).template,
                                      {"name": name, "cards": cards, "pay": pay}))
                else:
                    steps.append(Text(_S_PLAIN_CAP.template, {"name": name, "cards": cards, "raw": m, "pay": pay}))
            elif pay == m:
                steps.append(Text((_S_STEP_1 if cards == 1 else _S_STEP).template,
                                  {"name": name, "cards": cards, "factors": _factors_text(parts), "pay": pay}))
            else:
                steps.append(Text((_S_STEP_CAP_1 if cards == 1 else _S_STEP_CAP).template,
                                  {"name": name, "cards": cards, "factors": _factors_text(parts), "raw": m,
                                   "pay": pay}))
        points[name] = -pay
        total += pay
    points[winner] = total
    if texts:
        count = len(rows)
        steps.append(_t(_S_TOTAL_ONE, winner=winner, total=total) if count == 1
                     else _t(_S_TOTAL, winner=winner, total=total, count=count))
    return points


def _money(stake) -> Decimal:
    if isinstance(stake, bool):
        raise FactsError(N_("The stake must be a number, not '{value}'.", value=stake), field="stake")
    try:
        value = Decimal(str(stake))
    except ArithmeticError:
        raise FactsError(N_("The stake must be a number, not '{value}'.", value=stake), field="stake") from None
    if not value.is_finite():
        raise FactsError(N_("The stake must be a number, not '{value}'.", value=stake), field="stake")
    return value
