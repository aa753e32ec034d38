"""A game's facts described: the fields a hand needs under given rules (one description, four uses).

Each game's ``describe_facts(rules, players)`` gives a :class:`FactsDescription`: the ordered
:class:`FactField` values of a hand, each with its path in the facts (``winner``,
``losers.*.cards``, ``order``, ``captured.*``, ``bombs_played``), its kind, its words (engine
:class:`Text`, translated by the faces), the bounds the game's own validator uses, and whether
these rules need it. From it the faces make the hand form and its chips, the JSON schema of
facts, the CSV export's per-player phrases and a stored hand's facts on its page; none of them
knows a game. Pure Python: no Flask, no database.
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from string import Formatter
from typing import Any, Iterator

from .text import Text

# The kinds of fact (what its value is):
PLAYERS = "players"                    # the names in seat order (the table fills it)
PLAYER = "player"                      # one player's name, required
OPTIONAL_PLAYER = "optional_player"    # one player's name, or none
ORDERED_PLAYERS = "ordered_players"    # players in an order (who went out first, second, …)
PER_PLAYER_COUNT = "per_player_count"  # a whole number per player ({name: 35}, losers.*.cards)
PER_PLAYER_SIZES = "per_player_sizes"  # a list of sizes per player ({name: [7, 8]})
PER_PLAYER_FLAG = "per_player_flag"    # true/false per player
COUNT = "count"                        # a whole number
SIZES = "sizes"                        # a list of sizes ([4, 4, 5])
CARD = "card"                          # one card as text ("7h")
FLAG = "flag"                          # yes or no about the hand (a spring, 春天)
CHOICE = "choice"                      # one of a few named values (``values``: the bid, 1 2 or 3)
KINDS = (PLAYERS, PLAYER, OPTIONAL_PLAYER, ORDERED_PLAYERS, PER_PLAYER_COUNT, PER_PLAYER_SIZES, PER_PLAYER_FLAG,
         COUNT, SIZES, CARD, FLAG, CHOICE)
PER_PLAYER = (PER_PLAYER_COUNT, PER_PLAYER_SIZES, PER_PLAYER_FLAG)

_STRING = {"type": "string"}
_INTEGERS = {"type": "array", "items": {"type": "integer"}}
_SCHEMAS = {PLAYERS: {"type": "array", "items": _STRING}, PLAYER: _STRING, OPTIONAL_PLAYER: _STRING,
            ORDERED_PLAYERS: {"type": "array", "items": _STRING}, PER_PLAYER_COUNT: {"type": "integer"},
            PER_PLAYER_SIZES: _INTEGERS, PER_PLAYER_FLAG: {"type": "boolean"}, COUNT: {"type": "integer"},
            SIZES: _INTEGERS, CARD: _STRING, FLAG: {"type": "boolean"}}


@dataclass(frozen=True)
class FactField:
    """One fact of a hand, as the faces need it.

    ``key`` is its path in the facts: ``*`` stands for any player's name (``losers.*.cards``: the
    cards each loser has left; ``captured.*``: the points each player captured)."""

    key: str
    kind: str
    label: Text
    help: Text | None = None
    needed: bool = True          # these rules use it (the form shows it only then)
    missing: Text | None = None  # required: what to say when it is left empty (None: the engine says it)
    default: Any = None          # the value of an empty field; None: the fact is left out (or null, ``keep_empty``)
    keep_empty: bool = False     # an empty optional fact is sent as null rather than left out
    low: int = 0                 # counts and sizes: the smallest value
    high: int | None = None      # counts: the largest value the rules allow (None: no bound besides the engine's)
    step: int = 1                # counts: values go up in steps of this (card points: 5)
    chips: tuple = ()            # the values a form offers as one-tap chips (sizes: only those the rules allow)
    more: int | None = None      # counts: a "more" chip that opens the field for typing (10+)
    adds: bool = False           # counts: the chips add to the value (captured points, a running sum)
    name: str = ""               # the form field (per player: ``<name>_<seat>``); default: the key's last part
    widget: str = ""             # how a form shows it: pills, select, chips, number, sizes, check, text
    none_label: Text | None = None  # optional players: the word of the empty choice ("Nobody"); None: "—"
    by_seat: bool = False        # players: a form's choices are seats (0, 1, …) rather than names
    invert: bool = False         # flags: the box says the opposite of the fact ("never played" = played false)
    skip: str | None = None      # per player: the fact naming the one player without an entry ("winner")
    omit_empty: bool = False     # per-player sizes: a player with none is left out (and the whole fact if empty)
    places: tuple = ()           # ordered players: each place's label (1st out, 2nd out, …)
    values: tuple = ()           # a choice: its values with their words, ((value, label), …), in the order offered
    grouped: bool = False        # a box around the fields that shows the errors about the whole fact
    group_label: Text | None = None  # that box's title
    max_length: int | None = None    # text, cards and sizes: the longest a form takes
    phrase: Text | None = None   # the CSV's words about a player ({value}: the player's value); None: not listed
    phrases: tuple = ()          # ordered players: the CSV's word for each place
    aliases: tuple = ()          # other spellings of the key's last part the engine reads (bombsPlayed)
    total: int | None = None     # per-player counts: every player's value (with ``total_with``) adds up to this,
                                 # when ``total_if`` holds (a form fills in the last share; the card points)
    total_with: tuple = ()       # other counts (fact keys) that are part of that sum (points left in the last hand)
    total_if: tuple = ()         # when the sum must hold: (fact key, n) pairs; n ≥ 1: at least n of its values are
                                 # given, 0: it is empty (three players out and nobody shouted)
    only_for: str | None = None  # per-player flags: only the player that fact names may have it (the dealer)
    clears: tuple = ()           # players: choosing one empties these facts, and choosing one of them empties this
                                 # (a shout has no partner)
    not_same_as: str | None = None  # players: never the player that fact names (the banker is not their own partner)
    summary: Text | None = None  # a stored hand's page: the row's title (None: the label)
    doc: str = ""                # the API document's words for the value (English; None: the label)

    def __post_init__(self):
        if self.kind not in KINDS:
            raise ValueError(f"{self.key}: kind {self.kind!r} is not one of {KINDS}")
        if (self.kind in PER_PLAYER) != ("*" in self.key.split(".")[1:2]):
            raise ValueError(f"{self.key}: a per-player fact's key is <fact>.* or <group>.*.<fact>, and only its")
        if (self.kind == CHOICE) != bool(self.values):
            raise ValueError(f"{self.key}: a choice, and only a choice, lists its values ((value, label), …)")

    @property
    def head(self) -> str:
        """The fact at the top of the facts (``losers`` for ``losers.*.cards``)."""
        return self.key.split(".")[0]

    @property
    def part(self) -> str | None:
        """Per player inside a group of facts: the fact in each entry (``cards`` of ``losers.*.cards``)."""
        parts = self.key.split(".")
        return parts[2] if len(parts) > 2 else None

    @property
    def field_name(self) -> str:
        """The form field's name (per player, followed by ``_<seat>``)."""
        if self.name:
            return self.name
        last = self.key.split(".")[-1]
        return self.head if last == "*" else last

    @property
    def per_player(self) -> bool:
        return self.kind in PER_PLAYER

    @property
    def schema(self) -> dict:
        """The JSON schema of the fact's value (numbers within the rules' bounds)."""
        if self.kind == CHOICE:
            values = [value for value, _label in self.values]
            ints = all(type(v) is int for v in values)
            return {"type": "integer" if ints else "string", "enum": values}
        schema = dict(_SCHEMAS[self.kind])
        if self.kind in (COUNT, PER_PLAYER_COUNT):
            schema["minimum"] = self.low
            if self.high is not None:
                schema["maximum"] = self.high
            if self.step != 1:
                schema["multipleOf"] = self.step
        return schema


