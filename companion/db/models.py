"""The database: tables, players, hands, their deltas, and the append-only history of changes.

Facts are stored by player NAME (the engine's input); deltas by player id. Standings are one SQL
aggregate over ``HandDelta`` of active hands (see :func:`companion.scoring.standings`).
"""
from __future__ import annotations

import secrets
from datetime import datetime, timezone
from decimal import Decimal
from typing import Any, Optional

from sqlalchemy import JSON, BigInteger, CheckConstraint, DateTime, ForeignKey, Index, Integer, String, Text, UniqueConstraint
from sqlalchemy.dialects.postgresql import JSONB
from sqlalchemy.orm import Mapped, mapped_column, relationship

from ..extensions import db

ACTIVE, VOID = "active", "void"

# A hand's facts and outcome are read field by field by the review's SQL aggregates: PostgreSQL keeps
# them as jsonb (parsed once, when written), SQLite as JSON text (its json functions read that).
HandJSON = JSON().with_variant(JSONB(), "postgresql")


def utcnow() -> datetime:
    return datetime.now(timezone.utc)


def new_public_id() -> str:
    """128 random bits, URL-safe (22 characters), never starting with "-": an id is also a command
    line argument (``flask players <id>``), where a leading "-" reads as an option. (Ids made
    before, 1 in 64 of them, stay valid: ``flask players -- <id> …``.)"""
    while True:
        value = secrets.token_urlsafe(16)
        if not value.startswith("-"):
            return value


def stake_text(value) -> str:
    """A stake as its exact decimal text, without exponent or trailing zeros ("0.5", "10")."""
    text = str(Decimal(str(value)).normalize()) if value is not None else "0"
    return format(Decimal(text), "f") if "E" in text else text  # normalize() may give 1E+1


