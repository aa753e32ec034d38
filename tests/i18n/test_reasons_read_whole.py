"""Every checker reason reads whole in every language (issue 19 item 7): no English phrase is left
inside a translated 大冶打拱 or 干瞪眼 reason, and every capitalised phrase a reason may start with
has its own catalog entry."""
import re
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from companion.engine import dagong, gandengyan
from companion.engine.dagong.reasons import _CAPITALS
from companion.i18n import tr

TRANSLATIONS = Path(__file__).resolve().parents[2] / "companion" / "translations"
LANGUAGES = ["zh", "fr", "id", "ar", "ko"]

DAGONG = [("9", "5"), ("5 5", "6 7"), ("3 3 4 4", "5 5 JK JK"), ("9 9 9 9", "5 JK JK"), ("8 8 8 8", "8 8 8 8 8"),
          ("5h 10h Kh", "3 3"), ("7 7", "8 8 8"), ("K K K K", "5s 10s Ks"), ("5 5 5 5 5", "3 3 3 3"),
          ("4 4 5 5", "6 6 7 7"), ("7 7 7 JK", "7 7 7 7"), ("9", "JK"), ("-", "5 JK JK"), ("6 6 6", "7 7 7")]
GANDENGYAN = [("7", "9"), ("7", "8"), ("7", "2"), ("5 5", "SJ BJ"), ("3 4 5", "4 5 6"), ("3 4 5", "5 6 7"),
              ("8 8 8", "9 9 9 9"), ("9 9 9 9", "8 8 8 8"), ("-", "5 JK"), ("Q", "JK")]
# what may stay in Latin letters in any language: card and rule notation
NOTATION = {"JK", "SJ", "BJ", "510K", "jokerBomb", "pure510KSpade", "bombVs510K", "hardBeatsSoft", "xiPremium",
            "maxJokersIn510K", "allowStraights", "minLinkedPairs", "minLinkedTriples", "minStraight"}
LATIN_WORD = re.compile(r"[A-Za-z][A-Za-z0-9]{2,}")


def _english_words(text: str) -> list:
    return [w for w in LATIN_WORD.findall(text) if w not in NOTATION]


@pytest.mark.parametrize("lang", ["zh", "ar", "ko"])
@pytest.mark.parametrize("game, plays", [(dagong, DAGONG), (gandengyan, GANDENGYAN)], ids=["dagong", "gandengyan"])
def test_reasons_have_no_english_left(app, lang, game, plays):
    with app.test_request_context(f"/?lang={lang}"):
        for previous, play in plays:
            reason = game.check(previous, play).reason
            assert _english_words(tr(reason)) == [], (previous, play, str(reason), tr(reason))


@pytest.mark.parametrize("lang", ["fr", "id"])
def test_latin_languages_translate_the_opening_phrase(app, lang):
    """'A single 5 …' starts with its own translated phrase (twin: the English sentence)."""
    with app.test_request_context(f"/?lang={lang}"):
        reason = dagong.check("9", "5").reason
        assert reason.startswith("A single 5")
        assert not tr(reason).startswith("A single")
    with app.test_request_context("/?lang=en"):
        assert tr(reason).startswith("A single 5")


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_capitalised_phrase_is_in_the_catalog(lang):
    with open(TRANSLATIONS / lang / "LC_MESSAGES" / "messages.po", "rb") as fh:
        catalog = read_po(fh, locale=lang)
    missing = [upper.template for upper in _CAPITALS.values()
               if catalog.get(upper.template) is None or not catalog.get(upper.template).string]
    assert missing == []
