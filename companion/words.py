"""Words, not codes: what each house-rule switch, value and preset is called on the pages.

The engine's ``SWITCHES`` give the keys and values (and an English help line the API keeps); the
web layer gives the words a player reads, in every language (``_l``: translated when shown).
A switch or value the engine adds later, and this table does not know yet, falls back to the
engine's own help line and a readable form of its key, never to a bare code.
"""
from __future__ import annotations

import re

from flask_babel import lazy_gettext as _l

# key: (label, one-line explanation)
SWITCHES = {
    # 干瞪眼
    "deck_mode": (_l("Number of decks"), _l("How many decks are shuffled together for the number of players.")),
    "first_dealer": (_l("How the first dealer is chosen"), _l("The host's chosen seat, or a random player.")),
    "draw_mode": (_l("Drawing after a trick"), _l("Whether everyone draws a card after each trick, or only its winner.")),
    "triple_follow": (_l("Beating a triple"), _l("Whether a triple must be exactly one rank higher, or any higher triple.")),
    "triple_is_bomb": (_l("Three of a kind is a bomb"), _l("Three cards of one rank count as the smallest bomb.")),
    "joker_bomb": (_l("The two jokers together"), _l("What the small and the big joker played together are worth.")),
    "pure_beats_soft": (_l("Natural bombs beat joker bombs"), _l("A bomb without jokers beats one of the same size made with jokers.")),
    "joker_single": (_l("A joker alone"), _l("A joker may be played by itself, above a 2.")),
    "two_as_last_card": (_l("A 2 as the last card"), _l("Whether a single 2 may be a player's last card.")),
    "joker_doubling": (_l("Jokers left in hand"), _l("How jokers left in a loser's hand multiply what they pay.")),
    "twos_are_trumps": (_l("2s left in hand"), _l("Whether each 2 left in a loser's hand doubles what they pay.")),
    "held_bomb_mult": (_l("Bombs left in hand"), _l("How bombs left in a loser's hand multiply what they pay.")),
    "played_bomb_mult": (_l("Bombs played"), _l("How bombs played during the hand multiply what everyone pays.")),
    "shut_out": (_l("Shut out"), _l("What a loser pays who never played a card.")),
    "shut_out_dealer_exception": (_l("Dealer with only the opening lead"),
                                  _l("A dealer whose only play was the opening lead counts as shut out.")),
    "cap": (_l("Upper limit"), _l("The most a loser can pay in one hand.")),
    "one_card_exempt": (_l("One card left pays nothing"), _l("A loser holding exactly one card pays nothing.")),
    "long_hand_mult": (_l("Long hands"), _l("Hands that last 20 tricks or more pay double, 30 or more double again.")),
    "unit": (_l("Points per card"), _l("How many points each card left in a loser's hand is worth.")),
    # 大冶打拱
    "turn_direction": (_l("Direction of play"), _l("Dealing and play go to the right (counter-clockwise) or to the left.")),
    "first_banker": (_l("How the first banker is chosen"), _l("At random, or chosen at the table.")),
    "bid_card_rule": (_l("Which card is shown as the bright card"), _l("How the banker's bright card is picked.")),
    "bid_card_exclude_jokers": (_l("No joker as the bright card"), _l("A joker may not be the bright card.")),
    "dealer_holds_both": (_l("Banker holds both bright cards"), _l("What happens when the banker holds both copies of the bright card.")),
    "shout_allowed": (_l("Shouting allowed"), _l("A player may shout and play alone against the other three.")),
    "shouter_leads": (_l("The shouter leads"), _l("The player who shouted plays first.")),
    "shout_multiplier": (_l("Shout multiplier"), _l("How many times the stake a hand played one against three is worth.")),
    "laizi_single_value": (_l("A joker played alone"), _l("The rank a joker counts as when played by itself.")),
    "three_jokers": (_l("Three jokers together"), _l("What three jokers played together count as.")),
    "four_jokers": (_l("Four jokers together"), _l("What four jokers played together count as.")),
    "max_jokers_in_510k": (_l("Jokers in a 5-10-K"), _l("The most jokers a 5-10-K may contain.")),
    "allow_straights": (_l("Straights allowed"), _l("Runs of single cards may be played.")),
    "min_straight": (_l("Shortest straight"), _l("The fewest cards in a run of single cards.")),
    "min_linked_pairs": (_l("Fewest consecutive pairs"), _l("The fewest pairs in a run of pairs.")),
    "min_linked_triples": (_l("Fewest consecutive triples"), _l("The fewest triples in a run of triples.")),
    "bomb_min": (_l("Smallest bomb"), _l("The fewest cards of one rank that make a bomb.")),
    "bomb_vs_510k": (_l("Bombs against 5-10-K"), _l("Whether every bomb beats a 5-10-K, or a 5-10-K beats small bombs.")),
    "hard_beats_soft": (_l("Natural bombs beat joker bombs"), _l("With as many cards, a bomb without jokers beats one with jokers.")),
    "xi_premium": (_l("7- and 8-card bombs on top"), _l("A natural bomb of 7 or 8 cards beats every bomb with jokers.")),
    "gunlong": (_l("Rolling bombs"), _l("Two or more bombs of consecutive ranks may be played together and beat every bomb.")),
    "win_threshold": (_l("Points to win"), _l("The points the first player out's team needs to win.")),
    "first_third_always_wins": (_l("First and third always win"), _l("A team with the first and third player out wins whatever its points.")),
    "shutout_multiplier_13_14": (_l("All 200 points taken"), _l("The multiplier when the winners of a first-and-third or first-and-fourth hand took all 200 points.")),
    "early_end_e1": (_l("Early end: second player's points"), _l("The hand stops early when the second player out alone holds enough points.")),
    "e1_fence": (_l("Points for that early end"), _l("How many points the second player out needs to end the hand early.")),
    "early_end_e2": (_l("Early end: first player's team"), _l("The hand stops early when the first player out's team holds enough points.")),
    "e2_fence": (_l("Points for the team's early end"), _l("How many points the first player out's team needs to end the hand early.")),
    "early_end_e3": (_l("Early end: all 200 points"), _l("The hand stops early when one side already holds all 200 points.")),
    "base_stake": (_l("Base stake"), _l("Every share of a settlement is multiplied by this.")),
    "bonus_xi_qian": (_l("Bomb bonus (喜钱)"), _l("A natural 7-card bomb collects 1 from each other player, an 8-card bomb 2.")),
}

