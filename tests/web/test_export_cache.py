"""Issue 31: an export costs once per table revision. The CSV and JSON exports (pages and API) of an
unchanged table are served from the file the first one wrote, with or without If-None-Match; a
change makes a new one; the folder stays bounded; computing an export spends the heavy-read budget by
the table's size, a kept one only its request's unit."""
import json

import pytest

from web_helpers import statements_during

FACTS = {"winner": "A", "losers": {"B": {"cards": 2}, "C": {"cards": 1}}}


def _table(client, hands=3):
    table = client.post("/api/v1/tables", json={"game": "gandengyan", "name": "x", "players": ["A", "B", "C"]}).json
    for _ in range(hands):
        assert client.post(f"/api/v1/tables/{table['id']}/hands", json={"facts": FACTS},
                           headers={"Authorization": f"Bearer {table['token']}"}).status_code == 201
    return table


def _hand_reads(statements):
    return [s for s in statements if "FROM hands" in s or "FROM hand_events" in s]


@pytest.mark.parametrize("path", ["/t/{id}/export.csv", "/t/{id}/export.json", "/api/v1/tables/{id}/export"])
def test_an_unchanged_table_is_exported_once(app_maker, tmp_path, path):
    app = app_maker(EXPORT_CACHE_DIR=str(tmp_path))
    client = app.test_client()
    table = _table(client)
    url = path.format(id=table["id"])
    first, seen = statements_during(app, lambda: client.get(url))
    assert first.status_code == 200 and _hand_reads(seen)  # computed: the hands were read
    again, seen = statements_during(app, lambda: client.get(url))  # no If-None-Match
    assert again.status_code == 200 and again.data == first.data
    assert not _hand_reads(seen), seen  # served from the kept file: no hand read again
    assert again.headers["ETag"] == first.headers["ETag"]
    # the twin: a new hand bumps the revision, so the next export is computed again and holds it
    client.post(f"/api/v1/tables/{table['id']}/hands", json={"facts": FACTS},
                headers={"Authorization": f"Bearer {table['token']}"})
    changed, seen = statements_during(app, lambda: client.get(url))
    assert changed.status_code == 200 and _hand_reads(seen) and changed.data != first.data
    if "json" in path or "api" in path:
        assert len(json.loads(changed.data)["hands"]) == 4


def test_each_language_has_its_own_csv(app_maker, tmp_path):
    client = app_maker(EXPORT_CACHE_DIR=str(tmp_path)).test_client()
    table = _table(client, hands=1)
    english = client.get(f"/t/{table['id']}/export.csv?lang=en").data.decode("utf-8-sig")
    french = client.get(f"/t/{table['id']}/export.csv?lang=fr").data.decode("utf-8-sig")
    assert english.startswith("Hand") and not french.startswith("Hand") and english != french


def test_the_kept_exports_stay_within_their_bounds(app_maker, tmp_path):
    client = app_maker(EXPORT_CACHE_DIR=str(tmp_path), EXPORT_CACHE_FILES=2).test_client()
    for _ in range(4):
        table = _table(client, hands=1)
        assert client.get(f"/api/v1/tables/{table['id']}/export").status_code == 200
    kept = [p for p in tmp_path.iterdir() if p.suffix not in (".lock", ".tmp")]
    assert len(kept) == 2
    assert not list(tmp_path.glob("*.tmp"))


def test_computing_an_export_spends_the_budget_by_its_size(app_maker, tmp_path):
    app = app_maker(EXPORT_CACHE_DIR=str(tmp_path), RATELIMIT_ENABLED=True, RATE_LIMITS={"heavy_read": (6, 600)},
                    HEAVY_READ_HANDS=1)
    client = app.test_client()
    table = _table(client, hands=3)
    api = f"/api/v1/tables/{table['id']}/export"
    assert client.get(api).status_code == 200       # 1 + 3 hands = 4 units
    assert client.get(api).status_code == 200       # kept: 1 unit (5)
    refused = client.get(f"/t/{table['id']}/export.csv")  # 6 + 3: past 6, refused before it is computed
    assert refused.status_code == 429 and "downloaded a lot" in refused.get_data(as_text=True)
    assert not [p for p in tmp_path.iterdir() if p.suffix == ".csv"]
    # the twin: counted by requests alone (a unit per 100 hands), the same reads all pass
    cheap = app_maker(EXPORT_CACHE_DIR=str(tmp_path), RATELIMIT_ENABLED=True, RATE_LIMITS={"heavy_read": (6, 600)})
    other = cheap.test_client()
    for path in (api, api, f"/t/{table['id']}/export.csv"):
        assert other.get(path, environ_base={"REMOTE_ADDR": "10.1.2.3"}).status_code == 200


