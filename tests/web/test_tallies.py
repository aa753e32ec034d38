"""Review figures come from the engine: each hand stores the tallies its settlement gave, the
summary only sums them (it knows no rule), and the migration fills the tallies of hands stored
before it by settling them again. SQLite here, PostgreSQL under scripts/with_pg.sh."""
import json
import uuid
from collections import Counter

import pytest
from flask_migrate import downgrade, upgrade
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy import inspect, text

from companion import review, scoring
from companion.engine import ENGINES
from companion.engine.errors import EngineError
from companion.extensions import db
from companion.db.models import Hand

pytestmark = pytest.mark.db

GDY = ["Ann", "Bo", "Cy", "Di"]
DG = ["P1", "P2", "P3", "P4"]


def engine_counts(table) -> dict:
    """{player: Counter(figure -> count)} summed from the engine's own tallies of the active hands."""
    module = ENGINES[table.game]
    rules = module.rules_from_dict(dict(table.rules))
    out = {name: Counter() for name in table.player_names}
    for hand in db.session.query(Hand).filter_by(table_id=table.id, status="active"):
        for name, counts in module.settle(hand.facts, rules).tallies.items():
            out[name].update(counts)
    return out


def summary_counts(table) -> dict:
    return {p.name: Counter({f: n for f, n in p.counts.items() if n}) for p in review.summary(table).players}


# --------------------------------------------------------------------------------------------
# Property: for random hands under random switches, the summary's counts are the engine's tallies

gdy_rules = st.fixed_dictionaries({
    "shut_out": st.sampled_from(["off", "double", "fixed20", "threshold:3", "threshold:6"]),
    "shut_out_dealer_exception": st.booleans(),
    "joker_doubling": st.sampled_from(["once", "perJoker", "off"]),
    "one_card_exempt": st.booleans(),
})
gdy_loser = st.fixed_dictionaries({"cards": st.integers(1, 9), "jokers": st.integers(0, 2), "played": st.booleans(),
                                   "dealer_only_opening": st.booleans()})
gdy_hand = st.builds(lambda w, d, ls: {"winner": GDY[w], "dealer": GDY[d],
                                       "losers": {p: ls[i] for i, p in enumerate(GDY) if i != w}},
                     st.integers(0, 3), st.integers(0, 3), st.lists(gdy_loser, min_size=4, max_size=4))


@st.composite
def dg_hand(draw):
    banker = draw(st.sampled_from(DG))
    order = draw(st.permutations(DG))
    if draw(st.integers(0, 4)) == 0:
        return {"banker": banker, "partner": None, "shout": draw(st.sampled_from(DG)),
                "order": order[:draw(st.integers(1, 4))]}
    cuts = sorted(draw(st.lists(st.integers(0, 40), min_size=4, max_size=4)))
    bounds = [0] + [c * 5 for c in cuts] + [200]
    points = [bounds[i + 1] - bounds[i] for i in range(5)]
    hand = {"banker": banker, "partner": draw(st.sampled_from([p for p in DG if p != banker])), "shout": None,
            "order": order[:draw(st.sampled_from([2, 3, 4]))], "captured": dict(zip(order, points[:4])),
            "last_hand_points": points[4]}
    if draw(st.booleans()):
        hand["xi_bombs"] = {draw(st.sampled_from(DG)): draw(st.lists(st.sampled_from([7, 8]), max_size=2))}
    return hand


