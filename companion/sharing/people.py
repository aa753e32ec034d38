"""People across tables: link the same person at several tables of this server, a person's page
(totals and trend across sessions), and the searchable list of past tables.

Links are explicit: a phone that may record at a table chooses, for each player, a person it
already knows (one linked at a table this phone has), a new person, or none. Nothing is ever
linked by guessing from names. People belong to this server: export/import does not carry them.

Which tables a phone sees: its own tables (the ones it may record at) plus every table of a person
linked at one of them (so a person's page shows their whole history); never the server's others.

Every figure comes from SQL aggregates over the deltas of active hands, in a fixed number of
queries per page. This module may import the models, the extensions, scoring and the engine; it
never imports the views, the forms or the CLI.
"""
from __future__ import annotations

import unicodedata
from collections import defaultdict
from dataclasses import dataclass, field
from datetime import datetime
from decimal import Decimal
from typing import Any, Iterable, Mapping

from sqlalchemy import delete, desc, func, select, union

from ..engine.public import N_
from ..extensions import db
from ..db.models import ACTIVE, Hand, HandDelta, Person, Player, Table
from .. import scoring
from ..scoring import ScoringError, lock_table

NEW = "new"  # link_players: a new person, named as the player
PER_PAGE = 20
QUERY_MAX = 40  # a player's name is at most 40 characters: a longer query cannot match


# --------------------------------------------------------------------------------------------
# Which tables and people a phone sees


def _ids(table_ids: Iterable[int]) -> list[int]:
    return sorted({int(i) for i in table_ids})


def visible_table_ids(table_ids: Iterable[int]) -> list[int]:
    """``table_ids`` (a phone's own tables) plus every table where a person linked at one of them
    played. ONE query."""
    own = _ids(table_ids)
    if not own:
        return []
    linked = select(Player.person_id).where(Player.table_id.in_(own), Player.person_id.is_not(None))
    others = select(Player.table_id).where(Player.person_id.in_(linked))
    found = db.session.scalars(select(Table.id).where(  # a deleted table is hidden here too
        Table.id.in_(union(select(Table.id).where(Table.id.in_(own)), others)), Table.deleted_at.is_(None))).all()
    return sorted(set(found))


@dataclass
class Offer:
    """A person this phone may link a player to: the names of the phone's tables they play at tell
    two people of the same name apart."""

    public_id: str
    name: str
    tables: list[str] = field(default_factory=list)


def people_for_tables(table_ids: Iterable[int]) -> list[Offer]:
    """The people linked to players of ``table_ids``, by name: what a phone with those tables may link
    to, and whose pages it may open. ONE query."""
    ids = _ids(table_ids)
    if not ids:
        return []
    rows = db.session.execute(
        select(Person.public_id, Person.name, Table.name.label("table_name"))
        .join(Player, Player.person_id == Person.id).join(Table, Table.id == Player.table_id)
        .where(Player.table_id.in_(ids))
        .order_by(Person.name, Person.id, desc(Table.created_at), Table.id)).all()
    offers: dict[str, Offer] = {}
    for r in rows:
        offer = offers.setdefault(r.public_id, Offer(r.public_id, r.name))
        if r.table_name not in offer.tables:
            offer.tables.append(r.table_name)
    return list(offers.values())


def rename_person(person: Person, name: Any) -> Person:
    """Give a person another name (a typo, a nickname); the players keep the names their tables use.
    Refused with a ScoringError (field ``name``), nothing changed, for an empty or too long name."""
    clean = scoring.clean_person_name(name)
    try:
        person.name = clean
        scoring.commit()
    except Exception:
        db.session.rollback()
        raise
    return person


def get_person(public_id: Any) -> Person | None:
    if not isinstance(public_id, str) or not 10 <= len(public_id) <= 32:
        return None
    return db.session.scalar(select(Person).where(Person.public_id == public_id))


# --------------------------------------------------------------------------------------------
# Linking


def current_links(table: Table) -> dict[int, Person]:
    """{player id: person} of the table's linked players. ONE query."""
    rows = db.session.execute(select(Player.id, Person).join(Person, Person.id == Player.person_id)
                              .where(Player.table_id == table.id)).all()
    return {player_id: person for player_id, person in rows}


def link_players(table: Table, links: Mapping[Any, Any], *, offered_from: Iterable[int]) -> int:
    """Link players of ``table`` to people, in one transaction; returns how many links changed.

    ``links``: {player id: a person's public id | ``NEW`` | None (not linked)}; players left out keep
    their link. A person must be one of :func:`people_for_tables` of ``offered_from`` (the phone's
    own tables; ``table`` itself always counts). Refused with a :class:`ScoringError` (field
    ``links.<player id>``), nothing changed: a player not at this table, a person not offered, and
    two players of this table linked to one person.
    """
    players = {p.id: p for p in table.players}
    wanted: dict[int, Any] = {}
    for key, value in links.items():
        player_id = key if isinstance(key, int) and not isinstance(key, bool) else None
        if player_id is None and isinstance(key, str) and key.isascii() and key.isdigit() and len(key) < 12:
            player_id = int(key)
        if player_id not in players:
            raise ScoringError(N_("This player is not at this table."), code="unknown_player",
                               field=f"links.{key}")
        if value is not None and not isinstance(value, str):
            raise ScoringError(N_("Choose a person from the list."), code="unknown_person",
                               field=f"links.{player_id}")
        wanted[player_id] = value or None
    lock_table(table)  # the table's writers one at a time: two phones cannot link two players to one person
    try:
        changed = _apply_links(table, players, wanted, offered_from)
    except ScoringError:
        db.session.rollback()  # the lock's bump too: nothing changed
        raise
    scoring.commit()
    return changed


