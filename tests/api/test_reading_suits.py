"""Issue 32 item 5: two readings of the same cards that differ only by suits (a joker read as a
pure or as a mixed 510K) read differently in the checker's readings list and the API's
``read_as`` (added to ReadingAnswer; ``reading`` keeps its meaning, the ranks alone). Each case
with its twin: cards with one reading show it once."""
import re
from html import unescape
from urllib.parse import urlencode

import pytest

D = "dagong"

# (previous, play, the read_as of each reading, in the engine's order). A joker beside two natural
# cards of one suit reads pure (that suit) or mixed (the strongest suit they lack); its twins are the
# same cards with the joker typed as a natural card (one reading), unsuited cards (the ranks alone)
# and mixed natural suits (a joker that can only be mixed).
CASES = [
    ("8 8", "JK 10h Kh", ["5h 10h Kh", "5s 10h Kh"]),
    ("8 8", "5h 10h Kh", ["5h 10h Kh"]),
    ("8 8", "JK 10s Ks", ["5s 10s Ks", "5h 10s Ks"]),
    ("8 8", "JK 10 K", ["5 10 K"]),
    ("8 8", "JK 10h Kc", ["5s 10h Kc"]),
]


def _list(html):
    section = re.search(r'<section id="readings">.*?</section>', html, re.S)
    items = re.findall(r"<li[^>]*>(.*?)</li>", section.group(0), re.S) if section else []
    return [re.sub(r"\s+", " ", unescape(re.sub(r"<[^>]+>", " ", item))).strip() for item in items]


@pytest.mark.parametrize("previous, play, read_as", CASES)
def test_readings_that_differ_by_suits_read_differently(api, client, previous, play, read_as):
    answer = api("POST", "/check", {"game": D, "previous": previous, "play": play})
    assert answer.status == 200, answer
    readings = answer.json["readings"]
    assert [r["read_as"] for r in readings] == read_as
    assert {r["reading"] for r in readings} == {"5 10 K"}               # the documented ranks, unchanged
    assert answer.json["play"]["read_as"] == read_as[0]
    items = _list(client.get("/check?" + urlencode({"game": D, "previous": previous, "play": play}))
                  .get_data(as_text=True))
    assert len(items) == len(read_as) == len(set(items))                 # never the same line twice
    for item, text in zip(items, read_as):
        assert text in item, (text, item)


def test_each_suit_reading_keeps_its_own_pin(client):
    """The "Play it as this" link of each 510K reading pins that reading (the links were keyed by
    the ranks alone, so the two 510Ks shared one)."""
    html = client.get("/check?" + urlencode({"game": D, "previous": "8 8", "play": "JK 10h Kh"})).get_data(
        as_text=True)
    section = re.search(r'<section id="readings">.*?</section>', html, re.S).group(0)
    assert re.findall(r'data-pin="([^"]*)"', section) == ["5 10 K", "5s 10h Kh"]  # pure, mixed
    pinned = client.get("/check?" + urlencode({"game": D, "previous": "8 8", "play": "JK 10h Kh",
                                               "play_as": "5s 10h Kh"})).get_data(as_text=True)
    assert re.search(r'id="reading-used".*?5s 10h Kh', pinned, re.S)


@pytest.mark.parametrize("play, line", [
    ("JK 10h Kh", "all readings: 510k 5h 10h Kh; 510k 5s 10h Kh"),
    ("5h 10h Kh", None),                                                 # one reading: no list
])
def test_the_cli_names_each_reading_with_its_suits(runner, play, line):
    output = runner.invoke(args=["check", "--game", D, "8 8", play]).output
    assert "reading used: 510k 5h 10h Kh" in output
    assert (line in output) if line else ("all readings" not in output)
