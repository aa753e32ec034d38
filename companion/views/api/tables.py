"""API v1, tables: open, read, change, summarise, export and import a table."""
from __future__ import annotations

from flask import jsonify, request

from ... import review, scoring
from ...schemas.per_game import import_body_schema
from ...schemas import (ExportAnswer, ImportAnswer, NewTableRequest, PlayersRequest, SummaryAnswer, TableAnswer,
                        UpdateTableRequest, with_token)
from ..conditional import conditional, table_etag
from ..export_cache import cached_download
from .blueprint import (_device, _require_token, _scoring_call, _table_or_404, bp, errors, links,
                     writes)

SUMMARY = SummaryAnswer()  # the summary answers outside smorest: it may be a 304


@bp.route("/tables", methods=["POST"])
@bp.arguments(NewTableRequest, example={"game": "gandengyan", "name": "Friday", "players": ["A", "B", "C"],
                                        "stake": "0.5", "currency": "¥", "preset": "source"})
@bp.response(201, TableAnswer)
@bp.doc(operationId="create_table", responses={201: {"links": links(
    table=("get_table", {"public_id": "$response.body#/id"}),
    hands=("list_hands", {"public_id": "$response.body#/id"}),
    record=("record_hand", {"public_id": "$response.body#/id", "header.X-Edit-Token": "$response.body#/token"}),
    undo=("undo", {"public_id": "$response.body#/id", "header.X-Edit-Token": "$response.body#/token"}))}})
@errors(413, 429, 507)
def create_table(data):
    """Open a table. The answer holds its id and its edit token (only here), under both names
    (``id``/``public_id``, ``token``/``edit_token``), as POST /import answers them."""
    table = _scoring_call(scoring.create_table, **data)
    return with_token(table)


@bp.route("/tables/<public_id>", methods=["GET"])
@bp.response(200, TableAnswer)
@bp.doc(operationId="get_table")
@errors(404)
def get_table(public_id):
    """The table, its players, standings and hand count."""
    return _table_or_404(public_id)


@bp.route("/tables/<public_id>", methods=["PATCH"])
@bp.arguments(UpdateTableRequest, example={"stake": "2", "name": "Friday (after midnight)"})
@bp.response(200, TableAnswer)
@writes
@bp.doc(operationId="update_table")
@errors(403, 404, 413, 429)
def update_table(data, public_id):
    """Change the table: name, currency label, notes, stake (from the next hand on: every hand keeps
    the stake it was played at), archive or restore it, delete it or bring it back within the undo
    window. Only the fields sent change; an archived table refuses other changes until restored."""
    table = _table_or_404(public_id, deleted_ok=True)
    _require_token(table, data)
    changes = {key: data.get(key) for key in ("name", "currency", "notes", "stake", "archived", "deleted")}
    _scoring_call(scoring.update_table, table, **changes)  # one transaction: all of it or nothing
    return table


@bp.route("/tables/<public_id>/players", methods=["PUT"])
@bp.arguments(PlayersRequest, example={"players": ["Ann", {"name": "Bob", "was": "Bo"}, "Cy", "Eve"]})
@bp.response(200, TableAnswer)
@writes
@bp.doc(operationId="change_players")
@errors(403, 404, 413, 429)
def change_players(data, public_id):
    """Change who sits at the table between hands: the new players in seat order. A current or
    earlier player's name keeps that player (their total follows them; ``{"name", "was"}`` renames
    them, in every hand too); a new name joins; a seated player left out leaves (keeps their total,
    is in no later hand); a new name in the seat of one who left is a substitute. Hands already
    played keep their players. Kept in the history; ``POST …/undo`` takes it back."""
    table = _table_or_404(public_id)
    _require_token(table, data)
    _scoring_call(scoring.change_players, table, data["players"], device=_device(data))
    return table


@bp.route("/tables/<public_id>/summary", methods=["GET"])
@bp.response(200, SummaryAnswer)
@bp.doc(operationId="table_summary")
@errors(404, 429)
def table_summary(public_id):
    """How the night went: standings, each player's figures, and the fewest transfers that square
    everyone (rounded to the cent and still adding up to zero). ETag per table revision
    (If-None-Match: 304)."""
    table = _table_or_404(public_id)
    return conditional(table_etag(table, "summary.json"), lambda: jsonify(SUMMARY.dump(review.summary(table))))


@bp.route("/tables/<public_id>/export", methods=["GET"])
@bp.alt_response(200, schema=ExportAnswer, success=True)
@bp.doc(operationId="export_table")
@errors(404, 429, 503)
def export_table(public_id):
    """The whole table as one JSON document (format version, rules, players, hands with their facts and
    stakes, the history of stakes and of changes, a checksum against corruption and this server's
    signature). Computed once per table revision and kept (every later request is served from the
    kept file); ETag per table revision (If-None-Match: 304). No id and no edit token: POST it to
    /import to recreate it."""
    table = _table_or_404(public_id)
    return cached_download(table, "json", lambda: scoring.export_chunks(table), "application/json")


@bp.route("/import", methods=["POST"])
@bp.response(201, ImportAnswer)
@bp.doc(operationId="import_table", requestBody={
    "required": True, "description": "A document from GET /tables/{public_id}/export, unchanged.",
    "content": {"application/json": {"schema": import_body_schema()}}})
@errors(413, 429, 507)
def import_table():
    """Recreate an exported table under a new id and edit token by replaying it: every hand is recorded
    as a new hand (the engine validates and settles its facts; points in the file that differ are
    refused, naming the hand); the file's history is kept as plain text. At most 2 MiB
    (IMPORT_MAX_BYTES), refused before the body is read. A damaged, foreign, forged or newer-version
    document is refused and changes nothing. The new id and edit token come under both names
    (``public_id``/``id``, ``edit_token``/``token``), as POST /tables answers them."""
    table = _scoring_call(scoring.import_document, request.get_data(cache=True))
    return with_token(table)  # both names, as POST /tables answers them (issue 17)
