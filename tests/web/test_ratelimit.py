"""Rate limits live in the database, so two workers (two apps, two connection pools) share them."""
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.middleware import ratelimit
from companion.middleware.guard import InputRejected


@pytest.fixture
def two_workers(app_maker):
    limits = {"open_table": (3, 3600)}
    return app_maker(RATELIMIT_ENABLED=True, RATE_LIMITS=limits), app_maker(RATELIMIT_ENABLED=True, RATE_LIMITS=limits)


def _try(app, address):
    with app.test_request_context("/new/gandengyan", method="POST", environ_base={"REMOTE_ADDR": address}):
        ratelimit.check("open_table")


@pytest.mark.db
def test_the_limit_holds_across_workers_and_is_per_address(two_workers):
    first, second = two_workers
    _try(first, "10.0.0.1")
    _try(second, "10.0.0.1")
    _try(first, "10.0.0.1")  # three allowed, counted by both workers together
    with pytest.raises(InputRejected) as caught:
        _try(second, "10.0.0.1")
    assert caught.value.status == 429 and caught.value.code == "rate_limited"
    _try(second, "10.0.0.2")  # another address has its own count


@pytest.mark.db
def test_a_new_window_starts_the_count_again(two_workers):
    first, _ = two_workers
    with first.app_context():
        assert [ratelimit.hit("open_table", "a", now=7200 + i) for i in range(4)] == [1, 2, 3, 4]
        assert ratelimit.hit("open_table", "a", now=7200 + 3600) == 1
        assert ratelimit.hit("open_table", "a", now=7200 + 3601) == 2


@pytest.mark.db
def test_disabled_limits_count_nothing(app_maker):
    app = app_maker(RATELIMIT_ENABLED=False, RATE_LIMITS={"open_table": (0, 60)})
    _try(app, "10.0.0.1")  # a limit of 0 would refuse at once if it were on


@pytest.mark.db
def test_opening_tables_past_the_limit_is_429_on_pages_and_api(app_maker):
    app = app_maker(RATELIMIT_ENABLED=True, RATE_LIMITS={"open_table": (2, 3600)})
    client = app.test_client()
    body = {"game": "gandengyan", "name": "x", "players": ["A", "B"]}
    assert client.post("/api/v1/tables", json=body).status_code == 201
    assert client.post("/new/gandengyan", data={"name": ""}).status_code in (200, 400)  # counted, refused form
    answer = client.post("/api/v1/tables", json=body)
    assert answer.status_code == 429 and answer.json["error"]["code"] == "rate_limited"
    page = client.post("/new/gandengyan", data={"name": "y"})
    assert page.status_code == 429 and "Too many requests" in page.get_data(as_text=True)
    assert client.get("/new/gandengyan").status_code == 200  # reading is never limited


# Writes that change nothing stored or only this phone's own cookie: no bucket needed.
UNCOUNTED_WRITES = {"main.device", "tables.forget_table", "access.join", "access.holder", "api.check", "api.answers", "api.settle"}


def test_every_write_endpoint_is_rate_limited(app):
    """A new page or API route that changes stored data must be in ratelimit.LIMITED (or be listed
    above as changing nothing stored): this is how a forgotten limit is caught."""
    from companion.middleware.ratelimit import LIMITED

    writes = {rule.endpoint for rule in app.url_map.iter_rules()
              if rule.methods & {"POST", "PUT", "PATCH", "DELETE"} and rule.endpoint != "static"}
    assert sorted(writes - set(LIMITED) - UNCOUNTED_WRITES) == []
    assert sorted(UNCOUNTED_WRITES - writes) == []  # the list names only real routes


@pytest.mark.db
def test_the_limit_decides_before_the_body_is_read(app_maker):
    """Past the limit, an import is refused with 429 before its body is parsed: a body the input
    guard would refuse gets the 429 (not the guard's 400), and the twin under the limit gets the 400."""
    app = app_maker(RATELIMIT_ENABLED=True, RATE_LIMITS={"open_table": (1, 3600)})
    client = app.test_client()
    bad = b'{"format": "\\u0000"}'  # the input guard would refuse it (400 bad_text) once it parses it
    answer = client.post("/api/v1/import", data=bad, content_type="application/json")
    assert answer.status_code == 400  # under the limit: read, and refused for what it is
    answer = client.post("/api/v1/import", data=bad, content_type="application/json")
    assert answer.status_code == 429 and answer.json["error"]["code"] == "rate_limited"


@pytest.mark.db
def test_expensive_reads_have_a_budget_per_address(app_maker):
    app = app_maker(RATELIMIT_ENABLED=True, RATE_LIMITS={"heavy_read": (2, 600)})
    client = app.test_client()
    table = client.post("/api/v1/tables", json={"game": "gandengyan", "name": "x", "players": ["A", "B"]}).json
    path = f"/t/{table['id']}/export.csv"
    assert client.get(path).status_code == 200
    assert client.get(f"/api/v1/tables/{table['id']}/export").status_code == 200
    refused = client.get(path)
    assert refused.status_code == 429 and "downloaded a lot" in refused.get_data(as_text=True)
    assert client.get(f"/t/{table['id']}").status_code == 200  # the table page is no expensive read
    other = client.get(path, environ_base={"REMOTE_ADDR": "10.9.9.9"})
    assert other.status_code == 200  # another address has its own budget


