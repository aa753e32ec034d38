"""干瞪眼 rules engine: every worked example of shared/rules/gandengyan.md (§7 legality, §8
settlements), presets (§5), validation (§9), and properties."""
import dataclasses

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from companion.engine import gandengyan as g
from companion.engine.cards import CardError, parse_cards
from companion.engine.public import FactsError, Reading, RulesError, Text, Verdict, rules_to_dict


def rules(**switches):
    return g.rules_from_dict(switches) if switches else g.Rules()


# --------------------------------------------------------------------------------------------
# §7: the 48 rule-checking examples. (number, top, candidate, switches, players, legal, code)
# players=3 where the example says "108 deck"; None = default (2 decks assumed).

EXAMPLES = [
    (1, "7", "8", {}, None, True, "ok"),
    (2, "7", "9", {}, None, False, "not_one_higher"),
    (3, "7", "7", {}, None, False, "not_one_higher"),
    (4, "7", "6", {}, None, False, "not_one_higher"),
    (5, "7", "2", {}, None, True, "ok"),
    (6, "A", "2", {}, None, True, "ok"),
    (7, "2", "2", {}, 3, False, "only_bomb_beats_two"),
    (8, "2", "3", {}, None, False, "only_bomb_beats_two"),
    (9, "7", "JK", {}, None, False, "joker_alone"),
    (10, "7", "8 JK", {}, None, False, "type_mismatch"),
    (11, "5 5", "6 6", {}, None, True, "ok"),
    (12, "5 5", "7 7", {}, None, False, "not_one_higher"),
    (13, "5 5", "6 JK", {}, None, True, "ok"),
    (14, "5 5", "2 2", {}, None, True, "ok"),
    (15, "5 5", "2 JK", {}, None, False, "joker_as_two"),
    (16, "2 2", "2 2", {}, 3, False, "only_bomb_beats_two"),
    (17, "5 5", "SJ BJ", {}, None, False, "joker_only"),
    ("17-top", "5 5", "SJ BJ", {"jokerBomb": "top"}, None, True, "ok"),
    ("17-as3", "5 5", "SJ BJ", {"jokerBomb": "as3"}, None, True, "ok"),
    ("17-as4", "5 5", "SJ BJ", {"jokerBomb": "as4"}, None, True, "ok"),
    (18, "8 8 8", "9 9 9", {}, None, True, "ok"),
    (19, "8 8 8", "J J J", {}, None, False, "not_one_higher"),
    ("19-anyHigher", "8 8 8", "J J J", {"tripleFollow": "anyHigher"}, None, True, "ok"),
    ("19-tripleIsBomb", "8 8 8", "J J J", {"tripleIsBomb": True}, None, True, "ok"),
    (20, "8 8 8", "2 2 2", {}, None, True, "ok"),
    (21, "8 8 8", "9 9 JK", {}, None, True, "ok"),
    (22, "8 8 8", "4 4 4 4", {}, None, True, "ok"),
    (23, "4 5 6", "5 6 7", {}, None, True, "ok"),
    (24, "4 5 6", "6 7 8", {}, None, False, "not_one_higher"),
    (25, "4 5 6", "5 6 7 8", {}, None, False, "length_mismatch"),
    (26, "4 5 6", "5 6 JK", {}, None, True, "ok"),
    (27, "4 5 6", "5 JK 7", {}, None, True, "ok"),
    (28, "Q K A", "K A 2", {}, None, False, "two_in_sequence"),
    (29, None, "A 2 3", {}, None, False, "two_in_sequence"),
    (30, None, "3 4", {}, None, False, "not_a_combination"),
    (31, "3 3 4 4", "4 4 5 5", {}, None, True, "ok"),
    (32, "3 3 4 4", "4 4 5 5 6 6", {}, None, False, "length_mismatch"),
    (33, "3 3 4 4", "4 4 5 JK", {}, None, True, "ok"),
    (34, "K K A A", "A A 2 2", {}, None, False, "two_in_sequence"),
    (35, "9", "6 6 6 6", {}, None, True, "ok"),
    (36, "2", "3 3 3 3", {}, None, True, "ok"),
    (37, "6 6 6 6", "7 7 7 7", {}, None, True, "ok"),
    (38, "6 6 6 6", "5 5 5 5", {}, None, False, "bomb_too_small"),
    (39, "7 7 7 7", "6 6 6 JK", {}, None, False, "bomb_too_small"),
    (40, "7 7 7 7", "5 5 5 5 5", {}, 3, True, "ok"),
    (41, "5 5 5 5 5", "2 2 2 2", {}, 3, False, "bomb_too_small"),
    (42, "6 6 6 6", "6 6 6 JK", {}, None, False, "bomb_too_small"),
    ("42-reverse", "6 6 6 JK", "6 6 6 6", {}, None, False, "bomb_too_small"),
    ("42-pure", "6 6 6 JK", "6 6 6 6", {"pureBeatsSoft": True}, None, True, "ok"),
    ("42-pure-soft", "6 6 6 6", "6 6 6 JK", {"pureBeatsSoft": True}, None, False, "bomb_too_small"),
    (43, None, "2 2 2 JK", {}, None, False, "joker_as_two"),
    (44, None, "5 JK JK", {}, None, True, "lead_ok"),
    (45, None, "6 7", {}, None, False, "not_a_combination"),
    (46, "Q Q Q", "K K K K", {}, None, True, "ok"),
    (47, "3 3 3 3", "4 4 4", {"tripleIsBomb": True}, None, False, "bomb_too_small"),
    (48, "9 9", "SJ BJ", {"jokerBomb": "as3"}, None, True, "ok"),
]

# Every legal example has an illegal twin: the smallest change that makes it illegal.
TWINS = {
    1: ("7", "10", {}, None, "not_one_higher"),
    5: ("2", "7", {}, None, "only_bomb_beats_two"),
    6: ("2", "A", {}, None, "only_bomb_beats_two"),
    11: ("6 6", "5 5", {}, None, "not_one_higher"),
    13: ("5 5", "7 JK", {}, None, "not_one_higher"),
    14: ("2 2", "5 5", {}, None, "only_bomb_beats_two"),
    "17-top": ("5 5", "SJ SJ", {"jokerBomb": "top"}, 3, "joker_only"),
    "17-as3": ("5 5 5 5", "SJ BJ", {"jokerBomb": "as3"}, None, "bomb_too_small"),
    "17-as4": ("5 5 5 5 5", "SJ BJ", {"jokerBomb": "as4"}, 3, "bomb_too_small"),
    18: ("9 9 9", "8 8 8", {}, None, "not_one_higher"),
    "19-anyHigher": ("J J J", "8 8 8", {"tripleFollow": "anyHigher"}, None, "not_higher"),
    "19-tripleIsBomb": ("J J J", "8 8 8", {"tripleIsBomb": True}, None, "bomb_too_small"),
    20: ("2 2 2", "8 8 8", {}, None, "only_bomb_beats_two"),
    21: ("8 8 8", "10 10 JK", {}, None, "not_one_higher"),
    22: ("8 8 8", "4 4 4", {}, None, "not_one_higher"),
    23: ("5 6 7", "4 5 6", {}, None, "not_one_higher"),
    26: ("4 5 6", "7 8 JK", {}, None, "not_one_higher"),
    27: ("4 5 6", "6 JK 8", {}, None, "not_one_higher"),
    31: ("3 3 4 4", "5 5 6 6", {}, None, "not_one_higher"),
    33: ("3 3 4 4", "5 5 6 JK", {}, None, "not_one_higher"),
    35: ("9", "6 6 6", {}, None, "type_mismatch"),
    36: ("2 2 2 2", "3 3 3 3", {}, None, "bomb_too_small"),
    37: ("7 7 7 7", "6 6 6 6", {}, None, "bomb_too_small"),
    40: ("5 5 5 5 5", "7 7 7 7", {}, 3, "bomb_too_small"),
    "42-pure": ("6 6 6 6", "6 6 6 JK", {"pureBeatsSoft": True}, None, "bomb_too_small"),
    44: (None, "2 JK JK", {}, None, "joker_as_two"),
    46: ("K K K K", "Q Q Q", {}, None, "only_bomb_beats_bomb"),
    48: ("9 9", "SJ BJ", {}, None, "joker_only"),
}


