"""大冶打拱 play legality: the 23 examples of rules/dagong.md §12, each with its twin, and more."""
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.engine import dagong
from companion.engine.cards import Card, CardError, decks_limit_error
from companion.engine.dagong.combos import cards_key, fits_decks
from companion.engine.public import Text

# (id, previous (None = lead), play, house rules, legal, code)
EXAMPLES = [
    ("1", None, "3 3 3 4 4 4", {}, True, "ok"),
    ("1 twin", None, "3 3 3 4 4 5", {}, False, "not_a_combination"),
    ("2", None, "3 4 5 6 7", {}, False, "no_straights"),
    ("2 twin", None, "3 4 5 6 7", {"allowStraights": True}, True, "ok"),
    ("3", "9", "10", {}, True, "ok"),
    ("3 twin", "9", "8", {}, False, "not_higher"),
    ("4", "2", "JK", {}, False, "not_higher"),
    ("4 twin", "A", "JK", {}, True, "ok"),
    ("4 twin, joker = 3", "A", "JK", {"laiziSingleValue": 3}, False, "not_higher"),
    ("5", "7 7", "8 JK", {}, True, "ok"),
    ("5 twin", "7 7", "7 JK", {}, False, "not_higher"),
    ("6", "33 44 55", "55 66 77", {}, True, "ok"),
    ("6 twin", "55 66 77", "33 44 55", {}, False, "not_higher"),
    ("7", "33 44 55", "66 77 88 99", {}, False, "length_mismatch"),
    ("7 twin", "33 44 55", "66 77 88", {}, True, "ok"),
    ("8", "QQ KK AA", "KK AA 22", {}, False, "two_in_sequence"),
    ("8 twin", "JJ QQ KK", "QQ KK AA", {}, True, "ok"),
    ("9", "A", "3 3", {}, False, "type_mismatch"),
    ("9 twin", "A", "2", {}, True, "ok"),
    ("10", "8 8 8", "9 9 JK", {}, True, "ok"),
    ("10 twin", "8 8 8", "7 7 JK", {}, False, "not_higher"),
    ("11", "333444", "5h 10c Ks", {}, True, "ok"),
    ("11 twin", "333444", "5h 10c Qs", {}, False, "not_a_combination"),
    ("12", "5h 10c Ks", "5d 10s Ks", {}, False, "mixed_510k"),
    ("12 twin (=13)", "5h 10c Ks", "5d 10d Kd", {}, True, "ok"),
    ("13", "5h 10c Ks", "5d 10d Kd", {}, True, "ok"),
    ("13 twin: no suits typed", "5h 10c Ks", "5 10 K", {}, False, "mixed_510k"),
    ("14 ♦ on ♥", "5h 10h Kh", "5d 10d Kd", {}, False, "suit_not_higher"),
    ("14 ♠ on ♥", "5h 10h Kh", "5s 10s Ks", {}, True, "ok"),
    ("14 same suit", "5h 10h Kh", "5h 10h Kh", {}, False, "suit_not_higher"),
    ("15", "5s 10s Ks", "3 3 3 3", {}, True, "ok"),
    ("15 twin", "5s 10s Ks", "3 3 3", {}, False, "needs_bomb"),
    ("16", "K K K K", "5s 10s Ks", {}, False, "bomb_beats_510k"),
    ("16 twin: 510K > 4-bomb", "K K K K", "5s 10s Ks", {"bombVs510K": "510KAboveFourBomb"}, True, "ok"),
    ("16 twin: not > 5-bomb", "K K K K K", "5s 10s Ks", {"bombVs510K": "510KAboveFourBomb"}, False,
     "bomb_beats_510k"),
    ("17", "5 5 5 5", "3 3 3 3 3", {}, True, "ok"),
    ("17 twin", "5 5 5 5 5", "3 3 3 3", {}, False, "bomb_too_small"),
    ("18", "A A A A", "2 2 2 2", {}, True, "ok"),
    ("18 twin", "A A A A", "K K K K", {}, False, "bomb_too_small"),
    ("19", "7 7 7 JK", "7 7 7 7", {}, False, "bomb_equal"),
    ("19 hardBeatsSoft", "7 7 7 JK", "7 7 7 7", {"hardBeatsSoft": True}, True, "ok"),
    ("19 nine 7s: the two plays need more than two decks", "7 7 7 7 JK", "7 7 7 7 7", {}, False,
     "too_many_copies"),
    ("19b", "9 9 9 9 JK", "6 6 6 6 6", {}, False, "bomb_too_small"),
    ("19b hardBeatsSoft", "9 9 9 9 JK", "6 6 6 6 6", {"hardBeatsSoft": True}, True, "ok"),
    ("19b reversed: soft never beats hard", "6 6 6 6 6", "9 9 9 9 JK", {"hardBeatsSoft": True}, False,
     "bomb_too_small"),
    ("19b reversed, default: rank decides", "6 6 6 6 6", "9 9 9 9 JK", {}, True, "ok"),
    ("20", "9 9 9 9", "5 JK JK", {}, False, "needs_bomb"),
    ("20 with two jokers allowed: still below a bomb", "9 9 9 9", "5 JK JK", {"maxJokersIn510K": 2}, False,
     "bomb_beats_510k"),
    ("20 twin: on a triple", "9 9 9", "5 JK JK", {}, False, "too_many_jokers_in_510k"),
    ("20 twin: on a triple, two jokers allowed", "9 9 9", "5 JK JK", {"maxJokersIn510K": 2}, True, "ok"),
    ("21", "6 6", "JK JK", {}, True, "ok"),
    ("21 twin: jokers = 3", "6 6", "JK JK", {"laiziSingleValue": 3}, False, "not_higher"),
    ("22", "K", "pass", {}, True, "pass"),
    ("22 twin: the leader cannot pass", None, "pass", {}, False, "lead_pass"),
]


