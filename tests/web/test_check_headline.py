"""Issue 32 item 4: when the cards on the table read several ways and the play is legal under
some readings only, the checker's headline says it depends on the reading and which way it goes;
when every reading agrees (or there is one), the plain verdict. Each row with its twin."""
import re
from html import unescape
from urllib.parse import urlencode

import pytest

from companion.views.check import headline


def _verdict(client, **query):
    html = client.get("/check?" + urlencode(query)).get_data(as_text=True)
    section = re.search(r'<section class="verdict[^"]*"[^>]*data-way="([a-z]+)".*?</section>', html, re.S)
    return section.group(1), re.sub(r"\s+", " ", unescape(re.sub(r"<[^>]+>", " ", section.group(0))))


@pytest.mark.parametrize("query, way, words", [
    ({"game": "gandengyan", "previous": "5 JK JK", "play": "6 6 6"}, "depends",
     ["It depends on the reading", "Legal if the cards on the table are read as", "5 5 5",
      "not legal if they are read as", "5 6 7"]),
    ({"game": "gandengyan", "previous": "5 5 5", "play": "6 6 6"}, "legal", ["✓ Legal"]),        # one reading
    ({"game": "gandengyan", "previous": "5 JK JK", "play": "9 9 9"}, "illegal", ["✗ Not legal"]),  # no reading
    ({"game": "gandengyan", "previous": "5 JK JK", "play": "6 6 6", "previous_as": "5 6 7"}, "illegal",
     ["✗ Not legal"]),                                                                             # pinned
])
def test_the_headline_follows_the_readings(client, query, way, words):
    got, text = _verdict(client, **query)
    assert got == way, text
    for word in words:
        assert word in text, (word, text)
    if way != "depends":
        assert "depends" not in text


def _reading(text, legal):
    return {"reading": {"type": "triple", "reading": text}, "verdict": {"legal": legal}}


@pytest.mark.parametrize("readings, result_legal, way", [
    ([_reading("5 5 5", True), _reading("5 6 7", False)], False, "depends"),
    ([_reading("5 5 5", True), _reading("5 6 7", True)], True, "legal"),
    ([_reading("5 5 5", False), _reading("5 6 7", False)], False, "illegal"),
    ([], True, "legal"),
])
def test_headline(readings, result_legal, way):
    assert headline({"legal": result_legal}, readings)["way"] == way
    assert headline(None, readings) is None
