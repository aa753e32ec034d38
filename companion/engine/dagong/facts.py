"""The facts of a 大冶打拱 hand (rules/dagong.md §3, §4, §6, §7): the one validator, the facts a
table's switches need, the teams and the next dealer.

:func:`validate` checks every fact once and gives a :class:`Hand`; who won is decided from it in
:mod:`.outcome`. Each problem is a :class:`FactsError` with a stable code and the field."""
from __future__ import annotations

from decimal import Decimal
from functools import lru_cache
from typing import Mapping, NamedTuple

from .. import described as d
from ..cards import CardError, parse_cards
from ..errors import FactsError, raise_all
from ..text import N_, Text
from .outcome import decide
from .rules import DEFAULT_RULES, HAND_SIZE, PLAYERS, TOTAL_POINTS, Rules, coerce_rules

KNOWN_FACTS = ("players", "banker", "partner", "shout", "order", "captured", "last_hand_points", "bright_card",
               "xi_bombs")
_KNOWN = frozenset(KNOWN_FACTS)
XI_SIZES = {7: 1, 8: 2}  # 喜钱: a hard bomb of 7 (8) cards collects 1 (2) base stakes from each other player


class Hand(NamedTuple):
    """Checked facts of one hand. ``partner`` is None in a shout hand (a partner given there is kept
    as ``ignored_partner``); ``captured`` has every player (empty in a shout hand)."""

    players: tuple
    banker: str
    partner: str | None
    shout: str | None
    order: tuple
    captured: dict
    in_hand: int
    bright_card: str | None = None
    xi_bombs: dict | None = None   # None unless 喜钱 is on
    ignored_partner: str | None = None
    banker_side: tuple = ()        # the banker and partner, in seat order (2v2)
    other_side: tuple = ()         # the two others, in seat order (2v2)

    def side_of(self, name: str) -> tuple:
        """The two partners of ``name``'s team, in seat order (2v2 only)."""
        return self.banker_side if name in self.banker_side else self.other_side

    def as_dict(self) -> dict:
        """The normalised facts, as :func:`validate_facts` gives them."""
        out = {"players": list(self.players), "banker": self.banker, "partner": self.partner, "shout": self.shout,
               "order": list(self.order), "captured": dict(self.captured), "last_hand_points": self.in_hand}
        if self.bright_card is not None:
            out["bright_card"] = self.bright_card
        if self.xi_bombs is not None:
            out["xi_bombs"] = {p: list(sizes) for p, sizes in self.xi_bombs.items()}
        return out


def _fail(message: Text, code: str, field: str | None):
    raise FactsError(message, code=code, field=field)


# --------------------------------------------------------------------------------------------
# The one validator


def validate(facts, rules: Rules, *, as_recorded: bool = False) -> Hand:
    """Every fact checked once; raises :class:`FactsError` naming the field. ``as_recorded``: a hand
    stored by an earlier engine, which let the finishing order go on past an E12 early end (the
    order is kept as recorded; the hand still ends at the second out)."""
    players, banker, partner, shout = seats(facts)
    problems: list = []  # every problem below the seats, reported at once (errors.raise_all)
    if shout is not None and not rules.shout_allowed:
        problems.append(FactsError(N_("Shouting is off in these house rules (shoutAllowed): clear the shout and "
                                      "name the partner."), code="shout_not_allowed", field="shout"))
    order = _attempt(problems, finishing_order, facts, players)
    bright = _attempt(problems, _bright_card, facts.get("bright_card"), rules)
    xi = _attempt(problems, _xi_bombs, facts.get("xi_bombs"), players) if rules.bonus_xi_qian else None
    banker_side = tuple(p for p in players if p in (banker, partner))
    other_side = tuple(p for p in players if p not in banker_side)
    order_known = order or ()
    e12 = len(order_known) >= 2 and (order_known[0] in banker_side) == (order_known[1] in banker_side)
    points = None
    if shout is None:  # the points of a shout hand are not used
        if e12:
            order_known = _ends_at_e12(problems, order_known, as_recorded)
        points = _attempt(problems, _points, facts, players, order_known)
    raise_all(problems)
    if shout is not None:
        if not order:
            _fail(N_("The hand is not over: enter who went out first ({shouter} shouted, so the hand ends as soon "
                     "as anyone goes out).", shouter=shout), "hand_not_over", "order")
        return Hand(players, banker, None, shout, order, {}, 0, bright, xi, partner)
    captured, in_hand = points
    if e12 and not facts.get("captured"):
        _fail(N_("{first} and {second} went out first and second (E12): give the points {others} captured "
                 "(0 if none), which decide between ×4 and ×2.", first=order[0], second=order[1],
                 others="+".join(p for p in players if p not in order[:2])), "missing_points", "captured")
    return Hand(players, banker, partner, None, order, captured, in_hand, bright, xi, None, banker_side, other_side)


