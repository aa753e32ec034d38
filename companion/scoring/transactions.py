"""Writing safely: the table's row lock (every writer's first statement), commits that remember
that something was saved in this request, and the checks that refuse changes to a closed table."""
from __future__ import annotations

from typing import Any

from sqlalchemy import update
from sqlalchemy.orm.attributes import set_committed_value

from ..engine.public import N_
from ..extensions import db
from ..db.models import Table, utcnow
from .errors_limits import DEVICE_MAX, ScoringError


def _commit() -> None:
    """Commit, and remember for the rest of the request that something was saved."""
    db.session.commit()
    db.session.info["saved"] = True


commit = _commit  # for the other services (companion/sharing/people.py): the same bookkeeping


def saved_in_this_request() -> bool:
    """Whether this request committed a change (an error after that must not say "nothing was saved")."""
    return bool(db.session.info.get("saved"))


def discard_changes() -> None:
    """Roll back whatever the current request changed and did not commit (after an error)."""
    db.session.rollback()


_LOCK_READS = ("revision", "hand_seq", "stake_text", "archived_at", "deleted_at", "updated_at")


def _lock(table: Table, *, new_hand: bool = False, closed_ok: bool = False) -> None:
    """Bump the table row first: the row lock serialises this table's writers until commit. An
    archived or deleted table takes no change (``closed_ok``: the changes that open it again)."""
    values = {"revision": Table.revision + 1, "updated_at": utcnow()}
    if new_hand:
        values["hand_seq"] = Table.hand_seq + 1
    row = db.session.execute(update(Table).where(Table.id == table.id).values(**values)
                             .returning(*(getattr(Table, name) for name in _LOCK_READS))
                             .execution_options(synchronize_session=False)).one()
    for name, value in zip(_LOCK_READS, row):  # what the locked row holds now: no second read
        set_committed_value(table, name, value)
    if not closed_ok:
        check_open(table)


def lock_table(table: Table) -> None:
    """For another service's change to a table's rows that is not a hand (e.g. linking players to
    people, also at an archived table): serialise it with the table's other writers (the caller
    commits or rolls back)."""
    _lock(table, closed_ok=True)


def check_open(table: Table) -> None:
    """Raise a ScoringError when the table is archived or deleted (it takes no hands or corrections)."""
    if table.deleted_at is not None:
        raise ScoringError(N_("This table was deleted; bring it back to change it."),
                           code="table_deleted", field="table")
    if table.archived_at is not None:
        raise ScoringError(N_("This table is archived; restore it to record or correct hands."),
                           code="table_archived", field="table")


def _device(device: Any) -> str:
    return (str(device) if device else "")[:DEVICE_MAX]


def _commit_keeping() -> None:
    """Commit without expiring what the session holds: what this transaction wrote is what its
    objects hold, so the answer is built without reading the rows again."""
    session = db.session()
    session.expire_on_commit = False
    try:
        _commit()
    finally:
        session.expire_on_commit = True
