"""Fixtures for the JSON API tests (real HTTP against ``live_server``)."""
import pytest

from api_helpers import http


@pytest.fixture
def api(live_server):
    """``api(method, path, body=None, **kw)`` -> Answer, against the live server's /api/v1."""

    def call(method, path, body=None, **kw):
        return http(live_server, method, "/api/v1" + path, body, **kw)

    call.base = live_server
    return call
