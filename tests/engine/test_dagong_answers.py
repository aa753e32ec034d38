"""大冶打拱 "what beats this?" (issue 13): every answer is legal by ``check``, and for small hands
nothing legal is missing (brute force over every subset of the hand)."""
from itertools import combinations

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from companion.engine import dagong
from companion.engine.cards import Card, format_cards
from companion.engine.dagong.combos import strength
from companion.engine.dagong.rules import play_rules
from companion.engine.errors import EngineError

# the profile decides how many examples (HYPOTHESIS_PROFILE=thorough: 1000)
SETTINGS = settings(deadline=None, suppress_health_check=[HealthCheck.too_slow])

rules_strategy = st.builds(
    dagong.Rules,
    bomb_min=st.sampled_from([3, 4]), allow_straights=st.booleans(), max_jokers_in_510k=st.sampled_from([1, 2]),
    three_jokers=st.sampled_from(["tripleOfLaiziValue", "pure510KSpade"]),
    four_jokers=st.sampled_from(["wild", "topBomb"]), laizi_single_value=st.sampled_from([2, 3]),
    bomb_vs_510k=st.sampled_from(["bombAbove510K", "510KAboveFourBomb"]), hard_beats_soft=st.booleans(),
    xi_premium=st.booleans(), gunlong=st.booleans())

# a few ranks and suits keep the brute force small while reaching every kind
card_strategy = st.one_of(
    st.builds(Card, st.sampled_from([4, 5, 6, 10, 13, 15]), st.sampled_from([None, "h", "s"])),
    st.builds(Card, st.sampled_from([16, 17, 18])))
cards_strategy = st.lists(card_strategy, min_size=1, max_size=8)


def _legal_plays(previous, hand, rules):
    """{kind: weakest strength} over every subset of ``hand`` that check calls legal."""
    best = {}
    play = play_rules(rules)
    for n in range(1, len(hand) + 1):
        for subset in set(combinations(sorted(hand, key=str), n)):
            try:
                verdict = dagong.check(previous, list(subset), rules)
            except EngineError:
                continue
            if verdict.legal and verdict.play is not None:
                for reading in verdict.readings:  # every reading that beats (the player declares one)
                    kind = dagong.kind_of(reading)
                    value = strength(reading, play)
                    best[kind] = min(best.get(kind, value), value)
    return best


@SETTINGS
@given(rules=rules_strategy, previous=cards_strategy, hand=cards_strategy)
def test_answers_are_legal_and_nothing_is_missing(rules, previous, hand):
    try:
        found = dagong.answers(list(previous), rules, hand=list(hand))
    except EngineError:
        assume(False)
        return
    play = play_rules(rules)
    for answer in found:
        verdict = dagong.check(list(previous), list(answer.cards), rules, play_as=answer.declare)
        assert verdict.legal, (format_cards(answer.cards), verdict.reason)
        assert verdict.play == answer.play  # the declaration (None: the default) reads it as the answer
        assert all(answer.cards.count(c) <= hand.count(c) for c in answer.cards)  # only the hand's cards
    expected = _legal_plays(list(previous), hand, rules)
    got = {a.kind: strength(a.play, play) for a in found}
    assert got == expected


@SETTINGS
@given(rules=rules_strategy, previous=cards_strategy)
def test_answers_without_a_hand_are_legal(rules, previous):
    try:
        found = dagong.answers(list(previous), rules)
    except EngineError:
        assume(False)
        return
    for answer in found:
        verdict = dagong.check(list(previous), list(answer.cards), rules, play_as=answer.declare)
        assert verdict.legal and verdict.play == answer.play
    assert len({a.kind for a in found}) == len(found)


@pytest.mark.parametrize("previous, hand, expected", [
    ("7 7", "3 3 8 JK 9 9 9 9", [("follow", "8 JK"), ("bomb_4", "9 9 9 9"), ("bomb_5", "9 9 9 9 JK")]),
    ("7 7", "3 3 4", []),
    ("A", "SJ", [("follow", "SJ")]),
])
def test_examples(previous, hand, expected):
    found = dagong.answers(previous, hand=hand)
    assert [(a.kind, format_cards(a.cards)) for a in found] == expected


# the weakest answer of each kind over every joker reading (issue 19 item 2), with its declaration
@pytest.mark.parametrize("previous, hand, switches, expected", [
    ("3 3 4 4", "5 5 6 6 JK JK", {}, [("follow", "5 5 JK JK", "4 4 5 5"), ("bomb_4", "5 5 JK JK", "5 5 5 5")]),
    # twin: without the jokers the pairs 5 to 6 are the weakest follow, read as they are
    ("3 3 4 4", "5 5 6 6", {}, [("follow", "5 5 6 6", None)]),
    ("9 10 J Q", "J Q K JK", {"allowStraights": True}, [("follow", "J Q K JK", "10 J Q K")]),
    # twin: a natural 10 makes 10 to K the default reading
    ("9 10 J Q", "10 J Q K", {"allowStraights": True}, [("follow", "10 J Q K", None)]),
])
def test_weakest_over_every_reading(previous, hand, switches, expected):
    rules = dagong.rules_from_dict(switches)
    found = dagong.answers(previous, rules, hand=hand)
    assert [(a.kind, format_cards(a.cards), a.declare) for a in found] == expected
    for answer in found:
        verdict = dagong.check(previous, format_cards(answer.cards), rules, play_as=answer.declare)
        assert verdict.legal and verdict.play == answer.play