@pytest.mark.parametrize("label,previous,play,switches,legal,code", EXAMPLES, ids=[e[0] for e in EXAMPLES])
def test_legality_examples(label, previous, play, switches, legal, code):
    verdict = dagong.check(previous, play, dagong.rules_from_dict(switches))
    assert (verdict.legal, verdict.code) == (legal, code), verdict.reason
    assert isinstance(verdict.reason, Text) and verdict.reason.endswith(".")


def test_every_legal_example_has_an_illegal_twin():
    by_number = {}
    for label, *_, legal, _code in EXAMPLES:
        by_number.setdefault(label.split()[0], set()).add(legal)
    assert all(outcomes == {True, False} for outcomes in by_number.values()), by_number


@pytest.mark.parametrize("previous,play,phrase", [
    ("5h 10c Ks", "5d 10s Ks", "A mixed 510K cannot beat another mixed 510K."),
    ("5h 10c Ks", "5 10 K", "type the suits"),
    ("5h 10h Kh", "5 10 K", "type the suits"),
    ("2", "JK", "joker played alone counts as 2"),
    ("K K K K", "5s 10s Ks", "any bomb beats any 510K"),
    ("9 9 9", "5 JK JK", "at most 1 joker"),
    (None, "3 4 5 6 7", "allowStraights"),
    ("QQ KK AA", "KK AA 22", "A 2 cannot be part of a sequence"),
    ("33 44 55", "66 77 88 99", "same number of cards"),
])
def test_reasons_name_the_rule(previous, play, phrase):
    assert phrase in dagong.check(previous, play).reason


def test_reason_is_a_translatable_template():
    reason = dagong.check("9", "8").reason
    assert isinstance(reason, Text)
    assert "{play}" in reason.template and "{previous}" in reason.template
    assert reason.template.format(**reason.params) == str(reason)


# --------------------------------------------------------------------------------------------
# Input handling


@pytest.mark.parametrize("previous", [None, "", "-", "  "])
def test_lead_spellings(previous):
    assert dagong.check(previous, "7 7").legal
    assert dagong.check(previous, "7 8").code == "not_a_combination"


@pytest.mark.parametrize("play", ["pass", "PASS", "-", "", "过"])
def test_pass_spellings(play):
    assert dagong.check("7", play).code == "pass"
    assert dagong.check(None, play).code == "lead_pass"


