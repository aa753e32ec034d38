"""The JSON shapes of API v1 answers, shared by the JSON API and the CLI (never a view module).

Each function turns a core value (a Table, a Hand, a Verdict, a Settlement) into plain JSON types.
The OpenAPI document describes these shapes (``companion/schemas.py``, the ``*Answer`` schemas).
"""
from __future__ import annotations

from datetime import timezone
from decimal import Decimal
from typing import Any

from flask import current_app, g, has_request_context, request, url_for
from werkzeug.routing import BuildError

from . import access, scoring
from .engine.cards import RANK_NAMES, format_cards
from .i18n import tr


def url(endpoint: str, **values) -> str | None:
    """An absolute URL on a trusted base (:func:`sharing.trusted_base`), or None when the endpoint is
    not served by this app."""
    from . import sharing

    try:
        path = url_for(endpoint, **values)
    except BuildError:
        return None
    if not has_request_context():
        return url_for(endpoint, _external=True, **values)
    base = g.get("link_base") or sharing.trusted_base(  # link_base: a base the operator gave (the CLI)
        public_url=current_app.config.get("PUBLIC_URL"), scheme=request.scheme, host=request.host,
        trusted_hosts=current_app.config.get("TRUSTED_HOSTS"))
    return base + path


def jsonable(value: Any) -> Any:
    """Rules and outcomes as JSON types (Decimals as ints or floats; anything else as text)."""
    if isinstance(value, dict):
        return {str(k): jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [jsonable(v) for v in value]
    if isinstance(value, Decimal):
        return int(value) if value == value.to_integral_value() else float(value)
    if isinstance(value, (bool, int, float, str, type(None))):
        return value
    return str(value)


def money(value) -> str:
    """Money as an exact decimal string without trailing zeros: "6", "-1.5", "0.25"."""
    if value is None:
        return "0"
    value = Decimal(value)
    return format(value.normalize() if value else Decimal(0), "f")


# --------------------------------------------------------------------------------------------
# Rules answers


def reading_json(reading) -> dict:
    """A Reading as notation strings: cards as played, reading as the ranks they stand for."""
    cards = format_cards(reading.cards)
    values = tuple(getattr(reading, "values", ()) or ())
    text = " ".join(RANK_NAMES.get(v, str(v)) for v in values) if values else cards
    extra = {}
    for key, value in tuple(getattr(reading, "extra", ()) or ()):
        extra[str(key)] = value if isinstance(value, (bool, int, float, str, type(None))) else str(value)
    return {"type": reading.type, "cards": cards, "reading": text,
            "rank": RANK_NAMES.get(reading.rank, str(reading.rank)), "length": reading.length,
            "extra": extra}


def verdict_json(verdict, game: str, *, translate: bool = True) -> dict:
    """The answer of POST /check. ``translate=False`` keeps the reason as its engine ``Text``
    (the check page translates it in the template)."""
    return {"legal": bool(verdict.legal), "code": verdict.code,
            "reason": tr(verdict.reason) if translate else verdict.reason,
            "play": reading_json(verdict.play) if verdict.play is not None else None,
            "readings": [reading_json(r) for r in verdict.readings],
            "game": game}


def answer_json(answer, *, translate: bool = True) -> dict:
    """One engine Answer: the cards, the type, the checker's reason and the reading to declare
    (``declare``, None when the cards are read that way without a declaration)."""
    return {"play": format_cards(answer.cards), "type": answer.type,
            "reason": tr(answer.reason) if translate else answer.reason, "kind": answer.kind,
            "reading": reading_json(answer.play), "declare": answer.declare}


def answers_json(sets: list, game: str, *, translate: bool = True) -> dict:
    """The answer of POST /answers from ``scoring.answer_play``'s AnswerSets."""
    def one(answer_set) -> dict:
        return {"reading": reading_json(answer_set.reading) if answer_set.reading is not None else None,
                "pin": answer_set.pin, "answers": [answer_json(a, translate=translate) for a in answer_set.answers],
                "can_beat": bool(answer_set.answers)}

    first = one(sets[0])
    return {"answers": first["answers"], "can_beat": first["can_beat"], "game": game,
            "previous": first["reading"], "readings": [one(s) for s in sets] if len(sets) > 1 else []}


def settlement_json(settlement, game: str) -> dict:
    """The answer of POST /settle."""
    out = {"deltas": dict(settlement.deltas), "steps": [tr(s) for s in settlement.steps],
           "points": dict(settlement.points or {}), "next_dealer": settlement.next_dealer}
    if settlement.winners is not None:  # a game that names winners (and the arch they won)
        out.update(winners=list(settlement.winners or []), arch=settlement.arch,
                   multiplier=settlement.multiplier)
    return out


# --------------------------------------------------------------------------------------------
# Tables and hands


def iso_time(moment) -> str | None:
    """A stored time as ISO 8601 with its zone (UTC): SQLite gives stored times back without one."""
    if moment is None:
        return None
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=timezone.utc)
    return moment.astimezone(timezone.utc).isoformat()


def table_urls(table, *, with_token: bool) -> dict:
    urls = {"api": url("api.get_table", public_id=table.public_id),
            "hands": url("api.list_hands", public_id=table.public_id),
            "page": url("tables.show", public_id=table.public_id)}
    token = access.edit_token(table) if with_token else None
    if token:  # the record link: the token rides in the fragment, which never reaches a server
        urls["share"] = f"{urls['page']}#key={token}"
    return urls


