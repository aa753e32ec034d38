"""Issue 10, item 6 at page level: a Chinese keyboard's full-width digits and words reach the
engine's card reader through the rule checker page (no JavaScript) and are read, never guessed."""
import re
from html import unescape

import pytest


def verdict(client, query):
    html = client.get(f"/check?{query}").get_data(as_text=True)
    match = re.search(r'id="verdict"[^>]*>(.*?)</(p|section|ul)>', html, re.S)
    assert match, "no verdict on the page"
    return " ".join(unescape(re.sub(r"<[^>]+>", " ", match.group(1))).split())


@pytest.mark.parametrize("query", ["game=gandengyan&play=８+９+１０", "game=gandengyan&play=８，９，１０",
                                   "game=gandengyan&previous=7&play=８"])
def test_full_width_cards_are_read(client, query):
    half = query.replace("８", "8").replace("９", "9").replace("１０", "10").replace("，", "+")
    answer = verdict(client, query)
    assert answer == verdict(client, half)
    assert answer.startswith("✓"), answer