dg_rules = st.fixed_dictionaries({
    "first_third_always_wins": st.booleans(), "shutout_multiplier_13_14": st.sampled_from([2, 4]),
    "early_end_e1": st.booleans(), "early_end_e2": st.booleans(), "bonus_xi_qian": st.booleans(),
})
nights = st.one_of(
    st.tuples(st.just("gandengyan"), gdy_rules, st.lists(st.tuples(gdy_hand, st.booleans()), max_size=8)),
    st.tuples(st.just("dagong"), dg_rules, st.lists(st.tuples(dg_hand(), st.booleans()), max_size=8)))


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(nights)
def test_the_summary_counts_are_the_engines_tallies(ctx, night):
    game, rules, hands = night
    table = scoring.create_table(game=game, name="p", players=GDY if game == "gandengyan" else DG, rules=rules)
    for facts, void in hands:
        try:
            hand = scoring.record_hand(table, facts, request_id=uuid.uuid4().hex)
        except EngineError:
            continue  # facts these rules refuse: nothing stored
        if void:
            scoring.void_hand(table, hand.number, revision=hand.revision)
    assert summary_counts(table) == engine_counts(table)


def test_edits_and_undos_keep_the_stored_tallies_the_engines(dg):
    full = {"banker": "P1", "partner": "P3", "order": ["P1", "P2", "P3"],
            "captured": {"P1": 100, "P2": 50, "P3": 30, "P4": 20}, "last_hand_points": 0}
    shout = {"banker": "P1", "partner": None, "shout": "P2", "order": ["P2"]}
    hand = scoring.record_hand(dg, full, request_id="a")
    assert summary_counts(dg) == engine_counts(dg)
    figures = {p.name: p for p in review.summary(dg).players}
    assert (figures["P4"].first_out, figures["P4"].last_out) == (0, 1) and figures["P1"].arch_half == 1
    scoring.edit_hand(dg, hand.number, shout, revision=hand.revision)
    assert summary_counts(dg) == engine_counts(dg)
    assert {p.name: (p.shouts_won, p.first_out, p.last_out) for p in review.summary(dg).players}["P2"] == (1, 1, 0)
    scoring.undo_last(dg)
    assert summary_counts(dg) == engine_counts(dg)
    assert {p.name: p.arch_half for p in review.summary(dg).players} == {"P1": 1, "P2": 0, "P3": 1, "P4": 0}


def test_a_rule_change_in_the_engine_reaches_the_summary(gdy, monkeypatch):
    """The 春天 threshold lives only in the engine: changing it there changes what the summary
    counts for new hands, with no second edit."""
    import importlib

    settle = importlib.import_module("companion.engine.gandengyan.settle")
    table = scoring.create_table(game="gandengyan", name="t", players=GDY, rules={"shut_out": "threshold:5"})
    facts = {"winner": "Bo", "losers": {"Ann": {"cards": 5}, "Cy": {"cards": 4}, "Di": {"cards": 7}}}
    scoring.record_hand(table, facts, request_id="a")
    assert {p.name: p.shut_out for p in review.summary(table).players} == {"Ann": 1, "Bo": 0, "Cy": 0, "Di": 1}
    monkeypatch.setattr(settle, "_over_threshold", lambda loser, rules: loser["cards"] > settle._threshold(rules))
    scoring.record_hand(table, facts, request_id="b")
    assert {p.name: p.shut_out for p in review.summary(table).players} == {"Ann": 1, "Bo": 0, "Cy": 0, "Di": 2}


# --------------------------------------------------------------------------------------------
# The migration: hands stored before it get their tallies by being settled again


def _empty(app):
    with app.app_context():
        db.drop_all()
        with db.engine.begin() as conn:
            conn.execute(text("DROP TABLE IF EXISTS alembic_version"))


BEFORE = "a0b1c2d3e4f5"  # the head before hand_tallies

