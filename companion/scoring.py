"""Tables and hands: validate with the engine -> settle -> store, one transaction per change.

Web pages, the JSON API and the CLI all call these functions; none of them re-implements a rule.
Facts are stored by player name (the engine's input); deltas by player id (integer points).
Money = points × the stake of the hand they were won in (each hand keeps the table's stake of the
moment it was recorded), summed in SQL per distinct stake when shown.

Concurrency: every write first bumps the table's row (``revision``, and ``hand_seq`` for a new
hand) with one UPDATE. That row lock serialises writers of one table on SQLite and PostgreSQL alike,
so hand numbers, request ids and revisions are checked against committed data.
"""
from __future__ import annotations

import json
import time
import unicodedata
from datetime import timedelta, timezone
from decimal import Decimal
from functools import lru_cache
from typing import Any, Iterable, NamedTuple

from sqlalchemy import delete as sa_delete
from sqlalchemy import desc, func, select, update
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.exc import IntegrityError, SQLAlchemyError
from sqlalchemy.orm.attributes import set_committed_value

from . import access
from .engine import ENGINES
from .engine.common import EngineError, N_, rules_to_dict
from .engine.money import parse_stake as _parse_stake
from .extensions import db
from .models import (ACTIVE, VOID, Hand, HandDelta, HandEvent, HandTally, Person, Player, PlayerChange, Table,
                     stake_text, utcnow)

NAME_MAX = 80
PLAYER_NAME_MAX = 40
NOTES_MAX = 2000
CURRENCY_MAX = 12
DEVICE_MAX = 60
NOTE = "note"  # a HandEvent that changes nothing: a ruling attached to a hand (issue 13)
DELETE_UNDO_SECONDS = 10 * 60  # a deleted table can be brought back for this long, then it is gone


class ScoringError(EngineError):
    """Bad input at the table level (not a rule): unknown hand, stale edit, bad name …"""

    default_code = "invalid"


class NotFound(ScoringError):
    default_code = "not_found"


class Conflict(ScoringError):
    """The hand changed since the page was loaded. ``current`` is the stored Hand, ``submitted`` the
    facts that were sent (None for a void/restore)."""

    default_code = "conflict"

    def __init__(self, message, *, current: Hand, submitted: Any = None, code=None, field=None):
        super().__init__(message, code=code, field=field)
        self.current = current
        self.submitted = submitted


class Standing(NamedTuple):
    player_id: int
    name: str
    seat: int | None  # None: the player left (their total stays)
    points: int
    money: Decimal


# --------------------------------------------------------------------------------------------
# Engine access


def engine_for(game: str):
    """The engine module of ``game`` (a key of the engine's ENGINES registry)."""
    module = ENGINES.get(game) if isinstance(game, str) else None
    if module is None:
        raise ScoringError(N_("Unknown game '{game}': choose one of {choices}.", game=game,
                              choices=", ".join(ENGINES)), code="unknown_game", field="game")
    return module


def table_rules(table: Table):
    """The table's pinned rules as the engine's Rules value (a frozen value: built once per set of
    rules and game, then remembered; recording a hand asks for it twice)."""
    return _rules_for(table.game, json.dumps(table.rules or {}, sort_keys=True))


@lru_cache(maxsize=256)
def _rules_for(game: str, rules_json: str):
    return engine_for(game).rules_from_dict(json.loads(rules_json))


def _prepare_facts(table: Table, facts: Any, names: list[str] | None = None) -> dict:
    """``names``: the hand's players (a stored hand keeps the players it was played by); by default
    the players seated now."""
    if not isinstance(facts, dict):
        raise ScoringError(N_("The hand's record must be a set of facts (a JSON object)."),
                           code="bad_facts", field="facts")
    facts = dict(facts)
    names = table.player_names if names is None else list(names)
    given = facts.get("players")
    if given is None:
        facts["players"] = names
    elif not isinstance(given, (list, tuple)) or list(given) != names:
        raise ScoringError(N_("The players must be this table's players in seat order: {names}.",
                              names=", ".join(names)), code="bad_players", field="players")
    else:
        facts["players"] = list(given)
    try:
        facts = json.loads(json.dumps(facts))
    except (TypeError, ValueError):
        raise ScoringError(N_("The hand's record contains values that are not numbers, text or lists."),
                           code="bad_facts", field="facts") from None
    return engine_for(table.game).used_facts(facts, table_rules(table))  # no stored fact the outcome ignores


def normalize_facts(table: Table, facts: Any) -> dict:
    """The facts as they would be stored (players filled in, JSON round trip); raises ScoringError."""
    return _prepare_facts(table, facts)