@pytest.mark.parametrize("path", ["/t/{id}/export.csv", "/api/v1/tables/{id}/export"])
def test_a_client_that_takes_gzip_gets_the_kept_file_compressed_once(app_maker, tmp_path, path):
    """The compressed copy is written once per revision beside the kept file, never per request: the
    second gzip answer reads no hand and writes no file; it is the same bytes as the plain answer."""
    import gzip

    app = app_maker(EXPORT_CACHE_DIR=str(tmp_path))
    client = app.test_client()
    url = path.format(id=_table(client)["id"])
    plain = client.get(url)
    packed, seen = statements_during(app, lambda: client.get(url, headers={"Accept-Encoding": "gzip, deflate"}))
    assert packed.headers["Content-Encoding"] == "gzip" and "Accept-Encoding" in packed.headers["Vary"]
    assert gzip.decompress(packed.data) == plain.data and not _hand_reads(seen)
    assert packed.headers["ETag"] != plain.headers["ETag"]  # each representation its own ETag
    written = {p: p.stat().st_mtime_ns for p in tmp_path.glob("*.gz")}
    assert len(written) == 1
    again = client.get(url, headers={"Accept-Encoding": "gzip"})
    assert again.data == packed.data and {p: p.stat().st_mtime_ns for p in tmp_path.glob("*.gz")} == written
    assert client.get(url, headers={"Accept-Encoding": "gzip", "If-None-Match": packed.headers["ETag"]}).status_code == 304
    assert "Content-Encoding" not in plain.headers  # the twin: a client without gzip gets the file as it is


def _count(app, address="127.0.0.1"):
    from companion.db.models import RateBucket
    from companion.extensions import db

    with app.app_context():
        level = db.session.execute(db.select(RateBucket.count)
                                   .where(RateBucket.key == f"heavy_read:{address}")).scalar() or 0
    return round(level / 1000)  # the leaky bucket's level is kept in thousandths of a unit


