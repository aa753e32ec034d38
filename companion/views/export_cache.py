"""Exports cost once per table revision (issue 31): the CSV and JSON exports (pages and API) are
written once per table revision, language and build of the app into files in the instance folder
(``EXPORT_CACHE_DIR``), shared by every worker and process on the host, and served from there to
every later client, with or without ``If-None-Match``. Nothing is ever invalidated: every change to a
table bumps its revision, which is in the key, so a kept file is never stale; the folder is bounded
(``EXPORT_CACHE_FILES`` files, ``EXPORT_CACHE_MB`` in all, the least recently written go first).
``EXPORT_CACHE = False`` streams every export afresh instead (as before issue 31).

Concurrent clients of the same uncomputed export wait on one file lock while the first writes it
(one computation, not eight), but at most ``EXPORT_LOCK_WAIT`` seconds: then they are answered 503
with a Retry-After instead of holding a worker thread for the seconds a long table's first export
takes. Memory stays bounded: the export is written chunk by chunk and sent from the file.

What an export costs the client's heavy-read budget: computing it, a unit per 100 hands
(:func:`companion.middleware.ratelimit.heavy_read_units`); sending it, a unit per started 256 KiB
beyond the first (:func:`companion.middleware.ratelimit.sent_units`, the compressed size for a client
that takes gzip), spent before the bytes go out.

A client that accepts gzip (every browser, ``curl --compressed``) gets the kept file compressed: the
compressed copy is written once, beside the file, the first time one is asked for, never per request
(a JSON export is about a tenth of its size compressed, so a worker thread is held a tenth as long by a
client reading slowly). The compressed answer has its own ETag (``…-gz``) and ``Vary: Accept-Encoding``.
"""
from __future__ import annotations

import fcntl
import hashlib
import os
import tempfile
import time
import zlib
from contextlib import contextmanager
from pathlib import Path

from flask import Response, current_app, request, send_file, stream_with_context
from flask_babel import gettext as _

from ..middleware import ratelimit
from ..middleware.guard import InputRejected
from ..db.models import Table
from .conditional import conditional, table_etag

EXPORT_CACHE_FILES = 64
EXPORT_CACHE_MB = 256
EXPORT_LOCK_WAIT = 1.0  # seconds a request waits for an export another request is writing
EXPORT_BUSY_RETRY = 5   # then: 503, try again in this many seconds


def _folder() -> Path:
    folder = Path(current_app.config.get("EXPORT_CACHE_DIR") or Path(current_app.instance_path) / "export-cache")
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def _name(etag: str, kind: str) -> str:
    """The file of one export: a digest of its ETag (kind, table, revision, language, build) and of the
    export signing key (a new SECRET_KEY signs differently)."""
    key = current_app.config.get("SECRET_KEY") or ""
    key = key.encode() if isinstance(key, str) else bytes(key)
    digest = hashlib.sha256(etag.encode() + b"\0" + hashlib.sha256(key).digest()).hexdigest()[:40]
    return f"{digest}.{kind}"


def _prune(folder: Path, keep: Path) -> None:
    """Keep the folder within its bounds, the oldest files first out (never ``keep``)."""
    files = []
    for path in folder.iterdir():
        if path.suffix in (".lock", ".tmp") or path.name.startswith("."):
            continue
        try:
            stat = path.stat()
        except FileNotFoundError:
            continue
        files.append((stat.st_mtime, stat.st_size, path))
    files.sort()
    most = int(current_app.config.get("EXPORT_CACHE_FILES", EXPORT_CACHE_FILES))
    budget = float(current_app.config.get("EXPORT_CACHE_MB", EXPORT_CACHE_MB)) * 1024 * 1024
    total = sum(size for _mtime, size, _path in files)
    count = len(files)
    for _mtime, size, path in files:
        if count <= most and total <= budget:
            break
        if path == keep:
            continue
        for gone in (path, path.with_suffix(path.suffix + ".lock"), _gzipped(path)):
            try:
                gone.unlink()
            except FileNotFoundError:
                pass
        count -= 1
        total -= size