def facts_digest(table: Table, facts: Any) -> str:
    """A short fingerprint of the facts as they would be stored (to spot the same hand sent twice)."""
    import hashlib

    normal = _prepare_facts(table, facts)
    return hashlib.sha256(json.dumps(normal, sort_keys=True, ensure_ascii=False).encode()).hexdigest()[:32]


def settlement_for(table: Table, facts: Any, stake: Decimal | None = None):
    """The engine's Settlement for these facts at this table (money at ``stake``, by default the
    table's current stake: a stored hand passes its own); stores nothing."""
    facts = _prepare_facts(table, facts)
    module = engine_for(table.game)
    rules = table_rules(table)
    stake = table.stake if stake is None else stake
    return module.settle(facts, rules, stake=stake if stake else 1)


def safe_settlement(table: Table, facts: Any, stake: Decimal | None = None):
    """:func:`settlement_for`, or None when the stored facts no longer settle."""
    try:
        return settlement_for(table, facts, stake)
    except EngineError:
        return None


def _settle_points(table: Table, facts: dict):
    """Settle in points (stake 1): the engine's settle validates the facts, once."""
    module = engine_for(table.game)
    rules = table_rules(table)
    settlement = module.settle(facts, rules, stake=1)
    points = {name: int(settlement.points.get(name, 0)) for name in facts["players"]}
    if sum(points.values()) != 0:  # the engine is zero-sum; refuse to store anything else
        raise ScoringError(N_("The settlement does not add up to zero; nothing was saved."),
                           code="not_zero_sum")
    outcome = {"winners": list(settlement.winners) if settlement.winners else
               ([facts["winner"]] if isinstance(facts.get("winner"), str) else []),
               "arch": settlement.arch, "multiplier": settlement.multiplier}
    return settlement, points, outcome


# --------------------------------------------------------------------------------------------
# Rules questions (no table): is a play legal, who pays whom


def check_play(module, previous, play, rules, **opts):
    """The engine's Verdict for ``play`` on ``previous`` under ``rules``."""
    return module.check(previous, play, rules, **opts)


class AnswerSet(NamedTuple):
    """The answers to one reading of the play on the table."""

    reading: Any          # the engine's Reading answered (None when unknown)
    pin: str | None       # the previous_as that pins this reading (None: it cannot be pinned)
    answers: tuple        # the engine's Answers, weakest first


def readings_of(module, cards, rules, players=None) -> tuple:
    """Every reading of ``cards`` (the game's classify), strongest first."""
    return module.classify(cards, rules, players=players)


def pins(module, cards, rules, players=None) -> list[tuple[Any, str | None]]:
    """(reading, the declaration that pins it) for every reading of ``cards``."""
    readings = readings_of(module, cards, rules, players)
    return [(reading, module.declaration(reading, readings)) for reading in readings]


def answer_play(module, previous, rules, *, hand=None, players=None, previous_as=None) -> list[AnswerSet]:
    """What beats ``previous``? First the answers to the reading the checker uses (or the declared
    one); then, when the cards read several ways and none was declared, the answers to each other
    reading. The engine's ``answers`` decides everything."""
    main = module.answers(previous, rules, hand=hand, players=players, previous_as=previous_as)
    readings = pins(module, previous, rules, players)
    declared = previous_as is not None and str(previous_as).strip()
    if declared:
        chosen = next(((r, p) for r, p in readings if p == str(previous_as).strip()), (None, previous_as))
        return [AnswerSet(chosen[0], chosen[1], main)]
    if len(readings) < 2:
        return [AnswerSet(readings[0][0] if readings else None, None, main)]
    out = [AnswerSet(readings[0][0], readings[0][1], main)]
    for reading, pin in readings[1:]:
        if pin is not None:
            out.append(AnswerSet(reading, pin, module.answers(previous, rules, hand=hand, players=players,
                                                              previous_as=pin)))
    return out


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


def latest_hand_number(table: Table) -> int | None:
    """The number of the table's latest hand (the one a ruling is attached to by default)."""
    return table.hand_seq or None


def settle_facts(module, facts: dict, rules, stake: Decimal | None = None):
    """The engine's Settlement of one hand; a stake of 0 (points only) settles at 1."""
    return module.settle(facts, rules, stake=stake if stake else 1)


# --------------------------------------------------------------------------------------------
# Tables