def _ends_at_e12(problems: list, order: tuple, as_recorded: bool) -> tuple:
    """The order of an E12 hand stops at the second out (the rest refused, unless ``as_recorded``)."""
    if len(order) > 2 and not as_recorded:
        problems.append(FactsError(N_("{first} and {second} are partners and went out first and second, so the "
                                      "hand ended there (E12): the finishing order stops at {second}.",
                                      first=order[0], second=order[1]), code="order_past_end", field="order"))
    return tuple(order[:2])


def _attempt(problems: list, check, *args):
    """``check(*args)``, or None with its refusal added to ``problems``."""
    try:
        return check(*args)
    except FactsError as error:
        problems.append(error)
        return None


def seats(facts) -> tuple:
    """(players, banker, partner, shout), checked; the partner is None in a shout hand."""
    if not isinstance(facts, Mapping):
        _fail(N_("The hand must be given as players, banker, partner or shout, order, captured points and "
                 "points left in hand."), "bad_facts", None)
    for key in facts:
        if key not in _KNOWN:
            _fail(N_("'{key}' is not a fact of a 大冶打拱 hand: the facts are {known}.", key=key,
                     known=", ".join(KNOWN_FACTS)), "unknown_fact", str(key))
    players = _players(facts.get("players"))
    banker = _member(facts, "banker", players)
    if banker is None:
        _fail(N_("Name the banker: one of {players}.", players=", ".join(players)), "missing_banker", "banker")
    shout = _member(facts, "shout", players)
    partner = _member(facts, "partner", players)
    if shout is None:
        if partner is None:
            _fail(N_("Name the banker's partner (the holder of the bright card's twin), or the player who "
                     "shouted for a one-against-three hand."), "missing_partner", "partner")
        if partner == banker:
            _fail(N_("{player} is the banker and cannot be the partner too: the partner holds the twin of the "
                     "bright card.", player=partner), "partner_is_banker", "partner")
    return players, banker, partner, shout


def _players(players) -> tuple:
    if not isinstance(players, (list, tuple)) or len(players) != PLAYERS:
        _fail(N_("Give exactly 4 player names in seat order (counter-clockwise)."), "bad_players", "players")
    for i, name in enumerate(players):
        if not isinstance(name, str) or not name.strip():
            _fail(N_("Player {number} needs a name: give 4 names in seat order.", number=i + 1),
                  "bad_players", "players")
    if len(set(players)) != PLAYERS:
        duplicate = next(p for p in players if players.count(p) > 1)
        _fail(N_("{player} is listed twice among the players: give 4 different names.", player=duplicate),
              "bad_players", "players")
    return tuple(players)


_NOT_A_PLAYER = {"banker": N_("The banker '{value}' is not one of the players ({players})."),
                 "partner": N_("The partner '{value}' is not one of the players ({players})."),
                 "shout": N_("The shouter '{value}' is not one of the players ({players}).")}


def _member(facts, field: str, players: tuple):
    """A player named by ``field``, or None when left empty."""
    value = facts.get(field)
    if value is None or value == "" or value is False:
        return None
    if not isinstance(value, str) or value not in players:
        shown = value if isinstance(value, str) else repr(value)
        _fail(Text(_NOT_A_PLAYER[field].template, {"value": shown, "players": ", ".join(players)}),
              "unknown_player", field)
    return value