@pytest.mark.parametrize("number, top, play, switches, players, legal, code", EXAMPLES,
                         ids=[str(e[0]) for e in EXAMPLES])
def test_section7_examples(number, top, play, switches, players, legal, code):
    verdict = g.check(top, play, rules(**switches), players=players)
    assert (verdict.legal, verdict.code) == (legal, code), verdict.reason
    assert isinstance(verdict.reason, Text) and verdict.reason.strip()


def test_every_legal_example_has_an_illegal_twin():
    legal = {e[0] for e in EXAMPLES if e[5]}
    assert legal == set(TWINS)


@pytest.mark.parametrize("number", list(TWINS), ids=[str(k) for k in TWINS])
def test_section7_illegal_twins(number):
    top, play, switches, players, code = TWINS[number]
    verdict = g.check(top, play, rules(**switches), players=players)
    assert (verdict.legal, verdict.code) == (False, code), verdict.reason


def test_example_count():
    numbers = {e[0] for e in EXAMPLES if isinstance(e[0], int)}
    assert numbers == set(range(1, 49))


# The reading used and the reasons


def test_reason_names_the_rule():
    verdict = g.check("8 8", "10 10")
    assert verdict.reason == "Only 9 9 may follow 8 8: a pair must be exactly one rank higher, or 2 2."
    assert verdict.reason.params == {"next": "9 9", "top": "8 8"}
    assert verdict.play.type == "pair" and verdict.play.rank == 10


def test_joker_read_as_the_beating_value():
    verdict = g.check("4 5 6", "5 6 JK")  # 456 would not beat; 567 does
    assert verdict.legal and verdict.play.type == "straight" and verdict.play.rank == 5
    assert verdict.play.values == (5, 6, 7)
    # issue 7 §4: a follow lists every reading that beats (4 5 6 does not), the one used first
    assert verdict.readings == (verdict.play,)
    assert {r.rank for r in g.classify("5 6 JK")} == {4, 5}
    verdict = g.check("4 5 6", "5 JK 7")
    assert verdict.play.values == (5, 6, 7) and verdict.play.cards[1].is_joker


def test_ambiguous_lead_lists_every_reading():
    verdict = g.check(None, "5 JK JK")
    assert verdict.legal and verdict.code == "lead_ok"
    got = sorted((r.type, r.rank) for r in verdict.readings)
    assert got == [("straight", 3), ("straight", 4), ("straight", 5), ("triple", 5)]
    assert verdict.play == verdict.readings[0]
    assert "declare" in verdict.reason


def test_lead_prefers_the_bomb():
    verdict = g.check("-", "5 5 JK JK")
    assert verdict.play.type == "bomb" and verdict.play.length == 4
    assert {(r.type, r.rank) for r in verdict.readings} == {("bomb", 5), ("connected_pairs", 4),
                                                            ("connected_pairs", 5)}


@pytest.mark.parametrize("previous", [None, "", "-", "  ", " - "])
def test_lead_spellings(previous):
    assert g.check(previous, "7 7").code == "lead_ok"


def test_declared_play_reading():
    assert g.check(None, "5 JK JK", play_as="5 5 5").play.type == "triple"
    assert g.check(None, "5 JK JK", play_as="3 4 5").play.rank == 3
    # 5 5 JK JK declared as connected pairs 4455 does not beat 3 3 4 4's follower rule... it does:
    assert g.check("3 3 4 4", "5 5 JK JK", play_as="4 4 5 5").legal
    # declared as 5 5 6 6 it is not one higher than 3 3 4 4
    verdict = g.check("3 3 4 4", "5 5 JK JK", play_as="5 5 6 6")
    assert (verdict.legal, verdict.code) == (False, "not_one_higher")
    verdict = g.check(None, "5 JK JK", play_as="6 6 6")
    assert (verdict.legal, verdict.code) == (False, "bad_reading")


def test_declared_previous_reading():
    # undeclared, the table reads 5 JK JK at its highest reading (5 6 7)
    assert not g.check("5 JK JK", "5 6 7").legal
    assert g.check("5 JK JK", "6 7 8").legal
    assert g.check("5 JK JK", "5 6 7", previous_as="4 5 6").legal
    assert g.check("5 JK JK", "6 6 6", previous_as="5 5 5").legal
    assert not g.check("5 JK JK", "6 6 6", previous_as="4 5 6").legal


def test_bad_card_text_raises_with_field():
    with pytest.raises(CardError) as info:
        g.check("7", "4 5 1")
    assert info.value.field == "play"
    with pytest.raises(CardError) as info:
        g.check("X", "8")
    assert info.value.field == "previous"
    with pytest.raises(CardError) as info:
        g.check(None, "5 JK JK", play_as="5 5 Z")
    assert info.value.field == "play_as"


@pytest.mark.parametrize("top, play, players, code", [
    (None, "7 7 7 7 7", 2, "too_many_copies"),    # one deck for 2 players
    (None, "7 7 7 7 7", 3, "lead_ok"),            # two decks for 3+
    (None, "7 7 7 7 7", None, "lead_ok"),         # players unknown: 2 decks assumed
    (None, "7 7 7 7 7 7 7 7 7", None, "too_many_copies"),
    (None, "SJ SJ 5", 2, "too_many_copies"),
    ("7 7 7 7", "8 8 8 8", 2, "ok"),
    ("5 5 5", "5 5 5 5", 2, "too_many_copies"),   # 7 fives on the table, one deck holds 4
    ("5 5 5", "6 6 6 6", 2, "ok"),
    ("7 JK", "8 JK JK", 2, "too_many_copies"),    # 3 jokers, one deck has 2
    ("7 SJ", "8 SJ", 2, "too_many_copies"),       # one small joker per deck
    ("7 SJ", "8 SJ", 3, "ok"),
    ("7h", "8h", 2, "ok"),
    ("7h 7h", "8h 8h", 3, "ok"),
    ("5h 5s", "6h 6s", 2, "ok"),
    ("4h 4s", "5h 5h", 2, "too_many_copies"),     # a suited card twice in one deck
    ("5h 5s 5c", "5h 5s 5c 5d", 3, "ok"),          # each suited card twice: two decks hold that
])
def test_deck_limits(top, play, players, code):
    assert g.check(top, play, players=players).code == code


