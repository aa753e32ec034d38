"""Fixtures for the Flask test-client tests of the web pages."""
import pytest

from companion import access, scoring

from web_helpers import DG_PLAYERS, GDY_PLAYERS, hidden  # noqa: F401


@pytest.fixture
def ctx(app):
    with app.app_context():
        yield app


@pytest.fixture
def gdy(ctx):
    """A 干瞪眼 table (default rules, stake 0.5 ¥) with its edit token."""
    return scoring.create_table(game="gandengyan", name="Friday", players=GDY_PLAYERS, stake="0.5",
                                currency="¥", first_dealer="Ann")


@pytest.fixture
def dg(ctx):
    """A 大冶打拱 table (preset daye, stake 1)."""
    return scoring.create_table(game="dagong", name="大冶", players=DG_PLAYERS, stake="1",
                                preset="daye", first_dealer="P1")


@pytest.fixture
def writer(client):
    """``writer(table)``: this test client may record at the table (it joined with the record
    link's key: a POST, as static/js/join.js does it)."""
    def make(table):
        form = {"key": access.edit_token(table)}
        if client.application.config.get("WTF_CSRF_ENABLED"):
            form["csrf_token"] = hidden(client.get(f"/t/{table.public_id}"), "csrf_token")
        response = client.post(f"/t/{table.public_id}/join", data=form)
        assert response.status_code == 303
        return client
    return make