def _text_error(what: str, problem: str, field: str, **params) -> ScoringError:
    """One whole sentence per field and problem, so that every message translates as a unit."""
    n = params.get("n")
    maximum, length = params.get("maximum"), params.get("length")
    sentences = {
        ("name", "required"): lambda: N_("The table needs a name."),
        ("name", "too_long"): lambda: N_("The table's name is too long: at most {maximum} characters, not "
                                         "{length}.", maximum=maximum, length=length),
        ("player", "required"): lambda: N_("Player {n} needs a name.", n=n),
        ("player", "too_long"): lambda: N_("Player {n}'s name is too long: at most {maximum} characters, not "
                                           "{length}.", n=n, maximum=maximum, length=length),
        ("person", "required"): lambda: N_("The person needs a name."),
        ("person", "too_long"): lambda: N_("The name is too long: at most {maximum} characters, not {length}.",
                                           maximum=maximum, length=length),
        ("currency", "too_long"): lambda: N_("The currency label is too long: at most {maximum} characters.",
                                             maximum=maximum),
        ("notes", "too_long"): lambda: N_("The notes are too long: at most {maximum} characters.", maximum=maximum),
    }
    make = sentences.get((what, problem)) or (lambda: N_("This text cannot be used here."))
    if problem == "bad_text":
        make = lambda: N_("Use plain text here (no control characters).")  # noqa: E731
    if problem == "invisible":
        make = lambda: N_("This text holds an invisible or text-direction character (often pasted along "  # noqa: E731
                          "with a name): type it again without it.")
    return ScoringError(make(), code=problem, field=field)


# Zero-width and direction-override characters make two names look the same ("Ana" and
# "Ana\u200b") or turn a name around on screen.
_INVISIBLE = frozenset("\u00ad\u034f\u061c\u115f\u1160\u17b4\u17b5\u180e\u200b\u200c\u200d\u200e\u200f"
                       "\u202a\u202b\u202c\u202d\u202e\u2060\u2061\u2062\u2063\u2064\u2066\u2067\u2068"
                       "\u2069\u3164\ufeff\uffa0")


_ZWNJ, _ZWJ, _TAG_END, _BLACK_FLAG = "\u200c", "\u200d", "\U000e007f", "\U0001f3f4"
# Scripts whose spelling needs the joiners between letters (Persian/Arabic, Syriac, the Indic scripts).
_JOINING_SCRIPTS = ((0x0600, 0x077F), (0x08A0, 0x08FF), (0x0900, 0x0DFF), (0xFB50, 0xFDFF), (0xFE70, 0xFEFF))


def _joins_letters(before: str, after: str) -> bool:
    """A joiner between two letters (or marks) of a script that spells with joiners."""
    def ok(ch):
        return unicodedata.category(ch)[0] in "LM" and any(lo <= ord(ch) <= hi for lo, hi in _JOINING_SCRIPTS)
    return ok(before) and ok(after)


def _joins_emoji(before: str, after: str) -> bool:
    """A zero-width joiner inside an emoji sequence (👩🏽‍🦰, 👨‍👩‍👧, 🏳️‍🌈): a pictograph, a skin
    tone or the emoji variation selector before it, a pictograph after it."""
    return (unicodedata.category(before) in ("So", "Sk") or before == "\ufe0f") and unicodedata.category(after) == "So"


def _invisible(value: str) -> bool:
    """Whether ``value`` holds an invisible or text-direction character that is not part of a
    legitimate sequence: joiners inside emoji sequences or between letters of a joining script,
    and the tag letters of a subdivision flag (🏴 + tags + the cancel tag), are allowed; direction
    overrides, lone zero-width characters and joiners between Latin letters are not."""
    in_flag = False
    for i, ch in enumerate(value):
        if "\U000e0020" <= ch <= _TAG_END:
            if not in_flag:
                return True
            in_flag = ch != _TAG_END
            continue
        if in_flag:  # a flag's tags must end with the cancel tag
            return True
        if ch == _BLACK_FLAG:
            in_flag = i + 1 < len(value) and "\U000e0020" <= value[i + 1] <= _TAG_END
            continue
        if ch not in _INVISIBLE and unicodedata.category(ch) != "Cf":
            continue
        before, after = value[i - 1:i], value[i + 1:i + 2]
        if ch in (_ZWJ, _ZWNJ) and before and after and (
                _joins_letters(before, after) or (ch == _ZWJ and _joins_emoji(before, after))):
            continue
        return True
    return in_flag


def _clean_text(value: Any, field: str, maximum: int, *, required: bool, what: str, n: int | None = None) -> str:
    if value is None:
        value = ""
    if not isinstance(value, str):
        raise _text_error(what, "bad_text", field)
    value = " ".join(unicodedata.normalize("NFKC", value).split())  # one spelling; no newlines or doubled spaces
    if any(ord(ch) < 32 or 0x7F <= ord(ch) < 0xA0 or unicodedata.category(ch) == "Cs" for ch in value):
        raise _text_error(what, "bad_text", field)
    if _invisible(value):
        raise _text_error(what, "invisible", field)
    if required and not value:
        raise _text_error(what, "required", field, n=n)
    if len(value) > maximum:
        raise _text_error(what, "too_long", field, n=n, maximum=maximum, length=len(value))
    return value