@pytest.mark.parametrize("cards, code", [
    ("2 2 2 5", "not_a_combination"),   # 3+1, not a sequence attempt
    ("2 2 3 3", "two_in_sequence"),     # would need 2 -> 3 (wrap)
    ("Q K A 2 JK", "two_in_sequence"),
    ("2 5", "not_a_combination"),
    ("K A 3", "not_a_combination"),     # no wrap, but no 2 either
])
def test_why_cards_are_not_a_combination(cards, code):
    assert g.check(None, cards).code == code


def test_reasons_show_what_jokers_stand_for():
    assert g.check("6 6 6 6", "6 6 6 JK").reason == (
        "6 6 6 JK (= 6 6 6 6) does not beat 6 6 6 6: equal bombs never beat each other.")
    assert g.check("5 5", "SJ BJ", rules(jokerBomb="top")).play.values == (16, 17)


def test_decks_refuses_impossible_player_counts():
    for players in (1, 7, "3", True):
        with pytest.raises(RulesError) as info:
            g.decks(g.Rules(), players)
        assert (info.value.code, info.value.field) == ("bad_players", "players")


def test_empty_dealer_means_no_dealer():
    assert "dealer" not in g.validate_facts(dict(base4(), dealer=""))


def test_deck_modes():
    assert [g.decks(g.Rules(), n) for n in range(2, 7)] == [1, 2, 2, 2, 2]
    assert [g.decks(rules(deckMode="oneDeck"), n) for n in range(2, 7)] == [1, 1, 1, 1, 1]
    assert [g.decks(rules(deckMode="perThree"), n) for n in range(2, 7)] == [1, 1, 2, 2, 2]
    assert g.decks(g.Rules(), None) == 2
    assert g.check(None, "5 5 5 5 5", rules(deckMode="oneDeck"), players=5).code == "too_many_copies"


@pytest.mark.parametrize("players", [1, 7, 0, "4", 3.0, True])
def test_bad_player_count_is_an_illegal_verdict(players):
    verdict = g.check(None, "7", players=players)
    assert (verdict.legal, verdict.code) == (False, "bad_players")


def test_bad_previous_is_an_illegal_verdict():
    verdict = g.check("6 7", "8")
    assert (verdict.legal, verdict.code) == (False, "bad_previous")


def test_joker_single_switch():
    on = rules(jokerSingle=True)
    assert g.check(None, "BJ", on).legal
    assert g.check("2", "SJ", on).legal           # above 2
    assert g.check("7", "SJ", on).legal           # issue 7 §4: above 2, so it beats any lower single
    assert g.check("3", "BJ", on).code == "ok"
    verdict = g.check("SJ", "BJ", on)              # ... but not another joker
    assert (verdict.legal, verdict.code) == (False, "only_bomb_beats_joker")
    verdict = g.check("SJ", "2", on)
    assert (verdict.legal, verdict.code) == (False, "only_bomb_beats_joker")
    assert g.check("SJ", "3 3 3 3", on).legal
    assert g.check(None, "SJ").code == "joker_alone"


def test_two_as_last_card():
    forbidden = rules(twoAsLastCard="forbidden")
    verdict = g.check("7", "2", forbidden, last_card=True)
    assert (verdict.legal, verdict.code) == (False, "two_as_last_card")
    assert g.check("7", "2", forbidden).legal
    assert g.check("7", "2", last_card=True).legal
    assert g.check("7 7", "2 2", forbidden, last_card=True).legal


def test_joker_bomb_modes():
    assert g.check("2 2 2 2 2 2 2 2", "SJ BJ", rules(jokerBomb="top"), players=3).legal
    assert not g.check("SJ BJ", "2 2 2 2 2 2 2 2", rules(jokerBomb="top"), players=3).legal
    assert g.check("2 2 2 2", "SJ BJ", rules(jokerBomb="as4")).legal  # the strongest 4-card bomb
    assert not g.check("SJ BJ", "2 2 2 2", rules(jokerBomb="as4")).legal
    assert g.check("3 3 3 3 3", "SJ BJ", rules(jokerBomb="as4")).code == "bomb_too_small"
    assert g.check("SJ BJ", "3 3 3 3", rules(jokerBomb="as3")).legal
    assert not g.check("SJ BJ", "2 2 2", rules(jokerBomb="as3", tripleIsBomb=True)).legal


def test_triple_is_bomb_reads_triples_as_bombs():
    (reading,) = g.classify("8 8 8", rules(tripleIsBomb=True))
    assert (reading.type, reading.length) == ("bomb", 3)
    assert g.check("4 5 6", "3 3 3", rules(tripleIsBomb=True)).legal
    assert not g.check("4 5 6", "3 3 3").legal


@pytest.mark.parametrize("cards, expected", [
    ("7", [("single", 7)]),
    ("7 JK", [("pair", 7)]),
    ("9 9 JK", [("triple", 9)]),
    ("6 6 6 JK", [("bomb", 6)]),
    ("7 JK JK JK", [("bomb", 7), ("straight", 7), ("connected_pairs", 7), ("straight", 6),
                    ("connected_pairs", 6), ("straight", 5), ("straight", 4)]),
    ("3 4 5", [("straight", 3)]),
    ("3 4 JK", [("straight", 3)]),              # no straight below 3
    ("Q K JK", [("straight", 12), ("straight", 11)]),
    ("K A JK", [("straight", 12)]),             # never past A
    ("3 4 5 6 7 8 9 10 J Q K A", [("straight", 3)]),
    ("4 4 5 5", [("connected_pairs", 4)]),
    ("J J Q Q K K", [("connected_pairs", 11)]),
    ("5 5 JK JK", [("bomb", 5), ("connected_pairs", 5), ("connected_pairs", 4)]),
    ("2", [("single", 15)]),
    ("2 2 2 2", [("bomb", 15)]),
    ("2 JK", []),
    ("JK", []),
    ("SJ BJ", []),
    ("6 7", []),
    ("3 3 4", []),
    ("4 4 4 5 5 5", []),                       # no triples-in-a-row
    ("3 3 3 4", []),                           # no 3+1
])
def test_classify(cards, expected):
    assert [(r.type, r.rank) for r in g.classify(cards)] == expected


def test_classify_accepts_card_tuples_and_fills_readings():
    cards = parse_cards("5 JK 7")
    (reading,) = g.classify(cards)
    assert isinstance(reading, Reading)
    assert reading.length == 3 and reading.values == (5, 6, 7)
    assert sorted(reading.cards) == sorted(cards)


# --------------------------------------------------------------------------------------------
# §5 presets and the switches


def test_rules_defaults_match_section4():
    assert rules_to_dict(g.Rules()) == {
        "deck_mode": "source", "first_dealer": "chosen", "draw_mode": "all", "triple_follow": "plusOne",
        "triple_is_bomb": False, "joker_bomb": "off", "pure_beats_soft": False, "joker_single": False,
        "two_as_last_card": "allowed", "joker_doubling": "once", "twos_are_trumps": "off",
        "held_bomb_mult": "off", "played_bomb_mult": "off", "shut_out": "off",
        "shut_out_dealer_exception": True, "cap": "none", "one_card_exempt": False,
        "long_hand_mult": "off", "unit": 1}
    assert list(g.SWITCHES) == [f.name for f in dataclasses.fields(g.Rules)]
    for switch in g.SWITCHES.values():
        assert isinstance(switch.help, Text) and switch.help


def changed(preset):
    base = rules_to_dict(g.Rules())
    return {k: v for k, v in rules_to_dict(g.PRESETS[preset]).items() if base[k] != v}


