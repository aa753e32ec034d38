"""The shared rules engine: pure Python, no Flask, no database.

Shared pieces: :mod:`.text` (translatable sentences), :mod:`.errors`, :mod:`.switches` (house-rule
switches and Rules from dicts), :mod:`.results` (Reading, Verdict, Settlement), :mod:`.money`
(the stake), :mod:`.cards` (card notation). One package per game, each meeting
:class:`GameEngine`; :data:`ENGINES` is the one list of games, used by the pages, the JSON API
and the CLI.
"""
from __future__ import annotations

from typing import Any, Mapping, Protocol, runtime_checkable

from .described import FactsDescription
from .results import Reading, Settlement, Verdict
from .switches import Switch
from .errors import EngineError
from .text import N_, Text
from .words import GameWords


@runtime_checkable
class GameEngine(Protocol):
    """What every game module provides (the engine contract). The faces (pages, forms, API, CLI,
    review) learn everything game-specific from these names: no caller probes a game module with
    ``getattr``/``hasattr``/``inspect``, and none branches on a game's name."""

    NAME: str                      # the game's key: "gandengyan", "dagong"
    TITLE: str                     # its Chinese name: "干瞪眼", "大冶打拱"
    LABEL: Text                    # the Chinese name with a translatable reading ("干瞪眼 Gan Deng Yan")
    DEALER_WORD: Text              # who leads a hand: "Dealer" (干瞪眼), "Banker" (大冶打拱)
    DEALER_FACT: str               # the fact of a hand that names that player: "dealer", "banker"
    NEXT_DEALER_WORD: Text         # the label of who leads the next hand: "Next dealer", "Next banker"
    FIRST_DEALER_HELP: Text        # the new-table form's help under the first dealer (banker)
    PLAYER_RANGE: tuple[int, int]  # fewest and most players at a table
    OUTCOME_NAMES: Mapping[str, Text]  # outcome kind (a Settlement's ``arch``) -> its name; {} when none
    TALLIES: tuple[str, ...]       # every review figure a hand may tally (Settlement.tallies), summary order
    NUMERIC_FACTS: tuple[str, ...]  # facts that are counts ("losers.*.cards"): JSON numbers only in the API
    VERDICT_ANCHORS: Mapping[str, str]  # check's code -> the rules-page paragraph that explains it
    EXAMPLE_PLAYS: tuple[str, ...]  # plays the rules page shows with their readings
    WORDS: GameWords               # its words: switch, value, preset, play, tally and fact labels (engine/<game>/words.py)
    SWITCHES: Mapping[str, Switch]
    PRESETS: Mapping[str, Any]
    Rules: type

    def rules_from_dict(self, data: Mapping[str, Any] | None = None, preset: str | None = None) -> Any: ...

    def decks(self, rules: Any = None, players: int | None = None) -> int: ...

    def classify(self, cards: Any, rules: Any = None, players: int | None = None) -> tuple: ...

    def check(self, previous: Any, play: Any, rules: Any = None, **opts: Any) -> Verdict: ...

    def answers(self, previous: Any, rules: Any = None, hand: Any = None, *, players: int | None = None,
                previous_as: str | None = None) -> tuple: ...

    def declaration(self, reading: Reading, readings: tuple) -> str | None: ...

    def needed_facts(self, rules: Any = None) -> tuple: ...

    def facts_description(self, rules: Any = None, players: int | None = None) -> dict: ...

    def describe_facts(self, rules: Any = None, players: int | None = None) -> FactsDescription: ...

    def validate_facts(self, facts: Any, rules: Any = None) -> dict: ...

    def used_facts(self, facts: Any, rules: Any = None) -> Any: ...  # without facts the outcome does not use

    def settle(self, facts: Any, rules: Any = None, stake: Any = 1) -> Settlement: ...

    # A STORED hand that ``settle`` now refuses, settled as the earlier engine that accepted it did
    # (raises like ``settle`` when that reading refuses it too); a game whose rules for recording a
    # hand never changed gives ``settle`` itself. Never used for a new hand.
    def settle_as_recorded(self, facts: Any, rules: Any = None, stake: Any = 1) -> Settlement: ...

    def tally_figures(self, rules: Any = None) -> tuple: ...

    def rule_sentences(self, rules: Any = None) -> tuple: ...

    def example_hands(self, names: list) -> list: ...

    def next_dealer(self, facts: Any) -> str: ...


from . import dagong, gandengyan  # noqa: E402  (the games use the shared modules above)

ENGINES: dict[str, GameEngine] = {gandengyan.NAME: gandengyan, dagong.NAME: dagong}


class UnknownGame(EngineError, KeyError):
    """A game the engine does not know (still a KeyError, as it always was)."""

    def __str__(self) -> str:
        return str(self.message)


def engine_for(game: str) -> GameEngine:
    """The module of ``game``; :class:`UnknownGame` (an EngineError and a KeyError) for an unknown
    game or junk (the faces say which games exist)."""
    if isinstance(game, str) and game in ENGINES:
        return ENGINES[game]
    raise UnknownGame(N_("Unknown game '{game}': choose one of {games}.", game=game, games=", ".join(ENGINES)),
                      code="unknown_game", field="game")
