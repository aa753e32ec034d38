"""干瞪眼: the exact sentences players read (settlement steps, deck limits) and the details of
readings that the mutation run (mutmut over settle.py and combos.py) showed were not pinned."""
import pytest

from companion.engine import gandengyan as g
from companion.engine.cards import Card, CardError
from companion.engine.gandengyan import combos


@pytest.fixture(autouse=True)
def fresh_readings():
    """Each test reads its cards afresh (not from the readings cache another test filled), so that
    what it asserts is what the reader does now (and mutation runs see which tests read cards)."""
    combos.readings_of.cache_clear()


def rules(**switches):
    return g.rules_from_dict(switches)


def hand(players, losers, **extra):
    return {"players": list(players), "winner": players[0], "losers": losers, **extra}


ABC = hand("ABC", {"B": {"cards": 2}, "C": {"cards": 1}})


@pytest.mark.parametrize("switches, extra, steps", [
    ({"playedBombMult": "double"}, {"bombs_played": [4, 4]},
     ["B: 2 cards, 2 bombs played, ×2 each = ×4 = 8", "C: 1 card, 2 bombs played, ×2 each = ×4 = 4"]),
    ({"playedBombMult": "bySize"}, {"bombs_played": [4, 5]},
     ["B: 2 cards, bombs of 4, 5 cards played, ×32 = 64", "C: 1 card, bombs of 4, 5 cards played, ×32 = 32"]),
    ({"playedBombMult": "linear"}, {"bombs_played": [4, 5]},
     ["B: 2 cards, bombs played count 3 (炸数), ×(1 + 3) = ×4 = 8",
      "C: 1 card, bombs played count 3 (炸数), ×(1 + 3) = ×4 = 4"]),
    ({"playedBombMult": "linear", "jokerBomb": "as4"}, {"bombs_played": [2]},   # the double joker: a 4-card bomb
     ["B: 2 cards, bombs played count 1 (炸数), ×(1 + 1) = ×2 = 4",
      "C: 1 card, bombs played count 1 (炸数), ×(1 + 1) = ×2 = 2"]),
    ({"playedBombMult": "linear", "jokerBomb": "top"}, {"bombs_played": [2, 2]},
     ["B: 2 cards, bombs played count 2 (炸数), ×(1 + 2) = ×3 = 6",
      "C: 1 card, bombs played count 2 (炸数), ×(1 + 2) = ×3 = 3"]),
    ({"longHandMult": "on"}, {"tricks": 30},
     ["B: 2 cards, long hand (30 tricks), ×4 = 8", "C: 1 card, long hand (30 tricks), ×4 = 4"]),
    ({"longHandMult": "on"}, {"tricks": 29},
     ["B: 2 cards, long hand (29 tricks), ×2 = 4", "C: 1 card, long hand (29 tricks), ×2 = 2"]),
    ({"oneCardExempt": True}, {}, ["B: 2 cards = 2", "C: 1 card left (报警), pays nothing at this table."]),
    ({"shutOut": "threshold:2"}, {}, ["B: 2 cards, 2 or more cards left, ×2 = 4", "C: 1 card = 1"]),
    ({"cap": "perLoser:1"}, {}, ["B: 2 cards = 2, capped at 1", "C: 1 card = 1"]),
    ({"cap": "perLoser:1", "longHandMult": "on"}, {"tricks": 20},
     ["B: 2 cards, long hand (20 tricks), ×2 = 4, capped at 1", "C: 1 card, long hand (20 tricks), ×2 = 2, capped at 1"]),
])
def test_settlement_sentences(switches, extra, steps):
    result = g.settle(dict(ABC, **extra), rules(**switches))
    assert result.steps[:-1] == steps
    assert result.points["B"] == -int(steps[0].rsplit(" ", 1)[-1])


@pytest.mark.parametrize("loser, switches, step", [
    ({"cards": 3, "jokers": 2}, {}, "B: 3 cards, holds 2 jokers, ×2 once = 6"),
    ({"cards": 3, "jokers": 3}, {"jokerDoubling": "perJoker"}, "B: 3 cards, holds 3 jokers, ×2 each = ×8 = 24"),
    ({"cards": 3, "twos": 3}, {"twosAreTrumps": "perTwo"}, "B: 3 cards, holds 3 2s, ×2 each = ×8 = 24"),
    ({"cards": 12, "held_bombs": [4, 4, 4]}, {"heldBombMult": "perBomb"},
     "B: 12 cards, holds 3 bombs, ×2 each = ×8 = 96"),
    ({"cards": 9, "held_bombs": [4, 5]}, {"heldBombMult": "bySize"}, "B: 9 cards, holds bombs of 4, 5 cards, ×32 = 288"),
    ({"cards": 5, "played": False}, {"shutOut": "fixed20", "cap": "perLoser:25"},
     "B: shut out, pays 20 + 10 × 1 (炸数 of the bombs played) = 30, capped at 25"),
    ({"cards": 5, "played": False}, {"shutOut": "fixed20", "unit": 2},
     "B: shut out, 20 + 10 × 1 (炸数 of the bombs played) = 30, 2 points per card, ×2 = 60"),
    ({"cards": 5, "played": False}, {"shutOut": "fixed20", "unit": 2, "cap": "perLoser:20"},
     "B: shut out, 20 + 10 × 1 (炸数 of the bombs played) = 30, 2 points per card, ×2 = 60, capped at 40"),
])
def test_loser_sentences(loser, switches, step):
    facts = {"players": ["A", "B", "C"], "winner": "A", "losers": {"B": loser, "C": {"cards": 1}},
             "bombs_played": [4]}
    result = g.settle(facts, rules(**switches))
    assert result.steps[0] == step
    assert result.points["B"] == -int(step.rsplit(" ", 1)[-1])


