"""The rule-checker page without JavaScript (a plain GET form), through the Flask test client."""
import re
from html import unescape

import pytest


def text_of(html, element_id):
    match = re.search(rf'id="{element_id}"[^>]*>(.*?)</(p|section|ul)>', html, re.S)
    assert match, f"#{element_id} not on the page"
    return " ".join(unescape(re.sub(r"<[^>]+>", " ", match.group(1))).split())


def test_empty_form(client):
    r = client.get("/check")
    assert r.status_code == 200
    html = r.get_data(as_text=True)
    assert '<form method="get"' in html and 'name="previous"' in html and 'name="play"' in html
    assert 'name="game"' in html and 'name="preset"' in html and 'name="players"' in html
    assert 'id="verdict"' not in html
    assert 'name="viewport"' in html  # phone first, extends base.html
    assert "js/check.js" in html


@pytest.mark.parametrize("query,legal", [
    ("game=gandengyan&previous=7&play=8", True),
    ("game=gandengyan&previous=7&play=9", False),
    ("game=gandengyan&previous=4+5+6&play=5+6+JK", True),
    ("game=gandengyan&previous=4+5+6&play=6+7+8", False),
    ("game=dagong&previous=5h+10c+Ks&play=5d+10d+Kd", True),
    ("game=dagong&previous=5h+10c+Ks&play=5d+10s+Ks", False),
    ("game=gandengyan&preset=qq&previous=8+8+8&play=J+J+J", True),
    ("game=gandengyan&preset=&previous=8+8+8&play=J+J+J", False),
])
def test_verdict_is_shown(client, query, legal):
    r = client.get("/check?" + query)
    assert r.status_code == 200
    html = r.get_data(as_text=True)
    verdict = text_of(html, "verdict")
    assert ("Legal" in verdict and "Not legal" not in verdict) if legal else "Not legal" in verdict
    assert 'class="verdict legal"' in html if legal else 'class="verdict illegal"' in html
    assert len(text_of(html, "reason")) > 10
    assert "Read as:" in html
    # what was typed stays in the form
    for key, value in (pair.split("=") for pair in query.split("&")):
        if key in ("previous", "play") and value:
            assert f'value="{value.replace("+", " ")}"' in html


def test_reading_and_all_readings(client):
    html = client.get("/check?game=gandengyan&previous=&play=5+SJ+BJ").get_data(as_text=True)
    assert "Legal" in text_of(html, "verdict")
    readings = text_of(html, "readings")
    assert "triple: 5 5 5" in readings and "straight" in readings


@pytest.mark.parametrize("query,field,words", [
    ("game=gandengyan&previous=7&play=4+5+1", "play", ["'1'", "position 3"]),
    ("game=gandengyan&previous=7zz&play=8", "previous", ["not a card"]),
    ("game=gandengyan&previous=7&play=8&players=abc", "players", ["whole number"]),
    ("game=gandengyan&previous=7&play=8&players=12", "players", ["2", "6"]),
    ("game=gandengyan&previous=7&play=8&players=%C2%B2", "players", ["whole number"]),  # "²"
    ("game=gandengyan&previous=7&play=8&preset=daye", "preset", ["daye"]),
    ("game=poker&previous=7&play=8", "game", ["poker"]),
    ("game=gandengyan&previous=7&play=", "play", ["No cards"]),
])
def test_errors_next_to_the_field_and_input_kept(client, query, field, words):
    r = client.get("/check?" + query)
    assert r.status_code == 400
    html = r.get_data(as_text=True)
    message = text_of(html, f"{field}-error")
    for word in words:
        assert word in message
    assert 'id="verdict"' not in html
    if "previous=7zz" in query:
        assert 'value="7zz"' in html


def test_html_in_cards_is_escaped(client):
    html = client.get("/check?game=gandengyan&previous=<script>alert(1)</script>&play=8").get_data(as_text=True)
    assert "<script>alert(1)</script>" not in html
    assert "&lt;script&gt;" in html


def test_page_is_translated_through_babel(client, monkeypatch):
    """Every page string goes through Flask-Babel (``{{ _("…") }}``), engine sentences through ``tr``."""
    import flask_babel

    seen = set()
    real_translations = flask_babel.get_translations

    class Spy:
        def __init__(self, translations):
            self.translations = translations

        def ugettext(self, string):
            seen.add(string)
            return self.translations.ugettext(string)

        def __getattr__(self, name):
            return getattr(self.translations, name)

    real_gettext = flask_babel.Domain.gettext

    def spy_gettext(self, string, **variables):
        seen.add(string)
        return real_gettext(self, string, **variables)

    monkeypatch.setattr(flask_babel, "get_translations", lambda: Spy(real_translations()))
    monkeypatch.setattr(flask_babel.Domain, "gettext", spy_gettext)
    html = client.get("/check?game=gandengyan&previous=7&play=9").get_data(as_text=True)
    assert {"Is this play legal?", "Cards on the table", "Cards to play", "Not legal", "Check"} <= seen
    reason = text_of(html, "reason")
    assert any("{" in template for template in seen if template not in html)  # the engine's template
    assert reason
