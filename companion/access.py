"""Who may record at a table: the edit token (derived, never stored), its reset, the table PIN.

* The edit token is DERIVED from the server's secret: ``base64url(HMAC-SHA256(SECRET_KEY,
  "edit:<public_id>:<token_version>"))[:32]`` (192 bits). The database keeps only
  ``token_version`` and ``edit_token_hash`` (SHA-256 of the current token), so a copy of the
  database alone gives no token, while the server can still show the current record link (and
  its QR code) to a phone that may record.
* ``token_version`` 0 marks a *legacy* table: its token was random and stored before this scheme;
  the migration kept only its hash, so it still works but can never be shown again (the share
  panel offers to reset the link). A new or imported table starts at version 1.
* :func:`reset_token` moves to the next version: every phone that joined with the old link (its
  session right names the old version) and every API client holding the old token loses access.
  The PIN is cleared with it, since it is another way in.
* The optional 6-digit PIN is kept as a salted hash (werkzeug's ``generate_password_hash``).
  Attempts are counted in the database (``companion.middleware.ratelimit``), so the limit holds across workers.

This module is a service: no request, no session (the views keep the per-phone rights).
"""
from __future__ import annotations

import base64
import hashlib
import hmac
import re
import unicodedata
from typing import Any

from flask import current_app
from sqlalchemy import update
from werkzeug.security import check_password_hash, generate_password_hash

from .extensions import db
from .db.models import Table, new_public_id, utcnow

TOKEN_LENGTH = 32
LEGACY = 0  # token_version of a table whose token was stored before tokens were derived
PIN_PATTERN = re.compile(r"[0-9]{6}")
RECOGNISED_VERSIONS = 50  # how many earlier versions a refused token is compared with


def _secret() -> bytes:
    key = current_app.config["SECRET_KEY"]
    return key.encode() if isinstance(key, str) else bytes(key)


def derive_token(public_id: str, version: int) -> str:
    """The edit token of ``public_id`` at ``version`` (this server's secret key decides it)."""
    digest = hmac.new(_secret(), f"edit:{public_id}:{version}".encode(), hashlib.sha256).digest()
    return base64.urlsafe_b64encode(digest).decode().rstrip("=")[:TOKEN_LENGTH]


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def issue_token(table: Table, version: int = 1) -> str:
    """Give a table that is about to be stored (or reset) the token of ``version``; returns it."""
    if not table.public_id:
        table.public_id = new_public_id()
    token = derive_token(table.public_id, version)
    table.token_version = version
    table.edit_token_hash = token_hash(token)
    return token


def edit_token(table: Table) -> str | None:
    """The table's current edit token, or None when the server cannot show it: a legacy table, or
    a server whose SECRET_KEY changed since the token was made (its hash no longer matches)."""
    if not table.token_version:
        return None
    token = derive_token(table.public_id, table.token_version)
    return token if hmac.compare_digest(token_hash(token), table.edit_token_hash or "") else None


def check_edit_token(table: Table, token: Any) -> bool:
    """Is ``token`` the table's current edit token? (Constant-time comparison of the hashes.)"""
    if not isinstance(token, str) or not token or len(token) > 200:
        return False
    return hmac.compare_digest(token_hash(token), table.edit_token_hash or "")


def was_reset(table: Table, token: Any) -> bool:
    """Was ``token`` once this table's edit token, before its share link was reset? (Recognises the
    last :data:`RECOGNISED_VERSIONS` versions; a legacy token cannot be recognised.)"""
    if not isinstance(token, str) or not token or len(token) > 200 or table.token_version < 2:
        return False
    given = token_hash(token)
    oldest = max(1, table.token_version - RECOGNISED_VERSIONS)
    return any(hmac.compare_digest(given, token_hash(derive_token(table.public_id, version)))
               for version in range(oldest, table.token_version))


def reset_token(table: Table) -> str:
    """A new edit token (the next version); the old one, every right made with it and the PIN stop
    working. Bumps the table's revision, so every open page refreshes what it shows. Commits."""
    db.session.execute(update(Table).where(Table.id == table.id)
                       .values(revision=Table.revision + 1, token_version=Table.token_version + 1,
                               updated_at=utcnow())
                       .execution_options(synchronize_session=False))
    db.session.refresh(table, ["revision", "token_version"])  # the row is locked until the commit
    token = issue_token(table, table.token_version)
    table.pin_hash = None
    db.session.commit()
    return token


# --------------------------------------------------------------------------------------------
# The table PIN


def pin_digits(pin: Any) -> str | None:
    """The one reading of a typed PIN (every door: the PIN form, the join form, a pasted key): 6
    decimal digits of any script (full-width ０１２, Arabic-Indic ٠١٢, Persian ۰۱۲ …, as a phone's
    keyboard may type them) as the ASCII digits 0–9, spaces around dropped; None if it is not 6 digits."""
    if not isinstance(pin, str) or len(pin) > 40:
        return None
    ascii_digits = "".join(str(unicodedata.decimal(c)) if c.isdecimal() else c for c in pin.strip())
    return ascii_digits if PIN_PATTERN.fullmatch(ascii_digits) else None


def valid_pin(pin: Any) -> bool:
    return pin_digits(pin) is not None


def set_pin(table: Table, pin: str | None) -> None:
    """Set (6 digits, read by :func:`pin_digits`) or clear (None) the table's PIN. Commits."""
    digits = pin_digits(pin) if pin is not None else None
    if pin is not None and digits is None:
        raise ValueError("a PIN is 6 digits")
    table.pin_hash = generate_password_hash(digits) if digits is not None else None
    db.session.commit()


def check_pin(table: Table, pin: Any) -> bool:
    digits = pin_digits(pin)
    return bool(table.pin_hash) and digits is not None and check_password_hash(table.pin_hash, digits)
