"""tr() of a plural engine sentence asks the language's catalog for the form its count needs
(Flask-Babel ngettext), then fills the {name} parameters, with the right-to-left isolates and the
Korean particles as for any other sentence."""
from io import BytesIO

import flask_babel
import pytest
from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo
from babel.support import Translations

from companion import i18n
from companion.engine.text import NP_
from companion.i18n import FSI, PDI, tr

BOMBS = ("{name} holds {count} bomb.", "{name} holds {count} bombs.")


def bombs(count, name="Ann"):
    return NP_(*BOMBS, count, name=name, count=count)


@pytest.fixture
def catalog(monkeypatch):
    """``catalog(lang, forms)``: the app's translations are this one plural entry in ``lang``."""
    def use(lang, forms):
        messages = Catalog(locale=lang)
        messages.add(BOMBS, tuple(forms))
        out = BytesIO()
        write_mo(out, messages)
        out.seek(0)
        translations = Translations(fp=out)
        monkeypatch.setattr(flask_babel.Domain, "get_translations", lambda self: translations)
    return use


@pytest.mark.parametrize("count, english", [(1, "Ann holds 1 bomb."), (2, "Ann holds 2 bombs."),
                                            (0, "Ann holds 0 bombs.")])
def test_english_picks_singular_or_plural(app, count, english):
    with app.test_request_context("/?lang=en"):
        assert tr(bombs(count)) == english


def test_ngettext_is_asked_with_the_count(app, monkeypatch):
    calls = []

    def spy(singular, plural, num, **variables):
        calls.append((singular, plural, num, variables))
        return plural

    monkeypatch.setattr(i18n, "ngettext", spy)
    with app.test_request_context("/?lang=fr"):
        assert tr(bombs(3)) == "Ann holds 3 bombs."
    assert calls == [(*BOMBS, 3, {})]    # the {name} parameters are filled after the translation


ARABIC = ["{name} لديه {count} قنابل (0)", "{name} لديه قنبلة واحدة", "{name} لديه قنبلتان",
          "{name} لديه {count} قنابل", "{name} لديه {count} قنبلة", "{name} لديه {count} قنبلة (100)"]


@pytest.mark.parametrize("count, form", [(1, 1), (2, 2), (5, 3), (11, 4)])
def test_arabic_uses_its_own_plural_forms(app, catalog, count, form):
    """Arabic has six forms: 2 is the dual (قنبلتان), not the English plural."""
    catalog("ar", ARABIC)
    with app.test_request_context("/?lang=ar"):
        out = tr(bombs(count))
    assert out == ARABIC[form].format(name=f"{FSI}Ann{PDI}", count=f"{FSI}{count}{PDI}")


@pytest.mark.parametrize("count, expected", [(1, "Ann possède 1 bombe."), (2, "Ann possède 2 bombes."),
                                             (1000000, "Ann possède 1\u202f000\u202f000 de bombes.")])
def test_french_singular_and_plural(app, catalog, count, expected):
    """Babel's French: one (0, 1), many (millions: "de"), other."""
    catalog("fr", ["{name} possède {count} bombe.", "{name} possède {count} de bombes.",
                   "{name} possède {count} bombes."])
    with app.test_request_context("/?lang=fr"):
        assert tr(bombs(count)) == expected


@pytest.mark.parametrize("count", [1, 2])
def test_korean_one_form_and_its_particles(app, catalog, count):
    catalog("ko", ["{name}이(가) 폭탄 {count}개를 가지고 있어요."])
    with app.test_request_context("/?lang=ko"):
        assert tr(bombs(count, name="민준")) == f"민준이 폭탄 {count}개를 가지고 있어요."
        assert tr(bombs(count, name="Ann")) == f"Ann이 폭탄 {count}개를 가지고 있어요."


def test_a_percent_sign_in_a_translation_does_not_break_the_page(app, catalog):
    catalog("fr", ["{name} : {count} bombe (100 %)", "{name} : {count} de bombes (100 %)",
                   "{name} : {count} bombes (100 %)"])
    with app.test_request_context("/?lang=fr"):
        assert tr(bombs(2)) == "Ann holds 2 bombs."      # the English sentence, not an error