def test_without_a_hand():
    found = dagong.answers("7 7")
    assert [(a.kind, format_cards(a.cards)) for a in found][:3] == [
        ("follow", "8 8"), ("510k", "5 10 K"), ("pure_510k", "5d 10d Kd")]
    assert not dagong.answers("2 2 2 2 2 2 2 2 JK JK JK JK", hand="3 3 3 3 3 3 3 3")


def test_a_reading_declared():
    triple = dagong.answers("5 JK JK", previous_as="5 5 5", hand="6 6 6 7 7 7")
    assert triple[0].kind == "follow" and format_cards(triple[0].cards) == "6 6 6"


@pytest.mark.parametrize("previous, field", [("-", "previous"), ("5 6", "previous"), ("9 9 9 9 9 9 9 9 9", "previous")])
def test_bad_previous(previous, field):
    with pytest.raises(EngineError) as error:
        dagong.answers(previous)
    assert error.value.field == field


def test_bad_hand_and_players():
    with pytest.raises(EngineError) as error:
        dagong.answers("7", hand="8 x")
    assert error.value.field == "hand"
    with pytest.raises(EngineError) as error:
        dagong.answers("7", players=5)
    assert error.value.field == "players"


def test_declaration_pins_each_reading():
    for text in ("5 JK JK", "5h 10h JK", "JK JK JK JK", "4 4 JK JK"):
        for rules in (dagong.Rules(), dagong.Rules(allow_straights=True, bomb_min=3, three_jokers="pure510KSpade")):
            readings = dagong.classify(text, rules)
            for reading in readings:
                word = dagong.declaration(reading, readings)
                if word is not None:
                    assert dagong.check("-", text, rules, play_as=word).play == reading


# Issue 32 item 3: a 3-card bomb answers a triple read as a triple when bombs start at 3 (the
# declaration offered is the one check reads as the bomb); each row with its twin.
@pytest.mark.parametrize("bomb_min, previous_as, hand, kinds", [
    (3, "triple", "As Ah Ad 6s", ["follow", "bomb_3"]),
    (4, "triple", "As Ah Ad 6s", ["follow"]),            # twin: three aces are no bomb here
    (3, "bomb", "As Ah Ad 6s", ["bomb_3"]),              # the table's 5 5 5 is a bomb: only a bomb follows
    (3, "triple", "4s 4h 4d 6s", ["bomb_3"]),            # a lower triple: only as a bomb
    (4, "triple", "4s 4h 4d 6s", []),                    # twin
])
def test_a_three_card_bomb_answers_a_triple(bomb_min, previous_as, hand, kinds):
    rules = dagong.Rules(bomb_min=bomb_min)
    found = dagong.answers("5s 5c 5d", rules, hand=hand, previous_as=previous_as)
    assert [a.kind for a in found] == kinds
    for answer in found:  # what is offered is what check says, declared as offered
        verdict = dagong.check("5s 5c 5d", answer.cards, rules, previous_as=previous_as, play_as=answer.declare)
        assert verdict.legal and verdict.play == answer.verdict.play
        assert (answer.kind == "bomb_3") == (verdict.play.type == "bomb")


# Issue 32 item 5: a declaration never changes a natural card. (play, play_as, legal, pure): each
# declaration that moves a natural card's suit has a twin that keeps it.
@pytest.mark.parametrize("play, play_as, legal, pure", [
    ("5h 10h JK", "5s 10h Kc", False, None),   # the natural 5♥ would become 5♠
    ("5h 10h JK", "5h 10h Kc", True, False),   # twin: the joker alone takes another suit: mixed
    ("5h 10h JK", "5h 10h Kh", True, True),    # the joker as K♥: pure
    ("5h 10h JK", "5h 10s Kh", False, None),   # the natural 10♥ would become 10♠
    ("5h 10s JK", "5h 10s Kc", True, False),
    ("5h 10s JK", "5s 10s Ks", False, None),   # the natural 5♥ would become 5♠ to make it pure
    ("5h 10h Kh", "5h 10h Kh", True, True),
    ("5h 10h Kh", "5h 10h Kc", False, None),   # no joker: the K♥ stays a heart
])
def test_a_declaration_never_changes_a_natural_card(play, play_as, legal, pure):
    verdict = dagong.check("8 8", play, dagong.Rules(), play_as=play_as)
    assert verdict.legal is legal
    if legal:
        assert verdict.play.get("pure") is pure
    else:
        assert verdict.code == "reading_not_possible"


@pytest.mark.parametrize("hand", ["9 JK 5h 10h Kh", "JK 5h 10s Kd", "5c 10c JK 7 7", "JK JK 5d 10h Ks"])
def test_answers_declare_only_what_keeps_the_natural_cards(hand):
    from companion.engine.cards import parse_cards
    offered = dagong.answers("8 8", dagong.Rules(max_jokers_in_510k=2), hand=hand)
    declared = [a for a in offered if a.declare and any(c.suit for c in parse_cards(a.declare))]
    assert declared or hand != "9 JK 5h 10h Kh"  # the hand: the mixed 510K needs one
    for answer in declared:
        said = list(parse_cards(answer.declare))
        for card in (c for c in answer.cards if not c.is_joker):
            match = next(c for c in said if c.rank == card.rank)
            assert match.suit == card.suit, (answer.cards, answer.declare)
            said.remove(match)
        verdict = dagong.check("8 8", answer.cards, dagong.Rules(max_jokers_in_510k=2), play_as=answer.declare)
        assert verdict.legal and verdict.play == answer.verdict.play