@dataclass(frozen=True)
class FactsDescription:
    """The facts of a hand of ``game`` under some rules, in the order a form asks for them."""

    game: str
    title: str
    fields: tuple = field(default_factory=tuple)
    winners_phrase: Text | None = None  # the CSV's words for a player on the hand's winning side (None: not said)

    def __iter__(self) -> Iterator[FactField]:
        return iter(self.fields)

    def get(self, key: str) -> FactField | None:
        return next((f for f in self.fields if f.key == key), None)

    def needed(self) -> tuple:
        return tuple(f for f in self.fields if f.needed)

    def sections(self, needed_only: bool = False) -> list:
        """The facts in order, those of each player in a group together, without the players:
        ``(fact, None)``, or ``(head, [facts])`` for per-player facts (a form's boxes, a page's rows)."""
        out: list = []
        for fact in self.needed() if needed_only else self.fields:
            if fact.kind == PLAYERS:
                continue
            if not fact.per_player:
                out.append((fact, None))
            elif out and out[-1][1] is not None and out[-1][0] == fact.head:
                out[-1][1].append(fact)
            else:
                out.append((fact.head, [fact]))
        return out

    def heads(self) -> tuple:
        """The facts at the top of a hand (``players``, ``winner``, ``losers``, …), in order."""
        return tuple(dict.fromkeys(f.head for f in self.fields))

    def head_schema(self, head: str) -> dict:
        """The JSON schema of one top fact: a group (``losers``) is an object per player."""
        inner = [f for f in self.fields if f.head == head]
        if len(inner) == 1 and inner[0].key == head:
            return inner[0].schema
        if len(inner) == 1 and inner[0].key == head + ".*":
            return {"type": "object", "additionalProperties": inner[0].schema}
        return {"type": "object", "additionalProperties": {
            "type": "object", "properties": {f.part: f.schema for f in inner if f.part}}}

    def numeric_paths(self) -> tuple:
        """The paths of the facts that are numbers (``*``: any key or item): JSON numbers only."""
        return tuple(f.key + (".*" if f.kind in (SIZES, PER_PLAYER_SIZES) else "")
                     for f in self.fields if f.kind in (COUNT, PER_PLAYER_COUNT, SIZES, PER_PLAYER_SIZES))

    def aliases(self) -> dict:
        """Other spellings of top facts the engine reads: alias -> the fact."""
        return {alias: f.key for f in self.fields if f.key == f.head for alias in f.aliases}

    def label_of(self, fact: FactField, value: Any) -> Any:
        """A choice's value in words (its label); any other value as it is."""
        return next((label for v, label in fact.values if v == value and type(v) is type(value)), value)

    def hand_phrases(self, facts: Mapping) -> list:
        """What the facts say about the whole hand (not about one player), as translatable phrases:
        each hand-level fact with a ``phrase`` that is given (a flag when true; a choice in its words;
        a count, sizes or a card as given). ``{value}`` in the phrase is filled in."""
        out: list = []
        for fact in self.fields:
            if fact.phrase is None or fact.per_player or fact.kind in (PLAYERS, PLAYER, OPTIONAL_PLAYER, ORDERED_PLAYERS):
                continue
            value = self.value(fact, facts)
            if fact.kind == FLAG and value is not True:
                continue
            if value is None or value == [] or value == "":
                continue
            if isinstance(value, list):
                value = " ".join(str(v) for v in value)
            out.append(Text(fact.phrase.template, {"value": self.label_of(fact, value)}))
        return out

    def value(self, fact: FactField, facts: Mapping, name: str | None = None) -> Any:
        """The value of ``fact`` in ``facts`` (per player: ``name``'s), read under any of its
        spellings (stored facts keep the spelling they were sent with); None when not given."""
        if not isinstance(facts, Mapping):
            return None
        if not fact.per_player:
            return _given(facts, fact.key, fact.aliases)
        entries = facts.get(fact.head)
        entry = entries.get(name) if isinstance(entries, Mapping) and isinstance(name, str) else None
        return _given(entry, fact.part, fact.aliases) if fact.part else entry

    def phrases(self, facts: Mapping, name: str, winners=()) -> list:
        """What the facts say about player ``name``, as translatable phrases in the description's
        order (the CSV export): the facts naming them, their place, their non-zero counts and
        their flags, and the winning side (``winners``: the hand's outcome)."""
        out: list = []
        if not isinstance(name, str):
            return out
        for fact in self.fields:
            value = self.value(fact, facts, name)
            if fact.kind in (PLAYER, OPTIONAL_PLAYER):
                said = fact.phrase is not None and value == name
            elif fact.kind == ORDERED_PLAYERS:
                order = list(value)[:len(fact.phrases)] if isinstance(value, (list, tuple)) else []
                if name in order:
                    out.append(fact.phrases[order.index(name)])
                continue
            elif fact.kind == PER_PLAYER_FLAG:
                said = fact.phrase is not None and ((value is False) if fact.invert else bool(value))
            else:
                said = fact.phrase is not None and fact.per_player and bool(value)
            if said:
                fields = {part[1] for part in Formatter().parse(fact.phrase.template) if part[1]}
                out.append(Text(fact.phrase.template, {key: value for key in fields}))
        if self.winners_phrase is not None and isinstance(winners, (list, tuple)) and name in winners:
            out.append(self.winners_phrase)
        return out + self.hand_phrases(facts)


def _given(entry, key: str | None, aliases=()) -> Any:
    """``entry[key]``, or the value under one of its other spellings."""
    if not isinstance(entry, Mapping) or key is None:
        return None
    return next((entry[k] for k in (key, *aliases) if entry.get(k) is not None), None)
