"""Blueprints. Each module defines ``bp``; register() adds them all."""
from flask import Flask


def register(app: Flask) -> None:
    from ..extensions import csrf
    from . import api, check, hands, live, main, review, tables

    for module in (main, tables, hands, check, live):
        app.register_blueprint(module.bp)
    review.register(app)
    csrf.exempt(api.bp)  # JSON API: no cookies are trusted; writes need the table's edit token
    app.register_blueprint(api.bp, url_prefix="/api/v1")
