"""大冶打拱: the points a hand's outcome does not use are not kept (issue 21, item 2).

Table-driven: each ending with the points it keeps, and its twin where the dropped points would
have mattered (the hand is played out). Property: trimming never changes the settlement and is
idempotent."""
import pytest
from hypothesis import given

from companion.engine import dagong

from test_dagong_properties import SETTINGS, hands, rules_strategy

P = ["A", "B", "C", "D"]  # banker A with partner C against B and D
BASE = {"players": P, "banker": "A", "partner": "C", "shout": None}
ALL = {"A": 40, "B": 30, "C": 50, "D": 60}

CASES = [
    # (order, captured, last_hand_points, kept captured or None for "all kept", last_hand_points kept)
    (["A", "C"], {"A": 120, "B": 25, "C": 40, "D": 15}, 0, {"B": 25, "D": 15}, False),         # E12: the others
    (["A", "C"], {"A": 160, "B": 0, "C": 40, "D": 0}, 0, {"B": 0, "D": 0}, False),             # E12 ×4: zeros kept
    (["A", "B"], {"A": 40, "B": 110, "C": 10, "D": 15}, 0, {"A": 40, "B": 110, "C": 10}, False),  # E1: D dropped
    (["A", "B"], {"A": 80, "B": 5, "C": 30, "D": 60}, 0, {"A": 80, "B": 5, "C": 30}, False),    # E2: D dropped
    (["A", "B", "C"], ALL, 20, None, True),                                                   # played out: all
    (["A", "B", "C", "D"], {"A": 40, "B": 30, "C": 50, "D": 60}, 20, None, True),              # played out: all
]


@pytest.mark.parametrize("order, captured, in_hand, kept, keeps_in_hand", CASES)
def test_only_the_points_the_outcome_uses_are_kept(order, captured, in_hand, kept, keeps_in_hand):
    facts = {**BASE, "order": order, "captured": captured, "last_hand_points": in_hand}
    used = dagong.used_facts(facts)
    assert used["captured"] == (captured if kept is None else kept)
    assert ("last_hand_points" in used) == keeps_in_hand
    assert dagong.settle(used).deltas == dagong.settle(facts).deltas


def test_a_shout_keeps_no_points():
    facts = {**BASE, "partner": None, "shout": "B", "order": ["B"], "captured": ALL, "last_hand_points": 10}
    used = dagong.used_facts(facts)
    assert "captured" not in used and "last_hand_points" not in used
    assert used["shout"] == "B" and used["order"] == ["B"]


def test_facts_that_do_not_settle_come_back_unchanged():
    facts = {**BASE, "order": ["A", "B"], "captured": {"A": 7}}   # not a multiple of 5
    assert dagong.used_facts(facts) is facts
    not_over = {**BASE, "order": ["A"], "captured": ALL}
    assert dagong.used_facts(not_over) is not_over


@SETTINGS
@given(hand=hands(), rules=rules_strategy)
def test_trimming_never_changes_the_settlement(hand, rules):
    try:
        before = dagong.settle(hand, rules)
    except dagong.FactsError:
        assert dagong.used_facts(hand, rules) is hand
        return
    used = dagong.used_facts(hand, rules)
    after = dagong.settle(used, rules)
    assert (after.deltas, after.winners, after.multiplier, after.next_dealer) == \
        (before.deltas, before.winners, before.multiplier, before.next_dealer)
    assert [str(s) for s in after.steps] == [str(s) for s in before.steps]
    assert dagong.used_facts(used, rules) == used
