"""The "Players" page (issue 21, item 3): join, leave and a substitute through the form, errors beside
their field with the typed text kept, CSRF; on SQLite and PostgreSQL."""
from companion import scoring
from companion.extensions import db

from web_helpers import field_errors, hidden, snapshot, text_of


def rows(table, **changes):
    """The form as the page sends it: every seated player kept, then ``changes``."""
    data = {}
    for i, name in enumerate(table.player_names):
        data.update({f"name_{i}": name, f"sub_{i}": "", f"seat_{i}": str(i + 1)})
    data.update(changes)
    return {k: v for k, v in data.items() if v is not None}


def test_the_page_offers_a_row_per_seat_and_joiners_up_to_the_engines_limit(client, gdy, writer):
    writer(gdy)
    page = client.get(f"/t/{gdy.public_id}/players")
    assert page.status_code == 200
    html = page.get_data(as_text=True)
    assert html.count('name="new_') == 2  # 干瞪眼: 4 seated, up to 6
    assert 'value="Ann"' in html and "change-players" in client.get(f"/t/{gdy.public_id}/settings").get_data(as_text=True)


def test_a_phone_that_only_watches_gets_no_page(client, gdy):
    assert client.get(f"/t/{gdy.public_id}/players").status_code == 403


def test_join_then_leave_through_the_page_totals_by_hand(client, gdy, writer):
    writer(gdy)
    scoring.record_hand(gdy, {"winner": "Ann", "losers": {"Bo": {"cards": 3}, "Cy": {"cards": 1},
                                                          "Di": {"cards": 2}}}, request_id="h1")  # Ann +6
    response = client.post(f"/t/{gdy.public_id}/players", data=rows(gdy, new_0="Eve", newseat_0="3"))
    assert response.status_code == 302
    db.session.expire_all()
    assert gdy.player_names == ["Ann", "Bo", "Eve", "Cy", "Di"]  # Eve sits third
    scoring.record_hand(gdy, {"winner": "Eve", "losers": {"Ann": {"cards": 1}, "Bo": {"cards": 1},
                                                          "Cy": {"cards": 1}, "Di": {"cards": 1}}}, request_id="h2")
    assert client.post(f"/t/{gdy.public_id}/players", data=rows(gdy, leave_4="y")).status_code == 302
    db.session.expire_all()
    assert gdy.player_names == ["Ann", "Bo", "Eve", "Cy"]
    standings = text_of(client.get(f"/t/{gdy.public_id}"))
    assert "Di" in standings
    points = {row.name: row.points for row in scoring.standings(gdy)}
    assert points == {"Ann": 5, "Bo": -4, "Cy": -2, "Di": -3, "Eve": 4}  # Ann 6−1, Bo −3−1, Cy −1−1, Di −2−1
    history = text_of(client.get(f"/t/{gdy.public_id}/history"))
    assert "Players changed" in history and "Ann , Bo , Eve , Cy , Di" in history  # tags become spaces


def test_a_substitute_takes_the_seat_in_dagong(client, dg, writer):
    writer(dg)
    html = client.get(f"/t/{dg.public_id}/players").get_data(as_text=True)
    assert 'name="new_' not in html and 'name="leave_' not in html  # always four: substitutes only
    assert client.post(f"/t/{dg.public_id}/players", data=rows(dg, sub_1="Sub")).status_code == 302
    db.session.expire_all()
    assert dg.player_names == ["P1", "Sub", "P3", "P4"]
    assert [p.name for p in dg.players if not p.seated] == ["P2"]


def test_errors_show_beside_their_field_and_keep_the_typed_text(client, gdy, writer):
    writer(gdy)
    before = snapshot()
    response = client.post(f"/t/{gdy.public_id}/players", data=rows(gdy, name_1="Ann", new_0="Zoë\u202e"))
    assert response.status_code == 400
    errors = field_errors(response)
    assert "name_1" in errors and "twice" in errors["name_1"][0]
    assert "new_0" in errors and "invisible" in errors["new_0"][0]
    assert 'value="Zoë\u202e"' in response.get_data(as_text=True)  # nothing typed is lost
    assert snapshot() == before
    response = client.post(f"/t/{gdy.public_id}/players", data=rows(gdy, leave_0="y", leave_1="y", leave_2="y"))
    assert response.status_code == 400 and "2 to 6 players" in text_of(response)
    assert snapshot() == before


def test_the_form_needs_its_csrf_token(client, gdy, writer, app):
    writer(gdy)
    app.config["WTF_CSRF_ENABLED"] = True
    before = snapshot()
    assert client.post(f"/t/{gdy.public_id}/players", data=rows(gdy, new_0="Eve")).status_code == 400
    assert snapshot() == before
    page = client.get(f"/t/{gdy.public_id}/players")
    data = rows(gdy, new_0="Eve", csrf_token=hidden(page, "csrf_token"))
    assert client.post(f"/t/{gdy.public_id}/players", data=data).status_code == 302
