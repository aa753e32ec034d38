"""Tables: open one (every field checked, the rules through the engine), change its name, stake,
currency and notes, archive it, delete it (with an undo window) and purge it for good."""
from __future__ import annotations

import json
from datetime import timedelta, timezone
from typing import Any, Iterable

from sqlalchemy import delete as sa_delete
from sqlalchemy import desc, select

from .. import access
from ..engine.public import N_, EngineError, rules_to_dict
from ..extensions import db
from ..db.models import Hand, HandDelta, HandEvent, HandTally, Person, Player, PlayerChange, Table, stake_text, utcnow
from .errors_limits import (CURRENCY_MAX, DELETE_UNDO_SECONDS, NAME_MAX, NOTES_MAX, PLAYER_NAME_MAX, NotFound, ScoringError,
                     engine_for, table_rules)
from .text import _clean_text, _duplicates, parse_stake
from .transactions import _commit, _lock, check_open

# House rules a table holds as whole numbers: points are stored whole; money is the stake's job
# (the API's document says so too: schemas.per_game).
WHOLE_AT_A_TABLE = ("unit", "base_stake")


def table_problems(*, name, players, stake="0", currency="", notes="") -> list:
    """Every problem with a new table's name, player names, stake, currency and notes, each field
    judged as :func:`create_table` judges it (which stops at the first): a form flags them all."""
    problems: list = []

    def judge(check, *args, **kwargs):
        try:
            return check(*args, **kwargs)
        except EngineError as error:
            problems.append(error)
            return None

    judge(_clean_text, name, "name", NAME_MAX, required=True, what="name")
    names = [judge(_clean_text, p, f"players.{i}", PLAYER_NAME_MAX, required=True, what="player", n=i + 1)
             for i, p in enumerate(players if isinstance(players, (list, tuple)) else [])]
    problems += _duplicates(names)
    judge(parse_stake, stake)
    judge(_clean_text, currency, "currency", CURRENCY_MAX, required=False, what="currency")
    judge(_clean_text, notes, "notes", NOTES_MAX, required=False, what="notes")
    return problems


def create_table(*, game, name, players, stake="0", currency="", preset=None, rules=None,
                 notes="", first_dealer=None) -> Table:
    """Validate everything (rules through the engine), store the table and its players, commit."""
    module = engine_for(game)
    name = _clean_text(name, "name", NAME_MAX, required=True, what="name")
    if not isinstance(players, (list, tuple)):
        raise ScoringError(N_("The players must be a list of names in seat order."),
                           code="bad_players", field="players")
    names = []
    for i, player in enumerate(players):
        names.append(_clean_text(player, f"players.{i}", PLAYER_NAME_MAX, required=True, what="player", n=i + 1))
    for error in _duplicates(names):
        raise error
    problem = _game_count_problem(module, len(names))
    if problem is not None:
        raise problem
    stake_value = parse_stake(stake)
    currency = _clean_text(currency, "currency", CURRENCY_MAX, required=False, what="currency")
    notes = _clean_text(notes, "notes", NOTES_MAX, required=False, what="notes")
    if preset in ("", None):
        preset = None
    rules_value = module.rules_from_dict(dict(rules) if rules else None, preset=preset)
    for key in WHOLE_AT_A_TABLE:
        value = getattr(rules_value, key, 1)
        if value != int(value):
            raise ScoringError(N_("The house rule '{key}' must be a whole number at a table. To play for "
                                  "{value} per point, keep it at 1 and set the stake to {value}.",
                                  key=key, value=value), code="fractional_unit", field=f"rules.{key}")
    module.decks(rules_value, len(names))  # the engine refuses a player count its rules cannot deal
    if first_dealer in ("", None):
        first_dealer = None
    elif first_dealer not in names:
        raise ScoringError(N_("The first dealer must be one of the players, not '{name}'.", name=first_dealer),
                           code="bad_dealer", field="first_dealer")
    table = Table(game=game, name=name, currency=currency, preset=preset,
                  rules=json.loads(json.dumps(rules_to_dict(rules_value), default=str)),
                  notes=notes, first_dealer=first_dealer)
    table.stake = stake_value
    table.players = [Player(seat=i, name=n) for i, n in enumerate(names)]
    access.issue_token(table)
    db.session.add(table)
    _commit()
    return table


