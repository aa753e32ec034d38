"""Issue 20: behind a reverse proxy (TRUSTED_PROXIES, off by default) the client's own address counts;
share links are built only from PUBLIC_URL or a trusted host, never from a forged Host header."""
import pytest

from companion.sharing import links as sharing

pytestmark = pytest.mark.db

BODY = {"game": "gandengyan", "name": "x", "players": ["A", "B"]}


def test_a_forged_host_is_never_reflected_into_the_share_link(app_maker):
    client = app_maker().test_client()  # TRUSTED_HOSTS and PUBLIC_URL unset
    answer = client.post("/api/v1/tables", json=BODY, headers={"Host": "evil.example"})
    assert answer.status_code == 201
    urls = answer.json["urls"]
    assert all("evil.example" not in value for value in urls.values()), urls
    assert urls["share"].endswith(f"/t/{answer.json['id']}#key={answer.json['token']}")
    twin = client.post("/api/v1/tables", json=BODY, headers={"Host": "127.0.0.1:5000"})
    assert twin.json["urls"]["share"].startswith("http://127.0.0.1:5000/t/")  # this machine's own address


def test_public_url_or_a_trusted_host_builds_the_links(app_maker):
    client = app_maker(PUBLIC_URL="https://cards.example.org").test_client()
    answer = client.post("/api/v1/tables", json=BODY, headers={"Host": "evil.example"})
    assert answer.json["urls"]["share"].startswith("https://cards.example.org/t/")
    client = app_maker(TRUSTED_HOSTS=["cards.lan"]).test_client()
    answer = client.post("/api/v1/tables", json=BODY, headers={"Host": "cards.lan"})
    assert answer.json["urls"]["share"].startswith("http://cards.lan/t/")
    assert client.post("/api/v1/tables", json=BODY, headers={"Host": "evil.example"}).status_code == 400


def test_trusted_base_unit():
    lan = sharing.lan_addresses()
    base = sharing.trusted_base(public_url=None, scheme="http", host="evil.example:5000", trusted_hosts=None)
    assert "evil" not in base and base.endswith(":5000")
    if lan:
        assert base == f"http://{lan[0]}:5000"
    assert sharing.trusted_base(public_url=None, scheme="http", host="localhost:5000",
                                trusted_hosts=None) == "http://localhost:5000"


def _address_seen(app, headers) -> int:
    """The status of opening a table from 10.0.0.1 with these headers (the open_table limit is 1)."""
    client = app.test_client()
    return client.post("/api/v1/tables", json=BODY, headers=headers,
                       environ_base={"REMOTE_ADDR": "10.0.0.1"}).status_code


def test_without_trusted_proxies_x_forwarded_for_is_ignored(app_maker):
    app = app_maker(RATELIMIT_ENABLED=True, RATE_LIMITS={"open_table": (1, 3600)})
    assert _address_seen(app, {"X-Forwarded-For": "203.0.113.1"}) == 201
    # a different X-Forwarded-For does not buy a new bucket: the proxy's (here: the client's) address counts
    assert _address_seen(app, {"X-Forwarded-For": "203.0.113.2"}) == 429


def test_with_one_trusted_proxy_each_client_has_its_own_bucket(app_maker):
    app = app_maker(RATELIMIT_ENABLED=True, RATE_LIMITS={"open_table": (1, 3600)}, TRUSTED_PROXIES=1)
    assert _address_seen(app, {"X-Forwarded-For": "203.0.113.1"}) == 201
    assert _address_seen(app, {"X-Forwarded-For": "203.0.113.2"}) == 201  # another player behind the proxy
    assert _address_seen(app, {"X-Forwarded-For": "203.0.113.1"}) == 429
    client = app.test_client()
    answer = client.post("/api/v1/tables", json=BODY, environ_base={"REMOTE_ADDR": "10.0.0.1"},
                         headers={"X-Forwarded-For": "203.0.113.9", "X-Forwarded-Proto": "https"})
    assert answer.status_code == 201 and answer.headers.get("Strict-Transport-Security")  # HTTPS at the proxy
