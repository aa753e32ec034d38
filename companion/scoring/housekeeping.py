"""What a request does first: forget what an earlier request saved and, about once a minute per
worker, purge the tables whose undo window has passed and the imports that never finished."""
from __future__ import annotations

import time

from sqlalchemy.exc import SQLAlchemyError

from ..extensions import db
from .importing import purge_unfinished_imports
from .tables import purge_deleted

PURGE_EVERY_SECONDS = 60
_last_purge = [0.0]


def start_request() -> None:
    """Run before each request: nothing saved yet (the session may outlive one request in tests).
    About once a minute per worker, a request first purges the tables whose undo window has passed
    (one indexed query when there is nothing to purge). Otherwise a request that has not made a
    database session yet gets none here (the poll never needs one)."""
    if db.session.registry.has():
        db.session.info.pop("saved", None)
    from flask import current_app

    now = time.monotonic()
    if now - _last_purge[0] >= current_app.config.get("PURGE_EVERY_SECONDS", PURGE_EVERY_SECONDS):
        _last_purge[0] = now
        try:
            purge_deleted()
            purge_unfinished_imports()  # an import replay may leave a table behind when its worker is killed
        except SQLAlchemyError:  # housekeeping never fails a request (e.g. a database not migrated yet)
            db.session.rollback()
