"""Answer schemas of the rules side and of errors: each writes its answer (``dump`` from the engine's
values) and describes it in the OpenAPI document, so the two cannot differ. The answers about
tables and hands are in ``table_answers``."""
from __future__ import annotations

from marshmallow import fields, post_dump, pre_dump

from ..engine.cards import RANK_NAMES, format_cards
from ..engine.public import rules_to_dict
from .output import Answer, Link, Number, Sentence, jsonable


def _str(**kw):
    return fields.String(required=True, **kw)


def _nullable_str(**kw):
    return fields.String(required=True, allow_none=True, **kw)


class ErrorDetail(Answer):
    code = _str(metadata={"description": "A stable machine code (see docs/api.md)."})
    message = _str(metadata={"description": "One sentence in the request's language: what and how to fix it."})
    field = _nullable_str(metadata={"description": "The input that is wrong (\"play\", \"losers.B.jokers\"), or null."})


class ErrorAnswer(Answer):
    error = fields.Nested(ErrorDetail, required=True)
    errors = fields.List(fields.Nested(ErrorDetail), metadata={
        "description": "When the rules engine refused the input: every problem it found, each with its own code, "
                       "message and field, the first being `error` (a hand with three mistakes lists three). "
                       "Absent for errors found before the engine (JSON, types, the edit token)."})


def _reading_text(reading) -> str:
    values = tuple(getattr(reading, "values", ()) or ())
    return " ".join(RANK_NAMES.get(v, str(v)) for v in values) if values else format_cards(reading.cards)


def _read_as_text(reading) -> str:
    """The reading with the suit each card stands for when the reading depends on suits (the
    engine's ``Reading.suits``), else the same as ``reading``: two readings that differ only by
    suits (a pure and a mixed 510K) read differently."""
    values = tuple(getattr(reading, "values", ()) or ())
    suits = tuple(getattr(reading, "suits", ()) or ())
    if not suits or len(suits) != len(values):
        return _reading_text(reading)
    return " ".join(RANK_NAMES.get(v, str(v)) + str(s) for v, s in zip(values, suits))


def _extra(reading) -> dict:
    return {str(key): value if isinstance(value, (bool, int, float, str, type(None))) else str(value)
            for key, value in tuple(getattr(reading, "extra", ()) or ())}


class ReadingAnswer(Answer):
    """An engine Reading as notation strings: cards as played, reading as the ranks they stand for."""

    type = _str()
    cards = fields.Function(lambda r: format_cards(r.cards), required=True, metadata={"type": "string"})
    reading = fields.Function(_reading_text, required=True, metadata={"type": "string"})
    read_as = fields.Function(_read_as_text, required=True, metadata={
        "type": "string", "description": "The reading with the suit each card stands for when the reading "
                                         "depends on suits (\"5h 10h Kh\" pure, \"5s 10h Kh\" mixed: a joker "
                                         "takes the suit the reading gives it), else the same as `reading`."})
    rank = fields.Function(lambda r: RANK_NAMES.get(r.rank, str(r.rank)), required=True, metadata={"type": "string"})
    length = fields.Integer(required=True)
    extra = fields.Function(_extra, required=True, metadata={"type": "object", "additionalProperties": {}})


class CheckAnswer(Answer):
    """The answer of POST /check, from the engine's Verdict (and ``game``: the game's key)."""

    legal = fields.Boolean(required=True)
    code = _str()
    reason = Sentence(required=True)
    play = fields.Nested(ReadingAnswer, required=True, allow_none=True)
    readings = fields.List(fields.Nested(ReadingAnswer), required=True)
    game = _str()


class AnswerItem(Answer):
    """One engine Answer: the cards, the type, the checker's reason and the reading to declare."""

    play = fields.Function(lambda a: format_cards(a.cards), required=True, metadata={
        "type": "string", "description": "The cards to play, in card notation (\"8 8\", \"9 9 9 9 JK\")."})
    type = _str(metadata={"description": "The type of the play as the checker reads it (\"pair\", \"bomb\", …)."})
    reason = Sentence(required=True, metadata={"description": "The checker's reason: why this play beats the table."})
    kind = _str(metadata={"description": "The kind of answer: \"follow\", \"two\", \"510k\", \"pure_510k\", "
                                         "\"bomb_<cards>\", …"})
    reading = fields.Nested(ReadingAnswer, required=True, attribute="play")  # ``play`` above is write-only
    declare = _nullable_str(metadata={"description": "The play_as to declare so that the cards are read as "
                                                     "this answer (a joker's other reading); null when "
                                                     "they are read so without one."})