def standings_json(table) -> list[dict]:
    return [{"player": row.name, "seat": row.seat, "points": int(row.points), "money": money(row.money)}
            for row in scoring.standings(table)]


def table_json(table, *, with_token: bool = False) -> dict:
    players = table.seated_players
    active, total = scoring.hand_counts(table)
    out = {
        "id": table.public_id, "public_id": table.public_id, "game": table.game, "name": table.name, "stake": money(table.stake),
        "currency": table.currency or "", "preset": table.preset,
        "rules": jsonable(dict(table.rules or {})), "rules_version": table.rules_version,
        "notes": table.notes or "", "revision": table.revision,
        "created_at": iso_time(table.created_at),
        "players": [{"seat": p.seat, "name": p.name} for p in players],
        # Players who left (they keep their total and the hands they played): issue 21.
        "players_left": [{"name": p.name, "former_seat": p.former_seat} for p in table.players if not p.seated],
        "standings": standings_json(table), "hand_count": active, "hands_recorded": total,
        "first_dealer": table.first_dealer, "current_dealer": scoring.current_dealer(table),
        "urls": table_urls(table, with_token=with_token),
        "archived": table.archived_at is not None,
        "archived_at": iso_time(table.archived_at),
        "deleted_at": iso_time(table.deleted_at),
        "stakes": [{"from_hand": c.from_hand, "stake": money(c.stake)} for c in scoring.stake_changes(table)],
    }
    if with_token:  # both names, as POST /import answers them (issue 17)
        out["token"] = out["edit_token"] = access.edit_token(table)
    return out


def hand_json(hand, players_by_id: dict | None = None, deltas: dict | None = None) -> dict:
    """A hand; ``deltas`` ({player_id: points}) when already fetched for a whole page."""
    if players_by_id is None:
        players_by_id = {p.id: p.name for p in hand.table.players}
    if deltas is None:
        deltas = {d.player_id: d.points for d in hand.deltas}
    return {"number": hand.number, "status": hand.status, "revision": hand.revision,
            "facts": hand.facts,
            "deltas": {players_by_id.get(pid, str(pid)): points for pid, points in deltas.items()},
            "outcome": jsonable(hand.outcome or {}), "next_dealer": hand.next_dealer,
            "stake": money(hand.stake),
            "request_id": hand.request_id,
            "created_at": iso_time(hand.created_at),
            "updated_at": iso_time(hand.updated_at)}


def hand_answer(table, hand, **extra) -> dict:
    """A hand after a change: the hand, its steps, the table's revision and standings."""
    body = hand_json(hand)
    settlement = scoring.safe_settlement(table, hand.facts, hand.stake)
    body["steps"] = [tr(s) for s in settlement.steps] if settlement is not None else []
    body["table_revision"] = table.revision
    body["standings"] = standings_json(table)
    body.update(extra)
    return body


def games_json() -> dict:
    """The games, their presets and house-rule switches (so clients can build forms)."""
    from .engine import ENGINES
    from .engine.common import rules_to_dict

    out = {}
    for name, module in ENGINES.items():
        out[name] = {
            "players": {"min": module.PLAYER_RANGE[0], "max": module.PLAYER_RANGE[1]},
            "presets": {key: jsonable(rules_to_dict(rules)) for key, rules in module.PRESETS.items()},
            "switches": {key: {"help": tr(sw.help), "kind": sw.kind, "choices": jsonable(list(sw.choices))}
                         for key, sw in module.SWITCHES.items()},
        }
    return out


_PLACES = {"first_out": "first", "second_out": "second", "third_out": "third", "last_out": "last"}


def _figures_json(f) -> dict:
    """A player's summed tallies (every figure the game tallies): places grouped under ``places``,
    arches won under ``arch_wins``, each other figure under its own name."""
    out: dict = {}
    for figure, count in f.counts.items():
        if figure in _PLACES:
            out.setdefault("places", {})[_PLACES[figure]] = count
        elif figure.startswith("arch_"):
            out.setdefault("arch_wins", {})[figure.removeprefix("arch_")] = count
        else:
            out[figure] = count
    return out


def summary_json(table) -> dict:
    """The night at a table: standings, each player's figures, and the fewest transfers that square
    everyone (``from`` pays ``to``; amounts in money, or in points when the table plays for none)."""
    from . import review

    figures = review.summary(table)
    up = review.settle_table(table)
    players = []
    for f in figures.players:
        row = {"player": f.name, "seat": f.seat if f.seat is not None and f.seat >= 0 else None, "points": f.points, "money": money(f.money), "hands": f.hands,
               "biggest_win": f.biggest_win, "biggest_loss": f.biggest_loss}
        row.update(_figures_json(f))
        players.append(row)
    return {"id": table.public_id, "game": table.game, "hands": figures.hands, "void": figures.void,
            "first_at": iso_time(figures.first_at),
            "last_at": iso_time(figures.last_at),
            "standings": standings_json(table), "players": players, "in_money": up.in_money,
            "transfers": [{"from": t.payer, "to": t.payee, "amount": money(t.amount)} for t in up.transfers]}
