"""Answer schemas: the shape of every API v1 answer (the OpenAPI document is written from them)."""
from __future__ import annotations


from marshmallow import INCLUDE, Schema, fields



# --------------------------------------------------------------------------------------------
# Answer schemas (they document the answers in the OpenAPI document; serializers.py writes them)


class Answer(Schema):
    class Meta:
        unknown = INCLUDE  # answers may gain fields (add, never rename)


def _str(**kw):
    return fields.String(required=True, **kw)


def _nullable_str(**kw):
    return fields.String(required=True, allow_none=True, **kw)


def _time(description: str = "") -> fields.String:
    """A moment: ISO 8601 with its time zone (always UTC, ``+00:00``), or null."""
    text = "ISO 8601 with its time zone (UTC, +00:00)." + (f" {description}" if description else "")
    return fields.String(required=True, allow_none=True, metadata={"format": "date-time", "description": text})


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


class ReadingAnswer(Answer):
    type = _str()
    cards = _str()
    reading = _str()
    rank = _str()
    length = fields.Integer(required=True)
    extra = fields.Dict(required=True)


class CheckAnswer(Answer):
    legal = fields.Boolean(required=True)
    code = _str()
    reason = _str()
    play = fields.Nested(ReadingAnswer, required=True, allow_none=True)
    readings = fields.List(fields.Nested(ReadingAnswer), required=True)
    game = _str()


class AnswerItem(Answer):
    play = _str(metadata={"description": "The cards to play, in card notation (\"8 8\", \"9 9 9 9 JK\")."})
    type = _str(metadata={"description": "The type of the play as the checker reads it (\"pair\", \"bomb\", …)."})
    reason = _str(metadata={"description": "The checker's reason: why this play beats the table."})
    kind = _str(metadata={"description": "The kind of answer: \"follow\", \"two\", \"510k\", \"pure_510k\", "
                                         "\"bomb_<cards>\", …"})
    reading = fields.Nested(ReadingAnswer, required=True)
    declare = _nullable_str(metadata={"description": "The play_as to declare so that the cards are read as "
                                                     "this answer (a joker's other reading); null when "
                                                     "they are read so without one."})


class AnswerReading(Answer):
    reading = fields.Nested(ReadingAnswer, required=True, allow_none=True,
                            metadata={"description": "The reading of the cards on the table answered."})
    pin = _nullable_str(metadata={"description": "The previous_as that pins this reading."})
    answers = fields.List(fields.Nested(AnswerItem), required=True)
    can_beat = fields.Boolean(required=True)


class AnswersAnswer(Answer):
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


NUMBER_MAP = {"type": "object", "additionalProperties": {"type": "number"}}


class SettleAnswer(Answer):
    deltas = fields.Dict(keys=fields.String(), values=fields.Float(), required=True,
                         metadata={"description": "Money per player: points × stake."})
    steps = fields.List(fields.String(), required=True)
    points = fields.Dict(keys=fields.String(), values=fields.Float(), required=True)
    next_dealer = _nullable_str()
    winners = fields.List(fields.String(), metadata={"description": "大冶打拱 only."})
    arch = fields.String(allow_none=True, metadata={"description": "大冶打拱 only: half, straight, dry, shout."})
    multiplier = fields.Integer(allow_none=True, metadata={"description": "大冶打拱 only."})


class SeatAnswer(Answer):
    seat = fields.Integer(required=True)
    name = _str()


class StandingAnswer(Answer):
    player = _str()
    seat = fields.Integer(required=True, allow_none=True, metadata={"description": "null: the player left."})
    points = fields.Integer(required=True)
    money = _str(metadata={"description": "An exact decimal string."})


class TableAnswer(Answer):
    id = _str()
    game = _str()
    name = _str()
    stake = _str(metadata={"description": "An exact decimal string; \"0\" keeps points only."})
    currency = _str()
    preset = _nullable_str()
    rules = fields.Dict(required=True)
    rules_version = fields.Integer(required=True)
    notes = _str()
    revision = fields.Integer(required=True)
    created_at = _time()
    players = fields.List(fields.Nested(SeatAnswer), required=True)
    players_left = fields.List(fields.Dict(), metadata={
        "description": "Players who left: [{\"name\", \"former_seat\"}]; they keep their total and hands."})
    standings = fields.List(fields.Nested(StandingAnswer), required=True)
    hand_count = fields.Integer(required=True)
    hands_recorded = fields.Integer(required=True)
    first_dealer = _nullable_str()
    current_dealer = _nullable_str()
    urls = fields.Dict(keys=fields.String(), values=fields.String(allow_none=True), required=True)
    token = fields.String(metadata={"description": "The edit token: only in the answer that opened the table."})
    public_id = _str(metadata={"description": "The same as id (the name POST /import answers with)."})
    edit_token = fields.String(metadata={"description": "The same as token (the name POST /import answers "
                                                        "with): only in the answer that opened the table."})
    archived = fields.Boolean(metadata={"description": "An archived table takes no hands until restored."})
    archived_at = _time()
    deleted_at = _time("Set while a deleted table can still be brought back (PATCH deleted: false).")
    stakes = fields.List(fields.Dict(), metadata={
        "description": "The stakes the hands were played at: [{\"from_hand\", \"stake\"}], one per change."})