def finishing_order(facts, players: tuple) -> tuple:
    """The players in the order they went out, checked (may be partial)."""
    order = facts.get("order")
    if order is None:
        return ()
    if not isinstance(order, (list, tuple)):
        _fail(N_("The finishing order must be a list of player names, first out first."), "bad_order", "order")
    seen: list = []
    for i, name in enumerate(order):
        if not isinstance(name, str) or name not in players:
            _fail(N_("Place {place} of the finishing order, '{value}', is not one of the players ({players}).",
                     place=i + 1, value=name if isinstance(name, str) else repr(name),
                     players=", ".join(players)), "unknown_player", "order")
        if name in seen:
            _fail(N_("{player} appears twice in the finishing order: each player finishes once.", player=name),
                  "repeated_player", "order")
        seen.append(name)
    return tuple(seen)


# --------------------------------------------------------------------------------------------
# Points (§6)


def _points(facts, players: tuple, order: tuple) -> tuple:
    """(captured per player, points left in the last player's hand), checked."""
    raw = facts.get("captured")
    if raw is None:
        raw = {}
    if not isinstance(raw, Mapping):
        _fail(N_("The captured points must be given per player, such as {{\"{player}\": 35}}.", player=players[0]),
              "bad_points", "captured")
    for name in raw:
        if name not in players:
            _fail(N_("Captured points are given for '{value}', who is not one of the players ({players}).",
                     value=name, players=", ".join(players)), "unknown_player", f"captured.{name}")
    problems: list = []  # each player's points, the points in hand and their total, all reported
    captured = {p: _attempt(problems, _point_value, raw.get(p), f"captured.{p}", p) for p in players}
    in_hand = _attempt(problems, _point_value, facts.get("last_hand_points"), "last_hand_points",
                       N_("Points left in hand"))
    numbers = [_counted(value) for value in (*raw.values(), facts.get("last_hand_points"))]
    if sum(numbers) > TOTAL_POINTS:  # said with the other problems (123 + 150: both, and the total)
        problems.append(FactsError(N_("The captured points and the points left in hand add up to {total}, but the "
                                      "two decks hold only 200: check each player's captured points.",
                                      total=sum(numbers)), code="too_many_points", field="captured"))
    raise_all(problems)
    total = sum(captured.values()) + in_hand
    if len(order) >= PLAYERS - 1 and total != TOTAL_POINTS:
        last = order[3] if len(order) == PLAYERS else next(p for p in players if p not in order)
        _fail(N_("The hand is finished, so the points must add up to 200, but they add up to {total}: check the "
                 "captured points and the points left in {last}'s hand.", total=total, last=last),
              "points_total", "captured")
    return captured, in_hand