def clean_person_name(value: Any) -> str:
    """A person's name (companion/people.py), judged as a player's name is."""
    return _clean_text(value, "name", PLAYER_NAME_MAX, required=True, what="person")


def parse_stake(stake: Any) -> Decimal:
    """A table's stake: the engine's one stake parser; empty means 0 (a table that keeps points only)."""
    if stake is None or (isinstance(stake, str) and not stake.strip()):
        return Decimal("0")
    try:
        return _parse_stake(stake, allow_zero=True)
    except EngineError as error:  # the same code, message and field, as a table-level error
        raise ScoringError(error.message, code=error.code, field=error.field) from None


def _duplicates(names: list) -> list:
    """A ScoringError for each name that repeats an earlier one (case aside); None entries skipped."""
    seen: set = set()
    out = []
    for i, player in enumerate(names):
        if player is None:
            continue
        key = player.casefold()
        if key in seen:
            out.append(ScoringError(N_("'{name}' is listed twice; every player needs a different name.",
                                       name=player), code="duplicate_player", field=f"players.{i}"))
        seen.add(key)
    return out


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
    for key in ("unit", "base_stake"):  # points are stored as whole numbers; money is the stake's job
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


def _commit() -> None:
    """Commit, and remember for the rest of the request that something was saved."""
    db.session.commit()
    db.session.info["saved"] = True


commit = _commit  # for the other services (companion/people.py): the same bookkeeping


PURGE_EVERY_SECONDS = 60
_last_purge = [0.0]


def start_request() -> None:
    """Run before each request: nothing saved yet (the session may outlive one request in tests).
    About once a minute per worker, a request first purges the tables whose undo window has passed
    (one indexed query when there is nothing to purge). Otherwise a request that has not made a
    database session yet gets none here (the poll never needs one)."""
    if db.session.registry.has():
        db.session.info.pop("saved", None)
    from flask import current_app

    now = time.monotonic()
    if now - _last_purge[0] >= current_app.config.get("PURGE_EVERY_SECONDS", PURGE_EVERY_SECONDS):
        _last_purge[0] = now
        try:
            from . import review  # its import replay may leave a table behind when its worker is killed

            purge_deleted()
            review.purge_unfinished_imports()
        except SQLAlchemyError:  # housekeeping never fails a request (e.g. a database not migrated yet)
            db.session.rollback()


def saved_in_this_request() -> bool:
    """Whether this request committed a change (an error after that must not say "nothing was saved")."""
    return bool(db.session.info.get("saved"))


def discard_changes() -> None:
    """Roll back whatever the current request changed and did not commit (after an error)."""
    db.session.rollback()


_LOCK_READS = ("revision", "hand_seq", "stake_text", "archived_at", "deleted_at", "updated_at")


def _lock(table: Table, *, new_hand: bool = False, closed_ok: bool = False) -> None:
    """Bump the table row first: the row lock serialises this table's writers until commit. An
    archived or deleted table takes no change (``closed_ok``: the changes that open it again)."""
    values = {"revision": Table.revision + 1, "updated_at": utcnow()}
    if new_hand:
        values["hand_seq"] = Table.hand_seq + 1
    row = db.session.execute(update(Table).where(Table.id == table.id).values(**values)
                             .returning(*(getattr(Table, name) for name in _LOCK_READS))
                             .execution_options(synchronize_session=False)).one()
    for name, value in zip(_LOCK_READS, row):  # what the locked row holds now: no second read
        set_committed_value(table, name, value)
    if not closed_ok:
        check_open(table)


def lock_table(table: Table) -> None:
    """For another service's change to a table's rows that is not a hand (e.g. linking players to
    people, also at an archived table): serialise it with the table's other writers (the caller
    commits or rolls back)."""
    _lock(table, closed_ok=True)


def check_open(table: Table) -> None:
    """Raise a ScoringError when the table is archived or deleted (it takes no hands or corrections)."""
    if table.deleted_at is not None:
        raise ScoringError(N_("This table was deleted; bring it back to change it."),
                           code="table_deleted", field="table")
    if table.archived_at is not None:
        raise ScoringError(N_("This table is archived; restore it to record or correct hands."),
                           code="table_archived", field="table")


# --------------------------------------------------------------------------------------------
# Hands


