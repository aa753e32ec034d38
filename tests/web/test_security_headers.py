"""Security headers on every response: the test walks the URL map and opens every GET route."""
import re

import pytest

from companion import access, scoring

# A value for every URL argument a GET route may take. A new route with a new argument fails
# here until it is given one, so no route escapes the walk.
ARGUMENTS = {"game": "gandengyan", "number": 1, "filename": "css/app.css"}
# Views that set their own caching rule; they never show an edit token.
OWN_CACHE_RULE = {"live.state": "no-cache", "review.chart_stylesheet": "public",
                  # exports carry no token: revalidated per table revision (ETag), kept private
                  "review.export_csv": "private, no-cache", "review.export_json": "private, no-cache",
                  "api.export_table": "private, no-cache",
                  # review pages, histories and the API summary show no token: ETag per table revision
                  **{endpoint: "private, no-cache" for endpoint in (
                      "review.sheet", "review.chart", "review.summary", "review.settle", "tables.history",
                      "hands.hand_history", "api.table_summary")}}


def get_routes(app):
    for rule in app.url_map.iter_rules():
        if "GET" in rule.methods:
            yield rule


def assert_security_headers(response, *, https=False):
    headers = response.headers
    csp = headers.get("Content-Security-Policy", "")
    assert "default-src 'self'" in csp and "frame-ancestors 'none'" in csp
    assert "script-src 'self'" in csp and "style-src 'self'" in csp
    assert "unsafe-inline" not in csp and "unsafe-eval" not in csp
    assert headers.get("X-Content-Type-Options") == "nosniff"
    assert headers.get("X-Frame-Options") == "DENY"
    assert headers.get("Referrer-Policy") == "same-origin"
    assert "camera=()" in headers.get("Permissions-Policy", "")
    if https:
        assert headers.get("Strict-Transport-Security", "").startswith("max-age=")
    else:
        assert "Strict-Transport-Security" not in headers


def assert_no_inline_code(html: str, where: str):
    assert not re.search(r"<script(?![^>]*\ssrc=)[^>]*>", html), f"inline <script> in {where}"
    assert "<style" not in html, f"inline <style> in {where}"
    assert not re.search(r"<[^>]+\sstyle=", html), f"style= attribute in {where}"
    assert not re.search(r"<[^>]+\son[a-z]+=", html), f"on…= handler in {where}"


@pytest.fixture
def opened(app, client):
    """A table with one hand, opened by this client with its share link (so it can record)."""
    with app.app_context():
        table = scoring.create_table(game="gandengyan", name="Headers", players=["Ann", "Bo", "Cy"])
        scoring.record_hand(table, {"winner": "Ann", "losers": {"Bo": {"cards": 2, "jokers": 0},
                                                                 "Cy": {"cards": 1, "jokers": 0}}},
                            request_id="h1")
        public_id, token = table.public_id, access.edit_token(table)
    assert client.post(f"/t/{public_id}/join", data={"key": token}).status_code == 303
    return public_id, token


def test_every_get_route_sends_the_headers(app, client, opened):
    public_id, token = opened
    values = {**ARGUMENTS, "public_id": public_id}
    walked = []
    for rule in get_routes(app):
        missing = rule.arguments - values.keys()
        assert not missing, f"{rule.rule}: give the walk a value for {missing}"
        with app.test_request_context():
            from flask import url_for

            url = url_for(rule.endpoint, **{k: values[k] for k in rule.arguments})
        for https in (False, True):
            response = client.get(url, base_url="https://localhost" if https else "http://localhost")
            assert response.status_code < 500, url
            assert_security_headers(response, https=https)
            body = response.get_data(as_text=True)
            cache = response.headers.get("Cache-Control", "")
            if rule.endpoint == "static":
                assert "no-store" not in cache
            elif rule.endpoint in OWN_CACHE_RULE:
                assert cache.startswith(OWN_CACHE_RULE[rule.endpoint]), url
                assert token not in body
            else:
                assert "no-store" in cache, url
            if token in body:
                assert "no-store" in cache, f"{url} shows the edit token but may be cached"
            if response.mimetype == "text/html":
                assert_no_inline_code(body, url)
        walked.append(rule.endpoint)
    assert {"tables.show", "hands.show", "check.page", "main.index", "static"} <= set(walked)


def test_error_pages_and_posts_send_the_headers(client):
    for response in (client.get("/no/such/page"), client.post("/t/nope/undo"), client.get("/t/nope")):
        assert response.status_code in (400, 404)
        assert_security_headers(response)
        assert "no-store" in response.headers["Cache-Control"]


def test_the_table_page_with_its_share_link_is_never_stored(client, opened):
    public_id, token = opened
    response = client.get(f"/t/{public_id}")
    assert token in response.get_data(as_text=True)  # the share link is on the page
    assert response.headers["Cache-Control"] == "no-store"
    assert response.headers["Referrer-Policy"] == "same-origin"


def test_the_session_cookie_is_secure_over_https_only(app, opened):
    public_id, token = opened
    for base, secure in (("https://localhost", True), ("http://localhost", False)):
        client = app.test_client()
        response = client.post(f"/t/{public_id}/join", data={"key": token}, base_url=base)
        cookie = next(v for k, v in response.headers.items() if k == "Set-Cookie" and v.startswith("session="))
        assert ("; Secure" in cookie) is secure, cookie
        assert "HttpOnly" in cookie and "SameSite=Lax" in cookie