def test_presets():
    assert list(g.PRESETS) == ["source", "qq", "m2", "xiangshan"]
    assert g.PRESETS["source"] == g.Rules()
    assert changed("qq") == {"deck_mode": "oneDeck", "triple_follow": "anyHigher", "joker_bomb": "top"}
    assert changed("m2") == {"deck_mode": "oneDeck", "triple_is_bomb": True, "joker_bomb": "as3",
                             "joker_doubling": "perJoker", "held_bomb_mult": "bySize",
                             "played_bomb_mult": "bySize", "shut_out": "double", "cap": "multiplier:64",
                             "long_hand_mult": "on"}
    assert changed("xiangshan") == {"deck_mode": "oneDeck", "triple_is_bomb": True, "joker_single": True,
                                    "draw_mode": "winnerOnly", "played_bomb_mult": "double",
                                    "held_bomb_mult": "once", "shut_out": "double",
                                    "shut_out_dealer_exception": False}


def test_rules_from_dict():
    assert g.rules_from_dict(None) == g.Rules()
    assert g.rules_from_dict({}, "m2") == g.PRESETS["m2"]
    r = g.rules_from_dict({"tripleIsBomb": "true", "cap": "perLoser:20", "shut_out": "threshold:5"}, "qq")
    assert (r.triple_is_bomb, r.cap, r.shut_out, r.joker_bomb) == (True, "perLoser:20", "threshold:5", "top")
    assert g.rules_from_dict({"preset": "m2", "cap": "none"}).joker_bomb == "as3"
    assert g.rules_from_dict({"unit": "0.5"}).unit == 0.5
    assert g.rules_from_dict({"cap": "PERLOSER:7"}).cap == "perLoser:7"


@pytest.mark.parametrize("data, preset, code, field", [
    ({"nope": 1}, None, "unknown_rule", "rules.nope"),
    ({"deckMode": "threeDecks"}, None, "bad_rules", "rules.deck_mode"),
    ({"tripleIsBomb": "maybe"}, None, "bad_rules", "rules.triple_is_bomb"),
    ({"cap": "perLoser:x"}, None, "bad_rules", "rules.cap"),
    ({"cap": "perLoser:0"}, None, "bad_rules", "rules.cap"),
    ({"shutOut": "threshold"}, None, "bad_rules", "rules.shut_out"),
    ({"shutOut": "threshold:²"}, None, "bad_rules", "rules.shut_out"),  # '²'.isdigit(), int('²') fails
    ({"cap": "perLoser:²"}, None, "bad_rules", "rules.cap"),
    ({"unit": 0}, None, "bad_rules", "rules.unit"),
    ({"unit": "abc"}, None, "bad_rules", "rules.unit"),
    ({}, "poker", "unknown_preset", "preset"),
])
def test_rules_errors(data, preset, code, field):
    with pytest.raises(RulesError) as info:
        g.rules_from_dict(data, preset)
    assert (info.value.code, info.value.field) == (code, field)
    assert str(info.value)


def test_needed_facts():
    assert g.needed_facts(g.Rules()) == ()
    assert g.needed_facts(g.PRESETS["m2"]) == ("held_bombs", "played", "dealer_only_opening", "bombs_played",
                                               "tricks")
    assert g.needed_facts(g.PRESETS["xiangshan"]) == ("held_bombs", "played", "bombs_played")
    assert g.needed_facts(rules(twosAreTrumps="perTwo")) == ("twos",)
    assert g.needed_facts(rules(shutOut="fixed20")) == ("played", "dealer_only_opening", "bombs_played")
    assert g.needed_facts(rules(shutOut="threshold:5")) == ()


# --------------------------------------------------------------------------------------------
# §8: the 11 settlement examples (exact deltas)


def hand(players, losers, **extra):
    return {"players": list(players), "winner": players[0], "losers": losers, **extra}


SETTLEMENTS = [
    ("S1", hand("ABCD", {"B": {"cards": 3, "jokers": 0}, "C": {"cards": 5, "jokers": 1},
                         "D": {"cards": 1, "jokers": 0}}),
     {}, None, 1, {"A": 14, "B": -3, "C": -10, "D": -1}),
    ("S2", hand("ABC", {"B": {"cards": 6, "jokers": 2}, "C": {"cards": 4, "jokers": 0, "twos": 2}}),
     {}, None, 1, {"A": 16, "B": -12, "C": -4}),
    ("S3", hand("ABC", {"B": {"cards": 6, "jokers": 2}, "C": {"cards": 4, "jokers": 0, "twos": 2}}),
     {"jokerDoubling": "perJoker", "twosAreTrumps": "perTwo"}, None, 1, {"A": 40, "B": -24, "C": -16}),
    ("S4", hand("AB", {"B": {"cards": 8, "jokers": 2}}), {"unit": 0.5}, None, 1, {"A": 8, "B": -8}),
    ("S4-stake", hand("AB", {"B": {"cards": 8, "jokers": 2}}), {}, None, 0.5, {"A": 8, "B": -8}),
    ("S4-perJoker", hand("AB", {"B": {"cards": 8, "jokers": 2}}), {"unit": 0.5, "jokerDoubling": "perJoker"},
     None, 1, {"A": 16, "B": -16}),
    ("S5", hand("ABCDE", {"B": {"cards": 2, "jokers": 0}, "C": {"cards": 4, "jokers": 1},
                          "D": {"cards": 5, "jokers": 0}, "E": {"cards": 1, "jokers": 0}}, bombs_played=[4, 4]),
     {"playedBombMult": "double"}, None, 1, {"A": 64, "B": -8, "C": -32, "D": -20, "E": -4}),
    ("S5-linear", hand("ABCDE", {"B": {"cards": 2, "jokers": 0}, "C": {"cards": 4, "jokers": 1},
                                 "D": {"cards": 5, "jokers": 0}, "E": {"cards": 1, "jokers": 0}},
                       bombs_played=[4, 4]),
     {"playedBombMult": "linear"}, None, 1, {"A": 48, "B": -6, "C": -24, "D": -15, "E": -3}),
    ("S6", hand("ABCD", {"B": {"cards": 2, "jokers": 0, "played": True},
                         "C": {"cards": 5, "jokers": 0, "played": False},
                         "D": {"cards": 4, "jokers": 0, "dealer_only_opening": True}}, dealer="D"),
     {"shutOut": "double", "drawMode": "winnerOnly"}, None, 1, {"A": 20, "B": -2, "C": -10, "D": -8}),
    ("S7", hand("ABC", {"B": {"cards": 5, "jokers": 1, "played": False},
                        "C": {"cards": 3, "jokers": 0, "held_bombs": [3]}}, bombs_played=[4]),
     {}, "m2", 1, {"A": 88, "B": -64, "C": -24}),
    # S8 (corrected): C is not the dealer (dealt 5, drew 1 after the first trick under drawMode=all)
    ("S8", hand("ABCD", {"B": {"cards": 4, "jokers": 1, "held_bombs": [4]},
                         "C": {"cards": 6, "jokers": 0, "played": False},
                         "D": {"cards": 2, "jokers": 0}}, bombs_played=[4], dealer="D"),
     {"playedBombMult": "double", "heldBombMult": "once", "shutOut": "double", "shutOutDealerException": False},
     None, 1, {"A": 44, "B": -16, "C": -24, "D": -4}),
    ("S9", hand("ABCD", {"B": {"cards": 3, "jokers": 1}, "C": {"cards": 2, "jokers": 0},
                         "D": {"cards": 5, "jokers": 0, "played": False}}, bombs_played=[4, 4]),
     {"shutOut": "double", "playedBombMult": "double", "cap": "perLoser:20"}, None, 1,
     {"A": 48, "B": -20, "C": -8, "D": -20}),
    ("S10", hand("ABC", {"B": {"cards": 1, "jokers": 0}, "C": {"cards": 3, "jokers": 1}}),
     {"oneCardExempt": True}, None, 1, {"A": 6, "B": 0, "C": -6}),
    ("S10-default", hand("ABC", {"B": {"cards": 1, "jokers": 0}, "C": {"cards": 3, "jokers": 1}}),
     {}, None, 1, {"A": 7, "B": -1, "C": -6}),
    ("S11", hand("ABCDEF", {"B": {"cards": 2, "jokers": 0}, "C": {"cards": 5, "jokers": 0, "played": False},
                            "D": {"cards": 4, "jokers": 0}, "E": {"cards": 1, "jokers": 0},
                            "F": {"cards": 3, "jokers": 0}}, bombs_played=[3, 4]),
     {"tripleIsBomb": True, "playedBombMult": "linear", "shutOut": "fixed20"}, None, 1,
     {"A": 90, "B": -8, "C": -50, "D": -16, "E": -4, "F": -12}),
]


