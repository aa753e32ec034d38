"""Sharing a table with the other phones: the address they can reach, QR codes, the live state.

No Flask request here: the views pass in what they read from the request and the config.

* :func:`reachable_base` picks the address a phone on the same network can open: the configured
  ``PUBLIC_URL``; else the address the page was opened on when the server trusts it; else (the
  page was opened on ``localhost`` / ``127.0.0.1``, or under a name nobody configured) this
  machine's address on the local network, the one ``make run`` prints.
* :func:`qr_svg` draws a QR code as SVG with segno (memoised: a pure function of the link).
* :func:`table_revision` is the whole cost of a live poll that finds nothing new: one lookup of
  the table's revision by its unique public id. :func:`live_view` is what the standings and
  hands list show when something changed.
"""
from __future__ import annotations

import io
import ipaddress
import socket
import time
from functools import lru_cache
from urllib.parse import urlsplit

import segno
from sqlalchemy import bindparam, select

from .. import scoring
from ..extensions import db
from ..db.models import Table

LOOPBACK_NAMES = {"localhost", "localhost.localdomain", "ip6-localhost"}


# --------------------------------------------------------------------------------------------
# The address phones can reach


_lan_cache: tuple[float, list[str]] = (0.0, [])
LAN_CACHE_SECONDS = 30


def lan_addresses() -> list[str]:
    """This machine's IPv4 addresses on the local network (the route to the outside first).

    Looked up at most every 30 s (resolving the host name may be slow where DNS is broken)."""
    global _lan_cache
    now = time.monotonic()
    if now - _lan_cache[0] > LAN_CACHE_SECONDS:
        _lan_cache = (now, _find_lan_addresses())
    return list(_lan_cache[1])


def _find_lan_addresses() -> list[str]:
    found: list[str] = []
    try:
        s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        try:
            s.connect(("192.0.2.1", 9))  # TEST-NET address: a UDP connect sends no packet
            found.append(s.getsockname()[0])
        finally:
            s.close()
    except OSError:
        pass
    try:
        for info in socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET):
            found.append(info[4][0])
    except OSError:
        pass
    out = []
    for address in found:
        if address not in out and not ipaddress.ip_address(address).is_loopback:
            out.append(address)
    return out


def split_host(host: str) -> tuple[str, str]:
    """``"name:port"`` / ``"[::1]:5000"`` -> (name, port or "")."""
    parts = urlsplit("//" + host)
    try:
        port = str(parts.port) if parts.port else ""
    except ValueError:
        port = ""
    return (parts.hostname or "").lower(), port


def is_loopback(name: str) -> bool:
    if name in LOOPBACK_NAMES:
        return True
    try:
        return ipaddress.ip_address(name).is_loopback
    except ValueError:
        return False


def _join(scheme: str, name: str, port: str) -> str:
    if ":" in name:  # IPv6 literal
        name = f"[{name}]"
    default = {"http": "80", "https": "443"}.get(scheme)
    return f"{scheme}://{name}" + (f":{port}" if port and port != default else "")


def reachable_base(*, public_url: str | None, scheme: str, host: str,
                   trusted_hosts: list[str] | None) -> tuple[str, bool]:
    """(base URL without a trailing slash, whether other phones can probably reach it).

    ``host`` is the request's host. It is used as it is only when the server trusts it: it is
    one of the configured ``TRUSTED_HOSTS`` (Flask refuses any other before a view runs), or an
    IP address of this machine. Anything else, and ``localhost``, becomes this machine's LAN
    address (with the same port), so a forged ``Host`` header never reaches a share link.
    """
    if public_url:
        return public_url.rstrip("/"), True
    name, port = split_host(host)
    lan = lan_addresses()
    if not is_loopback(name) and (trusted_hosts or name in lan):
        return _join(scheme, name, port), True
    if lan:
        return _join(scheme, lan[0], port), True
    return _join(scheme, name if is_loopback(name) else "127.0.0.1", port), False


def trusted_base(*, public_url: str | None, scheme: str, host: str, trusted_hosts: list[str] | None) -> str:
    """The base of absolute links in answers (the API's ``urls``, with the share link): ``PUBLIC_URL``;
    else the request's host when the server trusts it (``TRUSTED_HOSTS`` set, so Flask refused any
    other; this machine's loopback or LAN address); else :func:`reachable_base`'s LAN address. A
    forged ``Host`` header is never reflected into a link that carries the edit token."""
    if public_url:
        return public_url.rstrip("/")
    name, port = split_host(host)
    if trusted_hosts or is_loopback(name) or name in lan_addresses():
        return _join(scheme, name, port)
    return reachable_base(public_url=None, scheme=scheme, host=host, trusted_hosts=None)[0]


# --------------------------------------------------------------------------------------------
# QR codes


@lru_cache(maxsize=512)
def qr_svg(url: str, title: str = "") -> str:
    """An SVG QR code of ``url`` (no XML declaration, no fixed size, no inline style: the page's
    CSS sizes it). Error correction M: readable off a phone screen at arm's length."""
    code = segno.make(url, error="m", micro=False)
    out = io.BytesIO()
    code.save(out, kind="svg", xmldecl=False, svgns=True, scale=1, border=2, omitsize=True,
              svgclass="qr", lineclass=None, dark="#000", light="#fff", title=title or None)
    return out.getvalue().decode("utf-8").strip()


# --------------------------------------------------------------------------------------------
# The live state of a table


# Built once: the poll only binds the public id (tables.public_id has a unique index).
_REVISION = select(Table.revision).where(Table.public_id == bindparam("public_id"))


def table_revision(public_id: str) -> int | None:
    """The table's revision (it goes up with every change to the table or its hands), or None.

    The cheapest read through SQLAlchemy: the statement above, compiled once per database and
    sent as its SQL text on a pooled connection (no ORM session, no compiling per poll; still
    seen by SQLAlchemy's events, so tests count it). On PostgreSQL the one read runs outside a
    transaction (autocommit), which saves the BEGIN and ROLLBACK round trips; SQLite's driver
    starts no transaction for a read anyway."""
    engine = db.engine
    sql, positional = _compiled_revision(engine.dialect)
    with engine.connect() as connection:
        if engine.dialect.name != "sqlite":
            connection.execution_options(isolation_level="AUTOCOMMIT")
        return connection.exec_driver_sql(sql, (public_id,) if positional else {"public_id": public_id}).scalar()


_COMPILED: dict = {}


def _compiled_revision(dialect) -> tuple[str, bool]:
    """``_REVISION`` as this database's SQL text, and whether it takes positional parameters."""
    found = _COMPILED.get(dialect.name)
    if found is None:
        compiled = _REVISION.compile(dialect=dialect)
        found = _COMPILED[dialect.name] = (str(compiled), bool(compiled.positional))
    return found


def live_view(table: Table, page: int, per_page: int) -> dict:
    """What the live part of the table page shows: standings, counts, dealer and one page of hands."""
    hands, deltas = scoring.hands_page(table, page, per_page)
    counted, total = scoring.hand_counts(table)
    return {"table": table, "players": table.players, "standings": scoring.standings(table),
            "hands": hands, "deltas": deltas, "counted": counted, "total": total, "page": page,
            "pages": max(1, -(-total // per_page)), "dealer": scoring.current_dealer(table),
            "next_undo": scoring.next_undo(table), "in_money": scoring.in_money(table),
            "stakes": scoring.stake_changes(table)}
