"""The rules of a 干瞪眼 table in sentences, from its switch values (rules file §3, §4).

:func:`rule_sentences` gives, for every switch, the one sentence that states what the table's
actual value means, the anchor of the rules-page paragraph it belongs to, and the rules file
paragraph it comes from. The rules page prints these sentences instead of prose that could
contradict a table's switches (a 象山 table: only the trick winner draws, a joker may be played
alone).

A sentence is written for the whole rule set: where another switch changes what it must say (the
two jokers a bomb while a joker is never played alone; triples that are bombs), :data:`_REFINED`
chooses the words. Each sentence carries a worked example the engine itself settles or checks at
this table (:func:`example_of`): the figures a player reads are the engine's answer, never a
second copy of a rule."""
from __future__ import annotations

from functools import lru_cache

from ..sentences import rule_sentences_from
from ..text import N_, Text
from .check import check
from .facts import CARDS_PER_DECK, most_cards_left
from .rules import HAND_DEALT, SWITCHES, Rules, as_rules, decks
from .settle import settle

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


# Sentences that depend on other switches: (switch, value) -> rules -> the sentence (None: the table's).
def _triple_follow(words: Text):
    return lambda rules: _TRIPLE_BOMB_FOLLOW if rules.triple_is_bomb else words


def _with_joker_bomb(words: Text):
    return lambda rules: words if rules.joker_bomb != "off" else None


def _bomb_count(words: Text, joker_words: Text):
    """A sentence that says how 炸数 counts (§8 S11: the smallest kind of bomb counts 1)."""
    def sentence(rules: Rules) -> Text:
        if rules.joker_bomb == "off":
            return Text(words.template, {"n": rules.min_bomb})
        as_size = 3 if rules.joker_bomb == "as3" else 4
        return Text(joker_words.template, {"n": rules.min_bomb, "j": as_size})
    return sentence


def _when_shut_out_counts(rules: Rules):
    return None if rules.shut_out in ("double", "fixed20") else _NO_SHUT_OUT


_TRIPLE_BOMB_FOLLOW = N_("Three of a kind is a bomb at this table, so it is beaten as a bomb is: by three of a "
                         "kind of any higher rank, or by a longer bomb.")
_NO_SHUT_OUT = N_("Nobody pays extra for being shut out at this table, so a dealer's opening lead changes "
                  "nothing.")
_LINEAR = N_("Every loser pays ×(1 + 炸数), where 炸数 counts the bombs played by size: a bomb of {n} cards "
             "counts 1 and each card more counts 1 more.")
_LINEAR_JOKERS = N_("Every loser pays ×(1 + 炸数), where 炸数 counts the bombs played by size: a bomb of {n} "
                    "cards counts 1, each card more counts 1 more, and the two jokers count as a bomb of {j}.")
_FIXED20 = N_("A loser who never played (shut out, 全关) pays 20 + 10 × 炸数 instead of the cards, where 炸数 "
              "counts the bombs played by size: a bomb of {n} cards counts 1 and each card more counts 1 more.")
_FIXED20_JOKERS = N_("A loser who never played (shut out, 全关) pays 20 + 10 × 炸数 instead of the cards, where "
                     "炸数 counts the bombs played by size: a bomb of {n} cards counts 1, each card more counts 1 "
                     "more, and the two jokers count as a bomb of {j}.")

_REFINED = {
    ("triple_follow", "plusOne"): _triple_follow(N_("A triple is beaten only by the triple exactly one rank "
                                                    "higher, by 2 2 2, or by a bomb.")),
    ("triple_follow", "anyHigher"): _triple_follow(N_("A triple is beaten by any higher triple, or by a bomb.")),
    ("triple_is_bomb", False): _with_joker_bomb(N_("Three of a kind is an ordinary triple; a bomb needs four or "
                                                   "more cards of one rank, or is the small and big joker "
                                                   "together.")),
    ("joker_single", False): _with_joker_bomb(N_("A joker is never played alone: apart from the small and big "
                                                 "joker together, every play needs at least one natural card, "
                                                 "and only a bomb beats a 2.")),
    ("played_bomb_mult", "linear"): _bomb_count(_LINEAR, _LINEAR_JOKERS),
    ("shut_out", "fixed20"): _bomb_count(_FIXED20, _FIXED20_JOKERS),
    ("shut_out_dealer_exception", False): _when_shut_out_counts,
    ("shut_out_dealer_exception", True): _when_shut_out_counts,
}

# --- worked examples: a concrete hand the engine settles, or a play it checks, at this table ------

_EXAMPLE_PLAYS = {  # switch -> (the table's play, the play that follows, the play empties the hand)
    "triple_follow": ("5 5 5", "7 7 7", False),
    "triple_is_bomb": ("8 8", "3 3 3", False),
    "joker_bomb": ("2", "SJ BJ", False),
    "pure_beats_soft": ("7 7 7 JK", "6 6 6 6", False),
    "joker_single": ("2", "JK", False),
    "two_as_last_card": ("A", "2", True),
}
_PLAYERS = ("A", "B", "C", "D")
_SETTLED = ("joker_doubling", "twos_are_trumps", "held_bomb_mult", "played_bomb_mult", "shut_out",
            "shut_out_dealer_exception", "cap", "one_card_exempt", "long_hand_mult", "unit")
