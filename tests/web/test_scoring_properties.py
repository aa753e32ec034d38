"""Property: whatever sequence of records, edits, voids, restores and undos happens, the standings
(one SQL aggregate) equal the engine's points summed over the hands that count, totals are
zero-sum, and the history holds exactly one event per change."""
from hypothesis import HealthCheck, given, settings, strategies as st

from companion import scoring
from companion.engine import gandengyan
from companion.extensions import db
from companion.db.models import Hand, HandEvent

PLAYERS = ["A", "B", "C"]

loser = st.fixed_dictionaries({"cards": st.integers(1, 8), "jokers": st.integers(0, 1)})
facts_st = st.builds(
    lambda w, ls: {"winner": PLAYERS[w], "losers": {p: ls[i] for i, p in enumerate(PLAYERS) if i != w}},
    st.integers(0, 2), st.lists(loser, min_size=3, max_size=3))
ops = st.lists(st.one_of(
    st.tuples(st.just("record"), facts_st),
    st.tuples(st.just("edit"), st.integers(0, 20), facts_st),
    st.tuples(st.just("void"), st.integers(0, 20)),
    st.tuples(st.just("restore"), st.integers(0, 20)),
    st.tuples(st.just("undo")),
), max_size=12)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(ops)
def test_standings_always_match_the_engine(ctx, operations):
    table = scoring.create_table(game="gandengyan", name="p", players=PLAYERS)
    changes = 0
    for i, op in enumerate(operations):
        kind = op[0]
        hands = db.session.query(Hand).filter_by(table_id=table.id).count()
        if kind == "record":
            scoring.record_hand(table, op[1], request_id=f"r{i}")
            changes += 1
        elif kind == "undo":
            changes += scoring.undo_last(table) is not None
        elif hands:
            number = op[1] % hands + 1
            hand = scoring.get_hand(table, number)
            before = (hand.status, hand.revision)
            if kind == "edit":
                scoring.edit_hand(table, number, op[2], revision=hand.revision)
            elif kind == "void":
                scoring.void_hand(table, number, revision=hand.revision)
            else:
                scoring.restore_hand(table, number, revision=hand.revision)
            db.session.refresh(hand)
            changes += (hand.status, hand.revision) != before
    expected = dict.fromkeys(PLAYERS, 0)
    for hand in db.session.query(Hand).filter_by(table_id=table.id, status="active"):
        for name, pts in gandengyan.settle(hand.facts, gandengyan.Rules()).points.items():
            expected[name] += pts
    got = {row.name: row.points for row in scoring.standings(table)}
    assert got == expected
    assert sum(got.values()) == 0
    assert db.session.query(HandEvent).filter_by(table_id=table.id).count() == changes
