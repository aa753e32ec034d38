"""Fuzz every route through a live gunicorn (2 workers), with and without the edit token.

Hypothesis draws requests — good ones, broken ones and hostile ones — for every page and API
route; none may answer 5xx. Afterwards the database must still be sound: hand numbers
contiguous per table, each hand's deltas summing to zero, exactly one create event per hand.
Runs on SQLite and, under ``make test-pg``, on PostgreSQL. ``FUZZ_REQUESTS`` sets how many
requests (default 10,000, the size CI runs; e.g. ``FUZZ_REQUESTS=1000`` while developing).
"""
from __future__ import annotations

import http.client
import json
import random
import re
import os
import time
from pathlib import Path
from functools import partial
from urllib.parse import quote
from urllib.parse import urlencode as _urlencode

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy import create_engine, text

from companion.engine import ENGINES, described
from drawn_facts import coherent_hand, described_hand, drawn
from live_gunicorn import own_pg_database, running_gunicorn

ROOT = Path(__file__).resolve().parents[2]
REQUESTS = int(os.environ.get("FUZZ_REQUESTS", "10000"))
PER_EXAMPLE = 5
GAMES = list(ENGINES)  # the registry (the app's games, those the server runs), never a list by hand
ALL_NAMES = ["Ana", "Bo", "Chen", "Dee", "Eli", "Fay"]


def names_for(module) -> list:
    """The players of the game's fuzz table: four when the game allows four, else its nearest count."""
    low, high = module.PLAYER_RANGE
    return ALL_NAMES[:min(max(4, low), high)]


PLAYERS = {game: names_for(module) for game, module in ENGINES.items()}
FORM_FIELDS = {game: [name for fact in module.describe_facts(None, len(PLAYERS[game])) if fact.kind != described.PLAYERS
                      for name in ([f"{fact.field_name}_{i}" for i in range(2)] if fact.per_player
                                   else [fact.field_name])]
               for game, module in ENGINES.items()}  # the hand form's fields (per player: the first two seats)

pytestmark = pytest.mark.db
urlencode = partial(_urlencode, errors="surrogatepass")


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    """gunicorn -w 2 over a migrated database; yields (port, database url, folder)."""
    folder = tmp_path_factory.mktemp("fuzz")
    url = os.environ.get("DATABASE_URL") or f"sqlite:///{folder}/fuzz.sqlite3"
    if url.startswith("postgres"):  # an empty database of its own: the other tests use create_all
        url = own_pg_database(url, "fuzz")
    with running_gunicorn(folder, url, "fuzz-secret", FLASK_RATELIMIT_ENABLED="false") as port:
        yield port, url, folder


class Client:
    def __init__(self, port):
        self.port = port
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        self.count = 0
        self.seconds = 0.0
        self.cookie = ""
        self.csrf = ""
        self.statuses: dict[int, int] = {}

    def send(self, method, path, body=None, headers=None):
        headers = dict(headers or {})
        if self.cookie:
            headers["Cookie"] = self.cookie
        if body is not None and not isinstance(body, (bytes, str)):
            body = json.dumps(body)
            headers.setdefault("Content-Type", "application/json")
        if isinstance(body, str):
            body = body.encode("utf-8", "surrogatepass")
        started = time.perf_counter()
        for attempt in range(2):
            try:
                self.conn.request(method, path, body=body, headers=headers)
                response = self.conn.getresponse()
                raw = response.read()
                break
            except (http.client.HTTPException, OSError):
                self.conn.close()
                self.conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
                if attempt:
                    raise
        self.count += 1
        cookie = response.getheader("Set-Cookie")
        if cookie:
            self.cookie = cookie.split(";", 1)[0]
        self.seconds += time.perf_counter() - started
        self.statuses[response.status] = self.statuses.get(response.status, 0) + 1
        if response.getheader("Connection", "").lower() == "close":
            self.conn.close()
        return response.status, raw


@pytest.fixture(scope="module")
def tables(server):
    port = server[0]
    client = Client(port)
    made = {}
    for game, players in PLAYERS.items():
        status, raw = client.send("POST", "/api/v1/tables", {"game": game, "name": f"fuzz {game}",
                                                             "players": players, "stake": "0.5"})
        assert status == 201, raw
        made[game] = json.loads(raw)
    return made


junk_text = st.text(max_size=12) | st.sampled_from(["\x00", "\ud800", "\u202e", "9" * 5000, "%00", "../..",
                                                     "<script>", "' OR 1=1 --", "１２", "NaN", "-1", "1e999"])
