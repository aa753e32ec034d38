"""Undo: take back the table's latest change not undone yet, of a hand or of the players."""
from __future__ import annotations

from typing import Any

from sqlalchemy import desc, select

from ..engine.public import N_
from ..extensions import db
from ..db.models import ACTIVE, VOID, HandEvent, PlayerChange, Table, utcnow
from .errors_limits import NOTE, ScoringError
from .hands import _set_deltas, _snapshot
from .players import _players_undo_target, undo_players_change
from .settling import _settle_points
from .transactions import _commit, _device, _lock


def _undo_target(table: Table):
    """The query of the change the next undo takes back: the latest one not undone yet."""
    undone = select(HandEvent.undoes_id).where(HandEvent.table_id == table.id, HandEvent.undoes_id.is_not(None))
    return (select(HandEvent).where(HandEvent.table_id == table.id, HandEvent.kind.not_in(("undo", NOTE)),
                                    HandEvent.id.not_in(undone))
            .order_by(desc(HandEvent.id)).limit(1))


def next_undo(table: Table) -> HandEvent | PlayerChange | None:
    """The change "Undo" would take back now (the button says which), or None: a hand's change, or
    a change of the players (:func:`change_players`) made after it."""
    event = db.session.scalar(_undo_target(table))
    change = _players_undo_target(table, event)
    return change if change is not None else event


def undo_last(table: Table, *, device=None, expected: Any = None) -> HandEvent | None:
    """Undo the table's latest change that is not yet undone (repeat to go further back).
    ``expected``: the id of the event the phone's undo button named; when another change came
    in between (an undo sent late from a phone's outbox, or sent twice), nothing is undone.

    Undoing a create voids the hand (nothing is ever deleted); an edit goes back to the facts
    before it (re-settled by the engine); a void restores; a restore voids. Returns the new
    ``undo`` event, or None when there is nothing to undo. When the latest change is a change of
    the players, that is undone (:func:`undo_players_change`) and its ``PlayerChange`` returned.
    """
    change = _players_undo_target(table, db.session.scalar(_undo_target(table)))
    if change is not None:
        if expected is not None and str(expected) != f"players-{change.id}":  # the button named another change
            raise ScoringError(N_("The table changed since this undo was offered (another change came in "
                                  "between); nothing was undone. Look at the table and undo again if needed."),
                               code="undo_moved", field="undo")
        return undo_players_change(table, change, device=device)
    try:
        _lock(table)
        event = db.session.scalar(_undo_target(table))
        if expected is not None and (event is None or str(event.id) != str(expected)):
            db.session.rollback()
            raise ScoringError(N_("The table changed since this undo was offered (another change came in "
                                  "between); nothing was undone. Look at the table and undo again if needed."),
                               code="undo_moved", field="undo")
        if event is None:
            db.session.rollback()
            return None
        hand = event.hand
        db.session.refresh(hand)
        before = _snapshot(hand)
        points = before["points"]
        if event.kind == "create" or event.kind == "restore":
            hand.status = VOID
        elif event.kind == "void":
            hand.status = ACTIVE
        elif event.kind == "edit":
            facts = (event.before or {}).get("facts")
            settlement, points, outcome = _settle_points(table, facts, as_recorded=True)  # stored before
            hand.facts = facts
            hand.outcome = outcome
            hand.next_dealer = settlement.next_dealer
            _set_deltas(hand, table, points, settlement.tallies)
        hand.revision += 1
        hand.updated_at = utcnow()
        undo = HandEvent(table_id=table.id, hand_id=hand.id, kind="undo", before=before,
                         after=_snapshot(hand, points), hand_revision=hand.revision,
                         undoes_id=event.id, device=_device(device))
        db.session.add(undo)
        _commit()
        return undo
    except Exception:
        db.session.rollback()
        raise