def rematch_table(table: Table) -> Table:
    """A new night with the same people: a new table of the same game with the players seated now,
    in the same seats, the same house rules (pinned as this table's), stake, currency and name, and
    each player linked to the same person; nothing of this table is changed. One commit."""
    rematch = create_table(game=table.game, name=table.name, players=table.player_names, stake=table.stake_text,
                           currency=table.currency, preset=table.preset, rules=dict(table.rules or {}))
    people = {p.name: p.person_id for p in table.seated_players}
    for player in rematch.players:
        player.person_id = people.get(player.name)
    _commit()
    return rematch


def get_table(public_id: str) -> Table | None:
    """The table, also while it is deleted but can still be brought back (``deleted_at`` set: the
    faces show it as deleted); None when unknown or deleted for good (then it is purged here)."""
    if not isinstance(public_id, str) or not 10 <= len(public_id) <= 32:
        return None
    table = db.session.scalar(select(Table).where(Table.public_id == public_id))
    if table is not None and table.deleted_at is not None and undelete_deadline(table) <= utcnow():
        purge_deleted()
        return None
    return table


def update_table(table: Table, *, name=None, currency=None, notes=None, stake=None, archived=None,
                 deleted=None) -> Table:
    """Change a table, in ONE transaction: name, currency label, notes, stake (None: keep; a new stake
    applies from the next hand on, every hand keeps the stake it was played at); ``archived`` /
    ``deleted`` True closes it, False opens it again (a deleted table only within its undo window).
    Everything is checked before anything is written: an edit of a table that stays archived or
    deleted, a bad value or a deletion past its window changes nothing."""
    changes = {}
    if name is not None:
        changes["name"] = _clean_text(name, "name", NAME_MAX, required=True, what="name")
    if currency is not None:
        changes["currency"] = _clean_text(currency, "currency", CURRENCY_MAX, required=False, what="currency")
    if notes is not None:
        changes["notes"] = _clean_text(notes, "notes", NOTES_MAX, required=False, what="notes")
    if stake is not None:
        changes["stake_text"] = stake_text(parse_stake(stake))
    if deleted is True:
        purge_deleted()  # the tables whose undo window has passed go now
    try:
        _lock(table, closed_ok=True)
        if deleted is False and table.deleted_at is not None:
            if undelete_deadline(table) <= utcnow():
                raise NotFound(N_("This table was deleted for good; it can no longer be brought back."),
                               code="table_gone", field="table")
            table.deleted_at = None
        if (changes or archived is not None) and table.deleted_at is not None:
            check_open(table)  # deleted (and not brought back by this request): nothing else changes
        if archived is False:
            table.archived_at = None
        if changes:
            check_open(table)  # archived (and not restored by this request)
        for key, value in changes.items():
            setattr(table, key, value)
        if archived is True and table.archived_at is None:
            table.archived_at = utcnow()
        if deleted is True and table.deleted_at is None:
            table.deleted_at = utcnow()
        _commit()
    except Exception:
        db.session.rollback()
        raise
    return table


def archive_table(table: Table) -> Table:
    """Close the table: kept and shown (standings, review, export) but it takes no hands until restored."""
    return update_table(table, archived=True)


def unarchive_table(table: Table) -> Table:
    """Open an archived table again."""
    return update_table(table, archived=False)


def delete_table(table: Table) -> Table:
    """Delete the table: hidden at once, gone for good after ``DELETE_UNDO_SECONDS`` (undo with
    :func:`undelete_table` until then). Tables whose window has passed are purged now."""
    return update_table(table, deleted=True)


def undelete_table(table: Table) -> Table:
    """Bring a deleted table back (within the undo window; after it, the table is gone)."""
    return update_table(table, deleted=False)


def undelete_deadline(table: Table):
    """When a deleted table goes for good (None: not deleted)."""
    if table.deleted_at is None:
        return None
    deleted = table.deleted_at if table.deleted_at.tzinfo else table.deleted_at.replace(tzinfo=timezone.utc)
    return deleted + timedelta(seconds=DELETE_UNDO_SECONDS)


