"""API v1, hands: list, read, record, edit, void and restore the hands of a table; undo its latest change."""
from __future__ import annotations

import secrets

from flask import request
from flask.views import MethodView

from ... import scoring
from ...schemas import (MAX_REQUEST_ID, EditHandRequest, HandChangeAnswer, HandDetailAnswer, HandsPageAnswer,
                        HandsQuery, RecordHandRequest, RevisionRequest, UndoAnswer, UndoRequest, hand_row, merged)
from .blueprint import (HAND_LINKS, InputError, _, _device, _hand_or_404, _require_token, _scoring_call,
                     _table_or_404, bp, errors, writes)


@bp.route("/tables/<public_id>/hands", methods=["GET"])
@bp.arguments(HandsQuery, location="query")
@bp.response(200, HandsPageAnswer)
@bp.doc(operationId="list_hands")
@errors(404)
def list_hands(query, public_id):
    """Hands, newest first, a page at a time."""
    table = _table_or_404(public_id)
    page = query.get("page") or 1
    per_page = query.get("per_page") or 25
    _active, total = scoring.hand_counts(table)
    hands, deltas = scoring.hands_page(table, page, per_page)
    names = {p.id: p.name for p in table.players}
    return {"hands": [hand_row(h, names, deltas.get(h.id, {})) for h in hands], "page": page, "per_page": per_page,
            "total": total, "pages": max(1, -(-total // per_page)), "public_id": public_id}


@bp.route("/tables/<public_id>/hands/<int:number>", methods=["GET"])
@bp.response(200, HandDetailAnswer)
@bp.doc(operationId="get_hand")
@errors(404)
def get_hand(public_id, number):
    """One hand."""
    table = _table_or_404(public_id)
    return _hand_or_404(table, number)


@bp.route("/tables/<public_id>/hands", methods=["POST"])
@bp.arguments(RecordHandRequest, example={
    "facts": {"winner": "A", "losers": {"B": {"cards": 3, "jokers": 0}, "C": {"cards": 5, "jokers": 1}}},
    "request_id": "2f1c9a"})
@bp.response(201, HandChangeAnswer)
@bp.alt_response(200, schema=HandChangeAnswer, success=True,
                 description="This request_id was recorded before: nothing new was stored.")
@writes
@bp.doc(operationId="record_hand", responses={201: {"links": HAND_LINKS}, 200: {"links": HAND_LINKS}})
@errors(403, 404, 409, 413, 429)
def record_hand(data, public_id):
    """Record a hand. The same request_id (or Idempotency-Key header) records it once: a retry answers
    200 with ``created: false``; the same id with other facts is a 409 ``request_id_reused`` naming
    the hand it recorded. Without either, every request records a new hand (``idempotent: false``
    in the answer), so a client that may retry must send one."""
    table = _table_or_404(public_id)
    _require_token(table, data)
    facts = data["facts"]  # numbers, unused facts and the rules: checked by scoring, as at every door
    request_id = data.get("request_id") or (request.headers.get("Idempotency-Key") or "").strip() or None
    idempotent = request_id is not None
    if len(request_id or "") > MAX_REQUEST_ID:
        raise InputError(400, "bad_request_id", _("The Idempotency-Key may have at most %(n)d characters.",
                                                  n=MAX_REQUEST_ID), "request_id")
    hand, created = _scoring_call(scoring.record_hand_once, table, facts,
                                  request_id=request_id or "server-" + secrets.token_urlsafe(16),
                                  device=_device(data), expected_number=data.get("expected_number"))
    return merged(hand, created=created, idempotent=idempotent), 201 if created else 200


EDIT_EXAMPLE = {"facts": {"winner": "B", "losers": {"A": {"cards": 2, "jokers": 0}, "C": {"cards": 1, "jokers": 0}}},
                "revision": 1}


def _edit(data, public_id, number):
    table = _table_or_404(public_id)
    _require_token(table, data)
    _hand_or_404(table, number)
    facts = data["facts"]
    return _scoring_call(scoring.edit_hand, table, number, facts, revision=data["revision"], device=_device(data))


@bp.route("/tables/<public_id>/hands/<int:number>", endpoint="edit_hand")
class EditHand(MethodView):
    """PUT and PATCH edit a hand alike (one endpoint, ``api.edit_hand``); each method has its own
    operationId in the OpenAPI document (``edit_hand``, ``patch_hand``), which must be unique."""

    @bp.arguments(EditHandRequest, example=EDIT_EXAMPLE)
    @bp.response(200, HandChangeAnswer)
    @writes
    @bp.doc(operationId="edit_hand", responses={200: {"links": HAND_LINKS}})
    @errors(403, 404, 409, 413, 429)
    def put(self, data, public_id, number):
        """Edit a hand: send the revision you read; a stale one is a 409 with both versions."""
        return _edit(data, public_id, number)

    @bp.arguments(EditHandRequest, example=EDIT_EXAMPLE)
    @bp.response(200, HandChangeAnswer)
    @writes
    @bp.doc(operationId="patch_hand", responses={200: {"links": HAND_LINKS}})
    @errors(403, 404, 409, 413, 429)
    def patch(self, data, public_id, number):
        """Edit a hand, the same as PUT (the whole facts and the revision you read; a stale one is a
        409 with both versions)."""
        return _edit(data, public_id, number)


def _void_or_restore(data, public_id, number, change):
    table = _table_or_404(public_id)
    _require_token(table, data)
    _hand_or_404(table, number)
    hand = _scoring_call(change, table, number, revision=data["revision"], device=_device(data))
    return hand


@bp.route("/tables/<public_id>/hands/<int:number>/void", methods=["POST"])
@bp.arguments(RevisionRequest, example={"revision": 1})
@bp.response(200, HandChangeAnswer)
@writes
@bp.doc(operationId="void_hand", responses={200: {"links": HAND_LINKS}})
@errors(403, 404, 409, 413, 429)
def void_hand(data, public_id, number):
    """Void a hand: it stays in the list and the history but no longer counts."""
    return _void_or_restore(data, public_id, number, scoring.void_hand)


@bp.route("/tables/<public_id>/hands/<int:number>/restore", methods=["POST"])
@bp.arguments(RevisionRequest, example={"revision": 1})
@bp.response(200, HandChangeAnswer)
@writes
@bp.doc(operationId="restore_hand", responses={200: {"links": HAND_LINKS}})
@errors(403, 404, 409, 413, 429)
def restore_hand(data, public_id, number):
    """Make a void hand count again."""
    return _void_or_restore(data, public_id, number, scoring.restore_hand)


@bp.route("/tables/<public_id>/undo", methods=["POST"])
@bp.arguments(UndoRequest, required=False)
@bp.response(200, UndoAnswer)
@writes
@bp.doc(operationId="undo")
@errors(403, 404, 409, 413, 429)
def undo(data, public_id):
    """Undo the table's latest change that is not yet undone (repeat to go further back)."""
    table = _table_or_404(public_id)
    _require_token(table, data)
    event = _scoring_call(scoring.undo_last, table, device=_device(data))
    if event is None:
        raise InputError(409, "nothing_to_undo", _("There is nothing to undo at this table."), None)
    if isinstance(event, scoring.PlayerChange):  # the latest change was of the players
        return {"undone": {"kind": "players", "hand": None}, "hand": None, "table": table}
    undone = scoring.undone_event(event)
    return {"undone": {"kind": undone.kind if undone else None, "hand": event.hand.number}, "hand": event.hand,
            "table": table}
