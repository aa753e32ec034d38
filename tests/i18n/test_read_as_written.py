"""Issue 21, item 7: every language read as written — Arabic settlement lines whose isolates nest
(parentheses never cross), Arabic commas, ×4 kept left to right, the dual without its digit;
Chinese full-width punctuation with no space after it, "谁先出完？" for 干瞪眼, one heading
"每位玩家"; Korean particles after a gloss; numbers in the locale's way; the French space before a colon."""
import re

import pytest

from companion import access, scoring
from companion.i18n import FSI, LRI, PDI, RLI

ISOLATES = {FSI: "open", LRI: "open", "\u2067": "open", PDI: "close"}
GDY = {"winner": "Ann", "losers": {"Bo": {"cards": 3, "jokers": 1}, "محمد": {"cards": 5}, "Dee": {"cards": 1}},
       "bombs_played": [4, 4]}
DG = {"banker": "Li", "partner": "Zhang", "order": ["Li", "Wang", "Zhang"],
      "captured": {"Li": 60, "Wang": 50, "Zhang": 30, "Zhao": 60}}


@pytest.fixture
def ctx(app):
    with app.app_context():
        yield app


@pytest.fixture
def hands(ctx):
    gdy = scoring.create_table(game="gandengyan", name="g", players=["Ann", "Bo", "محمد", "Dee"], stake="0.5",
                               currency="¥", first_dealer="Ann", rules={"played_bomb_mult": "double"})
    scoring.record_hand(gdy, GDY, request_id="g1")
    dg = scoring.create_table(game="dagong", name="d", players=["Li", "Wang", "Zhang", "Zhao"], first_dealer="Li")
    scoring.record_hand(dg, DG, request_id="d1")
    return gdy, dg


def page(client, path, lang):
    from flask_babel import refresh

    refresh()  # the test's app context would keep the last request's language
    return client.get(f"{path}?lang={lang}").get_data(as_text=True)


def steps_of(html):
    return re.findall(r"<li>(.*?)</li>", re.search(r'<ol class="steps">(.*?)</ol>', html, re.S).group(1), re.S)


def nested(line: str) -> bool:
    depth = 0
    for ch in line:
        kind = ISOLATES.get(ch)
        depth += 1 if kind == "open" else -1 if kind == "close" else 0
        if depth < 0:
            return False
    return depth == 0


def test_arabic_settlement_lines_nest_use_arabic_commas_and_keep_x4(client, hands):
    gdy, _ = hands
    lines = steps_of(page(client, f"/t/{gdy.public_id}/hands/1", "ar"))
    assert lines and all(nested(line) for line in lines), lines
    bo = lines[0]
    assert ", " not in bo and "، " in bo                                    # Arabic commas between the factors
    assert f"{LRI}×{FSI}4{PDI}" in bo                                       # ×4 reads ×4, not 4×
    assert "لُعبت قنبلتان" in bo and f"{FSI}2{PDI} قنبلتان" not in bo         # the dual says two by itself
    # the list of factors is an Arabic sentence: right to left (RLI), its first factor read first
    # (FSI would find no letter outside the nested isolates and lay the list out left to right)
    factors = bo[bo.index(RLI):]
    assert factors.index("يحمل جوكر") < factors.index("لُعبت قنبلتان")


def test_arabic_facts_use_arabic_commas(client, hands):
    gdy, _ = hands
    html = page(client, f"/t/{gdy.public_id}/hands/1", "ar")
    assert "3 أوراق، 1 جوكر" in html and "أوراق, " not in html


def test_chinese_punctuation_is_full_width_without_a_space(client, hands):
    gdy, dg = hands
    hand = page(client, f"/t/{gdy.public_id}/hands/1", "zh")
    assert "下一局庄家：<b>" in hand and "3 张牌，1 张王" in hand
    main = re.sub(r"<[^>]+>", "", hand.split("<main")[1].split("</main>")[0])
    assert not re.search(r"[\u4e00-\u9fff][:,] ", main), re.findall(r".{6}[\u4e00-\u9fff][:,] .{6}", main)
    assert not re.search(r"[：，] ", main)
    assert "结果：<b>" in page(client, f"/t/{dg.public_id}/hands/1", "zh")
    table = page(client, f"/t/{gdy.public_id}", "zh")
    assert "下一局庄家：<b>" in table


def test_chinese_gandengyan_form_asks_who_went_out_first(client, hands):
    gdy, _ = hands
    client.post(f"/t/{gdy.public_id}/join", data={"key": access.edit_token(gdy)})
    form = page(client, f"/t/{gdy.public_id}/record", "zh")
    assert "谁先出完？" in form and "头游" not in form


def test_chinese_summary_names_the_figures_once(client, hands):
    _, dg = hands
    html = page(client, f"/t/{dg.public_id}/summary", "zh")
    assert html.count("每位玩家") == 1


def test_korean_particle_after_the_half_arch(client, hands):
    _, dg = hands
    html = page(client, f"/t/{dg.public_id}/hands/1", "ko")
    assert "(으)로" not in html and "반공(半拱)으로" in html


@pytest.mark.parametrize("lang, decimal", [("fr", "0,5"), ("id", "0,5"), ("en", "0.5")])
def test_numbers_in_steps_and_standings_follow_the_locale(client, hands, lang, decimal):
    gdy, _ = hands
    hand = page(client, f"/t/{gdy.public_id}/hands/1", lang)
    table = page(client, f"/t/{gdy.public_id}", lang)
    other = "0.5" if decimal == "0,5" else "0,5"
    assert decimal in "".join(steps_of(hand)) and other not in "".join(steps_of(hand))
    stake_line = re.search(r'id="stake-now">(.*?)</p>', table).group(1)
    assert decimal in stake_line and other not in stake_line


def test_french_colon_has_its_space_and_the_total_reads_well(client, hands):
    gdy, _ = hands
    html = page(client, f"/t/{gdy.public_id}/hands/1", "fr")
    assert "Donneur suivant\u00a0: <b>" in html
    assert "encaisse 48 de 3 joueurs" not in html and "Ann reçoit 48 en tout, payés par 3 joueurs." in html


def test_chinese_labels_take_no_space_after_their_full_width_colon(client, hands):
    gdy, _ = hands
    table = page(client, f"/t/{gdy.public_id}", "zh")
    assert re.search(r'<span class="winners">赢家：<bdi>', table), re.search(r'<span class="winners">.{0,20}', table)
    english = page(client, f"/t/{gdy.public_id}", "en")
    assert '<span class="winners">Won: <bdi>' in english