def _stored_row(app, key: str):
    from companion.db.models import RateBucket
    from companion.extensions import db

    with app.app_context():
        return tuple(db.session.execute(db.select(RateBucket.count, RateBucket.window_start)
                                        .where(RateBucket.key == key)).one())


def _stored_count(app, key: str):
    from companion.db.models import RateBucket
    from companion.extensions import db

    with app.app_context():
        return db.session.execute(db.select(RateBucket.count).where(RateBucket.key == key)).scalar()


@pytest.mark.db
def test_a_refused_read_says_when_to_come_back_and_writes_nothing(app_maker):
    """Past the heavy-read budget: 429 with Retry-After (the seconds until the window ends, which a
    polite client waits); once a worker has refused an address, its next refusals cost no write (the
    count stays past the limit); another worker still refuses from the shared count."""
    first, second = (app_maker(RATELIMIT_ENABLED=True, RATE_LIMITS={"heavy_read": (2, 600)}) for _ in range(2))
    client = first.test_client()
    table = client.post("/api/v1/tables", json={"game": "gandengyan", "name": "x", "players": ["A", "B"]}).json
    path = f"/api/v1/tables/{table['id']}/export"
    assert [client.get(path).status_code for _ in range(2)] == [200, 200]
    refused = client.get(path)
    assert refused.status_code == 429 and refused.json["error"]["code"] == "rate_limited"
    assert 1 <= int(refused.headers["Retry-After"]) <= 600
    stored = _stored_row(first, "heavy_read:127.0.0.1")
    assert [client.get(path).status_code for _ in range(5)] == [429] * 5
    assert _stored_row(first, "heavy_read:127.0.0.1") == stored  # refused without a write
    assert second.test_client().get(path).status_code == 429  # the other worker reads the shared count
    assert client.get(f"/t/{table['id']}/export.csv", headers={"Accept": "text/html"}).headers["Retry-After"]


@pytest.mark.db
def test_a_full_storage_budget_refuses_new_tables_and_imports_clearly(app_maker):
    app = app_maker(STORAGE_BUDGET_MB=0.0001)  # about 100 bytes: any database is over it
    client = app.test_client()
    with app.app_context():
        assert ratelimit.storage_used() > 100  # a real figure from the database
    answer = client.post("/api/v1/tables", json={"game": "gandengyan", "name": "x", "players": ["A", "B"]})
    assert answer.status_code == 507 and answer.json["error"]["code"] == "storage_full"
    assert "STORAGE_BUDGET_MB" in answer.json["error"]["message"]
    assert client.post("/api/v1/import", data=b"{}", content_type="application/json").status_code == 507
    page = client.post("/new/gandengyan", data={"name": "y"})
    assert page.status_code == 507 and "storage is full" in page.get_data(as_text=True)
    roomy = app_maker(STORAGE_BUDGET_MB=1000).test_client()  # the twin: under the budget
    assert roomy.post("/api/v1/tables", json={"game": "gandengyan", "name": "x", "players": ["A", "B"]}).status_code == 201


@pytest.mark.db
def test_the_count_does_not_wait_for_the_disk_but_a_hand_still_does(app_maker):
    """A count commits without a disk sync (SQLite: synchronous=NORMAL for its own transaction only);
    the connection goes back to the pool as durable as it came, so the next hand's commit waits for
    the disk again."""
    from companion.extensions import db

    app = app_maker(RATELIMIT_ENABLED=True)
    with app.app_context():
        if db.engine.dialect.name != "sqlite":
            pytest.skip("PostgreSQL: SET LOCAL ends with the transaction")
        with db.engine.connect() as conn:
            durable = conn.exec_driver_sql("PRAGMA synchronous").scalar_one()
        assert durable >= 2  # FULL: the app's hands wait for the disk
        assert [ratelimit.hit("heavy_read", "10.1.1.1") for _ in range(3)] == [1, 2, 3]
        with db.engine.connect() as conn:  # the pool hands back the connection the counts used
            assert conn.exec_driver_sql("PRAGMA synchronous").scalar_one() == durable