class AnswerReading(Answer):
    """One AnswerSet (scoring.answer_play): the answers to one reading of the cards on the table."""

    reading = fields.Nested(ReadingAnswer, required=True, allow_none=True,
                            metadata={"description": "The reading of the cards on the table answered."})
    pin = _nullable_str(metadata={"description": "The previous_as that pins this reading."})
    answers = fields.List(fields.Nested(AnswerItem), required=True)
    can_beat = fields.Function(lambda s: bool(s.answers), required=True, metadata={"type": "boolean"})


class AnswersAnswer(Answer):
    """The answer of POST /answers, from ``{"sets": scoring.answer_play(...), "game": key}``."""

    answers = fields.List(fields.Nested(AnswerItem), required=True,
                          metadata={"description": "The smallest legal answer of each kind, weakest first."})
    can_beat = fields.Boolean(required=True, metadata={"description": "False: nothing (in the hand) can beat it."})
    game = _str()
    previous = fields.Nested(ReadingAnswer, required=True, allow_none=True,
                             metadata={"description": "The reading of the cards on the table answered."})
    readings = fields.List(fields.Nested(AnswerReading), required=True,
                           metadata={"description": "When the cards on the table read several ways and no "
                                                    "previous_as was sent: the answers to each reading, the "
                                                    "first as above. Otherwise empty."})

    @pre_dump
    def _first(self, data, **kwargs):
        sets = list(data["sets"])
        first = sets[0]
        return {"answers": first.answers, "can_beat": bool(first.answers), "game": data["game"],
                "previous": first.reading, "readings": sets if len(sets) > 1 else []}


NUMBER_MAP = {"type": "object", "additionalProperties": {"type": "number"}}


class SettleAnswer(Answer):
    """The answer of POST /settle, from the engine's Settlement."""

    deltas = fields.Dict(keys=fields.String(), values=Number(), required=True,
                         metadata={"description": "Money per player: points × stake."})
    steps = fields.List(Sentence(), required=True)
    points = fields.Function(lambda s: dict(s.points or {}), required=True, metadata=NUMBER_MAP)
    next_dealer = _nullable_str()
    winners = fields.List(fields.String(), metadata={"description": "大冶打拱 only."})
    arch = fields.String(allow_none=True, metadata={"description": "大冶打拱 only: half, straight, dry, shout."})
    multiplier = fields.Integer(allow_none=True, metadata={"description": "大冶打拱 only."})

    @post_dump(pass_original=True)
    def _winners(self, data, settlement, **kwargs):
        if getattr(settlement, "winners", None) is None:  # a game that names no winners (nor arch)
            for key in ("winners", "arch", "multiplier"):
                data.pop(key, None)
        return data


class PlayerRange(Answer):
    min = fields.Integer(required=True)
    max = fields.Integer(required=True)


class SwitchAnswer(Answer):
    """A house-rule switch of the engine: what it does, its kind and its values."""

    help = Sentence(required=True)
    kind = _str()
    choices = fields.Function(lambda sw: jsonable(list(sw.choices)), required=True,
                              metadata={"type": "array", "items": {}})


class GameAnswer(Answer):
    """A game of the engine's registry: how many play, its presets and its switches."""

    players = fields.Function(lambda m: PlayerRange().dump({"min": m.PLAYER_RANGE[0], "max": m.PLAYER_RANGE[1]}),
                              required=True, metadata={"type": "object", "properties": {
                                  "min": {"type": "integer"}, "max": {"type": "integer"}}})
    presets = fields.Function(lambda m: {key: jsonable(rules_to_dict(rules)) for key, rules in m.PRESETS.items()},
                              required=True, metadata={"type": "object", "additionalProperties": {"type": "object"},
                                                       "description": "Each preset's switch values."})
    switches = fields.Dict(keys=fields.String(), values=fields.Nested(SwitchAnswer), required=True,
                           attribute="SWITCHES")


class GamesAnswer(Answer):
    """The games, their presets and house-rule switches, from ``{"games": ENGINES}``."""

    games = fields.Dict(keys=fields.String(), values=fields.Nested(GameAnswer), required=True)


class IndexAnswer(Answer):
    version = fields.Integer(required=True)
    help = Link(lambda _index: ("check.api_help", {}))
    endpoints = fields.Dict(keys=fields.String(), values=fields.String(), required=True)
