"""Players who come and go between hands: rename, join, leave, change seats, a substitute; each
change kept in the table's history (undo takes it back)."""
from __future__ import annotations

from typing import Any

from sqlalchemy import desc, func, select

from ..engine.public import N_, EngineError
from ..extensions import db
from ..db.models import Hand, HandEvent, Player, PlayerChange, Table
from .errors_limits import PLAYER_NAME_MAX, ScoringError, engine_for, table_rules
from .settling import as_recorded
from .tables import _count_problem
from .text import _clean_text, _duplicates
from .transactions import _commit, _device, _lock


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
        try:
            settlement = module.settle(facts, rules, stake=1)
        except EngineError:  # recorded under earlier rules (issue 29): read it as it was recorded
            settlement = as_recorded(table, facts)
        stored = {names.get(by_id[d.player_id], by_id[d.player_id]): d.points for d in hand.deltas}
        if settlement is not None and {n: int(settlement.points.get(n, 0)) for n in stored} != stored:
            raise ScoringError(N_("Hand {number} would read differently with the new names; nothing was changed. "
                                  "Choose other names.", number=hand.number), code="rename_changes_hand",
                               field="players")
        hand.facts = facts
        hand.outcome = _renamed(hand.outcome, names)
        hand.next_dealer = names.get(hand.next_dealer, hand.next_dealer)


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
    by_name = {p.name: p for p in table.players}
    wanted: list[tuple[Player | None, str]] = []
    for entry in players:
        raw, was = _entry(entry)
        name = _clean_text(raw, "players", PLAYER_NAME_MAX, required=True, what="player")
        wanted.append((by_name.get(was) if was not in (None, "") else by_name.get(name), name))
    if [(p.id if p else None, n) for p, n in wanted] == [(p.id, p.name) for p in table.seated_players]:
        return None

    def seat_them() -> None:
        for seat, (player, name) in enumerate(wanted):
            if player is None:
                table.players.append(Player(seat=seat, name=name))
            else:
                player.seat, player.name, player.former_seat = seat, name, None

    renames = {p.name: name for p, name in wanted if p is not None and p.name != name}
    staying = {p.id for p, _ in wanted if p is not None}
    return _rearrange(table, "players", renames, seat_them, device=device,
                      leaving={p.id for p in table.seated_players if p.id not in staying})


def _rearrange(table: Table, kind: str, renames: dict, seat_them, *, device, leaving: set | frozenset = frozenset(),
               undoes: PlayerChange | None = None) -> PlayerChange:
    """The one transaction of a change of the players and of its undo: lock the table; rename the
    players ``renames`` names ({old: new}) in every hand (each settled again, see
    :func:`_rename_in_hands`); free every seat and every changing name first (both are unique at a
    table; a seated player whose id is in ``leaving`` keeps the seat they leave as
    ``former_seat``); ``seat_them()`` seats the players; the change is kept in the table's history
    (``kind`` "players", or "undo" of ``undoes``) and committed, or nothing is."""
    try:
        _lock(table)
        before = _roster(table)
        _rename_in_hands(table, renames, {p.id: p.name for p in table.players})
        for player in table.players:
            if player.id in leaving:
                player.former_seat = player.seat
            player.seat = -player.id
            if player.name in renames:
                player.name = f"\x01{player.id}"  # no real name holds a control character
        db.session.flush()
        seat_them()
        db.session.flush()
        change = PlayerChange(table_id=table.id, kind=kind, before=before, after=_roster(table),
                              after_event=_latest_event_id(table), undoes_id=undoes.id if undoes else None,
                              device=_device(device))
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
    was = {row["id"]: row for row in change.before["players"]}

    def seat_them() -> None:
        for player in table.players:
            row = was.get(player.id)
            if row is None:  # joined in the change undone (or later, and left again when that was undone)
                joined = next((r for r in change.after["players"] if r["id"] == player.id), None)
                if joined is not None and joined["seat"] >= 0:
                    player.former_seat = joined["seat"]
                continue
            player.name, player.seat, player.former_seat = row["name"], row["seat"], row["former_seat"]
        table.first_dealer = change.before.get("first_dealer")

    renames = {p.name: was[p.id]["name"] for p in table.players if p.id in was and was[p.id]["name"] != p.name}
    return _rearrange(table, "undo", renames, seat_them, undoes=change, device=device)


def player_changes(table: Table) -> list[PlayerChange]:
    """The table's changes of players (and their undos), newest first."""
    return list(db.session.scalars(select(PlayerChange).where(PlayerChange.table_id == table.id)
                                   .order_by(desc(PlayerChange.id))))
