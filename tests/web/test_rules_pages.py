"""Issue 13 on the pages: the rules pages (a game's, a table's with its switches and a worked
settlement), the checker that knows the table, rulings attached to a hand, card faces."""
import re
from html import unescape

import pytest
from flask import render_template

from companion import review, scoring
from companion.engine import ENGINES
from companion.views.rules import RULE_ANCHORS, TYPE_ANCHORS, html_id
from thirdgame.registry import every_game, every_name

from web_helpers import DG_PLAYERS, text_of

DG_HAND = {"banker": "P1", "partner": "P3", "shout": None, "order": ["P1", "P2", "P3", "P4"],
           "captured": {"P1": 60, "P2": 50, "P3": 30, "P4": 40}, "last_hand_points": 20}


@pytest.fixture
def house(ctx):
    """A 大冶打拱 table whose house rules allow straights and 3-card bombs."""
    table = scoring.create_table(game="dagong", name="House", players=DG_PLAYERS, stake="1",
                                 rules={"allow_straights": True, "bomb_min": 3})
    scoring.record_hand(table, DG_HAND, request_id="h1")
    return table


@pytest.mark.parametrize("game", every_name())
def test_every_reason_links_to_a_paragraph_that_exists(client, fixture_games, game):
    html = client.get(f"/rules/{game}").get_data(as_text=True)
    ids = set(re.findall(r'id="([^"]+)"', html))
    anchors = set(RULE_ANCHORS[game].values()) | {"plays"}
    anchors |= set(TYPE_ANCHORS[game].values())  # every play the game names has its paragraph
    anchors = {html_id(a) for a in anchors}  # the ids begin with a letter ("510k" -> "p510k")
    assert anchors <= ids, anchors - ids


def _worked_facts(html: str) -> list[tuple[str, list[str]]]:
    """Each worked example's facts (before its settlement): (its HTML, its text, the texts of its <dt>s)."""
    blocks = re.findall(r'<div class="worked" id="worked-\d+">(.*?)<div class="scroll-x">', html, re.S)
    assert blocks, "no worked example"

    def plain(part):
        return re.sub(r"\s+", " ", unescape(re.sub(r"<[^>]+>", " ", part))).strip()
    return [(b, plain(b), [plain(dt) for dt in re.findall(r"<dt>(.*?)</dt>", b, re.S)]) for b in blocks]


def _keys(module) -> set:
    """Every name the engine's facts use: the parts of each fact's path and their other spellings."""
    keys = {part for fact in module.describe_facts() for part in fact.key.split(".") if part != "*"}
    return keys | {alias for fact in module.describe_facts() for alias in fact.aliases}


def _assert_in_words(html: str, module, lang: str) -> None:
    """No raw code in a worked example's facts: no <code>, no Python literal, no fact key as a row's
    title, and (in a language other than English, where a key is no word) no fact key at all."""
    keys = _keys(module)
    for block, text, titles in _worked_facts(html):
        assert "<code" not in block, block
        assert not re.search(r"\b(True|False|None)\b", text), text
        assert not keys & set(titles), (titles, keys)
        if lang != "en":
            said = {key for key in keys if re.search(rf"(?<![\w-]){re.escape(key)}(?![\w-])", text)}
            assert not said, (said, text)


@pytest.mark.parametrize("lang", ["en", "zh", "ar"])
@pytest.mark.parametrize("game", every_name())
def test_the_worked_example_shows_facts_in_words_never_in_codes(client, fixture_games, game, lang):
    """Every game's rules page (the app's, and the fixture 斗地主 with no template of its own): its
    worked example says each fact in words, in every language."""
    html = client.get(f"/rules/{game}?lang={lang}").get_data(as_text=True)
    _assert_in_words(html, every_game()[game], lang)


@pytest.mark.parametrize("lang", ["en", "zh", "ar"])
@pytest.mark.parametrize("game", every_name())
def test_the_generic_worked_facts_say_every_games_facts_in_words(app, fixture_games, game, lang):
    """The generic worked example (a game without its own worked_facts.html), drawn for every game's
    examples, the shipped games' too (their per-player groups, orders and optional players): each
    fact by its words from the description, a yes/no fact as yes or no, a choice by its value's words."""
    module = every_game()[game]
    rules = module.rules_from_dict(None)
    hands = module.example_hands(["Ann", "Bo", "Cy", "Di"][:max(3, module.PLAYER_RANGE[0])])
    with app.test_request_context(f"/?lang={lang}"):
        html = "".join(f'<div class="worked" id="worked-{i}">'
                       + render_template("games/_generic/worked_facts.html", w={"facts": facts}, module=module,
                                         rules=rules) + '<div class="scroll-x">' for i, facts in enumerate(hands))
        description = module.describe_facts(rules)
        for (_block, text, titles), facts in zip(_worked_facts(html), hands):
            assert titles, text
            for fact, group in description.sections():
                if group is None and description.value(fact, facts) not in (None, "", []):
                    assert str(fact.summary or fact.label) in titles or lang != "en", (fact.key, titles)
                    if fact.kind == "flag":
                        assert ("yes" if description.value(fact, facts) else "no") in text or lang != "en"
                    if fact.kind == "choice":
                        assert str(description.label_of(fact, description.value(fact, facts))) in text \
                            or lang != "en"
    _assert_in_words(html, module, lang)


