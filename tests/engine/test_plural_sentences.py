"""Sentences with a number in them say "1 bomb" / "2 bombs" (never "bomb(s)"): each family once
with a count of 1 (singular) and once with 2 (plural), and the plural Text keeps both forms and
its count through to_data / from_data and pickling, so that the web layer can ask each
language's catalog for its own plural form."""
import copy
import json
import pickle

import pytest

from companion.engine import gandengyan as g
from companion.engine.cards import decks_limit_error, parse_cards
from companion.engine.errors import FactsError
from companion.engine.gandengyan import combos
from companion.engine.text import N_, NP_, Text, fill, from_data, to_data


@pytest.fixture(autouse=True)
def fresh_readings():
    combos.readings_of.cache_clear()


# --- Text --------------------------------------------------------------------------------------

BOMBS = ("{name} holds {count} bomb.", "{name} holds {count} bombs.")


@pytest.mark.parametrize("count, english", [(1, "Ann holds 1 bomb."), (2, "Ann holds 2 bombs."),
                                            (0, "Ann holds 0 bombs.")])
def test_np_picks_the_english_form_by_its_count(count, english):
    text = NP_(*BOMBS, count, name="Ann", count=count)
    assert text == english and isinstance(text, Text)
    assert (text.template, text.plural, text.count) == (*BOMBS, count)
    assert text.params == {"name": "Ann", "count": count}


def test_ordinary_texts_have_no_plural():
    text = N_("{name} wins.", name="Ann")
    assert (text.plural, text.count) == (None, None)
    assert to_data(text) == {"template": "{name} wins.", "params": {"name": "Ann"}}   # stored as before


def test_a_plural_template_is_filled_with_its_count():
    template = NP_(*BOMBS, None)
    assert fill(template, 1, name="Ann", count=1) == "Ann holds 1 bomb."
    assert fill(template, 3, name="Ann", count=3) == "Ann holds 3 bombs."
    assert fill(N_("{name} wins."), name="Bo") == "Bo wins."


@pytest.mark.parametrize("count", [1, 2])
def test_a_plural_text_round_trips_through_to_data(count):
    inner = NP_("{count} joker", "{count} jokers", count, count=count)
    text = NP_(*BOMBS, count, name=inner, count=count)
    data = json.loads(json.dumps(to_data(text)))
    assert data["plural"] == BOMBS[1] and data["count"] == count
    back = from_data(data)
    assert back == text and (back.template, back.plural, back.count) == (text.template, text.plural, count)
    assert back.params["name"].plural == "{count} jokers" and back.params["name"].count == count


def test_stored_sentences_without_plural_keys_still_load():
    old = {"template": "{name} holds {count} bomb(s).", "params": {"name": "Ann", "count": 2}}
    text = from_data(old)
    assert text == "Ann holds 2 bomb(s)." and (text.plural, text.count) == (None, None)
    broken = dict(old, plural=7, count="two")        # a damaged record falls back to the ordinary Text
    assert from_data(broken) == "Ann holds 2 bomb(s)." and from_data(broken).plural is None


@pytest.mark.parametrize("count", [1, 2])
def test_a_plural_text_pickles_and_copies(count):
    text = NP_(*BOMBS, count, name="Ann", count=count)
    for clone in (pickle.loads(pickle.dumps(text)), copy.deepcopy(text), copy.copy(text)):
        assert clone == text and (clone.template, clone.plural, clone.count, clone.params) == \
            (text.template, text.plural, text.count, text.params)


# --- the card parser's deck limits (1 deck / 2 decks) ---------------------------------------------

@pytest.mark.parametrize("cards, decks, sentence", [
    ("7 7 7 7 7", 1, "There are 5 cards of rank 7, but 1 deck holds only 4."),
    ("7 " * 9, 2, "There are 9 cards of rank 7, but 2 decks hold only 8."),
    ("7h 7h", 1, "7♥ appears 2 times, but 1 deck holds only 1."),
    ("7h 7h 7h", 2, "7♥ appears 3 times, but 2 decks hold only 2."),
    ("JK JK JK", 1, "There are 3 jokers, but 1 deck holds only 2."),
    ("JK " * 5, 2, "There are 5 jokers, but 2 decks hold only 4."),
    ("SJ SJ", 1, "There are 2 SJ, but 1 deck holds only 1."),
    ("SJ SJ SJ", 2, "There are 3 SJ, but 2 decks hold only 2."),
])
def test_deck_limit_sentences_agree_with_the_decks(cards, decks, sentence):
    error = decks_limit_error(parse_cards(cards), decks)
    assert str(error) == sentence and error.message.count == decks


