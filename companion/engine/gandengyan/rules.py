"""干瞪眼 house rules: the switches (rules file §4), the Rules value, the presets (§5) with the
number of players each is played by, and how many decks a table uses (§3.1)."""
from __future__ import annotations

import dataclasses

import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from ..errors import RulesError
from ..switches import Switch, build_rules
from ..text import N_, Text

PLAYER_RANGE = (2, 6)  # fewest and most players at any 干瞪眼 table (§3.1)
HAND_DEALT = 5  # cards each player is dealt (§3.2)
DEALER_EXTRA = 1  # the dealer's extra card: the dealer is dealt HAND_DEALT + DEALER_EXTRA (§3.2)


def _squash(word: str) -> str:
    return word.strip().replace("_", "").replace("-", "").lower()


class _ParamSwitch(Switch):
    """A switch whose values are fixed words or ``word:number`` (``threshold:5``, ``perLoser:20``).

    ``choices`` lists the values the web form offers; the ones with ``:`` take any whole number ≥ 1.
    """

    def coerce(self, value: Any) -> Any:
        if isinstance(value, str):
            word, sep, number = value.strip().partition(":")
            for choice in self.choices:
                base = choice.partition(":")[0]
                if _squash(base) != _squash(word) or (":" in choice) != bool(sep):
                    continue
                if not sep:
                    return choice
                number = number.strip()
                if number.isascii() and number.isdigit() and len(number) <= 6 and int(number) >= 1:
                    return f"{base}:{int(number)}"
                raise RulesError(N_("The house rule '{key}' needs a whole number of at least 1 "
                                    "after '{word}:', not '{value}'.", key=self.key, word=base, value=value),
                                 field=f"rules.{self.key}")
        return Switch.coerce(self, value)


class _UnitSwitch(Switch):
    bounds = {"exclusiveMinimum": True, "maximum": 1_000_000}  # as coerce says (for the API's document)

    def coerce(self, value: Any) -> Any:
        number = Switch.coerce(self, value)
        if number <= 0 or number > 1_000_000:
            raise RulesError(N_("The house rule '{key}' must be a number above 0 and at most 1000000, not "
                                "'{value}'.", key=self.key, value=value), field=f"rules.{self.key}")
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
    dataclasses.replace(_bool("shut_out_dealer_exception", N_("With shut-out ×2: a dealer whose only play was the "
                                                              "opening lead counts as shut out.")),
                        moot_when=("shut_out", "off")),
    _ParamSwitch("cap", N_("Upper limit: 'perLoser:x' = no loser pays more than x; 'multiplier:x' = the "
                           "total multiple (cards included) is at most x."),
                 ("none", "perLoser:20", "multiplier:64")),
    _bool("one_card_exempt", N_("A loser holding exactly one card (报警) pays nothing.")),
    _choice("long_hand_mult", N_("Long hands: ×2 from trick 20 and ×2 again from trick 30."), "off", "on"),
    _UnitSwitch("unit", N_("Points per card left."), kind="number", minimum=0),
)}


@dataclass(frozen=True)
class Rules:
    """One table's house rules (§4); defaults = preset ``source``.

    ``player_range`` (not a switch) is how many may play under these rules: 2–6 in general; a
    preset whose source names fewer (§5) is a subclass that says so, and rules built on that
    preset keep it (``dataclasses.replace`` keeps the class).
    """

    player_range: ClassVar[tuple[int, int]] = PLAYER_RANGE

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
            coerced = switch.coerce(value)
            if coerced != value or type(coerced) is not type(value):
                object.__setattr__(self, key, coerced)  # the frozen-dataclass way to normalise a field

    @property
    def min_bomb(self) -> int:
        """The fewest cards of a bomb: 3 when triples are bombs, else 4."""
        return 3 if self.triple_is_bomb else 4


class QQRules(Rules):
    """Rules built on preset ``qq``: the Q text is for 2 to 5 players (§1 Q, §5)."""

    player_range: ClassVar[tuple[int, int]] = (2, 5)


class XiangshanRules(Rules):
    """Rules built on preset ``xiangshan``: 象山 house rules are for 3 to 5 players (§5)."""

    player_range: ClassVar[tuple[int, int]] = (3, 5)


PRESETS: dict[str, Rules] = {
    "source": Rules(),
    "qq": QQRules(deck_mode="oneDeck", draw_mode="all", triple_follow="anyHigher", joker_bomb="top"),
    "m2": Rules(deck_mode="oneDeck", triple_is_bomb=True, joker_bomb="as3", joker_doubling="perJoker",
                held_bomb_mult="bySize", played_bomb_mult="bySize", shut_out="double",
                cap="multiplier:64", long_hand_mult="on"),
    "xiangshan": XiangshanRules(deck_mode="oneDeck", triple_is_bomb=True, joker_single=True,
                                draw_mode="winnerOnly", played_bomb_mult="double", held_bomb_mult="once",
                                shut_out="double", shut_out_dealer_exception=False),
}
DEFAULT = PRESETS["source"]


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
    return build_rules(Rules, SWITCHES, data, base=PRESETS[preset])


def as_rules(rules) -> Rules:
    """``rules`` as a Rules value: None -> the defaults, a dict -> :func:`rules_from_dict`."""
    if rules is None:
        return DEFAULT
    if isinstance(rules, Rules):
        return rules
    return rules_from_dict(rules)


_BAD_PLAYERS = N_("The number of players must be a whole number from 2 to 6, not {players}.")
_BAD_PLAYERS_HERE = N_("The number of players must be a whole number from {low} to {high} under these "
                       "rules, not {players}.")


def players_error(rules: Rules, players) -> RulesError | None:
    """The error for a player count these rules cannot seat (``None`` = unknown count: fine)."""
    low, high = rules.player_range
    if players is None or (isinstance(players, int) and not isinstance(players, bool) and low <= players <= high):
        return None
    if (low, high) == PLAYER_RANGE:
        message = Text(_BAD_PLAYERS.template, {"players": players})
    else:
        message = Text(_BAD_PLAYERS_HERE.template, {"low": low, "high": high, "players": players})
    return RulesError(message, code="bad_players", field="players")


def decks(rules: Rules = None, players: int | None = None) -> int:
    """How many 54-card decks the table uses (§3.1, ``deckMode``). ``players=None`` assumes 2 decks.

    A player count outside the rules' ``player_range`` is a :class:`RulesError` (``bad_players``)."""
    rules = as_rules(rules)
    error = players_error(rules, players)
    if error is not None:
        raise error
    mode = rules.deck_mode
    if mode == "oneDeck":
        return 1
    if players is None:
        return 2
    if mode == "perThree":
        return max(1, math.ceil(players / 3))
    return 1 if players <= 2 else 2
