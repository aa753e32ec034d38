"""The live table: the state poll (ETag, 304, the fragment) and the share panel (links, QR codes)."""
import re
from html import unescape

import pytest

from companion import access, scoring
from companion.sharing import links as sharing
from web_helpers import statements_during

PLAYERS = ["Ann", "Bo", "Cy"]


def facts(winner="Ann", bo=2, cy=1):
    losers = {p: {"cards": n, "jokers": 0} for p, n in (("Ann", 3), ("Bo", bo), ("Cy", cy)) if p != winner}
    return {"winner": winner, "losers": losers}


@pytest.fixture
def table(app):
    with app.app_context():
        t = scoring.create_table(game="gandengyan", name="Live", players=PLAYERS)
        return t.public_id, access.edit_token(t)


def record(app, public_id, request_id, **kw):
    with app.app_context():
        scoring.record_hand(scoring.get_table(public_id), facts(**kw), request_id=request_id)


# --------------------------------------------------------------------------------------------
# The state poll


def test_state_is_200_then_304_until_a_hand_is_recorded(app, client, table):
    public_id, _ = table
    url = f"/t/{public_id}/state"
    first = client.get(url)
    assert first.status_code == 200 and first.mimetype == "text/html"
    etag = first.headers["ETag"]
    assert first.headers["Cache-Control"] == "no-cache, private"
    assert 'id="no-hands"' in first.get_data(as_text=True)

    again = client.get(url, headers={"If-None-Match": etag})
    assert again.status_code == 304 and again.data == b"" and again.headers["ETag"] == etag

    record(app, public_id, "r1", winner="Bo")
    changed = client.get(url, headers={"If-None-Match": etag})
    assert changed.status_code == 200 and changed.headers["ETag"] != etag
    html = changed.get_data(as_text=True)
    assert 'id="hand-1"' in html and "1 hand" in html
    assert re.search(r'data-player="Bo"><th scope="row"><bdi class="short" title="Bo">Bo</bdi></th><td class="num points" dir="ltr">\+4', html)
    assert "<html" not in html and "<h1" not in html  # a fragment: the live block only
    assert client.get(url, headers={"If-None-Match": changed.headers["ETag"]}).status_code == 304


def test_a_correction_changes_the_state_too(app, client, table):
    public_id, _ = table
    record(app, public_id, "r1")
    url = f"/t/{public_id}/state"
    etag = client.get(url).headers["ETag"]
    with app.app_context():
        t = scoring.get_table(public_id)
        hand = scoring.get_hand(t, 1)
        scoring.edit_hand(t, 1, facts(bo=5), revision=hand.revision)
        points = {row.name: row.points for row in scoring.standings(t)}
    changed = client.get(url, headers={"If-None-Match": etag})
    assert changed.status_code == 200 and changed.headers["ETag"] != etag
    html = changed.get_data(as_text=True)
    assert f'<bdi class="short" title="Ann">Ann</bdi></th><td class="num points" dir="ltr">+{points["Ann"]}<' in html
    assert points["Ann"] == 6  # 5 + 1 left in the losers' hands


def test_the_304_answer_is_one_indexed_lookup(app, client, table):
    public_id, _ = table
    url = f"/t/{public_id}/state"
    etag = client.get(url).headers["ETag"]
    response, seen = statements_during(app, lambda: client.get(url, headers={"If-None-Match": etag}))
    assert response.status_code == 304
    assert len(seen) == 1, seen
    assert "revision" in seen[0] and "public_id" in seen[0]  # tables.public_id is unique (indexed)


def test_state_of_an_unknown_table_is_404(client):
    assert client.get("/t/nope/state").status_code == 404


def test_state_keeps_the_page_and_the_right_of_this_phone(app, client, writer, table):
    public_id, token = table
    for i in range(30):
        record(app, public_id, f"r{i}")
    html = client.get(f"/t/{public_id}/state?page=2").get_data(as_text=True)
    assert 'id="hand-5"' in html and 'id="hand-30"' not in html
    assert 'id="read-only"' in html and 'id="record"' not in html
    with app.app_context():
        writer(scoring.get_table(public_id))
    html = client.get(f"/t/{public_id}/state").get_data(as_text=True)
    assert 'id="record"' in html and 'id="hand-30"' in html
    assert client.get(f"/t/{public_id}/state?page=9").status_code == 404


