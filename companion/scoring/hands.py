"""Hands: record (one transaction, a fixed number of statements), correct, void and restore a
hand, each re-settled by the engine and kept in the hand's history; rulings attached to a hand."""
from __future__ import annotations

from typing import Any

from sqlalchemy import select
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm.attributes import set_committed_value

from ..engine.public import N_
from ..extensions import db
from ..db.models import ACTIVE, VOID, Hand, HandDelta, HandEvent, HandTally, Table, utcnow
from .errors_limits import NOTE, Conflict, NotFound, ScoringError
from .players import hand_players
from .reading import history
from .settling import _prepare_facts, _settle_points
from .transactions import _commit, _commit_keeping, _device, _lock


def _snapshot(hand: Hand, points_by_name: dict | None = None) -> dict:
    if points_by_name is None:
        names = {p.id: p.name for p in hand.table.players}
        points_by_name = {names[d.player_id]: d.points for d in hand.deltas}
    return {"facts": hand.facts, "status": hand.status, "points": points_by_name}


def _set_deltas(hand: Hand, table: Table, points: dict, tallies: dict) -> None:
    """The hand's points and review figures (the engine's ``Settlement.tallies``), in place: one
    delta per player of the hand (its facts' players; those seated now for a new hand)."""
    by_player = {d.player_id: d for d in hand.deltas}
    for player in table.players:
        if player.name not in points:
            continue
        value = points[player.name]
        if player.id in by_player:
            by_player[player.id].points = value
        else:
            hand.deltas.append(HandDelta(player_id=player.id, points=value))
    ids = {p.name: p.id for p in table.players}
    wanted = {(ids[name], figure): int(count) for name, counts in tallies.items() if name in ids
              for figure, count in counts.items() if count}
    for row in list(hand.tallies):
        key = (row.player_id, row.figure)
        if key in wanted:
            row.count = wanted.pop(key)
        else:
            hand.tallies.remove(row)
    hand.tallies.extend(HandTally(player_id=p, figure=f, count=c) for (p, f), c in wanted.items())


def _find_by_request(table: Table, request_id: str) -> Hand | None:
    return db.session.scalar(select(Hand).where(Hand.table_id == table.id, Hand.request_id == request_id))


def get_hand(table: Table, number: Any) -> Hand | None:
    try:
        number = int(number)
    except (TypeError, ValueError):
        return None
    if isinstance(number, bool) or not 0 < number < 2**31:
        return None
    return db.session.scalar(select(Hand).where(Hand.table_id == table.id, Hand.number == number))


def _require_hand(table: Table, number: Any) -> Hand:
    hand = get_hand(table, number)
    if hand is None:
        raise NotFound(N_("This table has no hand number {number}.", number=number), field="number")
    return hand


def _check_revision(revision: Any) -> int:
    try:
        if isinstance(revision, bool):
            raise ValueError
        return int(revision)
    except (TypeError, ValueError):
        raise ScoringError(N_("The hand's revision is missing or not a number; reload the page."),
                           code="bad_revision", field="revision") from None


def record_hand(table: Table, facts: Any, *, request_id: Any, device=None,
                expected_number: int | None = None) -> Hand:
    """Settle and store a new hand (see :func:`record_hand_once`); the hand, new or stored before."""
    return record_hand_once(table, facts, request_id=request_id, device=device,
                            expected_number=expected_number)[0]


