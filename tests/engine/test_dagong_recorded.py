"""大冶打拱 (issue 29): who counts as the banker in the review figures (rules/dagong.md §4: after a
shout the shouter becomes the banker), and a stored hand read as the earlier engine that accepted it
did (``settle_as_recorded``). Each case has its twin."""
import pytest

from companion.engine import dagong
from companion.engine.public import FactsError

P = ["P1", "P2", "P3", "P4"]
RULES = dagong.rules_from_dict({}, "daye")


@pytest.mark.parametrize("facts, banker", [
    ({"banker": "P1", "shout": "P3", "order": ["P3"]}, "P3"),  # a shout: the shouter is the banker (§4)
    ({"banker": "P1", "shout": "P1", "order": ["P2"]}, "P1"),  # the banker shouts: still the banker
    ({"banker": "P1", "partner": "P3", "order": ["P1", "P3"], "captured": {"P2": 20, "P4": 15}}, "P1"),  # 2v2
])
def test_hands_as_banker_count_who_was_the_banker(facts, banker):
    tallies = dagong.settle({"players": P, **facts}, RULES).tallies
    assert [name for name, counts in tallies.items() if counts.get("banker")] == [banker]


PAST_THE_END = {"players": P, "banker": "P1", "partner": "P3", "order": ["P1", "P3", "P2", "P4"],
                "captured": {"P1": 100, "P3": 65, "P2": 20, "P4": 15}, "last_hand_points": 0}


def test_an_order_past_an_e12_end_is_refused_today_and_read_as_recorded():
    with pytest.raises(FactsError) as refused:
        dagong.settle(PAST_THE_END, RULES)
    assert refused.value.code == "order_past_end"
    reading = dagong.settle_as_recorded(PAST_THE_END, RULES)
    assert reading.points == {"P1": 2, "P2": -2, "P3": 2, "P4": -2} and reading.arch == "straight"
    assert reading.tallies["P2"].get("third_out") == 1 and reading.tallies["P4"].get("last_out") == 1
    ended = dict(PAST_THE_END, order=["P1", "P3"], captured={"P2": 20, "P4": 15})
    assert dagong.settle(ended, RULES).points == reading.points  # the same hand as today's rules record it


def test_reading_as_recorded_refuses_what_no_engine_accepted():
    broken = dict(PAST_THE_END, banker="P9")
    for settle in (dagong.settle, dagong.settle_as_recorded):
        with pytest.raises(FactsError) as refused:
            settle(broken, RULES)
        assert refused.value.code == "unknown_player"