@pytest.mark.parametrize("previous,play,field", [("7", "7x", "play"), ("1", "8", "previous"),
                                                 ("7", 12, "play"), (["Z"], "8", "previous")])
def test_bad_card_text_raises_card_error_with_field(previous, play, field):
    with pytest.raises(CardError) as error:
        dagong.check(previous, play)
    assert error.value.field == field


def test_too_many_copies_is_illegal_not_an_error():
    verdict = dagong.check(None, "2 2 2 2 2 2 2 2 2")
    assert (verdict.legal, verdict.code) == (False, "too_many_copies")
    assert dagong.check(None, "2 2 2 2 2 2 2 2").legal  # eight 2s exist in two decks
    assert dagong.check(None, "JK JK JK JK JK").code == "too_many_copies"
    assert dagong.check("5h 5h 5h", "6 6 6").code == "too_many_copies"
    assert dagong.check("5h 5h", "6 6").legal


@pytest.mark.parametrize("previous, play, legal", [
    ("8 8 8 8", "8 8 8 8 8", False),   # nine 8s: each play fits two decks, both together do not
    ("8 8 8", "8 8 8 8 8", True),      # twin: eight 8s
    ("5s 10s Ks", "5s 5 5 5", True),    # two ♠5 exist in two decks
    ("5s 10s Ks", "5s 5s 5 5", False),  # three ♠5 do not
    ("JK JK JK", "3 3 3 JK JK", False),  # five jokers
    ("JK JK", "3 3 3 JK JK", True),    # twin: four
])
def test_the_two_plays_together_fit_the_decks(previous, play, legal):
    verdict = dagong.check(previous, play)
    assert verdict.legal is legal, verdict.reason
    if not legal:
        assert verdict.code == "too_many_copies"
        assert "together" in verdict.reason and verdict.reason.params["problem"]


def test_answers_check_hand_and_table_together():
    with pytest.raises(dagong.CardError) as error:
        dagong.answers("8 8 8 8", hand="8 8 8 8 8")
    assert (error.value.field, error.value.code) == ("hand", "too_many_copies")
    assert dagong.answers("8 8 8", hand="8 8 8 8 8")  # twin: eight 8s


@pytest.mark.parametrize("previous, play, readings", [
    # every reading that beats, the one used first; "3 3 4 4" also reads as nothing weaker here
    ("3 3 4 4", "5 5 JK JK", ["linked_pairs 5", "bomb 5", "linked_pairs 4"]),
    # twin: against 5 5 6 6 the pairs 4 to 5 and 5 to 6 do not beat, only the bomb and 6 to 7
    ("5 5 6 6", "6 6 JK JK", ["linked_pairs 6", "bomb 6"]),
    ("J J J J", "10 10 10 JK", []),    # illegal: every reading considered
])
def test_verdict_readings_are_the_readings_that_beat(previous, play, readings):
    verdict = dagong.check(previous, play)
    if readings:
        assert verdict.legal
        assert [f"{r.type} {r.rank}" for r in verdict.readings] == readings
        assert verdict.readings[0] == verdict.play
        table = dagong.classify(previous)[0]
        assert all(dagong.beats(table, r, dagong.DEFAULT_RULES) for r in verdict.readings)
    else:
        assert not verdict.legal and verdict.readings == dagong.classify(play)


def test_previous_that_is_no_combination():
    assert dagong.check("3 5", "4 4").code == "previous_not_a_combination"