def undelete_minutes_left(table: Table) -> int:
    """Whole minutes (rounded up) left to bring a deleted table back; 0 when not deleted or too late."""
    deadline = undelete_deadline(table)
    if deadline is None:
        return 0
    return max(0, -int(-(deadline - utcnow()).total_seconds() // 60))


def purge_deleted(now=None) -> int:
    """Remove for good the tables deleted more than ``DELETE_UNDO_SECONDS`` ago, with everything
    they hold (in dependency order, a few statements whatever their size). Returns how many."""
    cutoff = (now or utcnow()) - timedelta(seconds=DELETE_UNDO_SECONDS)
    ids = list(db.session.scalars(select(Table.id).where(Table.deleted_at.is_not(None),
                                                         Table.deleted_at <= cutoff)))
    remove_tables(ids)
    return len(ids)


def remove_tables(ids: list[int]) -> None:
    """Remove these tables for good with everything they hold (a few set-based statements), and the
    people no other table's player is linked to any more (no orphans)."""
    if not ids:
        return
    try:
        hands = select(Hand.id).where(Hand.table_id.in_(ids))
        db.session.execute(sa_delete(HandEvent).where(HandEvent.table_id.in_(ids)))
        db.session.execute(sa_delete(HandDelta).where(HandDelta.hand_id.in_(hands)))
        db.session.execute(sa_delete(HandTally).where(HandTally.hand_id.in_(hands)))
        db.session.execute(sa_delete(Hand).where(Hand.table_id.in_(ids)))
        people = set(db.session.scalars(select(Player.person_id).where(Player.table_id.in_(ids),
                                                                         Player.person_id.is_not(None))))
        db.session.execute(sa_delete(Player).where(Player.table_id.in_(ids)))
        db.session.execute(sa_delete(PlayerChange).where(PlayerChange.table_id.in_(ids)))
        db.session.execute(sa_delete(Table).where(Table.id.in_(ids)))
        if people:  # people linked only at these tables would be left with no table at all
            still = select(Player.person_id).where(Player.person_id.in_(people))
            db.session.execute(sa_delete(Person).where(Person.id.in_(people), Person.id.not_in(still)))
        _commit()
    except Exception:
        db.session.rollback()
        raise
    db.session.expire_all()


def check_edit_token(table: Table, token: Any) -> bool:
    """Is ``token`` the table's current edit token (constant time; see companion/access.py)?"""
    return access.check_edit_token(table, token)


def recently_deleted(public_ids: Iterable[str]) -> list[Table]:
    """Those of these tables that are deleted but can still be brought back, latest deleted first."""
    ids = [p for p in public_ids if isinstance(p, str)]
    if not ids:
        return []
    cutoff = utcnow() - timedelta(seconds=DELETE_UNDO_SECONDS)
    return list(db.session.scalars(select(Table).where(Table.public_id.in_(ids), Table.deleted_at.is_not(None),
                                                       Table.deleted_at > cutoff)
                                   .order_by(desc(Table.deleted_at))))


def tables_by_public_id(public_ids: Iterable[str]) -> dict[str, Table]:
    ids = [p for p in public_ids if isinstance(p, str)]
    if not ids:
        return {}
    return {t.public_id: t for t in db.session.scalars(select(Table).where(Table.public_id.in_(ids),
                                                                         Table.deleted_at.is_(None)))}


def _count_problem(table: Table, count: int) -> ScoringError | None:
    """Whether ``count`` players may play at this table: the engine's PLAYER_RANGE, the house rules'
    range and the decks the rules deal with (the engine decides)."""
    module, rules = engine_for(table.game), table_rules(table)
    problem = _game_count_problem(module, count)
    if problem is not None:
        return problem
    try:  # the house rules' own range and the decks they deal with
        module.decks(rules, count)
    except EngineError as error:
        return ScoringError(error.message, code=error.code, field="players")
    return None


def _game_count_problem(module, count: int) -> ScoringError | None:
    """Whether the game is played by ``count`` players at all (the engine's PLAYER_RANGE)."""
    low, high = module.PLAYER_RANGE
    if low <= count <= high:
        return None
    if low == high:
        message = N_("This game needs exactly {count} players, not {n}.", count=low, n=count)
    else:
        message = N_("This game needs {low} to {high} players, not {n}.", low=low, high=high, n=count)
    return ScoringError(message, code="player_count", field="players")
