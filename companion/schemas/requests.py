"""Request schemas: every JSON body and query of API v1 (also the CLI's input and the check
page's query), and the webargs parser that reads them."""
from __future__ import annotations

from typing import Any

from flask_babel import gettext as _, lazy_gettext as _l
from marshmallow import INCLUDE, Schema, ValidationError, post_load
from webargs.flaskparser import FlaskParser

from ..scoring import CURRENCY_MAX, NAME_MAX, NOTES_MAX

from .errors import (MAX_HAND_NUMBER, MAX_PAGE, MAX_PER_PAGE, MAX_REQUEST_ID, InputError,  # noqa: F401
                     input_error, json_object, type_name)
from .facts import Facts
from .per_game import NOT_BLANK
from .fields import (PLAYERS, Cards, Device, Flag, Game, HouseRules, Names, PlayerEntries, Preset,  # noqa: F401
                     QueryWhole, Request, Stake, Text, TokenField, Whole, game_rules)


class CheckRequest(Request):
    game = Game()
    previous = Cards()
    play = Cards(required=True)
    players = PLAYERS
    previous_as = Text(example="\"5 5 5\"")
    play_as = Text(example="\"5 5 5\"")
    preset = Preset()
    rules = HouseRules()

    @post_load
    def _per_game(self, data, **kwargs):
        module = data["game"]
        if data.get("players") is not None:
            low, high = module.PLAYER_RANGE  # the engine decides how many may play
            try:
                PLAYERS.parse(data["players"], "players", low, high)
            except ValidationError as error:
                raise input_error(ValidationError({"players": error.messages})) from None
        data["rules"] = game_rules(data, module)
        return data


class AnswersRequest(Request):
    """What beats this? The play on the table, and optionally the cards in hand."""

    game = Game()
    previous = Cards(required=True)
    hand = Cards()
    players = PLAYERS
    previous_as = Text(example="\"5 5 5\"")
    preset = Preset()
    rules = HouseRules()

    _per_game = CheckRequest._per_game




class NewTableRequest(Request):
    game = Game()
    # scoring judges the lengths (one message on every face); the document states the same limits
    name = Text(max_length=10_000, metadata={"type": "string", "maxLength": NAME_MAX})
    players = Names(required=True)
    stake = Stake(allow_zero=True)
    currency = Text(max_length=10_000, metadata={"type": "string", "maxLength": CURRENCY_MAX})
    preset = Preset()
    rules = HouseRules()
    notes = Text(max_length=100_000, metadata={"type": "string", "maxLength": NOTES_MAX})
    first_dealer = Text(max_length=10_000)

    @post_load
    def _table(self, data, **kwargs):
        module = data.pop("game")
        return {"game": module.NAME, "name": data.get("name") or "", "players": data["players"],
                "stake": data.get("stake") if data.get("stake") is not None else "0",
                "currency": data.get("currency") or "", "preset": data.get("preset"),
                "rules": data.get("rules"), "notes": data.get("notes") or "",
                "first_dealer": data.get("first_dealer")}



FACTS_MISSING = _l("\"facts\" is required: the hand as the settle API takes it, without game and stake.")
REVISION_MISSING = _l("\"revision\" is required: send the hand's revision as you last read it.")


class RecordHandRequest(Request):
    facts = Facts(required=True, what=FACTS_MISSING)
    request_id = Text(max_length=MAX_REQUEST_ID)
    expected_number = Whole(minimum=1, maximum=MAX_HAND_NUMBER)
    device = Device()
    token = TokenField()


class EditHandRequest(Request):
    facts = Facts(required=True, what=FACTS_MISSING)
    revision = Whole(required=True, minimum=0, maximum=MAX_HAND_NUMBER, what=REVISION_MISSING)
    device = Device()
    token = TokenField()


class RevisionRequest(Request):
    body_optional = True  # an empty body is {} (and then "revision" is missing)
    revision = Whole(required=True, minimum=0, maximum=MAX_HAND_NUMBER, what=REVISION_MISSING)
    device = Device()
    token = TokenField()


class UndoRequest(Request):
    body_optional = True  # an empty body is {}
    device = Device()
    token = TokenField()



class UpdateTableRequest(Request):
    """PATCH a table: only the fields sent change. A new stake applies from the next hand on."""

    # a name may be left out, never emptied ("The table needs a name."): more than spaces when sent
    name = Text(max_length=10_000, metadata={"type": "string", "maxLength": NAME_MAX, "minLength": 1,
                                             "pattern": NOT_BLANK})
    stake = Stake(allow_zero=True)
    currency = Text(max_length=10_000, metadata={"type": "string", "maxLength": CURRENCY_MAX})
    notes = Text(max_length=100_000, metadata={"type": "string", "maxLength": NOTES_MAX})
    archived = Flag("true archives the table (it takes no hands until restored); false restores it.")
    deleted = Flag("true deletes the table (gone for good after the undo window); false, within that "
                   "window, brings it back.")
    token = TokenField()



class PlayersRequest(Request):
    """PUT a table's players between hands: rename, join, leave, change seats, a substitute."""

    players = PlayerEntries(required=True)
    device = Device()
    token = TokenField()


class HandsQuery(Schema):
    """``?page=&per_page=`` (other query parameters, such as ``lang``, are left alone)."""

    class Meta:
        unknown = INCLUDE

    page = QueryWhole(minimum=1, maximum=MAX_PAGE)
    per_page = QueryWhole(minimum=1, maximum=MAX_PER_PAGE)


class RequestParser(FlaskParser):
    """webargs, reading bodies with the schemas module's JSON reader (whatever the Content-Type)
    and answering a schema error as our error shape, status 400."""

    DEFAULT_VALIDATION_STATUS = 400

    def load_json(self, req, schema):
        raw = req.get_data(cache=True)
        if getattr(schema, "body_optional", False) and not raw.strip():
            return {}
        return json_object(raw)

    def handle_error(self, error, req, schema, *, error_status_code, error_headers):
        messages = error.messages  # webargs files them under the location: {"json": {...}}
        if isinstance(messages, dict) and len(messages) == 1 and next(iter(messages)) in self.__location_map__:
            error = type(error)(next(iter(messages.values())))
        raise input_error(error)


def load(schema: type[Schema], data: Any) -> dict:
    """Parse ``data`` with ``schema``: the loaded values, or the first problem as an InputError."""
    if not isinstance(data, dict):
        raise InputError(400, "not_an_object",
                         _("The request body must be a JSON object ({…}), not %(kind)s.", kind=type_name(data)))
    try:
        return schema().load(data)
    except ValidationError as error:
        raise input_error(error) from None
