"""Past one server (issue 34): two app servers (gunicorn, scripts/gunicorn_conf.py) on ONE
PostgreSQL behind the real proxy (nginx with deploy/nginx.conf and TLS, tests/deploy/proxy.py),
each phone with an address of its own. What a second instance must not break:

* a hand recorded through one instance is seen by a live poll on the other, at the first poll;
* a request id retried on the other instance (also both at once) never doubles a hand;
* the rate limits count across both instances (the counts live in the database);
* no page cache or in-process state answers a stale page: the table page, its conditional GET
  and the history on the instance that did NOT record show the new hand.

Which instance served a request: nginx balances round-robin over the two upstream lines (one
nginx worker: strictly in turn), and every request the test relies on is found in that
instance's own access log (a 304 poll is not logged: the test only relies on polls that must be
200). Needs PostgreSQL (make test-pg); the SQLite run skips it.
"""
from __future__ import annotations

import json
import os
import re
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from live_gunicorn import own_pg_database
from proxy import gunicorn_upstream, https_proxy, listening_socket, require_tools

pytestmark = pytest.mark.db

PLAYERS = ["Ann", "Bo", "Cy"]
WRITES = 8  # the write limit per address in this test: small enough to reach


def hand(i: int) -> dict:
    return {"winner": PLAYERS[i % 3], "losers": {p: {"cards": 1 + i % 5, "jokers": i % 2}
                                                for p in PLAYERS if p != PLAYERS[i % 3]}}


class Pair:
    """The proxy and its two instances; ``send`` tells which instance served a logged request."""

    def __init__(self, proxy, logs: list[Path]):
        self.proxy, self.logs = proxy, logs

    def _lines(self) -> list[list[str]]:
        return [log.read_text(errors="replace").splitlines() if log.exists() else [] for log in self.logs]

    def send(self, method: str, path: str, *, body=None, headers=None, source="127.0.0.1",
             logged: bool = True) -> tuple[int, dict, bytes, int | None]:
        """One request through the proxy: (status, headers, body, instance 0 or 1 — the one whose
        access log got the line "<source> <method> <path> <status>"; None when not logged)."""
        before = [len(lines) for lines in self._lines()]
        data = json.dumps(body).encode() if body is not None else None
        hdrs = {"Content-Type": "application/json", **(headers or {})} if data else dict(headers or {})
        status, answer_headers, answer = self.proxy.request(method, path, headers=hdrs, body=data, source=source)
        line = f" {source} {method} {path.split('?')[0]} {status} "
        served = None
        deadline = time.monotonic() + 10
        while logged and served is None and time.monotonic() < deadline:
            found = [i for i, lines in enumerate(self._lines()) if any(line in x for x in lines[before[i]:])]
            if len(found) == 1:
                served = found[0]
            else:
                time.sleep(0.02)
        return status, answer_headers, answer, served

    def next_on(self, instance: int) -> None:
        """Arrange that the NEXT request through the proxy goes to ``instance`` (round-robin: a
        logged request that lands on ``instance`` is followed by one more, which lands on the other)."""
        _, _, _, served = self.send("GET", "/healthz", source=self._probe())
        assert served is not None, "the access logs did not show /healthz"
        if served == 1 - instance:
            return
        _, _, _, served = self.send("GET", "/healthz", source=self._probe())
        assert served == 1 - instance, "nginx did not alternate between the two instances"

    def _probe(self) -> str:
        """A new loopback address for each probe: its line in an access log is its own."""
        self.probes = getattr(self, "probes", 0) + 1
        return f"127.0.{1 + self.probes // 250}.{1 + self.probes % 250}"

    def on(self, instance: int, method: str, path: str, **kwargs) -> tuple[int, dict, bytes]:
        """A request served by ``instance`` (checked in its access log)."""
        self.next_on(instance)
        status, headers, body, served = self.send(method, path, **kwargs)
        assert served == instance, f"{method} {path} was served by instance {served}, not {instance}"
        return status, headers, body


@pytest.fixture(scope="module")
def pair(tmp_path_factory):
    url = os.environ.get("DATABASE_URL", "")
    if not url.startswith("postgres"):
        pytest.skip("two app servers on one PostgreSQL: the PostgreSQL run (make test-pg)")
    require_tools()
    url = own_pg_database(url, f"two_{os.environ.get('PYTEST_XDIST_WORKER', 'main')}")
    folder = tmp_path_factory.mktemp("two")
    listeners = [listening_socket(), listening_socket()]
    ports = [s.getsockname()[1] for s in listeners]
    limits = json.dumps({"write": [WRITES, 600]})
    with https_proxy(ports, folder) as proxy:
        env = {"PUBLIC_URL": proxy.url, "TRUSTED_HOSTS": proxy.host, "FLASK_RATE_LIMITS": limits,
               "SECRET_KEY": "two-instances-secret", "WEB_CONCURRENCY": "1"}
        with gunicorn_upstream(folder, url, listener=listeners[0], **env), \
                gunicorn_upstream(folder, url, listener=listeners[1], **env):
            yield Pair(proxy, [folder / f"gunicorn-{port}.access.log" for port in ports])


