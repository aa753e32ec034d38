"""The fixture game kept under the tests: 斗地主 (:mod:`thirdgame.doudizhu`), listed for the suite by
:mod:`thirdgame.registry`. Nothing of ``companion/``, ``templates/`` or ``static/`` names it."""