class HandAnswer(Answer):
    number = fields.Integer(required=True)
    status = _str(metadata={"enum": ["active", "void"]})
    revision = fields.Integer(required=True)
    facts = fields.Dict(required=True)
    deltas = fields.Dict(keys=fields.String(), values=fields.Integer(), required=True)
    outcome = fields.Dict(required=True)
    next_dealer = _nullable_str()
    request_id = _nullable_str()
    created_at = _time()
    updated_at = _time()
    stake = fields.String(metadata={"description": "Money per point this hand was played at (exact decimal)."})


class HandChangeAnswer(HandAnswer):
    steps = fields.List(fields.String(), required=True)
    table_revision = fields.Integer(required=True)
    standings = fields.List(fields.Nested(StandingAnswer), required=True)
    created = fields.Boolean(metadata={"description": "After POST …/hands: false when the request_id was "
                                                     "already recorded (nothing new was stored)."})
    idempotent = fields.Boolean(metadata={"description": "After POST …/hands: false when the request had "
                                                        "neither request_id nor Idempotency-Key, so a retry "
                                                        "would record the hand again."})


class HandsPageAnswer(Answer):
    hands = fields.List(fields.Nested(HandAnswer), required=True)
    page = fields.Integer(required=True)
    per_page = fields.Integer(required=True)
    total = fields.Integer(required=True)
    pages = fields.Integer(required=True)
    next = _nullable_str()


class UndoneAnswer(Answer):
    kind = _nullable_str(metadata={"description": "create, edit, void, restore; players: a change of players."})
    hand = fields.Integer(required=True, allow_none=True, metadata={"description": "null for a change of players."})


class UndoAnswer(Answer):
    undone = fields.Nested(UndoneAnswer, required=True)
    hand = fields.Nested(HandAnswer, required=True, allow_none=True)
    table = fields.Nested(TableAnswer, required=True)


class ConflictAnswer(ErrorAnswer):
    current = fields.Nested(HandAnswer, allow_none=True)
    submitted = fields.Raw(allow_none=True)


class GamesAnswer(Answer):
    games = fields.Dict(keys=fields.String(), values=fields.Dict(), required=True)


class IndexAnswer(Answer):
    version = fields.Integer(required=True)
    help = _nullable_str()
    endpoints = fields.Dict(keys=fields.String(), values=fields.String(), required=True)


class TransferAnswer(Answer):
    from_ = fields.String(required=True, data_key="from", metadata={"description": "Who pays."})
    to = _str(metadata={"description": "Who is paid."})
    amount = _str(metadata={"description": "An exact decimal string: money, or points when in_money is false."})


class PlayerFiguresAnswer(Answer):
    player = _str()
    seat = fields.Integer(required=True, allow_none=True, metadata={"description": "null: the player left."})
    points = fields.Integer(required=True)
    money = _str()
    hands = fields.Integer(required=True)
    biggest_win = fields.Integer(required=True, allow_none=True)
    biggest_loss = fields.Integer(required=True, allow_none=True)


class SummaryAnswer(Answer):
    id = _str()
    game = _str()
    hands = fields.Integer(required=True, metadata={"description": "Hands that count (not void)."})
    void = fields.Integer(required=True)
    first_at = _time()
    last_at = _time()
    standings = fields.List(fields.Nested(StandingAnswer), required=True)
    players = fields.List(fields.Nested(PlayerFiguresAnswer), required=True,
                          metadata={"description": "By standing, with each figure the game tallies (its engine's "
                                                   "TALLIES, summed over the hands that count). 干瞪眼 adds won, "
                                                   "shut_out, jokers, bombs_held; 大冶打拱 adds places, arch_wins, "
                                                   "shouts_won, shouts_lost, banker, won, xi_bombs."})
    in_money = fields.Boolean(required=True)
    transfers = fields.List(fields.Nested(TransferAnswer), required=True)


class ExportAnswer(Answer):
    format = _str(metadata={"description": "\"card-table-companion/table\""})
    format_version = fields.Integer(required=True)
    checksum = _str()


class ImportAnswer(Answer):
    public_id = _str()
    edit_token = _str(metadata={"description": "The new table's edit token (only here)."})
    id = _str(metadata={"description": "The same as public_id (the name POST /tables answers with)."})
    token = _str(metadata={"description": "The same as edit_token (the name POST /tables answers with)."})
    table = fields.Nested("TableAnswer", required=True)
