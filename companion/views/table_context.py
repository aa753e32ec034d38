"""What the table views share: the table of the URL, this phone's right to record there (kept in the
session), the page number, the engine's messages in this language and money as a page shows it.

Every table view imports these from here (``views/tables.py`` re-exports them for the views that
always imported them from there); this module imports no other view module, so none of them
needs an import inside a function to avoid a cycle.
"""
from __future__ import annotations

import re
from functools import wraps

from flask import abort, g, make_response, render_template, request, session
from flask_babel import format_decimal
from flask_babel import gettext as _

from ..middleware import pagecache
from .. import scoring
from ..engine.public import EngineError
from ..games import ByGame
from ..i18n import tr
from ..db.models import Table
from ..words import field_words

REMEMBERED = 50  # ~30 bytes each in the session cookie


GAME_NAMES = ByGame(lambda module: module.TITLE)  # read from the registry when used


def remembered() -> list[list]:
    """This phone's tables, newest first: ``[public_id, token_version]`` pairs (a right to record
    while the table's ``token_version`` is still that one; never the token itself). A session
    from before tokens were derived holds ``[public_id, token]``: see :func:`can_edit`."""
    value = session.get("tables")
    if not isinstance(value, list):
        return []
    return [x for x in value if isinstance(x, list) and len(x) == 2 and isinstance(x[0], str)
            and isinstance(x[1], (int, str)) and not isinstance(x[1], bool)]


def remember(table: Table) -> None:
    """This phone may record at ``table`` from now on (until its share link is reset)."""
    entries = [e for e in remembered() if e[0] != table.public_id]
    session["tables"] = ([[table.public_id, table.token_version]] + entries)[:REMEMBERED]
    session.permanent = True


def phone_tables() -> list[Table]:
    """The tables this phone may record at, newest first (the start page's list; deleted ones left out)."""
    entries = remembered()
    found = scoring.tables_by_public_id(e[0] for e in entries)
    return [found[pid] for pid, right in entries if pid in found and has_right(found[pid], right)]


def forget(table: Table) -> bool:
    """This phone drops ``table`` from its list (and with it the right to record there)."""
    entries = remembered()
    kept = [e for e in entries if e[0] != table.public_id]
    session["tables"] = kept
    return len(kept) != len(entries)


def has_right(table: Table, right) -> bool:
    """Does a remembered right (a version, or an old session's token) still let this phone record?"""
    if isinstance(right, str):
        return scoring.check_edit_token(table, right)
    return right == table.token_version


def can_edit(table: Table) -> bool:
    """May this phone record at ``table``? Sets ``g.right_revoked`` when it could, until the table's
    share link was reset. An old session's token that still works becomes a version here."""
    g.right_revoked = False
    for public_id, right in remembered():
        if public_id == table.public_id:
            if has_right(table, right):
                if isinstance(right, str):
                    remember(table)  # the token leaves the cookie
                return True
            g.right_revoked = True
            return False
    return False


HOLDERS_KEPT = 20  # tables whose "who holds this phone" answer the session keeps (~40 bytes each)
HOLDER_MAX = 40  # characters of a name typed under "someone else"


def holders() -> dict:
    """{public_id: name} of the tables where this phone said who holds it ("" = someone else, no name)."""
    value = session.get("holders")
    if not isinstance(value, dict):
        return {}
    return {k: v for k, v in value.items() if isinstance(k, str) and isinstance(v, str)}


def set_holder(table: Table, name: str) -> None:
    """Keep who holds this phone at ``table`` (the most recent answers first, a few tables kept)."""
    kept = [(k, v) for k, v in holders().items() if k != table.public_id]
    session["holders"] = dict([(table.public_id, name)] + kept[:HOLDERS_KEPT - 1])


def holder(table: Table) -> str | None:
    """Who this phone said holds it at ``table``: a player's name, a typed name, "" (someone else,
    unnamed), or None when it was not asked yet or the answer named a player who no longer
    plays here (renamed or gone: the table page asks again)."""
    name = holders().get(table.public_id)
    if name is None or not name.startswith("="):  # "=Ana": a player of the table; "~Li": typed
        return None if name is None else name[1:]
    name = name[1:]
    return name if name in pagecache.seated_names(table) else None


def device_label() -> str:
    """Who records from this phone: the player holding it at this table (asked when the phone
    joins), else the name this phone gave itself, else a short description of the browser."""
    table = g.get("table")
    held = holder(table) if table is not None else None
    if held:
        return held[:60]
    name = (request.cookies.get("device") or "").strip()
    if name:
        return name[:60]
    ua = request.headers.get("User-Agent", "")
    for pattern, label in ((r"iPhone", "iPhone"), (r"iPad", "iPad"), (r"Android", "Android"),
                           (r"Windows", "Windows"), (r"Macintosh", "Mac"), (r"Linux", "Linux")):
        if re.search(pattern, ua):
            return label
    return _("unknown device")


def load_table(public_id: str, *, deleted_ok: bool = False) -> Table:
    """The table of the URL, or 404. A deleted table (in its undo window) is a 404 too, except for a
    phone that may record there: it gets the page that brings it back (410)."""
    table = scoring.get_table(public_id)
    if table is None:
        abort(404)
    g.table = table
    g.can_edit = can_edit(table)
    if table.deleted_at is not None and not deleted_ok:
        if not g.can_edit:
            abort(404)
        abort(make_response(render_template("tables/table_deleted.html", table=table,
                                            minutes=scoring.undelete_minutes_left(table)), 410))
    return table


def table_view(write: bool = False, deleted_ok: bool = False):
    """Decorator: load the table from the URL (404 if unknown); ``write`` needs the edit token."""
    def decorator(view):
        @wraps(view)
        def wrapper(public_id, *args, **kwargs):
            table = load_table(public_id, deleted_ok=deleted_ok)
            if write and not g.can_edit:
                if g.right_revoked:
                    abort(403, description=revoked_message(table))
                abort(403, description=_(
                    "This phone can only look at this table. To record or correct hands, open the "
                    "table's share link from a phone that can already record."))
            return view(table, *args, **kwargs)
        return wrapper
    return decorator


def revoked_message(table: Table) -> str:
    """What a phone locked out by "Reset share link" is told: the PIN only when the table has one
    (the reset turned the PIN off; a player may have set a new one since)."""
    if table.pin_hash:
        return _("This table's share link was reset, so this phone can no longer record here. Scan the new "
                 "record code, or join with the table's PIN.")
    return _("This table's share link was reset, so this phone can no longer record here. Scan the new record "
             "code on a phone that can still record.")


def page_number() -> int:
    page = request.args.get("page", 1, type=int)  # not a number (or thousands of digits): page 1
    return page if 0 < page < 10**6 else 1


def rules_module(table: Table):
    return scoring.engine_for(table.game)


def engine_message(error: EngineError) -> str:
    return tr(field_words(error.message))


def format_money(value, table: Table) -> str:
    text = format_decimal(value, format="#,##0.####")
    if value > 0:
        text = "+" + text
    elif text.startswith("-"):
        text = "−" + text[1:]
    return f"{text} {table.currency}".strip()
