"""scoring: tables, hands, corrections, undo, standings — against a real database."""
from decimal import Decimal

import pytest
from sqlalchemy import event, select

from companion import access, scoring
from companion.engine.public import EngineError, FactsError, RulesError
from companion.extensions import db
from companion.db.models import Hand, HandEvent, Table

GDY_FACTS = {"winner": "Ann", "losers": {"Bo": {"cards": 3, "jokers": 1}, "Cy": {"cards": 5, "jokers": 0},
                                         "Di": {"cards": 1, "jokers": 0}}}
DG_FACTS = {"banker": "P1", "partner": "P3", "shout": None, "order": ["P1", "P2", "P3", "P4"],
            "captured": {"P1": 60, "P2": 50, "P3": 30, "P4": 40}, "last_hand_points": 20, "bright_card": "7h"}


def points(table):
    return {row.name: row.points for row in scoring.standings(table)}


class QueryCounter:
    def __init__(self):
        self.statements = []

    def __call__(self, conn, cursor, statement, *args):
        self.statements.append(statement)

    def __enter__(self):
        event.listen(db.engine, "before_cursor_execute", self)
        return self

    def __exit__(self, *exc):
        event.remove(db.engine, "before_cursor_execute", self)


# --- tables ------------------------------------------------------------------------------


def test_create_table_pins_rules_and_ids(gdy):
    token = access.edit_token(gdy)
    assert len(gdy.public_id) >= 22 and len(token) >= 32  # ≥128 random bits; the token 192 (HMAC)
    assert gdy.public_id != token and gdy.token_version == 1
    wrong = token[:-1] + ("y" if token.endswith("x") else "x")  # differs from the right token, always
    assert wrong != token
    assert scoring.check_edit_token(gdy, token) and not scoring.check_edit_token(gdy, wrong)
    assert gdy.rules["joker_doubling"] == "once"
    assert gdy.player_names == ["Ann", "Bo", "Cy", "Di"]
    assert gdy.stake == Decimal("0.5")
    assert scoring.get_table(gdy.public_id).id == gdy.id
    assert scoring.get_table("nope") is None
    assert scoring.get_table("x" * 22) is None


def test_create_table_with_switches_and_preset(ctx):
    table = scoring.create_table(game="gandengyan", name="m2 night", players=["A", "B", "C"],
                                 preset="m2", rules={"jokerDoubling": "once"})
    assert table.rules["joker_doubling"] == "once"      # the switch overrides the preset
    assert table.rules["held_bomb_mult"] == "bySize"    # the rest comes from the preset
    assert table.preset == "m2"


@pytest.mark.parametrize("kwargs, code, field", [
    (dict(name="x" * 500), "too_long", "name"),
    (dict(name="   "), "required", "name"),
    (dict(players=["A"]), "player_count", "players"),
    (dict(players=["A", "B", "C", "D", "E", "F", "G"]), "player_count", "players"),
    (dict(players=["A", "a"]), "duplicate_player", "players.1"),
    (dict(players=["A", ""]), "required", "players.1"),
    (dict(players=["A", "B" * 41]), "too_long", "players.1"),
    (dict(stake="-1"), "bad_stake", "stake"),
    (dict(stake="abc"), "bad_stake", "stake"),
    (dict(stake="NaN"), "bad_stake", "stake"),
    (dict(stake="0.00001"), "bad_stake", "stake"),
    (dict(preset="nope"), "unknown_preset", "preset"),  # the engine's code, on every face
    (dict(first_dealer="Zed"), "bad_dealer", "first_dealer"),
    (dict(game="poker"), "unknown_game", "game"),  # the API's code, on every face
])
def test_create_table_refuses_bad_input(ctx, kwargs, code, field):
    args = dict(game="gandengyan", name="ok", players=["A", "B"])
    args.update(kwargs)
    with pytest.raises(EngineError) as info:  # stake and preset are the engine's parsers
        scoring.create_table(**args)
    assert (info.value.code, info.value.field) == (code, field)
    assert db.session.scalar(select(Table)) is None


@pytest.mark.parametrize("good, bad", [
    ({"stake": "0.25"}, {"stake": "-0.25"}),
    ({"players": ["A", "B", "C", "D", "E", "F"]}, {"players": ["A", "B", "C", "D", "E", "F", "G"]}),
    ({"rules": {"joker_doubling": "perJoker"}}, {"rules": {"joker_doubling": "sometimes"}}),
    ({"rules": {"shutOut": "threshold:5"}}, {"rules": {"shutOut": "threshold:x"}}),
    ({"rules": {"unit": 2}, "stake": "0.5"}, {"rules": {"unit": 0.5}}),  # money is the stake's job
])
def test_create_table_legal_and_illegal_twins(ctx, good, bad):
    base = dict(game="gandengyan", name="t", players=["A", "B", "C"])
    assert scoring.create_table(**{**base, **good}).id
    with pytest.raises((scoring.ScoringError, RulesError)):
        scoring.create_table(**{**base, **bad})


