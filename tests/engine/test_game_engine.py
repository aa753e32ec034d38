"""Every game meets the whole GameEngine contract, so no face needs to probe a game module."""
import inspect

import pytest

from companion.engine import GameEngine
from companion.engine.text import Text
from thirdgame.registry import every_game, every_name

GAMES = every_name()  # the app's games and the fixture games (斗地主)


def _members():
    hints = GameEngine.__annotations__
    methods = [name for name, value in vars(GameEngine).items() if inspect.isfunction(value) and not name.startswith("_")]
    return hints, methods


@pytest.mark.parametrize("game", GAMES)
def test_each_game_has_every_name_of_the_contract(game):
    module = every_game()[game]
    assert isinstance(module, GameEngine)
    hints, methods = _members()
    for name in list(hints) + methods:
        assert hasattr(module, name), f"{game} lacks {name}"
    assert module.NAME == game
    assert isinstance(module.LABEL, Text) and module.TITLE in module.LABEL
    assert isinstance(module.DEALER_WORD, Text)
    assert isinstance(module.NEXT_DEALER_WORD, Text) and isinstance(module.FIRST_DEALER_HELP, Text)
    assert all(isinstance(name, Text) for name in module.OUTCOME_NAMES.values())
    low, high = module.PLAYER_RANGE
    assert 2 <= low <= high


@pytest.mark.parametrize("game", GAMES)
def test_each_game_function_takes_the_contracts_parameters(game):
    """Same parameter names as the Protocol (a caller may pass any of them by keyword)."""
    module = every_game()[game]
    _, methods = _members()
    for name in methods:
        wanted = [p for p in inspect.signature(getattr(GameEngine, name)).parameters if p != "self"]
        have = inspect.signature(getattr(module, name)).parameters
        for param in wanted:
            if inspect.signature(getattr(GameEngine, name)).parameters[param].kind is inspect.Parameter.VAR_KEYWORD:
                continue
            assert param in have, f"{game}.{name} lacks parameter {param}"


@pytest.mark.parametrize("game, cards, players", [("gandengyan", "5 JK", 3), ("dagong", "5 5 JK", 4)])
def test_classify_takes_players_and_every_reading_has_a_declaration(game, cards, players):
    module = every_game()[game]
    readings = module.classify(cards, module.Rules(), players=players)
    assert readings
    for reading in readings:
        word = module.declaration(reading, readings)
        assert word is None or isinstance(word, str)


@pytest.mark.parametrize("game", GAMES)
def test_decks_is_a_positive_count(game):
    module = every_game()[game]
    assert module.decks(module.Rules(), module.PLAYER_RANGE[0]) >= 1


def test_no_face_probes_a_game_module():
    """No getattr/hasattr/inspect on a game module outside the engine (the contract says it all)."""
    import pathlib
    import re

    root = pathlib.Path(__file__).resolve().parents[2] / "companion"
    probe = re.compile(r"(getattr|hasattr)\((module|engine|game_module|scoring\.engine_for\([^)]*\))\b|inspect\.signature")
    found = [f"{path.relative_to(root)}:{n}" for path in root.rglob("*.py") if "engine" not in path.parts
             for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1) if probe.search(line)]
    assert found == []
