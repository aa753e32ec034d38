"""Joining a table to record (by its record link or its PIN), resetting the share link, the PIN.

Every one of these is a POST with the form's CSRF token (Flask-WTF checks it before the view):
a GET never grants a right. A phone that joins keeps ``[public_id, token_version]`` in its
session (see ``tables.remember``), never the token.

``POST /t/<id>/join`` answers a form with a redirect to the table (or the table page again with
the reason, 403 / 429), and ``static/js/join.js`` (``Accept: application/json``) with
``{"joined": bool, "message"}``: the script then reloads the page, which shows the message.
"""
from __future__ import annotations

import re

from flask import Blueprint, flash, g, jsonify, redirect, render_template, request, url_for
from flask_babel import gettext as _

from .. import access
from ..middleware import pagecache, ratelimit
from ..middleware.guard import InputRejected
from ..db.models import Table
from .table_context import HOLDER_MAX, set_holder
from .tables import remember, table_page, table_view

bp = Blueprint("access", __name__)

KEY_IN_LINK = re.compile(r"[#?&]key=([A-Za-z0-9_\-]+)")


@bp.app_template_global()
def wrong_pin_tries(table: Table) -> int:
    """Wrong PIN tries at this table in the last hour (shown to the phones that may record)."""
    return ratelimit.wrong_pin_tries(table.public_id)


def given_secret() -> tuple[str, str]:
    """("pin", digits) or ("key", token) from the join form: a PIN, a key, or a whole pasted link."""
    pin = (request.form.get("pin") or "").strip()
    key = (request.form.get("key") or "").strip()
    if pin:
        return "pin", pin
    if access.valid_pin(key):
        return "pin", key
    found = KEY_IN_LINK.search(key)
    return "key", found.group(1) if found else key


def _wants_json() -> bool:
    return request.accept_mimetypes.best == "application/json"


def _answer(table: Table, joined: bool, message: str, status: int = 200):
    if _wants_json():  # join.js: the message waits in the session for the page it reloads
        flash(message)
        return jsonify(joined=joined, message=message), status
    if joined:
        flash(message)
        return redirect(url_for("tables.show", public_id=table.public_id), 303)
    return table_page(table, join_error=message, status=status)


@bp.post("/t/<public_id>/join")
@table_view()
def join(table: Table):
    if g.can_edit:
        return _answer(table, True, _("This phone can already record at this table."))
    kind, secret = given_secret()
    if not secret or len(secret) > 200:
        return _answer(table, False, _("Enter the table's PIN, or paste its record link."), 400)
    if secret.isdecimal() and not access.valid_pin(secret):  # a PIN mistyped, not a link
        return _answer(table, False, _("A table PIN is exactly 6 digits (0–9): check it with a player who can "
                                       "record."), 400)
    if kind == "pin":
        try:
            ratelimit.pin_attempt(table.public_id)
        except InputRejected as limited:
            return _answer(table, False, limited.message, limited.status)
        right = access.check_pin(table, secret)
        if table.pin_hash:
            ratelimit.pin_result(table.public_id, right)
        if not right:
            message = (_("That PIN is not this table's. Check it with a player who can record.") if table.pin_hash
                       else _("This table has no PIN. Scan its record code instead, or ask a player who can "
                              "record to set a PIN."))
            return _answer(table, False, message, 403)
    elif not access.check_edit_token(table, secret):
        message = (_("This record link was reset and no longer works. Ask a phone that can record at this table "
                     "for the new code.") if access.was_reset(table, secret)
                   else _("That record link is not valid for this table (it may have been reset). This phone "
                          "can only look."))
        return _answer(table, False, message, 403)
    remember(table)
    return _answer(table, True, _("This phone can now record and correct hands at this table."))


@bp.route("/t/<public_id>/share/reset", methods=["GET", "POST"])
@table_view(write=True)
def reset(table: Table):
    """A confirmation page (GET), then the reset (POST with ``confirm=yes``)."""
    if request.method == "POST" and request.form.get("confirm") == "yes":
        access.reset_token(table)
        remember(table)  # the phone that reset keeps recording
        flash(_("The share link was reset: the old record link, code and PIN no longer work. Show the new "
                "record code to the phones that should record."))
        return redirect(url_for("tables.show", public_id=table.public_id, _anchor="share"), 303)
    return render_template("access/share_reset.html", table=table)


@bp.post("/t/<public_id>/pin")
@table_view(write=True)
def pin(table: Table):
    """Set the table's PIN (6 digits) or turn it off (``action=clear``)."""
    back = redirect(url_for("tables.show", public_id=table.public_id, _anchor="share"), 303)
    if request.form.get("action") == "clear":
        access.set_pin(table, None)
        flash(_("The table PIN is off: phones join by the record code only."))
        return back
    value = (request.form.get("pin") or "").strip()
    if not access.valid_pin(value):  # beside the field, with what was typed; nothing is stored
        return table_page(table, pin_error=_("A table PIN is exactly 6 digits (0–9). The PIN was not changed."),
                          pin_value=value[:40], status=400)
    access.set_pin(table, value)
    flash(_("The table PIN is set. Tell it to the players who should record; it is not shown again."))
    return back


@bp.post("/t/<public_id>/holder")
@table_view(write=True)
def holder(table: Table):
    """Who holds this phone at this table: one of its players (``holder=<name>``), or someone else
    (``holder=`` with an optional ``other`` name). Named in the undo button and the history."""
    back = redirect(url_for("tables.show", public_id=table.public_id), 303)
    name = request.form.get("holder")
    if name is None:
        return back
    if name:
        if name not in pagecache.seated_names(table):  # renamed or gone meanwhile: the page asks again
            flash(_("%(name)s does not play at this table now. Who holds this phone?", name=name[:60]))
            return back
        set_holder(table, "=" + name)
        flash(_("This phone records as %(name)s.", name=name))
        return back
    other = " ".join((request.form.get("other") or "").split())[:HOLDER_MAX]
    set_holder(table, "~" + other)
    flash(_("This phone records as %(name)s.", name=other) if other
          else _("This phone records under its own name."))
    return back