def _device(device: Any) -> str:
    return (str(device) if device else "")[:DEVICE_MAX]


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
                     expected_number: int | None = None) -> tuple[Hand, bool]:
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
    again after the commit)."""
    if not isinstance(request_id, str) or not 1 <= len(request_id.strip()) <= 64:
        raise ScoringError(N_("Each recorded hand needs a request id of 1 to 64 characters."),
                           code="bad_request_id", field="request_id")
    request_id = request_id.strip()
    facts = _prepare_facts(table, facts)
    settlement, points, outcome = _settle_points(table, facts)
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


def _commit_keeping() -> None:
    """Commit without expiring what the session holds: what this transaction wrote is what its
    objects hold, so the answer is built without reading the rows again."""
    session = db.session()
    session.expire_on_commit = False
    try:
        _commit()
    finally:
        session.expire_on_commit = True


def _stale(hand: Hand, submitted) -> Conflict:
    return Conflict(N_("Hand {number} was changed by someone else after you opened it.",
                       number=hand.number), current=hand, submitted=submitted, code="stale_revision")


def edit_hand(table: Table, number, facts, *, revision, device=None) -> Hand:
    """Replace a hand's facts (re-settled by the engine). A stale ``revision`` raises Conflict."""
    revision = _check_revision(revision)
    hand = _require_hand(table, number)
    facts = _prepare_facts(table, facts, hand_players(hand))
    settlement, points, outcome = _settle_points(table, facts)
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
        db.session.add(HandEvent(table_id=table.id, hand_id=hand.id, kind="edit", before=before,
                                 after=_snapshot(hand, points), hand_revision=hand.revision,
                                 device=_device(device)))
        _commit()
        return hand
    except Exception:
        db.session.rollback()
        raise


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
        db.session.add(HandEvent(table_id=table.id, hand_id=hand.id, kind=kind, before=before,
                                 after=_snapshot(hand, before["points"]), hand_revision=hand.revision,
                                 device=_device(device)))
        _commit()
        return hand
    except Exception:
        db.session.rollback()
        raise


def void_hand(table: Table, number, *, revision, device=None) -> Hand:
    """Mark a hand void: it stays in the list and the history but no longer counts."""
    return _set_status(table, number, VOID, "void", revision, device)


def restore_hand(table: Table, number, *, revision, device=None) -> Hand:
    """Make a void hand count again."""
    return _set_status(table, number, ACTIVE, "restore", revision, device)


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
            settlement, points, outcome = _settle_points(table, facts)
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


# --------------------------------------------------------------------------------------------
# Reading


def points_and_money(table: Table) -> dict[int, tuple[int, Decimal]]:
    """{player id: (points, money)} of the table's players: see :func:`player_totals`."""
    return player_totals(Hand.table_id == table.id)


def player_totals(*where) -> dict[int, tuple[int, Decimal]]:
    """{player id: (points, money)} over the active hands matching ``where``: ONE SQL aggregate,
    grouped by player and by the stake the hands were played at (a handful of rows), each group's
    points × its stake added up exactly in decimals. The one place money is computed."""
    totals: dict[int, tuple[int, Decimal]] = {}
    for player_id, stake, points in db.session.execute(
            select(HandDelta.player_id, Hand.stake_text, func.sum(HandDelta.points))
            .join(Hand, Hand.id == HandDelta.hand_id)
            .where(Hand.status == ACTIVE, *where)
            .group_by(HandDelta.player_id, Hand.stake_text)):
        old_points, old_money = totals.get(player_id, (0, Decimal(0)))
        totals[player_id] = (old_points + int(points), old_money + Decimal(stake or "0") * int(points))
    return totals


def standings(table: Table) -> list[Standing]:
    """Totals per player, highest points first (then seat): see :func:`points_and_money`. The
    players seated now and those who left having played a counting hand (they keep their total)."""
    totals = points_and_money(table)
    rows = [Standing(p.id, p.name, p.seat if p.seated else None, *totals.get(p.id, (0, Decimal(0))))
            for p in table.players if p.seated or p.id in totals]
    return sorted(rows, key=lambda r: (-r.points, r.seat is None, r.seat or 0))


def in_money(table: Table) -> bool:
    """Does the table play for money: a stake now, or any counting hand played at one?"""
    if table.stake:
        return True
    return db.session.scalar(select(Hand.id).where(Hand.table_id == table.id, Hand.stake_text != "0")
                             .limit(1)) is not None


class StakeChange(NamedTuple):
    from_hand: int  # the first hand played at this stake
    stake: Decimal


