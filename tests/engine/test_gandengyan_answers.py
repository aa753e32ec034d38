"""干瞪眼 "what beats this?" (issue 13): every answer is legal by ``check``, and for small hands
nothing legal is missing (brute force over every subset of the hand)."""
from itertools import combinations

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from companion.engine import gandengyan
from companion.engine.cards import Card, format_cards
from companion.engine.errors import EngineError
from companion.engine.gandengyan.answers import weight

# the profile decides how many examples (HYPOTHESIS_PROFILE=thorough: 1000)
SETTINGS = settings(deadline=None, suppress_health_check=[HealthCheck.too_slow])

rules_strategy = st.builds(
    lambda **kw: gandengyan.rules_from_dict(kw),
    triple_follow=st.sampled_from(["plusOne", "anyHigher"]), triple_is_bomb=st.booleans(),
    joker_bomb=st.sampled_from(["off", "top", "as3", "as4"]), pure_beats_soft=st.booleans(),
    joker_single=st.booleans(), two_as_last_card=st.sampled_from(["allowed", "forbidden"]))
card_strategy = st.one_of(st.builds(Card, st.sampled_from([4, 5, 6, 7, 14, 15])),
                          st.builds(Card, st.sampled_from([16, 17])))
cards_strategy = st.lists(card_strategy, min_size=1, max_size=8)


def _legal_plays(previous, hand, rules, players):
    """{kind: smallest weight} over every subset of ``hand`` that check calls legal."""
    best = {}
    for n in range(1, len(hand) + 1):
        for subset in set(combinations(sorted(hand, key=str), n)):
            verdict = gandengyan.check(previous, list(subset), rules, players=players, last_card=n == len(hand))
            if verdict.legal and verdict.play is not None:
                kind = gandengyan.kind_of(verdict.play)
                value = weight(verdict.play, rules)
                best[kind] = min(best.get(kind, value), value)
    return best


@SETTINGS
@given(rules=rules_strategy, previous=cards_strategy, hand=cards_strategy, players=st.sampled_from([2, 4]))
def test_answers_are_legal_and_nothing_is_missing(rules, previous, hand, players):
    try:
        found = gandengyan.answers(list(previous), rules, hand=list(hand), players=players)
    except EngineError:
        assume(False)
        return
    for answer in found:
        verdict = gandengyan.check(list(previous), list(answer.cards), rules, players=players,
                                   last_card=len(answer.cards) == len(hand))
        assert verdict.legal, (format_cards(answer.cards), verdict.reason)
        assert all(answer.cards.count(c) <= hand.count(c) for c in answer.cards)  # only the hand's cards
    expected = _legal_plays(list(previous), hand, rules, players)
    got = {a.kind: weight(a.play, rules) for a in found}
    assert got == expected


@SETTINGS
@given(rules=rules_strategy, previous=cards_strategy)
def test_answers_without_a_hand_are_legal(rules, previous):
    try:
        found = gandengyan.answers(list(previous), rules)
    except EngineError:
        assume(False)
        return
    for answer in found:
        assert gandengyan.check(list(previous), list(answer.cards), rules).legal
    assert len({a.kind for a in found}) == len(found)


@pytest.mark.parametrize("previous, hand, expected", [
    ("7", "8 2 3 3 3 3", [("follow", "8"), ("two", "2"), ("bomb_4", "3 3 3 3")]),
    ("Q K A", "9 9 9 JK", [("bomb_4", "9 9 9 JK")]),
    ("7", "9 10", []),
    ("4 5 6", "5 6 SJ", [("follow", "5 6 SJ")]),
])
def test_examples(previous, hand, expected):
    found = gandengyan.answers(previous, hand=hand)
    assert [(a.kind, format_cards(a.cards)) for a in found] == expected


def test_without_a_hand_and_declared():
    assert [format_cards(a.cards) for a in gandengyan.answers("7")][:2] == ["8", "2"]
    triple = gandengyan.answers("5 SJ BJ", previous_as="5 5 5")
    assert format_cards(triple[0].cards) == "6 6 6"


@pytest.mark.parametrize("previous, kw, field", [
    ("-", {}, "previous"), ("6 8", {}, "previous"), ("7", {"hand": "8 x"}, "hand"), ("7", {"players": 9}, "players"),
    ("5 5 5", {"previous_as": "6 6 6"}, "previous_as")])
def test_bad_input(previous, kw, field):
    with pytest.raises(EngineError) as error:
        gandengyan.answers(previous, **kw)
    assert error.value.field == field


# every switch check respects, answers respect (issue 19 item 1): a 2 that would be the last card
@pytest.mark.parametrize("hand, two_as_last_card, expected", [
    ("2", "forbidden", []),                       # the 2 would empty the hand: check refuses it
    ("2", "allowed", [("two", "2")]),             # twin: allowed at this table
    ("2 3", "forbidden", [("two", "2")]),         # twin: a card stays in the hand
    ("2 2", "forbidden", [("two", "2")]),         # one 2 of two is not the last card
])
def test_answers_respect_two_as_last_card(hand, two_as_last_card, expected):
    rules = gandengyan.rules_from_dict({"two_as_last_card": two_as_last_card})
    found = gandengyan.answers("Q", rules, hand=hand)
    assert [(a.kind, format_cards(a.cards)) for a in found] == expected
    for answer in found:
        last = len(answer.cards) == len(hand.split())
        assert gandengyan.check("Q", list(answer.cards), rules, last_card=last).legal
