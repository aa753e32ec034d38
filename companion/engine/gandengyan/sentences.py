"""The rules of a 干瞪眼 table in sentences, from its switch values (rules file §3, §4).

:func:`rule_sentences` gives, for every switch, the one sentence that states what the table's
actual value means, the anchor of the rules-page paragraph it belongs to, and the rules file
paragraph it comes from. The rules page prints these sentences instead of prose that could
contradict a table's switches (a 象山 table: only the trick winner draws, a joker may be played
alone)."""
from __future__ import annotations

from ..sentences import rule_sentences_from
from ..text import N_
from .rules import SWITCHES, Rules, as_rules

# (switch, value) -> (rules-page anchor, rules-file paragraph, sentence). A value "word:" takes the
# number after the colon as {n}; the unit takes any number.
_SENTENCES = {
    ("deck_mode", "source"): ("deal", "§3.1", N_("Decks: two players use one deck (54 cards, 2 jokers); three or "
                                                  "more use two decks (108 cards, 4 jokers).")),
    ("deck_mode", "oneDeck"): ("deal", "§3.1", N_("Decks: one deck of 54 cards (2 jokers), however many play.")),
    ("deck_mode", "perThree"): ("deal", "§3.1", N_("Decks: one deck of 54 cards for every three players or part "
                                                    "of three.")),
    ("first_dealer", "chosen"): ("deal", "§3.2", N_("The first dealer is the seat chosen at the table; after that "
                                                     "the winner of each hand deals.")),
    ("first_dealer", "random"): ("deal", "§3.2", N_("The first dealer is drawn at random; after that the winner of "
                                                     "each hand deals.")),
    ("draw_mode", "all"): ("turns", "§3.3", N_("After each trick everyone draws one card from the stock, starting "
                                               "with the trick's winner.")),
    ("draw_mode", "winnerOnly"): ("turns", "§3.3", N_("After each trick only the trick's winner draws one card from "
                                                      "the stock; nobody else draws.")),
    ("triple_follow", "plusOne"): ("follow", "§3.7", N_("A triple is beaten only by the triple exactly one rank "
                                                         "higher, or by 2 2 2.")),
    ("triple_follow", "anyHigher"): ("follow", "§3.7", N_("A triple is beaten by any higher triple.")),
    ("triple_is_bomb", False): ("bombs", "§3.6", N_("Three of a kind is an ordinary triple; a bomb needs four or "
                                                    "more cards of one rank.")),
    ("triple_is_bomb", True): ("bombs", "§3.6", N_("Three of a kind is a bomb, the smallest kind of bomb.")),
    ("joker_bomb", "off"): ("bombs", "§3.5", N_("The small and big joker together are not a play.")),
    ("joker_bomb", "top"): ("bombs", "§3.5", N_("The small and big joker together are a bomb that beats "
                                                "everything.")),
    ("joker_bomb", "as3"): ("bombs", "§3.5", N_("The small and big joker together are the strongest 3-card bomb.")),
    ("joker_bomb", "as4"): ("bombs", "§3.5", N_("The small and big joker together are the strongest 4-card bomb.")),
    ("pure_beats_soft", False): ("bombs", "§3.7", N_("A bomb made with jokers is as strong as a natural bomb of the "
                                                     "same size and rank.")),
    ("pure_beats_soft", True): ("bombs", "§3.7", N_("A natural bomb beats a bomb of the same size made with "
                                                    "jokers.")),
    ("joker_single", False): ("jokers", "§3.5", N_("A joker is never played alone: every play needs at least one "
                                                   "natural card, and only a bomb beats a 2.")),
    ("joker_single", True): ("jokers", "§3.5", N_("A joker may be played alone, as a single above 2; only a bomb "
                                                  "beats it.")),
    ("two_as_last_card", "allowed"): ("end", "§3.7", N_("A single 2 may be a player's last card.")),
    ("two_as_last_card", "forbidden"): ("end", "§3.7", N_("A single 2 may not be a player's last card.")),
    ("joker_doubling", "once"): ("pay", "§3.8", N_("A loser holding any joker pays ×2.")),
    ("joker_doubling", "perJoker"): ("pay", "§3.8", N_("A loser pays ×2 for each joker held.")),
    ("joker_doubling", "off"): ("pay", "§3.8", N_("Jokers held do not change what a loser pays.")),
    ("twos_are_trumps", "off"): ("pay", "§4", N_("2s held do not change what a loser pays.")),
    ("twos_are_trumps", "perTwo"): ("pay", "§4", N_("A loser pays ×2 for each 2 held.")),
    ("held_bomb_mult", "off"): ("pay", "§4", N_("Bombs held do not change what a loser pays.")),
    ("held_bomb_mult", "once"): ("pay", "§4", N_("A loser holding a bomb pays ×2, but not on top of the joker "
                                                 "×2.")),
    ("held_bomb_mult", "perBomb"): ("pay", "§4", N_("A loser pays ×2 for each bomb held.")),
    ("held_bomb_mult", "bySize"): ("pay", "§4", N_("A loser pays for each bomb held: ×2 for 3 cards, ×4 for 4, "
                                                   "×8 for 5.")),
    ("played_bomb_mult", "off"): ("pay", "§4", N_("Bombs played during the hand do not change the pay.")),
    ("played_bomb_mult", "double"): ("pay", "§4", N_("Every loser pays ×2 for each bomb played during the hand.")),
    ("played_bomb_mult", "bySize"): ("pay", "§4", N_("Every loser pays for each bomb played: ×2 for 3 cards, ×4 "
                                                     "for 4, ×8 for 5, ×16 for 6.")),
    ("played_bomb_mult", "linear"): ("pay", "§4", N_("Every loser pays ×(1 + the number of bombs played, "
                                                     "炸数).")),
    ("shut_out", "off"): ("pay", "§4", N_("A loser who never played pays like any other loser.")),
    ("shut_out", "double"): ("pay", "§4", N_("A loser who never played (shut out, 全关) pays ×2.")),
    ("shut_out", "fixed20"): ("pay", "§4", N_("A loser who never played (shut out, 全关) pays 20 + 10 for each "
                                              "bomb played (炸数) instead of the cards.")),
    ("shut_out", "threshold:"): ("pay", "§4", N_("A loser left with {n} or more cards pays ×2.")),
    ("shut_out_dealer_exception", False): ("pay", "§4", N_("A dealer whose only play was the opening lead is not "
                                                           "shut out.")),
    ("shut_out_dealer_exception", True): ("pay", "§4", N_("A dealer whose only play was the opening lead counts as "
                                                          "shut out.")),
    ("cap", "none"): ("pay", "§4", N_("There is no upper limit on what a loser pays.")),
    ("cap", "perLoser:"): ("pay", "§4", N_("No loser pays more than {n} times the unit.")),
    ("cap", "multiplier:"): ("pay", "§4", N_("A loser's multiple, cards included, is at most {n}.")),
    ("one_card_exempt", False): ("pay", "§4", N_("A loser holding one card pays for it like any other.")),
    ("one_card_exempt", True): ("pay", "§4", N_("A loser holding exactly one card (报警) pays nothing.")),
    ("long_hand_mult", "off"): ("pay", "§4", N_("The length of the hand does not change the pay.")),
    ("long_hand_mult", "on"): ("pay", "§4", N_("From trick 20 every loser pays ×2, and ×2 again from trick 30.")),
    ("unit", None): ("pay", "§4", N_("Points per card left: {n}.")),
}


def rule_sentences(rules: Rules = None) -> tuple:
    """One :class:`RuleSentence` per switch, in the switches' order, saying what this table's
    value of it means."""
    return rule_sentences_from(_SENTENCES, SWITCHES, as_rules(rules))
