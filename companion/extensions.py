"""Extension singletons, bound to the app in create_app()."""
from flask_babel import Babel
from flask_migrate import Migrate
from flask_sqlalchemy import SQLAlchemy
from flask_wtf.csrf import CSRFProtect
from sqlalchemy import event
from sqlalchemy.engine import Engine
from sqlalchemy.orm import DeclarativeBase


class Base(DeclarativeBase):
    pass


db = SQLAlchemy(model_class=Base)
migrate = Migrate()
csrf = CSRFProtect()
babel = Babel()


def _lower(value):
    return value.lower() if isinstance(value, str) else value


@event.listens_for(Engine, "connect")
def _sqlite_pragmas(dbapi_connection, connection_record):
    """SQLite: foreign keys on, WAL journal, wait for a lock instead of failing."""
    if type(dbapi_connection).__module__.startswith("sqlite3"):
        # lower() of every letter, as on PostgreSQL (SQLite's own folds A-Z only): the case-insensitive
        # searches (ILIKE is lower() LIKE lower() here) then find "Élodie" from "élodie".
        dbapi_connection.create_function("lower", 1, _lower, deterministic=True)
        cursor = dbapi_connection.cursor()
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.execute("PRAGMA busy_timeout=5000")
        try:
            cursor.execute("PRAGMA journal_mode=WAL")
        except Exception:  # in-memory databases have no WAL
            pass
        cursor.close()
