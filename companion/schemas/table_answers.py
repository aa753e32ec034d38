"""Answer schemas of tables and hands: each writes its answer from the stored Table / Hand (and the
figures the answer shows, gathered in its ``pre_dump`` through scoring and review, as one call) and
describes it in the OpenAPI document, so the two cannot differ."""
from __future__ import annotations

from marshmallow import fields, post_dump, pre_dump

from .. import access, review, scoring
from ..review.figures import grouped_figures
from ..engine import ENGINES
from .answers import ErrorAnswer, _nullable_str, _str
from .output import Alias, Answer, JSONValue, Link, Merged, Money, Sentence, Time, merged


class SeatAnswer(Answer):
    seat = fields.Integer(required=True)
    name = _str()


class LeftAnswer(Answer):
    """A player who left: they keep their total and the hands they played."""

    name = _str()
    former_seat = fields.Integer(required=True, allow_none=True)


class StandingAnswer(Answer):
    """A row of scoring.standings."""

    player = _str(attribute="name")
    seat = fields.Integer(required=True, allow_none=True, metadata={"description": "null: the player left."})
    points = fields.Integer(required=True)
    money = Money(metadata={"description": "An exact decimal string."})


class StakeAnswer(Answer):
    from_hand = fields.Integer(required=True, metadata={"description": "The first hand played at this stake."})
    stake = Money()


class TableUrls(Answer):
    api = Link(lambda t: ("api.get_table", {"public_id": t.public_id}))
    hands = Link(lambda t: ("api.list_hands", {"public_id": t.public_id}))
    page = Link(lambda t: ("tables.show", {"public_id": t.public_id}))
    share = fields.Method("_share", metadata={
        "type": "string", "description": "The record link (the edit token rides in the fragment, which never "
                                         "reaches a server): only in the answer that opened the table."})

    def _share(self, table):
        token = getattr(table, "token", None)
        page = self.fields["page"].serialize("page", table)
        return f"{page}#key={token}" if token else None

    @post_dump
    def _no_share(self, data, **kwargs):
        if data.get("share") is None:
            data.pop("share", None)
        return data


def with_token(table) -> Merged:
    """A table just opened (or imported): its answer carries the edit token (only that answer)."""
    return merged(table, token=access.edit_token(table))


class TableAnswer(Answer):
    """A Table, or :func:`with_token` of one (the answer that opened it)."""

    id = Alias("public_id", required=True)
    game = _str()
    name = _str()
    stake = Money(metadata={"description": "An exact decimal string; \"0\" keeps points only."})
    currency = fields.Function(lambda t: t.currency or "", required=True, metadata={"type": "string"})
    preset = _nullable_str()
    rules = JSONValue(required=True)
    rules_version = fields.Integer(required=True)
    notes = fields.Function(lambda t: t.notes or "", required=True, metadata={"type": "string"})
    revision = fields.Integer(required=True)
    created_at = Time()
    players = fields.List(fields.Nested(SeatAnswer), required=True, attribute="seated_players")
    players_left = fields.List(fields.Nested(LeftAnswer), metadata={
        "description": "Players who left; they keep their total and hands."})
    standings = fields.List(fields.Nested(StandingAnswer), required=True)
    hand_count = fields.Integer(required=True)
    hands_recorded = fields.Integer(required=True)
    first_dealer = _nullable_str()
    current_dealer = _nullable_str()
    urls = fields.Nested(TableUrls, required=True)
    token = fields.String(metadata={"description": "The edit token: only in the answer that opened the table."})
    public_id = _str(metadata={"description": "The same as id (the name POST /import answers with)."})
    edit_token = Alias("token", metadata={
        "description": "The same as token (the name POST /import answers with): only in the answer that opened "
                       "the table."})
    archived = fields.Function(lambda t: t.archived_at is not None, metadata={
        "type": "boolean", "description": "An archived table takes no hands until restored."})
    archived_at = Time()
    deleted_at = Time("Set while a deleted table can still be brought back (PATCH deleted: false).")
    stakes = fields.List(fields.Nested(StakeAnswer), metadata={
        "description": "The stakes the hands were played at, one per change."})

    @pre_dump
    def _figures(self, table, **kwargs):
        active, total = scoring.hand_counts(table)
        answer = merged(table, players_left=[p for p in table.players if not p.seated],
                        standings=scoring.standings(table), hand_count=active, hands_recorded=total,
                        current_dealer=scoring.current_dealer(table), stakes=scoring.stake_changes(table))
        answer.urls = answer
        return answer


def hand_row(hand, names: dict, deltas: dict) -> Merged:
    """A hand of a page: the names of the table's players ({id: name}) and its deltas ({player id:
    points}), fetched once for the whole page."""
    return merged(hand, names=names, delta_rows=deltas)


