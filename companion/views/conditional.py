"""The one conditional answer of the table pages: an ETag per table revision (every change to a
table bumps it), language and build of the app; a client that holds it gets a 304 before anything
is read or drawn. Used by the review pages, a table's history and the API's exports."""
from __future__ import annotations

import functools
import hashlib
from pathlib import Path

from flask import Response, current_app, g, request, session
from flask_babel import get_locale

from ..db.models import Table
from ..middleware import ratelimit

def table_etag(table: Table, kind: str, *parts) -> str:
    """The ETag of one answer about a table: its kind, the table's revision (every change to a table
    bumps it), the language, the app's build, and ``parts`` (page, right to record ...): whatever else
    the bytes depend on, so that it differs whenever they would."""
    return "-".join(str(p) for p in (kind, table.public_id, table.revision, get_locale(), build_tag(), *parts))


@functools.lru_cache(maxsize=1)
def build_tag() -> str:
    """A short digest of the app's templates, code and catalogs: a new version of the app changes every
    ETag, so no browser keeps a page drawn by the previous one."""
    root = Path(current_app.root_path)
    digest = hashlib.sha256()
    for folder, pattern in ((Path(current_app.template_folder or "templates"), "**/*.html"),
                            (root, "**/*.py"), (root, "**/*.mo")):
        folder = folder if folder.is_absolute() else root / folder
        for path in sorted(folder.glob(pattern)):
            digest.update(path.read_bytes())
    return digest.hexdigest()[:10]


def conditional(etag: str, answer, cache_control: str = "private, no-cache") -> Response:
    """The one conditional answer: 304 when the client holds ``etag`` (nothing read, nothing drawn),
    else ``answer()`` (a view's return value) with the ETag; never stored without revalidation."""
    if request.if_none_match.contains(etag):
        response = Response(status=304)
    else:
        ratelimit.charge_heavy_read()  # an expensive read pays its unit when drawn, never for a 304
        response = current_app.make_response(answer())
    response.set_etag(etag)
    response.headers["Cache-Control"] = cache_control
    return response


def review_page(table: Table, kind: str, answer, *parts):
    """A review page (score sheet, chart, summary, settle up, a hand's history), conditional on
    :func:`table_etag`. A page with a message waiting (flash) is drawn afresh, without an ETag."""
    if session.get("_flashes"):
        ratelimit.charge_heavy_read()
        return answer()
    return conditional(table_etag(table, kind, "e" if g.get("can_edit") else "v", *parts), answer)
