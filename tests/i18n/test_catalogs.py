"""Translations: every catalog keeps each message's placeholders, compiles, and is actually served.

A translation that drops or renames ``{name}`` / ``%(name)s`` would turn a page into an error (or
show a raw brace), so each catalog entry is checked against its English original.
"""
import re
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

ROOT = Path(__file__).resolve().parents[2]
TRANSLATIONS = ROOT / "companion" / "translations"
LANGUAGES = ["zh", "fr", "id", "ar", "ko"]
PLACEHOLDER = re.compile(r"\{[A-Za-z_][A-Za-z0-9_]*\}|%\([A-Za-z_][A-Za-z0-9_]*\)[sd]")


def catalog(lang):
    with open(TRANSLATIONS / lang / "LC_MESSAGES" / "messages.po", "rb") as fh:
        return read_po(fh, locale=lang)


def placeholders(text):
    return sorted(set(PLACEHOLDER.findall(text or "")))


def _count_left_out(string, wanted):
    """A plural form may leave its count unsaid (Arabic's dual "قنبلتان" is "two bombs" by itself)."""
    return sorted(set(placeholders(string)) | {"{count}"}) == wanted or \
        sorted(set(placeholders(string)) | {"%(num)s"}) == wanted


@pytest.mark.parametrize("lang", LANGUAGES)
def test_translations_keep_every_placeholder(lang):
    problems = []
    for message in catalog(lang):
        if not message.id or not message.string or message.fuzzy:
            continue
        ids = message.id if isinstance(message.id, tuple) else (message.id,)
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        wanted = placeholders(ids[-1])
        for s in strings:
            if s and placeholders(s) != wanted and placeholders(s) != placeholders(ids[0]) and not (
                    len(strings) > 1 and _count_left_out(s, wanted)):
                problems.append((ids[0], s))
    assert problems == []


@pytest.mark.parametrize("lang", LANGUAGES)
def test_catalog_is_mostly_translated(lang):
    messages = [m for m in catalog(lang) if m.id]
    done = [m for m in messages if m.string and not m.fuzzy and all(m.string if isinstance(m.string, tuple) else (m.string,))]
    assert len(done) >= 0.95 * len(messages), f"{lang}: {len(done)}/{len(messages)} translated"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_catalog_is_compiled(lang):
    # make test compiles the .po files first; a missing .mo silently falls back to English
    assert (TRANSLATIONS / lang / "LC_MESSAGES" / "messages.mo").exists()


@pytest.fixture
def web(tmp_path):
    from companion import create_app

    app = create_app({"TESTING": True, "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path}/i18n.sqlite3"})
    return app.test_client()


@pytest.mark.parametrize("lang,direction", [("ar", "rtl"), ("zh", "ltr"), ("fr", "ltr"), ("en", "ltr")])
def test_page_direction_follows_the_language(web, lang, direction):
    html = web.get("/", headers={"Accept-Language": lang}).get_data(as_text=True)
    assert f'lang="{lang}"' in html and f'dir="{direction}"' in html


@pytest.mark.parametrize("lang", LANGUAGES)
def test_pages_and_engine_sentences_are_translated(web, lang):
    """The check page in each language shows the translated title and a translated engine reason."""
    title = "Is this play legal?"
    english_reason = None
    with web.application.test_request_context():
        from companion.engine import gandengyan

        english_reason = gandengyan.check("7", "9").reason
    html = web.get("/check?game=gandengyan&previous=7&play=9",
                   headers={"Accept-Language": lang}).get_data(as_text=True)
    translated_title = {m.id: m.string for m in catalog(lang)}.get(title)
    assert translated_title and translated_title in html
    assert str(english_reason) not in html  # the engine's sentence arrives translated


def test_browser_language_variants_pick_the_catalog(web):
    html = web.get("/", headers={"Accept-Language": "zh-CN,zh;q=0.9"}).get_data(as_text=True)
    assert 'lang="zh"' in html
    html = web.get("/", headers={"Accept-Language": "ar-SA"}).get_data(as_text=True)
    assert 'dir="rtl"' in html


def test_language_choice_is_remembered(web):
    web.get("/?lang=ko")
    html = web.get("/", headers={"Accept-Language": "fr"}).get_data(as_text=True)
    assert 'lang="ko"' in html