json_scalars = st.none() | st.booleans() | st.integers(-2**70, 2**70) | st.floats(allow_nan=False) | junk_text
junk_json = st.recursive(json_scalars, lambda inner: st.lists(inner, max_size=4)
                         | st.dictionaries(junk_text, inner, max_size=4), max_leaves=12)


# The strategies a request draws from, made once (drawing is the fuzz's own cost: a strategy made
# anew for every request was validated anew every time, a third of the client's time).
NUMBER = st.integers(0, 12) | st.sampled_from([-1, 10**30])
KIND = st.integers(0, 5)
REVISION = st.integers(0, 4)
REQUEST_ID = st.uuids().map(str) | st.text(max_size=6)
UUID = st.uuids().map(str)
BAD_BODY = st.sampled_from([b"{", b"[" * 3000, b"\xff\xfe", b'{"token":"\\ud800"}', b"", b"null"])
FORM_VALUE = junk_text | st.sampled_from(ALL_NAMES) | st.integers(0, 12).map(str) | st.just("9" * 5000)
PAGE = st.integers(-2, 5) | junk_text
PER_PAGE = st.integers(-1, 500)
VOID_OR_RESTORE = st.sampled_from(["void", "restore"])
PREVIOUS = junk_text | st.just("5 6 7")
PLAY = junk_text | st.just("6 7 JK")
ANY_GAME = st.sampled_from([*GAMES, "x"])
NAMES = st.lists(junk_text, max_size=7)
TABLE_PAGES = st.sampled_from(["record", "history", "hands/1", "hands/1/edit"])
TABLE_POSTS = st.sampled_from(["record", "undo", "hands/1/void", "hands/1/edit"])
FACTS_JSON = junk_text | st.just("[" * 3000) | junk_json.map(json.dumps)
JOIN_OR_PIN = st.sampled_from(["join", "pin"])
KEY_OR_PIN = st.sampled_from(["key", "pin"])
PIN_ACTION = st.sampled_from(["set", "clear", ""])
TABLE_PATCH = st.fixed_dictionaries({}, optional={  # never "deleted": true (tables stay)
    "name": junk_text, "stake": json_scalars, "currency": junk_text, "notes": junk_text,
    "archived": st.sampled_from([False, False, True, "false", None]), "deleted": st.just(False)}) | junk_json
SETTINGS_POSTS = st.sampled_from(["settings", "archive", "unarchive", "delete"])  # delete: never ticked
SEARCH = junk_text | st.sampled_from(["%", "_", "\\", "Ann"])
PEOPLE_COUNT = st.integers(0, 5)
PERSON_CHOICE = junk_text | st.sampled_from(["new", "", "A" * 22])
PERSON_ID = junk_text | st.just("A" * 22)
FIXED_PAGES = st.sampled_from(["/", "/api", "/api/v1/games", *(f"/new/{g}" for g in GAMES), "/new/x", "/nope"])


def requests_of(tables, csrf=""):
    """The strategy of one request at these tables (``request_for``), its per-table strategies made once."""
    games = st.sampled_from(sorted(tables))
    pids = {game: st.sampled_from([table["id"]] * 6 + ["A" * 22, "x", "%00" + "A" * 21, quote("\u202e" * 3)])
            for game, table in tables.items()}
    tokens = {game: st.sampled_from([table["token"]] * 6 + ["", "wrong" * 5, None]) for game, table in tables.items()}
    forms = {game: st.lists(st.sampled_from(names), max_size=7, unique=True) for game, names in FORM_FIELDS.items()
             if names}
    csrfs = (st.sampled_from([csrf, csrf, csrf, "forged"]), st.sampled_from([csrf, csrf, "forged"]))
    strategies = (games, pids, tokens, forms, csrfs)
    return st.composite(lambda draw: request_for(draw, strategies))()


