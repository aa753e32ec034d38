"""大冶打拱 (Daye Da Gong): house rules, play legality and hand settlement.

The specification is ``rules/dagong.md`` (§5 plays, §6 points, §7 early ends, §8 settlement,
§9 switches, §10 the settlement algorithm). Pure Python: nothing here imports Flask or the
database. Every user-visible sentence is a :class:`~.common.Text` made with ``N_``; the
descriptions of plays and teams passed as parameters are ``Text`` too, so a translator can
translate them one by one.

Public contract (fixed): ``Rules``, ``SWITCHES``, ``ALIASES``, ``PRESETS``, ``rules_from_dict``,
``classify``, ``check``, ``validate_facts``, ``settle``, ``teams``, ``next_dealer``.

Choices made where the rules file leaves room (each is covered by a test):

- Jokers alone are always groups of the joker value (``laizi_single_value``): one joker a
  single, two a pair, three a triple (or a pure ♠ 510K with ``three_jokers``), four a soft
  bomb (or the top bomb with ``four_jokers = "topBomb"``).
- ``bomb_vs_510k = "510KAboveFourBomb"`` puts mixed and pure 510Ks above bombs of 4 cards or
  fewer and below bombs of 5 or more.
- 滚龙 (``gunlong``): two or more consecutive ranks (3..A) with the same number (≥ 4) of cards
  each; it beats every bomb (not the top-bomb four jokers); between two, more cards then the
  higher top rank.
- E3 pays ``shutout_multiplier_13_14`` (×2 by default), like the 1&3 / 1&4 shutouts it
  anticipates, so that every early end stays a pure shortcut (§7).
- 喜钱 (``bonus_xi_qian``) reads the optional fact ``xi_bombs`` = {player: [7, 8, …]}: the
  sizes of the hard 7- and 8-card bombs the player played; each collects 1 (7) or 2 (8) ×
  base stake from every other player.
- Each play is checked against the two-deck limits on its own (the rules file's example 19
  puts 4 + 5 sevens on the table, which two decks cannot hold).
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from decimal import Decimal
from functools import lru_cache
from typing import Any, Mapping

from .cards import (ANY_JOKER, RANK_NAMES, SMALL_JOKER, SUIT_STRENGTH, SUIT_SYMBOLS, TWO, Card,
                    CardError, decks_limit_error, parse_cards)
from .common import (FactsError, Reading, RulesError, Settlement, Switch, Text, Verdict, apply_stake,
                     build_rules, LazySettlement, N_, lazy_verdict, new_reading, new_verdict,
                     snake)

_str_new = str.__new__


DECKS = 2
NAME = "dagong"
TITLE = "大冶打拱"
PLAYERS = 4
PLAYER_RANGE = (PLAYERS, PLAYERS)  # fewest and most players (§2): always four
TOTAL_POINTS = 200
MAX_BOMB = 12  # 8 natural cards of a rank + 4 jokers


# --------------------------------------------------------------------------------------------
# House rules (§9)


@dataclass(frozen=True)
class Rules:
    """One field per switch of §9 of the rules file; the defaults are the 大冶 defaults."""

    turn_direction: str = "ccw"
    first_banker: str = "random"
    bid_card_rule: str = "firstDealtToDealer"
    bid_card_exclude_jokers: bool = True
    dealer_holds_both: str = "nextDealtCard"
    shout_allowed: bool = True
    shouter_leads: bool = True
    shout_multiplier: int = 4
    laizi_single_value: int = 2
    three_jokers: str = "tripleOfLaiziValue"
    four_jokers: str = "wild"
    max_jokers_in_510k: int = 1
    allow_straights: bool = False
    min_straight: int = 3
    min_linked_pairs: int = 2
    min_linked_triples: int = 2
    bomb_min: int = 4
    bomb_vs_510k: str = "bombAbove510K"
    hard_beats_soft: bool = False
    xi_premium: bool = False
    gunlong: bool = False
    win_threshold: int = 100
    first_third_always_wins: bool = False
    shutout_multiplier_13_14: int = 2
    early_end_e1: bool = True
    e1_fence: int = 105
    early_end_e2: bool = True
    e2_fence: int = 100
    early_end_e3: bool = True
    base_stake: int = 1
    bonus_xi_qian: bool = False

    # Rules values are cache keys on every check; hashing 31 fields each time is measurable.
    def __hash__(self) -> int:
        cached = self.__dict__.get("_hash")
        if cached is None:
            cached = hash(tuple(getattr(self, f.name) for f in dataclasses.fields(self)))
            object.__setattr__(self, "_hash", cached)
        return cached

    def __getstate__(self):  # never carry the (per-process) cached hash or derived values through pickle/copy
        return {k: v for k, v in self.__dict__.items() if k not in ("_hash", "_derived")}


def _sw(key, help_text, choices=(), kind="choice", minimum=None):
    return Switch(key, help_text, tuple(choices), kind, minimum)


_BOOL = (False, True)

SWITCHES: dict[str, Switch] = {s.key: s for s in (
    _sw("turn_direction", N_("Direction of dealing and play: counter-clockwise (ccw) or clockwise (cw)."),
        ("ccw", "cw")),
    _sw("first_banker", N_("How the banker of the first hand is chosen: at random or by hand."),
        ("random", "manual")),
    _sw("bid_card_rule", N_("Which of the banker's cards is shown as the bright card."),
        ("firstDealtToDealer", "random", "dealerChooses")),
    _sw("bid_card_exclude_jokers", N_("A joker may not be the bright card."), _BOOL, "bool"),
    _sw("dealer_holds_both", N_("What happens when the banker holds both copies of the bright card."),
        ("nextDealtCard", "redeal", "forceSolo")),
    _sw("shout_allowed", N_("A player may shout (独牌) and play one against three."), _BOOL, "bool"),
    _sw("shouter_leads", N_("The shouter leads the first trick."), _BOOL, "bool"),
    _sw("shout_multiplier", N_("Multiplier of a one-against-three hand (the shouter wins or pays three shares)."),
        kind="int", minimum=1),
    _sw("laizi_single_value", N_("The rank a joker counts as when played alone (2 or 3)."), (2, 3)),
    _sw("three_jokers", N_("Three jokers alone: a triple of the joker value, or a pure ♠ 510K."),
        ("tripleOfLaiziValue", "pure510KSpade")),
    _sw("four_jokers", N_("Four jokers alone: a bomb of the joker value (wild), or the top bomb."),
        ("wild", "topBomb")),
    _sw("max_jokers_in_510k", N_("The most jokers a 510K may contain."), (1, 2)),
    _sw("allow_straights", N_("Single straights (顺子) may be played."), _BOOL, "bool"),
    _sw("min_straight", N_("The shortest straight, when straights are allowed."), kind="int", minimum=3),
    _sw("min_linked_pairs", N_("The fewest pairs in consecutive pairs (连对)."), kind="int", minimum=2),
    _sw("min_linked_triples", N_("The fewest triples in consecutive triples (连三)."), kind="int", minimum=2),
    _sw("bomb_min", N_("The fewest cards of one rank that make a bomb."), (3, 4)),
    _sw("bomb_vs_510k", N_("Whether every bomb beats a 510K, or a 510K beats bombs of four cards or fewer."),
        ("bombAbove510K", "510KAboveFourBomb")),
    _sw("hard_beats_soft", N_("With equal card counts, a bomb without jokers beats any bomb with jokers."),
        _BOOL, "bool"),
    _sw("xi_premium", N_("A hard bomb of 7 or 8 cards (七喜/八喜) beats every soft bomb."), _BOOL, "bool"),
    _sw("gunlong", N_("Two or more consecutive bombs (滚龙) may be played together and beat every bomb."),
        _BOOL, "bool"),
    _sw("win_threshold", N_("Points the first-out player's team needs to win (inclusive)."), kind="int", minimum=0),
    _sw("first_third_always_wins", N_("A team with first and third place wins whatever its points."),
        _BOOL, "bool"),
    _sw("shutout_multiplier_13_14", N_("Multiplier when the winners of a first-and-third or first-and-fourth "
                                       "hand took all 200 points."), (2, 4)),
    _sw("early_end_e1", N_("Stop early when the second-out player alone holds the E1 fence."), _BOOL, "bool"),
    _sw("e1_fence", N_("Points the second-out player needs for the E1 early end."), kind="int", minimum=0),
    _sw("early_end_e2", N_("Stop early when the first-out player's team holds the E2 fence."), _BOOL, "bool"),
    _sw("e2_fence", N_("Points the first-out player's team needs for the E2 early end."), kind="int", minimum=0),
    _sw("early_end_e3", N_("Stop early when one side already holds all 200 points."), _BOOL, "bool"),
    _sw("base_stake", N_("Base stake: every share of a settlement is multiplied by it."), kind="int", minimum=1),
    _sw("bonus_xi_qian", N_("喜钱: a hard 7-bomb (8-bomb) collects 1 (2) from each other player."), _BOOL, "bool"),
)}

# The rules file's camelCase keys that do not snake cleanly, and other common spellings.
ALIASES: dict[str, str] = {
    "maxJokersIn510K": "max_jokers_in_510k", "maxJokersIn510k": "max_jokers_in_510k",
    "max_jokers_in_510K": "max_jokers_in_510k",
    "shutoutMultiplier13_14": "shutout_multiplier_13_14", "shutoutMultiplier1314": "shutout_multiplier_13_14",
    "bombVs510K": "bomb_vs_510k", "bombVs510k": "bomb_vs_510k", "bomb_vs_510K": "bomb_vs_510k",
    "earlyEndE1": "early_end_e1", "earlyEndE2": "early_end_e2", "earlyEndE3": "early_end_e3",
    "e1Fence": "e1_fence", "e2Fence": "e2_fence",
    "laiziSingleValue": "laizi_single_value", "bonusXiQian": "bonus_xi_qian",
}

# Other spellings of choice values (the rules file's prose).
_VALUE_ALIASES = {
    "turn_direction": {"counter-clockwise": "ccw", "counterclockwise": "ccw", "anticlockwise": "ccw",
                       "clockwise": "cw"},
    "bomb_vs_510k": {"bomb > 510K": "bombAbove510K", "510K > 4-bomb": "510KAboveFourBomb"},
}

PRESETS: dict[str, Rules] = {"daye": Rules()}
DEFAULT_RULES = PRESETS["daye"]


def rules_from_dict(data: Mapping[str, Any] | None, preset: str | None = None) -> Rules:
    """Rules from a preset name and a dict of switches (camelCase or snake_case keys).

    Raises :class:`RulesError` naming the key and the allowed values.
    """
    if isinstance(data, Rules):
        return data
    if preset is not None and preset not in PRESETS:
        raise RulesError(N_("Unknown preset '{preset}': choose one of {choices}.", preset=preset,
                            choices=", ".join(PRESETS)), code="unknown_preset", field="preset")
    base = PRESETS[preset] if preset is not None else DEFAULT_RULES
    if data is None:
        return base
    if not isinstance(data, Mapping):
        raise RulesError(N_("The house rules must be a set of switch: value pairs."), field="rules")
    cleaned = {}
    for raw_key, value in data.items():
        key = ALIASES.get(str(raw_key)) or snake(str(raw_key))
        switch = SWITCHES.get(key)
        if switch is not None and switch.kind == "choice":
            value = _VALUE_ALIASES.get(key, {}).get(value, value) if isinstance(value, str) else value
            if switch.choices and all(isinstance(c, int) and not isinstance(c, bool) for c in switch.choices):
                if isinstance(value, bool):
                    raise RulesError(N_("The house rule '{key}' cannot be '{value}': choose one of {choices}.",
                                        key=key, value=value, choices=", ".join(map(str, switch.choices))),
                                     field=f"rules.{key}")
                if isinstance(value, str) and value.strip().isascii() and value.strip().isdigit():
                    value = int(value.strip())
                elif isinstance(value, float) and value.is_integer():
                    value = int(value)
        cleaned[raw_key] = value
    return build_rules(Rules, SWITCHES, cleaned, base=base, aliases=ALIASES)


def _coerce_rules(rules) -> Rules:
    if type(rules) is Rules:
        return rules
    if rules is None:
        return DEFAULT_RULES
    if isinstance(rules, Rules):
        return rules
    if isinstance(rules, Mapping):
        return rules_from_dict(rules)
    raise RulesError(N_("The house rules must be a set of switch: value pairs."), field="rules")


# --------------------------------------------------------------------------------------------
# Combinations (§5)

TYPES = ("single", "pair", "triple", "linked_pairs", "linked_triples", "straight", "510k", "bomb",
         "four_jokers", "gunlong")
BOMB_CLASS = frozenset({"510k", "bomb", "four_jokers", "gunlong"})
_TYPE_ORDER = {t: i for i, t in enumerate(TYPES)}
_510K_RANKS = frozenset({5, 10, 13})

TYPE_NAMES = {
    "single": N_("single"), "pair": N_("pair"), "triple": N_("triple"),
    "linked_pairs": N_("consecutive pairs"), "linked_triples": N_("consecutive triples"),
    "straight": N_("straight"), "510k": N_("510K"), "bomb": N_("bomb"),
    "four_jokers": N_("four jokers"), "gunlong": N_("rolling bomb (滚龙)"),
}
ARCH_NAMES = {"half": N_("half arch (半拱)"), "straight": N_("straight arch (直拱)"),
              "dry": N_("dry arch (干带直)"), "shout": N_("shout (独牌)")}


def _card_key(card: Card, _strength=SUIT_STRENGTH.get):
    """Sort key: by rank, then suit strength (0..4), as one int."""
    return card.rank * 8 + _strength(card.suit, 0)


def _name(rank: int) -> str:
    return RANK_NAMES.get(rank, str(rank))


# --------------------------------------------------------------------------------------------
# Speed helpers (behaviour-neutral): direct construction of the frozen result types, a token
# table for the card notation, and values derived once per Rules object.

_new = object.__new__


_reading = new_reading  # Reading(...) without the dataclass __init__ (common.py)
_verdict = new_verdict


_later = lazy_verdict  # reason written on first read (common.py)


def _build_tokens() -> dict:
    """Every one-card token of the notation (``5h``, ``10♠``, ``sj``, ``小王`` …) -> its Card, read by
    the real parser; a string whose whitespace-separated tokens are all in this table parses to
    the tuple of their cards (anything else goes to :func:`parse_cards`)."""
    from . import cards as _cards_module
    raw = getattr(_cards_module._parse, "__wrapped__", _cards_module._parse)
    ranks = ["3", "4", "5", "6", "7", "8", "9", "10", "T", "J", "Q", "K", "A", "2", "t", "j", "q", "k", "a"]
    suits = ["", "s", "h", "c", "d", "S", "H", "C", "D", "♠", "♥", "♣", "♦", "♤", "♡", "♧", "♢"]
    words = ["小王", "大王", "王"]
    for word in ("SJ", "BJ", "JK"):
        for a in (word[0], word[0].lower()):
            for b in (word[1], word[1].lower()):
                words.append(a + b)
    table = {}
    for token in [r + s for r in ranks for s in suits] + words:
        try:
            parsed = raw(token)
        except CardError:
            continue
        if len(parsed) == 1:
            table[token] = parsed[0]
    return table


_TOKENS = _build_tokens()
_TOKEN = _TOKENS.__getitem__


def _parse_text(text: str) -> tuple:
    """``parse_cards(text)`` for a str."""
    try:
        return tuple(map(_TOKEN, text.split())) or parse_cards(text)
    except KeyError:
        return parse_cards(text)


class _Derived:
    """Values of one Rules object used on every check (computed once per Rules value)."""

    __slots__ = ("laizi", "bomb_from", "joker_510k", "top_bomb", "max_j510k", "sequences", "gunlong",
                 "sequence_from", "pairs_from", "triples_from", "_loose")

    def __init__(self, rules: Rules):
        self.laizi = TWO if rules.laizi_single_value == 2 else 3
        self.bomb_from = max(rules.bomb_min, 3)
        self.joker_510k = rules.three_jokers == "pure510KSpade"
        self.top_bomb = rules.four_jokers == "topBomb"
        self.max_j510k = rules.max_jokers_in_510k
        self.sequences = tuple((width, kind, max(minimum, 2)) for width, kind, minimum, enabled in (
            (1, "straight", rules.min_straight, rules.allow_straights),
            (2, "linked_pairs", rules.min_linked_pairs, True),
            (3, "linked_triples", rules.min_linked_triples, True)) if enabled)
        self.gunlong = rules.gunlong
        self.pairs_from = max(rules.min_linked_pairs, 2)
        self.triples_from = max(rules.min_linked_triples, 2)
        # the fewest cards any sequence (or 滚龙) can have under these rules
        self.sequence_from = min([width * minimum for width, _, minimum in self.sequences]
                                 + ([8] if rules.gunlong else []))
        self._loose = (rules,)

    @property
    def loose(self) -> Rules:
        """The same rules with every sequence allowed from its shortest (for diagnosis only)."""
        loose = self._loose
        if type(loose) is tuple:
            loose = self._loose = dataclasses.replace(loose[0], allow_straights=True, min_straight=3,
                                                      min_linked_pairs=2, min_linked_triples=2)
        return loose


def _derived(rules: Rules) -> _Derived:
    """Derived values, kept on the (frozen) Rules object itself like its hash."""
    d = rules.__dict__.get("_derived")
    if d is None:
        d = _Derived(rules)
        object.__setattr__(rules, "_derived", d)
    return d


def _deck_error(cards: tuple, field: str):
    """``decks_limit_error(cards, DECKS, field)``, answering the common clean case directly."""
    n = len(cards)
    if n <= 2:
        return None
    if n <= 8:
        seen = {}
        jokers = 0
        for c in cards:
            rank = c.rank
            if rank >= SMALL_JOKER:
                key = rank
                jokers += 1
            else:
                key = (rank, c.suit)
            count = seen.get(key, 0) + 1
            if count > DECKS:
                return decks_limit_error(cards, DECKS, field)
            seen[key] = count
        if jokers <= 2 * DECKS:
            return None
    return decks_limit_error(cards, DECKS, field)


def _readings(cards: tuple, rules: Rules, *, allow_two: bool = False) -> list:
    """Every reading of ``cards`` under ``rules`` (unsorted). ``allow_two`` is for diagnosis only."""
    d = _derived(rules)
    n = len(cards)
    naturals = [c for c in cards if c.rank < SMALL_JOKER]
    j = n - len(naturals)
    counts: dict = {}
    for c in naturals:
        counts[c.rank] = counts.get(c.rank, 0) + 1
    if j:
        cards = tuple(sorted(naturals, key=_card_key)) + tuple([c for c in cards if c.rank >= SMALL_JOKER])
    else:
        cards = tuple(sorted(naturals, key=_card_key))
    out: list[Reading] = []
    reading = _reading

    # Same-rank groups: single, pair, triple, bomb (jokers alone are groups of the joker value).
    if len(counts) <= 1 and n <= MAX_BOMB:
        rank = next(iter(counts)) if counts else d.laizi
        values = (rank,) * n
        joker_510k = j == 3 and n == 3 and d.joker_510k
        if n == 1:
            out.append(reading("single", rank, 1, cards, values, (("joker", j == 1),)))
        elif n == 2:
            out.append(reading("pair", rank, 2, cards, values))
        elif n == 3 and not joker_510k:
            out.append(reading("triple", rank, 3, cards, values))
        if n >= d.bomb_from and not joker_510k:
            if j == 4 and n == 4 and d.top_bomb:
                out.append(reading("four_jokers", ANY_JOKER, 4, cards, (ANY_JOKER,) * 4, (("soft", True),)))
            else:
                out.append(reading("bomb", rank, n, cards, values, (("soft", j > 0),)))
        if joker_510k:
            out.append(reading("510k", 13, 3, cards, (5, 10, 13),
                               (("pure", True), ("suit", "s"), ("suited", True))))

    # 510K: a 5, a 10 and a K; jokers may fill in (at most max_jokers_in_510k of them).
    if n == 3 and naturals and j <= d.max_j510k and len(counts) == len(naturals) \
            and all(r in _510K_RANKS for r in counts):
        suits = {c.suit for c in naturals}
        suited = None not in suits
        if suited and len(suits) == 1:
            suit = next(iter(suits))
            out.append(reading("510k", 13, 3, cards, (5, 10, 13),
                               (("pure", True), ("suit", suit), ("suited", True))))
        if j or not (suited and len(suits) == 1):
            out.append(reading("510k", 13, 3, cards, (5, 10, 13),
                               (("pure", False), ("suit", None), ("suited", suited))))

    # Sequences: straight (width 1), consecutive pairs (2), consecutive triples (3); no 2s.
    if naturals and n >= d.sequence_from:
        low_nat, high_nat = min(counts), max(counts)
        top_limit = TWO if allow_two else TWO - 1
        if high_nat <= top_limit:
            most = max(counts.values())
            for width, kind, minimum in d.sequences:
                if n % width or most > width:
                    continue
                k = n // width
                if k < minimum or high_nat - low_nat + 1 > k:
                    continue
                for top in range(max(high_nat, 2 + k), min(low_nat + k - 1, top_limit) + 1):
                    low = top - k + 1
                    values = tuple([r for r in range(low, top + 1) for _ in range(width)])
                    out.append(reading(kind, top, n, cards, values, (("low", low),)))
            # 滚龙: two or more consecutive ranks with the same number (≥ 4) of cards each.
            if d.gunlong and n >= 8:
                for width in range(4, n // 2 + 1):
                    if n % width or most > width:
                        continue
                    k = n // width
                    if high_nat - low_nat + 1 > k or high_nat > TWO - 1:
                        continue
                    for top in range(max(high_nat, 2 + k), min(low_nat + k - 1, TWO - 1) + 1):
                        low = top - k + 1
                        values = tuple([r for r in range(low, top + 1) for _ in range(width)])
                        out.append(reading("gunlong", top, n, cards, values,
                                           (("low", low), ("per_rank", width), ("soft", j > 0))))
    return out


def _power(reading: Reading, rules: Rules):
    """Strength of a bomb-class reading as a comparable tuple (None for ordinary plays).

    A play beats a bomb-class play only when its power is strictly greater; equal powers
    (two mixed 510Ks, two same-size same-rank bombs) cannot beat each other.
    """
    kind = reading.type
    if kind == "510k":
        extra = dict(reading.extra)
        return (3, SUIT_STRENGTH[extra["suit"]]) if extra["pure"] else (2, 0)
    if kind == "bomb":
        hard = not dict(reading.extra)["soft"]
        n = reading.length
        tier = 1 if (rules.bomb_vs_510k == "510KAboveFourBomb" and n <= 4) else 4
        xi = 1 if (rules.xi_premium and hard and n >= 7) else 0
        return (tier, xi, n, 1 if (rules.hard_beats_soft and hard) else 0, reading.rank)
    if kind == "gunlong":
        return (5, reading.length, reading.rank)
    if kind == "four_jokers":
        return (6,)
    return None


def _strength(reading: Reading, power):
    if power is not None:
        return (1,) + power
    return (0, reading.rank, _TYPE_ORDER[reading.type], reading.length)


_NOT_JOKER = (("joker", False),)
_A_JOKER = (("joker", True),)
_HARD = (("soft", False),)
_SOFT = (("soft", True),)
_SUIT_STRENGTH_GET = SUIT_STRENGTH.get


def _by_strength(rp):
    return _strength(*rp)



def _one_rank_naturals(cards, rank: int, n: int, rules: Rules) -> tuple:
    """n natural cards of one rank: a hard bomb and/or a triple, nothing else (with their powers)."""
    cards = tuple(sorted(cards, key=_card_key))
    values = (rank,) * n
    out = []
    if n >= _derived(rules).bomb_from:
        bomb = _reading("bomb", rank, n, cards, values, _HARD)
        out.append((bomb, _power(bomb, rules)))
    if n == 3:
        out.append((_reading("triple", rank, 3, cards, values), None))
    return tuple(out)

def _pairs(cards: tuple, rules: Rules) -> tuple:
    """((reading, power), ...) strongest first (uncached; singles and pairs answered directly)."""
    n = len(cards)
    if n == 1:
        rank = cards[0].rank
        if rank < SMALL_JOKER:
            return ((_reading("single", rank, 1, cards, (rank,), _NOT_JOKER), None),)
        rank = _derived(rules).laizi
        return ((_reading("single", rank, 1, cards, (rank,), _A_JOKER), None),)
    if n == 2 and _derived(rules).sequence_from > 2:
        a, b = cards
        ra, rb = a.rank, b.rank
        if ra < SMALL_JOKER:
            if rb < SMALL_JOKER:
                if ra != rb:
                    return ()
                if _SUIT_STRENGTH_GET(b.suit, 0) < _SUIT_STRENGTH_GET(a.suit, 0):
                    cards = (b, a)
            rank = ra
        elif rb < SMALL_JOKER:
            cards, rank = (b, a), rb
        else:
            rank = _derived(rules).laizi
        return ((_reading("pair", rank, 2, cards, (rank, rank)), None),)
    if 3 <= n <= 7:
        counts: dict = {}
        jokers = 0
        for c in cards:
            rank = c.rank
            if rank < SMALL_JOKER:
                counts[rank] = counts.get(rank, 0) + 1
            else:
                jokers += 1
        if len(counts) == 1:
            ((rank, count),) = counts.items()
            if not jokers:
                return _one_rank_naturals(cards, rank, n, rules)
            if count >= 3 and n >= 4 and not (count == 3 and n == 6):
                # three or more of a rank and jokers, at most 7 cards: a soft bomb, nothing else (a sequence
                # needs at most 2 or 3 naturals of a rank; 滚龙 needs 8 cards; 510K exactly 3)
                cards = tuple(sorted([c for c in cards if c.rank < SMALL_JOKER], key=_card_key)) + tuple(
                    [c for c in cards if c.rank >= SMALL_JOKER])
                bomb = _reading("bomb", rank, n, cards, (rank,) * n, _SOFT)
                return ((bomb, _power(bomb, rules)),)
        elif not jokers:
            k = len(counts)
            width = n // k
            if k * width == n and (width == 2 or width == 3):
                low, high = min(counts), max(counts)
                d = _derived(rules)
                if high - low + 1 == k and high < TWO and k >= (d.pairs_from if width == 2 else d.triples_from):
                    for count in counts.values():
                        if count != width:
                            break
                    else:  # consecutive pairs or triples (at most 7 cards: not a straight, 滚龙 or group)
                        values = tuple([r for r in range(low, high + 1) for _ in range(width)])
                        return ((_reading("linked_pairs" if width == 2 else "linked_triples", high, n,
                                          tuple(sorted(cards, key=_card_key)), values, (("low", low),)), None),)
    elif 8 <= n <= MAX_BOMB:
        rank = cards[0].rank
        if rank < SMALL_JOKER:
            for c in cards:
                if c.rank != rank:
                    break
            else:
                return _one_rank_naturals(cards, rank, n, rules)
    pairs = [(r, _power(r, rules)) for r in _readings(cards, rules)]
    if len(pairs) > 1:
        pairs.sort(key=_by_strength, reverse=True)
    return tuple(pairs)


_sorted_readings = lru_cache(maxsize=32768)(_pairs)


def _to_cards(cards, field: str = "cards") -> tuple:
    if type(cards) is str:
        try:
            return _parse_text(cards)
        except CardError as error:
            raise CardError(error.message, code=error.code, field=field) from None
    if isinstance(cards, tuple) and all(isinstance(c, Card) for c in cards):
        return cards
    if isinstance(cards, list) and cards and all(isinstance(c, Card) for c in cards):
        return tuple(cards)
    try:
        return parse_cards(cards)
    except CardError as error:
        raise CardError(error.message, code=error.code, field=field) from None


def classify(cards, rules: Rules = DEFAULT_RULES) -> tuple:
    """Every reading of ``cards`` (text or Cards), strongest first. Empty when it is no combination."""
    rules = _coerce_rules(rules)
    return tuple(r for r, _ in _sorted_readings(_to_cards(cards), rules))


_RANK_NAME = RANK_NAMES.get


def _T(value: str, template: str, params: dict) -> Text:
    """The Text ``N_(template, **params)`` whose sentence ``value`` is already written out."""
    obj = _str_new(Text, value)
    obj.template = template
    obj.params = params
    return obj


# The templates of the commonest phrases (written out directly in describe; same sentences as N_ gives).
_PAIR_OF = N_("a pair of {rank}").template
_SINGLE = N_("a single {rank}").template
_SINGLE_JOKER = N_("a single joker (counts as {rank})").template
_TRIPLE_OF = N_("a triple of {rank}").template


def _prewritten(reading: Reading):
    """The prewritten phrases of a common reading (see _DESCRIBED), or None."""
    try:
        return _DESCRIBED.get((reading.type, reading.rank, reading.length, reading.extra))
    except TypeError:  # unhashable extra facts
        return None


def describe(reading: Reading) -> Text:
    """A short phrase for a reading, such as "a pair of 8" or "a pure 510K of ♥"."""
    known = _prewritten(reading)
    if known is not None:
        return _T(known[0], known[1], dict(known[2]))
    return _describe(reading)


def _capital_describe(reading: Reading) -> Text:
    """``_cap(describe(reading))``."""
    known = _prewritten(reading)
    if known is not None:
        return _T(known[3], known[4], dict(known[2]))
    return _cap(_describe(reading))


def _describe(reading: Reading) -> Text:
    kind, rank = reading.type, reading.rank
    name = _RANK_NAME(rank)
    if name is None:
        name = str(rank)
    if kind == "pair":
        return _T("a pair of " + name, _PAIR_OF, {"rank": name})
    if kind == "single":
        if dict(reading.extra).get("joker"):
            return _T("a single joker (counts as " + name + ")", _SINGLE_JOKER, {"rank": name})
        return _T("a single " + name, _SINGLE, {"rank": name})
    if kind == "triple":
        return _T("a triple of " + name, _TRIPLE_OF, {"rank": name})
    extra = dict(reading.extra)
    if kind in ("linked_pairs", "linked_triples", "straight"):
        low = extra.get("low", rank)
        if kind == "linked_pairs":
            return N_("consecutive pairs {low} to {top}", low=_name(low), top=_name(rank))
        if kind == "linked_triples":
            return N_("consecutive triples {low} to {top}", low=_name(low), top=_name(rank))
        return N_("a straight {low} to {top}", low=_name(low), top=_name(rank))
    if kind == "510k":
        if extra.get("pure"):
            return N_("a pure 510K of {suit}", suit=SUIT_SYMBOLS[extra["suit"]])
        return N_("a mixed 510K")
    if kind == "bomb":
        if extra.get("soft"):
            return N_("a soft bomb of {count} × {rank} (with jokers)", count=reading.length, rank=_name(rank))
        return N_("a bomb of {count} × {rank}", count=reading.length, rank=_name(rank))
    if kind == "four_jokers":
        return N_("four jokers (the top bomb)")
    if kind == "gunlong":
        return N_("a rolling bomb (滚龙) {low} to {top} of {count} cards",
                  low=_name(extra.get("low", rank)), top=_name(rank), count=reading.length)
    return N_("{kind}", kind=kind)


def _described() -> dict:
    """(type, rank, length, extra) -> (sentence, template, params) of :func:`_describe` for every reading
    but 滚龙 (about 1,100 entries; describe then copies one instead of writing it out)."""
    shapes = []
    for rank in range(3, ANY_JOKER + 1):
        shapes += [("single", rank, 1, _NOT_JOKER), ("single", rank, 1, _A_JOKER), ("pair", rank, 2, ()),
                   ("triple", rank, 3, ())]
        shapes += [("bomb", rank, n, soft) for n in range(3, MAX_BOMB + 1) for soft in (_HARD, _SOFT)]
    for top in range(4, TWO + 1):
        for low in range(3, top):
            k = top - low + 1
            shapes += [("straight", top, k, (("low", low),)), ("linked_pairs", top, 2 * k, (("low", low),)),
                       ("linked_triples", top, 3 * k, (("low", low),))]
    shapes += [("510k", 13, 3, (("pure", True), ("suit", suit), ("suited", True))) for suit in SUIT_SYMBOLS]
    shapes += [("510k", 13, 3, (("pure", False), ("suit", None), ("suited", suited))) for suited in _BOOL]
    shapes.append(("four_jokers", ANY_JOKER, 4, (("soft", True),)))
    table = {}
    for kind, rank, length, extra in shapes:
        text = _describe(_reading(kind, rank, length, (), (), extra))
        capital = _cap(text)
        table[kind, rank, length, extra] = (str(text), text.template, tuple(text.params.items()),
                                            str(capital), capital.template)
    return table


# --------------------------------------------------------------------------------------------
# Checking a play (§5.2–§5.4)

_PASS_WORDS = frozenset({"", "-", "pass", "p", "过", "不要", "要不起"})


def _is_pass(play) -> bool:
    return play is None or (isinstance(play, str) and play.strip().lower() in _PASS_WORDS)


def _is_lead(previous) -> bool:
    return previous is None or (isinstance(previous, str) and previous.strip() in ("", "-"))


def _declared(value):
    if value is None:
        return None
    if isinstance(value, (list, tuple)):
        value = " ".join(str(v) for v in value)
    value = str(value).strip()
    return value or None


def check(previous, play, rules: Rules = DEFAULT_RULES, *, players=None, previous_as=None,
          play_as=None) -> Verdict:
    """Is ``play`` legal on ``previous`` (None, "" or "-" for a lead)?

    ``play`` "pass", "-" or "" is a pass. Bad card text raises :class:`CardError` with field
    "previous" or "play"; every other problem is an illegal :class:`Verdict`. ``previous_as`` /
    ``play_as`` declare a reading: a type ("pair", "510k", …) or the ranks the cards stand for
    ("5 5 5"). Without one, the previous play is read at its highest reading and the play at
    the highest reading that beats it. ``players`` is accepted for the common API (always 4).
    """
    if type(rules) is not Rules:
        rules = _coerce_rules(rules)
    if type(play) is str and previous_as is None and play_as is None and (
            previous is None or type(previous) is str) and play.strip().lower() not in _PASS_WORDS:
        return _check_text(previous, play, rules)
    lead = _is_lead(previous)
    previous_cards = None if lead else _to_cards(previous, "previous")
    if _is_pass(play):
        if lead:
            return Verdict(False, "lead_pass",
                           N_("The leader of a new trick must play: passing is allowed only when following."))
        return Verdict(True, "pass", N_("Passing is always allowed when following, even when you could beat the play."))
    play_cards = _to_cards(play, "play")
    return _check(previous_cards, play_cards, rules, _declared(previous_as), _declared(play_as))


def _filter(pairs: tuple, declared: str | None):
    """Readings matching a declared type or declared ranks; None when the declaration is unreadable."""
    if declared is None:
        return pairs
    key = declared.lower().replace(" ", "_").replace("-", "_")
    key = {"pairs": "linked_pairs", "triples": "linked_triples", "consecutive_pairs": "linked_pairs",
           "consecutive_triples": "linked_triples"}.get(key, key)
    if key in _TYPE_ORDER:
        return tuple(rp for rp in pairs if rp[0].type == key)
    try:
        wanted = sorted(c.rank for c in parse_cards(declared))
    except CardError:
        return None
    suits = {c.suit for c in parse_cards(declared) if c.suit}
    out = []
    for reading, power in pairs:
        if sorted(reading.values) != wanted:
            continue
        if reading.type == "510k" and suits:
            extra = dict(reading.extra)
            if extra["pure"] != (len(suits) == 1) or (extra["pure"] and extra["suit"] not in suits):
                continue
        out.append((reading, power))
    return tuple(out)


def _beats(prev: Reading, prev_power, play: Reading, play_power) -> bool:
    if play_power is None:
        return (prev_power is None and play.type == prev.type and play.length == prev.length
                and play.rank > prev.rank)
    return prev_power is None or play_power > prev_power


def _evaluate(previous: tuple | None, play: tuple, rules: Rules, previous_as, play_as) -> Verdict:
    error = _deck_error(play, "play")
    if error is not None:
        return _verdict(False, "too_many_copies", error.message)
    pairs = _pairs(play, rules)
    all_readings = (pairs[0][0],) if len(pairs) == 1 else tuple([r for r, _ in pairs])
    if play_as is not None:
        declared = _filter(pairs, play_as)
        if not declared:
            return _later(False, "reading_not_possible", (_unreadable_play, play_as), None, all_readings)
        pairs = declared
    if not pairs:
        return _later(False, _diagnose(play, rules, False)[0], (_diagnosis, play, rules), None, all_readings)

    if previous is None:
        best = pairs[0][0]
        return _later(True, "ok", (_lead_reason, best), best, all_readings)

    error = _deck_error(previous, "previous")
    if error is not None:
        return _verdict(False, "too_many_copies",
                        N_("The play on the table is impossible: {problem}", problem=error.message),
                        None, all_readings)
    previous_pairs = _pairs(previous, rules)
    if previous_as is not None:
        previous_pairs = _filter(previous_pairs, previous_as)
        if not previous_pairs:
            return _later(False, "reading_not_possible", (_unreadable_previous, previous_as), None, all_readings)
    if not previous_pairs:
        return _later(False, "previous_not_a_combination", (_previous_not_a_combination,), None, all_readings)
    prev, prev_power = previous_pairs[0]
    for reading, power in pairs:
        if _beats(prev, prev_power, reading, power):
            return _later(True, "ok", (_legal_reason, prev, prev_power, reading, power, rules), reading,
                          all_readings)
    code, _, shown = _illegal_reason(prev, prev_power, pairs, play, rules, False)
    return _later(False, code, (_illegal_text, prev, prev_power, pairs, play, rules), shown, all_readings)


# The reasons of verdicts, written when first read (arguments as kept by _later).

def _unreadable_play(declared) -> Text:
    return N_("These cards cannot be read as '{declared}'.", declared=declared)


def _unreadable_previous(declared) -> Text:
    return N_("The cards on the table cannot be read as '{declared}'.", declared=declared)


def _previous_not_a_combination() -> Text:
    return N_("The cards on the table are not a legal combination, so nothing can follow them.")


def _lead_reason(best) -> Text:
    return N_("Legal lead: {play}.", play=describe(best))


def _diagnosis(cards, rules) -> Text:
    return _diagnose(cards, rules)[1]


def _illegal_text(prev, prev_power, pairs, cards, rules) -> Text:
    return _illegal_reason(prev, prev_power, pairs, cards, rules)[1]


_check = lru_cache(maxsize=65536)(_evaluate)


@lru_cache(maxsize=65536)
def _check_text(previous: str | None, play: str, rules: Rules) -> Verdict:
    """``check`` for a play (not a pass) and a previous play written as text, without declarations."""
    if previous is None or previous.strip() in ("", "-"):  # a lead
        previous_codes = None
    else:
        try:
            previous_codes = list(map(_CODE, previous.split()))
        except KeyError:
            previous_codes = False
    try:
        play_codes = list(map(_CODE, play.split()))
    except KeyError:
        play_codes = False
    if previous_codes is not False and play_codes is not False:  # every card in the one-token notation
        return _evaluate_codes(previous_codes, play_codes, rules, (_text_reason, previous, play, rules))
    if previous_codes is None:
        previous_cards = None
    elif previous_codes is False:
        previous_cards = _to_cards(previous, "previous")
    else:
        previous_cards = _cards_at(previous_codes)
    play_cards = _to_cards(play, "play") if play_codes is False else _cards_at(play_codes)
    return _evaluate(previous_cards, play_cards, rules, None, None)


# Cards as codes (``_card_key``: rank * 8 + suit strength; every joker below has no suit): each
# one-card token of the notation -> its code, each code -> one Card of that value.
_JOKER_CODE = SMALL_JOKER * 8  # codes from here on are jokers
_CODE = {token: _card_key(card) for token, card in _TOKENS.items()}.__getitem__
_CARD_AT = [None] * (ANY_JOKER * 8 + 8)
for _card in _TOKENS.values():
    _CARD_AT[_card_key(_card)] = _card
_ONE_CARD = [None if _card is None else (_card,) for _card in _CARD_AT]
_CARD_OF = _CARD_AT.__getitem__
del _card
_SAME = [[(rank,) * n for rank in range(ANY_JOKER + 1)] for n in range(MAX_BOMB + 1)]  # _SAME[n][rank]
_LOW = [(("low", rank),) for rank in range(ANY_JOKER + 1)]


def _cards_at(codes) -> tuple:
    """The cards of ``codes``, in the same order."""
    return tuple(map(_CARD_OF, codes))


def _bomb_power(rank: int, n: int, hard: bool, rules: Rules) -> tuple:
    """``_power`` of a bomb reading of ``n`` cards of ``rank``."""
    return (1 if (rules.bomb_vs_510k == "510KAboveFourBomb" and n <= 4) else 4,
            1 if (rules.xi_premium and hard and n >= 7) else 0, n, 1 if (rules.hard_beats_soft and hard) else 0,
            rank)


def _code_pairs(codes: list, rules: Rules, d: _Derived) -> tuple:
    """``_pairs(_cards_at(codes), rules)``: singles, pairs, same-rank groups, soft bombs and
    consecutive pairs or triples worked out on the codes; anything else goes to :func:`_pairs`."""
    n = len(codes)
    if n == 1:
        code = codes[0]
        rank = code >> 3
        if rank < SMALL_JOKER:
            return ((_reading("single", rank, 1, _ONE_CARD[code], _SAME[1][rank], _NOT_JOKER), None),)
        rank = d.laizi
        return ((_reading("single", rank, 1, _ONE_CARD[code], _SAME[1][rank], _A_JOKER), None),)
    if n == 2:
        if d.sequence_from <= 2:
            return _pairs(_cards_at(codes), rules)
        x, y = codes
        if x < _JOKER_CODE:
            if y < _JOKER_CODE:
                if x >> 3 != y >> 3:
                    return ()
                if y < x:  # same rank: the weaker suit first
                    x, y = y, x
            rank = x >> 3
        elif y < _JOKER_CODE:
            x, y = y, x
            rank = x >> 3
        else:
            rank = d.laizi
        return ((_reading("pair", rank, 2, (_CARD_AT[x], _CARD_AT[y]), _SAME[2][rank]), None),)
    if n <= MAX_BOMB:
        top = max(codes)
        if top < _JOKER_CODE:  # no jokers
            ordered = sorted(codes)
            rank = ordered[0] >> 3
            high = top >> 3
            if high == rank:  # n natural cards of one rank: a triple and/or a hard bomb, nothing else
                cards = tuple(map(_CARD_OF, ordered))
                values = _SAME[n][rank]
                if n >= d.bomb_from:
                    bomb = (_reading("bomb", rank, n, cards, values, _HARD), _bomb_power(rank, n, True, rules))
                    if n == 3:
                        return (bomb, (_reading("triple", rank, 3, cards, values), None))
                    return (bomb,)
                if n == 3:
                    return ((_reading("triple", rank, 3, cards, values), None),)
                return ()
            k = high - rank + 1
            width = n // k
            if n <= 7 and high < TWO and width * k == n and (
                    (width == 2 and k >= d.pairs_from) or (width == 3 and k >= d.triples_from)):
                i = 0
                for code in ordered:
                    if code >> 3 != rank + i // width:
                        break
                    i += 1
                else:  # consecutive pairs or triples (at most 7 cards: not a straight, 滚龙 or group)
                    return ((_reading("linked_pairs" if width == 2 else "linked_triples", high, n,
                                      tuple(map(_CARD_OF, ordered)), tuple([c >> 3 for c in ordered]), _LOW[rank]),
                             None),)
        elif n <= 7:
            naturals = [c for c in codes if c < _JOKER_CODE]
            count = len(naturals)
            if count >= 3 and n >= 4 and not (count == 3 and n == 6):
                naturals.sort()
                rank = naturals[0] >> 3
                if naturals[-1] >> 3 == rank:  # three or more of a rank and jokers: a soft bomb, nothing else
                    cards = tuple(map(_CARD_OF, naturals + [c for c in codes if c >= _JOKER_CODE]))
                    return ((_reading("bomb", rank, n, cards, _SAME[n][rank], _SOFT),
                             _bomb_power(rank, n, False, rules)),)
    return _pairs(_cards_at(codes), rules)


def _evaluate_codes(previous: list | None, play: list, rules: Rules, lazy: tuple) -> Verdict:
    """``_evaluate(_cards_at(previous), _cards_at(play), rules, None, None)`` (previous None for a
    lead), the reason written when first read by ``lazy`` (:func:`_text_reason`)."""
    d = _derived(rules)
    n = len(play)
    if n > 2 and (n > 8 or len(set(play)) != n):  # (distinct codes: no card twice, so within the decks)
        error = _deck_error(_cards_at(play), "play")
        if error is not None:
            return _verdict(False, "too_many_copies", error.message)
    pairs = _code_pairs(play, rules, d)
    all_readings = (pairs[0][0],) if len(pairs) == 1 else tuple([r for r, _ in pairs])
    if not pairs:
        return _later(False, _diagnose(_cards_at(play), rules, False)[0], lazy, None, all_readings)
    if previous is None:
        return _later(True, "ok", lazy, pairs[0][0], all_readings)
    n = len(previous)
    if n > 2 and (n > 8 or len(set(previous)) != n):
        error = _deck_error(_cards_at(previous), "previous")
        if error is not None:
            return _verdict(False, "too_many_copies",
                            N_("The play on the table is impossible: {problem}", problem=error.message),
                            None, all_readings)
    previous_pairs = _code_pairs(previous, rules, d)
    if not previous_pairs:
        return _later(False, "previous_not_a_combination", lazy, None, all_readings)
    prev, prev_power = previous_pairs[0]
    for reading, power in pairs:
        if _beats(prev, prev_power, reading, power):
            return _later(True, "ok", lazy, reading, all_readings)
    code, _, shown = _illegal_reason(prev, prev_power, pairs, _cards_at(play), rules, False)
    return _later(False, code, lazy, shown, all_readings)


def _text_reason(previous: str | None, play: str, rules: Rules) -> Text:
    """The reason of ``_check_text(previous, play, rules)``: the same verdict worked out again from
    the cards (by :func:`_evaluate`), and its reason."""
    previous_cards = None if previous is None or previous.strip() in ("", "-") else _parse_text(previous)
    return _evaluate(previous_cards, _parse_text(play), rules, None, None).reason


def _legal_reason(prev, prev_power, play, power, rules) -> Text:
    p, q = describe(play), describe(prev)
    if power is None:
        return N_("Legal: {play} beats {previous} (same type and size, higher rank).", play=p, previous=q)
    if prev_power is None:
        return N_("Legal: {play} beats any ordinary play, such as {previous}.", play=p, previous=q)
    if play.type == "510k" and prev.type == "510k":
        if prev.get("pure"):
            return N_("Legal: {suit} ranks above {prev_suit} for pure 510Ks (♠ > ♥ > ♣ > ♦).",
                      suit=SUIT_SYMBOLS[play.get("suit")], prev_suit=SUIT_SYMBOLS[prev.get("suit")])
        return N_("Legal: a pure 510K beats a mixed 510K.")
    if play.type == "bomb" and prev.type == "510k":
        return N_("Legal: {play} beats {previous}: any bomb beats any 510K in 大冶打拱.", play=p, previous=q)
    if play.type == "510k" and prev.type == "bomb":
        return N_("Legal: a 510K beats a bomb of 4 cards or fewer (house rule bombVs510K).")
    if play.type == "bomb" and prev.type == "bomb":
        if power[1] > prev_power[1]:
            return N_("Legal: a hard bomb of 7 or 8 cards beats every soft bomb (house rule xiPremium).")
        if play.length > prev.length:
            return N_("Legal: {play} beats {previous}: a bomb with more cards wins.", play=p, previous=q)
        if power[3] > prev_power[3]:
            return N_("Legal: with the same number of cards, a hard bomb beats a soft one (house rule hardBeatsSoft).")
        return N_("Legal: {play} beats {previous}: same number of cards, higher rank.", play=p, previous=q)
    return N_("Legal: {play} beats {previous}.", play=p, previous=q)


def _nothing(*args, **params) -> None:
    return None


def _illegal_reason(prev, prev_power, pairs, cards, rules, write=True):
    """(code, reason, reading shown) for a play none of whose readings beats ``prev``; with
    ``write`` false the reason is None (nothing is written: the same branches give the code)."""
    if write:
        N_, describe, _capital_describe, _cap = _N, _describe_, _capital_describe_, _cap_
    else:
        N_ = describe = _capital_describe = _cap = _nothing
    q = describe(prev)
    limit = _510k_joker_limit(cards, rules)
    if limit is not None:
        wider = dataclasses.replace(rules, max_jokers_in_510k=limit)
        if any(_beats(prev, _power(prev, wider), r, pw) for r, pw in _pairs(cards, wider)):
            return ("too_many_jokers_in_510k",
                    N_("A 510K may contain at most {limit} joker (house rule maxJokersIn510K), so these cards "
                       "are not a 510K.", limit=rules.max_jokers_in_510k), pairs[0][0])
    if prev_power is None:
        same_type = [r for r, pw in pairs if pw is None and r.type == prev.type]
        same = [r for r in same_type if r.length == prev.length]
        if same:
            play = same[0]
            if play.type == "single" and play.get("joker"):
                return ("not_higher",
                        N_("A joker played alone counts as {rank}, which does not beat {previous}: a follow "
                           "needs a higher rank.", rank=_name(play.rank), previous=q), play)
            return ("not_higher",
                    N_("{play} does not beat {previous}: a follow of the same type needs a higher rank.",
                       play=_capital_describe(play), previous=q), play)
        if same_type:
            play = same_type[0]
            return ("length_mismatch",
                    N_("{play} has {count} cards but {previous} has {previous_count}: a follow must have "
                       "the same number of cards.", play=_capital_describe(play), count=play.length,
                       previous=q, previous_count=prev.length), play)
        play = pairs[0][0]
        return ("type_mismatch",
                N_("{play} cannot follow {previous}: play the same type with the same number of cards, "
                   "or a 510K or a bomb.", play=_capital_describe(play), previous=q), play)

    play, power = pairs[0]
    p = describe(play)
    if power is None:
        return ("needs_bomb",
                N_("{previous} can only be beaten by a stronger 510K or bomb, not by {play}.",
                   previous=_cap(q), play=p), play)
    hint = play.type == "510k" and not play.get("pure") and not play.get("suited")
    if play.type == "510k" and prev.type == "510k":
        if not play.get("pure") and not prev.get("pure"):
            if hint:
                return ("mixed_510k", N_("A mixed 510K cannot beat another mixed 510K; type the suits "
                                         "(such as 5h 10h Kh) to claim a pure one."), play)
            return ("mixed_510k", N_("A mixed 510K cannot beat another mixed 510K."), play)
        if not play.get("pure"):
            if hint:
                return ("mixed_below_pure", N_("A mixed 510K cannot beat a pure 510K; type the suits "
                                               "(such as 5h 10h Kh) to claim a pure one."), play)
            return ("mixed_below_pure", N_("A mixed 510K cannot beat a pure 510K."), play)
        return ("suit_not_higher",
                N_("A pure 510K of {suit} cannot beat a pure 510K of {prev_suit}: suits rank ♠ > ♥ > ♣ > ♦ "
                   "and the same suit cannot beat.", suit=SUIT_SYMBOLS[play.get("suit")],
                   prev_suit=SUIT_SYMBOLS[prev.get("suit")]), play)
    if play.type == "510k" and prev.type == "bomb":
        if rules.bomb_vs_510k == "510KAboveFourBomb":
            return ("bomb_beats_510k", N_("A 510K beats only bombs of 4 cards or fewer (house rule "
                                          "bombVs510K), and {previous} is bigger.", previous=q), play)
        return ("bomb_beats_510k", N_("A 510K cannot beat a bomb: any bomb beats any 510K in 大冶打拱."), play)
    if play.type == "bomb" and prev.type == "510k":
        return ("510k_beats_small_bomb", N_("A bomb of 4 cards or fewer cannot beat a 510K (house rule "
                                            "bombVs510K): play a bomb of 5 or more cards."), play)
    if play.type == "bomb" and prev.type == "bomb":
        if prev_power[1] > power[1]:
            return ("bomb_too_small", N_("A soft bomb never beats a hard bomb of 7 or 8 cards (house rule "
                                         "xiPremium)."), play)
        if play.length < prev.length:
            return ("bomb_too_small", N_("{play} cannot beat {previous}: a bomb with more cards wins.",
                                         play=_cap(p), previous=q), play)
        if prev_power[3] > power[3]:
            return ("bomb_too_small", N_("A soft bomb (with jokers) never beats a hard bomb of the same size "
                                         "(house rule hardBeatsSoft)."), play)
        if play.rank == prev.rank:
            return ("bomb_equal", N_("{play} only equals {previous}: with the same number of cards the rank "
                                     "must be higher.", play=_cap(p), previous=q), play)
        return ("bomb_too_small", N_("{play} cannot beat {previous}: with the same number of cards the "
                                     "higher rank wins.", play=_cap(p), previous=q), play)
    return ("bomb_too_small", N_("{play} cannot beat {previous}.", play=_cap(p), previous=q), play)


def _cap(text: Text) -> Text:
    """The same phrase with a capital first letter (the template gets one too)."""
    if not text or not text[0].islower():
        return text
    template = text.template
    first = template[0]
    if first == text[0]:  # a literal first letter: capitalise the sentence as it is
        return _T(first.upper() + text[1:], first.upper() + template[1:], dict(text.params))
    return N_(first.upper() + template[1:], **text.params)


def _510k_joker_limit(cards: tuple, rules: Rules):
    """The joker count when ``cards`` would be a 510K but for the joker limit, else None."""
    if len(cards) != 3:
        return None
    naturals = [c for c in cards if c.rank < SMALL_JOKER]
    j = 3 - len(naturals)
    if not naturals or j <= rules.max_jokers_in_510k or j > 2:
        return None
    ranks = [c.rank for c in naturals]
    if len(set(ranks)) == len(ranks) and all(r in _510K_RANKS for r in ranks):
        return j
    return None


def _diagnose(cards: tuple, rules: Rules, write=True):
    """(code, reason) for cards that form no combination at all (reason None unless ``write``)."""
    N_ = _N if write else _nothing
    limit = _510k_joker_limit(cards, rules)
    if limit is not None:
        return ("too_many_jokers_in_510k",
                N_("A 510K may contain at most {limit} joker (house rule maxJokersIn510K), so these cards "
                   "are not a 510K.", limit=rules.max_jokers_in_510k))
    loose = _derived(rules).loose
    with_two, plain = _readings(cards, loose, allow_two=True), _readings(cards, loose)
    if not rules.allow_straights and any(r.type == "straight" for r in with_two):
        if any(r.type == "straight" for r in plain):
            return ("no_straights", N_("Single straights (顺子) are not played in 大冶打拱 (house rule allowStraights)."))
    if with_two and not plain:
        return ("two_in_sequence", N_("A 2 cannot be part of a sequence: consecutive pairs, triples and "
                                      "straights run from 3 up to A."))
    if plain:
        return ("sequence_too_short", N_("This sequence is shorter than the house rules allow (minLinkedPairs, "
                                         "minLinkedTriples, minStraight)."))
    if len(cards) > MAX_BOMB:
        return ("not_a_combination", N_("These cards do not form a combination: no play has more than {limit} "
                                        "cards except consecutive pairs or triples.", limit=MAX_BOMB))
    return ("not_a_combination",
            N_("These cards do not form a 大冶打拱 combination: play a single, a pair, a triple, consecutive "
               "pairs or triples, a 510K or a bomb."))


_DESCRIBED = _described()
_N, _describe_, _capital_describe_, _cap_ = N_, describe, _capital_describe, _cap  # for _illegal_reason


# --------------------------------------------------------------------------------------------
# Hand facts (§3, §4, §6, §7)


def _fail(message: Text, code: str, field: str | None):
    raise FactsError(message, code=code, field=field)


def _basic(facts) -> dict:
    """players, banker, partner, shout: checked; raises FactsError naming the field."""
    if not isinstance(facts, Mapping):
        _fail(N_("The hand must be given as players, banker, partner or shout, order, captured points and "
                 "points left in hand."), "bad_facts", None)
    players = facts.get("players")
    if not isinstance(players, (list, tuple)) or len(players) != PLAYERS:
        _fail(N_("Give exactly 4 player names in seat order (counter-clockwise)."), "bad_players", "players")
    for i, name in enumerate(players):
        if not isinstance(name, str) or not name.strip():
            _fail(N_("Player {number} needs a name: give 4 names in seat order.", number=i + 1),
                  "bad_players", "players")
    if len(set(players)) != PLAYERS:
        duplicate = next(p for p in players if players.count(p) > 1)
        _fail(N_("{player} is listed twice among the players: give 4 different names.", player=duplicate),
              "bad_players", "players")
    players = list(players)

    def member(field: str, optional: bool):
        value = facts.get(field)
        if value is None or value == "" or value is False:
            if optional:
                return None
            _fail(N_("Name the banker: one of {players}.", players=", ".join(players)), "missing_banker", field)
        if not isinstance(value, str) or value not in players:
            template = {"banker": N_("The banker '{value}' is not one of the players ({players})."),
                        "partner": N_("The partner '{value}' is not one of the players ({players})."),
                        "shout": N_("The shouter '{value}' is not one of the players ({players}).")}[field]
            _fail(Text(template.template, {"value": value if isinstance(value, str) else repr(value),
                                           "players": ", ".join(players)}),
                  "unknown_player", field)
        return value

    banker = member("banker", False)
    shout = member("shout", True)
    partner = member("partner", True)
    if shout is not None and partner is not None:
        _fail(N_("{shouter} shouted and plays alone, so there is no partner: leave the partner empty, or clear "
                 "the shout.", shouter=shout), "shout_and_partner", "partner")
    if shout is None:
        if partner is None:
            _fail(N_("Name the banker's partner (the holder of the bright card's twin), or the player who "
                     "shouted for a one-against-three hand."), "missing_partner", "partner")
        if partner == banker:
            _fail(N_("{player} is the banker and cannot be the partner too: the partner holds the twin of the "
                     "bright card.", player=partner), "partner_is_banker", "partner")
    return {"players": players, "banker": banker, "partner": partner, "shout": shout}


def _order(facts, players) -> list:
    order = facts.get("order")
    if order is None:
        order = []
    if not isinstance(order, (list, tuple)):
        _fail(N_("The finishing order must be a list of player names, first out first."), "bad_order", "order")
    seen = []
    for i, name in enumerate(order):
        if not isinstance(name, str) or name not in players:
            _fail(N_("Place {place} of the finishing order, '{value}', is not one of the players ({players}).",
                     place=i + 1, value=name if isinstance(name, str) else repr(name),
                     players=", ".join(players)), "unknown_player", "order")
        if name in seen:
            _fail(N_("{player} appears twice in the finishing order: each player finishes once.", player=name),
                  "repeated_player", "order")
        seen.append(name)
    return seen


def _points(value, field: str, who: str) -> int:
    if value is None or value == "":
        return 0
    number = None
    if isinstance(value, bool):
        number = None
    elif isinstance(value, int):
        number = value
    elif isinstance(value, float) and value.is_integer():
        number = int(value)
    elif isinstance(value, Decimal) and value.is_finite() and value == value.to_integral_value():
        number = int(value)
    elif isinstance(value, str) and value.strip().lstrip("-").isdigit() and len(value) < 12:
        number = int(value.strip())
    if number is None:
        _fail(N_("{who}: the points must be a whole number such as 0, 5 or 35, not '{value}'.",
                 who=who, value=value), "bad_points", field)
    if number < 0:
        _fail(N_("{who}: the points cannot be negative ({value}).", who=who, value=number),
              "negative_points", field)
    if number % 5:
        _fail(N_("{who}: the points must be a multiple of 5 (only 5s, 10s and Ks score), not {value}.",
                 who=who, value=number), "not_multiple_of_5", field)
    if number > TOTAL_POINTS:
        _fail(N_("{who}: {value} points is more than the 200 the two decks hold.", who=who, value=number),
              "too_many_points", field)
    return number


def _bright_card(value, rules: Rules):
    if value is None or value == "":
        return None
    try:
        cards = parse_cards(value)
    except CardError:
        raise FactsError(N_("The bright card must be one card such as 7h or 10♠, not '{value}'.", value=value),
                         code="bad_card", field="bright_card") from None
    if len(cards) != 1:
        _fail(N_("The bright card must be a single card, such as 7h."), "bad_card", "bright_card")
    if cards[0].is_joker and rules.bid_card_exclude_jokers:
        _fail(N_("A joker cannot be the bright card (house rule bidCardExcludeJokers)."), "bad_card",
              "bright_card")
    return str(cards[0])


def _seat_sorted(names, players):
    return [p for p in players if p in names]


def _validate(facts, rules: Rules):
    """(normalised facts, outcome) where outcome = (kind, winners, multiplier, steps data)."""
    base = _basic(facts)
    players, banker, partner, shout = base["players"], base["banker"], base["partner"], base["shout"]
    if shout is not None and not rules.shout_allowed:
        _fail(N_("Shouting is off in these house rules (shoutAllowed): clear the shout and name the partner."),
              "shout_not_allowed", "shout")
    order = _order(facts, players)
    bright = _bright_card(facts.get("bright_card"), rules)
    xi = _xi_bombs(facts.get("xi_bombs"), players) if rules.bonus_xi_qian else None
    normal = {"players": players, "banker": banker, "partner": partner, "shout": shout, "order": order}
    if shout is not None:
        if not order:
            _fail(N_("The hand is not over: enter who went out first ({shouter} shouted, so the hand ends as soon "
                     "as anyone goes out).", shouter=shout), "hand_not_over", "order")
        normal.update(captured={}, last_hand_points=0)
        if bright is not None:
            normal["bright_card"] = bright
        if xi is not None:
            normal["xi_bombs"] = xi
        return normal, _shout_outcome(normal, rules)

    captured_raw = facts.get("captured")
    if captured_raw is None:
        captured_raw = {}
    if not isinstance(captured_raw, Mapping):
        _fail(N_("The captured points must be given per player, such as {{\"{player}\": 35}}.", player=players[0]),
              "bad_points", "captured")
    for name in captured_raw:
        if name not in players:
            _fail(N_("Captured points are given for '{value}', who is not one of the players ({players}).",
                     value=name, players=", ".join(players)), "unknown_player", f"captured.{name}")
    captured = {p: _points(captured_raw.get(p), f"captured.{p}", p) for p in players}
    in_hand = _points(facts.get("last_hand_points"), "last_hand_points",
                      N_("Points left in hand"))
    total = sum(captured.values()) + in_hand
    if total > TOTAL_POINTS:
        _fail(N_("The captured points and the points left in hand add up to {total}, but the two decks hold only "
                 "200: check each player's captured points.", total=total), "too_many_points", "captured")
    complete = len(order) >= PLAYERS - 1
    if complete and total != TOTAL_POINTS:
        last = order[3] if len(order) == 4 else next(p for p in players if p not in order)
        _fail(N_("The hand is finished, so the points must add up to 200, but they add up to {total}: check the "
                 "captured points and the points left in {last}'s hand.", total=total, last=last),
              "points_total", "captured")
    normal.update(captured=captured, last_hand_points=in_hand)
    if bright is not None:
        normal["bright_card"] = bright
    if xi is not None:
        normal["xi_bombs"] = xi
    return normal, _team_outcome(normal, rules)


def _xi_bombs(value, players):
    if value is None or value == "" or value == {}:
        return {}
    if not isinstance(value, Mapping):
        _fail(N_("The 喜 bombs must be given per player, such as {{\"{player}\": [7]}}.", player=players[0]),
              "bad_xi", "xi_bombs")
    out = {}
    for name, sizes in value.items():
        if name not in players:
            _fail(N_("喜 bombs are given for '{value}', who is not one of the players.", value=name),
                  "unknown_player", f"xi_bombs.{name}")
        if not isinstance(sizes, (list, tuple)) or not all(
                isinstance(s, int) and not isinstance(s, bool) and s in (7, 8) for s in sizes):
            _fail(N_("{player}: list the sizes of the hard bombs of 7 or 8 cards played, such as [7, 8].",
                     player=name), "bad_xi", f"xi_bombs.{name}")
        if sizes:
            out[name] = list(sizes)
    return out


# Bright cards written as one natural card token ("7h", "10♠", "q") -> the normalised text.
_BRIGHT = {token: str(card) for token, card in _TOKENS.items() if not card.is_joker}


def _fast_points(value):
    """A captured-points value that is a plain valid int (or None): the number; else None."""
    if value is None:
        return 0
    if type(value) is int and 0 <= value <= TOTAL_POINTS and not value % 5:
        return value
    return None


def _validate_fast(facts, rules: Rules):
    """``_validate(facts, rules)`` for plain, valid facts (exact types, no 喜 bombs); None when the
    facts need the full checks (which then give the result or the error)."""
    if type(facts) is not dict or rules.bonus_xi_qian:
        return None
    get = facts.get
    players = get("players")
    if (type(players) is not list and type(players) is not tuple) or len(players) != PLAYERS:
        return None
    a, b, c, d = players
    if type(a) is not str or type(b) is not str or type(c) is not str or type(d) is not str:
        return None
    if not (a.strip() and b.strip() and c.strip() and d.strip()):
        return None
    seats = {a, b, c, d}
    if len(seats) != PLAYERS:
        return None
    players = [a, b, c, d]
    banker = get("banker")
    if type(banker) is not str or banker not in seats:
        return None
    shout = get("shout")
    if shout is None or shout == "" or shout is False:
        shout = None
    elif type(shout) is not str or shout not in seats or not rules.shout_allowed:
        return None
    partner = get("partner")
    if partner is None or partner == "" or partner is False:
        partner = None
    elif type(partner) is not str or partner not in seats:
        return None
    if shout is None:
        if partner is None or partner == banker:
            return None
    elif partner is not None:
        return None
    order = get("order")
    if order is None:
        order = []
    elif type(order) is list or type(order) is tuple:
        for name in order:
            if type(name) is not str or name not in seats:
                return None
        if len(set(order)) != len(order):
            return None
        order = list(order)
    else:
        return None
    bright = get("bright_card")
    if bright is None or bright == "":
        bright = None
    elif type(bright) is str and bright in _BRIGHT:
        bright = _BRIGHT[bright]
    else:
        return None
    normal = {"players": players, "banker": banker, "partner": partner, "shout": shout, "order": order}
    if shout is not None:
        if not order:
            return None
        normal["captured"] = {}
        normal["last_hand_points"] = 0
        if bright is not None:
            normal["bright_card"] = bright
        return normal, _shout_outcome(normal, rules)
    captured_raw = get("captured")
    if captured_raw is None:
        captured_raw = {}
    elif type(captured_raw) is not dict:
        return None
    if not seats.issuperset(captured_raw):
        return None
    captured = {}
    total = 0
    for p in players:
        value = captured_raw.get(p)
        if type(value) is int and 0 <= value <= TOTAL_POINTS and not value % 5:
            total += value
        elif value is None:
            value = 0
        else:
            return None
        captured[p] = value
    in_hand = _fast_points(get("last_hand_points"))
    if in_hand is None:
        return None
    total += in_hand
    if total > TOTAL_POINTS or (len(order) >= PLAYERS - 1 and total != TOTAL_POINTS):
        return None
    normal["captured"] = captured
    normal["last_hand_points"] = in_hand
    if bright is not None:
        normal["bright_card"] = bright
    return normal, _team_outcome(normal, rules)


def _shout_outcome(f, rules):
    shouter, first = f["shout"], f["order"][0]
    others = [p for p in f["players"] if p != shouter]
    m = rules.shout_multiplier
    win = first == shouter
    return {"kind": "shout", "winners": [shouter] if win else others, "multiplier": m, "arch": "shout",
            "sides": ([shouter], others), "first": first}


# seats (i, j), i < j, of one side -> the two other players, in seat order
_OTHER_SEATS = {(i, j): tuple(k for k in range(PLAYERS) if k not in (i, j))
                for i in range(PLAYERS) for j in range(i + 1, PLAYERS)}


_OTHER_SEATS_AT = [_OTHER_SEATS.get((i, j)) for i in range(PLAYERS) for j in range(PLAYERS)]  # [i * 4 + j]
# every valid number of captured points (an int from 0 to 200, a multiple of 5)
_POINT_VALUES = frozenset(range(0, TOTAL_POINTS + 1, 5))


def _team_outcome(f, rules):
    players, order, cap = f["players"], f["order"], f["captured"]
    banker, banker_partner = f["banker"], f["partner"]
    i, j = players.index(banker), players.index(banker_partner)
    if i > j:
        i, j = j, i
    side_a = [players[i], players[j]]  # seat order
    k1, k2 = _OTHER_SEATS[i, j]
    side_b = [players[k1], players[k2]]
    if not order:
        _fail(N_("The hand is not over: nobody has gone out yet; play on until three players are out, or until "
                 "the first two out are partners."), "hand_not_over", "order")
    first = order[0]
    if first == banker or first == banker_partner:
        mine, other = side_a, side_b
    else:
        mine, other = side_b, side_a
    partner = mine[1] if mine[0] == first else mine[0]
    if len(order) == 1:
        _fail(N_("The hand is not over: only {first} has gone out; play on until three players are out, or until "
                 "an early end (E12, E1, E2, E3) applies.", first=first), "hand_not_over", "order")
    second = order[1]
    team_points = cap[first] + cap[partner]
    other_points = cap[other[0]] + cap[other[1]]
    if second == partner:  # E12
        return {"sides": (side_a, side_b), "first": first, "team": mine, "other": other, "second": second,
                "kind": "e12", "winners": mine, "multiplier": 4 if other_points == 0 else 2,
                "other_points": other_points}
    outcome = {"sides": (side_a, side_b), "first": first, "team": mine, "other": other, "second": second}
    if len(order) < PLAYERS - 1:
        second_points = cap[second]
        if rules.early_end_e1 and second_points >= rules.e1_fence and team_points > 0:
            outcome.update(kind="e1", winners=other, multiplier=1, second_points=second_points,
                           team_points=team_points)
            return outcome
        if rules.early_end_e2 and team_points >= rules.e2_fence and second_points > 0:
            outcome.update(kind="e2", winners=mine, multiplier=1, second_points=second_points,
                           team_points=team_points)
            return outcome
        if rules.early_end_e3 and (second_points == TOTAL_POINTS or team_points == TOTAL_POINTS):
            holder = second if second_points == TOTAL_POINTS else None
            outcome.update(kind="e3", winners=other if holder else mine,
                           multiplier=rules.shutout_multiplier_13_14, holder=holder,
                           second_points=second_points, team_points=team_points)
            return outcome
        _fail(N_("The hand is not over: {first} and {second} are on opposite teams and no early end applies "
                 "({second} has {second_points}, {first}'s team has {team_points}); play on until three "
                 "players are out.", first=first, second=second, second_points=second_points,
                 team_points=team_points), "hand_not_over", "order")
    third = order[2]
    last = order[3] if len(order) > 3 else next(p for p in players if p not in order[:3])
    # last's captured points go to first, the points in last's hand to third; the partner is third or last
    in_hand = f["last_hand_points"]
    if partner == third:
        points = cap[first] + cap[last] + cap[partner] + in_hand
    else:
        points = cap[first] + cap[last]
    threshold = rules.win_threshold
    always = rules.first_third_always_wins and third == partner
    mine_win = always or points >= threshold
    winner_points = points if mine_win else TOTAL_POINTS - points
    m = rules.shutout_multiplier_13_14 if winner_points == TOTAL_POINTS else 1
    outcome.update(kind="full", winners=mine if mine_win else other, multiplier=m, third=third, last=last,
                   moved=cap[last], in_hand=in_hand, team_points=points, always=always)
    return outcome


def validate_facts(facts, rules: Rules = DEFAULT_RULES) -> dict:
    """The hand facts, checked and normalised (captured has every player; points are ints).

    Raises :class:`FactsError` with a code and the field (``captured.P2``, ``order``, …).
    """
    normal, _ = _validate(facts, _coerce_rules(rules))
    return normal


def teams(facts) -> tuple[list[str], list[str]]:
    """(banker's side, other side), each in seat order; in a shout hand ([shouter], the other three)."""
    base = _basic(facts)
    players = base["players"]
    if base["shout"] is not None:
        return [base["shout"]], [p for p in players if p != base["shout"]]
    side = _seat_sorted({base["banker"], base["partner"]}, players)
    return side, [p for p in players if p not in side]


def needed_facts(rules=None) -> tuple[str, ...]:
    """Facts beyond the usual record that this table's switches need: ``xi_bombs`` (per player, the
    sizes of hard 7- and 8-card bombs played) when 喜钱 (``bonus_xi_qian``) is on."""
    rules = _coerce_rules(rules) if rules is not None else Rules()
    return ("xi_bombs",) if rules.bonus_xi_qian else ()


def next_dealer(facts) -> str:
    """The 头游 (first player out) deals and banks the next hand."""
    base = _basic(facts)
    order = _order(facts, base["players"])
    if not order:
        _fail(N_("The hand is not over: enter who went out first; that player deals next."), "hand_not_over",
              "order")
    return order[0]


# --------------------------------------------------------------------------------------------
# Settlement (§8, §10)

_ARCH_BY_MULTIPLIER = {1: "half", 2: "straight", 4: "dry"}
_SETTLE_CACHE: dict = {}
_SETTLE_CACHE_MAX = 20000


def _signed(value) -> str:
    return ("+" if value > 0 else "−" if value < 0 else "") + str(abs(value))


def _plus(names) -> str:
    return "+".join(names)


def _settle_key(facts, rules, stake):
    """A hashable key for plain facts (the types are part of it, so 0 and False differ); None when
    the facts cannot be a key. Hashing errors are caught where the key is used."""
    if type(facts) is not dict or (rules.bonus_xi_qian and facts.get("xi_bombs")):
        return None
    get = facts.get
    captured, players, order = get("captured"), get("players"), get("order")
    if type(captured) is dict:
        values = tuple(captured.values())
        names, values, kinds = tuple(captured), values, tuple(map(type, values))
    else:
        names, values, kinds = captured, None, None
    if type(players) is list:
        players = tuple(players)
    if type(order) is list:
        order = tuple(order)
    banker, partner, shout = get("banker"), get("partner"), get("shout")
    in_hand, bright = get("last_hand_points"), get("bright_card")
    return (players, order, names, values, kinds, banker, partner, shout, in_hand, bright, stake,
            type(banker), type(partner), type(shout), type(in_hand), type(bright), type(stake), rules)


_LazySettlement = LazySettlement  # steps written on first read (common.py)


def _lazy(deltas, spec, points, winners, arch, multiplier, next_dealer) -> Settlement:
    """A _LazySettlement whose steps are ``spec[0](*spec[1:])`` (attributes set one by one: no
    instance dict is made until one is needed)."""
    obj = _new(_LazySettlement)
    obj.deltas = deltas
    obj._spec = spec
    obj.points = points
    obj.winners = winners
    obj.arch = arch
    obj.multiplier = multiplier
    obj.next_dealer = next_dealer
    return obj


def settle(facts, rules: Rules = DEFAULT_RULES, stake=1) -> Settlement:
    """Settle one hand: winners, arch, multiplier, zero-sum integer points (with the base stake),
    deltas (= points × stake), plain-language steps and the next dealer (the 头游)."""
    if type(rules) is not Rules:
        rules = _coerce_rules(rules)
    if type(facts) is not dict or rules.bonus_xi_qian:
        return _settle_other(facts, rules, stake)
    # Plain, valid facts (exact types, no 喜 bombs) are settled here in one pass (quicker than a memo
    # lookup): the checks of _validate_fast, the outcome of _team_outcome / _shout_outcome and the
    # numbers of _settle. Anything else, and hands that are not over, go to _settle_other (which
    # gives the result or the error). The steps are written from a snapshot of the normalised
    # facts when first read (_plain_steps).
    get = facts.get
    players = get("players")
    if (type(players) is not list and type(players) is not tuple) or len(players) != PLAYERS:
        return _settle_other(facts, rules, stake)
    a, b, c, d = players
    if type(a) is not str or type(b) is not str or type(c) is not str or type(d) is not str:
        return _settle_other(facts, rules, stake)
    if not (a.strip() and b.strip() and c.strip() and d.strip()):
        return _settle_other(facts, rules, stake)
    seats = {a, b, c, d}
    if len(seats) != PLAYERS:
        return _settle_other(facts, rules, stake)
    banker = get("banker")
    if type(banker) is not str or banker not in seats:
        return _settle_other(facts, rules, stake)
    shout = get("shout")
    if shout is None or shout == "" or shout is False:
        shout = None
    elif type(shout) is not str or shout not in seats or not rules.shout_allowed:
        return _settle_other(facts, rules, stake)
    partner = get("partner")
    if partner is None or partner == "" or partner is False:
        partner = None
    elif type(partner) is not str or partner not in seats:
        return _settle_other(facts, rules, stake)
    if shout is None:
        if partner is None or partner == banker:
            return _settle_other(facts, rules, stake)
    elif partner is not None:
        return _settle_other(facts, rules, stake)
    order = get("order")
    if type(order) is list or type(order) is tuple:
        for name in order:
            if type(name) is not str or name not in seats:
                return _settle_other(facts, rules, stake)
        if len(set(order)) != len(order):
            return _settle_other(facts, rules, stake)
        if not order:  # the hand is not over
            return _settle_other(facts, rules, stake)
        order = tuple(order)
    else:  # None (the hand is not over) or a wrong type
        return _settle_other(facts, rules, stake)
    bright = get("bright_card")
    if bright is None or bright == "":
        bright = None
    elif type(bright) is str and bright in _BRIGHT:
        bright = _BRIGHT[bright]
    else:
        return _settle_other(facts, rules, stake)
    base = rules.base_stake
    first = order[0]
    if shout is not None:
        m = rules.shout_multiplier
        share = m * base
        if first == shout:
            points = {a: -share, b: -share, c: -share, d: -share}
            points[shout] = 3 * share
            winners = [shout]
        else:
            points = {a: share, b: share, c: share, d: share}
            points[shout] = -3 * share
            winners = [p for p in (a, b, c, d) if p != shout]
        result = _new(_LazySettlement)  # as _lazy makes it
        result.deltas = dict(points) if (type(stake) is int and stake == 1) else apply_stake(points, stake)
        result._spec = (_plain_steps, a, b, c, d, banker, partner, shout, order, None, 0, bright, rules, stake)
        result.points = points
        result.winners = winners
        result.arch = "shout"
        result.multiplier = m
        result.next_dealer = first
        return result

    captured_raw = get("captured")
    if captured_raw is None:
        captured_raw = {}
    elif type(captured_raw) is not dict:
        return _settle_other(facts, rules, stake)
    if not seats.issuperset(captured_raw):
        return _settle_other(facts, rules, stake)
    cget = captured_raw.get
    ca, cb, cc, cd = cget(a), cget(b), cget(c), cget(d)
    if type(ca) is int and type(cb) is int and type(cc) is int and type(cd) is int:  # (the usual case)
        if not (ca in _POINT_VALUES and cb in _POINT_VALUES and cc in _POINT_VALUES and cd in _POINT_VALUES):
            return _settle_other(facts, rules, stake)
    else:
        if ca is None:
            ca = 0
        elif type(ca) is not int or ca not in _POINT_VALUES:
            return _settle_other(facts, rules, stake)
        if cb is None:
            cb = 0
        elif type(cb) is not int or cb not in _POINT_VALUES:
            return _settle_other(facts, rules, stake)
        if cc is None:
            cc = 0
        elif type(cc) is not int or cc not in _POINT_VALUES:
            return _settle_other(facts, rules, stake)
        if cd is None:
            cd = 0
        elif type(cd) is not int or cd not in _POINT_VALUES:
            return _settle_other(facts, rules, stake)
    in_hand = get("last_hand_points")
    if in_hand is None:
        in_hand = 0
    elif type(in_hand) is not int or in_hand not in _POINT_VALUES:
        return _settle_other(facts, rules, stake)
    total = ca + cb + cc + cd + in_hand
    count = len(order)
    if total > TOTAL_POINTS or (count >= PLAYERS - 1 and total != TOTAL_POINTS) or count == 1:
        return _settle_other(facts, rules, stake)  # (one player out: the hand is not over)
    cap = {a: ca, b: cb, c: cc, d: cd}
    # the two sides, each in seat order (players.index: the first seat of the name)
    i, j = players.index(banker), players.index(partner)
    if i > j:
        i, j = j, i
    k1, k2 = _OTHER_SEATS_AT[i * PLAYERS + j]
    if first == banker or first == partner:  # (m0, m1) first's side, (o0, o1) the other side
        m0, m1, o0, o1 = players[i], players[j], players[k1], players[k2]
    else:
        m0, m1, o0, o1 = players[k1], players[k2], players[i], players[j]
    mate = m1 if m0 == first else m0
    second = order[1]
    if second == mate:  # E12
        mine, m = True, 4 if cap[o0] + cap[o1] == 0 else 2
    elif count < PLAYERS - 1:
        second_points = cap[second]
        team_points = cap[first] + cap[mate]
        if rules.early_end_e1 and second_points >= rules.e1_fence and team_points > 0:
            mine, m = False, 1
        elif rules.early_end_e2 and team_points >= rules.e2_fence and second_points > 0:
            mine, m = True, 1
        elif rules.early_end_e3 and (second_points == TOTAL_POINTS or team_points == TOTAL_POINTS):
            mine, m = second_points != TOTAL_POINTS, rules.shutout_multiplier_13_14
        else:  # no early end applies: the hand is not over
            return _settle_other(facts, rules, stake)
    else:
        third = order[2]
        last = order[3] if count > 3 else next(p for p in (a, b, c, d) if p not in order[:3])
        if mate == third:
            points = cap[first] + cap[last] + cap[mate] + in_hand
        else:
            points = cap[first] + cap[last]
        if (rules.first_third_always_wins and third == mate) or points >= rules.win_threshold:
            mine = True
            m = rules.shutout_multiplier_13_14 if points == TOTAL_POINTS else 1
        else:
            mine = False
            m = rules.shutout_multiplier_13_14 if TOTAL_POINTS - points == TOTAL_POINTS else 1
    share = m * base
    points = {a: -share, b: -share, c: -share, d: -share}
    if mine:
        points[m0] = points[m1] = share
        winners = [m0, m1]
    else:
        points[o0] = points[o1] = share
        winners = [o0, o1]
    result = _new(_LazySettlement)  # as _lazy makes it
    result.deltas = dict(points) if (type(stake) is int and stake == 1) else apply_stake(points, stake)
    result._spec = (_plain_steps, a, b, c, d, banker, partner, None, order, cap, in_hand, bright, rules, stake)
    result.points = points
    result.winners = winners
    result.arch = _ARCH_BY_MULTIPLIER.get(m, "straight")
    result.multiplier = m
    result.next_dealer = first
    return result


def _settle_other(facts, rules: Rules, stake) -> Settlement:
    """``settle`` for facts that are not plain and valid: checked in full, with a memo."""
    key = _settle_key(facts, rules, stake)
    if key is not None:
        try:
            cached = _SETTLE_CACHE.get(key)
        except TypeError:  # unhashable values: settle without the cache
            key = cached = None
        if cached is not None:  # the checked facts and outcome: only the numbers are worked out again
            return _settle(*cached)
    f, outcome = _validate_fast(facts, rules) or _validate(facts, rules)
    result = _settle(f, outcome, rules, stake)
    if key is not None:
        if len(_SETTLE_CACHE) >= _SETTLE_CACHE_MAX:
            _SETTLE_CACHE.clear()
        _SETTLE_CACHE[key] = result.__dict__["_spec"][1:]  # (f, outcome, rules, stake)
    return result


def _plain_steps(a, b, c, d, banker, partner, shout, order, captured, in_hand, bright, rules, stake) -> list:
    """The steps of a settlement made by :func:`_settle_plain`, from its snapshot of the facts: the
    normalised facts and outcome that :func:`_validate_fast` gives, then :func:`_steps`."""
    normal = {"players": [a, b, c, d], "banker": banker, "partner": partner, "shout": shout, "order": list(order)}
    if shout is not None:
        normal["captured"] = {}
        normal["last_hand_points"] = 0
    else:
        normal["captured"] = dict(captured)
        normal["last_hand_points"] = in_hand
    if bright is not None:
        normal["bright_card"] = bright
    outcome = _shout_outcome(normal, rules) if shout is not None else _team_outcome(normal, rules)
    return _steps(normal, outcome, rules, stake)


def _settle(f, o, rules, stake) -> Settlement:
    """The numbers of the settlement; the steps are written when first read (:func:`_steps`)."""
    players = f["players"]
    b = rules.base_stake
    m = o["multiplier"]
    share = m * b
    winners = o["winners"]
    p0, p1, p2, p3 = players
    if o["kind"] == "shout":
        shouter = o["sides"][0][0]
        sign = 1 if o["first"] == shouter else -1
        loss = -sign * share
        points = {p0: loss, p1: loss, p2: loss, p3: loss}
        points[shouter] = sign * 3 * share
        arch = "shout"
    else:
        arch = _ARCH_BY_MULTIPLIER.get(m, "straight")
        loss = -share
        points = {p0: share if p0 in winners else loss, p1: share if p1 in winners else loss,
                  p2: share if p2 in winners else loss, p3: share if p3 in winners else loss}
    xi = f.get("xi_bombs") if rules.bonus_xi_qian else None
    if xi:
        for p in players:
            for size in xi.get(p, ()):
                gain = (1 if size == 7 else 2) * b
                points[p] += gain * (PLAYERS - 1)
                for q in players:
                    if q != p:
                        points[q] -= gain
    deltas = dict(points) if (type(stake) is int and stake == 1) else apply_stake(points, stake)
    # winners are one side (or the shouter), already in seat order
    return _lazy(deltas, (_steps, f, o, rules, stake), points, list(winners), arch, m, f["order"][0])


def _steps(f, o, rules, stake) -> list:
    """The plain-language steps of a settlement (see :func:`_settle`; its numbers are worked out again
    here, so that changes to the returned dicts do not show in the steps)."""
    deltas = _settle(f, o, rules, stake).deltas
    players = f["players"]
    b = rules.base_stake
    m = o["multiplier"]
    share = m * b
    steps: list[Text] = []
    winners = list(o["winners"])
    if o["kind"] == "shout":
        shouter, others = o["sides"][0][0], o["sides"][1]
        steps.append(N_("{shouter} shouted (独牌) and plays alone against {others}; card points do not count.",
                        shouter=shouter, others=_plus(others)))
        if o["first"] == shouter:
            steps.append(N_("{shouter} went out first and wins the shout, ×{m}.", shouter=shouter, m=m))
        else:
            steps.append(N_("{first} went out before {shouter}, so {shouter} loses the shout, ×{m}.",
                            first=o["first"], shouter=shouter, m=m))
    else:
        side_a, side_b = o["sides"]
        team, other = o["team"], o["other"]
        steps.append(N_("Teams: {banker_side} (banker {banker}) against {other_side}.",
                        banker_side=_plus(side_a), banker=f["banker"], other_side=_plus(side_b)))
        arch = _ARCH_BY_MULTIPLIER.get(m, "straight")
        arch_text = ARCH_NAMES[arch]
        first, second = o["first"], o["second"]
        kind = o["kind"]
        if kind == "e12":
            steps.append(N_("{first} and {second} are partners and went out first and second: the hand ends "
                            "(E12).", first=first, second=second))
            if o["other_points"] == 0:
                steps.append(N_("{other} captured no points: {team} win a {arch}, ×{m}.", other=_plus(other),
                                team=_plus(team), arch=arch_text, m=m))
            else:
                steps.append(N_("{other} captured {points} points: {team} win a {arch}, ×{m}.",
                                other=_plus(other), points=o["other_points"], team=_plus(team), arch=arch_text,
                                m=m))
        elif kind == "e1":
            steps.append(N_("{second} went out second with {points} points (at least {fence}) and {first}'s team "
                            "has {team_points} (more than 0): the hand ends early (E1).", second=second,
                            points=o["second_points"], fence=rules.e1_fence, first=first,
                            team_points=o["team_points"]))
            steps.append(N_("{winners} win a {arch}, ×{m}.", winners=_plus(winners), arch=arch_text, m=m))
        elif kind == "e2":
            steps.append(N_("{team} have {points} (at least {fence}) and {second} has {second_points} (more than "
                            "0): the hand ends early (E2).", team=_plus(team), points=o["team_points"],
                            fence=rules.e2_fence, second=second, second_points=o["second_points"]))
            steps.append(N_("{winners} win a {arch}, ×{m}.", winners=_plus(winners), arch=arch_text, m=m))
        elif kind == "e3":
            holder = o["holder"] or _plus(team)
            steps.append(N_("{holder} already has all 200 points: the hand ends early (E3).", holder=holder))
            steps.append(N_("{winners} win a {arch}, ×{m}.", winners=_plus(winners), arch=arch_text, m=m))
        else:
            last, third = o["last"], o["third"]
            if o["moved"]:
                steps.append(N_("{last} finished last: its {points} captured points go to {first} (first).",
                                last=last, points=o["moved"], first=first))
            else:
                steps.append(N_("{last} finished last with no captured points.", last=last))
            if o["in_hand"]:
                steps.append(N_("The {points} points left in {last}'s hand go to {third} (third).",
                                points=o["in_hand"], last=last, third=third))
            if o["always"]:
                steps.append(N_("{team} went out first and third, so they win whatever their points (house rule "
                                "firstThirdAlwaysWins): {arch}, ×{m}.", team=_plus(team), arch=arch_text, m=m))
            elif winners == team:
                steps.append(N_("{team} have {points} ≥ {threshold}: they win a {arch}, ×{m}.", team=_plus(team),
                                points=o["team_points"], threshold=rules.win_threshold, arch=arch_text, m=m))
            else:
                steps.append(N_("{team} have {points} < {threshold}: {other} win a {arch}, ×{m}.",
                                team=_plus(team), points=o["team_points"], threshold=rules.win_threshold,
                                other=_plus(other), arch=arch_text, m=m))
    if b != 1:
        steps.append(N_("Base stake {base}: each share is {m} × {base} = {share}.", base=b, m=m, share=share))
    xi = f.get("xi_bombs") if rules.bonus_xi_qian else None
    if xi:
        for p in players:
            for size in xi.get(p, ()):
                gain = (1 if size == 7 else 2) * b
                steps.append(N_("{player} played a hard bomb of {size} cards (喜钱): +{gain} from each other player.",
                                player=p, size=size, gain=gain))
    if o["kind"] == "shout" and not xi:
        shouter, others = o["sides"][0][0], o["sides"][1]
        steps.append(N_("{shouter}: {amount}; {others}: {other_amount} each.", shouter=shouter,
                        amount=_signed(deltas[shouter]), others=_plus(others),
                        other_amount=_signed(deltas[others[0]])))
    elif not xi:
        losers = [p for p in players if p not in winners]
        steps.append(N_("{winners}: {amount} each; {losers}: {loss} each.", winners=_plus(winners),
                        amount=_signed(deltas[winners[0]]), losers=_plus(losers), loss=_signed(deltas[losers[0]])))
    else:
        steps.append(N_("Result: {lines}.", lines=", ".join(p + " " + _signed(deltas[p]) for p in players)))
    if stake != 1:
        steps.append(N_("Amounts are points × the stake of {stake} per point.", stake=stake))
    return steps