@pytest.mark.db
def test_heavy_reads_are_smoothed_a_burst_then_a_unit_every_few_seconds(app_maker):
    """The heavy-read budget is a leaky bucket: 120 units per 10 minutes refill one every 5 s, and an
    address holds at most HEAVY_READ_BURST (20) at once. The twin: a fixed window of the same limit lets
    all 120 through at once."""
    app = app_maker(RATELIMIT_ENABLED=True, RATE_LIMITS={"heavy_read": (120, 600), "write": (120, 600)})
    with app.app_context():
        assert [ratelimit.draw("heavy_read", "10.2.0.1", now=1000) for _ in range(20)] == [0] * 20
        assert ratelimit.draw("heavy_read", "10.2.0.1", now=1000) == 5  # empty: one unit in 5 s
        assert ratelimit.draw("heavy_read", "10.2.0.1", now=1004) == 1
        assert ratelimit.draw("heavy_read", "10.2.0.1", now=1005) == 0
        assert ratelimit.draw("heavy_read", "10.2.0.1", 3, now=1005) == 15  # three units: 15 s
        assert ratelimit.draw("heavy_read", "10.2.0.1", 52, now=1200) == 0  # full again; 52 cost the whole 20
        assert ratelimit.draw("heavy_read", "10.2.0.1", now=1200) == 5
        assert ratelimit.draw("heavy_read", "10.2.0.2", now=1200) == 0  # another address: its own bucket
        assert [ratelimit.hit("write", "10.2.0.1", now=1000) for _ in range(120)][-1] == 120  # the fixed window


@pytest.mark.db
def test_no_address_takes_more_than_the_burst_and_the_refill(app_maker):
    """Whatever the requests (seconds apart, units), the units taken in any stretch of time are at most
    the burst plus what refilled in it; a refused request takes nothing."""
    app = app_maker(RATELIMIT_ENABLED=True, RATE_LIMITS={"heavy_read": (60, 600)})  # a unit every 10 s
    examples = iter(range(10**6))

    @settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck))
    @given(st.lists(st.tuples(st.integers(0, 40), st.integers(1, 30)), min_size=1, max_size=40))
    def requests(steps):
        address, now, taken = f"10.3.0.{next(examples)}", 10**6, []
        for dt, units in steps:
            now += dt
            wait = ratelimit.draw("heavy_read", address, units, now=now)
            assert wait >= 0
            if wait == 0:
                taken.append((now, min(units, 20)))
        for i, (start, _units) in enumerate(taken):
            for end, _ in taken[i:]:
                inside = sum(u for t, u in taken if start <= t <= end)
                assert inside <= 20 + (end - start) // 10 + 1

    with app.app_context():
        requests()


@pytest.mark.parametrize("endpoint", sorted(ratelimit.HEAVY_READS))
def test_every_expensive_read_pays_when_drawn_and_a_304_costs_nothing(app_maker, endpoint):
    """Every endpoint of HEAVY_READS answers through the one conditional answer, which spends its
    unit: a drawn answer costs at least one unit, the same answer revalidated (304) none, so phones that
    share one address (a café's Wi-Fi) and look at the standings again are not held back."""
    from flask import url_for

    app = app_maker(RATELIMIT_ENABLED=True, RATE_LIMITS={"heavy_read": (10**6, 10**9)}, HEAVY_READ_BURST=10**6)
    client = app.test_client()
    table = client.post("/api/v1/tables", json={"game": "gandengyan", "name": "x", "players": ["A", "B"]}).json
    with app.test_request_context():
        url = url_for(endpoint, public_id=table["id"])
    key = "heavy_read:127.0.0.1"
    first = client.get(url)
    assert first.status_code == 200, (url, first.status_code)
    drawn = _stored_count(app, key)
    assert drawn >= 1000  # a unit, in thousandths
    again = client.get(url, headers={"If-None-Match": first.headers["ETag"]})
    assert again.status_code == 304 and _stored_count(app, key) - drawn < 500  # nothing (it only leaks)


@pytest.mark.db
def test_a_drained_bucket_forgets_the_rows_untouched_for_a_day(app_maker):
    """The heavy reads' rows are cleared like the fixed windows' ones: a bucket that starts again
    removes rows last written more than a day before; a row written within the day stays (the twin)."""
    app = app_maker(RATELIMIT_ENABLED=True)
    with app.app_context():
        assert ratelimit.draw("heavy_read", "10.4.0.1", now=10**6) == 0
        assert ratelimit.draw("heavy_read", "10.4.0.2", now=10**6 + 80_000) == 0
        assert ratelimit.draw("heavy_read", "10.4.0.3", now=10**6 + 90_000) == 0  # new: forgets what is older
    assert _stored_row(app, "heavy_read:10.4.0.2")
    from companion.db.models import RateBucket
    from companion.extensions import db
    with app.app_context():
        assert db.session.get(RateBucket, "heavy_read:10.4.0.1") is None


@pytest.mark.db
def test_a_slow_refill_says_its_wait_exactly(app_maker):
    """One unit per 10 minutes: the wait after it is taken is 600 s, not a rounded rate's 1,000 s; the
    twin: after 600 s the unit is back."""
    app = app_maker(RATELIMIT_ENABLED=True, RATE_LIMITS={"heavy_read": (1, 600)})
    with app.app_context():
        assert ratelimit.draw("heavy_read", "10.5.0.1", now=5000) == 0
        assert ratelimit.draw("heavy_read", "10.5.0.1", now=5000) == 600
        assert 1 <= ratelimit.draw("heavy_read", "10.5.0.1", now=5599) <= 2  # whole thousandths of a unit
        assert ratelimit.draw("heavy_read", "10.5.0.1", now=5600) == 0