@pytest.mark.parametrize("path", ["/t/{id}/export.json", "/api/v1/tables/{id}/export"])
def test_a_kept_export_costs_what_it_sends(app_maker, tmp_path, path):
    """Served from the kept file, an export still costs the budget by its size: a unit per started
    HEAVY_READ_BYTES beyond the first, the compressed size for a client that takes gzip. The twin: by
    requests alone (a large HEAVY_READ_BYTES) the same reads cost a unit each."""
    per = 512
    budget = {"heavy_read": (10**6, 10**9)}  # a large bucket that does not leak during the test
    app = app_maker(EXPORT_CACHE_DIR=str(tmp_path), RATELIMIT_ENABLED=True, RATE_LIMITS=budget,
                    HEAVY_READ_BYTES=per, HEAVY_READ_BURST=10**6)
    client = app.test_client()
    url = path.format(id=_table(client, hands=6)["id"])
    client.get(url)  # computed: its own units
    before = _count(app)
    plain = client.get(url)
    size = len(plain.data)
    assert size > 2 * per
    assert _count(app) - before == -(-size // per)  # 1 for the request + the started blocks beyond the first
    before = _count(app)
    packed = client.get(url, headers={"Accept-Encoding": "gzip"})
    assert len(packed.data) < size and _count(app) - before == max(1, -(-len(packed.data) // per))
    cheap = app_maker(EXPORT_CACHE_DIR=str(tmp_path), RATELIMIT_ENABLED=True, RATE_LIMITS=budget,
                      HEAVY_READ_BYTES=10**9, HEAVY_READ_BURST=10**6)
    before = _count(cheap)
    assert cheap.test_client().get(url).status_code == 200 and _count(cheap) - before == 1


def test_a_budget_that_lets_the_compressed_export_through_refuses_the_plain_one(app_maker, tmp_path):
    """What the byte cost is for: the same address may fetch the compressed export (what a browser asks
    for) where the plain one would pull many times its bytes; refused before anything is sent."""
    per = 2048
    app = app_maker(EXPORT_CACHE_DIR=str(tmp_path), RATELIMIT_ENABLED=True, RATE_LIMITS={"heavy_read": (4, 600)},
                    HEAVY_READ_BYTES=per, HEAVY_READ_HANDS=10**6)
    client = app.test_client()
    url = f"/api/v1/tables/{_table(client, hands=8)['id']}/export"
    packed = client.get(url, headers={"Accept-Encoding": "gzip"})
    assert packed.status_code == 200 and len(packed.data) <= per  # 1 unit of the 4
    (plain,) = [p for p in tmp_path.iterdir() if p.suffix == ".json"]
    assert plain.stat().st_size > 3 * per  # 4 units or more: past the budget with the first one
    refused = client.get(url)
    assert refused.status_code == 429 and refused.json["error"]["code"] == "rate_limited"
    assert "downloaded a lot" in refused.json["error"]["message"] and int(refused.headers["Retry-After"]) > 0


def test_a_client_waiting_for_an_export_being_written_is_told_to_come_back(app_maker, tmp_path):
    """While another request holds an export's lock (writing its first copy), a request for it waits at
    most EXPORT_LOCK_WAIT, then gets 503 with a Retry-After and a sentence that says so (page and API);
    nothing is written. The twin: once the lock is free, the same request is served."""
    import fcntl
    import threading
    import time

    app = app_maker(EXPORT_CACHE_DIR=str(tmp_path), EXPORT_LOCK_WAIT=0.3)
    client = app.test_client()
    table = _table(client, hands=2)
    for url, suffix in ((f"/t/{table['id']}/export.csv", ".csv"), (f"/api/v1/tables/{table['id']}/export", ".json")):
        first = client.get(url)
        (kept,) = [p for p in tmp_path.iterdir() if p.suffix == suffix]
        kept.unlink()  # as if its first copy were still being written…
        with open(kept.with_suffix(suffix + ".lock"), "a+b") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)  # …by another request, holding its lock
            started = time.monotonic()
            answers = []
            asking = threading.Thread(target=lambda out=answers, at=url: out.append(client.get(at)))
            asking.start()
            asking.join(10)  # a request that waited for the lock without end would still be waiting
            waited = time.monotonic() - started
            fcntl.flock(lock, fcntl.LOCK_UN)
            asking.join()
        (busy,) = answers
        assert busy.status_code == 503 and int(busy.headers["Retry-After"]) > 0 and 0.3 <= waited < 5
        if suffix == ".csv":
            assert "being prepared" in busy.get_data(as_text=True) and "<html" in busy.get_data(as_text=True)
        else:
            assert busy.json["error"]["code"] == "export_busy" and "being prepared" in busy.json["error"]["message"]
        assert not kept.exists()
        again = client.get(url)
        assert again.status_code == 200 and again.data == first.data and kept.exists()


def test_no_export_costs_more_than_a_full_budget(app_maker, tmp_path):
    """An export whose computing and bytes would cost more than the whole smoothed budget costs a full
    budget: with the budget full it is served (once), then refused with the seconds until it is full
    again. The twin: a cheap export right after a refused one is refused too (the budget is empty)."""
    app = app_maker(EXPORT_CACHE_DIR=str(tmp_path), RATELIMIT_ENABLED=True, RATE_LIMITS={"heavy_read": (5, 600)},
                    HEAVY_READ_BYTES=64, HEAVY_READ_HANDS=1)
    client = app.test_client()
    table = _table(client, hands=4)
    url = f"/api/v1/tables/{table['id']}/export"
    first = client.get(url)  # 1 + 4 hands + many blocks of 64 bytes: far more than 5
    assert first.status_code == 200 and len(first.data) > 64 * 10
    again = client.get(url)
    assert again.status_code == 429 and 0 < int(again.headers["Retry-After"]) <= 600
    assert client.get(f"/t/{table['id']}/summary").status_code == 429