def request_for(draw, strategies):
    """One request: a route drawn first, then only what that route needs (drawing is the cost)."""
    games, pids, tokens, forms, (csrf_often, csrf_mostly) = strategies
    game = draw(games)
    pid = draw(pids[game])
    token = draw(tokens[game])
    headers = {"X-Edit-Token": token} if token else {}
    if token and draw(st.booleans()):
        headers = {"Authorization": f"Bearer {token}"}
    api = f"/api/v1/tables/{pid}"

    def number():
        return draw(NUMBER)

    def facts():
        kind = draw(KIND)
        if kind <= 2:
            return coherent_hand(*drawn(draw), ENGINES[game], PLAYERS[game])
        if kind <= 4:
            facts = described_hand(*drawn(draw), ENGINES[game], PLAYERS[game], loose=True)
            return {**facts, "junk": draw(junk_json)} if draw(st.booleans()) else facts
        return draw(junk_json)

    def write_body(edit=False):
        kind = draw(KIND)
        if kind <= 3:  # a good body: a new hand carries a request id, an edit the revision it read
            return ({"facts": facts(), "revision": draw(REVISION)} if edit else
                    {"facts": facts(), "request_id": draw(REQUEST_ID)})
        if kind == 4:
            return draw(junk_json)
        return draw(BAD_BODY)

    def form_fields():
        """Up to seven of the hand form's fields of the game (from its description): names, numbers, junk."""
        chosen = draw(forms[game]) if game in forms else []
        return {name: draw(FORM_VALUE) for name in chosen}

    def query():
        return urlencode({"page": draw(PAGE), "per_page": draw(PER_PAGE)})

    routes = [
        lambda: ("POST", f"{api}/hands", write_body(), headers),
        lambda: ("POST", f"{api}/hands", write_body(), headers),
        lambda: ("POST", f"{api}/hands", write_body(), headers),
        lambda: ("PUT", f"{api}/hands/{number()}", write_body(edit=True), headers),
        lambda: ("POST", f"{api}/hands/{number()}/{draw(VOID_OR_RESTORE)}", draw(junk_json), headers),
        lambda: ("POST", f"{api}/undo", draw(junk_json), headers),
        lambda: ("POST", "/api/v1/check", {"game": game, "previous": draw(PREVIOUS), "play": draw(PLAY),
                                           "rules": draw(junk_json)}, {}),
        lambda: ("POST", "/api/v1/settle", {"game": game, "players": PLAYERS[game],
                                            **(lambda f: f if isinstance(f, dict) else {})(facts()),
                                            "stake": draw(json_scalars)}, {}),
        lambda: ("POST", "/api/v1/tables", {"game": draw(ANY_GAME), "name": draw(junk_text), "players": draw(NAMES),
                                            "stake": draw(json_scalars), "rules": draw(junk_json)}, {}),
        lambda: ("GET", f"{api}?{query()}", None, {}),
        lambda: ("GET", f"{api}/hands?{query()}", None, {}),
        lambda: ("GET", f"{api}/hands/{number()}", None, {}),
        lambda: ("GET", f"/t/{pid}?{urlencode({'key': token or '', 'page': draw(junk_text)})}", None, {}),
        lambda: ("GET", f"/t/{pid}/{draw(TABLE_PAGES)}", None, {}),
        lambda: ("POST", f"/t/{pid}/{draw(TABLE_POSTS)}",
                 urlencode({"csrf_token": draw(csrf_often), "facts_json": draw(FACTS_JSON),
                            "request_id": draw(UUID), **form_fields()}),
                 {"Content-Type": "application/x-www-form-urlencoded"}),
        lambda: ("POST", f"/t/{pid}/{draw(JOIN_OR_PIN)}",  # never share/reset: the token must stay
                 urlencode({"csrf_token": draw(csrf_mostly),
                            draw(KEY_OR_PIN): draw(junk_text | st.sampled_from(
                                [token or "", f"http://h/t/{pid}#key={token}", "123456", "1" * 7])),
                            "action": draw(PIN_ACTION)}),
                 {"Content-Type": "application/x-www-form-urlencoded"}),
        lambda: ("PATCH", api, draw(TABLE_PATCH), headers),
        lambda: ("GET", f"/t/{pid}/settings", None, {}),
        lambda: ("POST", f"/t/{pid}/{draw(SETTINGS_POSTS)}",
                 urlencode({"csrf_token": draw(csrf_mostly), "name": draw(junk_text), "stake": draw(junk_text),
                            "currency": draw(junk_text), "notes": draw(junk_text)}),
                 {"Content-Type": "application/x-www-form-urlencoded"}),
        lambda: ("GET", "/check?" + urlencode({"game": game, "previous": draw(junk_text), "play": draw(junk_text)}),
                 None, {}),
        lambda: ("GET", "/tables?" + urlencode({"q": draw(SEARCH), "page": draw(PAGE)}), None, {}),
        lambda: ("GET", f"/t/{pid}/people", None, {}),
        lambda: ("POST", f"/t/{pid}/people",  # link players: a person's id, a new person, none or junk
                 urlencode({"csrf_token": draw(csrf_mostly),
                            **{f"player_{i}": draw(PERSON_CHOICE) for i in range(draw(PEOPLE_COUNT))}}),
                 {"Content-Type": "application/x-www-form-urlencoded"}),
        lambda: ("GET", f"/p/{quote(draw(PERSON_ID), safe='', errors='surrogatepass')}", None, {}),
        lambda: ("GET", draw(FIXED_PAGES), None, {}),
    ]
    return routes[draw(st.integers(0, len(routes) - 1))]()


