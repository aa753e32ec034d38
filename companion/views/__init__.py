"""Blueprints. Each module defines ``bp``; register() adds them all.

The JSON API's blueprint is a flask-smorest Blueprint: its schemas parse the requests and
write the OpenAPI document served at ``/api/v1/openapi.json``.
"""
from flask import Flask
from flask_smorest import Api

API_PREFIX = "/api/v1"


class OpenApi(Api):
    """flask-smorest's Api, documenting our error shape (the answers' errors stay ours)."""

    def __init__(self, app=None, **kwargs):
        from ..schemas import ErrorAnswer

        self.ERROR_SCHEMA = ErrorAnswer
        super().__init__(app, **kwargs)

    def _register_error_handlers(self):
        """Our own handlers (views/errors.py) answer every HTTP error, pages and API alike."""


def register(app: Flask) -> None:
    from ..extensions import csrf
    from . import access, api, check, hands, live, main, people, players, pwa, review, rules, tables

    for module in (main, tables, access, hands, check, live, rules, people, pwa, players):
        app.register_blueprint(module.bp)
    review.register(app)
    csrf.exempt(api.bp)  # JSON API: no cookies are trusted; writes need the table's edit token
    app.config.setdefault("API_TITLE", "Card Table Companion")
    app.config.setdefault("API_VERSION", "1")
    app.config.setdefault("OPENAPI_VERSION", "3.0.3")
    app.config.setdefault("OPENAPI_URL_PREFIX", API_PREFIX)
    app.config.setdefault("OPENAPI_JSON_PATH", "openapi.json")
    docs = OpenApi(app, spec_kwargs={"info": {"description": (
        "Check plays, settle hands and keep a table's scores with the rules engine of Card Table "
        "Companion. Every bad input is a 4xx answer {\"error\": {\"code\", \"message\", \"field\"}}; "
        "the codes are listed in docs/api.md.")}})
    docs.spec.components.security_scheme("bearer", {"type": "http", "scheme": "bearer",
                                                    "description": "The table's edit token."})
    docs.spec.components.security_scheme("editToken", {"type": "apiKey", "in": "header", "name": "X-Edit-Token",
                                                       "description": "The table's edit token (older clients)."})
    docs.register_blueprint(api.bp, url_prefix=API_PREFIX)
    from ..schemas.per_game import strict_per_game

    strict_per_game(docs.spec.components.schemas)  # as strict as the server: one variant per game
    app.extensions["openapi"] = docs
