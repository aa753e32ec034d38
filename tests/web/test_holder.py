"""Who holds this phone (issue 33 item 1): a phone that joins a table is asked which player holds
it; that name, not the platform ("Linux"), names its hands in the undo button and the history."""
import pytest

from companion import access, scoring

from web_helpers import gdy_form, text_of

pytestmark = pytest.mark.db
PLAYERS = ["Ann", "Bo", "Cy", "Di"]
LINUX = {"User-Agent": "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 Chrome/156 Safari/537.36"}


def joined(app, client):
    with app.app_context():
        table = scoring.create_table(game="gandengyan", name="Holder", players=PLAYERS)
        public_id, token = table.public_id, access.edit_token(table)
    assert client.post(f"/t/{public_id}/join", data={"key": token}).status_code == 303
    return public_id


def record(client, public_id, request_id):
    cards = str(1 + sum(map(ord, request_id)) % 9)  # another hand each time (no "hand N again?" question)
    response = client.post(f"/t/{public_id}/record", data={**gdy_form(cards_3=cards), "request_id": request_id},
                           headers=LINUX)
    assert response.status_code in (302, 303), text_of(response)


def test_a_phone_that_joins_is_asked_and_its_hands_carry_the_players_name(app, client):
    public_id = joined(app, client)
    page = text_of(client.get(f"/t/{public_id}"))
    assert "Who holds this phone?" in page
    assert client.post(f"/t/{public_id}/holder", data={"holder": "Bo"}).status_code == 303
    page = text_of(client.get(f"/t/{public_id}"))
    assert "Who holds this phone?" not in page and "This phone: Bo" in page
    record(client, public_id, "h-1")
    page = text_of(client.get(f"/t/{public_id}", headers=LINUX))
    assert "Undo: hand 1 recorded by Bo" in page and "Linux" not in page
    assert "Bo" in text_of(client.get(f"/t/{public_id}/history")).split("recorded", 1)[-1]
    # changed later: the next hand is named after the new holder
    client.post(f"/t/{public_id}/holder", data={"holder": "Cy"})
    record(client, public_id, "h-2")
    assert "Undo: hand 2 recorded by Cy" in text_of(client.get(f"/t/{public_id}"))


def test_someone_else_may_give_a_name_or_none(app, client):
    public_id = joined(app, client)
    client.post(f"/t/{public_id}/holder", data={"holder": "", "other": "  Li   Wei "})
    page = text_of(client.get(f"/t/{public_id}"))
    assert "This phone: Li Wei" in page and "Who holds this phone?" not in page
    record(client, public_id, "s-1")
    assert "recorded by Li Wei" in text_of(client.get(f"/t/{public_id}"))
    client.post(f"/t/{public_id}/holder", data={"holder": ""})  # no name: the phone's own name, as before
    assert "This phone: someone else" in text_of(client.get(f"/t/{public_id}"))
    record(client, public_id, "s-2")
    assert "recorded by Linux" in text_of(client.get(f"/t/{public_id}"))


def test_a_name_that_is_not_a_player_is_refused_and_a_renamed_holder_is_asked_again(app, client):
    public_id = joined(app, client)
    client.post(f"/t/{public_id}/holder", data={"holder": "Zed"})
    page = text_of(client.get(f"/t/{public_id}"))
    assert "Zed does not play at this table now" in page and "Who holds this phone?" in page
    client.post(f"/t/{public_id}/holder", data={"holder": "Di"})
    with app.app_context():
        table = scoring.get_table(public_id)
        scoring.change_players(table, ["Ann", "Bo", "Cy", "Dee"])  # Di renamed (a new name in her seat)
    page = text_of(client.get(f"/t/{public_id}"))
    assert "Who holds this phone?" in page  # the old answer no longer names a player here
    record(client, public_id, "r-1")
    assert "recorded by Di" not in text_of(client.get(f"/t/{public_id}"))


def test_a_phone_that_only_looks_cannot_say_who_holds_it(app, client):
    with app.app_context():
        public_id = scoring.create_table(game="gandengyan", name="Look", players=PLAYERS).public_id
    assert "Who holds this phone?" not in text_of(client.get(f"/t/{public_id}"))
    assert client.post(f"/t/{public_id}/holder", data={"holder": "Bo"}).status_code == 403
