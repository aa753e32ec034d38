"""斗地主 (Dou Dizhu, "fight the landlord"): a small but real third game, kept under the tests.

It is registered the documented way (docs/engine.md, "Adding a third game": a package meeting
:class:`companion.engine.GameEngine`, put in :data:`companion.engine.ENGINES`) for every test that
runs over the registry (``tests/conftest.py``: the ``any_game`` fixture), and no file of
``companion/``, ``templates/`` or ``static/`` names it.

The rules (the common ones, shortened): three players, one deck of 54 cards, 17 each and the 3
left to the landlord, who plays alone against the two farmers. The bid (1, 2 or 3) is the base.
Plays: a single, a pair, a triple, a triple with one card or with a pair, a straight of five or more
singles (3 up to A), three or more consecutive pairs, two or more consecutive triples (an
airplane), a bomb (four of a rank) and the rocket (both jokers). A play is beaten by the same kind
and length with a higher rank; a bomb beats anything but a higher bomb and the rocket. The first to
play out wins for their side. Each bomb or rocket played doubles the stake (switch
``bomb_doubles``: each, or once when any), and a spring (春天: the losing side never played, or the
landlord only led once) doubles it again (switch ``spring_doubles``). The landlord collects from
(or pays) each farmer the bid × the doublings.

Its facts use the fact kinds a new game needs: the landlord (one player), the bid (a choice among
named values), who played out first, the bombs played (a count) and the spring (a yes/no fact).
"""
from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from companion.engine import described as d
from companion.engine.cards import ACE, BIG_JOKER, NATURAL_RANKS, SMALL_JOKER, Card, CardError, declared_text, parse_cards
from companion.engine.errors import FactsError, RulesError, raise_all
from companion.engine.money import apply_stake, parse_stake
from companion.engine.results import Answer, Reading, Settlement, Verdict
from companion.engine.sentences import rule_sentences_from
from companion.engine.switches import Switch, build_rules
from companion.engine.text import N_, NP_
from companion.engine.words import GameWords

NAME = "doudizhu"
TITLE = "斗地主"
LABEL = N_("斗地主 Dou Dizhu")
DEALER_WORD = N_("Landlord")
DEALER_FACT = "landlord"
NEXT_DEALER_WORD = N_("Bids first next")
FIRST_DEALER_HELP = N_("Bids first in the first hand; afterwards whoever played out first.")
PLAYERS = 3
PLAYER_RANGE = (PLAYERS, PLAYERS)
HAND_DEALT = 17        # cards dealt to each player
KITTY = 3              # the cards left to the landlord
BIDS = (1, 2, 3)       # the bids, each the base of the hand
STRAIGHT_MIN = 5       # the shortest straight of singles
PAIRS_MIN = 3          # the fewest consecutive pairs
PLANE_MIN = 2          # the fewest consecutive triples
BOMB_SIZE = 4          # four of a rank
DOUBLE = 2             # what a bomb, the rocket or a spring multiplies the stake by
MOST_BOMBS = len(NATURAL_RANKS) + 1  # every rank's bomb and the rocket
OUTCOME_NAMES: dict = {"landlord": N_("the landlord won"), "farmers": N_("the farmers won")}
TALLIES = ("won", "landlord_won", "landlord_lost", "springs")
NUMERIC_FACTS = ("bombs",)  # counts only: the bid is a choice (its own exact type)
EXAMPLE_PLAYS = ("3", "7 7", "8 8 8 5", "3 4 5 6 7", "9 9 9 9", "小王 大王")
SINGLE, PAIR, TRIPLE, TRIPLE_ONE, TRIPLE_PAIR = "single", "pair", "triple", "triple_one", "triple_pair"
STRAIGHT, PAIRS, PLANE, BOMB, ROCKET = "straight", "pairs", "plane", "bomb", "rocket"
VERDICT_ANCHORS = {"pass": "plays", "lead_ok": "plays", "not_higher": "follow", "not_same_kind": "follow",
                   "not_a_combination": "plays", "bad_players": "deal", "bad_rules": "pay",
                   "previous_not_a_combination": "plays"}

# --------------------------------------------------------------------------------------------
# House rules

SWITCHES: dict[str, Switch] = {
    "bomb_doubles": Switch("bomb_doubles", N_("Each bomb played doubles the stake, or only the first."),
                           ("each", "once")),
    "spring_doubles": Switch("spring_doubles", N_("A spring (春天) doubles the stake."), (False, True), kind="bool"),
}


@dataclass(frozen=True)
class Rules:
    bomb_doubles: str = "each"
    spring_doubles: bool = True