def new_table(pair: Pair, source: str) -> tuple[str, dict]:
    status, _, body, _ = pair.send("POST", "/api/v1/tables", body={"game": "gandengyan", "name": "Two servers",
                                                                   "players": PLAYERS}, source=source)
    assert status == 201, body
    answer = json.loads(body)
    return answer["id"], {"Authorization": f"Bearer {answer['edit_token']}"}


def hands_stored(pair: Pair, public_id: str) -> int:
    status, _, body, _ = pair.send("GET", f"/api/v1/tables/{public_id}/hands")
    assert status == 200, body
    return json.loads(body)["total"]


def test_a_hand_recorded_on_one_is_seen_by_the_first_poll_and_page_on_the_other(pair):
    public_id, auth = new_table(pair, "127.0.0.21")
    # The other instance (1) draws the table page, the live block and the history first: whatever
    # it keeps per process now holds the table before the hand.
    status, headers, page, = pair.on(1, "GET", f"/t/{public_id}")
    assert status == 200 and 'id="hand-1"' not in page.decode()
    page_etag = headers.get("etag")
    status, headers, _ = pair.on(1, "GET", f"/t/{public_id}/state")
    assert status == 200
    poll_etag = headers["etag"]
    assert pair.on(1, "GET", f"/t/{public_id}/history")[0] == 200

    status, _, body = pair.on(0, "POST", f"/api/v1/tables/{public_id}/hands", headers=auth, source="127.0.0.21",
                              body={"facts": hand(1), "request_id": "seen-1"})
    assert status == 201, body

    # The first poll on instance 1 with the ETag it gave before the hand: 200 with the hand (a 304,
    # or a cached live block, would be stale; a 304 would not even be in its access log).
    status, headers, live = pair.on(1, "GET", f"/t/{public_id}/state", headers={"If-None-Match": poll_etag})
    assert status == 200 and headers["etag"] != poll_etag
    assert 'id="hand-1"' in live.decode()
    # The page, conditionally and not, and the history on instance 1.
    if page_etag:
        status, _, page = pair.on(1, "GET", f"/t/{public_id}", headers={"If-None-Match": page_etag})
        assert status == 200 and 'id="hand-1"' in page.decode()
    status, _, page = pair.on(1, "GET", f"/t/{public_id}")
    assert status == 200 and 'id="hand-1"' in page.decode()
    status, _, history = pair.on(1, "GET", f"/t/{public_id}/history")
    assert status == 200 and re.search(r"[Hh]and 1\b|#1\b", history.decode()), history.decode()[:2000]


def test_a_request_id_retried_on_the_other_instance_never_doubles_a_hand(pair):
    public_id, auth = new_table(pair, "127.0.0.22")
    record = {"facts": hand(2), "request_id": "retry-1"}
    status, _, body = pair.on(0, "POST", f"/api/v1/tables/{public_id}/hands", headers=auth, body=record,
                              source="127.0.0.22")
    assert status == 201 and json.loads(body)["created"] is True
    status, _, body = pair.on(1, "POST", f"/api/v1/tables/{public_id}/hands", headers=auth, body=record,
                              source="127.0.0.22")
    assert status == 200, body
    again = json.loads(body)
    assert again["created"] is False and again["number"] == 1
    assert hands_stored(pair, public_id) == 1

    # Both instances at once with a new request id (round-robin sends one to each): one hand.
    both = {"facts": hand(3), "request_id": "race-1"}

    def send(_):
        return pair.send("POST", f"/api/v1/tables/{public_id}/hands", headers=auth, body=both, source="127.0.0.22")

    with ThreadPoolExecutor(2) as pool:
        answers = list(pool.map(send, range(2)))
    assert sorted(a[0] for a in answers) == [200, 201], answers
    assert {a[3] for a in answers} == {0, 1}, "the two tries did not reach both instances"
    assert hands_stored(pair, public_id) == 2


def test_the_rate_limits_count_across_both_instances(pair):
    public_id, auth = new_table(pair, "127.0.0.23")  # opening the table is not a write of this bucket
    served = []
    for i in range(WRITES):
        status, _, body, instance = pair.send("POST", f"/api/v1/tables/{public_id}/hands", headers=auth,
                                              body={"facts": hand(i), "request_id": f"limit-{i}"}, source="127.0.0.23")
        assert status == 201, (i, body)
        served.append(instance)
    assert set(served) == {0, 1}, served  # each instance counted some: alone neither reached the limit
    for instance in (0, 1):  # the next write is refused wherever it lands
        status, _, body = pair.on(instance, "POST", f"/api/v1/tables/{public_id}/hands", headers=auth,
                                  body={"facts": hand(9), "request_id": f"over-{instance}"}, source="127.0.0.23")
        assert status == 429, body
    # another phone (address) is not limited by the first one's count
    status, _, body, _ = pair.send("POST", f"/api/v1/tables/{public_id}/hands", headers=auth,
                                   body={"facts": hand(10), "request_id": "other-phone"}, source="127.0.0.24")
    assert status == 201, body
    assert hands_stored(pair, public_id) == WRITES + 1
