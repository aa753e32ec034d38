"""Recording a hand in one transaction (issue 22): a fixed, small number of SQL statements and
exactly one commit (the rate-limit count included), nothing read back after the commit; a request
id reused for different facts is a 409 naming the hand it made, never that hand as if it were new."""
import pytest
from sqlalchemy import event, func, select

from companion import access, scoring
from companion.extensions import db
from companion.db.models import Hand, HandDelta, HandEvent, RateBucket

PLAYERS = ["Ann", "Bo", "Cy", "Di", "Ed"]


def facts(bo=2):
    return {"winner": "Ann", "losers": {"Bo": {"cards": bo, "jokers": 0}, "Cy": {"cards": 1, "jokers": 1},
                                        "Di": {"cards": 3, "jokers": 0}, "Ed": {"cards": 5, "jokers": 0}}}


@pytest.fixture
def limited(app_maker):
    """An app with the write limit on (3 writes per window) and a table with its token."""
    app = app_maker(RATELIMIT_ENABLED=True, RATE_LIMITS={"write": (3, 600)})
    with app.app_context():
        table = scoring.create_table(game="gandengyan", name="One commit", players=PLAYERS)
        yield app, table.public_id, access.edit_token(table)


def statements_of(app, call):
    """(result of call(), the SQL statements run, the number of commits)."""
    seen, commits = [], []
    with app.app_context():
        engine = db.engine
    listeners = [("before_cursor_execute", lambda conn, cursor, statement, *rest: seen.append(statement)),
                 ("commit", lambda conn: commits.append(1))]
    for name, fn in listeners:
        event.listen(engine, name, fn)
    try:
        result = call()
    finally:
        for name, fn in listeners:
            event.remove(engine, name, fn)
    return result, seen, len(commits)


def record(client, public_id, token, body):
    return client.post(f"/api/v1/tables/{public_id}/hands", json=body, headers={"Authorization": f"Bearer {token}"})


def test_a_new_hand_is_at_most_eight_statements_and_one_commit(limited):
    app, public_id, token = limited
    client = app.test_client()
    assert record(client, public_id, token, {"facts": facts(), "request_id": "warm"}).status_code == 201
    answer, seen, commits = statements_of(app, lambda: record(client, public_id, token,
                                                              {"facts": facts(4), "request_id": "r2"}))
    assert answer.status_code == 201, answer.get_json()
    assert commits == 1, seen  # the rate-limit count and the hand together
    assert len(seen) <= 8, "\n".join(seen)
    inserts = [s for s in seen if s.lstrip().upper().startswith("INSERT INTO HAND_DELTAS")]
    assert len(inserts) == 1  # five players' deltas in one statement
    read_back = [s for s in seen if s.lstrip().startswith(("SELECT hands.", "SELECT hand_deltas.id", "SELECT tables.stake"))]
    assert read_back == []  # nothing just written is read again (the standings' one aggregate is no re-read)
    body = answer.get_json()
    assert body["number"] == 2 and body["created"] is True and sum(body["deltas"].values()) == 0
    assert {row["player"]: row["points"] for row in body["standings"]}["Ann"] > 0
    with app.app_context():
        stored = db.session.scalar(select(Hand).where(Hand.request_id == "r2"))
        assert {d.player_id: d.points for d in stored.deltas} and len(stored.deltas) == 5
        assert body["deltas"] == {p.name: d.points for d in stored.deltas for p in stored.table.players
                                  if p.id == d.player_id}
        assert db.session.scalar(select(RateBucket.count).where(RateBucket.key == "write:127.0.0.1")) == 2


def test_a_write_past_the_limit_stores_nothing_and_a_refused_write_still_counts(limited):
    app, public_id, token = limited
    client = app.test_client()
    assert record(client, public_id, token, {"facts": facts(), "request_id": "a"}).status_code == 201
    assert record(client, public_id, token, {"facts": {"winner": "Nobody"}, "request_id": "b"}).status_code == 400
    assert record(client, public_id, token, {"facts": facts(3), "request_id": "c"}).status_code == 201  # 3rd
    refused = record(client, public_id, token, {"facts": facts(4), "request_id": "d"})
    assert refused.status_code == 429 and refused.get_json()["error"]["code"] == "rate_limited"
    with app.app_context():
        assert db.session.scalar(select(func.count()).select_from(Hand)) == 2
        assert db.session.scalar(select(func.count()).select_from(HandEvent)) == 2
        table = scoring.get_table(public_id)
        assert table.hand_seq == 2  # the refused hand's number was rolled back with it
    again = record(client, public_id, token, {"facts": facts(4), "request_id": "e"})
    assert again.status_code == 429  # refused before the view: this worker knows the address is over


def test_the_same_request_id_with_the_same_facts_is_the_same_hand(app, client):
    with app.app_context():
        table = scoring.create_table(game="gandengyan", name="Retry", players=PLAYERS)
        public_id, token = table.public_id, access.edit_token(table)
    first = record(client, public_id, token, {"facts": facts(), "request_id": "same"})
    retry = record(client, public_id, token, {"facts": facts(), "request_id": "same"})
    assert first.status_code == 201 and retry.status_code == 200
    assert retry.get_json()["created"] is False and retry.get_json()["number"] == first.get_json()["number"]


@pytest.mark.parametrize("how", ["request_id", "Idempotency-Key"])
def test_a_request_id_reused_with_other_facts_is_409_naming_the_hand(app, client, how):
    with app.app_context():
        table = scoring.create_table(game="gandengyan", name="Reuse", players=PLAYERS)
        public_id, token = table.public_id, access.edit_token(table)

    def send(body):
        headers = {"Authorization": f"Bearer {token}"}
        if how == "Idempotency-Key":
            headers["Idempotency-Key"] = "k-1"
        else:
            body = {**body, "request_id": "k-1"}
        return client.post(f"/api/v1/tables/{public_id}/hands", json=body, headers=headers)

    assert send({"facts": facts()}).status_code == 201
    reused = send({"facts": facts(bo=7)})
    assert reused.status_code == 409
    error = reused.get_json()["error"]
    assert error["code"] == "request_id_reused" and error["field"] == "request_id"
    assert "hand 1" in error["message"]
    current, submitted = reused.get_json()["current"], reused.get_json()["submitted"]
    assert current["number"] == 1 and current["facts"]["losers"]["Bo"]["cards"] == 2
    assert submitted["losers"]["Bo"]["cards"] == 7
    with app.app_context():
        assert db.session.scalar(select(func.count()).select_from(Hand)) == 1
        assert db.session.scalar(select(func.count()).select_from(HandDelta)) == 5


def test_scoring_refuses_a_reused_request_id_with_other_facts(app):
    with app.app_context():
        table = scoring.create_table(game="gandengyan", name="Service", players=PLAYERS)
        hand, created = scoring.record_hand_once(table, facts(), request_id="x")
        assert created
        with pytest.raises(scoring.Conflict) as caught:
            scoring.record_hand_once(table, facts(bo=9), request_id="x")
        assert caught.value.code == "request_id_reused" and caught.value.current.number == hand.number
        again, created = scoring.record_hand_once(table, facts(), request_id="x")
        assert (again.number, created) == (hand.number, False)
        assert scoring.get_table(table.public_id).hand_seq == 1