PRESETS: dict[str, Rules] = {"standard": Rules(), "gentle": Rules(bomb_doubles="once", spring_doubles=False)}

WORDS = GameWords(
    switches={"bomb_doubles": (N_("Bombs played"), N_("Whether every bomb doubles the stake, or only the first.")),
              "spring_doubles": (N_("Spring (春天)"), N_("The losing side never played: the stake doubles."))},
    values={("bomb_doubles", "each"): N_("double for each bomb"), ("bomb_doubles", "once"): N_("double once")},
    presets={"standard": N_("Standard tables (each bomb doubles, a spring doubles)"),
             "gentle": N_("Gentle tables (bombs double once, no spring)")},
    plays={SINGLE: N_("single"), PAIR: N_("pair"), TRIPLE: N_("triple"), TRIPLE_ONE: N_("triple with one"),
           TRIPLE_PAIR: N_("triple with a pair"), STRAIGHT: N_("straight"), PAIRS: N_("connected pairs"),
           PLANE: N_("airplane"), BOMB: N_("bomb"), ROCKET: N_("rocket"), "pass": N_("pass")},
    play_anchors={SINGLE: "follow", PAIR: "follow", TRIPLE: "follow", TRIPLE_ONE: "follow", TRIPLE_PAIR: "follow",
                  STRAIGHT: "plays", PAIRS: "plays", PLANE: "plays", BOMB: "bombs", ROCKET: "bombs"},
    tallies={"won": N_("Hands won"), "landlord_won": N_("Won as landlord"), "landlord_lost": N_("Lost as landlord"),
             "springs": N_("Springs (春天)")},
    facts={"landlord": N_("Landlord"), "bid": N_("Bid"), "winner": N_("Who played out first?"),
           "bombs": N_("Bombs and rockets played"), "spring": N_("Spring (春天)")},
    first_dealer=N_("Who bids first (optional)"),
    prose={"deal": (N_("Three players, one deck of 54 cards: 17 each, and the 3 left go to the landlord, who plays "
                       "alone against the two farmers. The bid, 1, 2 or 3, is the base of the hand."),),
           "plays": (N_("A single, a pair, a triple (alone, with one card or with a pair), a straight of five or "
                        "more, three or more consecutive pairs, two or more consecutive triples."),),
           "follow": (N_("A play is beaten by the same kind with as many cards and a higher rank."),),
           "bombs": (N_("A bomb (four of a rank) beats any other play but a higher bomb; the rocket (both jokers) "
                        "beats everything."),),
           "end": (N_("The first to play out wins for their side."),),
           "pay": (N_("The landlord collects from, or pays, each farmer the bid, doubled as the table's rules say."),)},
)


def rules_from_dict(data: Mapping[str, Any] | None = None, preset: str | None = None) -> Rules:
    if isinstance(data, Mapping) and "preset" in data:
        data = dict(data)
        inner = data.pop("preset")
        preset = inner if preset is None else preset
    preset = preset or "standard"
    if not isinstance(preset, str) or preset not in PRESETS:
        raise RulesError(N_("Unknown preset '{preset}': choose one of {choices}.", preset=str(preset)[:40],
                            choices=", ".join(PRESETS)), code="unknown_preset", field="preset")
    return build_rules(Rules, SWITCHES, data, base=PRESETS[preset])


def _rules(rules) -> Rules:
    if rules is None:
        return PRESETS["standard"]
    return rules if isinstance(rules, Rules) else rules_from_dict(rules)


def decks(rules: Any = None, players: int | None = None) -> int:
    _rules(rules)
    if players is not None and (type(players) is not int or players != PLAYERS):
        raise RulesError(N_("斗地主 is played by exactly {n} players, not {players}.", n=PLAYERS,
                            players=str(players)[:20]), code="bad_players", field="players")
    return 1


# --------------------------------------------------------------------------------------------
# Plays


def _cards(cards, field: str) -> tuple:
    if isinstance(cards, (list, tuple)) and all(isinstance(c, Card) for c in cards):
        return tuple(cards)
    if cards is not None and not isinstance(cards, str):
        raise CardError(N_("Write the cards as text, e.g. 7 7."), code="bad_cards", field=field)
    shown = parse_cards(cards or "")
    counts = Counter((c.rank, c.suit) for c in shown)
    if any(n > 1 and rank < SMALL_JOKER and suit is not None for (rank, suit), n in counts.items()) or \
            any(n > 4 for n in Counter(c.rank for c in shown if not c.is_joker).values()) or \
            any(c.rank not in (SMALL_JOKER, BIG_JOKER) for c in shown if c.is_joker) or \
            any(n > 1 for r, n in Counter(c.rank for c in shown if c.is_joker).items()):
        raise CardError(N_("One deck holds each card once, four of a rank and one small and one big joker."),
                        code="too_many_copies", field=field)
    return shown