@pytest.mark.parametrize("name, facts, switches, preset, stake, expected", SETTLEMENTS,
                         ids=[s[0] for s in SETTLEMENTS])
def test_section8_settlements(name, facts, switches, preset, stake, expected):
    result = g.settle(facts, g.rules_from_dict(switches, preset), stake=stake)
    assert result.deltas == expected
    assert sum(result.points.values()) == 0
    assert result.next_dealer == facts["winner"]
    # one step per loser, the total, then a fractional unit and the stake (issue 7 §4)
    money_steps = (g.rules_from_dict(switches, preset).unit != int(g.rules_from_dict(switches, preset).unit)) \
        + (stake != 1)
    assert len(result.steps) == len(facts["losers"]) + 1 + money_steps


def test_s4_points_and_money():
    result = g.settle(hand("AB", {"B": {"cards": 8, "jokers": 2}}), stake=0.5)
    assert result.points == {"A": 16, "B": -16}
    assert result.deltas == {"A": 8, "B": -8}


def test_integer_unit_is_in_the_points():
    result = g.settle(hand("AB", {"B": {"cards": 3, "jokers": 0}}), rules(unit=2), stake=3)
    assert result.points == {"A": 6, "B": -6} and result.deltas == {"A": 18, "B": -18}
    assert "2 points per card" in result.steps[0]


def test_steps_explain_every_multiplier():
    s1 = g.settle(SETTLEMENTS[0][1])
    assert s1.steps == ["B: 3 cards = 3", "C: 5 cards, holds a joker, ×2 = 10", "D: 1 card = 1",
                        "A collects 14 from 3 players."]
    assert all(isinstance(step, Text) for step in s1.steps)
    s7 = g.settle(SETTLEMENTS[9][1], g.PRESETS["m2"])
    b, c, total = s7.steps
    assert b.startswith("B: 5 cards") and "joker" in b and "shut out" in b and "bomb" in b
    assert b.endswith("= 80, capped at 64")
    assert c == "C: 3 cards, holds a bomb of 3 cards, ×2, a bomb of 4 cards played, ×4 = 24"
    assert total == "A collects 88 from 2 players."
    s11 = g.settle(SETTLEMENTS[-1][1], rules(tripleIsBomb=True, playedBombMult="linear", shutOut="fixed20"))
    assert s11.steps[1] == "C: shut out, pays 20 + 10 × 3 (炸数 of the bombs played) = 50"
    s10 = g.settle(SETTLEMENTS[13][1], rules(oneCardExempt=True))
    assert "pays nothing" in s10.steps[0]
    s8 = g.settle(SETTLEMENTS[10][1], g.rules_from_dict(SETTLEMENTS[10][2]))
    assert "no extra ×2" in s8.steps[0]
    s6 = g.settle(SETTLEMENTS[8][1], rules(shutOut="double", drawMode="winnerOnly"))
    assert "dealer" in s6.steps[2] and "never played" in s6.steps[1]


def test_shut_out_dealer_exception_switch():
    facts = hand("ABCD", {"B": {"cards": 2}, "C": {"cards": 3},
                          "D": {"cards": 4, "dealer_only_opening": True}}, dealer="D")
    assert g.settle(facts, rules(shutOut="double")).deltas["D"] == -8
    assert g.settle(facts, rules(shutOut="double", shutOutDealerException=False)).deltas["D"] == -4


def test_threshold_and_long_hand_and_held_bombs():
    facts = hand("ABC", {"B": {"cards": 9, "held_bombs": [4, 5]}, "C": {"cards": 4}}, tricks=31)
    assert g.settle(facts, rules(shutOut="threshold:5")).deltas == {"A": 22, "B": -18, "C": -4}
    assert g.settle(facts, rules(longHandMult="on")).deltas == {"A": 52, "B": -36, "C": -16}
    assert g.settle(dict(facts, tricks=20), rules(longHandMult="on")).deltas == {"A": 26, "B": -18, "C": -8}
    assert g.settle(dict(facts, tricks=19), rules(longHandMult="on")).deltas == {"A": 13, "B": -9, "C": -4}
    assert g.settle(facts, rules(heldBombMult="perBomb")).deltas["B"] == -36
    assert g.settle(facts, rules(heldBombMult="bySize")).deltas["B"] == -9 * 4 * 8
    assert g.settle(facts, rules(heldBombMult="once")).deltas["B"] == -18
    assert g.settle(facts, rules(cap="multiplier:10", heldBombMult="bySize")).deltas["B"] == -10


def test_played_bomb_by_size_and_joker_bomb():
    facts = hand("ABC", {"B": {"cards": 2}, "C": {"cards": 1}}, bombs_played=[3, 6])
    assert g.settle(facts, rules(tripleIsBomb=True, playedBombMult="bySize")).deltas["B"] == -2 * 2 * 16
    facts = hand("ABC", {"B": {"cards": 2}, "C": {"cards": 1}}, bombs_played=[2])
    assert g.settle(facts, rules(jokerBomb="as3", playedBombMult="bySize")).deltas["B"] == -4
    with pytest.raises(FactsError):
        g.settle(facts, rules(playedBombMult="bySize"))  # no joker bomb at this table


def test_settle_returns_fresh_objects():
    facts = SETTLEMENTS[0][1]
    first = g.settle(facts)
    first.deltas["A"] = 0
    first.steps.clear()
    second = g.settle(facts)
    assert second.deltas["A"] == 14 and len(second.steps) == 4


def test_next_dealer():
    assert g.next_dealer(SETTLEMENTS[0][1]) == "A"
    with pytest.raises(FactsError):
        g.next_dealer({})


# --------------------------------------------------------------------------------------------
# §9 validation: one test per rule, asserting code and field


def base4(**losers):
    data = {"B": {"cards": 3, "jokers": 0}, "C": {"cards": 2, "jokers": 0}, "D": {"cards": 1, "jokers": 0}}
    data.update(losers)
    return {"players": ["A", "B", "C", "D"], "winner": "A", "losers": data}


