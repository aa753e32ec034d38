"""The shared rules engine: pure Python, no Flask, no database.

Shared pieces: :mod:`.text` (translatable sentences), :mod:`.errors`, :mod:`.switches` (house-rule
switches and Rules from dicts), :mod:`.results` (Reading, Verdict, Settlement), :mod:`.money`
(the stake), :mod:`.cards` (card notation). One package per game, each meeting
:class:`GameEngine`; :data:`ENGINES` is the one list of games, used by the pages, the JSON API
and the CLI.
"""
from __future__ import annotations

from typing import Any, Mapping, Protocol, runtime_checkable

from .results import Settlement, Verdict
from .switches import Switch


@runtime_checkable
class GameEngine(Protocol):
    """What every game module provides (the engine contract)."""

    NAME: str                      # the game's key: "gandengyan", "dagong"
    TITLE: str                     # its Chinese name: "干瞪眼", "大冶打拱"
    PLAYER_RANGE: tuple[int, int]  # fewest and most players at a table
    SWITCHES: Mapping[str, Switch]
    PRESETS: Mapping[str, Any]
    Rules: type

    def rules_from_dict(self, data: Mapping[str, Any] | None = None, preset: str | None = None) -> Any: ...

    def classify(self, cards: Any, rules: Any = None) -> tuple: ...

    def check(self, previous: Any, play: Any, rules: Any = None, **opts: Any) -> Verdict: ...

    def needed_facts(self, rules: Any = None) -> tuple: ...

    def validate_facts(self, facts: Any, rules: Any = None) -> dict: ...

    def used_facts(self, facts: Any, rules: Any = None) -> Any: ...  # without facts the outcome does not use

    def settle(self, facts: Any, rules: Any = None, stake: Any = 1) -> Settlement: ...

    def next_dealer(self, facts: Any) -> str: ...


from . import dagong, gandengyan  # noqa: E402  (the games use the shared modules above)

ENGINES: dict[str, GameEngine] = {gandengyan.NAME: gandengyan, dagong.NAME: dagong}


def engine_for(game: str) -> GameEngine:
    """The module of ``game``; KeyError for an unknown game (the faces say which games exist)."""
    return ENGINES[game]
