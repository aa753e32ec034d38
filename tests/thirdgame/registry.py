"""The games the registry-wide tests run over: every game the app registers, and the fixture games
kept under the tests (斗地主, :mod:`thirdgame.doudizhu`), registered the documented way (put in
:data:`companion.engine.ENGINES`) by the ``fixture_games`` fixture of ``tests/conftest.py`` for
the test that asks. A test never lists the games by hand: it takes them from here."""
from companion.engine import ENGINES

from . import doudizhu

FIXTURES = {doudizhu.NAME: doudizhu}


def every_game() -> dict:
    """``{key: module}`` of the app's games and the fixture games (the app's first, in their order)."""
    return {**ENGINES, **FIXTURES}


def every_name() -> list:
    return list(every_game())