def facts_error(facts, r=None):
    with pytest.raises(FactsError) as info:
        g.validate_facts(facts, r or g.Rules())
    assert str(info.value)
    # settle validates first
    with pytest.raises(FactsError):
        g.settle(facts, r or g.Rules())
    return info.value


def test_valid_facts_are_normalised():
    out = g.validate_facts(base4(B={"cards": 5, "jokers": 1, "heldBombs": [4], "playedAny": True}))
    assert out["losers"]["B"] == {"cards": 5, "jokers": 1, "twos": 0, "held_bombs": [4], "played": True,
                                  "dealer_only_opening": False}
    assert out["losers"]["C"] == {"cards": 2, "jokers": 0, "twos": 0, "held_bombs": [], "played": True,
                                  "dealer_only_opening": False}
    assert out["bombs_played"] == [] and out["tricks"] is None and "dealer" not in out


def test_jokers_exceed_cards():
    error = facts_error(base4(D={"cards": 1, "jokers": 2}))
    assert (error.code, error.field) == ("jokers_exceed_cards", "losers.D.jokers")
    assert str(error) == "D: 2 jokers held but only 1 card left — jokers cannot exceed cards."


@pytest.mark.parametrize("facts, code, field", [
    ("not a dict", "bad_facts", None),
    ({"winner": "A", "losers": {}}, "players_missing", "players"),
    ({"players": ["A"], "winner": "A", "losers": {}}, "player_count", "players"),
    ({"players": list("ABCDEFG"), "winner": "A", "losers": {}}, "player_count", "players"),
    ({"players": ["A", " "], "winner": "A", "losers": {}}, "player_name", "players.1"),
    ({"players": ["A", 5], "winner": "A", "losers": {}}, "player_name", "players.1"),
    ({"players": ["A", "A"], "winner": "A", "losers": {}}, "duplicate_player", "players.1"),
    (dict(base4(), winner="Z"), "unknown_winner", "winner"),
    (dict(base4(), winner=None), "unknown_winner", "winner"),
    (dict(base4(), dealer="Z"), "unknown_dealer", "dealer"),
    (dict(base4(), losers=[1, 2]), "losers_missing", "losers"),
    (base4(A={"cards": 0, "jokers": 0}), "winner_is_loser", "losers.A"),
    (base4(Z={"cards": 2, "jokers": 0}), "unknown_loser", "losers.Z"),
    ({"players": ["A", "B", "C"], "winner": "A", "losers": {"B": {"cards": 2}}}, "loser_missing", "losers.C"),
    (base4(B="three"), "bad_loser", "losers.B"),
    (base4(B={"jokers": 0}), "cards_missing", "losers.B.cards"),
    (base4(B={"cards": 0, "jokers": 0}), "loser_without_cards", "losers.B.cards"),
    (base4(B={"cards": True, "jokers": 0}), "not_integer", "losers.B.cards"),
    (base4(B={"cards": 3.0, "jokers": 0}), "not_integer", "losers.B.cards"),
    (base4(B={"cards": "3", "jokers": 0}), "not_integer", "losers.B.cards"),
    (base4(B={"cards": 3, "jokers": -1}), "negative", "losers.B.jokers"),
    (base4(B={"cards": 10 ** 9, "jokers": 0}), "too_large", "losers.B.cards"),
    (base4(B={"cards": 3, "jokers": False}), "not_integer", "losers.B.jokers"),
    (base4(B={"cards": 3, "joker": 1}), "unknown_fact", "losers.B.joker"),
    (base4(B={"cards": 3, "jokers": 2}, C={"cards": 2, "jokers": 2}, D={"cards": 1, "jokers": 1}),
     "jokers_exceed_deck", "losers.D.jokers"),
    (base4(B={"cards": 3, "jokers": 1, "twos": 3}), "twos_exceed_cards", "losers.B.twos"),
    (base4(B={"cards": 8, "twos": 8}, C={"cards": 2, "twos": 1}), "twos_exceed_deck", "losers.C.twos"),
    (base4(B={"cards": 60}, C={"cards": 50}), "cards_exceed_deck", "losers.C.cards"),
    (base4(B={"cards": 4, "played": False}), "shut_out_cards", "losers.B.cards"),
    (base4(B={"cards": 5, "played": "no"}), "not_boolean", "losers.B.played"),
    (dict(base4(B={"cards": 5, "played": False}), dealer="B"), "dealer_played", "losers.B.played"),
    (base4(B={"cards": 3, "dealer_only_opening": True}), "dealer_missing", "dealer"),
    (dict(base4(B={"cards": 3, "dealer_only_opening": True}), dealer="C"), "not_dealer",
     "losers.B.dealer_only_opening"),
    (base4(B={"cards": 5, "held_bombs": [3]}), "bomb_size", "losers.B.held_bombs.0"),
    (base4(B={"cards": 5, "held_bombs": [13]}), "bomb_size", "losers.B.held_bombs.0"),
    (base4(B={"cards": 5, "held_bombs": 4}), "not_list", "losers.B.held_bombs"),
    (base4(B={"cards": 5, "held_bombs": [4, 4]}), "held_bombs_exceed_cards", "losers.B.held_bombs"),
    (dict(base4(), bombs_played=[1]), "bomb_size", "bombs_played.0"),
    (dict(base4(), bombs_played=[2]), "bomb_size", "bombs_played.0"),
    (dict(base4(), bombs_played=["4"]), "not_integer", "bombs_played.0"),
    (dict(base4(), tricks=-1), "bad_tricks", "tricks"),
    (dict(base4(), tricks=2.5), "bad_tricks", "tricks"),
])
def test_validation_rules(facts, code, field):
    error = facts_error(facts)
    assert (code, field) in [(c, f) for f, c, _m in error.errors]


def test_jokers_in_a_one_deck_game():
    facts = {"players": ["A", "B"], "winner": "A", "losers": {"B": {"cards": 5, "jokers": 3}}}
    error = facts_error(facts)
    assert (error.code, error.field) == ("jokers_exceed_deck", "losers.B.jokers")
    facts["losers"]["B"]["jokers"] = 2
    assert g.settle(facts).deltas == {"A": 10, "B": -10}


def test_shut_out_under_winner_only_holds_exactly_five():
    winner_only = rules(drawMode="winnerOnly")
    error = facts_error(base4(B={"cards": 4, "played": False}), winner_only)
    assert (error.code, error.field) == ("shut_out_cards", "losers.B.cards")
    error = facts_error(base4(B={"cards": 6, "played": False}), winner_only)
    assert ("losers.B.cards", "shut_out_cards") in [(f, c) for f, c, _m in error.errors]
    g.validate_facts(base4(B={"cards": 5, "played": False}), winner_only)
    g.validate_facts(base4(B={"cards": 6, "played": False}))  # everyone draws: more is possible


def test_held_bombs_by_size_count_jokers_first():
    m2 = g.PRESETS["m2"]
    facts = {"players": ["A", "B", "C"], "winner": "A",
             "losers": {"B": {"cards": 4, "jokers": 1, "held_bombs": [4]}, "C": {"cards": 1}}}
    error = facts_error(facts, m2)
    assert (error.code, error.field) == ("held_bombs_exceed_cards", "losers.B.held_bombs")
    facts["losers"]["B"]["held_bombs"] = [3]
    assert g.settle(facts, m2).deltas["B"] == -4 * 2 * 2


# --------------------------------------------------------------------------------------------
# Properties