OLD_HANDS = [  # (table id, game, rules, players, facts, status)
    (1, "gandengyan", {"shut_out": "double"}, GDY,
     {"players": GDY, "winner": "Ann", "dealer": "Bo",
      "losers": {"Bo": {"cards": 3, "jokers": 1}, "Cy": {"cards": 5, "played": False}, "Di": {"cards": 1}}},
     "active"),
    (1, "gandengyan", {"shut_out": "double"}, GDY,
     {"players": GDY, "winner": "Cy", "losers": {"Ann": {"cards": 2, "jokers": 2}, "Bo": {"cards": 1},
                                                 "Di": {"cards": 6, "played": False}}}, "void"),
    (2, "dagong", {}, DG,
     {"players": DG, "banker": "P1", "partner": "P3", "shout": None, "order": ["P1", "P2", "P3"],
      "captured": {"P1": 100, "P2": 50, "P3": 30, "P4": 20}, "last_hand_points": 0}, "active"),
    (2, "dagong", {}, DG, {"players": DG, "banker": "P1", "order": ["P9"]}, "active"),  # no longer settles
]


def test_the_tally_migration_fills_stored_hands_by_settling_them_again(app, schema_rebuilt):
    _empty(app)
    try:
        with app.app_context():
            upgrade(revision=BEFORE)
            with db.engine.begin() as conn:
                tables = {t[0]: t for t in OLD_HANDS}
                for tid, game, rules, names, *_ in tables.values():
                    conn.execute(text(
                        "INSERT INTO tables (id, public_id, token_version, edit_token_hash, game, name, stake, currency,"
                        " rules, rules_version, notes, created_at, updated_at, revision, hand_seq) VALUES (:id, :pid, 1,"
                        " 'h', :game, 'old', '1', '', :rules, 1, '', '2026-01-01 00:00:00', '2026-01-01 00:00:00', 1,"
                        " 9)"), {"id": tid, "pid": f"tallypublicid00000{tid}", "game": game, "rules": json.dumps(rules)})
                    for seat, name in enumerate(names):
                        conn.execute(text("INSERT INTO players (id, table_id, seat, name) VALUES (:id, :t, :s, :n)"),
                                     {"id": tid * 10 + seat, "t": tid, "s": seat, "n": name})
                for i, (tid, _game, _rules, _names, facts, status) in enumerate(OLD_HANDS, start=1):
                    conn.execute(text(
                        "INSERT INTO hands (id, table_id, number, facts, status, request_id, revision, outcome, stake,"
                        " created_at, updated_at) VALUES (:id, :t, :id, :facts, :status, :r, 1, '{}', '1',"
                        " '2026-01-01 00:00:00', '2026-01-01 00:00:00')"),
                        {"id": i, "t": tid, "facts": json.dumps(facts), "status": status, "r": f"r{i}"})
            upgrade()
            with db.engine.connect() as conn:
                rows = conn.execute(text("SELECT hand_id, player_id, figure, count FROM hand_tallies")).all()
            stored: dict = {}
            for hand_id, player_id, figure, count in rows:
                stored.setdefault(hand_id, {}).setdefault(player_id, {})[figure] = count
            for i, (tid, game, rules, names, facts, _status) in enumerate(OLD_HANDS, start=1):
                module = ENGINES[game]
                try:
                    tallies = module.settle(facts, module.rules_from_dict(rules)).tallies
                except EngineError:
                    tallies = {}
                want = {tid * 10 + names.index(n): c for n, c in tallies.items()}
                assert stored.get(i, {}) == want, i
            assert stored[1][12] == {"shut_out": 1} and stored[3][23] == {"last_out": 1} and 4 not in stored
            gdy = scoring.get_table("tallypublicid000001")
            figures = {p.name: p for p in review.summary(gdy).players}  # the void hand counts nowhere
            assert {n: (p.won, p.shut_out, p.jokers) for n, p in figures.items()} == {
                "Ann": (1, 0, 0), "Bo": (0, 0, 1), "Cy": (0, 1, 0), "Di": (0, 0, 0)}
            db.session.remove()
            downgrade(revision=BEFORE)
            assert "hand_tallies" not in inspect(db.engine).get_table_names()
            with db.engine.connect() as conn:
                assert conn.execute(text("SELECT count(*) FROM hands")).scalar() == 4
    finally:
        _empty(app)
        with app.app_context():
            db.create_all()