def test_declared_readings():
    # 5 5 + two jokers is read at its highest: a soft bomb of four 5s
    assert dagong.check("5 5 JK JK", "6 6 7 7").code == "needs_bomb"
    # declared as consecutive pairs, 66 77 beats it
    assert dagong.check("5 5 JK JK", "6 6 7 7", previous_as="5 5 6 6").legal
    assert dagong.check("5 5 JK JK", "6 6 7 7", previous_as="linked_pairs").legal
    assert dagong.check("5 5 JK JK", "6 6 7 7", previous_as="9 9 9 9").code == "reading_not_possible"
    # the play may be declared too: 8 + joker as a pair of 8s
    verdict = dagong.check("7 7", "8 JK", play_as="8 8")
    assert verdict.legal and verdict.play.values == (8, 8)
    assert dagong.check("7 7", "8 JK", play_as="7 7").code == "reading_not_possible"
    assert dagong.check("4 4 5 5", "5 5 JK JK", play_as="5 5 6 6").legal
    assert dagong.check("4 4 5 5", "5 5 JK JK", play_as="4 4 5 5").code == "not_higher"
    assert dagong.check(None, "8 JK", play_as="bomb").code == "reading_not_possible"
    # a 510K with a joker may be declared pure (in its suit) or mixed
    assert dagong.check("5c 10c Kc", "5h 10h JK", play_as="5h 10h Kh").legal
    assert dagong.check("5c 10c Kc", "5h 10h JK", play_as="5h 10h Kd").code == "mixed_below_pure"
    assert dagong.check("5c 10c Kc", "5h 10h JK", play_as="5h 10s Kh").code == "reading_not_possible"  # 10♥ stays
    assert dagong.check("5c 10c Kc", "5h 10h JK", play_as="5s 10s Ks").code == "reading_not_possible"


def test_verdict_play_is_the_reading_used():
    verdict = dagong.check("7 7", "8 JK")
    assert (verdict.play.type, verdict.play.rank, verdict.play.values) == ("pair", 8, (8, 8))
    assert verdict.readings and verdict.play in verdict.readings


def test_rules_may_be_given_as_a_dict():
    assert dagong.check(None, "3 4 5 6 7", {"allowStraights": True}).legal


# --------------------------------------------------------------------------------------------
# classify


def test_classify_sequences_report_the_low_rank():
    """Ruling (issue 7): the rank of a sequence is its LOW rank, as the Reading contract says."""
    readings = dagong.classify("5 5 6 6 7 7")
    assert [(r.type, r.rank, r.get("low"), r.get("top")) for r in readings] == [("linked_pairs", 5, 5, 7)]
    jokers = dagong.classify("5 5 JK JK")
    assert {(r.type, r.rank) for r in jokers} == {("bomb", 5), ("linked_pairs", 5), ("linked_pairs", 4)}
    assert jokers[0].type == "bomb"  # strongest first


def test_classify_510k_extras():
    (pure,) = dagong.classify("5h 10h Kh")
    assert (pure.type, pure.get("pure"), pure.get("suit")) == ("510k", True, "h")
    (mixed,) = dagong.classify("5 10 K")
    assert (mixed.get("pure"), mixed.get("suited")) == (False, False)
    with_joker = dagong.classify("5s 10s JK")
    assert [(r.get("pure"), r.get("suit")) for r in with_joker] == [(True, "s"), (False, None)]
    assert dagong.classify("5 JK JK") and all(r.type == "triple" for r in dagong.classify("5 JK JK"))
    assert any(r.type == "510k" for r in dagong.classify("5 JK JK", dagong.Rules(max_jokers_in_510k=2)))


def test_classify_bombs_soft_and_hard():
    (hard,) = dagong.classify("8 8 8 8")
    assert (hard.type, hard.rank, hard.get("soft")) == ("bomb", 8, False)
    soft = dagong.classify("8 8 8 JK")[0]
    assert (soft.type, soft.rank, soft.get("soft")) == ("bomb", 8, True)
    assert [r.type for r in dagong.classify("8 8 8")] == ["triple"]
    assert {r.type for r in dagong.classify("8 8 8", dagong.Rules(bomb_min=3))} == {"triple", "bomb"}


def test_jokers_alone():
    assert [(r.type, r.rank) for r in dagong.classify("JK")] == [("single", 15)]
    assert [(r.type, r.rank) for r in dagong.classify("SJ BJ")] == [("pair", 15)]
    assert [(r.type, r.rank) for r in dagong.classify("SJ BJ JK")] == [("triple", 15)]
    three = dagong.classify("SJ BJ JK", dagong.Rules(three_jokers="pure510KSpade"))
    assert [(r.type, r.get("suit")) for r in three] == [("510k", "s")]
    assert [(r.type, r.rank) for r in dagong.classify("SJ SJ BJ BJ")] == [("bomb", 15)]
    assert dagong.classify("SJ SJ BJ BJ", dagong.Rules(four_jokers="topBomb"))[0].type == "four_jokers"