class Table(db.Model):
    __tablename__ = "tables"
    # The notes' limit in the database too (scoring, the forms and the schemas say 2,000 characters).
    __table_args__ = (CheckConstraint("length(notes) <= 2000", name="ck_tables_notes_length"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    public_id: Mapped[str] = mapped_column(String(32), unique=True, default=new_public_id)
    # The edit token is derived from the secret key and this version, never stored: only its
    # SHA-256 (see companion/access.py). Version 0: a token made before that, shown never again.
    token_version: Mapped[int] = mapped_column(Integer, default=1)
    edit_token_hash: Mapped[str] = mapped_column(String(64))
    pin_hash: Mapped[Optional[str]] = mapped_column(String(255))  # salted hash of the 6-digit PIN
    game: Mapped[str] = mapped_column(String(16))
    name: Mapped[str] = mapped_column(String(80))
    # Money per point, kept as an exact decimal string ("0.5"); see the ``stake`` property.
    stake_text: Mapped[str] = mapped_column("stake", String(32), default="0")
    currency: Mapped[str] = mapped_column(String(12), default="")
    preset: Mapped[Optional[str]] = mapped_column(String(32))
    rules: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    rules_version: Mapped[int] = mapped_column(Integer, default=1)
    notes: Mapped[str] = mapped_column(Text, default="")
    first_dealer: Mapped[Optional[str]] = mapped_column(String(40))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    revision: Mapped[int] = mapped_column(Integer, default=1)
    # The last hand number handed out (void hands keep their number).
    hand_seq: Mapped[int] = mapped_column(Integer, default=0)
    # Archived: kept and shown, but closed to new hands until restored. Deleted: hidden from everyone
    # and removed for good once the undo window (scoring.DELETE_UNDO_SECONDS) has passed.
    archived_at: Mapped[Optional[datetime]] = mapped_column(DateTime(timezone=True))
    deleted_at: Mapped[Optional[datetime]] = mapped_column(DateTime(timezone=True))

    # Everyone who ever sat here: the seated players in seat order, then those who left (seat < 0).
    players: Mapped[list["Player"]] = relationship(
        back_populates="table", order_by=lambda: (Player.seat < 0, Player.seat), cascade="all, delete-orphan")

    @property
    def stake(self) -> Decimal:
        return Decimal(self.stake_text or "0")

    @stake.setter
    def stake(self, value) -> None:
        self.stake_text = stake_text(value)

    @property
    def archived(self) -> bool:
        return self.archived_at is not None

    @property
    def player_names(self) -> list[str]:
        """The names of the players seated now, in seat order (the players of the next hand)."""
        return [p.name for p in self.players if p.seated]

    @property
    def seated_players(self) -> list["Player"]:
        return [p for p in self.players if p.seated]

    def __repr__(self) -> str:
        return f"<Table {self.public_id} {self.game} {self.name!r}>"


class Player(db.Model):
    __tablename__ = "players"
    __table_args__ = (UniqueConstraint("table_id", "seat", name="uq_players_table_seat"),
                      UniqueConstraint("table_id", "name", name="uq_players_table_name"))

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    table_id: Mapped[int] = mapped_column(ForeignKey("tables.id", ondelete="CASCADE"))
    # 0…n−1, counter-clockwise play order. A player who left holds no seat: −id (unique, < 0), and
    # ``former_seat`` keeps the seat they left (their hands and totals stay; see scoring.change_players).
    seat: Mapped[int] = mapped_column(Integer)
    name: Mapped[str] = mapped_column(String(40))
    person_id: Mapped[Optional[int]] = mapped_column(ForeignKey("people.id", ondelete="SET NULL"), index=True)
    former_seat: Mapped[Optional[int]] = mapped_column(Integer)

    table: Mapped[Table] = relationship(back_populates="players")

    @property
    def seated(self) -> bool:
        return self.seat is None or self.seat >= 0  # None: not stored yet (seats are given on creation)

    def __repr__(self) -> str:
        return f"<Player {self.seat} {self.name!r}>"


class Hand(db.Model):
    __tablename__ = "hands"
    __table_args__ = (UniqueConstraint("table_id", "number", name="uq_hands_table_number"),
                      UniqueConstraint("table_id", "request_id", name="uq_hands_table_request"),
                      Index("ix_hands_table_status", "table_id", "status"))

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    table_id: Mapped[int] = mapped_column(ForeignKey("tables.id", ondelete="CASCADE"))
    number: Mapped[int] = mapped_column(Integer)
    facts: Mapped[dict[str, Any]] = mapped_column(HandJSON)
    status: Mapped[str] = mapped_column(String(8), default=ACTIVE)
    request_id: Mapped[str] = mapped_column(String(64))
    revision: Mapped[int] = mapped_column(Integer, default=1)
    # What the engine said, kept for the lists: {"winners": [...], "arch", "multiplier"}.
    outcome: Mapped[dict[str, Any]] = mapped_column(HandJSON, default=dict)
    next_dealer: Mapped[Optional[str]] = mapped_column(String(40))
    # Money per point when this hand was played (the table's stake then): money = points × this.
    stake_text: Mapped[str] = mapped_column("stake", String(32), default="0", server_default="0")
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)

    table: Mapped[Table] = relationship()

    @property
    def stake(self) -> Decimal:
        return Decimal(self.stake_text or "0")
    deltas: Mapped[list["HandDelta"]] = relationship(
        back_populates="hand", cascade="all, delete-orphan", passive_deletes=True)
    tallies: Mapped[list["HandTally"]] = relationship(
        back_populates="hand", cascade="all, delete-orphan", passive_deletes=True)

    @property
    def active(self) -> bool:
        return self.status == ACTIVE

    def __repr__(self) -> str:
        return f"<Hand {self.number} {self.status} r{self.revision}>"


class HandDelta(db.Model):
    __tablename__ = "hand_deltas"
    __table_args__ = (UniqueConstraint("hand_id", "player_id", name="uq_hand_deltas_hand_player"),
                      Index("ix_hand_deltas_player", "player_id"))

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    hand_id: Mapped[int] = mapped_column(ForeignKey("hands.id", ondelete="CASCADE"))
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id", ondelete="CASCADE"))
    # 64 bits on both databases: a hand may pay up to the engine's ceiling of points.
    points: Mapped[int] = mapped_column(BigInteger)

    hand: Mapped[Hand] = relationship(back_populates="deltas")
    player: Mapped[Player] = relationship()


class HandTally(db.Model):
    """One review figure of one player in one hand (hands won, shut out, jokers held, 头游, a dry
    arch won…): the engine's ``Settlement.tallies``, written with the deltas. The summary is a SUM
    over these rows; it knows no rule."""

    __tablename__ = "hand_tallies"
    __table_args__ = (Index("ix_hand_tallies_player", "player_id"),)

    hand_id: Mapped[int] = mapped_column(ForeignKey("hands.id", ondelete="CASCADE"), primary_key=True)
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id", ondelete="CASCADE"), primary_key=True)
    figure: Mapped[str] = mapped_column(String(32), primary_key=True)
    count: Mapped[int] = mapped_column(Integer)

    hand: Mapped[Hand] = relationship(back_populates="tallies")
    player: Mapped[Player] = relationship()


class HandEvent(db.Model):
    """Append-only: one row per create / edit / void / restore / undo. Never updated."""

    __tablename__ = "hand_events"
    __table_args__ = (Index("ix_hand_events_table", "table_id", "id"),
                      Index("ix_hand_events_hand", "hand_id"))

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    table_id: Mapped[int] = mapped_column(ForeignKey("tables.id", ondelete="CASCADE"))
    hand_id: Mapped[int] = mapped_column(ForeignKey("hands.id", ondelete="CASCADE"))
    kind: Mapped[str] = mapped_column(String(8))  # create | edit | void | restore | undo | note
    # Snapshots {"facts", "status", "points": {name: int}}; None before a create.
    before: Mapped[Optional[dict[str, Any]]] = mapped_column(JSON)
    after: Mapped[Optional[dict[str, Any]]] = mapped_column(JSON)
    hand_revision: Mapped[int] = mapped_column(Integer)  # the hand's revision after this change
    undoes_id: Mapped[Optional[int]] = mapped_column(ForeignKey("hand_events.id"))
    device: Mapped[str] = mapped_column(String(60), default="")
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)

    hand: Mapped[Hand] = relationship()

    def __repr__(self) -> str:
        return f"<HandEvent {self.kind} hand={self.hand_id}>"


