"""Configuration defaults. Secrets and the database come from the environment or the instance folder."""
from __future__ import annotations

import os
import secrets
import time
from pathlib import Path


def secret_key(instance_path: str) -> str:
    """SECRET_KEY from the environment, else a random key created once in the instance folder."""
    if os.environ.get("SECRET_KEY"):
        return os.environ["SECRET_KEY"]
    path = Path(instance_path) / "secret_key"
    try:  # several gunicorn workers may start at once: exactly one creates the file
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        pass
    else:
        with os.fdopen(fd, "w") as fh:
            fh.write(secrets.token_urlsafe(48))
    for _ in range(100):  # another worker may still be writing it
        key = path.read_text().strip()
        if key:
            return key
        time.sleep(0.02)
    raise RuntimeError(f"{path} is empty: delete it, or set SECRET_KEY in the environment")


def database_url(instance_path: str) -> str:
    """DATABASE_URL from the environment (postgresql://… is normalised to psycopg 3), else SQLite."""
    url = os.environ.get("DATABASE_URL")
    if not url:
        return "sqlite:///" + str(Path(instance_path) / "companion.sqlite3")
    if url.startswith("postgres://"):
        url = "postgresql://" + url[len("postgres://"):]
    if url.startswith("postgresql://"):
        url = "postgresql+psycopg://" + url[len("postgresql://"):]
    return url


def from_environment() -> dict:
    """PUBLIC_URL (the address share links and QR codes use), TRUSTED_HOSTS (comma-separated
    host names the server answers to; any other Host header gets 400) and TRUSTED_PROXIES (how many
    reverse proxies stand in front; 0, the default, trusts no X-Forwarded-* header) from the environment."""
    out: dict = {}
    if os.environ.get("PUBLIC_URL"):
        out["PUBLIC_URL"] = os.environ["PUBLIC_URL"].strip().rstrip("/")
    if os.environ.get("TRUSTED_PROXIES", "").strip().isdigit():
        out["TRUSTED_PROXIES"] = int(os.environ["TRUSTED_PROXIES"])
    if os.environ.get("TRUSTED_HOSTS"):
        out["TRUSTED_HOSTS"] = [h.strip() for h in os.environ["TRUSTED_HOSTS"].split(",") if h.strip()]
    return out


def engine_options(url: str, options: dict) -> dict:
    """The engine options for ``url``: a SQLite file never drops a connection, so it needs no
    ping before each use (one statement saved on every request); a server database keeps it
    (a restarted PostgreSQL must not turn the next requests into errors)."""
    if url.startswith("sqlite"):
        return {**options, "pool_pre_ping": False}
    return options


class Defaults:
    SQLALCHEMY_ENGINE_OPTIONS = {"pool_pre_ping": True}  # see engine_options
    WTF_CSRF_TIME_LIMIT = None  # a table stays open all evening; the token lives with the session
    BABEL_DEFAULT_LOCALE = "en"
    BABEL_TRANSLATION_DIRECTORIES = "translations"
    LANGUAGES = ["en", "zh", "fr", "id", "ar", "ko"]
    HANDS_PER_PAGE = 25
    SESSION_COOKIE_SAMESITE = "Lax"
    MAX_CONTENT_LENGTH = 64 * 1024  # every body: JSON or form (an answer 413 in the usual error shape)
    IMPORT_MAX_BYTES = 2 * 1024 * 1024  # the largest table file an import takes (refused before it is read)
    PUBLIC_URL = None  # e.g. "https://cards.example.org": share links and QR codes use it
    DUPLICATE_WINDOW_SECONDS = 600  # the same facts again from the same phone within this: ask first
    LIVE_POLL_SECONDS = 3  # how often an open table page asks whether anything changed