def test_dagong_needs_exactly_four(ctx):
    assert scoring.create_table(game="dagong", name="d", players=["A", "B", "C", "D"]).id
    with pytest.raises(scoring.ScoringError) as info:
        scoring.create_table(game="dagong", name="d", players=["A", "B", "C"])
    assert info.value.code == "player_count"


# --- recording ---------------------------------------------------------------------------


def test_record_settles_with_the_engine_and_keeps_totals(gdy):
    hand = scoring.record_hand(gdy, GDY_FACTS, request_id="r1", device="phone A")
    assert hand.number == 1 and hand.status == "active" and hand.revision == 1
    assert points(gdy) == {"Ann": 12, "Bo": -6, "Cy": -5, "Di": -1}
    money = {row.name: row.money for row in scoring.standings(gdy)}
    assert money == {"Ann": Decimal("6.0"), "Bo": Decimal("-3.0"), "Cy": Decimal("-2.5"), "Di": Decimal("-0.5")}
    assert [row.name for row in scoring.standings(gdy)] == ["Ann", "Di", "Cy", "Bo"]
    assert scoring.current_dealer(gdy) == "Ann"
    event_ = db.session.scalar(select(HandEvent))
    assert (event_.kind, event_.before, event_.device) == ("create", None, "phone A")
    assert event_.after["points"] == {"Ann": 12, "Bo": -6, "Cy": -5, "Di": -1}


def test_same_request_id_records_once(gdy):
    first = scoring.record_hand(gdy, GDY_FACTS, request_id="tap")
    again = scoring.record_hand(gdy, GDY_FACTS, request_id="tap")
    assert first.id == again.id
    assert db.session.query(Hand).count() == 1 and db.session.query(HandEvent).count() == 1
    other = scoring.record_hand(gdy, GDY_FACTS, request_id="tap2")
    assert other.number == 2


def test_record_refuses_what_the_engine_refuses(gdy):
    bad = {"winner": "Ann", "losers": {"Bo": {"cards": -3, "jokers": 0}, "Cy": {"cards": 5, "jokers": 0},
                                       "Di": {"cards": 1, "jokers": 0}}}
    with pytest.raises(FactsError) as info:
        scoring.record_hand(gdy, bad, request_id="x")
    assert info.value.field == "losers.Bo.cards"
    jokers = {"winner": "Ann", "losers": {"Bo": {"cards": 3, "jokers": 99}, "Cy": {"cards": 5, "jokers": 0},
                                          "Di": {"cards": 1, "jokers": 0}}}
    with pytest.raises(FactsError):
        scoring.record_hand(gdy, jokers, request_id="y")
    assert db.session.query(Hand).count() == 0
    assert db.session.get(Table, gdy.id).hand_seq == 0


@pytest.mark.parametrize("facts, field", [
    ("not a dict", "facts"),
    ({**GDY_FACTS, "players": ["Bo", "Ann", "Cy", "Di"]}, "players"),
])
def test_record_checks_the_table_players(gdy, facts, field):
    with pytest.raises(scoring.ScoringError) as info:
        scoring.record_hand(gdy, facts, request_id="z")
    assert info.value.field == field


@pytest.mark.parametrize("request_id", ["", None, "x" * 65, 5])
def test_request_id_is_required(gdy, request_id):
    with pytest.raises(scoring.ScoringError):
        scoring.record_hand(gdy, GDY_FACTS, request_id=request_id)


def test_expected_number_detects_a_hand_recorded_meanwhile(gdy):
    scoring.record_hand(gdy, GDY_FACTS, request_id="a", expected_number=1)
    with pytest.raises(scoring.Conflict) as info:
        scoring.record_hand(gdy, GDY_FACTS, request_id="b", expected_number=1)
    assert info.value.current.number == 1
    assert info.value.submitted["winner"] == "Ann"
    assert db.session.query(Hand).count() == 1
    assert scoring.record_hand(gdy, GDY_FACTS, request_id="c", expected_number=2).number == 2


def test_dagong_hand(dg):
    hand = scoring.record_hand(dg, DG_FACTS, request_id="d1")
    assert points(dg) == {"P1": 1, "P3": 1, "P2": -1, "P4": -1}
    assert hand.outcome["multiplier"] == 1
    assert scoring.current_dealer(dg) == "P1"  # the previous 头游 banks next
    shout = {"banker": "P3", "partner": None, "shout": "P3", "order": ["P3"], "captured": {},
             "last_hand_points": 0, "bright_card": None}
    scoring.record_hand(dg, shout, request_id="d2")
    assert points(dg) == {"P1": -3, "P3": 13, "P2": -5, "P4": -5}
    assert scoring.current_dealer(dg) == "P3"


# --- corrections -------------------------------------------------------------------------