# (key, value): the value's words; booleans of every switch are "yes" / "no"
VALUES = {
    ("deck_mode", "source"): _l("1 deck for 2 players, 2 decks for 3 to 6"),
    ("deck_mode", "oneDeck"): _l("always 1 deck"),
    ("deck_mode", "perThree"): _l("1 deck for every 3 players"),
    ("first_dealer", "chosen"): _l("chosen at the table"),
    ("first_dealer", "random"): _l("at random"),
    ("draw_mode", "all"): _l("everyone draws, the trick's winner first"),
    ("draw_mode", "winnerOnly"): _l("only the trick's winner draws"),
    ("triple_follow", "plusOne"): _l("exactly one rank higher"),
    ("triple_follow", "anyHigher"): _l("any higher triple"),
    ("joker_bomb", "off"): _l("not a play"),
    ("joker_bomb", "top"): _l("beat everything"),
    ("joker_bomb", "as3"): _l("the strongest 3-card bomb"),
    ("joker_bomb", "as4"): _l("the strongest 4-card bomb"),
    ("two_as_last_card", "allowed"): _l("allowed"),
    ("two_as_last_card", "forbidden"): _l("not allowed"),
    ("joker_doubling", "once"): _l("double once if any"),
    ("joker_doubling", "perJoker"): _l("double for each joker"),
    ("joker_doubling", "off"): _l("no doubling"),
    ("twos_are_trumps", "off"): _l("no doubling"),
    ("twos_are_trumps", "perTwo"): _l("double for each 2"),
    ("held_bomb_mult", "off"): _l("no doubling"),
    ("held_bomb_mult", "once"): _l("double once"),
    ("held_bomb_mult", "perBomb"): _l("double for each bomb"),
    ("held_bomb_mult", "bySize"): _l("by size: 3 cards ×2, 4 ×4, 5 ×8"),
    ("played_bomb_mult", "off"): _l("no doubling"),
    ("played_bomb_mult", "double"): _l("double for each bomb"),
    ("played_bomb_mult", "bySize"): _l("by size: 3 cards ×2, 4 ×4, 5 ×8, 6 ×16"),
    ("played_bomb_mult", "linear"): _l("one more share for each bomb"),
    ("shut_out", "off"): _l("nothing extra"),
    ("shut_out", "double"): _l("pays double"),
    ("shut_out", "fixed20"): _l("pays 20, plus 10 for each bomb"),
    ("shut_out", "threshold:5"): _l("double for anyone left with 5 cards or more"),
    ("cap", "none"): _l("no limit"),
    ("cap", "perLoser:20"): _l("no loser pays more than 20"),
    ("cap", "multiplier:64"): _l("the multiplier stops at 64"),
    ("long_hand_mult", "off"): _l("no"),
    ("long_hand_mult", "on"): _l("yes"),
    ("turn_direction", "ccw"): _l("to the right (counter-clockwise)"),
    ("turn_direction", "cw"): _l("to the left (clockwise)"),
    ("first_banker", "random"): _l("at random"),
    ("first_banker", "manual"): _l("chosen at the table"),
    ("bid_card_rule", "firstDealtToDealer"): _l("the banker's first card"),
    ("bid_card_rule", "random"): _l("a random card of the banker's"),
    ("bid_card_rule", "dealerChooses"): _l("the banker chooses"),
    ("dealer_holds_both", "nextDealtCard"): _l("the next card dealt is shown instead"),
    ("dealer_holds_both", "redeal"): _l("deal again"),
    ("dealer_holds_both", "forceSolo"): _l("the banker plays alone"),
    ("three_jokers", "tripleOfLaiziValue"): _l("a triple of the joker's rank"),
    ("three_jokers", "pure510KSpade"): _l("the top 5-10-K (all spades)"),
    ("four_jokers", "wild"): _l("a bomb of the joker's rank"),
    ("four_jokers", "topBomb"): _l("the top bomb"),
    ("bomb_vs_510k", "bombAbove510K"): _l("every bomb beats a 5-10-K"),
    ("bomb_vs_510k", "510KAboveFourBomb"): _l("a 5-10-K beats bombs of 4 cards or fewer"),
}

