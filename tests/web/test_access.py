"""Who may record: joining by record link (POST) or PIN, never by GET; the reset share link; the
PIN limit across workers; the token in no database row and no session cookie."""
import re

import pytest
from sqlalchemy import select, text, update

from companion import access, scoring
from companion.middleware import ratelimit
from companion.extensions import db
from companion.db.models import RateBucket, Table

from web_helpers import hidden, text_of

pytestmark = pytest.mark.db
PLAYERS = ["Ann", "Bo", "Cy"]


def new_table(app, **kw):
    with app.app_context():
        table = scoring.create_table(game="gandengyan", name="Access", players=PLAYERS, **kw)
        return table.public_id, access.edit_token(table)


def may_record(client, public_id) -> bool:
    status = client.get(f"/t/{public_id}/record").status_code
    assert status in (200, 403)
    return status == 200


def session_of(app, client) -> dict:
    cookie = client.get_cookie("session")
    return app.session_interface.get_signing_serializer(app).loads(cookie.value) if cookie else {}


def join(client, public_id, **form):
    return client.post(f"/t/{public_id}/join", data=form)


# --- joining ------------------------------------------------------------------------------------


def test_joining_by_the_record_link_is_a_post_and_the_session_keeps_no_token(app, client):
    public_id, token = new_table(app)
    assert not may_record(client, public_id)
    response = join(client, public_id, key=token)
    assert response.status_code == 303 and response.headers["Location"].endswith(f"/t/{public_id}")
    assert "This phone can now record" in text_of(client.get(f"/t/{public_id}"))
    assert may_record(client, public_id)
    kept = session_of(app, client)
    assert kept["tables"] == [[public_id, 1]]  # the table and the token's version: a right, not the token
    assert token not in client.get_cookie("session").value and token not in repr(kept)


def test_an_error_page_in_between_leaves_the_message_for_the_page(app, client):
    """The browser asks for something missing (404) while join.js reloads the page: the 404 page
    must not take the message meant for the table page (nor does the favicon's redirect)."""
    public_id, token = new_table(app)
    client.post(f"/t/{public_id}/join", data={"key": token}, headers={"Accept": "application/json"})
    assert client.get("/apple-touch-icon-precomposed.png").status_code == 404
    assert client.get("/favicon.ico").status_code == 301
    assert "This phone can now record" in text_of(client.get(f"/t/{public_id}"))


def test_a_pasted_link_joins_too_and_json_answers_for_the_script(app, client):
    public_id, token = new_table(app)
    answer = client.post(f"/t/{public_id}/join", data={"key": f"http://192.168.1.20:5000/t/{public_id}#key={token}"},
                         headers={"Accept": "application/json"})
    assert answer.status_code == 200 and answer.json["joined"] is True
    assert may_record(client, public_id)


def test_a_get_with_the_key_grants_nothing_and_offers_the_join_form(app, client):
    public_id, token = new_table(app)
    page = client.get(f"/t/{public_id}?key={token}")
    assert page.status_code == 200  # no redirect, no right: the join form with the key, one tap away
    assert hidden(page, "key") == token and 'id="join-button"' in page.get_data(as_text=True)
    assert not may_record(client, public_id)
    assert "tables" not in session_of(app, client)
    assert client.get(f"/t/{public_id}/record?key={token}").status_code == 403
    assert join(client, public_id, key=hidden(page, "key")).status_code == 303  # the tap
    assert may_record(client, public_id)


def test_a_wrong_key_or_an_empty_form_is_refused_with_the_reason(app, client):
    public_id, _token = new_table(app)
    wrong = join(client, public_id, key="x" * 32)
    assert wrong.status_code == 403 and "not valid for this table" in text_of(wrong)
    empty = join(client, public_id, key="")
    assert empty.status_code == 400 and "Enter the table's PIN" in text_of(empty)
    answer = client.post(f"/t/{public_id}/join", data={"key": "y" * 32}, headers={"Accept": "application/json"})
    assert answer.status_code == 403 and answer.json["joined"] is False
    assert not may_record(client, public_id)