def _run(ranks: list, width: int, least: int) -> int | None:
    """The low rank of ``width`` cards of each of consecutive ranks (3 up to A), at least ``least`` long."""
    counts = Counter(ranks)
    if any(n != width for n in counts.values()) or len(counts) < least:
        return None
    low, high = min(counts), max(counts)
    return low if high <= ACE and high - low + 1 == len(counts) else None


def _reading(kind: str, rank: int, cards: tuple) -> tuple:
    return (Reading(kind, rank, len(cards), cards, tuple(sorted(c.rank for c in cards))),)


def classify(cards: Any, rules: Any = None, players: int | None = None) -> tuple:
    """The one reading of some cards (斗地主 has no wild cards), or () when they are no play."""
    _options(rules, players)
    cards = _cards(cards, "play")
    ranks = sorted(c.rank for c in cards)
    counts = Counter(ranks)
    by_count = sorted(counts.items(), key=lambda x: (-x[1], x[0]))
    n = len(cards)
    if n == 2 and set(ranks) == {SMALL_JOKER, BIG_JOKER}:
        return _reading(ROCKET, BIG_JOKER, cards)
    if n and len(counts) == 1 and n <= BOMB_SIZE:
        return _reading((SINGLE, PAIR, TRIPLE, BOMB)[n - 1], ranks[0], cards)
    if n in (4, 5) and by_count[0][1] == 3 and len(counts) == 2 and (n == 4 or by_count[1][1] == 2):
        return _reading(TRIPLE_ONE if n == 4 else TRIPLE_PAIR, by_count[0][0], cards)
    for kind, width, least in ((STRAIGHT, 1, STRAIGHT_MIN), (PAIRS, 2, PAIRS_MIN), (PLANE, 3, PLANE_MIN)):
        low = _run(ranks, width, least)
        if low is not None:
            return _reading(kind, low, cards)
    return ()


def _beats(play: Reading, table: Reading) -> bool:
    if play.type == ROCKET:
        return True
    if play.type == BOMB:
        return table.type not in (BOMB, ROCKET) or (table.type == BOMB and play.rank > table.rank)
    return play.type == table.type and play.length == table.length and play.rank > table.rank


def _options(rules: Any, players: Any = None, previous_as: Any = None, play_as: Any = None, **_more: Any) -> Rules:
    """The rules, after the options every door may send are judged: the players (one count), a
    declared reading (text; 斗地主 has no wild card, so it changes nothing)."""
    rules = _rules(rules)
    decks(rules, players)
    declared_text(previous_as, "previous_as")
    declared_text(play_as, "play_as")
    return rules


def check(previous: Any, play: Any, rules: Any = None, **opts: Any) -> Verdict:
    rules = _options(rules, **opts)
    shown = _cards(play, "play") if not (isinstance(play, str) and play.strip().lower() == "pass") else ()
    if not shown:
        return Verdict(True, "pass", N_("Passing is always allowed."))
    readings = classify(shown, rules)
    if not readings:
        return Verdict(False, "not_a_combination", N_("These cards are no play of 斗地主."))
    on_table = classify(_cards(previous, "previous"), rules) if previous else None
    if previous and not on_table:
        raise CardError(N_("The cards on the table are no play, so nothing can follow them."),
                        code="previous_not_a_combination", field="previous")
    if not on_table:
        return Verdict(True, "lead_ok", N_("Any play may lead a trick."), readings[0], readings)
    if _beats(readings[0], on_table[0]):
        return Verdict(True, "ok", N_("It beats the play on the table."), readings[0], readings)
    if readings[0].type != on_table[0].type or readings[0].length != on_table[0].length:
        return Verdict(False, "not_same_kind", N_("Only the same kind of play with as many cards, a bomb or the "
                                                  "rocket beats the play on the table."), readings[0], readings)
    return Verdict(False, "not_higher", N_("Only a higher rank beats the play on the table."), readings[0], readings)