@pytest.mark.parametrize("lang", ["en", "zh", "fr", "id", "ar", "ko"])
def test_table_rules_page_marks_the_switches_in_every_language(client, house, lang):
    response = client.get(f"/t/{house.public_id}/rules?lang={lang}")
    assert response.status_code == 200
    html = response.get_data(as_text=True)
    straights = re.search(r'<li class="changed" data-switch="allow_straights">.*?</li>', html, re.S).group(0)
    assert 'switch-value on' in straights
    assert re.search(r'<li class="changed" data-switch="bomb_min">', html)
    gunlong = re.search(r'<li class="" data-switch="gunlong">.*?</li>', html, re.S).group(0)
    assert 'switch-value off' in gunlong
    # issue 33 item 4: the switch's name and value in words; its code only in the details for API users
    assert '<strong class="switch-name">' in gunlong and ">gunlong<" not in gunlong.split("<details")[0]
    assert re.search(r'<details class="api-codes"><summary>[^<]+</summary><span dir="ltr"><code id="switch-gunlong">gunlong</code>',
                     gunlong)
    listed = re.search(r'<ul class="switches".*?</ul>', html, re.S).group(0)
    outside = re.sub(r"<details.*?</details>", "", listed, flags=re.S)
    assert not re.search(r">[a-z]+_[a-z_0-9]+<|>(plusOne|winnerOnly|bombAbove510K|firstDealtToDealer)<", outside)
    assert "头游" in html and "干带直" in html  # the Chinese terms stay beside every translation
    assert 'id="worked-1"' in html and 'class="cards"' in html


def test_worked_example_is_the_engines_settlement(client, house):
    text = text_of(client.get(f"/t/{house.public_id}/rules"))
    settlement = ENGINES["dagong"].settle(dict(DG_HAND, players=DG_PLAYERS), scoring.table_rules(house))
    assert f"P1 +{settlement.deltas['P1']}" in text
    assert str(settlement.steps[0]) in text


def test_checker_uses_the_tables_rules(client, house):
    lead = client.get(f"/t/{house.public_id}/check?previous=&play=3+4+5")
    assert 'class="verdict legal"' in lead.get_data(as_text=True)
    plain = client.get("/check?game=dagong&previous=&play=3+4+5")
    assert 'class="verdict illegal"' in plain.get_data(as_text=True)
    same = client.get(f"/check?table={house.public_id}&previous=&play=3+4+5")
    assert 'class="verdict legal"' in same.get_data(as_text=True)
    assert client.get("/check?table=nosuchtable00000&play=3").status_code == 404


def test_what_beats_this_and_the_readings_of_the_table(client, house):
    html = client.get(f"/t/{house.public_id}/check?previous=5+JK+JK&play=6+6+6&beat=1").get_data(as_text=True)
    assert 'id="table-readings"' in html
    assert re.search(r'href="[^"]*previous_as=5\+5\+5[^"]*"', html)
    assert '<details id="answers" class="answers" open>' in html
    assert html.count('class="answer-set"') >= 2
    pinned = client.get(f"/t/{house.public_id}/check?previous=5+JK+JK&play=6+6+6&previous_as=5+5+5")
    assert 'class="verdict legal"' in pinned.get_data(as_text=True)
    assert 'id="table-readings"' not in pinned.get_data(as_text=True)


def test_what_beats_this_with_a_hand(client):
    html = client.get("/check?game=dagong&previous=2+2&play=&beat=1&hand=3+4").get_data(as_text=True)
    assert "You cannot beat this with these cards." in html
    html = client.get("/check?game=dagong&previous=7+7&play=&beat=1&hand=8+JK").get_data(as_text=True)
    assert 'aria-label="8, joker"' in html and 'href="/rules/dagong#follow"' in html


def test_attach_a_ruling_to_a_hand(client, writer, house):
    page = client.get(f"/t/{house.public_id}/check?previous=4+5+6&play=5+6+JK").get_data(as_text=True)
    assert 'id="attach-form"' not in page  # a phone that may only look cannot attach
    writer(house)
    page = client.get(f"/t/{house.public_id}/check?previous=4+5+6&play=5+6+JK").get_data(as_text=True)
    assert 'id="attach-form"' in page
    response = client.post(f"/t/{house.public_id}/check/note", data={
        "previous": "4 5 6", "play": "5 6 JK", "hand": "1"})
    assert response.status_code == 302
    history = text_of(client.get(response.headers["Location"]))
    assert "Ruled: 5 6 JK follows 4 5 6" in history
    hand = scoring.get_hand(house, 1)
    assert hand.revision == 1  # the hand itself did not change
    assert scoring.undo_last(house).kind == "undo"  # undo skips the note and voids the hand
    copy = review.import_json(review.export_json(house))
    assert [e.kind for e in scoring.history(copy)].count("note") == 1


def test_attach_needs_the_edit_right(client, house):
    response = client.post(f"/t/{house.public_id}/check/note", data={"previous": "4", "play": "5", "hand": "1"})
    assert response.status_code == 403


def test_a_bad_hand_is_shown_at_the_hand_field(client):
    html = client.get("/check?game=dagong&previous=7+7&play=&beat=1&hand=8+x").get_data(as_text=True)
    assert 'id="hand-error"' in html and "&#39;x&#39; at position 2" in html


def test_checker_uses_the_tables_player_count_and_the_table_pages_link_to_it(client, ctx):
    two = scoring.create_table(game="gandengyan", name="Two", players=["Ann", "Bo"])
    html = client.get(f"/t/{two.public_id}/check?previous=4+4+4+4&play=7+7+7+7+7").get_data(as_text=True)
    assert 'data-code="too_many_copies"' in html  # two players: one deck, four 7s
    html = client.get("/check?game=gandengyan&previous=4+4+4+4&play=7+7+7+7+7&players=4").get_data(as_text=True)
    assert 'class="verdict legal"' in html
    page = client.get(f"/t/{two.public_id}").get_data(as_text=True)
    assert f'href="/t/{two.public_id}/check"' in page and f'href="/t/{two.public_id}/rules"' in page
