"""The card layer: notation, formatting, errors, deck limits (companion/engine/cards.py)."""
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.engine.cards import (ANY_JOKER, BIG_JOKER, SMALL_JOKER, Card, CardError, check_deck,
                                    decks_limit_error, format_cards, parse_cards, rank_name)
from companion.engine.public import EngineError, Text


def ranks(text):
    return [c.rank for c in parse_cards(text)]


# --------------------------------------------------------------------------------------------
# Every notation form of the design doc


@pytest.mark.parametrize("text, expected", [
    ("4 5 6", [4, 5, 6]),
    ("456", [4, 5, 6]),
    ("10 J Q", [10, 11, 12]),
    ("TJQ", [10, 11, 12]),
    ("tjq", [10, 11, 12]),
    ("10JQ", [10, 11, 12]),
    ("3 4 5 6 7 8 9 10 J Q K A 2", list(range(3, 16))),
    ("a k q j t", [14, 13, 12, 11, 10]),
    ("4,5,6", [4, 5, 6]),
    ("4, 5, 6", [4, 5, 6]),
    ("4，5、6", [4, 5, 6]),
    ("  7\t8\n9  ", [7, 8, 9]),
    ("SJ", [SMALL_JOKER]),
    ("BJ", [BIG_JOKER]),
    ("JK", [ANY_JOKER]),
    ("sj bj jk", [SMALL_JOKER, BIG_JOKER, ANY_JOKER]),
    ("小王", [SMALL_JOKER]),
    ("大王", [BIG_JOKER]),
    ("王", [ANY_JOKER]),
    ("7 JK", [7, ANY_JOKER]),
    ("7 JK", [7, ANY_JOKER]),
    ("5 5 小王 大王", [5, 5, SMALL_JOKER, BIG_JOKER]),
    ("2 2", [15, 15]),
])
def test_notation_ranks(text, expected):
    assert ranks(text) == expected


@pytest.mark.parametrize("text, expected", [
    ("5h 10h Kh", [Card(5, "h"), Card(10, "h"), Card(13, "h")]),
    ("5H 10H KH", [Card(5, "h"), Card(10, "h"), Card(13, "h")]),
    ("5♥", [Card(5, "h")]),
    ("A♠ K♣ Q♦ J♥", [Card(14, "s"), Card(13, "c"), Card(12, "d"), Card(11, "h")]),
    ("A♤ K♧ Q♢ J♡", [Card(14, "s"), Card(13, "c"), Card(12, "d"), Card(11, "h")]),
    ("10h10d", [Card(10, "h"), Card(10, "d")]),
    ("2s 2c", [Card(15, "s"), Card(15, "c")]),
    ("5 5s", [Card(5), Card(5, "s")]),
    ("A SJ", [Card(14), Card(SMALL_JOKER)]),
    ("AsJs", [Card(14, "s"), Card(11, "s")]),  # a suit after every card reads one way
])
def test_notation_suits(text, expected):
    assert list(parse_cards(text)) == expected


def test_list_input_is_joined():
    assert ranks(["4", "5", "6"]) == [4, 5, 6]
    assert ranks(("10", "J")) == [10, 11]


def test_card_properties():
    assert Card(SMALL_JOKER).is_joker and Card(BIG_JOKER).is_joker and Card(ANY_JOKER).is_joker
    assert not Card(15).is_joker
    assert [Card(r).points for r in (5, 10, 13, 12, 3)] == [5, 10, 10, 0, 0]
    assert str(Card(10, "h")) == "10h"
    assert Card(10, "h").pretty() == "10♥"
    assert rank_name(14) == "A" and rank_name(15) == "2"


def test_format():
    assert format_cards(parse_cards("456")) == "4 5 6"
    assert format_cards(parse_cards("TJQ")) == "10 J Q"
    assert format_cards(parse_cards("5h 10h kh")) == "5h 10h Kh"
    assert format_cards(parse_cards("5h 10h kh"), pretty=True) == "5♥ 10♥ K♥"
    assert format_cards(parse_cards("小王 大王 王")) == "SJ BJ JK"


# --------------------------------------------------------------------------------------------
# Error messages say what and where


def test_exact_error_message_of_the_design():
    with pytest.raises(CardError) as info:
        parse_cards("4 5 1")
    assert str(info.value) == "'1' at position 3 is not a card: ranks are 3–10, J, Q, K, A, 2; jokers SJ, BJ"
    assert info.value.code == "bad_card"
    assert isinstance(info.value.message, Text)
    assert info.value.message.params == {"token": "1", "position": 3}


@pytest.mark.parametrize("text, token, position", [
    ("1", "1", 1),
    ("11", "11", 1),
    ("4 5 X", "X", 3),
    ("X 5", "X", 1),
    ("3 4 5 6 7 8 9 10 J Q K A 2 1", "1", 14),
    ("Z", "Z", 1),
    ("0", "0", 1),
])
def test_error_names_token_and_position(text, token, position):
    with pytest.raises(CardError) as info:
        parse_cards(text)
    assert info.value.message.params["token"] == token
    assert info.value.message.params["position"] == position
    assert f"'{token}' at position {position}" in str(info.value)


@pytest.mark.parametrize("text", ["", "   ", ",,,", "\n"])
def test_no_cards(text):
    with pytest.raises(CardError) as info:
        parse_cards(text)
    assert info.value.code == "no_cards"


@pytest.mark.parametrize("value", [None, 5, 4.5, object()])
def test_non_text_is_a_card_error(value):
    with pytest.raises(CardError):
        parse_cards(value)