def record_hand_once(table: Table, facts: Any, *, request_id: Any, device=None,
                     expected_number: int | None = None, as_recorded: bool = False) -> tuple[Hand, bool]:
    """Settle and store a new hand: ``(hand, True)``. The same ``request_id`` again with the same
    facts returns ``(the stored hand, False)`` and records nothing — also when two requests race:
    only the one whose commit stored the hand says True. The same ``request_id`` with different
    facts raises :class:`Conflict` (``request_id_reused``) naming the hand it made: never the old
    hand as if it were the new one. ``expected_number`` (the number the form was opened for): when
    another hand was recorded in between, raise :class:`Conflict` with that hand as ``current``.

    One transaction, one commit, a fixed number of statements whatever the number of players:
    the table's row bumped and read back (UPDATE … RETURNING), the hand inserted unless its
    request id is already there (INSERT … ON CONFLICT DO NOTHING RETURNING), the deltas in one
    multi-row INSERT, the history event; the returned hand keeps what was written (nothing is read
    again after the commit). ``as_recorded`` (an exported hand imported back, nothing else): a hand
    recorded under earlier rules that today's engine refuses is settled as recorded."""
    if not isinstance(request_id, str) or not 1 <= len(request_id.strip()) <= 64:
        raise ScoringError(N_("Each recorded hand needs a request id of 1 to 64 characters."),
                           code="bad_request_id", field="request_id")
    request_id = request_id.strip()
    facts = _prepare_facts(table, facts)
    settlement, points, outcome = _settle_points(table, facts, as_recorded=as_recorded)
    try:
        _lock(table, new_hand=True)
        hand = _insert_hand(table, facts, request_id, outcome, settlement.next_dealer)
        if hand is None:  # this request id made a hand before (a double tap, a retry)
            db.session.rollback()
            return _recorded_before(table, request_id, facts), False
        if expected_number is not None and table.hand_seq > int(expected_number):
            current = get_hand(table, int(expected_number))
            if current is not None:
                db.session.rollback()
                raise Conflict(N_("Someone else recorded hand {number} while you were entering yours.",
                                  number=current.number), current=current, submitted=facts,
                               code="hand_recorded_meanwhile")
        deltas = [{"hand_id": hand.id, "player_id": player.id, "points": points[player.name]}
                  for player in table.players if player.name in points]  # the hand's players only (issue 21)
        db.session.execute(HandDelta.__table__.insert(), deltas)  # one statement (insertmanyvalues)
        set_committed_value(hand, "deltas", [HandDelta(**row) for row in deltas])
        tallies = [{"hand_id": hand.id, "player_id": player.id, "figure": figure, "count": int(count)}
                   for player in table.players for figure, count in settlement.tallies.get(player.name, {}).items()
                   if count]
        if tallies:  # the engine's review figures, one multi-row INSERT
            db.session.execute(HandTally.__table__.insert(), tallies)
        set_committed_value(hand, "tallies", [HandTally(**row) for row in tallies])
        set_committed_value(hand, "table", table)
        db.session.add(HandEvent(table_id=table.id, hand_id=hand.id, kind="create", before=None,
                                 after=_snapshot(hand, points), hand_revision=1, device=_device(device)))
        _commit_keeping()
        return hand, True
    except IntegrityError:
        db.session.rollback()
        existing = _find_by_request(table, request_id)
        if existing is not None:
            return _recorded_before(table, request_id, facts, existing), False
        raise
    except Exception:
        db.session.rollback()
        raise


def _insert_hand(table: Table, facts: dict, request_id: str, outcome, next_dealer) -> Hand | None:
    """INSERT the new hand unless this table has one with ``request_id`` (then None): one statement
    that also returns the stored row (id, timestamps) as a Hand of this session."""
    insert = (postgresql if db.session.get_bind().dialect.name == "postgresql" else sqlite).insert
    statement = insert(Hand).values(
        table_id=table.id, number=table.hand_seq, facts=facts, status=ACTIVE, request_id=request_id,
        revision=1, outcome=outcome, next_dealer=next_dealer, stake_text=table.stake_text,
        created_at=utcnow(), updated_at=utcnow(),
    ).on_conflict_do_nothing(index_elements=[Hand.table_id, Hand.request_id]).returning(Hand)
    return db.session.scalars(statement).one_or_none()


