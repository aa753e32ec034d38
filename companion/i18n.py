"""Languages: Flask-Babel set-up, the locale choice, and translation of engine sentences."""
from __future__ import annotations

import re
from decimal import Decimal

from flask import Flask, request
from flask_babel import get_locale, gettext, ngettext

from .engine.public import Text
from .extensions import babel

LANGUAGE_NAMES = {"en": "English", "zh": "中文", "fr": "Français", "id": "Bahasa Indonesia",
                  "ar": "العربية", "ko": "한국어"}


def select_locale() -> str:
    """?lang= (remembered in a cookie by the after-request hook), then the cookie, then the browser."""
    from flask import current_app

    languages = current_app.config["LANGUAGES"]
    choice = request.args.get("lang") or request.cookies.get("lang")
    if choice in languages:
        return choice
    return request.accept_languages.best_match(languages) or current_app.config["BABEL_DEFAULT_LOCALE"]


# The rules files' early-end codes ("(E12)", "(E12, E1, E2, E3)"): the sentence around them
# already says what happened, so a player never reads a code.
_CODES = re.compile(r"\s*[(（]E\d{1,2}(?:\s*[,，、]\s*E\d{1,2})*[)）]")


def tr(text) -> str:
    """Translate an engine :class:`Text` (template + parameters); other strings pass through.

    Right to left (Arabic): each parameter (a name, a number, a list of cards) is a Unicode
    isolate, so a Chinese name or "150" never reorders the sentence around it. Korean: the
    fallback particles 을(를), 이(가) … are chosen by the word before them."""
    if isinstance(text, Text):
        out = _CODES.sub("", _tr(text))
        if _language() == "ko":
            return particles(out)
        locale = get_locale()
        if locale is not None and locale.text_direction == "rtl":
            out = _MATH.sub(lambda m: f"{LRI}{m.group(0)}{PDI}", out)
        return out
    return text


# arithmetic in a sentence ("×2 = ×2 = 12", "150 ≥ 100", "×4") reads left to right in every language.
# A term is a number, bare or isolated as a whole (FSI 4 PDI), so an isolate added around the sum
# never closes one that was opened before it (the lines of a step nest: parentheses never cross).
LRI = "\u2066"
_TERM = r"(?:[×x]\s?)?(?:\u2068[+−]?\d[\d.,]*\u2069|[+−]?\d[\d.,]*)"
_MATH = re.compile(rf"(?<!\u2066)(?:{_TERM}(?:\s*[=≥≤<>+−×]\s*{_TERM})+|×\s?(?:\u2068\d[\d.,]*\u2069|\d[\d.,]*))")
# the engine's lists of steps ("{f0}, {f1}, {f2}") take the language's own comma
_LIST = re.compile(r"^\{f0\}(?:, \{f\d+\})+$")


def _language() -> str:
    locale = get_locale()
    return locale.language if locale else "en"


FSI, PDI, RLI = "\u2068", "\u2069", "\u2067"


def _translated(text: Text) -> str:
    """The catalog's sentence: a plural Text asks for the form its count needs in this language
    (the count fills nothing: the sentence's ``{name}`` parameters are filled afterwards)."""
    if _LIST.match(text.template):
        return text.template.replace(", ", gettext(", "))  # the list separator: "，" in Chinese, "، " in Arabic
    if text.plural is None or text.count is None:
        return gettext(text.template)
    try:
        return ngettext(text.template, text.plural, text.count)
    except (TypeError, ValueError, KeyError):  # a stray "%" in a translation: Flask-Babel applies %(num)
        return text.template if text.count == 1 else text.plural


def label(text) -> str:
    """A label ending with its colon, then the space before what follows it, except after a
    full-width colon ("赢家：Bo", not "赢家： Bo")."""
    from markupsafe import Markup, escape

    text = escape(text)
    return Markup(text if text.endswith(("：", "︰")) else text + Markup(" "))


def number(value) -> str:
    """A number written the language's way ("0,5" in French and Indonesian, "1 234" in French):
    every number on a page, in a sentence or in a table, goes through here or ``format_money``."""
    from decimal import InvalidOperation

    from babel.numbers import format_decimal

    try:
        return format_decimal(value, format="#,##0.####", locale=get_locale() or "en", decimal_quantization=False)
    except (InvalidOperation, OverflowError, ValueError):  # past the decimal context (a refused 10**40): as typed
        return str(value)


def _param(value):
    """An engine sentence's parameter, ready to fill in: a sentence translated, a number formatted."""
    if isinstance(value, (int, float, Decimal)) and not isinstance(value, bool):
        return number(value)
    return tr(value)


def _tr(text: Text) -> str:
    translated = _translated(text)
    if not text.params:
        return translated
    params = {key: _param(value) for key, value in text.params.items()}
    locale = get_locale()
    if locale is not None and locale.text_direction == "rtl":
        # a name or number finds its own direction (FSI); a sentence of this language inside a
        # sentence is right to left (RLI): FSI would look past its nested isolates, find no letter
        # and lay a list of steps out left to right
        params = {key: f"{RLI if isinstance(text.params[key], Text) else FSI}{value}{PDI}"
                  for key, value in params.items()}
    try:
        return translated.format(**params)
    except (KeyError, IndexError, ValueError):  # a broken translation must not break the page
        return str(text)


