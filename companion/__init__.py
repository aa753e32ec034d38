"""Card Table Companion: the application factory."""
from __future__ import annotations

import os
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # Flask is imported by create_app: the pure engine (companion.engine) loads without it
    from flask import Flask


def create_app(test_config: dict | None = None) -> Flask:
    from flask import Flask

    from .config import Defaults, database_url, engine_options, from_environment, secret_key

    app = Flask(__name__, instance_relative_config=True,
                template_folder="../templates", static_folder="../static")
    os.makedirs(app.instance_path, exist_ok=True)
    app.config.from_object(Defaults)
    app.config["SECRET_KEY"] = secret_key(app.instance_path)
    app.config["SQLALCHEMY_DATABASE_URI"] = database_url(app.instance_path)
    app.config.update(from_environment())
    app.config.from_pyfile("config.py", silent=True)
    app.config.from_prefixed_env()  # FLASK_<SETTING>=<json value>, e.g. FLASK_HANDS_PER_PAGE=50
    if test_config:
        app.config.update(test_config)
    app.config["SQLALCHEMY_ENGINE_OPTIONS"] = engine_options(app.config["SQLALCHEMY_DATABASE_URI"],
                                                             app.config["SQLALCHEMY_ENGINE_OPTIONS"])
    register_edge(app)
    register_extensions(app)
    register_blueprints(app)
    register_cli(app)
    register_error_handlers(app)
    register_security(app)
    return app


def register_edge(app: Flask) -> None:
    """What every request passes first, before CSRF and the views: the input guard, the rate limits,
    and a clean "nothing saved yet" for the error pages."""
    from .middleware import guard, ratelimit
    from . import scoring

    ratelimit.init_app(app)  # first: a refused client costs one counter, never a parsed body
    guard.init_app(app)
    app.before_request(scoring.start_request)


def register_extensions(app: Flask) -> None:
    from .extensions import csrf, db, migrate
    from . import i18n, words
    from .middleware import pagecache

    db.init_app(app)
    migrate.init_app(app, db, directory=os.path.join(os.path.dirname(app.root_path), "migrations"))
    csrf.init_app(app)
    i18n.init_app(app)
    words.init_app(app)
    pagecache.init_app(app)
    from .engine import engine_for
    app.jinja_env.globals["engine_for"] = engine_for  # a game's own words and parts (never a branch on its name)


def register_blueprints(app: Flask) -> None:
    from .views import register

    register(app)


def register_cli(app: Flask) -> None:
    from . import cli

    cli.init_app(app)


def register_error_handlers(app: Flask) -> None:
    from .views import errors

    errors.init_app(app)


def register_security(app: Flask) -> None:
    from .middleware import security

    security.init_app(app)