def _apply_links(table: Table, players: dict[int, Player], wanted: dict[int, Any], offered_from) -> int:
    current = {pid: person.public_id for pid, person in current_links(table).items()}
    offers = {o.public_id: o for o in people_for_tables([*offered_from, table.id])}
    final = dict(current)
    for player_id, value in wanted.items():
        if value is None:
            final.pop(player_id, None)
        elif value == NEW:
            final[player_id] = (NEW, player_id)
        elif value in offers:
            final[player_id] = value
        else:
            raise ScoringError(N_("This person cannot be chosen here: choose one from the list."),
                               code="unknown_person", field=f"links.{player_id}")
    seen: dict[Any, int] = {}
    for player_id in sorted(final, key=lambda pid: players[pid].seat):
        person = final[player_id]
        if person in seen:
            raise ScoringError(N_("{first} and {second} are linked to the same person; a person plays once at a "
                                  "table.", first=players[seen[person]].name, second=players[player_id].name),
                               code="same_person", field=f"links.{player_id}")
        seen[person] = player_id
    by_public_id = {p.public_id: p for p in db.session.scalars(
        select(Person).where(Person.public_id.in_([v for v in final.values() if isinstance(v, str)])))}
    changed, left = 0, set()
    for player_id, player in players.items():
        value = final.get(player_id)
        if isinstance(value, tuple):  # a new person, named as the player
            person = Person(name=player.name)
            db.session.add(person)
            db.session.flush()
            target = person.id
        else:
            target = by_public_id[value].id if value else None
        if player.person_id != target:
            if player.person_id is not None:
                left.add(player.person_id)
            player.person_id = target
            changed += 1
    if left:  # a person no player is linked to any more is nobody's: removed, not left unseen
        db.session.flush()
        linked = select(Player.id).where(Player.person_id == Person.id).exists()
        db.session.execute(delete(Person).where(Person.id.in_(left), ~linked))
    return changed


# --------------------------------------------------------------------------------------------
# A person's page


@dataclass
class Session:
    """One table a person played at (linked), with their figures there."""

    public_id: str
    name: str
    game: str
    created_at: datetime
    last_hand_at: datetime | None
    player: str  # the name they played under there
    hands: int  # active hands counted
    points: int
    money: Decimal | None  # None when the table plays for no money
    currency: str
    running: int = 0  # the person's running total in this game's points after this table


@dataclass
class PersonPage:
    person: Person
    sessions: list[Session]  # by date, oldest first
    points: dict[str, int]  # game -> total points
    money: dict[str, Decimal]  # currency label -> total money (tables with a stake only)
    hands: dict[str, int]  # game -> active hands counted
    games: list[str]  # the games played, in order of first play


def person_page(person: Person) -> PersonPage:
    """Per table the person played (linked): date, hands counted, points and money; totals per game
    and per currency; the running total per game after each table. Two queries: the tables with the
    hands counted, and the points and money (each hand at the stake it was played at) from
    ``scoring.player_totals``, the one place both are summed."""
    mine = select(Player.id).where(Player.person_id == person.id)
    totals = (select(HandDelta.player_id.label("player_id"), func.count(HandDelta.id).label("hands"),
                  func.max(Hand.created_at).label("last_at"))
              .join(Hand, Hand.id == HandDelta.hand_id)
              .where(Hand.status == ACTIVE, HandDelta.player_id.in_(mine))
              .group_by(HandDelta.player_id).subquery("person_totals"))
    rows = db.session.execute(
        select(Player.id.label("player_id"), Table.public_id, Table.name, Table.game, Table.created_at,
               Table.stake_text, Table.currency,
               Player.name.label("player"), func.coalesce(totals.c.hands, 0).label("hands"), totals.c.last_at)
        .select_from(Player).join(Table, Table.id == Player.table_id)
        .outerjoin(totals, totals.c.player_id == Player.id)
        .where(Player.person_id == person.id, Table.deleted_at.is_(None))  # a deleted table is hidden
        .order_by(Table.created_at, Table.id)).all()
    sessions: list[Session] = []
    points: dict[str, int] = {}
    money: dict[str, Decimal] = defaultdict(Decimal)
    hands: dict[str, int] = {}
    worths = scoring.player_totals(HandDelta.player_id.in_(mine))  # (points, money) per player
    for r in rows:
        won, paid = worths.get(r.player_id, (0, Decimal(0)))
        worth = paid if paid or Decimal(r.stake_text or "0") else None  # None: a table for points only
        points[r.game] = points.get(r.game, 0) + won
        hands[r.game] = hands.get(r.game, 0) + int(r.hands)
        if worth is not None:
            money[r.currency] += worth
        sessions.append(Session(r.public_id, r.name, r.game, r.created_at, r.last_at, r.player, int(r.hands),
                                won, worth, r.currency, points[r.game]))
    return PersonPage(person, sessions, points, dict(money), hands, list(points))