# presets, named for the tables that play them
PRESETS = {
    "source": _l("The rules as written (standard)"),
    "qq": _l("QQ game tables (one deck, jokers on top)"),
    "m2": _l("High-stakes tables (bombs multiply by size)"),
    "xiangshan": _l("Xiangshan (象山) tables"),
    "daye": _l("Daye (大冶) tables"),
}

YES, NO = _l("yes"), _l("no")

# fact names an engine sentence may quote: shown as the form labels them
FIELDS = {
    "bombs_played": _l("Bombs played this hand"), "tricks": _l("Number of tricks played"),
    "players": _l("Players"), "winner": _l("Who went out first?"), "dealer": _l("Dealer of this hand"),
    "order": _l("Finishing order"), "captured": _l("Points captured in tricks"),
    "last_hand_points": _l("Points left in the last player's hand"), "banker": _l("Banker"),
    "partner": _l("Partner (holds the bright card's twin)"), "shout": _l("Who shouted (plays alone, 1 against 3)?"),
    "bright_card": _l("Bright card (optional, e.g. 7h)"), "xi_bombs": _l("Hard 7- or 8-card bombs played (喜), e.g. 7 8"),
}


def field_words(message):
    """An engine sentence whose parameters name a fact by its code, with the form's label instead."""
    from .engine.text import Text

    if not isinstance(message, Text) or not any(isinstance(v, str) and v in FIELDS for v in message.params.values()):
        return message
    params = {k: (str(FIELDS[v]) if isinstance(v, str) and v in FIELDS else v) for k, v in message.params.items()}
    return Text(message.template, params, message.plural, message.count)


def _readable(code) -> str:
    """A last resort for a key or value this table does not know: words, not camelCase."""
    text = re.sub(r"(?<=[a-z])(?=[A-Z])", " ", str(code)).replace("_", " ").replace(":", " ")
    return text.strip().lower()


def switch_label(key: str, switch=None) -> str:
    words = SWITCHES.get(key)
    return str(words[0]) if words else _readable(key)


def switch_help(key: str, switch=None) -> str:
    from .i18n import tr

    words = SWITCHES.get(key)
    if words:
        return str(words[1])
    return tr(switch.help) if switch is not None else ""


def value_label(key: str, value) -> str:
    if isinstance(value, bool):
        return str(YES if value else NO)
    words = VALUES.get((key, value))
    return str(words) if words is not None else _readable(value)


def preset_label(name: str) -> str:
    words = PRESETS.get(name)
    return str(words) if words is not None else _readable(name)


def preset_choices(module) -> list:
    """(code, words) of a game's presets, without the one that only repeats the standard rules
    (the pages offer that as "Standard rules")."""
    standard = module.rules_from_dict(None)
    return [(p, preset_label(p)) for p in module.PRESETS if module.rules_from_dict(None, preset=p) != standard]


def rule_sentence(key: str, value) -> str:
    """One line of the table page's house rules: "Number of decks: always 1 deck"."""
    from flask_babel import gettext

    return gettext("%(switch)s: %(value)s", switch=switch_label(key), value=value_label(key, value))


def init_app(app) -> None:
    app.jinja_env.globals.update(switch_label=switch_label, switch_help=switch_help, value_label=value_label,
                                 preset_label=preset_label, rule_sentence=rule_sentence)