names = st.lists(st.text(alphabet="ABCDEFGH甲乙", min_size=1, max_size=3), min_size=2, max_size=6,
                 unique=True)
switch_values = st.fixed_dictionaries({
    key: st.sampled_from(switch.choices) for key, switch in g.SWITCHES.items() if switch.choices
})


@st.composite
def valid_hands(draw):
    players = draw(names)
    r = g.Rules(**draw(switch_values))
    winner = draw(st.sampled_from(players))
    jokers_left, twos_left = 2, 4  # at least one deck
    losers = {}
    for name in players:
        if name == winner:
            continue
        shut = draw(st.booleans()) and draw(st.booleans())
        cards = 5 if shut else draw(st.integers(1, min(10, g.most_cards_left(r, len(players)))))
        jokers = draw(st.integers(0, min(1, cards, jokers_left)))
        jokers_left -= jokers
        twos = draw(st.integers(0, min(1, cards - jokers, twos_left)))
        twos_left -= twos
        held = [4] if cards - jokers >= 4 and draw(st.booleans()) else []
        losers[name] = {"cards": cards, "jokers": jokers, "twos": twos, "held_bombs": held, "played": not shut}
    bombs = []  # a bomb of more than 4 cards takes jokers (one deck: 4 of a rank) the losers do not hold
    for size in draw(st.lists(st.sampled_from([4, 5, 6]), max_size=3)):
        if size - 4 <= jokers_left:
            jokers_left -= size - 4
            bombs.append(size)
    facts = {"players": players, "winner": winner, "losers": losers, "bombs_played": bombs,
             "tricks": draw(st.integers(0, 40))}
    return facts, r


@settings(max_examples=200)
@given(valid_hands(), st.sampled_from([1, 2, 0.5, "0.1"]))
def test_any_valid_hand_settles_zero_sum(hand_and_rules, stake):
    facts, r = hand_and_rules
    result = g.settle(facts, r, stake=stake)
    assert sum(result.points.values()) == 0
    assert all(isinstance(p, int) for p in result.points.values())
    assert all(result.points[name] <= 0 for name in facts["losers"])
    assert result.points[facts["winner"]] >= 0
    assert abs(sum(result.deltas.values())) < 1e-6
    assert result.next_dealer == facts["winner"]
    assert len(result.steps) == len(facts["losers"]) + 1 + (stake not in (1, "1"))  # the stake is a step


rule_sets = st.builds(lambda d: g.Rules(**d), switch_values)


@settings(max_examples=200)
@given(st.one_of(st.none(), st.text(max_size=12)), st.text(max_size=12), rule_sets,
       st.sampled_from([None, 2, 3, 6]))
def test_check_raises_only_card_error(previous, play, r, players):
    try:
        verdict = g.check(previous, play, r, players=players)
    except CardError:
        return
    assert isinstance(verdict, Verdict)
    assert isinstance(verdict.reason, Text) and verdict.reason
    assert verdict.legal == (verdict.code in ("ok", "lead_ok"))


card_text = st.lists(st.sampled_from(["3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A", "2",
                                      "JK", "SJ", "BJ"]), min_size=1, max_size=8).map(" ".join)


@settings(max_examples=200)
@given(st.one_of(st.none(), card_text), card_text, rule_sets, st.one_of(st.none(), card_text))
def test_check_on_card_like_text_never_raises(previous, play, r, play_as):
    verdict = g.check(previous, play, r, players=6, play_as=play_as)
    assert isinstance(verdict, Verdict)
    if verdict.legal:
        assert verdict.play in verdict.readings


non_bombs = st.one_of(
    st.integers(3, 15).map(lambda r: [r]),
    st.integers(3, 15).map(lambda r: [r, r]),
    st.integers(3, 15).map(lambda r: [r, r, r]),
    st.tuples(st.integers(3, 12), st.integers(3, 12)).filter(lambda t: t[0] + t[1] - 1 <= 14)
      .map(lambda t: list(range(t[0], t[0] + t[1]))),
    st.tuples(st.integers(3, 13), st.integers(2, 6)).filter(lambda t: t[0] + t[1] - 1 <= 14)
      .map(lambda t: [r for r in range(t[0], t[0] + t[1]) for _ in (0, 1)]),
)
_NAMES = {11: "J", 12: "Q", 13: "K", 14: "A", 15: "2"}


def text_of(ranks):
    return " ".join(_NAMES.get(r, str(r)) for r in ranks)


@settings(max_examples=200)
@given(non_bombs, st.integers(3, 15), st.integers(4, 8), st.integers(0, 2), st.booleans())
def test_a_bomb_beats_any_non_bomb(top, rank, size, jokers, triple_is_bomb):
    assume(not (rank == 15 and jokers))
    assume(top.count(rank) + size <= 8)
    r = g.Rules(triple_is_bomb=triple_is_bomb)
    assume(not (triple_is_bomb and len(top) == 3 and len(set(top)) == 1))  # a triple is a bomb then
    bomb = text_of([rank] * size) + " JK" * jokers
    verdict = g.check(text_of(top), bomb, r, players=6)
    assert verdict.legal and verdict.play.type == "bomb", verdict.reason
    # and no non-bomb beats a bomb
    back = g.check(bomb, text_of(top), r, players=6)
    assert not back.legal


@settings(max_examples=200)
@given(non_bombs, non_bombs)
def test_following_is_never_mutual(a, b):
    assume(max(a.count(x) + b.count(x) for x in set(a) | set(b)) <= 8)
    forward = g.check(text_of(a), text_of(b), players=6)
    backward = g.check(text_of(b), text_of(a), players=6)
    assert not (forward.legal and backward.legal)


def test_settle_without_memo_for_unusual_values():
    class Count(int):
        pass

    facts = hand("ABC", {"B": {"cards": 3, "jokers": 0}, "C": {"cards": 2, "jokers": 0}})
    facts["losers"]["B"]["cards"] = Count(3)  # not plain JSON: settled without the memo
    assert g.settle(facts).deltas == {"A": 5, "B": -3, "C": -2}
    facts["losers"]["B"]["cards"] = 3
    assert g.settle(facts).deltas == {"A": 5, "B": -3, "C": -2}
    assert g.settle(facts, stake=2).deltas == {"A": 10, "B": -6, "C": -4}
    facts["losers"]["B"]["cards"] = True  # True is not 1 here (memo keys keep types apart)
    with pytest.raises(FactsError):
        g.settle(facts)


def test_engine_imports_nothing_from_flask_or_the_database():
    """The package imports the shared engine modules, its own modules and the standard library only."""
    import ast
    import pathlib

    modules = set()
    for path in pathlib.Path(g.__file__).parent.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                modules.update(alias.name for alias in node.names)
            elif isinstance(node, ast.ImportFrom):
                if node.module:
                    modules.add("." * node.level + node.module)
                else:  # from .. import described
                    modules.update("." * node.level + alias.name for alias in node.names)
    shared = {"..text", "..errors", "..switches", "..results", "..money", "..cards", "..answering", "..sentences",
              "..described", "..inputs", "..words"}
    own = {".rules", ".combos", ".check", ".facts", ".settle", ".answers", ".about", ".sentences", ".words"}
    stdlib = {"__future__", "bisect", "dataclasses", "math", "collections", "collections.abc", "decimal", "functools",
              "typing"}
    assert modules <= shared | own | stdlib, modules