def answers(previous: Any, rules: Any = None, hand: Any = None, *, players: int | None = None,
            previous_as: str | None = None) -> tuple:
    """The weakest single, pair, bomb and the rocket that beat ``previous`` (from ``hand`` when
    given); each judged by :func:`check`."""
    rules = _options(rules, players, previous_as)
    pool = _cards(hand, "hand") if hand is not None else tuple(
        Card(rank, suit) for rank in NATURAL_RANKS for suit in "shcd") + (Card(SMALL_JOKER, None), Card(BIG_JOKER, None))
    by_rank: dict = {}
    for card in pool:
        by_rank.setdefault(card.rank, []).append(card)
    out = []
    for kind, size in ((SINGLE, 1), (PAIR, 2), (TRIPLE, 3), (BOMB, BOMB_SIZE)):
        for rank in sorted(r for r in by_rank if r < SMALL_JOKER):
            if len(by_rank[rank]) >= size:
                verdict = check(previous, tuple(by_rank[rank][:size]), rules)
                if verdict.legal and verdict.code == "ok":
                    out.append(Answer(tuple(by_rank[rank][:size]), verdict, kind))
                    break
    jokers = tuple(c for c in pool if c.rank in (SMALL_JOKER, BIG_JOKER))
    if len(jokers) == 2:
        verdict = check(previous, jokers, rules)
        if verdict.legal and verdict.code == "ok":
            out.append(Answer(jokers, verdict, ROCKET))
    return tuple(out)


def declaration(reading: Reading, readings: tuple) -> str | None:
    return None


# --------------------------------------------------------------------------------------------
# The facts of a hand

_KEYS = ("players", "landlord", "bid", "winner", "bombs", "spring")


def needed_facts(rules: Any = None) -> tuple:
    _rules(rules)
    return ()


def facts_description(rules: Any = None, players: int | None = None) -> dict:
    _rules(rules)
    return {"bombs": (0, MOST_BOMBS), "bids": BIDS, "needed": ()}


@lru_cache(maxsize=4)
def _describe() -> d.FactsDescription:
    return d.FactsDescription(NAME, TITLE, (
        d.FactField("players", d.PLAYERS, N_("Players"), doc="the three names in seat order."),
        d.FactField("landlord", d.PLAYER, N_("Landlord"), missing=N_("Choose the landlord."), widget="pills",
                    phrase=N_("landlord"), doc="the landlord (plays alone against the two farmers)."),
        d.FactField("bid", d.CHOICE, N_("Bid"), missing=N_("Choose the bid."), widget="pills",
                    values=tuple((b, NP_("{n} point", "{n} points", b, n=b)) for b in BIDS), phrase=N_("bid: {value}"),
                    doc="the landlord's bid, the base of the hand (1, 2 or 3)."),
        d.FactField("winner", d.PLAYER, N_("Who played out first?"), missing=N_("Choose who played out first."),
                    widget="pills", phrase=N_("played out first"), summary=N_("Played out first"),
                    doc="who played out first (their side wins)."),
        d.FactField("bombs", d.COUNT, N_("Bombs and rockets played"), default=0, high=MOST_BOMBS,
                    chips=(0, 1, 2, 3, 4), widget="chips", summary=N_("Bombs"), phrase=N_("bombs: {value}"),
                    doc="bombs and rockets played in the hand."),
        d.FactField("spring", d.FLAG, N_("Spring (春天): the losing side never played"), default=False,
                    help=N_("Or the landlord only led once before the farmers played out."),
                    phrase=N_("spring"), summary=N_("Spring"), doc="the losing side never played (春天)."),
    ))


def describe_facts(rules: Any = None, players: int | None = None) -> d.FactsDescription:
    _rules(rules)
    return _describe()


def _players(facts: Mapping) -> list:
    players = facts.get("players")
    if (not isinstance(players, list) or len(players) != PLAYERS
            or not all(isinstance(p, str) and p.strip() for p in players) or len(set(players)) != PLAYERS):
        raise FactsError(N_("List the three players by name."), code="players_missing", field="players")
    return players


def _check_keys(facts: Any) -> None:
    if not isinstance(facts, Mapping):
        raise FactsError(N_("The hand must be a set of facts: players, landlord, bid and winner."), field=None)
    for key in facts:
        if key not in _KEYS:
            raise FactsError(N_("'{key}' is not a fact of a hand; use {known}.", key=str(key)[:40],
                                known=", ".join(_KEYS)), code="unknown_fact", field=str(key)[:40])


