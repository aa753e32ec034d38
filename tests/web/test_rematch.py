"""A new night with the same people (issue 29, "rematch"): one tap on the table page or in the
settings opens a new table with the players seated now in the same seats, the same house rules,
stake and currency, each player linked to the same person; the old table is left as it was."""
import re

from companion.sharing import people
from companion import scoring
from companion.extensions import db

from web_helpers import snapshot


def _token(page) -> str:
    return re.search(r'name="csrf_token" value="([^"]+)"', page.get_data(as_text=True)).group(1)


def test_a_new_night_with_the_same_people(app, client, ctx, writer):
    table = scoring.create_table(game="gandengyan", name="Friday", players=["Ann", "Bo", "Cy", "Di"], stake="0.5",
                                 currency="¥", rules={"triple_is_bomb": True}, first_dealer="Ann")
    people.link_players(table, {p.id: people.NEW for p in table.players}, offered_from=[table.id])
    scoring.record_hand(table, {"winner": "Ann", "losers": {n: {"cards": 2, "jokers": 0} for n in ("Bo", "Cy", "Di")}},
                        request_id="h1")
    scoring.change_players(table, ["Cy", "Ann", "Eve", "Bo"])  # Di left, Eve joined, seats changed
    writer(table)
    app.config["WTF_CSRF_ENABLED"] = True
    page = client.get(f"/t/{table.public_id}")
    assert 'id="rematch"' in page.get_data(as_text=True) and 'form="rematch-form"' in page.get_data(as_text=True)
    before = snapshot()
    refused = client.post(f"/t/{table.public_id}/rematch")  # no CSRF token: nothing is opened
    assert refused.status_code == 400 and snapshot() == before
    db.session.expire_all()
    old = {p.name: (p.seat, p.person_id) for p in scoring.get_table(table.public_id).players}
    response = client.post(f"/t/{table.public_id}/rematch", data={"csrf_token": _token(page)})
    assert response.status_code == 302
    new_id = response.headers["Location"].rsplit("/", 1)[1]
    assert new_id != table.public_id
    new = scoring.get_table(new_id)
    assert new.player_names == ["Cy", "Ann", "Eve", "Bo"] and new.hand_seq == 0
    assert (new.game, new.name, new.stake_text, new.currency, new.preset) == ("gandengyan", "Friday", "0.5", "¥", None)
    assert new.rules == scoring.get_table(table.public_id).rules and new.rules["triple_is_bomb"] is True
    links = {p.name: p.person_id for p in new.players}
    assert links == {name: old[name][1] for name in ("Cy", "Ann", "Eve", "Bo")} and links["Ann"] is not None
    shown = client.get(response.headers["Location"]).get_data(as_text=True)
    assert "A new night with the same people: the same seats" in shown
    assert client.get(f"/t/{new_id}/record").status_code == 200  # this phone may record at the new table
    # The old table is as it was.
    db.session.expire_all()
    table = scoring.get_table(table.public_id)
    assert {p.name: (p.seat, p.person_id) for p in table.players} == old and table.hand_seq == 1


def test_a_new_night_from_the_settings_of_a_dagong_table(app, client, ctx, writer):
    table = scoring.create_table(game="dagong", name="大冶", players=["P1", "P2", "P3", "P4"], stake="2", preset="daye")
    writer(table)
    app.config["WTF_CSRF_ENABLED"] = True
    page = client.get(f"/t/{table.public_id}/settings")
    assert 'id="rematch-settings"' in page.get_data(as_text=True)
    response = client.post(f"/t/{table.public_id}/rematch", data={"csrf_token": _token(page)})
    new = scoring.get_table(response.headers["Location"].rsplit("/", 1)[1])
    assert (new.game, new.preset, new.player_names, new.stake_text) == ("dagong", "daye", ["P1", "P2", "P3", "P4"], "2")


def test_a_watcher_cannot_open_a_new_night(client, ctx):
    table = scoring.create_table(game="gandengyan", name="Friday", players=["Ann", "Bo"])
    before = snapshot()
    page = client.get(f"/t/{table.public_id}").get_data(as_text=True)
    assert 'id="rematch"' not in page
    assert client.post(f"/t/{table.public_id}/rematch").status_code in (400, 403)
    assert snapshot() == before
