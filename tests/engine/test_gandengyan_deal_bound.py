"""干瞪眼: the most cards a loser can hold at the end of a hand follows from the deal and the draw
(gandengyan.md §3.2–3.3; issue 32 item 1). The bound the validator, the form's chips and the
facts' schema use is compared with an independent simulation of the deal and the draws."""
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.engine import gandengyan as g
from companion.engine.public import FactsError

DECK = 54  # written here again on purpose: the simulation does not read the engine's constants


def _simulate(players: int, n_decks: int, draw_all: bool, choose) -> list:
    """Play one abstract hand and return every player's cards at its end (seat 0 deals and wins
    nothing in particular). A play is any number of cards from 1 to the hand (a superset of the
    legal plays, so the most a loser can hold here is at least the true most); ``choose(kind, low,
    high)`` picks each decision. The dealer gets 6 cards, the others 5 (§3.2); after each trick the
    trick's winner (its last player) draws first, then the others counter-clockwise (``all``), or
    the winner alone (``winnerOnly``), while the stock lasts (§3.3)."""
    hands = [6] + [5] * (players - 1)
    stock = DECK * n_decks - sum(hands)
    leader = 0
    for _trick in range(500):
        hands[leader] -= choose("lead", 1, hands[leader])
        if hands[leader] == 0:
            return hands
        last, seat, passes = leader, leader, 0
        while passes < players - 1:
            seat = (seat + 1) % players
            if choose("play?", 0, 1) and hands[seat]:
                hands[seat] -= choose("play", 1, hands[seat])
                if hands[seat] == 0:
                    return hands
                last, passes = seat, 0
            else:
                passes += 1
        drawers = [(last + i) % players for i in range(players)] if draw_all else [last]
        for drawer in drawers:
            if stock:
                stock -= 1
                hands[drawer] += 1
        leader = last
    return hands  # a hand that never ends (the choices kept it going): its counts still count


def _tables():
    for draw_mode in ("all", "winnerOnly"):
        for deck_mode in ("source", "oneDeck", "perThree"):
            for players in range(2, 7):
                yield draw_mode, deck_mode, players


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(list(_tables())), st.data())
def test_no_simulated_hand_ends_with_a_loser_above_the_bound(table, data):
    draw_mode, deck_mode, players = table
    rules = g.rules_from_dict({"drawMode": draw_mode, "deckMode": deck_mode})
    n_decks = g.decks(rules, players)
    hands = _simulate(players, n_decks, draw_mode == "all",
                      lambda _kind, low, high: data.draw(st.integers(low, high)))
    losers = [cards for cards in hands if cards]
    if len(losers) < players:  # somebody played out: the others are the losers
        assert max(losers) <= g.most_cards_left(rules, players)


def _most_by_passing(players: int, n_decks: int, draw_all: bool) -> int:
    """The dealer leads one card every trick and everybody else always passes: the player after the
    dealer is the last to draw in every round (the best a loser can do)."""
    def choose(kind, low, high):
        return 0 if kind == "play?" else 1
    hands = _simulate(players, n_decks, draw_all, choose)
    return max(hands[1:])


@pytest.mark.parametrize("draw_mode, deck_mode, players", list(_tables()))
def test_the_bound_is_reached(draw_mode, deck_mode, players):
    """The bound is the most, not just an upper limit: passing all hand long reaches it."""
    rules = g.rules_from_dict({"drawMode": draw_mode, "deckMode": deck_mode})
    assert g.most_cards_left(rules, players) == _most_by_passing(players, g.decks(rules, players),
                                                                 draw_mode == "all")


def _facts(players: int, cards: int) -> dict:
    names = [f"P{i}" for i in range(players)]
    return {"players": names, "winner": names[0], "losers": {n: {"cards": 1} for n in names[2:]}
            | {names[1]: {"cards": cards}}}


# (switches, players, the most cards a loser holds, the words that say why): the tables, each
# at its bound (legal) and one above it (the illegal twin)
BOUNDS = [
    ({"drawMode": "winnerOnly"}, 2, 5, "at most the 5 cards dealt"),
    ({"drawMode": "winnerOnly", "deckMode": "oneDeck"}, 6, 5, "at most the 5 cards dealt"),
    ({}, 2, 26, "the stock holds 43 cards"),              # 43 = 2 × 21 + 1: the 22nd card goes to the trick's winner
    ({}, 3, 36, "draws at most 31"),                      # 92 = 3 × 30 + 2: the last round reaches a loser
    ({}, 4, 27, "draws at most 22"),                      # 87 = 4 × 21 + 3
    ({"deckMode": "oneDeck"}, 6, 9, "the stock holds 23 cards"),   # 23 = 6 × 3 + 5
    ({"deckMode": "oneDeck"}, 4, 13, "draws at most 8"),  # 33 = 4 × 8 + 1: no partial round for a loser
    ({"deckMode": "perThree"}, 4, 27, "at most 27"),
]


@pytest.mark.parametrize("switches, players, most, why", BOUNDS)
@pytest.mark.parametrize("above", [0, 1])
def test_cards_left_within_the_deal(switches, players, most, why, above):
    rules = g.rules_from_dict(switches)
    facts = _facts(players, most + above)
    if not above:
        g.validate_facts(facts, rules)
        return
    with pytest.raises(FactsError) as error:
        g.validate_facts(facts, rules)
    assert (error.value.code, error.value.field) == ("cards_exceed_deal", "losers.P1.cards")
    message = str(error.value.message)
    assert why in message and str(most + above) in message


@pytest.mark.parametrize("switches, players, most, why", BOUNDS)
def test_the_form_and_the_schema_offer_the_same_bound(switches, players, most, why):
    rules = g.rules_from_dict(switches)
    cards = g.describe_facts(rules, players).get("losers.*.cards")
    assert cards.high == most and cards.schema["maximum"] == most
    assert max(cards.chips) == min(most, 9) and (cards.more is not None) == (most > 9)


def test_the_deal_sizes_live_in_one_place(monkeypatch):
    """A one-place change of the deal moves the bound and its sentence (the dealer's extra card
    changes the stock, the cards dealt change the winnerOnly bound)."""
    from companion.engine.gandengyan import facts, rules as rules_module
    winner_only = g.rules_from_dict({"drawMode": "winnerOnly"})
    monkeypatch.setattr(facts, "HAND_DEALT", 7)
    facts._most_cards_left.cache_clear()
    try:
        assert g.most_cards_left(winner_only, 2) == 7
        with pytest.raises(FactsError) as error:
            g.validate_facts(_facts(2, 8), winner_only)
        assert "at most the 7 cards dealt" in str(error.value.message)
    finally:
        facts._most_cards_left.cache_clear()  # no bound of the patched deal outlives the test
    assert rules_module.HAND_DEALT == 5 and rules_module.DEALER_EXTRA == 1
