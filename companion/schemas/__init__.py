"""The input layer: every JSON body and query of API v1, described once with marshmallow.

The same schemas parse the JSON API's requests (through flask-smorest, which also writes the
OpenAPI document at ``/api/v1/openapi.json`` from them), the CLI's JSON input (``flask settle
hand.json``) and the rule-checker page's query. Each value has one parser:

- the stake: the engine's :func:`companion.engine.money.parse_stake`;
- presets and house-rule switches: the game's ``rules_from_dict`` (the engine);
- the game: the engine's registry :data:`companion.engine.ENGINES`;
- whole numbers and texts: the fields below.

Every bad input becomes an :class:`InputError`: a 4xx answer ``{"error": {"code", "message",
"field"}}``. The codes are listed once, in :data:`ERROR_CODES` (and in docs/api.md).

The package, by concern: ``errors`` (InputError, error codes, the JSON reader), ``fields`` (one
parser per kind of value), ``facts`` (a hand's facts and the settle body), ``requests`` (every
request schema) ``output`` (the fields that write answers: money, times, sentences, links), ``answers`` (the
rules side's answers and errors) and ``table_answers`` (tables and hands). Everything is re-exported here:
``from companion.schemas import X`` and ``schemas.X`` keep working.
"""
from __future__ import annotations

from .errors import (  # noqa: F401
    MAX_TEXT, MAX_REQUEST_ID, MAX_PAGE, MAX_PER_PAGE, MAX_HAND_NUMBER, MAX_DEPTH, ERROR_CODES,
    InputError, Problem, problem, input_error, UNKNOWN, unknown_field_message, show, type_name,
    UNEXPECTED, engine_guard, parse_json_text, json_object)
from .fields import (  # noqa: F401
    Value, Game, lookup_game, Text, Cards, Whole, QueryWhole, Stake, HouseRules, Preset, JSONObject,
    Names, Request, game_rules, PLAYERS, TokenField, Device, Flag, PlayerEntries)
from .facts import (  # noqa: F401
    Fact, strict_numbers, FACT_FIELDS, FACT_ALIASES, SettleRequest, Facts)
from .requests import (  # noqa: F401
    CheckRequest, AnswersRequest, NewTableRequest, FACTS_MISSING, REVISION_MISSING, RecordHandRequest,
    EditHandRequest, RevisionRequest, UndoRequest, UpdateTableRequest, PlayersRequest, HandsQuery,
    RequestParser, load)
from .output import (  # noqa: F401
    url, jsonable, money, iso_time, Merged, merged, Answer, Money, Time, Sentence, Number, JSONValue,
    Link, Alias)
from .answers import (  # noqa: F401
    ErrorDetail, ErrorAnswer, ReadingAnswer, CheckAnswer, AnswerItem, AnswerReading, AnswersAnswer,
    NUMBER_MAP, SettleAnswer, PlayerRange, SwitchAnswer, GameAnswer, GamesAnswer, IndexAnswer)
from .table_answers import (  # noqa: F401
    SeatAnswer, LeftAnswer, StandingAnswer, StakeAnswer, TableUrls, with_token, TableAnswer, hand_row,
    HandAnswer, HandChangeAnswer, HandDetailAnswer, HandsPageAnswer, UndoneAnswer, UndoAnswer, ConflictAnswer,
    TransferAnswer, figures, PlayerFiguresAnswer, SummaryAnswer, ExportAnswer, ImportAnswer)