class PlayerChange(db.Model):
    """Append-only: one row per change of a table's players between hands (rename, join, leave,
    seats, a substitute) and one per undo of such a change. ``before``/``after``: the roster
    ``{"players": [{"id", "name", "seat", "former_seat"}, ...], "first_dealer"}``. ``after_event``:
    the table's latest HandEvent id when the change was made (orders it among the hand changes)."""

    __tablename__ = "player_changes"
    __table_args__ = (Index("ix_player_changes_table", "table_id", "id"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    table_id: Mapped[int] = mapped_column(ForeignKey("tables.id", ondelete="CASCADE"))
    kind: Mapped[str] = mapped_column(String(8))  # players | undo
    before: Mapped[dict[str, Any]] = mapped_column(JSON)
    after: Mapped[dict[str, Any]] = mapped_column(JSON)
    after_event: Mapped[int] = mapped_column(Integer, default=0)
    undoes_id: Mapped[Optional[int]] = mapped_column(ForeignKey("player_changes.id"))
    device: Mapped[str] = mapped_column(String(60), default="")
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)

    def __repr__(self) -> str:
        return f"<PlayerChange {self.kind} table={self.table_id}>"


class RateBucket(db.Model):
    """Requests counted per (bucket, address) in fixed windows, shared by every worker and host."""

    __tablename__ = "rate_buckets"
    __table_args__ = (Index("ix_rate_buckets_window", "window_start"),)

    key: Mapped[str] = mapped_column(String(120), primary_key=True)  # "bucket:address"
    window_start: Mapped[int] = mapped_column(BigInteger)  # epoch seconds, a multiple of the window
    count: Mapped[int] = mapped_column(Integer)


class Person(db.Model):
    """One person across this server's tables. Players are linked to a person explicitly (a phone
    that may record at the table chooses), never by guessing from names; see companion/sharing/people.py.
    Not exported with a table: people belong to this server."""

    __tablename__ = "people"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    public_id: Mapped[str] = mapped_column(String(32), unique=True, default=new_public_id)
    name: Mapped[str] = mapped_column(String(40))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)

    def __repr__(self) -> str:
        return f"<Person {self.public_id} {self.name!r}>"