def test_card_error_is_an_engine_error_with_a_dict():
    with pytest.raises(EngineError) as info:
        parse_cards("4 5 1")
    assert info.value.to_dict() == {"code": "bad_card", "message": str(info.value), "field": "cards"}


# --------------------------------------------------------------------------------------------
# Deck limits: one deck 54 cards (2 jokers), two decks 108 (4 jokers)


@pytest.mark.parametrize("text, decks, code", [
    ("7 7 7 7", 1, None),
    ("7 7 7 7 7", 1, "too_many_copies"),
    ("7 7 7 7 7 7 7 7", 2, None),
    ("7 7 7 7 7 7 7 7 7", 2, "too_many_copies"),
    ("SJ BJ", 1, None),
    ("SJ BJ JK", 1, "too_many_jokers"),
    ("SJ SJ", 1, "too_many_jokers"),
    ("SJ SJ", 2, None),
    ("SJ SJ BJ BJ", 2, None),
    ("SJ SJ BJ BJ JK", 2, "too_many_jokers"),
    ("JK JK", 1, None),
    ("5h 5h", 1, "too_many_copies"),
    ("5h 5h", 2, None),
    ("5h 5h 5h", 2, "too_many_copies"),
    ("5h 5s 5c 5d", 1, None),
])
def test_deck_limits(text, decks, code):
    cards = parse_cards(text)
    error = decks_limit_error(cards, decks, field="play")
    if code is None:
        assert error is None
        check_deck(cards, decks)
    else:
        assert error is not None and error.code == code and error.field == "play"
        with pytest.raises(CardError):
            check_deck(cards, decks)


def test_deck_limit_message_is_clear():
    error = decks_limit_error(parse_cards("7 7 7 7 7"), 1)
    assert str(error) == "There are 5 cards of rank 7, but 1 deck holds only 4."


# --------------------------------------------------------------------------------------------
# Properties

natural = st.builds(Card, st.integers(3, 15), st.sampled_from([None, "s", "h", "c", "d"]))
joker = st.builds(Card, st.sampled_from([SMALL_JOKER, BIG_JOKER, ANY_JOKER]))
card_tuples = st.lists(st.one_of(natural, joker), min_size=1, max_size=20).map(tuple)


@settings(max_examples=200)
@given(card_tuples)
def test_parse_format_round_trip(cards):
    assert parse_cards(format_cards(cards)) == cards
    assert parse_cards(format_cards(cards, pretty=True)) == cards


@settings(max_examples=200)
@given(st.text(max_size=30))
def test_parse_raises_only_card_error(text):
    try:
        cards = parse_cards(text)
    except CardError:
        return
    assert cards and all(isinstance(c, Card) for c in cards)


@settings(max_examples=200)
@given(st.text(alphabet="0123456789TJQKAtjqka SBHCDshcd♠♥♣♦小大王,1", max_size=20))
def test_parse_card_like_text_raises_only_card_error(text):
    try:
        parse_cards(text)
    except CardError as error:
        assert error.code in ("bad_card", "no_cards", "ambiguous_cards")


# Run-together text that reads two ways is refused with both spellings; its spaced twin is read.
@pytest.mark.parametrize("text, first, second, twin, twin_cards", [
    ("5sJ", "5 SJ", "5s J", "5s J", [Card(5, "s"), Card(11)]),
    ("QJK", "Q JK", "Q J K", "Q JK", [Card(12), Card(ANY_JOKER)]),
    ("10JK", "10 JK", "10 J K", "10 J K", [Card(10), Card(11), Card(13)]),
    ("7JK", "7 JK", "7 J K", "7 JK", [Card(7), Card(ANY_JOKER)]),
    ("ASJ", "A SJ", "As J", "A SJ", [Card(14), Card(SMALL_JOKER)]),
])
def test_ambiguous_compact_notation_names_both_readings(text, first, second, twin, twin_cards):
    with pytest.raises(CardError) as caught:
        parse_cards(text)
    assert caught.value.code == "ambiguous_cards" and caught.value.field == "cards"
    message = str(caught.value)
    assert f"'{text}'" in message and first in message and second in message
    assert list(parse_cards(twin)) == twin_cards


@pytest.mark.parametrize("text, expected", [
    ("10sJsQs", [Card(10, "s"), Card(11, "s"), Card(12, "s")]),
    ("JK", [Card(ANY_JOKER)]),  # a word that is a joker's name is that joker
    ("SJ", [Card(SMALL_JOKER)]),
    ("TJQ", [Card(10), Card(11), Card(12)]),
])
def test_compact_notation_with_one_reading(text, expected):
    assert list(parse_cards(text)) == expected


@pytest.mark.parametrize("text, expected", [
    ("８ ９ １０", [8, 9, 10]),          # full-width digits from a Chinese keyboard
    ("Ｊ Ｑ Ｋ", [11, 12, 13]),          # full-width letters
    ("5，6、7", [5, 6, 7]),              # Chinese commas
    ("joker 5", [ANY_JOKER, 5]),
    ("Joker", [ANY_JOKER]),
    ("5 鬼", [5, ANY_JOKER]),
    ("小鬼 大鬼", [SMALL_JOKER, BIG_JOKER]),
    ("大小王", [BIG_JOKER, SMALL_JOKER]),  # the pair of both jokers
])
def test_keyboard_and_word_forms(text, expected):
    assert ranks(text) == expected


@pytest.mark.parametrize("text", ["８x", "jokr", "鬼鬼x"])
def test_keyboard_and_word_forms_twins_that_fail(text):
    with pytest.raises(CardError) as caught:
        parse_cards(text)
    assert caught.value.code == "bad_card"