_E_PLAY = N_("{top} → {play}: {reason}")  # the arrow points the other way in Arabic
_E_SETTLED = N_("{facts} → {step}")
_E_DECKS = N_("For example, {players} players use {decks} × {cards} cards.")
_E_DRAWS = N_("For example, with {players} players a loser ends the hand with at most {cards} cards.")
_F_CARDS = N_("cards left: {cards}")
_F_JOKERS = N_("jokers held: {jokers}")
_F_TWOS = N_("2s held: {twos}")
_F_HELD = N_("bombs held: {sizes}")
_F_PLAYED = N_("bombs played: {sizes}")
_F_NEVER = N_("never played")
_F_OPENING = N_("dealer, only the opening lead")
_F_TRICKS = N_("tricks: {tricks}")


def example_hand(key: str, rules: Rules) -> dict:
    """The hand that shows what ``key`` does at this table: A goes out, B is the loser to read (C
    and D hold one card each), built within this table's deal (:func:`most_cards_left`)."""
    most = most_cards_left(rules, len(_PLAYERS))
    bombs = [rules.min_bomb, 5]
    b = {"cards": min(3, most)}
    facts: dict = {"bombs_played": []}
    if key == "joker_doubling":
        b = {"cards": 4, "jokers": 2}
    elif key == "twos_are_trumps":
        b = {"cards": 4, "twos": 2}
    elif key == "held_bomb_mult":
        b = {"cards": min(most, 9), "jokers": 1, "held_bombs": [4]}
    elif key == "played_bomb_mult":
        facts["bombs_played"] = bombs
    elif key == "shut_out":
        threshold = rules.shut_out.partition(":")[2]
        b = {"cards": min(most, int(threshold))} if threshold else {"cards": HAND_DEALT, "played": False}
        facts["bombs_played"] = bombs
    elif key == "shut_out_dealer_exception":
        b = {"cards": 4, "dealer_only_opening": True}
        facts["dealer"] = "B"
    elif key == "cap":
        b = {"cards": min(most, 21), "jokers": 2}
    elif key == "one_card_exempt":
        b = {"cards": 1}
    elif key == "long_hand_mult":
        facts["tricks"] = 31
    losers = {"B": b, "C": {"cards": 1}, "D": {"cards": 1}}
    return {"players": list(_PLAYERS), "winner": "A", "losers": losers, **facts}


def _facts_words(facts: dict) -> Text:
    b = facts["losers"]["B"]
    words = [Text(_F_CARDS.template, {"cards": b["cards"]})]
    for key, template in (("jokers", _F_JOKERS), ("twos", _F_TWOS)):
        if b.get(key):
            words.append(Text(template.template, {key: b[key]}))
    if b.get("held_bombs"):
        words.append(Text(_F_HELD.template, {"sizes": " ".join(map(str, b["held_bombs"]))}))
    if b.get("played") is False:
        words.append(_F_NEVER)
    if b.get("dealer_only_opening"):
        words.append(_F_OPENING)
    if facts.get("bombs_played"):
        words.append(Text(_F_PLAYED.template, {"sizes": " ".join(map(str, facts["bombs_played"]))}))
    if facts.get("tricks"):
        words.append(Text(_F_TRICKS.template, {"tricks": facts["tricks"]}))
    return Text(", ".join("{f%d}" % i for i in range(len(words))), {f"f{i}": w for i, w in enumerate(words)})


def example_of(key: str, rules: Rules) -> Text | None:
    """The worked example of ``key``'s sentence at this table, in the engine's own words: a hand
    :func:`.settle.settle` pays (B's line), a play :func:`.check.check` judges, or the deal's
    figures (:func:`.rules.decks`, :func:`.facts.most_cards_left`). None: nothing to show."""
    if key in _EXAMPLE_PLAYS:
        top, play, last = _EXAMPLE_PLAYS[key]
        verdict = check(top, play, rules, last_card=last)
        return Text(_E_PLAY.template, {"top": top, "play": play, "reason": verdict.reason})
    if key in _SETTLED:
        facts = example_hand(key, rules)
        step = settle(facts, rules).steps[0]  # B's line: the first loser in seat order
        return Text(_E_SETTLED.template, {"facts": _facts_words(facts), "step": step})
    players = len(_PLAYERS)
    if key == "deck_mode":
        return Text(_E_DECKS.template, {"players": players, "decks": decks(rules, players), "cards": CARDS_PER_DECK})
    if key == "draw_mode":
        return Text(_E_DRAWS.template, {"players": players, "cards": most_cards_left(rules, players)})
    return None


def rule_sentences(rules: Rules = None) -> tuple:
    """One :class:`RuleSentence` per switch, in the switches' order, saying what this table's
    value of it means."""
    return _sentences(as_rules(rules))


@lru_cache(maxsize=64)
def _sentences(rules: Rules) -> tuple:
    return rule_sentences_from(_SENTENCES, SWITCHES, rules, _REFINED, example_of)