def stake_changes(table: Table) -> list[StakeChange]:
    """The stakes the table's hands were played at, in hand order: one row per change (a window
    function; as many rows as the stake changed, whatever the number of hands)."""
    previous = func.lag(Hand.stake_text).over(order_by=Hand.number)
    sub = (select(Hand.number.label("number"), Hand.stake_text.label("stake"), previous.label("previous"))
           .where(Hand.table_id == table.id).subquery())
    rows = db.session.execute(select(sub.c.number, sub.c.stake)
                              .where((sub.c.previous.is_(None)) | (sub.c.previous != sub.c.stake))
                              .order_by(sub.c.number))
    return [StakeChange(int(n), Decimal(s or "0")) for n, s in rows]


def hand_counts(table: Table) -> tuple[int, int]:
    """(active hands, all hands including void)."""
    row = db.session.execute(
        select(func.count(Hand.id), func.count(Hand.id).filter(Hand.status == ACTIVE))
        .where(Hand.table_id == table.id)).one()
    return int(row[1]), int(row[0])


def hands_page(table: Table, page: int = 1, per_page: int = 25):
    """(hands newest first, {hand_id: {player_id: points}}) for one page; deltas in ONE query."""
    page = max(1, page)
    hands = list(db.session.scalars(
        select(Hand).where(Hand.table_id == table.id).order_by(desc(Hand.number))
        .limit(per_page).offset((page - 1) * per_page)))
    deltas: dict[int, dict[int, int]] = {h.id: {} for h in hands}
    if hands:
        for hand_id, player_id, pts in db.session.execute(
                select(HandDelta.hand_id, HandDelta.player_id, HandDelta.points)
                .where(HandDelta.hand_id.in_(list(deltas)))):
            deltas[hand_id][player_id] = pts
    return hands, deltas


def current_dealer(table: Table) -> str | None:
    """The dealer (干瞪眼) / banker (大冶打拱) of the next hand: the engine's next dealer of the
    latest counting hand, else the table's first dealer."""
    name = db.session.scalar(
        select(Hand.next_dealer).where(Hand.table_id == table.id, Hand.status == ACTIVE,
                                       Hand.next_dealer.is_not(None))
        .order_by(desc(Hand.number)).limit(1))
    return seated_successor(table, name or table.first_dealer)


def history(table: Table, hand: Hand | None = None, limit: int | None = None, offset: int = 0) -> list[HandEvent]:
    """Events newest first, for the whole table or one hand (``limit`` and ``offset``: one page)."""
    query = select(HandEvent).where(HandEvent.table_id == table.id)
    if hand is not None:
        query = query.where(HandEvent.hand_id == hand.id)
    query = query.order_by(desc(HandEvent.id))
    if limit:
        query = query.limit(limit)
    if offset:
        query = query.offset(offset)
    return list(db.session.scalars(query))


def hand_numbers(table: Table, hand_ids: Iterable[int] | None = None) -> dict[int, int]:
    """{hand id: hand number} for the table's hands (only ``hand_ids`` when given: one page's)."""
    query = select(Hand.id, Hand.number).where(Hand.table_id == table.id)
    if hand_ids is not None:
        query = query.where(Hand.id.in_(list(set(hand_ids))))
    return dict(db.session.execute(query).all())


def undone_event(event: HandEvent) -> HandEvent | None:
    """The change an ``undo`` event undid."""
    return db.session.get(HandEvent, event.undoes_id) if event.undoes_id else None


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


# --------------------------------------------------------------------------------------------
# A whole table as a document (the review module does the work; here for the API's one service door)


def export_document(table: Table) -> dict:
    from . import review

    return review.export_document(table)


def export_chunks(table: Table):
    """The export document as streamed UTF-8 chunks (bounded memory)."""
    from . import review

    return review.export_chunks(table)


def import_document(data: bytes | str) -> Table:
    """Recreate an exported table (one transaction); :class:`review.ImportRefused` says why not."""
    from . import review

    return review.import_json(data)


# --------------------------------------------------------------------------------------------
# Players who come and go (between hands): rename, join, leave, change seats, a substitute


def hand_players(hand: Hand) -> list[str]:
    """The players of a stored hand, in seat order as it was played (a hand keeps its players)."""
    names = (hand.facts or {}).get("players")
    return list(names) if isinstance(names, list) else hand.table.player_names


def seated_successor(table: Table, name: str | None) -> str | None:
    """``name`` when that player is seated; for a player who left, whoever sits in their seat now
    (a substitute takes over the seat's turn to deal or be banker); None when nobody is named."""
    if name is None:
        return None
    seated = table.seated_players
    if not seated or any(p.name == name for p in seated):
        return name
    gone = next((p for p in table.players if p.name == name), None)
    if gone is None or gone.former_seat is None:
        return name
    return seated[gone.former_seat % len(seated)].name