def test_three_jokers_as_spade_510k_beats_a_heart_510k():
    rules = dagong.Rules(three_jokers="pure510KSpade")
    assert dagong.check("5h 10h Kh", "SJ BJ JK", rules).legal
    assert not dagong.check("5h 10h Kh", "SJ BJ JK").legal  # a triple of 2s by default


def test_four_jokers():
    assert dagong.check("A A A A", "SJ SJ BJ BJ").legal       # wild: four 2s
    assert not dagong.check("3 3 3 3 3", "SJ SJ BJ BJ").legal
    top = dagong.Rules(four_jokers="topBomb")
    assert dagong.check("2 2 2 2 2 2 2 2", "SJ SJ BJ BJ", top).legal
    assert not dagong.check("SJ SJ BJ BJ", "2 2 2 2 2 2 2 2", top).legal


def test_xi_premium():
    rules = dagong.Rules(xi_premium=True)
    assert dagong.check("9 9 9 9 9 9 JK JK JK", "4 4 4 4 4 4 4", rules).legal
    assert not dagong.check("9 9 9 9 9 9 JK JK JK", "4 4 4 4 4 4 4").legal
    assert not dagong.check("4 4 4 4 4 4 4", "9 9 9 9 9 9 JK JK JK", rules).legal
    assert not dagong.check("9 9 9 9 9 9 JK JK JK", "4 4 4 4 4 4", rules).legal  # 6 is no 喜


def test_gunlong():
    rules = dagong.Rules(gunlong=True)
    assert dagong.classify("5 5 5 5 6 6 6 6", rules)[0].type == "gunlong"
    assert dagong.classify("5 5 5 5 6 6 6 6") == ()
    assert dagong.check("2 2 2 2 2 2 2 2", "5 5 5 5 6 6 6 6", rules).legal
    assert not dagong.check("5 5 5 5 6 6 6 6", "2 2 2 2 2 2 2 2", rules).legal
    assert dagong.check("5 5 5 5 6 6 6 6", "7 7 7 7 8 8 8 8", rules).legal
    assert not dagong.check("7 7 7 7 8 8 8 8", "5 5 5 5 6 6 6 6", rules).legal


def test_straights_when_allowed():
    rules = dagong.Rules(allow_straights=True)
    assert dagong.check("3 4 5 6 7", "4 5 6 7 8", rules).legal
    assert dagong.check("3 4 5 6 7", "4 5 6 7 8 9", rules).code == "length_mismatch"
    assert dagong.check(None, "3 4", rules).code == "not_a_combination"
    assert dagong.check(None, "10 J Q K A", rules).legal
    assert dagong.check(None, "J Q K A 2", rules).code == "two_in_sequence"
    longer = dagong.Rules(allow_straights=True, min_straight=5)
    assert dagong.check(None, "3 4 5 6", longer).code == "sequence_too_short"


def test_min_linked_pairs():
    rules = dagong.Rules(min_linked_pairs=3)
    assert dagong.check(None, "3 3 4 4", rules).code == "sequence_too_short"
    assert dagong.check(None, "3 3 4 4 5 5", rules).legal


def test_linked_triples_with_jokers():
    assert dagong.check("333 444", "555 66 JK").legal
    assert dagong.check("333 444", "555 66 JK", previous_as="linked_triples").legal
    assert dagong.check("555 666", "444 55 JK").code == "not_higher"


@settings(deadline=None)
@given(st.lists(st.builds(Card, st.sampled_from([3, 5, 8, 10, 13, 16, 17, 18]), st.sampled_from([None, "s", "h"])),
                max_size=14))
def test_the_quick_deck_test_agrees_with_the_card_parser(cards):
    """combos.fits_decks (codes) says what cards.decks_limit_error says (cards)."""
    cards = [Card(c.rank) if c.rank >= 16 else c for c in cards]
    assert fits_decks(sorted(cards_key(cards))) == (decks_limit_error(cards, 2) is None)