def _whole(value):
    """A whole number written as int, float, Decimal or digits; None for anything else."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, Decimal) and value.is_finite() and value == value.to_integral_value():
        return int(value)
    if isinstance(value, str) and value.strip().lstrip("-").isdigit() and len(value) < 12:
        return int(value.strip())
    return None


def _counted(value) -> int:
    """A value's points as counted in the total, even when the value itself is refused (not a
    multiple of 5); 0 for what is not a whole number from 0 to 200."""
    number = 0 if value is None or (isinstance(value, str) and not value.strip()) else _whole(value)
    return number if number is not None and 0 <= number <= TOTAL_POINTS else 0


def _point_value(value, field: str, who) -> int:
    if value is None or value == "":
        return 0
    number = _whole(value)
    if number is None:
        _fail(N_("{who}: the points must be a whole number such as 0, 5 or 35, not '{value}'.",
                 who=who, value=value), "bad_points", field)
    if number < 0:
        _fail(N_("{who}: the points cannot be negative ({value}).", who=who, value=number),
              "negative_points", field)
    if number % 5:
        _fail(N_("{who}: the points must be a multiple of 5 (only 5s, 10s and Ks score), not {value}.",
                 who=who, value=number), "not_multiple_of_5", field)
    if number > TOTAL_POINTS:
        _fail(N_("{who}: {value} points is more than the 200 the two decks hold.", who=who, value=number),
              "too_many_points", field)
    return number


# --------------------------------------------------------------------------------------------
# Bright card, 喜 bombs


def _bright_card(value, rules: Rules):
    if value is None or value == "":
        return None
    try:
        cards = parse_cards(value)
    except CardError:
        raise FactsError(N_("The bright card must be one card such as 7h or 10♠, not '{value}'.", value=value),
                         code="bad_card", field="bright_card") from None
    if len(cards) != 1:
        _fail(N_("The bright card must be a single card, such as 7h."), "bad_card", "bright_card")
    if cards[0].is_joker and rules.bid_card_exclude_jokers:
        _fail(N_("A joker cannot be the bright card (house rule bidCardExcludeJokers)."), "bad_card",
              "bright_card")
    return str(cards[0])


def _xi_bombs(value, players: tuple) -> dict:
    """{player: [7, 8, …]}: the sizes of the hard 7- and 8-card bombs each player played (喜钱)."""
    if value is None or value == "" or value == {}:
        return {}
    if not isinstance(value, Mapping):
        _fail(N_("The 喜 bombs must be given per player, such as {{\"{player}\": [7]}}.", player=players[0]),
              "bad_xi", "xi_bombs")
    out = {}
    for name, sizes in value.items():
        if name not in players:
            _fail(N_("喜 bombs are given for '{value}', who is not one of the players.", value=name),
                  "unknown_player", f"xi_bombs.{name}")
        if not isinstance(sizes, (list, tuple)) or not all(
                isinstance(s, int) and not isinstance(s, bool) and s in XI_SIZES for s in sizes):
            _fail(N_("{player}: list the sizes of the hard bombs of 7 or 8 cards played, such as [7, 8].",
                     player=name), "bad_xi", f"xi_bombs.{name}")
        if sum(sizes) > HAND_SIZE:
            _fail(N_("{player}: hard bombs of {sizes} cards need {total} cards, but a hand has only {limit}.",
                     player=name, sizes=" + ".join(map(str, sizes)), total=sum(sizes), limit=HAND_SIZE),
                  "bad_xi", f"xi_bombs.{name}")
        if sizes:
            out[name] = list(sizes)
    return out


# --------------------------------------------------------------------------------------------
# Public helpers


def validate_facts(facts, rules: Rules = DEFAULT_RULES) -> dict:
    """The hand facts, checked and normalised (captured has every player; points are ints).

    Raises :class:`FactsError` with a code and the field (``captured.P2``, ``order``, …), also
    when the hand is not over yet (code ``hand_not_over``).
    """
    rules = coerce_rules(rules)
    hand = validate(facts, rules)
    decide(hand, rules)  # the outcome says whether the hand is over
    return hand.as_dict()


def teams(facts) -> tuple[list[str], list[str]]:
    """(banker's side, other side), each in seat order; in a shout hand ([shouter], the other three)."""
    players, banker, partner, shout = seats(facts)
    if shout is not None:
        return [shout], [p for p in players if p != shout]
    side = [p for p in players if p in (banker, partner)]
    return side, [p for p in players if p not in side]


def needed_facts(rules=None) -> tuple[str, ...]:
    """Facts beyond the usual record that this table's switches need: ``xi_bombs`` (per player, the
    sizes of hard 7- and 8-card bombs played) when 喜钱 (``bonus_xi_qian``) is on."""
    return ("xi_bombs",) if coerce_rules(rules).bonus_xi_qian else ()


PLACES = (N_("1st out"), N_("2nd out"), N_("3rd out"), N_("4th out"))
PLACE_WORDS = ("头游", "二游", "三游", "末游")  # the export's words for each place (the game's own)


def describe_facts(rules=None, players: int | None = None) -> d.FactsDescription:
    """The facts of a hand under ``rules``, in the order of the facts, with the bounds
    :func:`validate` uses (points: multiples of 5 up to the 200 of the decks; 喜 bombs: 7 or 8).
    Always four players; the same rules give the same (cached) description."""
    return _describe(coerce_rules(rules).bonus_xi_qian)


# the captured points' add-chips (three rows of five at 390 px): every multiple of 5 up to 50 and the
# round 60, 70, 80, 100 in one tap, the rest up to 150 in two (55 = +50 +5, 95 = +80 +15, 150 = +100 +50)
CAPTURED_CHIPS = (0, 5, 10, 15, 20, 25, 30, 35, 40, 45, 50, 60, 70, 80, 100)

@lru_cache(maxsize=4)
def _describe(xi_qian: bool) -> d.FactsDescription:
    nobody = N_("Nobody")
    fields = (
        d.FactField("players", d.PLAYERS, N_("Players"), doc='names in seat order (4).'),
        d.FactField("banker", d.PLAYER, N_("Banker"), help=N_("Suggested: the first player out of the previous hand."),
                    widget="select", phrase=N_("banker"), doc='the banker.'),
        d.FactField("partner", d.OPTIONAL_PLAYER, N_("Partner (holds the bright card's twin)"), keep_empty=True,
                    widget="pills", none_label=nobody, phrase=N_("partner"), doc="the banker's partner, or null.",
                    not_same_as="banker"),
        d.FactField("shout", d.OPTIONAL_PLAYER, N_("Who shouted (plays alone, 1 against 3)?"), keep_empty=True,
                    help=N_("If someone shouted, the partner and the captured points do not count; only who went "
                            "out first matters."), widget="select", none_label=nobody, phrase=N_("shouted"), clears=("partner",),
                    summary=N_("Shouted"), doc='who shouted, or null.'),
        d.FactField("order", d.ORDERED_PLAYERS, N_("Finishing order"), missing=N_("Choose who went out first."),
                    help=N_("Who went out first, second, third. If the hand ended early, stop where it ended."),
                    places=PLACES[:PLAYERS], phrases=PLACE_WORDS, grouped=True, widget="select",
                    summary=N_("Order out"), doc='who went out, first out first.'),
        d.FactField("captured.*", d.PER_PLAYER_COUNT, N_("Points captured"), default=0, high=TOTAL_POINTS, step=5,
                    chips=CAPTURED_CHIPS, adds=True, widget="chips", grouped=True,
                    group_label=N_("Points captured in tricks"), help=N_("5s count 5, 10s and Ks count 10: 200 in all."),
                    total=TOTAL_POINTS, total_with=("last_hand_points",), total_if=(("order", PLAYERS - 1), ("shout", 0)),
                    phrase=N_("points captured: {points}"), doc='{name: points captured}.'),
        d.FactField("last_hand_points", d.COUNT, N_("Points left in the last player's hand"), default=0,
                    high=TOTAL_POINTS, step=5, widget="number", summary=N_("Left in the last hand"), doc="points left in the last player's hand."),
        d.FactField("bright_card", d.CARD, N_("Bright card (optional, e.g. 7h)"), keep_empty=True, widget="text",
                    max_length=8, summary=N_("Bright card"), doc='the bright card, optional.'),
        d.FactField("xi_bombs.*", d.PER_PLAYER_SIZES, N_("Hard 7- or 8-card bombs played (喜), e.g. 7 8"),
                    low=min(XI_SIZES), high=max(XI_SIZES), chips=tuple(XI_SIZES), needed=xi_qian,
                    omit_empty=True, widget="sizes", max_length=60, grouped=True,
                    group_label=N_("喜钱: hard 7- and 8-card bombs played"),
                    help=N_("Each collects from every other player: 1 for a 7-card bomb, 2 for an 8-card bomb. "
                            "Leave empty when none."), summary=N_("喜 bombs"), doc='{name: [sizes of hard 7- or 8-card bombs]} (喜钱).'),
    )
    return d.FactsDescription("dagong", "大冶打拱", fields, winners_phrase=N_("winning side"))


def next_dealer(facts) -> str:
    """The 头游 (first player out) deals and banks the next hand."""
    players, *_ = seats(facts)
    order = finishing_order(facts, players)
    if not order:
        _fail(N_("The hand is not over: enter who went out first; that player deals next."), "hand_not_over",
              "order")
    return order[0]


def used_facts(facts, rules: Rules = DEFAULT_RULES):
    """The facts without the card points the hand's outcome does not use, so that none is stored:
    a shout hand uses no points; E12 only the points of the two who did not go out (they decide
    ×4 or ×2); E1, E2, E3 the points of the first out's team and of the second out (not those of
    the second's partner, nor the points left in hand); a played-out hand uses them all. Facts
    that do not settle are given back unchanged (:func:`validate` then says what is wrong)."""
    try:
        rules = coerce_rules(rules)
        hand = validate(facts, rules)
        outcome = decide(hand, rules)
    except FactsError:
        return facts
    if outcome.early_end is None and outcome.shout is None:
        return facts
    out = {k: v for k, v in facts.items() if k not in ("captured", "last_hand_points")}
    if outcome.early_end == "E12":
        out["captured"] = {p: hand.captured[p] for p in hand.players if p not in hand.order[:2]}
    elif outcome.early_end is not None:
        first, second = hand.order[:2]
        out["captured"] = {p: hand.captured[p] for p in hand.players if p in hand.side_of(first) or p == second}
    return out