def _busy() -> InputRejected:
    error = InputRejected(503, "export_busy", _(
        "This export is being prepared for another request just now. Try again in a few seconds; nothing "
        "was changed."), None)
    error.retry_after = EXPORT_BUSY_RETRY
    return error


@contextmanager
def _writing(path: Path, kept: Path):
    """The export's lock, for writing ``kept``: yields False when ``kept`` is there already (written
    by another request meanwhile), True while this request holds the lock and must write it. A
    request that finds the lock taken waits at most ``EXPORT_LOCK_WAIT`` seconds for the file, then is
    answered 503 with a Retry-After: a first export of a long table takes seconds, and clients waiting
    for it must not hold every worker thread while other tables' phones poll."""
    deadline = time.monotonic() + float(current_app.config.get("EXPORT_LOCK_WAIT", EXPORT_LOCK_WAIT))
    with open(path.with_suffix(path.suffix + ".lock"), "a+b") as lock:
        while True:
            if kept.exists():
                yield False
                return
            try:
                fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)  # one writer per export
                break
            except BlockingIOError:
                if time.monotonic() >= deadline:
                    raise _busy() from None
                time.sleep(0.05)
        try:
            yield not kept.exists()
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)


def _write(kept: Path, chunks) -> None:
    """``kept`` written from ``chunks`` through a temporary file (never seen half written)."""
    handle, temporary = tempfile.mkstemp(dir=kept.parent, suffix=".tmp")
    try:
        with os.fdopen(handle, "wb") as out:
            for chunk in chunks:
                out.write(chunk)
        os.replace(temporary, kept)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


def kept_export(table: Table, kind: str, chunks) -> Path:
    """The file holding this export of the table at its revision: written now (``chunks()``: the
    export's byte chunks) unless a worker already wrote it."""
    folder = _folder()
    path = folder / _name(table_etag(table, kind), kind)
    with _writing(path, path) as first:
        if first:
            ratelimit.spend("heavy_read", ratelimit.heavy_read_units(table.hand_seq or 0))
            _write(path, chunks())
    if first:
        _prune(folder, path)
    return path


def _gzipped(path: Path) -> Path:
    return path.with_suffix(path.suffix + ".gz")


def _compressed(path: Path):
    with open(path, "rb") as source:
        packer = zlib.compressobj(6, zlib.DEFLATED, 31)  # the gzip format (wbits 16 + 15), no name, no time
        while block := source.read(1 << 20):
            yield packer.compress(block)
        yield packer.flush()


def kept_gzip(path: Path) -> Path:
    """The compressed copy of a kept export, written once (under the export's lock) from its file."""
    packed = _gzipped(path)
    with _writing(path, packed) as first:
        if first:
            _write(packed, _compressed(path))
    return packed


def _wants_gzip() -> bool:
    return request.accept_encodings["gzip"] > 0 or request.accept_encodings["x-gzip"] > 0


def cached_download(table: Table, kind: str, chunks, content_type: str, filename: str | None = None):
    """The conditional answer of an export (304 for a client holding this revision), its bytes from
    the file kept for the table's revision."""
    if current_app.config.get("EXPORT_CACHE", True) is False:  # off (a read-only instance folder; the bench)
        def streamed():
            ratelimit.spend("heavy_read", ratelimit.heavy_read_units(table.hand_seq or 0))
            response = Response(stream_with_context(chunks()), content_type=content_type)
            if filename:
                response.headers["Content-Disposition"] = f'attachment; filename="{filename}"'
            return response
        return conditional(table_etag(table, kind), streamed)

    packed = _wants_gzip()

    def answer():
        path = kept_export(table, kind, chunks)
        if packed:
            path = kept_gzip(path)
        ratelimit.spend("heavy_read", ratelimit.sent_units(path.stat().st_size))  # what it sends, before it goes
        response = send_file(path, mimetype=content_type, conditional=False, etag=False, last_modified=None,
                             max_age=None)
        response.headers["Content-Type"] = content_type
        if packed:
            response.headers["Content-Encoding"] = "gzip"
        if filename:
            response.headers["Content-Disposition"] = f'attachment; filename="{filename}"'
        return response
    response = conditional(table_etag(table, kind) + ("-gz" if packed else ""), answer)
    response.vary.add("Accept-Encoding")
    return response
