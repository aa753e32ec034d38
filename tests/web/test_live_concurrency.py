"""Real HTTP against the threaded live server (CSRF on): phones recording at the same moment."""
import http.cookiejar
import re
import threading
import urllib.error
import urllib.parse
import urllib.request
from html import unescape

from companion import access, scoring
from companion.extensions import db
from companion.db.models import Hand, HandEvent


class Phone:
    """A browser-like client: its own cookies (session with the edit token, CSRF)."""

    def __init__(self, base):
        self.base = base
        self.opener = urllib.request.build_opener(
            urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()), NoRedirect())

    def request(self, path, data=None):
        body = urllib.parse.urlencode(data).encode() if data is not None else None
        try:
            with self.opener.open(self.base + path, body, timeout=30) as response:
                return response.status, response.read().decode()
        except urllib.error.HTTPError as error:
            return error.code, error.read().decode()

    def join(self, public_id, token):
        """Join the table with its record link's key, as static/js/join.js does (a POST with CSRF)."""
        form = self.form(f"/t/{public_id}")
        return self.request(f"/t/{public_id}/join", {"csrf_token": form["csrf_token"], "key": token})[0]

    def form(self, path):
        status, html = self.request(path)
        assert status == 200
        return {name: unescape(value) for name, value in
                re.findall(r'<input[^>]*name="(csrf_token|request_id|expected_number)"[^>]*value="([^"]*)"', html)}


class NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None


def hand_data(i):
    return {"winner": str(i % 3), "dealer": "", **{f"cards_{s}": str(1 + (i + s) % 5) for s in range(3)},
            **{f"jokers_{s}": "0" for s in range(3)}}


def test_simultaneous_records_all_land_once(live_server):
    with live_server.app.app_context():
        table = scoring.create_table(game="gandengyan", name="busy", players=["A", "B", "C"])
        public_id, token = table.public_id, access.edit_token(table)
    phones = [Phone(live_server) for _ in range(6)]
    for phone in phones:
        assert phone.join(public_id, token) == 303
    forms = [phone.form(f"/t/{public_id}/record") for phone in phones]
    results = []

    def post(phone, data):
        results.append(phone.request(f"/t/{public_id}/record", data)[0])

    threads = []
    for i, (phone, form) in enumerate(zip(phones, forms)):
        data = {**hand_data(i), "csrf_token": form["csrf_token"], "request_id": form["request_id"]}
        threads += [threading.Thread(target=post, args=(phone, data)) for _ in range(2)]  # each taps twice
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert sorted(results) == [302] * 12
    with live_server.app.app_context():
        numbers = sorted(h.number for h in db.session.query(Hand))
        assert numbers == [1, 2, 3, 4, 5, 6]
        assert db.session.query(HandEvent).count() == 6
        assert sum(r.points for r in scoring.standings(scoring.get_table(public_id))) == 0


def test_live_server_refuses_a_post_without_csrf(live_server):
    with live_server.app.app_context():
        table = scoring.create_table(game="gandengyan", name="t", players=["A", "B"])
        public_id, token = table.public_id, access.edit_token(table)
    phone = Phone(live_server)
    assert phone.join(public_id, token) == 303
    status, html = phone.request(f"/t/{public_id}/record", {"winner": "0", "cards_1": "2", "jokers_1": "0",
                                                            "request_id": "x"})
    assert status == 400 and "expired" in html
    with live_server.app.app_context():
        assert db.session.query(Hand).count() == 0