def validate_facts(facts: Any, rules: Any = None) -> dict:
    """The one validator of a hand's facts: every problem at once, each by its field."""
    _rules(rules)
    _check_keys(facts)
    players = _players(facts)
    problems: list = []
    landlord, bid, winner = facts.get("landlord"), facts.get("bid"), facts.get("winner")
    bombs, spring = facts.get("bombs", 0), facts.get("spring", False)
    if landlord not in players:
        problems.append(FactsError(N_("The landlord must be one of the players."), code="unknown_landlord",
                                   field="landlord"))
    if type(bid) is not int or bid not in BIDS:
        problems.append(FactsError(N_("The bid is 1, 2 or 3."), code="bad_bid", field="bid"))
    if winner not in players:
        problems.append(FactsError(N_("Who played out first must be one of the players."), code="unknown_winner",
                                   field="winner"))
    if type(bombs) is not int or not 0 <= bombs <= MOST_BOMBS:
        problems.append(FactsError(N_("Bombs played: a whole number from 0 to {n}.", n=MOST_BOMBS),
                                   code="bad_bombs", field="bombs"))
    if type(spring) is not bool:
        problems.append(FactsError(N_("Spring is yes or no."), code="bad_spring", field="spring"))
    raise_all(problems)
    return {"players": list(players), "landlord": landlord, "bid": bid, "winner": winner, "bombs": bombs,
            "spring": spring}


def used_facts(facts: Any, rules: Any = None) -> Any:
    return facts


def next_dealer(facts: Any) -> str:
    if isinstance(facts, Mapping) and isinstance(facts.get("winner"), str):
        return facts["winner"]
    raise FactsError(N_("Who played out first must be one of the players."), code="unknown_winner", field="winner")


# --------------------------------------------------------------------------------------------
# Settlement


def _doublings(hand: dict, rules: Rules) -> list:
    """The steps that double the stake: each bomb (or the first only), the spring."""
    steps = []
    bombs = hand["bombs"] if rules.bomb_doubles == "each" else min(hand["bombs"], 1)
    for _ in range(bombs):
        steps.append((DOUBLE, N_("A bomb was played: ×{m}.", m=DOUBLE)))
    if hand["spring"] and rules.spring_doubles:
        steps.append((DOUBLE, N_("Spring (春天): ×{m}.", m=DOUBLE)))
    return steps


def settle(facts: Any, rules: Any = None, stake: Any = 1) -> Settlement:
    rules = _rules(rules)
    hand = validate_facts(facts, rules)
    money = parse_stake(stake)
    landlord, winner = hand["landlord"], hand["winner"]
    farmers = [p for p in hand["players"] if p != landlord]
    won = winner == landlord
    share = hand["bid"]
    steps: list = [N_("The bid is {bid}.", bid=share)]
    for factor, sentence in _doublings(hand, rules):
        share *= factor
        steps.append(sentence)
    sign = 1 if won else -1
    points = {landlord: sign * share * len(farmers), **{f: -sign * share for f in farmers}}
    steps.append(N_("{landlord} won: each farmer pays {share}.", landlord=landlord, share=share) if won
                 else N_("The farmers won: {landlord} pays each of them {share}.", landlord=landlord, share=share))
    if money != 1:
        steps.append(N_("Stake: {stake} per point, so the money is the points × {stake}.", stake=money))
    winners = [landlord] if won else farmers
    tallies: dict = {p: {"won": 1} for p in winners}
    tallies.setdefault(landlord, {})["landlord_won" if won else "landlord_lost"] = 1
    if hand["spring"]:
        for p in winners:
            tallies[p]["springs"] = 1
    return Settlement(deltas=apply_stake(points, money), steps=steps, points=points, winners=winners,
                      arch="landlord" if won else "farmers", multiplier=share // hand["bid"], next_dealer=winner,
                      tallies=tallies)


def tally_figures(rules: Any = None) -> tuple:
    _rules(rules)
    return TALLIES


_SENTENCES = {
    ("bomb_doubles", "each"): ("pay", "§3", N_("Each bomb or rocket played doubles the stake.")),
    ("bomb_doubles", "once"): ("pay", "§3", N_("Bombs played double the stake once, however many.")),
    ("spring_doubles", True): ("pay", "§3", N_("A spring (春天) doubles the stake.")),
    ("spring_doubles", False): ("pay", "§3", N_("A spring (春天) changes nothing.")),
}


def rule_sentences(rules: Any = None) -> tuple:
    return rule_sentences_from(_SENTENCES, SWITCHES, _rules(rules))


def example_hands(names: list) -> list:
    a, b, c = (list(names) + ["A", "B", "C"])[:3] if len(names) >= 3 else ["A", "B", "C"]
    return [{"players": [a, b, c], "landlord": a, "bid": 3, "winner": a, "bombs": 1, "spring": False},
            {"players": [a, b, c], "landlord": b, "bid": 2, "winner": c, "bombs": 0, "spring": True}]


settle_as_recorded = settle  # the engine contract: a stored hand read as recorded (no earlier rules here)