class HandAnswer(Answer):
    """A Hand (or :func:`hand_row` of one)."""

    number = fields.Integer(required=True)
    status = _str(metadata={"enum": ["active", "void"]})
    revision = fields.Integer(required=True)
    # written as stored / as computed below (a Raw field copies nothing: a page has 25 hands)
    facts = fields.Raw(required=True, metadata={"type": "object", "additionalProperties": {}})
    deltas = fields.Raw(required=True, metadata={"type": "object", "additionalProperties": {"type": "integer"}})
    outcome = JSONValue(required=True)
    next_dealer = _nullable_str()
    request_id = _nullable_str()
    created_at = Time()
    updated_at = Time()
    stake = Money(metadata={"description": "Money per point this hand was played at (exact decimal)."})

    @pre_dump
    def _deltas(self, hand, **kwargs):
        names = getattr(hand, "names", None)
        if names is None:
            names = {p.id: p.name for p in hand.table.players}
        rows = getattr(hand, "delta_rows", None)
        if rows is None:
            rows = {d.player_id: d.points for d in hand.deltas}
        return merged(hand, deltas={names.get(pid, str(pid)): points for pid, points in rows.items()},
                      outcome=hand.outcome or {}, **self.more(hand))

    def more(self, hand) -> dict:
        return {}


def _explained(hand) -> dict:
    """A stored hand's steps, settled with its own players and stake (issue 29), and why today's
    rules would refuse it when it was recorded under earlier ones."""
    settled = scoring.hand_settlement(hand.table, hand)
    return {"steps": settled.settlement.steps,
            "earlier_rules": settled.earlier.message if settled.earlier is not None else None}


EARLIER_RULES = ("null, or why today's rules would refuse this stored hand (it was recorded under earlier rules, "
                 "which accepted it; it still counts with its stored points). Added in v1.")


class HandDetailAnswer(HandAnswer):
    """One hand (GET …/hands/<number>): the hand, how it was counted (``steps``) and
    ``earlier_rules``."""

    steps = fields.List(Sentence(), required=True)
    earlier_rules = Sentence(allow_none=True, metadata={"description": EARLIER_RULES})

    def more(self, hand) -> dict:
        return _explained(hand)


class HandChangeAnswer(HandAnswer):
    """A hand after a change: the hand, its steps, the table's revision and standings (and, after
    POST …/hands, ``created`` and ``idempotent``: give ``merged(hand, created=..., idempotent=...)``)."""

    steps = fields.List(Sentence(), required=True)
    earlier_rules = Sentence(allow_none=True, metadata={"description": EARLIER_RULES})
    table_revision = fields.Integer(required=True)
    standings = fields.List(fields.Nested(StandingAnswer), required=True)
    created = fields.Boolean(metadata={"description": "After POST …/hands: false when the request_id was "
                                                     "already recorded (nothing new was stored)."})
    idempotent = fields.Boolean(metadata={"description": "After POST …/hands: false when the request had "
                                                        "neither request_id nor Idempotency-Key, so a retry "
                                                        "would record the hand again."})

    def more(self, hand) -> dict:
        table = hand.table
        return {**_explained(hand), "table_revision": table.revision,
                "standings": scoring.standings(table)}


class HandsPageAnswer(Answer):
    """A page of hands, from ``{"hands": [hand_row...], "page", "per_page", "total", "pages", "public_id"}``."""

    hands = fields.List(fields.Nested(HandAnswer), required=True)
    page = fields.Integer(required=True)
    per_page = fields.Integer(required=True)
    total = fields.Integer(required=True)
    pages = fields.Integer(required=True)
    next = Link(lambda p: ("api.list_hands", {"public_id": p["public_id"], "page": p["page"] + 1,
                                              "per_page": p["per_page"]}) if p["page"] < p["pages"] else None)


class UndoneAnswer(Answer):
    kind = _nullable_str(metadata={"description": "create, edit, void, restore; players: a change of players."})
    hand = fields.Integer(required=True, allow_none=True, metadata={"description": "null for a change of players."})


class UndoAnswer(Answer):
    """What an undo took back, from ``{"undone": {"kind", "hand"}, "hand": Hand | None, "table": Table}``."""

    undone = fields.Nested(UndoneAnswer, required=True)
    hand = fields.Nested(HandAnswer, required=True, allow_none=True)
    table = fields.Nested(TableAnswer, required=True)


class ConflictAnswer(ErrorAnswer):
    current = fields.Nested(HandAnswer, allow_none=True)
    submitted = fields.Raw(allow_none=True)


class TransferAnswer(Answer):
    """A review.Transfer: ``from`` pays ``to``."""

    from_ = fields.String(required=True, data_key="from", attribute="payer", metadata={"description": "Who pays."})
    to = _str(attribute="payee", metadata={"description": "Who is paid."})
    amount = Money(metadata={"description": "An exact decimal string: money, or points when in_money is false."})