def test_the_table_page_polls_and_keeps_a_refresh_link(client, table):
    public_id, _ = table
    html = client.get(f"/t/{public_id}").get_data(as_text=True)
    live = re.search(r'<div id="live" data-state="([^"]+)" data-etag="([^"]+)" data-every="(\d+)">', html)
    assert live and unescape(live.group(1)) == f"/t/{public_id}/state?page=1"
    assert live.group(2) == "r1" and 1 <= int(live.group(3)) <= 5
    assert re.search(rf'<a href="/t/{public_id}\?page=1" id="refresh"', html)  # without JavaScript
    assert "/static/js/live.js" in html
    # the page and the fragment come from the same block: the page contains the fragment
    fragment = client.get(f"/t/{public_id}/state").get_data(as_text=True)
    assert fragment.strip() in html


# --------------------------------------------------------------------------------------------
# Links and QR codes


@pytest.fixture
def qr_spy(monkeypatch):
    """The URLs segno was asked to encode."""
    given = []
    real = sharing.segno.make

    def make(content, *args, **kwargs):
        given.append(content)
        return real(content, *args, **kwargs)

    sharing.qr_svg.cache_clear()
    monkeypatch.setattr(sharing.segno, "make", make)
    yield given
    sharing.qr_svg.cache_clear()


def links(html):
    return {kind: unescape(url) for kind, url in
            re.findall(r'id="(record|watch)-link" value="([^"]+)"', html)}


def test_watcher_sees_only_the_watch_code(app, client, table, qr_spy):
    app.config["PUBLIC_URL"] = "https://cards.example.org/"
    public_id, token = table
    html = client.get(f"/t/{public_id}").get_data(as_text=True)
    watch = f"https://cards.example.org/t/{public_id}"
    assert links(html) == {"watch": watch}
    assert qr_spy == [watch]
    assert token not in html
    assert html.count('<svg xmlns="http://www.w3.org/2000/svg"') == 1
    figure = html[html.index('id="share-watch"'):]
    assert "QR code: watch this table" in figure[:figure.index("</svg>")]


def test_recorder_sees_both_codes_with_the_configured_address(app, client, writer, table, qr_spy):
    app.config["PUBLIC_URL"] = "https://cards.example.org"
    public_id, token = table
    with app.app_context():
        writer(scoring.get_table(public_id))
    html = client.get(f"/t/{public_id}").get_data(as_text=True)
    record_url = f"https://cards.example.org/t/{public_id}#key={token}"
    assert links(html) == {"record": record_url, "watch": f"https://cards.example.org/t/{public_id}"}
    assert set(qr_spy) == set(links(html).values())
    assert html.count('class="qr"') == 2
    assert f'data-url="{record_url}"' in unescape(html)  # copy / share buttons


def test_localhost_gives_the_lan_address(app, client, table, monkeypatch, qr_spy):
    monkeypatch.setattr(sharing, "lan_addresses", lambda: ["192.168.1.20"])
    public_id, _ = table
    for base in ("http://127.0.0.1:5000", "http://localhost:5000", "http://[::1]:5000"):
        html = client.get(f"/t/{public_id}", base_url=base).get_data(as_text=True)
        assert links(html)["watch"] == f"http://192.168.1.20:5000/t/{public_id}", base
    # the LAN address itself is this machine's: kept
    html = client.get(f"/t/{public_id}", base_url="http://192.168.1.20:5000").get_data(as_text=True)
    assert links(html)["watch"] == f"http://192.168.1.20:5000/t/{public_id}"


def test_an_untrusted_host_header_never_reaches_a_link(app, client, table, monkeypatch, qr_spy):
    monkeypatch.setattr(sharing, "lan_addresses", lambda: ["192.168.1.20"])
    public_id, _ = table
    html = client.get(f"/t/{public_id}", headers={"Host": "evil.example:5000"}).get_data(as_text=True)
    assert links(html)["watch"] == f"http://192.168.1.20:5000/t/{public_id}"
    assert "evil.example" not in html
    assert not any("evil" in url for url in qr_spy)


def test_trusted_hosts_are_used_and_others_refused(app, client, table, monkeypatch, qr_spy):
    monkeypatch.setattr(sharing, "lan_addresses", lambda: ["192.168.1.20"])
    app.config["TRUSTED_HOSTS"] = ["cards.example.org", "localhost"]
    public_id, _ = table
    html = client.get(f"/t/{public_id}", base_url="https://cards.example.org").get_data(as_text=True)
    assert links(html)["watch"] == f"https://cards.example.org/t/{public_id}"
    refused = client.get(f"/t/{public_id}", headers={"Host": "evil.example"})
    assert refused.status_code == 400 and refused.headers["X-Frame-Options"] == "DENY"
    assert "does not answer to that address" in refused.get_data(as_text=True)