# --- 干瞪眼 check: too many copies in one play or in both (2 players: 1 deck, 3: 2 decks) ----------

@pytest.mark.parametrize("top, play, players, sentence", [
    (None, "7 7 7 7 7", 2, "There are 5 cards of rank 7, but 1 deck holds only 4."),
    (None, "7 " * 9, 3, "There are 9 cards of rank 7, but 2 decks hold only 8."),
    (None, "7h 7h", 2, "7♥ appears 2 times, but 1 deck holds only 1."),
    (None, "7h 7h 7h", 3, "7♥ appears 3 times, but 2 decks hold only 2."),
    (None, "7 JK JK JK", 2, "There are 3 jokers, but 1 deck holds only 2."),
    (None, "JK " * 5, 3, "There are 5 jokers, but 2 decks hold only 4."),
    (None, "5 SJ SJ", 2, "There are 2 SJ, but 1 deck holds only 1."),
    (None, "SJ SJ SJ", 3, "There are 3 SJ, but 2 decks hold only 2."),
    ("5 5 5", "5 5", 2, "5 5 5 and 5 5 together use 5 cards of rank 5, but 1 deck holds only 4."),
    ("5 5 5 5 5", "5 5 5 5", 3, "5 5 5 5 5 and 5 5 5 5 together use 9 cards of rank 5, but 2 decks hold only 8."),
    ("7h", "7h", 2, "7h and 7h together use 7h 2 times, but 1 deck holds only 1."),
    ("7h 7h", "7h", 3, "7h 7h and 7h together use 7h 3 times, but 2 decks hold only 2."),
])
def test_check_deck_sentences_agree_with_the_decks(top, play, players, sentence):
    verdict = g.check(top, play, players=players)
    assert (verdict.code, verdict.reason) == ("too_many_copies", sentence)
    assert verdict.reason.count == players - 1 and verdict.reason.plural is not None


# --- 干瞪眼 settlement steps ---------------------------------------------------------------------

def _step(loser, switches, **extra):
    facts = {"players": ["A", "B", "C"], "winner": "A", "losers": {"B": loser, "C": {"cards": 1}}, **extra}
    return g.settle(facts, g.rules_from_dict(switches)).steps[0]


@pytest.mark.parametrize("loser, switches, extra, step", [
    ({"cards": 3, "jokers": 1}, {"jokerDoubling": "perJoker"}, {}, "B: 3 cards, holds 1 joker, ×2 = 6"),
    ({"cards": 3, "jokers": 2}, {"jokerDoubling": "perJoker"}, {}, "B: 3 cards, holds 2 jokers, ×2 each = ×4 = 12"),
    ({"cards": 3, "twos": 1}, {"twosAreTrumps": "perTwo"}, {}, "B: 3 cards, holds one 2, ×2 = 6"),
    ({"cards": 3, "twos": 2}, {"twosAreTrumps": "perTwo"}, {}, "B: 3 cards, holds 2 2s, ×2 each = ×4 = 12"),
    ({"cards": 8, "held_bombs": [4]}, {"heldBombMult": "perBomb"}, {}, "B: 8 cards, holds 1 bomb, ×2 = 16"),
    ({"cards": 8, "held_bombs": [4, 4]}, {"heldBombMult": "perBomb"}, {},
     "B: 8 cards, holds 2 bombs, ×2 each = ×4 = 32"),
    ({"cards": 9, "held_bombs": [5]}, {"heldBombMult": "bySize"}, {}, "B: 9 cards, holds a bomb of 5 cards, ×8 = 72"),
    ({"cards": 9, "held_bombs": [4, 5]}, {"heldBombMult": "bySize"}, {},
     "B: 9 cards, holds bombs of 4, 5 cards, ×32 = 288"),
    ({"cards": 3}, {"playedBombMult": "double"}, {"bombs_played": [4]}, "B: 3 cards, 1 bomb played, ×2 = 6"),
    ({"cards": 3}, {"playedBombMult": "double"}, {"bombs_played": [4, 4]},
     "B: 3 cards, 2 bombs played, ×2 each = ×4 = 12"),
    ({"cards": 3}, {"playedBombMult": "bySize"}, {"bombs_played": [5]}, "B: 3 cards, a bomb of 5 cards played, ×8 = 24"),
    ({"cards": 3}, {"playedBombMult": "bySize"}, {"bombs_played": [4, 5]},
     "B: 3 cards, bombs of 4, 5 cards played, ×32 = 96"),
])
def test_settlement_steps_say_one_or_many(loser, switches, extra, step):
    assert _step(loser, switches, **extra) == step


