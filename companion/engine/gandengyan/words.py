"""干瞪眼's words: what its switches, values, presets, plays, tallies and facts are called on the
pages (engine :class:`~companion.engine.text.Text`, translated by the web layer when shown)."""
from __future__ import annotations

from ..text import N_
from ..words import GameWords

SWITCHES = {
    "deck_mode": (N_("Number of decks"),
                 N_("How many decks are shuffled together for the number of players.")),
    "first_dealer": (N_("How the first dealer is chosen"),
                    N_("The host's chosen seat, or a random player.")),
    "draw_mode": (N_("Drawing after a trick"),
                 N_("Whether everyone draws a card after each trick, or only its winner.")),
    "triple_follow": (N_("Beating a triple"),
                     N_("Whether a triple must be exactly one rank higher, or any higher triple.")),
    "triple_is_bomb": (N_("Three of a kind is a bomb"),
                      N_("Three cards of one rank count as the smallest bomb.")),
    "joker_bomb": (N_("The two jokers together"),
                  N_("What the small and the big joker played together are worth.")),
    "pure_beats_soft": (N_("Natural bombs beat joker bombs"),
                       N_("A bomb without jokers beats one of the same size made with jokers.")),
    "joker_single": (N_("A joker alone"),
                    N_("A joker may be played by itself, above a 2.")),
    "two_as_last_card": (N_("A 2 as the last card"),
                        N_("Whether a single 2 may be a player's last card.")),
    "joker_doubling": (N_("Jokers left in hand"),
                      N_("How jokers left in a loser's hand multiply what they pay.")),
    "twos_are_trumps": (N_("2s left in hand"),
                       N_("Whether each 2 left in a loser's hand doubles what they pay.")),
    "held_bomb_mult": (N_("Bombs left in hand"),
                      N_("How bombs left in a loser's hand multiply what they pay.")),
    "played_bomb_mult": (N_("Bombs played"),
                        N_("How bombs played during the hand multiply what everyone pays.")),
    "shut_out": (N_("Shut out"),
                N_("What a loser pays who never played a card.")),
    "shut_out_dealer_exception": (N_("Dealer with only the opening lead"),
                                 N_("A dealer whose only play was the opening lead counts as shut out.")),
    "cap": (N_("Upper limit"),
           N_("The most a loser can pay in one hand.")),
    "one_card_exempt": (N_("One card left pays nothing"),
                       N_("A loser holding exactly one card pays nothing.")),
    "long_hand_mult": (N_("Long hands"),
                      N_("Hands that last 20 tricks or more pay double, 30 or more double again.")),
    "unit": (N_("Points per card"),
            N_("How many points each card left in a loser's hand is worth.")),
}

VALUES = {
    ("deck_mode", "source"): N_("1 deck for 2 players, 2 decks for 3 to 6"),
    ("deck_mode", "oneDeck"): N_("always 1 deck"),
    ("deck_mode", "perThree"): N_("1 deck for every 3 players"),
    ("first_dealer", "chosen"): N_("chosen at the table"),
    ("first_dealer", "random"): N_("at random"),
    ("draw_mode", "all"): N_("everyone draws, the trick's winner first"),
    ("draw_mode", "winnerOnly"): N_("only the trick's winner draws"),
    ("triple_follow", "plusOne"): N_("exactly one rank higher"),
    ("triple_follow", "anyHigher"): N_("any higher triple"),
    ("joker_bomb", "off"): N_("not a play"),
    ("joker_bomb", "top"): N_("beat everything"),
    ("joker_bomb", "as3"): N_("the strongest 3-card bomb"),
    ("joker_bomb", "as4"): N_("the strongest 4-card bomb"),
    ("two_as_last_card", "allowed"): N_("allowed"),
    ("two_as_last_card", "forbidden"): N_("not allowed"),
    ("joker_doubling", "once"): N_("double once if any"),
    ("joker_doubling", "perJoker"): N_("double for each joker"),
    ("joker_doubling", "off"): N_("no doubling"),
    ("twos_are_trumps", "off"): N_("no doubling"),
    ("twos_are_trumps", "perTwo"): N_("double for each 2"),
    ("held_bomb_mult", "off"): N_("no doubling"),
    ("held_bomb_mult", "once"): N_("double once"),
    ("held_bomb_mult", "perBomb"): N_("double for each bomb"),
    ("held_bomb_mult", "bySize"): N_("by size: 3 cards ×2, 4 ×4, 5 ×8"),
    ("played_bomb_mult", "off"): N_("no doubling"),
    ("played_bomb_mult", "double"): N_("double for each bomb"),
    ("played_bomb_mult", "bySize"): N_("by size: 3 cards ×2, 4 ×4, 5 ×8, 6 ×16"),
    ("played_bomb_mult", "linear"): N_("one more share for each bomb"),
    ("shut_out", "off"): N_("nothing extra"),
    ("shut_out", "double"): N_("pays double"),
    ("shut_out", "fixed20"): N_("pays 20, plus 10 for each bomb"),
    ("shut_out", "threshold:5"): N_("double for anyone left with 5 cards or more"),
    ("cap", "none"): N_("no limit"),
    ("cap", "perLoser:20"): N_("no loser pays more than 20"),
    ("cap", "multiplier:64"): N_("the multiplier stops at 64"),
    ("long_hand_mult", "off"): N_("no"),
    ("long_hand_mult", "on"): N_("yes"),
}

PRESETS = {
    "source": N_("The rules as written (standard)"),
    "qq": N_("QQ game tables (one deck, jokers on top)"),
    "m2": N_("High-stakes tables (bombs multiply by size)"),
    "xiangshan": N_("Xiangshan (象山) tables"),
}

PLAYS = {
    "single": N_("single"), "pair": N_("pair"), "triple": N_("triple"), "straight": N_("straight"),
    "connected_pairs": N_("connected pairs"), "bomb": N_("bomb"), "joker_bomb": N_("joker bomb"), "pass": N_("pass"),
}

# a reading's type -> the rules-page paragraph that explains it
PLAY_ANCHORS = {
    "single": "follow", "pair": "follow", "triple": "follow", "straight": "sequences",
    "connected_pairs": "sequences", "bomb": "bombs", "joker_bomb": "bombs",
}

TALLIES = {
    "won": N_("Hands won"), "shut_out": N_("Shut out (春天)"), "jokers": N_("Jokers held at the end"),
    "bombs_held": N_("Bombs held at the end"),
}

# facts an engine sentence may quote by their key: shown as the form labels them
FACTS = {
    "bombs_played": N_("Bombs played this hand"), "tricks": N_("Number of tricks played"),
    "players": N_("Players"), "winner": N_("Who went out first?"), "dealer": N_("Dealer of this hand"),
}

WORDS = GameWords(switches=SWITCHES, values=VALUES, presets=PRESETS, plays=PLAYS, play_anchors=PLAY_ANCHORS,
                  tallies=TALLIES, facts=FACTS, first_dealer=N_("Who deals first (optional)"))
