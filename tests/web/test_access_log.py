"""No edit token in any access-log line: gunicorn (2 workers) over a migrated temporary database,
its access log captured, while a table is opened, a phone joins it with the record link's key
and records, and an API client writes with the token (Bearer and X-Edit-Token)."""
from __future__ import annotations

import http.client
import json
import re
import time
from pathlib import Path
from urllib.parse import urlencode

import pytest

from live_gunicorn import running_gunicorn

ROOT = Path(__file__).resolve().parents[2]
FACTS = {"winner": "Ann", "losers": {"Bo": {"cards": 2, "jokers": 0}, "Cy": {"cards": 1, "jokers": 0}}}


@pytest.fixture
def gunicorn(tmp_path):
    """(port, access log path): gunicorn -w 2 over a freshly migrated SQLite file."""
    with running_gunicorn(tmp_path, f"sqlite:///{tmp_path}/log.sqlite3", "log-secret") as port:
        yield port, tmp_path / "access.log"


class Phone:
    def __init__(self, port):
        self.port, self.cookie = port, ""

    def send(self, method, path, body=None, headers=None):
        headers = dict(headers or {})
        if self.cookie:
            headers["Cookie"] = self.cookie
        if isinstance(body, dict):
            body, headers["Content-Type"] = json.dumps(body), "application/json"
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
        try:
            conn.request(method, path, body=body, headers=headers)
            response = conn.getresponse()
            raw = response.read().decode()
        finally:
            conn.close()
        cookie = response.getheader("Set-Cookie")
        if cookie:
            self.cookie = cookie.split(";", 1)[0]
        return response.status, raw

    def form_post(self, path, page, **fields):
        csrf = re.search(r'name="csrf_token" value="([^"]+)"', page).group(1)
        return self.send("POST", path, urlencode({"csrf_token": csrf, **fields}),
                         {"Content-Type": "application/x-www-form-urlencoded"})


def test_no_token_in_any_access_log_line(gunicorn):
    port, log = gunicorn
    api = Phone(port)
    status, raw = api.send("POST", "/api/v1/tables", {"game": "gandengyan", "name": "Log", "players": ["Ann", "Bo", "Cy"]})
    assert status == 201, raw
    table = json.loads(raw)
    public_id, token = table["id"], table["token"]
    assert table["urls"]["share"].endswith(f"/t/{public_id}#key={token}")

    phone = Phone(port)  # opens the record link: the browser requests /t/<id> (the fragment stays home)
    status, page = phone.send("GET", f"/t/{public_id}", headers={"Referer": f"http://127.0.0.1:{port}/"})
    assert status == 200 and token not in page
    status, _ = phone.form_post(f"/t/{public_id}/join", page, key=token)  # what join.js sends
    assert status == 303
    status, page = phone.send("GET", f"/t/{public_id}")
    assert status == 200 and f"#key={token}" in page  # this phone may show the record code now
    status, form = phone.send("GET", f"/t/{public_id}/record")
    assert status == 200
    request_id = re.search(r'name="request_id"[^>]*value="([^"]+)"', form).group(1)
    status, _ = phone.form_post(f"/t/{public_id}/record", form, request_id=request_id, winner="0",
                                cards_1="2", jokers_1="0", cards_2="1", jokers_2="0")
    assert status == 302

    hands = f"/api/v1/tables/{public_id}/hands"
    assert api.send("POST", hands, {"facts": FACTS}, {"Authorization": f"Bearer {token}"})[0] == 201
    assert api.send("PUT", hands + "/2", {"facts": FACTS, "revision": 1}, {"X-Edit-Token": token})[0] == 200
    assert api.send("POST", hands + "/2/void", {"revision": 2}, {"Authorization": f"Bearer {token}"})[0] == 200
    assert api.send("POST", f"/api/v1/tables/{public_id}/undo", {}, {"Authorization": f"Bearer {token}"})[0] == 200
    assert api.send("POST", hands, {"facts": FACTS}, {"Authorization": "Bearer wrong"})[0] == 403

    deadline = time.time() + 10  # gunicorn writes each line after its answer
    while len(lines := log.read_text().splitlines()) < 11 and time.time() < deadline:
        time.sleep(0.1)
    assert len(lines) == 11  # every request above, each logged once
    assert any(f"/t/{public_id}/join" in line for line in lines) and sum(hands in line for line in lines) >= 3
    leaked = [line for line in lines if token in line or token[:16] in line]
    assert leaked == []
