"""The facts of one hand (helper F's block, moved here unchanged): the fields the settle body
and a table's hand take, their aliases, and the settle request."""
from __future__ import annotations

from typing import Any

from flask_babel import gettext as _
from marshmallow import fields, post_load

from ..engine import ENGINES

from .errors import InputError, _show, problem, unknown_field_message  # noqa: F401
from .fields import Game, HouseRules, JSONObject, Preset, Request, Stake, game_rules  # noqa: F401


class Fact(fields.Raw):
    """A fact of a hand, passed to the engine, which checks it (the settle body)."""


def strict_numbers(facts: Any, game: str) -> None:
    """InputError 400 'wrong_type' for a number written as text (or true/false) in the facts."""
    def walk(node, parts, path):
        if not parts:
            if isinstance(node, (str, bool)):
                raise InputError(400, "wrong_type",
                                 _("\"%(field)s\" must be a number such as 3, not %(value)s.",
                                   field=".".join(path), value=_show(node)), ".".join(path))
            return
        head, rest = parts[0], parts[1:]
        if head == "*":
            items = node.items() if isinstance(node, dict) else enumerate(node) if isinstance(node, list) else ()
            for key, value in items:
                walk(value, rest, path + [str(key)])
        elif isinstance(node, dict) and head in node and node[head] is not None:
            walk(node[head], rest, path + [head])

    for pattern in (ENGINES[game].NUMERIC_FACTS if game in ENGINES else ()):  # the engine says which facts count
        walk(facts, pattern.split("."), [])



# The facts of one hand, by game (the settle body and a table's hand). The engine checks them.
_NAMES = {"type": "array", "items": {"type": "string"}}
_SIZES = {"type": "array", "items": {"type": "integer"}}
FACT_FIELDS = {
    "players": (_NAMES, "Names in seat order (大冶打拱: 4)."),
    "winner": ({"type": "string"}, "干瞪眼: who went out first."),
    "losers": ({"type": "object"}, "干瞪眼: {name: {cards, jokers, twos?, held_bombs?, played?, "
                                   "dealer_only_opening?}}."),
    "dealer": ({"type": "string"}, "干瞪眼: the dealer of the hand."),
    "bombs_played": (_SIZES, "干瞪眼: sizes of the bombs played."),
    "tricks": ({"type": "integer"}, "干瞪眼: tricks played."),
    "banker": ({"type": "string"}, "大冶打拱: the banker."),
    "partner": ({"type": "string"}, "大冶打拱: the banker's partner, or null."),
    "shout": ({"type": "string"}, "大冶打拱: who shouted, or null."),
    "order": (_NAMES, "大冶打拱: who went out, first out first."),
    "captured": ({"type": "object", "additionalProperties": {"type": "integer"}}, "大冶打拱: {name: points captured}."),
    "last_hand_points": ({"type": "integer"}, "大冶打拱: points left in the last player's hand."),
    "bright_card": ({"type": "string"}, "大冶打拱: the bright card, optional."),
    "xi_bombs": ({"type": "object", "additionalProperties": _SIZES},
                 "大冶打拱: {name: [sizes of hard 7- or 8-card bombs]} (喜钱)."),
}
FACT_ALIASES = {"bombsPlayed": "bombs_played"}  # the spellings the engines read too


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


# The settle body: the request fields, then the facts of the hand (each passed to the engine as sent).
SettleRequest = type("SettleRequest", (_SettleBody,), {
    name: Fact(allow_none=True, metadata={**kind, "description": help_text})
    for name, (kind, help_text) in {**FACT_FIELDS, **{alias: (FACT_FIELDS[name][0], f"= {name}")
                                                      for alias, name in FACT_ALIASES.items()}}.items()})



class Facts(JSONObject):
    """A hand's facts at a table: the settle body's facts (unknown keys refused by name)."""

    def __init__(self, **kwargs):
        metadata = {"type": "object", "additionalProperties": False,
                    "properties": {name: {**kind, "description": text} for name, (kind, text) in FACT_FIELDS.items()},
                    "description": "The hand as POST /settle takes it, without game, stake, preset and rules."}
        super().__init__(metadata=metadata, **kwargs)

    def parse(self, value, key):
        value = super().parse(value, key)
        for name in value:
            if name not in FACT_FIELDS and name not in FACT_ALIASES:
                raise problem("unknown_field", unknown_field_message(name), f"{key}.{name}")
        return value
