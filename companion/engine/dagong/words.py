"""大冶打拱's words: what its switches, values, presets, plays, tallies and facts are called on the
pages (engine :class:`~companion.engine.text.Text`, translated by the web layer when shown). A
number that is a rule is a parameter (``{total}``), filled in from its constant when shown
(:func:`numbers`), so that changing the constant changes every word that says it."""
from __future__ import annotations

from ..text import N_
from ..words import GameWords
from . import rules

SWITCHES = {
    "turn_direction": (N_("Direction of play"),
                      N_("Dealing and play go to the right (counter-clockwise) or to the left.")),
    "first_banker": (N_("How the first banker is chosen"),
                    N_("At random, or chosen at the table.")),
    "bid_card_rule": (N_("Which card is shown as the bright card"),
                     N_("How the banker's bright card is picked.")),
    "bid_card_exclude_jokers": (N_("No joker as the bright card"),
                               N_("A joker may not be the bright card.")),
    "dealer_holds_both": (N_("Banker holds both bright cards"),
                         N_("What happens when the banker holds both copies of the bright card.")),
    "shout_allowed": (N_("Shouting allowed"),
                     N_("A player may shout and play alone against the other three.")),
    "shouter_leads": (N_("The shouter leads"),
                     N_("The player who shouted plays first.")),
    "shout_multiplier": (N_("Shout multiplier"),
                        N_("How many times the stake a hand played one against three is worth.")),
    "laizi_single_value": (N_("A joker played alone"),
                          N_("The rank a joker counts as when played by itself.")),
    "three_jokers": (N_("Three jokers together"),
                    N_("What three jokers played together count as.")),
    "four_jokers": (N_("Four jokers together"),
                   N_("What four jokers played together count as.")),
    "max_jokers_in_510k": (N_("Jokers in a 5-10-K"),
                          N_("The most jokers a 5-10-K may contain.")),
    "allow_straights": (N_("Straights allowed"),
                       N_("Runs of single cards may be played.")),
    "min_straight": (N_("Shortest straight"),
                    N_("The fewest cards in a run of single cards.")),
    "min_linked_pairs": (N_("Fewest consecutive pairs"),
                        N_("The fewest pairs in a run of pairs.")),
    "min_linked_triples": (N_("Fewest consecutive triples"),
                          N_("The fewest triples in a run of triples.")),
    "bomb_min": (N_("Smallest bomb"),
                N_("The fewest cards of one rank that make a bomb.")),
    "bomb_vs_510k": (N_("Bombs against 5-10-K"),
                    N_("Whether every bomb beats a 5-10-K, or a 5-10-K beats small bombs.")),
    "hard_beats_soft": (N_("Natural bombs beat joker bombs"),
                       N_("With as many cards, a bomb without jokers beats one with jokers.")),
    "xi_premium": (N_("7- and 8-card bombs on top"),
                  N_("A natural bomb of 7 or 8 cards beats every bomb with jokers.")),
    "gunlong": (N_("Rolling bombs"),
               N_("Two or more bombs of consecutive ranks may be played together and beat every bomb.")),
    "win_threshold": (N_("Points to win"),
                     N_("The points the first player out's team needs to win.")),
    "first_third_always_wins": (N_("First and third always win"),
                               N_("A team with the first and third player out wins whatever its points.")),
    "shutout_multiplier_13_14": (N_("All {total} points taken"),
                                N_("The multiplier when the winners of a first-and-third or first-and-fourth hand took all {total} points.")),
    "early_end_e1": (N_("Early end: second player's points"),
                    N_("The hand stops early when the second player out alone holds enough points.")),
    "e1_fence": (N_("Points for that early end"),
                N_("How many points the second player out needs to end the hand early.")),
    "early_end_e2": (N_("Early end: first player's team"),
                    N_("The hand stops early when the first player out's team holds enough points.")),
    "e2_fence": (N_("Points for the team's early end"),
                N_("How many points the first player out's team needs to end the hand early.")),
    "early_end_e3": (N_("Early end: all {total} points"),
                    N_("The hand stops early when one side already holds all {total} points.")),
    "base_stake": (N_("Base stake"),
                  N_("Every share of a settlement is multiplied by this.")),
    "bonus_xi_qian": (N_("Bomb bonus (喜钱)"),
                     N_("A natural 7-card bomb collects 1 from each other player, an 8-card bomb 2.")),
}