def _roster(table: Table) -> dict:
    return {"players": [{"id": p.id, "name": p.name, "seat": p.seat, "former_seat": p.former_seat}
                        for p in table.players], "first_dealer": table.first_dealer}


def _renamed(value: Any, names: dict) -> Any:
    """``value`` (a hand's facts or outcome) with every player name in ``names`` replaced (keys and
    values; names are unique at a table)."""
    if isinstance(value, dict):
        return {names.get(k, k): _renamed(v, names) for k, v in value.items()}
    if isinstance(value, list):
        return [_renamed(v, names) for v in value]
    if isinstance(value, str):
        return names.get(value, value)
    return value


def _rename_in_hands(table: Table, names: dict, by_id: dict) -> None:
    """Rewrite the names ``{old: new}`` in every hand of the table (facts, outcome, next dealer) and
    the first dealer. Each rewritten hand is settled again and must give every player (by id) the
    same points as stored: otherwise nothing is changed (a name that reads as some other fact)."""
    if not names:
        return
    table.first_dealer = names.get(table.first_dealer, table.first_dealer)
    module, rules = engine_for(table.game), table_rules(table)
    for hand in db.session.scalars(select(Hand).where(Hand.table_id == table.id).order_by(Hand.number)):
        facts = _renamed(hand.facts, names)
        if facts == hand.facts:
            continue
        settlement = module.settle(facts, rules, stake=1)
        stored = {names.get(by_id[d.player_id], by_id[d.player_id]): d.points for d in hand.deltas}
        if {n: int(settlement.points.get(n, 0)) for n in stored} != stored:
            raise ScoringError(N_("Hand {number} would read differently with the new names; nothing was changed. "
                                  "Choose other names.", number=hand.number), code="rename_changes_hand",
                               field="players")
        hand.facts = facts
        hand.outcome = _renamed(hand.outcome, names)
        hand.next_dealer = names.get(hand.next_dealer, hand.next_dealer)


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


def _entry(entry: Any) -> tuple[Any, Any]:
    """(new name, the current name of the player it is, or None) of one roster entry."""
    if isinstance(entry, dict):
        return entry.get("name"), entry.get("was")
    return entry, None


def players_problems(table: Table, players: Any) -> list[ScoringError]:
    """Every problem with a new list of the table's players (see :func:`change_players`), each
    beside its field (``players.<i>``); an empty list when it can be applied."""
    if not isinstance(players, (list, tuple)):
        return [ScoringError(N_("The players must be a list of names in seat order."),
                             code="bad_players", field="players")]
    problems: list = []
    names, taken = [], set()
    by_name = {p.name: p for p in table.players}
    for i, entry in enumerate(players):
        raw, was = _entry(entry)
        try:
            name = _clean_text(raw, f"players.{i}", PLAYER_NAME_MAX, required=True, what="player", n=i + 1)
        except EngineError as error:
            problems.append(error)
            names.append(None)
            continue
        names.append(name)
        if was not in (None, "") and was not in by_name:
            problems.append(ScoringError(N_("'{name}' is not a player at this table.", name=was),
                                         code="unknown_player", field=f"players.{i}"))
        player = by_name.get(was) if was not in (None, "") else by_name.get(name)
        if player is not None:
            if player.id in taken:
                problems.append(ScoringError(N_("'{name}' is listed twice; every player needs a different name.",
                                                name=player.name), code="duplicate_player", field=f"players.{i}"))
            taken.add(player.id)
    problems += [e for e in _duplicates(names) if e.code == "duplicate_player"
                 and not any(p.field == e.field for p in problems)]
    for i, (entry, name) in enumerate(zip(players, names)):
        _raw, was = _entry(entry)
        player = by_name.get(was) if was not in (None, "") else by_name.get(name or "")
        others = [q for q in table.players if name and q is not player and q.name.casefold() == name.casefold()]
        if any(q.id not in taken for q in others):
            problems.append(ScoringError(N_("'{name}' already played at this table; choose another name.",
                                            name=name), code="name_taken", field=f"players.{i}"))
    count = _count_problem(table, len(players))
    if count is not None:
        problems.append(count)
    return problems