@pytest.fixture(scope="module")
def client(server, tables):
    """A phone that joined both tables with their record links (its session may record) and holds a
    CSRF token."""
    client = Client(server[0])
    for table in tables.values():
        status, raw = client.send("GET", f"/t/{table['id']}")
        csrf = re.search(rb'name="csrf_token"[^>]*value="([^"]+)"', raw).group(1).decode()
        status, _ = client.send("POST", f"/t/{table['id']}/join", urlencode({"csrf_token": csrf, "key": table["token"]}),
                                {"Content-Type": "application/x-www-form-urlencoded"})
        assert status == 303
    status, raw = client.send("GET", f"/t/{tables[GAMES[0]]['id']}/record")
    client.csrf = re.search(rb'name="csrf_token"[^>]*value="([^"]+)"', raw).group(1).decode()
    return client


def test_no_route_ever_answers_5xx(server, tables, client):
    requests = requests_of(tables, client.csrf)

    @settings(max_examples=max(1, REQUESTS // PER_EXAMPLE), database=None,
              suppress_health_check=list(HealthCheck))
    @given(st.data())
    def one_batch(data):
        for _ in range(PER_EXAMPLE):
            method, path, body, headers = data.draw(requests)
            status, raw = client.send(method, path, body, headers)
            assert status < 500, (method, path, body, status, raw[:500])

    one_batch()
    assert client.count >= REQUESTS
    print(f"\nfuzz: {client.count} requests ({client.seconds:.0f} s waiting for the server), "
          f"statuses {dict(sorted(client.statuses.items()))}")


def _fill(port, tables) -> int:
    """This test's own writes (it does not rely on the fuzz before it having run): new tables with
    hands recorded, corrected, voided and undone through the API. Returns how many hands it recorded."""
    client = Client(port)
    recorded = 0
    rng = random.Random(286)

    def pick(seq):
        return rng.choice(list(seq))

    for game, players in PLAYERS.items():
        status, raw = client.send("POST", "/api/v1/tables", {"game": game, "name": f"sound {game}",
                                                             "players": players, "stake": "0.5"})
        assert status == 201, raw
        made = json.loads(raw)
        auth = {"Authorization": f"Bearer {made['token']}"}
        for i in range(12):
            status, raw = client.send("POST", f"/api/v1/tables/{made['id']}/hands",
                                      {"facts": coherent_hand(pick, rng.randint, ENGINES[game], players),
                                       "request_id": f"sound-{i}"}, auth)
            assert status == 201, raw
            recorded += 1
        status, _ = client.send("POST", f"/api/v1/tables/{made['id']}/hands/3/void", {"revision": 1}, auth)
        assert status == 200
        status, _ = client.send("POST", f"/api/v1/tables/{made['id']}/undo", {}, auth)
        assert status == 200
    return recorded


def test_the_database_is_sound_after_the_fuzz(server, tables, client, schema_rebuilt):
    recorded = _fill(server[0], tables)
    url = server[1]
    engine = create_engine(url.replace("postgresql://", "postgresql+psycopg://", 1)
                           if url.startswith("postgresql://") else url)
    with engine.connect() as conn:
        numbers = conn.execute(text("SELECT table_id, COUNT(*), MIN(number), MAX(number) FROM hands GROUP BY table_id")).all()
        for _, count, low, high in numbers:
            assert (low, high) == (1, count)
        unbalanced = conn.execute(text(
            "SELECT hand_id FROM hand_deltas GROUP BY hand_id HAVING SUM(points) <> 0")).all()
        assert unbalanced == []
        creates = conn.execute(text(
            "SELECT h.id, COUNT(e.id) FROM hands h LEFT JOIN hand_events e ON e.hand_id = h.id AND e.kind = 'create' "
            "GROUP BY h.id HAVING COUNT(e.id) <> 1")).all()
        assert creates == []
        hands = conn.execute(text("SELECT COUNT(*) FROM hands")).scalar_one()
        assert hands >= recorded  # the checks above looked at rows, not at an empty database
    engine.dispose()
    print(f"\nfuzz: {hands} hands stored, all sound")