def trend(page: PersonPage) -> tuple[list[int], dict[str, list[int]]]:
    """The chart's data: session numbers (0 = before the first) and, per game, the running total of
    that game's points after each session (a session of the other game carries it forward)."""
    series: dict[str, list[int]] = {game: [0] for game in page.games}
    for session in page.sessions:
        for game, values in series.items():
            values.append(session.running if session.game == game else values[-1])
    return list(range(len(page.sessions) + 1)), series


# --------------------------------------------------------------------------------------------
# Past tables, searchable by a player's name


@dataclass
class Leader:
    name: str
    points: int


@dataclass
class TableRow:
    public_id: str
    name: str
    game: str
    created_at: datetime
    hands: int  # active hands
    players: list[str] = field(default_factory=list)  # in seat order
    leaders: list[Leader] = field(default_factory=list)  # the highest total (ties: all); none before a hand


@dataclass
class SearchPage:
    rows: list[TableRow]
    total: int  # tables found
    page: int
    pages: int
    query: str  # as searched (normalised)


def normalise_query(query: Any) -> str:
    """The spelling names are stored in (NFKC, single spaces), so full-width letters find names too."""
    if not isinstance(query, str):
        return ""
    return " ".join(unicodedata.normalize("NFKC", query).split())[:QUERY_MAX * 2]


def _like(text: str) -> str:
    """A LIKE pattern finding ``text`` anywhere, its ``%``, ``_`` and ``\\`` taken literally."""
    escaped = text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
    return f"%{escaped}%"


def search_tables(table_ids: Iterable[int], query: Any = "", page: int = 1, per_page: int = PER_PAGE) -> SearchPage:
    """Among ``table_ids``, the tables with a player whose name contains ``query`` (case-insensitive;
    every table when it is empty), newest first, one page: each with its date, game, players, active
    hands and leader(s). Three queries (the page with the count, its players, their totals through
    ``scoring.player_totals``), whatever the number of tables.

    Case: ``ILIKE`` (SQLite: ``lower() LIKE lower()``), which folds every letter on both databases
    (SQLite's ``lower`` is Python's: see companion/extensions.py)."""
    ids = _ids(table_ids)
    text = normalise_query(query)
    per_page = max(1, int(per_page))
    page = max(1, int(page))
    if not ids or len(text) > QUERY_MAX:
        return SearchPage([], 0, page, 1, text)
    where = [Table.id.in_(ids)]
    if text:
        matching = select(Player.table_id).where(Player.name.ilike(_like(text), escape="\\"))
        where.append(Table.id.in_(matching))
    counted = (select(Hand.table_id.label("table_id"), func.count(Hand.id).label("hands"))
               .where(Hand.table_id.in_(ids), Hand.status == ACTIVE)
               .group_by(Hand.table_id).subquery("search_hands"))
    found = db.session.execute(
        select(Table.id, Table.public_id, Table.name, Table.game, Table.created_at,
               func.coalesce(counted.c.hands, 0).label("hands"), func.count().over().label("total"))
        .outerjoin(counted, counted.c.table_id == Table.id)
        .where(*where).order_by(desc(Table.created_at), desc(Table.id))
        .limit(per_page).offset((page - 1) * per_page)).all()
    if found:
        total = int(found[0].total)
    else:
        total = int(db.session.scalar(select(func.count(Table.id)).where(*where)) or 0)
    rows = {r.id: TableRow(r.public_id, r.name, r.game, r.created_at, int(r.hands)) for r in found}
    if rows:
        totals = scoring.player_totals(Hand.table_id.in_(list(rows)))  # the one points aggregate
        players = db.session.execute(
            select(Player.id, Player.table_id, Player.name)
            .where(Player.table_id.in_(list(rows))).order_by(Player.table_id, Player.seat)).all()
        by_table: dict[int, list[tuple[str, int]]] = defaultdict(list)
        for p in players:
            rows[p.table_id].players.append(p.name)
            by_table[p.table_id].append((p.name, totals.get(p.id, (0, 0))[0]))
        for table_id, row in rows.items():
            if row.hands and by_table[table_id]:
                best = max(points for _name, points in by_table[table_id])
                row.leaders = [Leader(name, best) for name, points in by_table[table_id] if points == best]
    pages = max(1, -(-total // per_page))
    return SearchPage(list(rows.values()), total, page, pages, text)