# --- deck limits: what each sentence says ----------------------------------------------------

@pytest.mark.parametrize("top, play, reason", [
    (None, "7 7 7 7 7", "There are 5 cards of rank 7, but 1 deck holds only 4."),
    (None, "7h 7h", "7♥ appears 2 times, but 1 deck holds only 1."),
    (None, "7 JK JK JK", "There are 3 jokers, but 1 deck holds only 2."),
    (None, "5 SJ SJ", "There are 2 SJ, but 1 deck holds only 1."),
    (None, "5 BJ BJ", "There are 2 BJ, but 1 deck holds only 1."),
    (None, "7s 7h 7c 7d 7", "There are 5 cards of rank 7, but 1 deck holds only 4."),  # no card twice
    (None, "7 SJ BJ JK", "There are 3 jokers, but 1 deck holds only 2."),
    ("7h", "7h", "7h and 7h together use 7h 2 times, but 1 deck holds only 1."),
    ("5 5 5", "5 5", "5 5 5 and 5 5 together use 5 cards of rank 5, but 1 deck holds only 4."),
    ("7 JK", "8 JK JK", "7 JK and 8 JK JK together use 3 cards of rank JK, but 1 deck holds only 2."),
    ("7 SJ", "8 SJ", "7 SJ and 8 SJ together use SJ 2 times, but 1 deck holds only 1."),
])
def test_deck_limit_sentences(top, play, reason):
    verdict = g.check(top, play, players=2)
    assert (verdict.code, verdict.reason) == ("too_many_copies", reason)


@pytest.mark.parametrize("top, play", [(None, "7 JK JK"), (None, "5 5 SJ"), (None, "5 5 BJ"), (None, "7 7 7 7"),
                                       ("7 7", "8 8 8 8"), ("7 SJ", "8 BJ"), ("5h 5s", "6h 6s")])
def test_exactly_what_a_deck_holds_fits(top, play):
    assert g.check(top, play, players=2).legal


# --- readings: values, extras, errors -----------------------------------------------------------

def test_reading_details():
    (lone,) = g.classify("BJ", rules(jokerSingle=True))
    assert (lone.type, lone.rank, lone.values, lone.extra) == ("single", g.JOKER, (17,), (("joker", True),))
    (double,) = g.classify("BJ SJ", rules(jokerBomb="top"))
    assert (double.values, double.extra, [c.rank for c in double.cards]) == ((16, 17), (("soft", False),), [16, 17])
    assert [r.extra for r in g.classify("6 6 JK")] == [(("soft", True),)]
    assert [r.extra for r in g.classify("6 6 6")] == [(("soft", False),)]
    assert [r.get("soft") for r in g.classify("3 4 5")] == [False]
    assert [r.get("soft") for r in g.classify("3 4 JK")] == [True]
    assert [r.get("soft") for r in g.classify("3 3 JK 4")] == [True]
    assert [r.get("soft") for r in g.classify("3 3 4 4")] == [False]


def test_pure_bomb_against_the_double_joker():
    r = rules(pureBeatsSoft=True, jokerBomb="as3", tripleIsBomb=True)
    assert g.check("3 3 3", "SJ BJ", r).legal          # the strongest 3-card bomb
    assert not g.check("SJ BJ", "3 3 3", r).legal
    assert not g.check("SJ BJ", "2 2 2", r).legal


def test_any_higher_triple_is_strictly_higher():
    verdict = g.check("8 8 8", "8 8 8", rules(tripleFollow="anyHigher"), players=3)
    assert (verdict.legal, verdict.code) == (False, "not_higher")


@pytest.mark.parametrize("call, field, token", [
    (lambda: g.classify((Card(2),)), "cards", "'2' at position 1"),
    (lambda: g.classify((Card(7), Card(8, "x"))), "cards", "'8x' at position 2"),
    (lambda: g.check("7", (Card(8, "x"),)), "play", "'8x' at position 1"),
    (lambda: g.check((Card(99),), "8"), "previous", "'99' at position 1"),
])
def test_a_card_no_deck_holds(call, field, token):
    with pytest.raises(CardError) as info:
        call()
    assert (info.value.code, info.value.field) == ("bad_card", field)
    assert str(info.value).startswith(token + " is not a card")


def test_a_card_error_keeps_its_message_and_names_the_field():
    with pytest.raises(CardError) as info:
        g.check("7", "4 5 1")
    assert (info.value.code, info.value.field) == ("bad_card", "play")
    assert str(info.value).startswith("'1' at position 3 is not a card")


@pytest.mark.parametrize("cards, code", [("", "no_cards"), ((), "no_cards"), ([], "no_cards"), ("X", "bad_card")])
def test_unreadable_cards_name_the_field(cards, code):
    with pytest.raises(CardError) as info:
        g.classify(cards)
    assert (info.value.code, info.value.field) == (code, "cards")
    assert str(info.value)


def test_losers_are_settled_in_seat_order_however_the_facts_list_them():
    """The steps follow the seats (a database may hand the facts back with their keys reordered:
    PostgreSQL's jsonb does), so the same hand reads the same everywhere."""
    seated = g.settle(hand("ABCD", {"B": {"cards": 2}, "C": {"cards": 1}, "D": {"cards": 3}}), rules())
    shuffled = g.settle(hand("ABCD", {"D": {"cards": 3}, "B": {"cards": 2}, "C": {"cards": 1}}), rules())
    assert shuffled.steps == seated.steps and shuffled.points == seated.points
    assert [s.split(":")[0] for s in seated.steps[:3]] == ["B", "C", "D"]