def test_joining_by_pin(app, client):
    public_id, token = new_table(app)
    recorder = app.test_client()
    join(recorder, public_id, key=token)
    assert "no PIN" in text_of(join(client, public_id, key="123456"))  # none set yet
    assert recorder.post(f"/t/{public_id}/pin", data={"pin": "12345", "action": "set"}).status_code == 400  # beside the field
    with app.app_context():
        assert scoring.get_table(public_id).pin_hash is None  # 5 digits: refused, nothing changed
    assert recorder.post(f"/t/{public_id}/pin", data={"pin": "042917", "action": "set"}).status_code == 303
    assert 'id="pin-is-set"' in recorder.get(f"/t/{public_id}").get_data(as_text=True)
    with app.app_context():
        stored = scoring.get_table(public_id).pin_hash
    assert stored and "042917" not in stored  # a salted hash
    wrong = join(client, public_id, pin="042918")
    assert wrong.status_code == 403 and "not this table's" in text_of(wrong)
    for short in ({"key": "04291"}, {"pin": "04291"}, {"key": "0429177"}):   # issue 21: a PIN message, not a link's
        answer = text_of(join(client, public_id, **short))
        assert "exactly 6 digits" in answer and "record link" not in answer.split("exactly 6 digits")[1][:60]
    assert join(client, public_id, key=" 042917 ").status_code == 303  # the one field takes a PIN too
    assert may_record(client, public_id)
    assert recorder.post(f"/t/{public_id}/pin", data={"action": "clear"}).status_code == 303
    late = app.test_client()
    assert join(late, public_id, pin="042917").status_code == 403 and not may_record(late, public_id)


def test_a_watcher_cannot_set_a_pin_or_reset_the_link(app, client):
    public_id, token = new_table(app)
    assert client.post(f"/t/{public_id}/pin", data={"pin": "111111", "action": "set"}).status_code == 403
    assert client.get(f"/t/{public_id}/share/reset").status_code == 403
    assert client.post(f"/t/{public_id}/share/reset", data={"confirm": "yes"}).status_code == 403
    with app.app_context():
        table = scoring.get_table(public_id)
        assert table.pin_hash is None and table.token_version == 1 and access.edit_token(table) == token


def test_a_watchers_forged_posts_are_refused(app_maker):
    """CSRF on: a watcher's POST with its own valid form token still cannot write (no right), and a
    recorder's cookie without the form token (a cross-site form) cannot either."""
    app = app_maker(WTF_CSRF_ENABLED=True)
    public_id, token = new_table(app)
    watcher, recorder = app.test_client(), app.test_client()
    csrf = hidden(watcher.get(f"/t/{public_id}"), "csrf_token")
    assert csrf
    for path, form in ((f"/t/{public_id}/record", {"winner": "0", "cards_1": "2", "jokers_1": "0"}),
                       (f"/t/{public_id}/undo", {}), (f"/t/{public_id}/pin", {"pin": "111111", "action": "set"}),
                       (f"/t/{public_id}/share/reset", {"confirm": "yes"})):
        assert watcher.post(path, data={**form, "csrf_token": csrf}).status_code == 403, path
    assert watcher.post(f"/t/{public_id}/join", data={"key": token}).status_code == 400  # no CSRF token
    assert not may_record(watcher, public_id)
    csrf = hidden(recorder.get(f"/t/{public_id}"), "csrf_token")
    assert join(recorder, public_id, key=token, csrf_token=csrf).status_code == 303
    assert recorder.post(f"/t/{public_id}/share/reset", data={"confirm": "yes"}).status_code == 400  # forged
    with app.app_context():
        assert scoring.get_table(public_id).token_version == 1


# --- reset -------------------------------------------------------------------------------------------