# A player's summed tallies: a figure its game groups (the engine's WORDS.tally_groups: places under
# "places", arches won under "arch_wins") in its group, each other figure under its own name.
figures = grouped_figures


def _grouped() -> set:
    return {figure for module in ENGINES.values() for figure in module.WORDS.tally_groups}


class _PlayerFigures(Answer):
    """A review.PlayerFigures: its values, and each figure of its counts (none other: a game that
    tallies no places has no ``places``)."""

    player = _str()
    seat = fields.Integer(required=True, allow_none=True, metadata={"description": "null: the player left."})
    points = fields.Integer(required=True)
    money = Money()
    hands = fields.Integer(required=True)
    biggest_win = fields.Integer(required=True, allow_none=True)
    biggest_loss = fields.Integer(required=True, allow_none=True)
    places = fields.Dict(keys=fields.String(), values=fields.Integer(), metadata={
        "description": "Times each place out (first, second, third, last), for a game that tallies places."})
    arch_wins = fields.Dict(keys=fields.String(), values=fields.Integer(), metadata={
        "description": "Arches won, by kind, for a game that tallies them."})

    @pre_dump
    def _figures(self, row, **kwargs):
        return {"player": row.name, "seat": row.seat if row.seat is not None and row.seat >= 0 else None,
                "points": row.points, "money": row.money, "hands": row.hands, "biggest_win": row.biggest_win,
                "biggest_loss": row.biggest_loss, **figures(row.counts)}

    @post_dump(pass_original=True)
    def _every_figure(self, data, row, **kwargs):
        for key, value in figures(row.counts).items():  # a game registered later: its figures go out too
            data.setdefault(key, value)
        return data


PlayerFiguresAnswer = type("PlayerFiguresAnswer", (_PlayerFigures,), {
    figure: fields.Integer(metadata={"description": "Summed over the hands that count (the engine's tally)."})
    for figure in dict.fromkeys(f for module in ENGINES.values() for f in module.TALLIES)
    if figure not in _grouped()})


class SummaryAnswer(Answer):
    """The night at a table, from review.summary(table): standings, each player's figures, and the
    fewest transfers that square everyone (amounts in money, or in points when the table plays for none)."""

    id = _str(attribute="table.public_id")
    game = _str(attribute="table.game")
    hands = fields.Integer(required=True, metadata={"description": "Hands that count (not void)."})
    void = fields.Integer(required=True)
    first_at = Time()
    last_at = Time()
    standings = fields.List(fields.Nested(StandingAnswer), required=True)
    players = fields.List(fields.Nested(PlayerFiguresAnswer), required=True,
                          metadata={"description": "By standing, with each figure the game tallies (its engine's "
                                                   "TALLIES, summed over the hands that count). 干瞪眼 adds won, "
                                                   "shut_out, jokers, bombs_held; 大冶打拱 adds places, arch_wins, "
                                                   "shouts_won, shouts_lost, banker, won, xi_bombs."})
    in_money = fields.Boolean(required=True)
    transfers = fields.List(fields.Nested(TransferAnswer), required=True)

    @pre_dump
    def _settle_up(self, summary, **kwargs):
        up = review.settle_table(summary.table)
        return merged(summary, standings=scoring.standings(summary.table), in_money=up.in_money,
                      transfers=up.transfers)


class ExportAnswer(Answer):
    format = _str(metadata={"description": "\"card-table-companion/table\""})
    format_version = fields.Integer(required=True)
    checksum = _str()


class ImportAnswer(Answer):
    """A table just imported, from :func:`with_token` of it: its id and edit token under both names."""

    public_id = _str()
    edit_token = Alias("token", required=True, metadata={"description": "The new table's edit token (only here)."})
    id = Alias("public_id", required=True, metadata={"description": "The same as public_id (the name POST /tables "
                                                                     "answers with)."})
    token = _str(metadata={"description": "The same as edit_token (the name POST /tables answers with)."})
    table = fields.Nested(TableAnswer, required=True)
    signed = fields.Boolean(required=True, metadata={
        "description": "true: the file is unchanged since this server exported it (its signature, an HMAC "
                       "with the server's secret, matches); false: a file from elsewhere or changed since: "
                       "its facts were checked against the rules, but who played what is as the file says."})
    notes = fields.List(Sentence(), required=True, metadata={
        "description": "What the import says about the file, in the request's language: where it comes "
                       "from and, for an older format, which stakes were applied."})

    @pre_dump
    def _table(self, table, **kwargs):
        report = getattr(table, "import_report", None)
        return merged(table, table=table, signed=bool(report and report.signed),
                      notes=list(report.notes) if report else [])