VALUES = {
    ("turn_direction", "ccw"): N_("to the right (counter-clockwise)"),
    ("turn_direction", "cw"): N_("to the left (clockwise)"),
    ("first_banker", "random"): N_("at random"),
    ("first_banker", "manual"): N_("chosen at the table"),
    ("bid_card_rule", "firstDealtToDealer"): N_("the banker's first card"),
    ("bid_card_rule", "random"): N_("a random card of the banker's"),
    ("bid_card_rule", "dealerChooses"): N_("the banker chooses"),
    ("dealer_holds_both", "nextDealtCard"): N_("the next card dealt is shown instead"),
    ("dealer_holds_both", "redeal"): N_("deal again"),
    ("dealer_holds_both", "forceSolo"): N_("the banker plays alone"),
    ("three_jokers", "tripleOfLaiziValue"): N_("a triple of the joker's rank"),
    ("three_jokers", "pure510KSpade"): N_("the top 5-10-K (all spades)"),
    ("four_jokers", "wild"): N_("a bomb of the joker's rank"),
    ("four_jokers", "topBomb"): N_("the top bomb"),
    ("bomb_vs_510k", "bombAbove510K"): N_("every bomb beats a 5-10-K"),
    ("bomb_vs_510k", "510KAboveFourBomb"): N_("a 5-10-K beats bombs of 4 cards or fewer"),
}

PRESETS = {
    "daye": N_("Daye (大冶) tables"),
}

PLAYS = {
    "single": N_("single"), "pair": N_("pair"), "triple": N_("triple"), "straight": N_("straight"),
    "linked_pairs": N_("connected pairs"), "linked_triples": N_("connected triples"), "bomb": N_("bomb"),
    "510k": N_("510K"), "four_jokers": N_("four jokers"), "gunlong": N_("rolling bombs"), "pass": N_("pass"),
}

# a reading's type -> the rules-page paragraph that explains it
PLAY_ANCHORS = {
    "single": "follow", "pair": "follow", "triple": "follow", "linked_pairs": "sequences",
    "linked_triples": "sequences", "straight": "sequences", "510k": "510k", "bomb": "bombs", "gunlong": "bombs",
    "four_jokers": "bombs",
}

TALLIES = {
    "first_out": N_("头游"), "second_out": N_("二游"), "third_out": N_("三游"), "last_out": N_("末游"),
    "arch_half": N_("Won a half arch (半拱)"), "arch_straight": N_("Won a straight arch (直拱)"),
    "arch_dry": N_("Won a dry arch (干带直)"), "shouts_won": N_("Shouts won"), "shouts_lost": N_("Shouts lost"),
    "banker": N_("Hands as banker"), "won": N_("Hands won"), "xi_bombs": N_("喜 bombs played"),
}

# the API's summary groups places ({"places": {"first": 3, …}}) and arches won ({"arch_wins": {"half": 1, …}})
TALLY_GROUPS = {"first_out": ("places", "first"), "second_out": ("places", "second"), "third_out": ("places", "third"),
                "last_out": ("places", "last"), "arch_half": ("arch_wins", "half"),
                "arch_straight": ("arch_wins", "straight"), "arch_dry": ("arch_wins", "dry")}

# facts an engine sentence may quote by their key: shown as the form labels them
FACTS = {
    "players": N_("Players"), "winner": N_("Who went out first?"), "order": N_("Finishing order"),
    "captured": N_("Points captured in tricks"), "last_hand_points": N_("Points left in the last player's hand"),
    "banker": N_("Banker"), "partner": N_("Partner (holds the bright card's twin)"),
    "shout": N_("Who shouted (plays alone, 1 against 3)?"), "bright_card": N_("Bright card (optional, e.g. 7h)"),
    "xi_bombs": N_("Hard 7- or 8-card bombs played (喜), e.g. 7 8"),
}

WORDS = GameWords(switches=SWITCHES, values=VALUES, presets=PRESETS, plays=PLAYS, play_anchors=PLAY_ANCHORS,
                  tallies=TALLIES, facts=FACTS, first_dealer=N_("Who is banker first (optional)"),
                  tally_groups=TALLY_GROUPS, tagged_outcomes=("shout",), numbers=lambda: {"total": rules.TOTAL_POINTS})
