"""The per-request floor (issue 22): what every request pays, and what cheap routes never pay.

* the session cookie is read only by a request that uses the session: the live poll's 304, the
  health check, static files and the API with a Bearer token never decode it, and answer without
  a cookie or ``Vary: Cookie``; a page that needs it still has it;
* the input guard's one-scan check of text refuses exactly what the per-character rule refused
  (every code point compared with ``unicodedata``).
"""
import sys
import unicodedata

import pytest

from companion import access, scoring
from companion.middleware.guard import text_problem

PLAYERS = ["Ann", "Bo", "Cy"]
FACTS = {"winner": "Ann", "losers": {"Bo": {"cards": 2, "jokers": 0}, "Cy": {"cards": 1, "jokers": 0}}}


@pytest.fixture
def table(app):
    with app.app_context():
        t = scoring.create_table(game="gandengyan", name="Floor", players=PLAYERS)
        return t.public_id, access.edit_token(t)


@pytest.fixture
def opened(app, monkeypatch):
    """How many times the session cookie was opened (read, checked, decoded)."""
    calls = []
    original = app.session_interface.open_session

    def counting(flask_app, request):
        calls.append(request.path)
        return original(flask_app, request)

    monkeypatch.setattr(app.session_interface, "open_session", counting)
    return calls


def joined(client, public_id, token):
    assert client.post(f"/t/{public_id}/join", data={"key": token}).status_code == 303
    assert client.get_cookie("session") is not None
    return client


def test_a_304_poll_never_opens_the_session_and_sends_no_cookie(app, client, table, opened):
    public_id, token = table
    joined(client, public_id, token)
    etag = client.get(f"/t/{public_id}/state").headers["ETag"]
    opened.clear()
    response = client.get(f"/t/{public_id}/state", headers={"If-None-Match": etag})
    assert response.status_code == 304
    assert opened == []
    assert "Set-Cookie" not in response.headers and "Cookie" not in response.headers.get("Vary", "")


def test_a_changed_poll_and_the_page_still_know_this_phone_may_record(app, client, table, opened):
    public_id, token = table
    joined(client, public_id, token)
    etag = client.get(f"/t/{public_id}/state").headers["ETag"]
    with app.app_context():
        scoring.record_hand(scoring.get_table(public_id), FACTS, request_id="r1")
    opened.clear()
    changed = client.get(f"/t/{public_id}/state", headers={"If-None-Match": etag})
    assert changed.status_code == 200 and opened == [f"/t/{public_id}/state"]
    assert f"/t/{public_id}/record" in changed.get_data(as_text=True)  # the record button: the right was read
    watcher = app.test_client()
    assert f"/t/{public_id}/record" not in watcher.get(f"/t/{public_id}/state").get_data(as_text=True)


@pytest.mark.parametrize("path", ["/healthz", "/static/css/app.css"])
def test_health_and_static_never_open_the_session(app, client, table, opened, path):
    joined(client, *table)
    opened.clear()
    response = client.get(path)
    assert response.status_code == 200 and opened == []
    assert "Set-Cookie" not in response.headers


def test_the_api_with_a_bearer_token_never_opens_the_session(app, client, table, opened):
    public_id, token = table
    joined(client, public_id, token)  # the same client still sends its session cookie
    opened.clear()
    response = client.post(f"/api/v1/tables/{public_id}/hands", json={"facts": FACTS, "request_id": "api-1"},
                           headers={"Authorization": f"Bearer {token}"})
    assert response.status_code == 201, response.get_json()
    assert opened == []


def test_a_page_that_writes_the_session_still_saves_it(app, client, table):
    public_id, token = table
    assert client.get_cookie("session") is None
    joined(client, public_id, token)
    assert "This phone can now record" in client.get(f"/t/{public_id}").get_data(as_text=True)


def test_the_text_check_refuses_exactly_the_control_characters_and_lone_surrogates():
    for code in range(sys.maxunicode + 1):
        ch = chr(code)
        bad = ch not in "\t\n\r" and unicodedata.category(ch) in ("Cc", "Cs")
        assert (text_problem(f"ok{ch}ok") is not None) == bad, hex(code)


@pytest.mark.parametrize(("value", "words"), [
    ("a\x00b", "NUL"), ("a\ud800b", "surrogate"), ("a\x07b", "control"), ("a\x85b", "control"),
    ("tab\there\r\nnew line", None), ("中文 العربية 한국어", None), ("", None), ("x" * 100_000, None),
])
def test_the_text_check_names_the_problem(app, value, words):
    with app.test_request_context():
        problem = text_problem(value)
    assert (problem is None) if words is None else (words in problem)