def test_reset_revokes_other_phones_and_api_tokens_and_the_resetter_keeps_recording(app, client):
    public_id, old = new_table(app)
    other = app.test_client()
    join(client, public_id, key=old)
    join(other, public_id, key=old)
    client.post(f"/t/{public_id}/pin", data={"pin": "555555", "action": "set"})
    assert may_record(other, public_id)
    confirm = client.get(f"/t/{public_id}/share/reset")  # the confirmation step
    assert confirm.status_code == 200 and 'id="confirm-reset"' in confirm.get_data(as_text=True)
    assert client.post(f"/t/{public_id}/share/reset").status_code == 200  # no confirm=yes: asks again
    assert client.post(f"/t/{public_id}/share/reset", data={"confirm": "yes"}).status_code == 303
    with app.app_context():
        table = scoring.get_table(public_id)
        new = access.edit_token(table)
        assert table.token_version == 2 and new != old and table.pin_hash is None
    assert may_record(client, public_id)  # the phone that reset
    assert f"#key={new}" in client.get(f"/t/{public_id}").get_data(as_text=True)
    # the other phone: its right names the old version
    refused = other.get(f"/t/{public_id}/record")
    assert refused.status_code == 403 and "share link was reset" in text_of(refused)
    assert 'id="link-was-reset"' in other.get(f"/t/{public_id}").get_data(as_text=True)
    # issue 21: the reset turned the PIN off, so the locked-out phone is not told to use it …
    assert "PIN" not in text_of(refused) and "PIN" not in text_of(other.get(f"/t/{public_id}")).split("Join")[0]
    assert "Scan the new record code on a phone that can still record" in text_of(refused)
    assert "Access" not in text_of(other.get("/"))  # no longer among this phone's tables
    stale = join(other, public_id, key=old)
    assert stale.status_code == 403 and "was reset" in text_of(stale)
    assert join(other, public_id, pin="555555").status_code == 403  # the PIN went with it
    client.post(f"/t/{public_id}/pin", data={"pin": "666666", "action": "set"})   # … until a new PIN is set
    assert "join with the table's PIN" in text_of(other.get(f"/t/{public_id}/record"))
    # the API: the old token is refused, saying why; the new one works
    body = {"facts": {"winner": "Ann", "losers": {"Bo": {"cards": 2, "jokers": 0}, "Cy": {"cards": 1, "jokers": 0}}}}
    answer = client.post(f"/api/v1/tables/{public_id}/hands", json=body, headers={"Authorization": f"Bearer {old}"})
    assert answer.status_code == 403 and answer.json["error"]["code"] == "bad_token"
    assert "reset" in answer.json["error"]["message"]
    unknown = client.post(f"/api/v1/tables/{public_id}/hands", json=body, headers={"X-Edit-Token": "z" * 32})
    assert unknown.status_code == 403 and "may have been reset" not in unknown.json["error"]["message"]
    assert "reset" in unknown.json["error"]["message"]  # "…or the share link has been reset since"
    answer = client.post(f"/api/v1/tables/{public_id}/hands", json=body, headers={"Authorization": f"Bearer {new}"})
    assert answer.status_code == 201
    assert join(other, public_id, key=new).status_code == 303 and may_record(other, public_id)


def test_a_reset_refreshes_every_open_page(app, client):
    public_id, token = new_table(app)
    join(client, public_id, key=token)
    etag = client.get(f"/t/{public_id}/state").headers["ETag"]
    client.post(f"/t/{public_id}/share/reset", data={"confirm": "yes"})
    assert client.get(f"/t/{public_id}/state", headers={"If-None-Match": etag}).status_code == 200


# --- legacy tables and sessions ----------------------------------------------------------------


def make_legacy(app, public_id, token):
    """What the migration leaves of a table made before tokens were derived."""
    with app.app_context():
        db.session.execute(text("UPDATE tables SET token_version = 0, edit_token_hash = :h WHERE public_id = :p"),
                           {"h": access.token_hash(token), "p": public_id})
        db.session.commit()


def test_a_legacy_table_keeps_its_token_and_offers_a_reset_for_a_qr_code(app, client):
    public_id, _ = new_table(app)
    legacy = "legacy-random-token-000000000000"
    make_legacy(app, public_id, legacy)
    join(client, public_id, key=legacy)
    assert may_record(client, public_id)
    page = client.get(f"/t/{public_id}").get_data(as_text=True)
    assert 'id="record-link-hidden"' in page and 'id="share-record"' not in page and "#key=" not in page
    client.post(f"/t/{public_id}/share/reset", data={"confirm": "yes"})
    with app.app_context():
        new = access.edit_token(scoring.get_table(public_id))
    page = client.get(f"/t/{public_id}").get_data(as_text=True)
    assert f"#key={new}" in page and 'id="share-record"' in page and 'id="record-link-hidden"' not in page


def test_an_old_session_holding_the_token_is_turned_into_a_right(app, client):
    public_id, token = new_table(app)
    with client.session_transaction() as session:
        session["tables"] = [[public_id, token]]  # how sessions looked before
    assert may_record(client, public_id)
    assert session_of(app, client)["tables"] == [[public_id, 1]]
    with client.session_transaction() as session:
        session["tables"] = [[public_id, "not-the-token"]]
    assert not may_record(client, public_id)


def test_a_changed_secret_key_hides_the_record_link_instead_of_showing_a_wrong_one(app):
    public_id, token = new_table(app)
    app.config["SECRET_KEY"] = "another-secret"
    with app.app_context():
        table = scoring.get_table(public_id)
        assert access.edit_token(table) is None and scoring.check_edit_token(table, token)


# --- the PIN limit ---------------------------------------------------------------------------------


def _pin_table(app, pin="246810"):
    public_id, token = new_table(app)
    recorder = app.test_client()
    join(recorder, public_id, key=token)
    recorder.post(f"/t/{public_id}/pin", data={"pin": pin, "action": "set"})
    return public_id, recorder