def test_edit_recomputes_and_logs(gdy):
    scoring.record_hand(gdy, GDY_FACTS, request_id="r")
    changed = {**GDY_FACTS, "losers": {**GDY_FACTS["losers"], "Di": {"cards": 4, "jokers": 0}}}
    hand = scoring.edit_hand(gdy, 1, changed, revision=1, device="B")
    assert hand.revision == 2
    assert points(gdy) == {"Ann": 15, "Bo": -6, "Cy": -5, "Di": -4}
    edit = db.session.scalars(select(HandEvent).order_by(HandEvent.id.desc())).first()
    assert edit.kind == "edit" and edit.before["points"]["Di"] == -1 and edit.after["points"]["Di"] == -4


def test_stale_edit_is_refused_with_both_versions(gdy):
    scoring.record_hand(gdy, GDY_FACTS, request_id="r")
    first = {**GDY_FACTS, "losers": {**GDY_FACTS["losers"], "Di": {"cards": 2, "jokers": 0}}}
    second = {**GDY_FACTS, "losers": {**GDY_FACTS["losers"], "Di": {"cards": 3, "jokers": 0}}}
    scoring.edit_hand(gdy, 1, first, revision=1)
    with pytest.raises(scoring.Conflict) as info:
        scoring.edit_hand(gdy, 1, second, revision=1)
    assert info.value.current.facts["losers"]["Di"]["cards"] == 2
    assert info.value.submitted["losers"]["Di"]["cards"] == 3
    assert points(gdy)["Di"] == -2  # the first edit stands


def test_edit_unknown_hand(gdy):
    with pytest.raises(scoring.NotFound):
        scoring.edit_hand(gdy, 7, GDY_FACTS, revision=1)
    with pytest.raises(scoring.ScoringError):
        scoring.edit_hand(gdy, 1, GDY_FACTS, revision="abc")


def test_void_and_restore(gdy):
    scoring.record_hand(gdy, GDY_FACTS, request_id="r")
    hand = scoring.void_hand(gdy, 1, revision=1)
    assert hand.status == "void" and points(gdy) == {"Ann": 0, "Bo": 0, "Cy": 0, "Di": 0}
    again = scoring.void_hand(gdy, 1, revision=1)  # a double tap changes nothing
    assert again.revision == 2
    with pytest.raises(scoring.Conflict):
        scoring.restore_hand(gdy, 1, revision=1)
    scoring.restore_hand(gdy, 1, revision=2)
    assert points(gdy)["Ann"] == 12
    kinds = [e.kind for e in scoring.history(gdy)]
    assert kinds == ["restore", "void", "create"]


def test_undo_walks_back_one_change_at_a_time(gdy):
    scoring.record_hand(gdy, GDY_FACTS, request_id="r")
    changed = {**GDY_FACTS, "losers": {**GDY_FACTS["losers"], "Di": {"cards": 4, "jokers": 0}}}
    scoring.edit_hand(gdy, 1, changed, revision=1)
    scoring.void_hand(gdy, 1, revision=2)
    assert points(gdy)["Ann"] == 0
    scoring.undo_last(gdy)                       # undo the void
    assert points(gdy)["Ann"] == 15
    scoring.undo_last(gdy)                       # undo the edit: back to Di 1 card
    assert points(gdy)["Ann"] == 12
    undo = scoring.undo_last(gdy)                # undo the create: the hand is void, not deleted
    assert undo.kind == "undo" and points(gdy)["Ann"] == 0
    assert db.session.query(Hand).count() == 1
    assert scoring.undo_last(gdy) is None
    assert [e.kind for e in scoring.history(gdy)] == ["undo", "undo", "undo", "void", "edit", "create"]


def test_standings_is_one_sql_statement_and_ignores_void(gdy):
    for i in range(5):
        scoring.record_hand(gdy, GDY_FACTS, request_id=f"r{i}")
    scoring.void_hand(gdy, 3, revision=1)
    db.session.expire_all()
    table = db.session.get(Table, gdy.id)
    players = table.players  # loaded before counting
    with QueryCounter() as counter:
        rows = scoring.standings(table)
    assert len(counter.statements) == 1
    assert "sum(" in counter.statements[0].lower()
    assert {r.name: r.points for r in rows} == {"Ann": 48, "Bo": -24, "Cy": -20, "Di": -4}
    assert len(players) == 4


def test_hands_page_fetches_deltas_in_one_query(gdy):
    for i in range(30):
        scoring.record_hand(gdy, GDY_FACTS, request_id=f"r{i}")
    db.session.refresh(gdy)
    with QueryCounter() as counter:
        hands, deltas = scoring.hands_page(gdy, 1, 25)
    assert len(counter.statements) == 2
    assert [h.number for h in hands][:3] == [30, 29, 28] and len(hands) == 25
    assert all(len(deltas[h.id]) == 4 for h in hands)
    hands2, _ = scoring.hands_page(gdy, 2, 25)
    assert [h.number for h in hands2] == [5, 4, 3, 2, 1]


def test_settlement_for_previews_without_storing(gdy):
    settlement = scoring.settlement_for(gdy, GDY_FACTS)
    assert settlement.points["Ann"] == 12 and settlement.steps
    assert db.session.query(Hand).count() == 0