# --------------------------------------------------------------------------------------------
# Korean particles: 을/를, 이/가, 은/는, 과/와, (으)로 follow the last sound of the word before them

_PAIRS = {"을": ("을", "를"), "를": ("을", "를"), "이": ("이", "가"), "가": ("이", "가"), "은": ("은", "는"),
          "는": ("은", "는"), "과": ("과", "와"), "와": ("과", "와"), "으로": ("으로", "로"), "로": ("으로", "로")}
_DIGIT_FINAL = {"0": True, "1": True, "2": False, "3": True, "4": False, "5": False, "6": True, "7": True,
                "8": True, "9": False}  # 영 일 이 삼 사 오 육 칠 팔 구
_FALLBACK = re.compile(r"(?<=\S)(을\(를\)|를\(을\)|이\(가\)|가\(이\)|은\(는\)|는\(은\)|과\(와\)|와\(과\)|\(으\)로|으로\(로\))")


_GLOSS = re.compile(r"^(.*[^\s(（])\s*[(（][^()（）]*[)）][\s\u2068\u2069]*$")


def _final(word: str) -> str | None:
    """'consonant', 'rieul' (ㄹ), 'vowel', or None when the word's last sound cannot be told."""
    gloss = _GLOSS.match(word)  # "반공(半拱)": the gloss in brackets is not read aloud
    if gloss and _final(gloss.group(1)) is not None:
        return _final(gloss.group(1))
    word = word.rstrip(" \u2068\u2069)」』\"'")
    if not word:
        return None
    last = word[-1]
    if "가" <= last <= "힣":
        tail = (ord(last) - 0xAC00) % 28
        return "vowel" if tail == 0 else "rieul" if tail == 8 else "consonant"
    if last in _DIGIT_FINAL:
        return ("rieul" if last in "178" else "consonant") if _DIGIT_FINAL[last] else "vowel"
    if last.isascii() and last.isalpha():
        return "vowel" if last.lower() in "aeiouyw" else "rieul" if last.lower() in "lr" else "consonant"
    return None


def particle(word: str, pair: str) -> str:
    """``particle("민준", "을/를")`` -> "민준을"; ``particle("Ann", "이/가")`` -> "Ann이". A word whose
    last sound cannot be told (e.g. Chinese characters) keeps the written-out form 을(를)."""
    first, second = pair.split("/")
    sound = _final(word)
    if sound is None:
        return f"{word}{first}({second})"
    if first == "으로":
        return word + ("로" if sound in ("vowel", "rieul") else "으로")
    return word + (second if sound == "vowel" else first)


def particles(text: str) -> str:
    """Every fallback particle in a Korean sentence, chosen by the word in front of it."""
    def choose(match):
        head = text[:match.start()]
        fallback = match.group(1)
        key = "으로" if "로" in fallback and "으" in fallback else fallback[0]
        first, second = _PAIRS[key]
        word = head.split()[-1] if head.split() else ""
        sound = _final(word)
        if sound is None:
            return fallback
        if first == "으로":
            return "로" if sound in ("vowel", "rieul") else "으로"
        return second if sound == "vowel" else first
    return _FALLBACK.sub(choose, text)


def utc_iso(moment) -> str:
    """ISO 8601 with the zone (stored times are UTC; SQLite gives them back without a zone)."""
    from datetime import timezone

    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=timezone.utc)
    return moment.astimezone(timezone.utc).isoformat(timespec="seconds")


def init_app(app: Flask) -> None:
    babel.init_app(app, locale_selector=select_locale)

    @app.context_processor
    def inject_language():
        locale = get_locale()
        return {"lang": locale.language if locale else "en",
                "text_dir": locale.text_direction if locale else "ltr",
                "languages": LANGUAGE_NAMES}

    @app.after_request
    def remember_language(response):
        choice = request.args.get("lang")
        if choice and choice in app.config["LANGUAGES"] and request.cookies.get("lang") != choice:
            response.set_cookie("lang", choice, max_age=365 * 24 * 3600, samesite="Lax")
        return response

    app.jinja_env.filters["tr"] = tr
    app.jinja_env.filters["utc_iso"] = utc_iso
    app.jinja_env.filters["num"] = number
    app.jinja_env.filters["label"] = label
    app.jinja_env.globals["particle"] = particle
    _korean_particles_in_templates(app)


def _korean_particles_in_templates(app: Flask) -> None:
    """Templates' _() / ngettext(): in Korean, the particle after a name or number is chosen by it
    (the catalogs write the fallback 을(를); this picks 을 or 를 once the name is filled in)."""
    from jinja2 import pass_context
    from markupsafe import Markup

    def wrap(original):
        @pass_context
        def translated(context, *args, **kwargs):
            out = original(context, *args, **kwargs)
            if _language() != "ko":
                return out
            fixed = particles(str(out))
            return Markup(fixed) if isinstance(out, Markup) else fixed
        return translated

    for name in ("gettext", "_", "ngettext"):
        if name in app.jinja_env.globals:
            app.jinja_env.globals[name] = wrap(app.jinja_env.globals[name])


def imported_mark() -> str:
    """"imported 1 Dec": what an imported copy's name gets, in the phone's language (today's date)."""
    from datetime import date

    from flask_babel import format_date

    return gettext("imported %(date)s", date=format_date(date.today(), format="d MMM"))