def _earlier(app, seconds: int) -> None:
    """As if ``seconds`` had passed: every PIN count's time moves back (the real rows, no clock mock)."""
    with app.app_context():
        db.session.execute(update(RateBucket).where(RateBucket.key.like("pin%"))
                           .values(window_start=RateBucket.window_start - seconds))
        db.session.commit()


def _seconds_to_wait(response) -> int | None:
    found = re.search(r"Try again in (\d+) seconds?", text_of(response))
    return int(found.group(1)) if response.status_code == 429 and found else None


def test_wrong_pins_grow_a_delay_per_address_and_the_right_pin_after_it_works(app_maker):
    first, second = app_maker(), app_maker()  # two apps over one database, like two workers
    public_id, _recorder = _pin_table(first)
    phones = [first.test_client(), second.test_client()]
    for attempt in range(3):  # the free tries, spread over both workers
        assert join(phones[attempt % 2], public_id, pin=f"00000{attempt}").status_code == 403
    waiting = join(phones[1], public_id, pin="246810")  # even the right PIN waits now: no check is made
    assert waiting.status_code == 429 and _seconds_to_wait(waiting) in (4, 5)  # 5 s (a second may have passed)
    answer = phones[0].post(f"/t/{public_id}/join", data={"pin": "246810"}, headers={"Accept": "application/json"})
    assert answer.status_code == 429 and answer.json["joined"] is False
    elsewhere = second.test_client()  # another address is not slowed
    assert elsewhere.post(f"/t/{public_id}/join", data={"pin": "246810"},
                          environ_base={"REMOTE_ADDR": "10.1.2.3"}).status_code == 303
    _earlier(first, 6)
    assert join(phones[0], public_id, pin="000009").status_code == 403  # the 4th wrong try: next wait 10 s
    _earlier(first, 6)
    assert _seconds_to_wait(join(phones[0], public_id, pin="246810")) in (3, 4)  # 10 s after the 4th, 6 passed
    _earlier(first, 5)
    assert join(phones[0], public_id, pin="246810").status_code == 303  # the right PIN after the wait
    assert may_record(phones[0], public_id)


def test_the_delays_grow_and_stop_at_ten_minutes(app):
    with app.test_request_context():
        assert [ratelimit.pin_delay(n) for n in range(1, 12)] == [0, 0, 5, 10, 20, 40, 80, 160, 320, 600, 600]


def test_many_addresses_guessing_slow_the_table_down_without_closing_it(app_maker):
    app = app_maker(PIN_TABLE_BUDGET=4)
    public_id, recorder = _pin_table(app)
    for i in range(4):
        assert app.test_client().post(f"/t/{public_id}/join", data={"pin": "000000"},
                                      environ_base={"REMOTE_ADDR": f"10.0.0.{i}"}).status_code == 403
    honest = app.test_client()
    slowed = honest.post(f"/t/{public_id}/join", data={"pin": "246810"}, environ_base={"REMOTE_ADDR": "10.0.0.99"})
    assert slowed.status_code == 429 and "Many wrong PINs were tried at this table" in text_of(slowed)
    _earlier(app, 31)
    joined = honest.post(f"/t/{public_id}/join", data={"pin": "246810"}, environ_base={"REMOTE_ADDR": "10.0.0.99"})
    assert joined.status_code == 303  # slower, never closed
    page = text_of(recorder.get(f"/t/{public_id}"))
    assert "4 wrong PIN tries in the last hour: someone may be guessing." in page
    assert "wrong PIN" not in text_of(app.test_client().get(f"/t/{public_id}"))  # a watcher is not told


# --- the token is stored nowhere ---------------------------------------------------------------


def test_the_database_never_holds_a_token(app, client):
    public_id, first = new_table(app)
    join(client, public_id, key=first)
    client.post(f"/t/{public_id}/pin", data={"pin": "864209", "action": "set"})
    client.post(f"/t/{public_id}/share/reset", data={"confirm": "yes"})
    made = client.post("/api/v1/tables", json={"game": "gandengyan", "name": "API", "players": PLAYERS}).json
    with app.app_context():
        second = access.edit_token(scoring.get_table(public_id))
        exported = client.get(f"/api/v1/tables/{made['id']}/export").get_data()
    imported = client.post("/api/v1/import", data=exported, content_type="application/json").json
    tokens = {first, second, made["token"], imported["edit_token"], "864209"}
    assert all(tokens) and len(tokens) == 5
    with app.app_context():
        dump = []
        for table in db.metadata.sorted_tables:
            dump += [repr(tuple(row)) for row in db.session.execute(select(table))]
        assert len(db.session.scalars(select(Table)).all()) == 3
    everything = "\n".join(dump)
    for token in tokens:
        assert token not in everything
