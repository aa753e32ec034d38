"""Issue 33 item 6, the engine's side: validate collects every error of a hand (the winner, each
loser's counts, the deck totals, the points' total), each with its field; each row has a twin."""
import pytest

from companion.engine import dagong, gandengyan
from companion.engine.errors import FactsError

ABC = ["A", "B", "C"]


def _errors(module, facts, **switches):
    try:
        module.validate_facts(facts, module.rules_from_dict(switches))
    except FactsError as error:
        return [(field, code) for field, code, _message in error.errors]
    return []


GANDENGYAN = [
    ({"players": ABC, "winner": "", "losers": {"B": {"cards": 99}, "C": {"cards": 1, "jokers": 3}}},
     [("winner", "unknown_winner"), ("losers.B.cards", "cards_exceed_deal"), ("losers.C.jokers", "jokers_exceed_cards")]),
    ({"players": ABC, "winner": "", "losers": {"B": {"cards": 9}, "C": {"cards": 3, "jokers": 3}}},
     [("winner", "unknown_winner")]),                                   # twin: the counts are fine
    ({"players": ABC, "winner": "A", "losers": {"B": {"cards": 9}, "C": {"cards": 3, "jokers": 3}}}, []),
    # 7 jokers where the decks hold 4: said even though B's own jokers are already more than B's cards
    ({"players": ABC + ["D"], "winner": "A", "losers": {"B": {"cards": 1, "jokers": 3}, "C": {"cards": 5, "jokers": 4},
                                                         "D": {"cards": 2}}},
     [("losers.B.jokers", "jokers_exceed_cards"), ("losers.C.jokers", "jokers_exceed_deck")]),
    ({"players": ABC + ["D"], "winner": "A", "losers": {"B": {"cards": 3, "jokers": 1}, "C": {"cards": 5, "jokers": 3},
                                                         "D": {"cards": 2}}}, []),
]


@pytest.mark.parametrize("facts, expected", GANDENGYAN)
def test_gandengyan_every_error_at_once(facts, expected):
    assert _errors(gandengyan, facts) == expected


def _dagong(p1, p2):
    return {"players": ["P1", "P2", "P3", "P4"], "banker": "P1", "partner": "P3", "order": ["P1", "P2", "P3"],
            "captured": {"P1": p1, "P2": p2, "P3": 0, "P4": 0}}


@pytest.mark.parametrize("p1, p2, expected", [
    (123, 150, [("captured.P1", "not_multiple_of_5"), ("captured", "too_many_points")]),
    (125, 150, [("captured", "too_many_points")]),
    (123, 75, [("captured.P1", "not_multiple_of_5")]),
    (125, 75, []),
])
def test_dagong_points_and_their_total_at_once(p1, p2, expected):
    assert _errors(dagong, _dagong(p1, p2)) == expected
