"""Blueprints. Each module defines ``bp``; register() adds them all."""
from flask import Flask


def register(app: Flask) -> None:
    from . import main

    app.register_blueprint(main.bp)
