"""Property (issue 21): whatever players join, leave, are renamed, change seats or come back between
hands, interleaved with hands and undos, the standings equal the engine's points of the counting hands
summed per player (each person's total follows the person), are zero-sum, every hand keeps its own
players, and nothing but a ScoringError is ever raised."""
from hypothesis import HealthCheck, given, settings, strategies as st

from companion import scoring
from companion.engine.public import EngineError
from companion.extensions import db
from companion.db.models import Hand

POOL = ["A", "B", "C", "D", "E", "F", "G", "Ä", "李"]

roster_op = st.tuples(st.just("players"), st.lists(st.sampled_from(POOL), min_size=1, max_size=7, unique=True),
                      st.one_of(st.none(), st.tuples(st.integers(0, 6), st.sampled_from(POOL + ["New", "Zed"]))))
ops = st.lists(st.one_of(
    roster_op,
    st.tuples(st.just("record"), st.integers(0, 6), st.lists(st.integers(1, 9), min_size=6, max_size=6)),
    st.tuples(st.just("undo")),
), max_size=10)


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(ops)
def test_totals_follow_the_person_whatever_the_players_do(ctx, operations):
    table = scoring.create_table(game="gandengyan", name="p", players=["A", "B", "C"])
    for i, op in enumerate(operations):
        try:
            if op[0] == "players":
                entries = list(op[1])
                if op[2] is not None and op[2][0] < len(entries):  # a rename of that seat's player
                    entries[op[2][0]] = {"name": op[2][1], "was": entries[op[2][0]]}
                scoring.change_players(table, entries)
            elif op[0] == "record":
                names = table.player_names
                winner = names[op[1] % len(names)]
                losers = {n: {"cards": c, "jokers": 0} for n, c in zip(names, op[2]) if n != winner}
                scoring.record_hand(table, {"winner": winner, "losers": losers}, request_id=f"r{i}")
            else:
                scoring.undo_last(table)
        except EngineError as error:  # a refused change: a message, never a crash
            assert isinstance(error, scoring.ScoringError) or error.code, error
            scoring.discard_changes()
        db.session.expire_all()
        check(table)


def check(table):
    expected: dict[int, int] = {}
    by_name = {p.name: p.id for p in table.players}
    for hand in db.session.query(Hand).filter_by(table_id=table.id):
        names = hand.facts["players"]
        assert sorted(by_name[n] for n in names) == sorted(d.player_id for d in hand.deltas)
        if hand.status == scoring.ACTIVE:
            for d in hand.deltas:
                expected[d.player_id] = expected.get(d.player_id, 0) + d.points
            points = scoring.engine_for(table.game).settle(hand.facts, scoring.table_rules(table), stake=1).points
            assert {n: int(points.get(n, 0)) for n in names} == {
                n: next(d.points for d in hand.deltas if d.player_id == by_name[n]) for n in names}
    standings = {row.player_id: row.points for row in scoring.standings(table)}
    assert {k: v for k, v in standings.items() if v} == {k: v for k, v in expected.items() if v}
    assert sum(standings.values()) == 0
    seated = [p for p in table.players if p.seated]
    assert [p.seat for p in seated] == list(range(len(seated)))
    assert 2 <= len(seated) <= 6
