"""An undo names the change it undoes (the button's ``undo_event``): sent late from a phone's
outbox after another change came in, or sent twice, it undoes nothing and answers 409 with the
reason (issue 18). Without the field (older pages, the API) undo behaves as before."""
from sqlalchemy import select

from companion import scoring
from companion.extensions import db
from companion.db.models import Hand

from web_helpers import text_of

HAND = {"winner": "Ann", "losers": {"Bo": {"cards": 2, "jokers": 0}, "Cy": {"cards": 1, "jokers": 0}}}


def setup(app):
    with app.app_context():
        table = scoring.create_table(game="gandengyan", name="Undo", players=["Ann", "Bo", "Cy"])
        scoring.record_hand(table, HAND, request_id="one")
        first = scoring.next_undo(table).id
        return table.public_id, first


def statuses(app, public_id):
    with app.app_context():
        table = scoring.get_table(public_id)
        out = [h.status for h in db.session.scalars(select(Hand).where(Hand.table_id == table.id).order_by(Hand.number))]
        db.session.remove()
        return out


def join(client, app, public_id):
    from companion import access

    with app.app_context():
        token = access.edit_token(scoring.get_table(public_id))
    assert client.post(f"/t/{public_id}/join", data={"key": token}).status_code == 303


def test_the_undo_the_button_named_is_done_once(app, client):
    public_id, first = setup(app)
    join(client, app, public_id)
    page = client.get(f"/t/{public_id}").get_data(as_text=True)
    assert f'name="undo_event" value="{first}"' in page
    assert client.post(f"/t/{public_id}/undo", data={"undo_event": first}).status_code == 302
    assert statuses(app, public_id) == ["void"]
    again = client.post(f"/t/{public_id}/undo", data={"undo_event": first})  # the same undo, resent
    assert again.status_code == 409
    assert "nothing was undone" in text_of(again)
    assert statuses(app, public_id) == ["void"]


def test_a_late_undo_after_another_change_undoes_nothing(app, client):
    public_id, first = setup(app)
    join(client, app, public_id)
    with app.app_context():
        scoring.record_hand(scoring.get_table(public_id), HAND, request_id="two")  # another phone
    late = client.post(f"/t/{public_id}/undo", data={"undo_event": first})
    assert late.status_code == 409
    assert statuses(app, public_id) == ["active", "active"]
    assert client.post(f"/t/{public_id}/undo").status_code == 302  # without the field: as before
    assert statuses(app, public_id) == ["active", "void"]