def _recorded_before(table: Table, request_id: str, facts: dict, existing: Hand | None = None) -> Hand:
    """The hand an earlier request with ``request_id`` made; :class:`Conflict` when it was made from
    other facts (the id was reused for a different hand: answering with the old hand would say
    the new one was saved)."""
    existing = existing if existing is not None else _find_by_request(table, request_id)
    if existing.facts != facts:
        raise Conflict(N_("This request id already recorded hand {number}, with other facts. Nothing new "
                          "was saved: send the new hand with a new request id.", number=existing.number),
                       current=existing, submitted=facts, code="request_id_reused", field="request_id")
    return existing


def _stale(hand: Hand, submitted) -> Conflict:
    return Conflict(N_("Hand {number} was changed by someone else after you opened it.",
                       number=hand.number), current=hand, submitted=submitted, code="stale_revision")


def edit_hand(table: Table, number, facts, *, revision, device=None) -> Hand:
    """Replace a hand's facts (re-settled by the engine). A stale ``revision`` raises Conflict."""
    revision = _check_revision(revision)
    hand = _require_hand(table, number)
    facts = _prepare_facts(table, facts, hand_players(hand))
    # Saved unchanged, a hand recorded under earlier rules is kept as it was recorded (issue 29).
    settlement, points, outcome = _settle_points(table, facts, as_recorded=facts == hand.facts)
    try:
        _lock(table)
        db.session.refresh(hand)
        if hand.revision != revision:
            db.session.rollback()
            raise _stale(hand, facts)
        before = _snapshot(hand)
        hand.facts = facts
        hand.outcome = outcome
        hand.next_dealer = settlement.next_dealer
        hand.revision += 1
        hand.updated_at = utcnow()
        _set_deltas(hand, table, points, settlement.tallies)
        return _log_change(table, hand, "edit", before, points, device)
    except Exception:
        db.session.rollback()
        raise


def _log_change(table: Table, hand: Hand, kind: str, before: dict, points, device) -> Hand:
    """The history's line of a change to a stored hand (what it was, what it is), then the commit."""
    db.session.add(HandEvent(table_id=table.id, hand_id=hand.id, kind=kind, before=before,
                             after=_snapshot(hand, points), hand_revision=hand.revision, device=_device(device)))
    _commit()
    return hand


def _set_status(table: Table, number, status: str, kind: str, revision, device) -> Hand:
    revision = _check_revision(revision)
    hand = _require_hand(table, number)
    try:
        _lock(table)
        db.session.refresh(hand)
        if hand.status == status:  # a double tap: already done, nothing to record
            db.session.rollback()
            return hand
        if hand.revision != revision:
            db.session.rollback()
            raise _stale(hand, None)
        before = _snapshot(hand)
        hand.status = status
        hand.revision += 1
        hand.updated_at = utcnow()
        return _log_change(table, hand, kind, before, before["points"], device)
    except Exception:
        db.session.rollback()
        raise


def void_hand(table: Table, number, *, revision, device=None) -> Hand:
    """Mark a hand void: it stays in the list and the history but no longer counts."""
    return _set_status(table, number, VOID, "void", revision, device)


def restore_hand(table: Table, number, *, revision, device=None) -> Hand:
    """Make a void hand count again."""
    return _set_status(table, number, ACTIVE, "restore", revision, device)


def add_ruling(table: Table, number: Any, ruling: dict, *, device=None) -> HandEvent:
    """Attach a ruling of the checker (``{"previous", "play", "previous_as", "play_as", "legal",
    "code", "reason"}``, the reason as :func:`engine.text.to_data`) to hand ``number`` as a note
    in its history. The hand, its revision and the standings do not change; undo skips notes."""
    hand = _require_hand(table, number)
    try:
        _lock(table)
        db.session.refresh(hand)
        db.session.add(HandEvent(table_id=table.id, hand_id=hand.id, kind=NOTE, before=None,
                                 after={"note": ruling, "status": hand.status}, hand_revision=hand.revision,
                                 device=_device(device)))
        _commit()
    except Exception:
        db.session.rollback()
        raise
    return history(table, hand, limit=1)[0]
