"""Error pages (HTML) and JSON errors under /api/. Every error rolls the session back."""
from flask import Flask, g, jsonify, make_response, render_template, request
from flask_babel import format_decimal
from flask_babel import gettext as _
from flask_wtf.csrf import CSRFError
from sqlalchemy.exc import DataError, DBAPIError, InterfaceError, OperationalError, PendingRollbackError, StatementError
from sqlalchemy.exc import TimeoutError as PoolTimeout
from werkzeug.exceptions import HTTPException

from ..middleware.guard import InputRejected
from ..scoring import discard_changes, saved_in_this_request


def _wants_json() -> bool:
    return request.path.startswith("/api/")


def _answer(status: int, code: str, message: str, field: str | None = None):
    if _wants_json():
        return jsonify(error={"code": code, "message": message, "field": field}), status
    return render_template("error.html", code=status, message=message), status


def _out_of_range(error) -> bool:
    """A value the database cannot hold (too large a number, a NUL on PostgreSQL …)."""
    return isinstance(error, (DataError, OverflowError)) or (
        isinstance(error, StatementError) and isinstance(error.orig, (OverflowError, ValueError)))


RETRY_AFTER_SECONDS = 5


def _unavailable(error) -> bool:
    """The database could not be reached or did not answer (a restart, a lost connection, SQLite
    busy past its timeout): the outcome of a write in flight is not known."""
    return isinstance(error, (OperationalError, InterfaceError, PoolTimeout, PendingRollbackError)) or (
        isinstance(error, DBAPIError) and error.connection_invalidated)


def _database_error(error):
    """The driver's own error under SQLAlchemy's (sqlite3's or psycopg's), or None."""
    return getattr(error, "orig", None) if isinstance(error, DBAPIError) else None


def _disk_full(error) -> bool:
    """The database's disk (or its size limit) is full: SQLite's SQLITE_FULL, PostgreSQL's
    disk_full (SQLSTATE 53100)."""
    orig = _database_error(error)
    return orig is not None and (getattr(orig, "sqlite_errorname", None) == "SQLITE_FULL"
                                 or getattr(orig, "sqlstate", None) == "53100"
                                 or "database or disk is full" in str(orig))


def _schema_missing(error) -> bool:
    """A table or column of this version is not in the database: its migrations were not applied
    (SQLite "no such table/column"; PostgreSQL undefined_table 42P01, undefined_column 42703)."""
    orig = _database_error(error)
    return orig is not None and (getattr(orig, "sqlstate", None) in ("42P01", "42703")
                                 or str(orig).startswith(("no such table", "no such column")))


def disk_full_answer():
    """503: the server's disk is full. The failed write was rolled back; the outbox keeps the hand."""
    g.pop("table", None)
    message = _("The table's server has run out of disk space, so it cannot save anything until whoever "
                "runs it makes room. Nothing was saved; sending it again later is safe.")
    response = make_response(*_answer(503, "disk_full", message))
    response.headers["Retry-After"] = str(RETRY_AFTER_SECONDS)
    return response


def not_migrated_answer():
    """503: this version's tables are not in the database (``flask db upgrade`` was skipped)."""
    g.pop("table", None)
    message = _("The table's server was updated but its database was not: whoever runs it must apply the "
                "database migrations. Nothing was saved.")  # the command is in the log and /readyz
    response = make_response(*_answer(503, "not_migrated", message))
    response.headers["Retry-After"] = str(RETRY_AFTER_SECONDS)
    return response


def unavailable_answer():
    """503 with Retry-After: never "nothing was saved" when nobody knows. Pages and the API alike."""
    g.pop("table", None)  # its attributes would need the database to show the page's footer
    message = _("The table's server cannot reach its database just now. It is not known whether your "
                "change was saved — retrying with the same request is safe.")
    response = make_response(*_answer(503, "unavailable", message))
    response.headers["Retry-After"] = str(RETRY_AFTER_SECONDS)
    return response


def csrf_answer():
    """A form whose CSRF token is missing or expired (the hand forms come back filled in instead)."""
    discard_changes()
    message = _("The form expired or was sent from elsewhere. Go back, reload the page and send it again; nothing was saved.")
    if _wants_json():
        return jsonify(error={"code": "csrf", "message": message, "field": None}), 400
    return render_template("error.html", code=400, message=message), 400


def init_app(app: Flask) -> None:
    @app.errorhandler(InputRejected)
    def input_rejected(error: InputRejected):
        discard_changes()
        response = make_response(*_answer(error.status, error.code, error.message, error.field))
        if getattr(error, "retry_after", None):  # a 429: the seconds until the limit lets this client in again
            response.headers["Retry-After"] = str(int(error.retry_after))
        return response

    @app.errorhandler(CSRFError)
    def csrf_error(error):
        return csrf_answer()

    @app.errorhandler(HTTPException)
    def http_error(error):
        discard_changes()
        messages = {
            400: _("The request could not be understood. Check what you entered and try again."),
            404: _("This page does not exist. Check the address, or open the table from its link again."),
            405: _("This address does not accept that kind of request."),
            413: _("What you sent is too large."),
        }
        message = messages.get(error.code, error.description)
        code = (error.name or "error").lower().replace(" ", "_")  # 413: request_entity_too_large
        if error.code == 413 and request.endpoint in ("review.import_table", "api.import_table"):
            limit = int(app.config.get("IMPORT_MAX_BYTES", 2 * 1024 * 1024))
            message = _("This file is larger than a table file may be here (%(size)s MiB); nothing was imported.",
                        size=format_decimal(round(limit / 1024 / 1024, 1)))
            if not _wants_json():  # the import page again, with the reason
                return render_template("review/import.html", error=message), 413
        body, status = _answer(error.code, code, message)
        response = app.make_response((body, status))
        for name, value in error.get_headers():  # 405: Allow; 401: WWW-Authenticate …
            if name.lower() != "content-type":
                response.headers[name] = value
        return response

    @app.errorhandler(Exception)
    def server_error(error):  # last resort: never show a traceback to a player
        saved = saved_in_this_request()
        try:
            discard_changes()
        except DBAPIError:  # the connection is gone: there is nothing left to roll back
            pass
        if _disk_full(error) and not saved:
            app.logger.error("Database disk full: %s", _database_error(error))
            return disk_full_answer()
        if _schema_missing(error) and not saved:
            app.logger.error("Database not migrated to this version (run flask --app app db upgrade): %s",
                             _database_error(error))
            return not_migrated_answer()
        if _unavailable(error) and not saved:
            app.logger.warning("Database unavailable: %s: %s", error.__class__.__name__, _database_error(error))
            return unavailable_answer()
        if _out_of_range(error):
            return _answer(400, "out_of_range", _("A value is out of range: a number is too large or a text "
                                                  "holds a character that cannot be stored. Nothing was saved."))
        app.logger.exception("Unhandled error")
        if saved:  # the change was committed before the failure: never say it was not
            message = _("Something went wrong on our side after your change was saved. Reload the page to see "
                        "it before you try again.")
        else:
            message = _("Something went wrong on our side. Nothing was saved; please try again.")
        if _wants_json():
            return jsonify(error={"code": "server_error", "message": message, "field": None}), 500
        return render_template("error.html", code=500, message=message), 500
