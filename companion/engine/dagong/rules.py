"""大冶打拱 house rules (rules/dagong.md §9): the switches, the Rules value, the presets and the
constants of the deal (§2, §6).

Every value derived from a Rules value is a plain helper here (no cache, no writes into the
frozen Rules)."""
from __future__ import annotations

from dataclasses import dataclass
from operator import attrgetter
from typing import Any, Mapping, NamedTuple

from ..cards import TWO
from ..errors import RulesError
from ..switches import Switch, build_rules, snake
from ..text import N_

DECKS = 2
PLAYERS = 4
PLAYER_RANGE = (PLAYERS, PLAYERS)  # fewest and most players (§2): always four
HAND_SIZE = 27                     # 108 cards, 27 each, no kitty (§2)
CARD_POINTS = {5: 5, 10: 10, 13: 10}  # the cards that carry points, rank -> points of each (§6: 5, 10, K)
COPIES = DECKS * 4                 # copies of each rank in the decks (4 suits a deck)
TOTAL_POINTS = sum(CARD_POINTS.values()) * COPIES  # 200: 8 fives, 8 tens, 8 kings (§6)
MAX_BOMB = 12                      # 8 natural cards of a rank + 4 jokers


@dataclass(frozen=True)
class Rules:
    """One field per switch of §9 of the rules file; the defaults are the 大冶 defaults. Every
    field passes its switch, however the value is built (junk: a RulesError naming the switch)."""

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

    def __post_init__(self):
        for key, switch in SWITCHES.items():
            value = getattr(self, key)
            coerced = switch.coerce(value)
            if coerced != value or type(coerced) is not type(value):
                object.__setattr__(self, key, coerced)  # the frozen-dataclass way to normalise a field


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
PRESET_PLAYERS: dict[str, tuple[int, int]] = {"daye": PLAYER_RANGE}  # the players each preset is made for
DEFAULT_RULES = PRESETS["daye"]

_BAD_RULES = N_("The house rules must be a set of switch: value pairs.")


def _is_int_choice(switch: Switch) -> bool:
    return bool(switch.choices) and all(isinstance(c, int) and not isinstance(c, bool) for c in switch.choices)


def _clean_value(key: str, value):
    """A choice value in another spelling (the rules file's prose, "4" for 4) as the switch's own value."""
    switch = SWITCHES.get(key)
    if switch is None or switch.kind != "choice":
        return value
    if isinstance(value, str):
        value = _VALUE_ALIASES.get(key, {}).get(value, value)
    if not _is_int_choice(switch):
        return value
    if isinstance(value, bool):
        raise RulesError(N_("The house rule '{key}' cannot be '{value}': choose one of {choices}.",
                            key=key, value=value, choices=", ".join(map(str, switch.choices))),
                         field=f"rules.{key}")
    if isinstance(value, str) and value.strip().isascii() and value.strip().isdigit():
        return int(value.strip())
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return value


def rules_from_dict(data: Mapping[str, Any] | None = None, preset: str | None = None) -> Rules:
    """Rules from a preset name and a dict of switches (camelCase or snake_case keys).

    Raises :class:`RulesError` naming the key and the allowed values.
    """
    if isinstance(data, Rules):
        return data
    if preset is not None and (not isinstance(preset, str) or preset not in PRESETS):
        raise RulesError(N_("Unknown preset '{preset}': choose one of {choices}.", preset=preset,
                            choices=", ".join(PRESETS)), code="unknown_preset", field="preset")
    base = PRESETS[preset] if preset is not None else DEFAULT_RULES
    if data is None:
        return base
    if not isinstance(data, Mapping):
        raise RulesError(_BAD_RULES, field="rules")
    cleaned = {raw: _clean_value(ALIASES.get(str(raw)) or snake(str(raw)), value) for raw, value in data.items()}
    return build_rules(Rules, SWITCHES, cleaned, base=base, aliases=ALIASES)


def coerce_rules(rules) -> Rules:
    """A Rules value from Rules, None (the defaults) or a dict of switches."""
    if isinstance(rules, Rules):
        return rules
    if rules is None:
        return DEFAULT_RULES
    if isinstance(rules, Mapping):
        return rules_from_dict(rules)
    raise RulesError(_BAD_RULES, field="rules")


# Values derived from a Rules value (plain helpers).


class PlayRules(NamedTuple):
    """The switches of §5 (how cards are read and compared): the part of Rules that the card reader
    and ``beats`` depend on, a small value that is cheap to hash (the key of the readings cache)."""

    laizi_single_value: int
    three_jokers: str
    four_jokers: str
    max_jokers_in_510k: int
    allow_straights: bool
    min_straight: int
    min_linked_pairs: int
    min_linked_triples: int
    bomb_min: int
    bomb_vs_510k: str
    hard_beats_soft: bool
    xi_premium: bool
    gunlong: bool


_PLAY_FIELDS = attrgetter(*PlayRules._fields)


def play_rules(rules) -> PlayRules:
    """The play switches of a Rules value."""
    return rules if type(rules) is PlayRules else PlayRules._make(_PLAY_FIELDS(rules))


def laizi(rules: PlayRules) -> int:
    """The rank a joker stands for when jokers are played alone (§5.1)."""
    return TWO if rules.laizi_single_value == 2 else 3


def sequence_kinds(rules: PlayRules) -> tuple:
    """(width, type, fewest ranks) of each sequence the rules allow: straights, pairs, triples (§5.2)."""
    kinds = ((2, "linked_pairs", max(rules.min_linked_pairs, 2)),
             (3, "linked_triples", max(rules.min_linked_triples, 2)))
    if rules.allow_straights:
        kinds = ((1, "straight", max(rules.min_straight, 2)),) + kinds
    return kinds