def change_players(table: Table, players: Any, *, device=None) -> PlayerChange | None:
    """Change who sits at the table between hands, in ONE transaction, kept in the table's history
    (undo takes it back). ``players``: the new players in seat order, each a name or
    ``{"name": ..., "was": <current name>}``:

    - a name of a player of this table (seated, or who left earlier and comes back) keeps that
      player (their total follows them), ``was`` renames them (every hand they played too);
    - a new name is a player who joins (up to the engine's limit for the game and house rules);
    - a seated player left out leaves: their total stays, they are in no later hand;
    - the order is the new seating; a new name where someone left is a substitute taking the seat.

    Hands already played keep their players. Returns the change, or None when nothing changes."""
    problems = players_problems(table, players)
    if problems:
        raise problems[0]
    before = _roster(table)
    by_name = {p.name: p for p in table.players}
    wanted: list[tuple[Player | None, str]] = []
    for entry in players:
        raw, was = _entry(entry)
        name = _clean_text(raw, "players", PLAYER_NAME_MAX, required=True, what="player")
        wanted.append((by_name.get(was) if was not in (None, "") else by_name.get(name), name))
    if [(p.id if p else None, n) for p, n in wanted] == [(p.id, p.name) for p in table.seated_players]:
        return None
    try:
        _lock(table)
        by_id = {p.id: p.name for p in table.players}
        renames = {p.name: name for p, name in wanted if p is not None and p.name != name}
        _rename_in_hands(table, renames, by_id)
        staying = {p.id for p, _ in wanted if p is not None}
        for player in table.players:  # every seat (and a changing name) free first: both are unique
            if player.seated and player.id not in staying:
                player.former_seat = player.seat
            player.seat = -player.id
            if player.name in renames:
                player.name = f"\x01{player.id}"  # no real name holds a control character
        db.session.flush()
        for seat, (player, name) in enumerate(wanted):
            if player is None:
                table.players.append(Player(seat=seat, name=name))
            else:
                player.seat, player.name, player.former_seat = seat, name, None
        db.session.flush()
        change = PlayerChange(table_id=table.id, kind="players", before=before, after=_roster(table),
                              after_event=_latest_event_id(table), device=_device(device))
        db.session.add(change)
        _commit()
    except Exception:
        db.session.rollback()
        raise
    db.session.expire(table, ["players"])
    return change


def _latest_event_id(table: Table) -> int:
    return db.session.scalar(select(func.max(HandEvent.id)).where(HandEvent.table_id == table.id)) or 0


def _players_undo_target(table: Table, hand_event: HandEvent | None) -> PlayerChange | None:
    """The latest change of the players not undone yet, when it is newer than ``hand_event`` (the
    hand change undo would otherwise take back)."""
    undone = select(PlayerChange.undoes_id).where(PlayerChange.table_id == table.id,
                                                  PlayerChange.undoes_id.is_not(None))
    change = db.session.scalar(select(PlayerChange).where(PlayerChange.table_id == table.id,
                                                          PlayerChange.kind == "players",
                                                          PlayerChange.id.not_in(undone))
                               .order_by(desc(PlayerChange.id)).limit(1))
    if change is None or (hand_event is not None and hand_event.id > change.after_event):
        return None
    return change


def undo_players_change(table: Table, change: PlayerChange, *, device=None) -> PlayerChange:
    """Put the players back as they were before ``change`` (names in the hands too); a player who
    joined in it leaves again (keeping any hand they played since, which undo has voided)."""
    try:
        _lock(table)
        current = _roster(table)
        was = {row["id"]: row for row in change.before["players"]}
        by_id = {p.id: p.name for p in table.players}
        renames = {p.name: was[p.id]["name"] for p in table.players if p.id in was and was[p.id]["name"] != p.name}
        _rename_in_hands(table, renames, by_id)
        for player in table.players:
            player.seat = -player.id
            if player.name in renames:
                player.name = f"\x01{player.id}"  # no real name holds a control character
        db.session.flush()
        for player in table.players:
            row = was.get(player.id)
            if row is None:  # joined in the change undone (or later, and left again when that was undone)
                joined = next((r for r in change.after["players"] if r["id"] == player.id), None)
                if joined is not None and joined["seat"] >= 0:
                    player.former_seat = joined["seat"]
                continue
            player.name, player.seat, player.former_seat = row["name"], row["seat"], row["former_seat"]
        table.first_dealer = change.before.get("first_dealer")
        db.session.flush()
        undo = PlayerChange(table_id=table.id, kind="undo", before=current, after=_roster(table),
                            after_event=_latest_event_id(table), undoes_id=change.id, device=_device(device))
        db.session.add(undo)
        _commit()
    except Exception:
        db.session.rollback()
        raise
    db.session.expire(table, ["players"])
    return undo


def player_changes(table: Table) -> list[PlayerChange]:
    """The table's changes of players (and their undos), newest first."""
    return list(db.session.scalars(select(PlayerChange).where(PlayerChange.table_id == table.id)
                                   .order_by(desc(PlayerChange.id))))