def test_without_a_network_the_page_says_so(app, client, table, monkeypatch):
    monkeypatch.setattr(sharing, "lan_addresses", lambda: [])
    public_id, _ = table
    html = client.get(f"/t/{public_id}", base_url="http://127.0.0.1:5000").get_data(as_text=True)
    assert "set PUBLIC_URL" in html
    assert links(html)["watch"] == f"http://127.0.0.1:5000/t/{public_id}"


@pytest.mark.parametrize("host, expected", [
    ("127.0.0.1:5000", ("127.0.0.1", "5000")), ("[::1]:8000", ("::1", "8000")),
    ("Cards.Example.org", ("cards.example.org", "")), ("x:notaport", ("x", "")),
])
def test_split_host(host, expected):
    assert sharing.split_host(host) == expected


def test_reachable_base_rules(monkeypatch):
    monkeypatch.setattr(sharing, "lan_addresses", lambda: ["10.0.0.5"])
    base = sharing.reachable_base
    assert base(public_url="https://x.org/", scheme="http", host="127.0.0.1:5000", trusted_hosts=None) \
        == ("https://x.org", True)
    assert base(public_url=None, scheme="http", host="127.0.0.1:5000", trusted_hosts=None) \
        == ("http://10.0.0.5:5000", True)
    assert base(public_url=None, scheme="https", host="cards.org:443", trusted_hosts=["cards.org"]) \
        == ("https://cards.org", True)
    assert base(public_url=None, scheme="http", host="cards.org", trusted_hosts=None) == ("http://10.0.0.5", True)
    assert base(public_url=None, scheme="http", host="10.0.0.5:80", trusted_hosts=None) == ("http://10.0.0.5", True)


def test_qr_svg_is_plain_svg_without_inline_style():
    svg = sharing.qr_svg("http://192.168.1.20:5000/t/abc", "title")
    assert svg.startswith("<svg") and svg.endswith("</svg>") and "<title>title</title>" in svg
    assert "style" not in svg and "<?xml" not in svg
    assert 'class="qr"' in svg and "viewBox" in svg and "width=" not in svg


def test_the_cached_live_block_follows_language_right_and_revision(app, client, writer, table):
    public_id, _ = table
    record(app, public_id, "r1")
    english = client.get(f"/t/{public_id}/state").get_data(as_text=True)
    french = client.get(f"/t/{public_id}/state?lang=fr").get_data(as_text=True)
    assert "1 hand" in english and "1 hand" not in french  # not the English block from the cache
    client.get(f"/t/{public_id}?lang=en")
    assert 'id="record"' not in client.get(f"/t/{public_id}").get_data(as_text=True)
    with app.app_context():
        writer(scoring.get_table(public_id))
    assert 'id="record"' in client.get(f"/t/{public_id}").get_data(as_text=True)
    record(app, public_id, "r2")
    assert "2 hands" in client.get(f"/t/{public_id}").get_data(as_text=True)


def test_layers_sharing_is_a_service_and_the_live_views_run_no_sql():
    import ast
    from pathlib import Path

    root = Path(__file__).resolve().parents[2] / "companion"
    tree = ast.parse((root / "sharing/links.py").read_text())
    imported = {node.module or "" for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)}
    imported |= {alias.name for node in ast.walk(tree) if isinstance(node, ast.Import) for alias in node.names}
    assert not {m for m in imported if m.split(".")[0] in ("views", "forms", "cli", "flask")}, imported
    live = (root / "views" / "live.py").read_text()
    assert "select(" not in live and "db.session" not in live and "from ..extensions" not in live


def test_a_304_does_not_renew_the_session_cookie(app, client, writer, table):
    public_id, _ = table
    with app.app_context():
        writer(scoring.get_table(public_id))
    etag = client.get(f"/t/{public_id}/state").headers["ETag"]
    unchanged = client.get(f"/t/{public_id}/state", headers={"If-None-Match": etag})
    assert unchanged.status_code == 304
    assert "Set-Cookie" not in unchanged.headers and "Cookie" not in unchanged.headers.get("Vary", "")
    assert "Set-Cookie" in client.get(f"/t/{public_id}").headers  # a page still renews it
