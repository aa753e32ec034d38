"""How a stored hand was settled (``scoring.hand_settlement``): the engine's own Settlement, carried
as it is (one name per concept, no copy of its fields), and the refusal of a hand recorded under
earlier rules beside it; a hand no engine reading explains keeps its stored points and outcome."""
import dataclasses

from companion import scoring
from companion.engine import ENGINES
from companion.engine.results import Settlement
from companion.extensions import db

GDY = ENGINES["gandengyan"]
NAMES = ["Ann", "Bo", "Cy"]
FACTS = {"winner": "Ann", "losers": {"Bo": {"cards": 3, "jokers": 0}, "Cy": {"cards": 5, "jokers": 1}}}


def _hand(app, stake="0.5"):
    table = scoring.create_table(game=GDY.NAME, name="Settled", players=NAMES, stake=stake)
    scoring.record_hand(table, FACTS, request_id="hs-1")
    return table, scoring.get_hand(table, 1)


def test_it_carries_the_engines_settlement_and_nothing_else(app):
    assert [f.name for f in dataclasses.fields(scoring.HandSettlement)] == ["settlement", "earlier"]
    with app.app_context():
        table, hand = _hand(app)
        settled = scoring.hand_settlement(table, hand)
        want = GDY.settle({**FACTS, "players": NAMES}, GDY.rules_from_dict(table.rules), stake="0.5")
        assert isinstance(settled.settlement, Settlement) and settled.earlier is None
        assert settled.settlement == want


def test_a_hand_no_reading_explains_keeps_its_stored_points(app):
    with app.app_context():
        table, hand = _hand(app)
        stored = {d.player.name: d.points for d in hand.deltas}
        hand.facts = {**hand.facts, "winner": "Zed"}  # stored facts that no engine reading settles
        hand.outcome = {"arch": "kept", "multiplier": 3}
        db.session.commit()
        settled = scoring.hand_settlement(table, hand)
        assert settled.earlier is not None and settled.earlier.field == "winner"
        got = settled.settlement
        assert got.steps == [] and got.points == stored and (got.arch, got.multiplier) == ("kept", 3)
        assert got.deltas == {name: p / 2 if p % 2 else p // 2 for name, p in stored.items()}  # at the hand's stake
        assert got.next_dealer == hand.next_dealer