@pytest.mark.parametrize("switches, field", [
    ({"tripleFollow": "sometimes"}, "rules.triple_follow"),
    ({"jokerBomb": 7}, "rules.joker_bomb"),
])
def test_check_with_a_bad_switch_raises_like_dagong(switches, field):
    """A bad switch is a RulesError naming it, in both games (issue 19 item 7); twin: a good one."""
    from companion.engine import dagong
    from companion.engine.errors import RulesError

    with pytest.raises(RulesError) as error:
        g.check("5", "6", switches)
    assert error.value.field == field
    with pytest.raises(RulesError) as dagong_error:
        dagong.check("5", "6", {"bombMin": "x"})
    assert dagong_error.value.field == "rules.bomb_min"
    assert g.check("5", "6", {next(iter(switches)): "anyHigher" if "triple" in field else "top"}).legal


def _facts4(**losers):
    out = {"B": {"cards": 1}, "C": {"cards": 1}, "D": {"cards": 1}}
    out.update(losers)
    return {"players": ["A", "B", "C", "D"], "winner": "A", "losers": out}


# impossible hands refused, each naming its field and the bound (issue 19 item 5); each with a twin
@pytest.mark.parametrize("facts, switches, code, field, bound", [
    (_facts4(B={"cards": 28}), {}, "cards_exceed_deal", "losers.B.cards", "27"),
    (_facts4(B={"cards": 27}), {}, None, None, None),                     # twin: 5 dealt + 22 of the 87 drawn
    (_facts4(B={"cards": 14}), {"deckMode": "oneDeck"}, "cards_exceed_deal", "losers.B.cards", "13"),
    (_facts4(B={"cards": 13}), {"deckMode": "oneDeck"}, None, None, None),
    (_facts4(B={"cards": 9, "jokers": 2, "held_bombs": [5]}), {"deckMode": "oneDeck", "heldBombMult": "bySize"},
     "held_bomb_needs_jokers", "losers.B.held_bombs.0", "4"),             # a third joker would be needed
    (_facts4(B={"cards": 9, "jokers": 2, "held_bombs": [4]}), {"deckMode": "oneDeck", "heldBombMult": "bySize"},
     None, None, None),
    (_facts4(B={"cards": 9, "jokers": 0, "held_bombs": [5]}), {"deckMode": "oneDeck", "heldBombMult": "once"},
     "held_bombs_need_jokers", "losers.B.held_bombs", "4"),
    (_facts4(B={"cards": 9, "jokers": 1, "held_bombs": [5]}), {"deckMode": "oneDeck", "heldBombMult": "once"},
     None, None, None),
    (_facts4(B={"cards": 12, "jokers": 1, "held_bombs": [5, 5]}), {"deckMode": "oneDeck", "heldBombMult": "once"},
     "held_bombs_need_jokers", "losers.B.held_bombs", "4"),
])
def test_impossible_hands_are_refused(facts, switches, code, field, bound):
    rules = g.rules_from_dict(switches)
    if code is None:
        g.validate_facts(facts, rules)
        return
    with pytest.raises(FactsError) as error:
        g.validate_facts(facts, rules)
    assert (error.value.code, error.value.field) == (code, field)
    assert bound in str(error.value.message)


S8_RULES = {"playedBombMult": "double", "heldBombMult": "once", "shutOut": "double", "shutOutDealerException": False,
            "drawMode": "all"}


def _s8(dealer):
    return hand("ABCD", {"B": {"cards": 4, "jokers": 1, "held_bombs": [4]}, "C": {"cards": 6, "jokers": 0, "played": False},
                         "D": {"cards": 2, "jokers": 0}}, bombs_played=[4], dealer=dealer)


def test_s8_shut_out_player_is_not_the_dealer():
    """gandengyan.md §8 S8: C never played and is not the dealer: 6 × 2 × 2 = 24."""
    result = g.settle(_s8("D"), g.rules_from_dict(S8_RULES))
    assert result.deltas == {"A": 44, "B": -16, "C": -24, "D": -4}


@pytest.mark.parametrize("exception, box, absent", [
    (False, "Never played a card", "only the opening lead"),   # 象山: the form has no 'only the opening lead' box
    (True, "only the opening lead", None),                      # twin: the form shows that box
])
def test_a_dealer_never_shut_out_and_the_box_named_exists(exception, box, absent):
    """Under 象山 a dealer's opening lead counts as a play, so C as the dealer cannot be shut out; the
    refusal names only a box the table's form shows (issue 19 item 8)."""
    rules = g.rules_from_dict(dict(S8_RULES, shutOutDealerException=exception))
    with pytest.raises(FactsError) as error:
        g.validate_facts(_s8("C"), rules)
    assert (error.value.code, error.value.field) == ("dealer_played", "losers.C.played")
    message = str(error.value.message)
    assert box in message
    if absent:
        assert absent not in message
    assert ("dealer_only_opening" in g.needed_facts(rules)) is exception  # the form shows the box iff needed


def test_every_problem_of_a_hand_is_reported_at_once():
    """Issue 21 item 4: every problem with its field; the first also as .field/.code/.message."""
    facts = _facts4(B={"cards": 99}, C={"cards": 3, "jokers": 4}, D={"cards": "x"})
    facts["tricks"] = -1
    with pytest.raises(FactsError) as error:
        g.validate_facts(facts)
    fields = [field for field, _code, _message in error.value.errors]
    assert fields == ["losers.B.cards", "losers.C.jokers", "losers.D.cards", "tricks"]
    assert (error.value.field, error.value.code) == ("losers.B.cards", "cards_exceed_deal")
    assert error.value.message == error.value.errors[0][2]


def test_one_problem_is_one_error():
    """Twin: a hand with one problem lists only it (and a good hand raises nothing)."""
    with pytest.raises(FactsError) as error:
        g.validate_facts(_facts4(C={"cards": 3, "jokers": 4}))
    assert [f for f, _c, _m in error.value.errors] == ["losers.C.jokers"]
    g.validate_facts(_facts4(C={"cards": 4, "jokers": 2}))


def test_a_deck_total_is_refused_once():
    facts = _facts4(B={"cards": 5, "jokers": 3}, C={"cards": 5, "jokers": 2}, D={"cards": 5, "jokers": 1})
    with pytest.raises(FactsError) as error:
        g.validate_facts(facts)
    assert [(f, c) for f, c, _m in error.value.errors] == [("losers.C.jokers", "jokers_exceed_deck")]



@pytest.mark.parametrize("bombs, jokers, code", [
    ([5], 1, None),                          # one deck: a 5-card bomb took one of the two jokers
    ([6], 1, "bombs_need_jokers"),           # twin: two jokers in the bomb and one held: three
    ([4] * 13, 0, "bombs_exceed_deck"),      # 52 cards of bombs and 5 held: 57 from a 54-card deck
    ([4] * 12, 0, None),                     # twin: 48 and 5
])
def test_bombs_played_fit_the_decks(bombs, jokers, code):
    facts = _facts4(B={"cards": 3, "jokers": jokers})
    facts["bombs_played"] = bombs
    rules = g.rules_from_dict({"deckMode": "oneDeck", "playedBombMult": "double"})
    if code is None:
        g.validate_facts(facts, rules)
        return
    with pytest.raises(FactsError) as error:
        g.validate_facts(facts, rules)
    assert (error.value.code, error.value.field) == (code, "bombs_played")
