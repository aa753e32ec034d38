"""The facts of one hand (helper F's block, moved here unchanged): the fields the settle body
and a table's hand take, their aliases, and the settle request."""
from __future__ import annotations

from typing import Any

from marshmallow import fields, post_load

from ..engine import ENGINES
from ..engine.errors import EngineError
from ..scoring.factcheck import check_numbers

from .errors import InputError, problem, unknown_field_message  # noqa: F401
from .fields import Game, HouseRules, JSONObject, Preset, Request, Stake, game_rules  # noqa: F401


class Fact(fields.Raw):
    """A fact of a hand, passed to the engine, which checks it (the settle body)."""


def strict_numbers(facts: Any, game: str) -> None:
    """InputError 400 'wrong_type' for a number written as text (or true/false) in the facts: the one
    check of every door (:func:`companion.scoring.factcheck.check_numbers`, which the import and the
    pages' writes run too), its error as the API's."""
    if game not in ENGINES:
        return
    try:
        check_numbers(facts, ENGINES[game].describe_facts())
    except EngineError as error:
        raise InputError.from_engine(error) from None



# The facts of one hand (the settle body and a table's hand), as every registered game describes
# them (GameEngine.describe_facts): computed when asked, so a game registered later is described
# too. The engine checks them.
_DESCRIBED: dict = {}


def _described() -> tuple:
    """({fact: (JSON schema, text)}, {alias: fact}) over the games registered now."""
    registry = tuple((key, id(module)) for key, module in ENGINES.items())
    if registry not in _DESCRIBED:
        fields: dict = {}
        aliases: dict = {}
        for key in ENGINES:
            description = ENGINES[key].describe_facts()
            aliases.update(description.aliases())
            for head in description.heads():
                inner = [f for f in description if f.head == head]
                text = f"{description.title}: {inner[0].doc or inner[0].label}"
                schema = description.head_schema(head)
                if head in fields:
                    known, said = fields[head]
                    schema = known if known == schema else {"anyOf": [known, schema]}
                    text = f"{said} · {text}"
                fields[head] = (schema, text)
        _DESCRIBED.clear()
        _DESCRIBED[registry] = (fields, aliases)
    return _DESCRIBED[registry]


class _Described:
    """A read-only mapping computed from the registered games each time it is read."""

    def __init__(self, which: int):
        self._which = which

    def _now(self) -> dict:
        return _described()[self._which]

    def __getitem__(self, key):
        return self._now()[key]

    def __contains__(self, key) -> bool:
        return key in self._now()

    def __iter__(self):
        return iter(self._now())

    def __len__(self) -> int:
        return len(self._now())

    def keys(self):
        return self._now().keys()

    def items(self):
        return self._now().items()

    def values(self):
        return self._now().values()

    def get(self, key, default=None):
        return self._now().get(key, default)


FACT_FIELDS = _Described(0)   # fact -> (JSON schema, text), every registered game's
FACT_ALIASES = _Described(1)  # the other spellings the engines read too ("bombsPlayed")


def _fact_fields() -> dict:
    """The settle body's fact fields: every described fact and alias (each passed to the engine as sent)."""
    return {name: Fact(allow_none=True, metadata={**kind, "description": help_text})
            for name, (kind, help_text) in {**FACT_FIELDS, **{alias: (FACT_FIELDS[name][0], f"= {name}")
                                                              for alias, name in FACT_ALIASES.items()}}.items()}


class _SettleBody(Request):
    game = Game()
    stake = Stake(allow_zero=True)
    preset = Preset()
    rules = HouseRules()
    token = fields.Raw(load_default=None, metadata={"deprecated": True,
                                                    "description": "Ignored (never needed here)."})

    @post_load
    def _per_game(self, data, **kwargs):
        module = data.pop("game")
        rules = game_rules(data, module)
        facts = {key: value for key, value in data.items() if key not in ("stake", "preset", "rules", "token")}
        strict_numbers(facts, module.NAME)
        return {"module": module, "rules": rules, "stake": data.get("stake"), "facts": facts}


class _SettleFacts(_SettleBody):
    def _init_fields(self) -> None:
        for name, field in _fact_fields().items():  # also the facts of a game registered after start-up
            self.declared_fields.setdefault(name, field)
        super()._init_fields()


# The settle body: the request fields, then the facts of the hand (each passed to the engine as sent).
SettleRequest = type("SettleRequest", (_SettleFacts,), _fact_fields())


class Facts(JSONObject):
    """A hand's facts at a table: the settle body's facts (unknown keys refused by name)."""

    @property
    def metadata(self) -> dict:
        """The JSON schema, from the games registered when it is read."""
        return {"type": "object", "additionalProperties": False,
                "properties": {name: dict(field.metadata) for name, field in _fact_fields().items()},
                "description": "The hand as POST /settle takes it, without game, stake, preset and rules."}

    @metadata.setter
    def metadata(self, value) -> None:  # marshmallow sets it in __init__: always computed instead
        pass

    def parse(self, value, key):
        value = super().parse(value, key)
        for name in value:
            if name not in FACT_FIELDS and name not in FACT_ALIASES:
                raise problem("unknown_field", unknown_field_message(name), f"{key}.{name}")
        return value
