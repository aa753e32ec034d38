"""Which migration a database is at, against this code's newest one (alembic's head), without
running any: the readiness check (``/readyz``), gunicorn's start (scripts/gunicorn_conf.py: a
database written by a newer version is refused) and the migrations themselves (migrations/env.py:
the same refusal, in words, instead of alembic's "Can't locate revision identified by …").

States: ``current`` (at the head), ``behind`` (``flask --app app db upgrade`` was not run after an
update), ``empty`` (never migrated: no ``alembic_version``), ``newer`` (a revision this code does
not know: the database was written by a newer version of the app; never downgrade it by hand)."""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import click

MIGRATIONS = Path(__file__).resolve().parents[2] / "migrations"


class NewerDatabase(click.ClickException):
    """The database was written by a newer version of the app (a click error: ``flask db upgrade``
    prints its message alone, without a traceback)."""


@lru_cache(maxsize=1)
def _script():
    from alembic.script import ScriptDirectory

    return ScriptDirectory(str(MIGRATIONS))


def code_head() -> str:
    return _script().get_current_head()


@lru_cache(maxsize=64)
def is_known(revision: str) -> bool:
    from alembic.util import CommandError

    try:
        return _script().get_revision(revision) is not None
    except (CommandError, KeyError, ValueError):  # alembic's ResolutionError is a CommandError
        return False


@dataclass(frozen=True)
class SchemaState:
    status: str                      # current, behind, empty, newer
    revisions: tuple[str, ...]       # what the database's alembic_version holds
    head: str                        # this code's newest migration

    @property
    def ready(self) -> bool:
        return self.status == "current"

    def describe(self) -> str:
        """One sentence for a log or a terminal (English: for whoever runs the server)."""
        stored = ", ".join(self.revisions) or "none"
        return {
            "current": f"database schema is current (revision {self.head})",
            "behind": f"database schema is behind this version (at {stored}, this code needs {self.head}): "
                      "run `flask --app app db upgrade`",
            "empty": "the database has no schema yet (no migration applied): run `flask --app app db upgrade`",
            "newer": f"this database was written by a newer version of Card Table Companion (revision {stored}, "
                     f"unknown to this version, whose newest is {self.head}): run that newer version (update "
                     "this copy, e.g. git pull), or point DATABASE_URL at another database; do not downgrade it",
        }[self.status]


def schema_state(connection) -> SchemaState:
    """The state of the database behind ``connection`` (a SQLAlchemy connection)."""
    from alembic.runtime.migration import MigrationContext

    revisions = tuple(MigrationContext.configure(connection).get_current_heads())
    head = code_head()
    if not revisions:
        status = "empty"
    elif not all(is_known(r) for r in revisions):
        status = "newer"
    elif head in revisions:
        status = "current"
    else:
        status = "behind"
    return SchemaState(status, revisions, head)


def refuse_newer(connection) -> SchemaState:
    """The state; :class:`NewerDatabase` (with the reason in words) when the database is newer."""
    state = schema_state(connection)
    if state.status == "newer":
        raise NewerDatabase(state.describe())
    return state
