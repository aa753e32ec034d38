"""The games as the faces read them: views of the engine's registry (:data:`companion.engine.ENGINES`)
that read it on every use, never a copy made at import time, so that a game registered later (a
third game, or the fixture game of ``tests/thirdgame``) is everywhere the others are.
Reading a module's attribute is cheaper than any cache, so nothing is cached."""
from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from typing import Any

from .engine import ENGINES


class ByGame(Mapping):
    """``{game key: read(its engine module)}``, read from the registry when asked."""

    def __init__(self, read: Callable[[Any], Any]):
        self._read = read

    def __getitem__(self, game: str) -> Any:
        return self._read(ENGINES[game])

    def __iter__(self) -> Iterator[str]:
        return iter(ENGINES)

    def __len__(self) -> int:
        return len(ENGINES)
