"""Languages: Flask-Babel set-up, the locale choice, and translation of engine sentences."""
from __future__ import annotations

import re

from flask import Flask, request
from flask_babel import get_locale, gettext

from .engine.common import Text
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
    """Translate an engine :class:`Text` (template + parameters); other strings pass through."""
    if isinstance(text, Text):
        return _CODES.sub("", _tr(text))
    return text


def _tr(text: Text) -> str:
    translated = gettext(text.template)
    if not text.params:
        return translated
    params = {key: tr(value) for key, value in text.params.items()}
    try:
        return translated.format(**params)
    except (KeyError, IndexError, ValueError):  # a broken translation must not break the page
        return str(text)


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
