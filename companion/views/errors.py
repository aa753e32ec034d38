"""Error pages (HTML) and JSON errors under /api/. Every error rolls the session back."""
from flask import Flask, jsonify, render_template, request
from flask_babel import gettext as _
from flask_wtf.csrf import CSRFError
from werkzeug.exceptions import HTTPException

from ..scoring import discard_changes


def _wants_json() -> bool:
    return request.path.startswith("/api/")


def init_app(app: Flask) -> None:
    @app.errorhandler(CSRFError)
    def csrf_error(error):
        discard_changes()
        message = _("The form expired or was sent from elsewhere. Go back, reload the page and send it again; nothing was saved.")
        if _wants_json():
            return jsonify(error={"code": "csrf", "message": message, "field": None}), 400
        return render_template("error.html", code=400, message=message), 400

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
        if _wants_json():
            return jsonify(error={"code": (error.name or "error").lower().replace(" ", "_"),
                                  "message": message, "field": None}), error.code
        return render_template("error.html", code=error.code, message=message), error.code

    @app.errorhandler(Exception)
    def server_error(error):  # last resort: never show a traceback to a player
        discard_changes()
        app.logger.exception("Unhandled error")
        message = _("Something went wrong on our side. Nothing was saved; please try again.")
        if _wants_json():
            return jsonify(error={"code": "server_error", "message": message, "field": None}), 500
        return render_template("error.html", code=500, message=message), 500