def test_a_step_keeps_its_plural_for_the_translation():
    step = _step({"cards": 3, "jokers": 2}, {"jokerDoubling": "perJoker"})
    factor = step.params["factors"]
    assert (factor.template, factor.plural, factor.count) == (
        "holds {count} joker, ×{factor}", "holds {count} jokers, ×2 each = ×{factor}", 2)


# --- 干瞪眼 facts ---------------------------------------------------------------------------------

def _refusal(players, losers, code=None, **switches):
    """The (code, message) of the refusal with ``code`` (default: the first one)."""
    with pytest.raises(FactsError) as info:
        g.validate_facts({"players": players, "winner": players[0], "losers": losers}, g.rules_from_dict(switches))
    return next(((c, m) for _f, c, m in info.value.errors if code in (None, c)), None)


@pytest.mark.parametrize("players, losers, switches, code, sentence", [
    ("AB", {"B": {"cards": 5, "jokers": 3}}, {}, "jokers_exceed_deck",
     "3 jokers held in all, but 1 deck has only 2 — check the jokers."),
    ("ABC", {"B": {"cards": 5, "jokers": 3}, "C": {"cards": 5, "jokers": 2}}, {}, "jokers_exceed_deck",
     "5 jokers held in all, but 2 decks have only 4 — check the jokers."),
    ("AB", {"B": {"cards": 5, "twos": 5}}, {}, "twos_exceed_deck", "5 2s held in all, but 1 deck has only 4 — check the 2s."),
    ("ABC", {"B": {"cards": 5, "twos": 5}, "C": {"cards": 5, "twos": 4}}, {}, "twos_exceed_deck",
     "9 2s held in all, but 2 decks have only 8 — check the 2s."),
    ("ABC", {"B": {"cards": 30}, "C": {"cards": 25}}, {"deckMode": "oneDeck"}, "cards_exceed_deck",
     "55 cards left in all, but 1 deck has only 54 — check the card counts."),
    ("ABC", {"B": {"cards": 55}, "C": {"cards": 54}}, {}, "cards_exceed_deck",
     "109 cards left in all, but 2 decks have only 108 — check the card counts."),
    ("AB", {"B": {"cards": 1, "twos": 1, "jokers": 1}}, {}, "twos_exceed_cards",
     "B: 2s (1) and jokers (1) held but only 1 card left — 2s and jokers together cannot exceed cards."),
    ("AB", {"B": {"cards": 2, "twos": 2, "jokers": 1}}, {}, "twos_exceed_cards",
     "B: 2s (2) and jokers (1) held but only 2 cards left — 2s and jokers together cannot exceed cards."),
    ("AB", {"B": {"cards": 1, "held_bombs": [4]}}, {}, "held_bombs_exceed_cards",
     "B: bombs of 4 cards in all held but only 1 card left."),
    ("AB", {"B": {"cards": 2, "held_bombs": [4]}}, {}, "held_bombs_exceed_cards",
     "B: bombs of 4 cards in all held but only 2 cards left."),
    ("AB", {"B": {"cards": 1, "jokers": 1, "held_bombs": [4]}}, {"heldBombMult": "bySize"}, "held_bombs_exceed_cards",
     "B: bombs of 4 cards held besides the jokers (1), but only 1 card left — count the jokers first, then the "
     "bombs in the other cards."),
    ("AB", {"B": {"cards": 2, "jokers": 1, "held_bombs": [4]}}, {"heldBombMult": "bySize"}, "held_bombs_exceed_cards",
     "B: bombs of 4 cards held besides the jokers (1), but only 2 cards left — count the jokers first, then the "
     "bombs in the other cards."),
])
def test_fact_refusals_say_one_or_many(players, losers, switches, code, sentence):
    assert _refusal(list(players), losers, code, **switches) == (code, sentence)
