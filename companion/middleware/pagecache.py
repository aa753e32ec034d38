"""Rendered parts of pages, kept per table revision and language (issue 22: pages that do not
grow with the table).

One cache, one rule: a part of a page is kept under a key that names everything its bytes depend
on, and the table's **revision** is part of the key of everything drawn from a table. Every change
to a table or its hands goes through ``scoring``, which bumps the revision first, so a stored part
can never be stale: a write makes a new key, and the old entry simply ages out of the LRU. Nothing
is ever invalidated by hand, and nothing here is needed for correctness (a miss draws the part
again). Each worker process keeps its own small LRU.

Used by the live block of the table page and the live poll (``views/live.py``), the table's house
rules, the other parts of the table page that hold nothing of the phone (``table_part`` in
``table.html``), the history pages (one page of events per revision, hand, page and language) and
the page furniture that depends on the language only (the footer and the outbox's sentences in
``base.html``).

What a kept part may NOT contain: anything of one phone or one request (a CSRF token, a flash
message, the right to record unless it is in the key, the address the page was opened on).
Those stay in the page template around the kept parts.
"""
from __future__ import annotations

import threading
from collections import OrderedDict
from typing import Callable

from flask import current_app
from flask_babel import get_locale
from markupsafe import Markup


class FragmentCache:
    """Rendered parts, keyed by a tuple naming what they depend on (see the module's docstring).

    Thread-safe (gunicorn's threads share it); least recently used entries go first. Bounded by
    the characters it holds (``max_chars``, 32 million: about 32 MB of mostly ASCII HTML per
    worker), not by a number of entries: a table in use holds about ten parts of very different
    sizes (a 17 KB live block, a 300-byte notice, a history page of up to ~100 KB …) per language,
    so a count either wasted memory or, at a few hundred tables in use, evicted the parts of
    tables still playing — every page load and poll after a hand then drew its parts again (the
    evening mix of ``make load`` fell off that cliff at about 150 tables per worker). 32 MB keep
    about 1,400 tables of one language."""

    def __init__(self, max_chars: int = 32_000_000):
        self.max_chars = max_chars
        self.chars = 0
        self.entries: OrderedDict = OrderedDict()
        self.lock = threading.Lock()

    @staticmethod
    def _size(value) -> int:
        return len(getattr(value, "html", value)) + 200  # the key, the tuple, the dict slot

    def get(self, key):
        with self.lock:
            value = self.entries.get(key)
            if value is not None:
                self.entries.move_to_end(key)
            return value

    def put(self, key, value) -> None:
        with self.lock:
            old = self.entries.pop(key, None)
            if old is not None:
                self.chars -= self._size(old)
            self.entries[key] = value
            self.chars += self._size(value)
            while self.chars > self.max_chars and len(self.entries) > 1:
                _, evicted = self.entries.popitem(last=False)
                self.chars -= self._size(evicted)

    def clear(self) -> None:
        with self.lock:
            self.entries.clear()
            self.chars = 0


fragments = FragmentCache()


def render_block(template_name: str, block: str, context: dict) -> str:
    """Render one block of a template with the usual context (context processors included)."""
    app = current_app._get_current_object()
    template = app.jinja_env.get_template(template_name)
    app.update_template_context(context)
    return "".join(template.blocks[block](template.new_context(context)))


def language() -> str:
    return str(get_locale())


def block(key: tuple, template_name: str, block_name: str, context: Callable[[], dict],
          budget: str | None = None) -> Markup:
    """``block_name`` of ``template_name`` rendered with ``context()``, kept under ``key`` + the
    language. ``context`` is called only on a miss (it is where the database is read); an abort in
    it (a page past the end) stores nothing. ``budget``: the rate-limit bucket a miss is counted
    in, before anything is read (429 past the limit); a hit costs no count."""
    full_key = ("block", template_name, block_name, *key, language())
    html = fragments.get(full_key)
    if html is None:
        if budget is not None:
            from . import ratelimit

            ratelimit.check(budget)
        html = Markup(render_block(template_name, block_name, context()))
        fragments.put(full_key, html)
    return html


def table_part(template_name: str, block_name: str, table, **params) -> Markup:
    """A block of a table's page that depends on the table (its revision), ``params`` (hashable:
    the page number, the right to record …) and the language, and on nothing of the request."""
    return block((table.public_id, table.revision, *sorted(params.items())), template_name, block_name,
                 lambda: {"table": table, **params})


def seated_names(table) -> tuple:
    """The names of the players seated at ``table`` now, kept per revision (every change of players
    bumps it): the table page asks who holds the phone without reading the players again."""
    key = ("seated", table.public_id, table.revision)
    names = fragments.get(key)
    if names is None:
        names = tuple(table.player_names)
        fragments.put(key, names)
    return names


def init_app(app) -> None:
    """Template globals: ``table_part`` (above) and ``language_part(template, **params)``: a
    template that depends on the language and ``params`` only (hashable: a table's public id …),
    nothing of the request or the phone, drawn once per language and worker."""

    def language_part(template_name: str, **params) -> Markup:
        key = ("language_part", template_name, *sorted(params.items()), language())
        html = fragments.get(key)
        if html is None:
            context = dict(params)
            app.update_template_context(context)
            html = Markup(app.jinja_env.get_template(template_name).render(context))
            fragments.put(key, html)
        return html

    app.jinja_env.globals["language_part"] = language_part
    app.jinja_env.globals["table_part"] = table_part
    app.jinja_env.globals["seated_names"] = seated_names
