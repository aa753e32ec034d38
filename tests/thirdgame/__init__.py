"""对决 (Duel): a tiny fake third game that lives in the test suite only.

It proves that adding a game needs engine code, its words and (optional) templates only
(docs/engine.md, "Adding a third game"): ``tests/web/test_third_game.py`` registers it in
:data:`companion.engine.ENGINES` for a test and plays it through the pages and the API; no file of
``companion/`` names it and there is no ``templates/games/duel/``.

The rules: two players, 7 cards each from one deck; a single card is the only play, and a higher
single beats it. The first to play out wins and takes the cards left in the loser's hand as points
(× the stake). One switch: ``sweep_doubles`` — a loser who still holds all 7 cards pays ×2.

It meets the whole :class:`companion.engine.GameEngine` contract with the engine's own shared
pieces (Switch, build_rules, Reading, Verdict, Answer, Settlement, rule_sentences_from, the
stake), so that it is a game like the others, only small.
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from companion.engine import described as d
from companion.engine.cards import NATURAL_RANKS, Card, CardError, parse_cards
from companion.engine.errors import FactsError, RulesError, raise_all
from companion.engine.money import apply_stake, parse_stake
from companion.engine.results import Answer, Reading, Settlement, Verdict
from companion.engine.sentences import rule_sentences_from
from companion.engine.switches import Switch, build_rules
from companion.engine.text import N_, Text
from companion.engine.words import GameWords

NAME = "duel"
TITLE = "对决"
LABEL = N_("对决 Duel")
DEALER_WORD = N_("Dealer")
DEALER_FACT = "dealer"
NEXT_DEALER_WORD = N_("Next dealer")
FIRST_DEALER_HELP = N_("Deals the first hand; afterwards the winner deals.")
PLAYER_RANGE = (2, 2)
OUTCOME_NAMES: dict = {}
TALLIES = ("won", "swept")
NUMERIC_FACTS = ("left",)
VERDICT_ANCHORS = {"pass": "plays", "lead_ok": "plays", "not_higher": "plays", "not_a_combination": "plays",
                   "bad_players": "deal", "bad_rules": "house-rules", "previous_not_a_combination": "plays"}
EXAMPLE_PLAYS = ("7", "K", "7 7")
HAND_SIZE = 7
SINGLE = "single"
WORDS = GameWords(plays={"single": N_("single")}, tallies={"won": N_("Hands won")})

# --------------------------------------------------------------------------------------------
# House rules: one switch, two presets

SWITCHES: dict[str, Switch] = {
    "sweep_doubles": Switch("sweep_doubles", N_("A loser who never played (all 7 cards left) pays ×2."),
                            (False, True), kind="bool"),
}


@dataclass(frozen=True)
class Rules:
    sweep_doubles: bool = False


PRESETS: dict[str, Rules] = {"plain": Rules(), "sweep": Rules(sweep_doubles=True)}


def rules_from_dict(data: Mapping[str, Any] | None = None, preset: str | None = None) -> Rules:
    if isinstance(data, Mapping) and "preset" in data:
        data = dict(data)
        inner = data.pop("preset")
        preset = inner if preset is None else preset
    preset = preset or "plain"
    if not isinstance(preset, str) or preset not in PRESETS:
        raise RulesError(N_("Unknown preset '{preset}': choose one of {choices}.", preset=preset,
                            choices=", ".join(PRESETS)), code="unknown_preset", field="preset")
    return build_rules(Rules, SWITCHES, data, base=PRESETS[preset])


def _rules(rules) -> Rules:
    if rules is None:
        return PRESETS["plain"]
    return rules if isinstance(rules, Rules) else rules_from_dict(rules)


def decks(rules: Any = None, players: int | None = None) -> int:
    """One deck, for exactly two players."""
    _rules(rules)
    if players is not None and players != 2:
        raise RulesError(N_("对决 is played by exactly 2 players, not {players}.", players=players),
                         code="bad_players", field="players")
    return 1


# --------------------------------------------------------------------------------------------
# Plays: a single card, beaten by any higher single


def _cards(cards, field: str) -> tuple:
    return tuple(cards) if isinstance(cards, (list, tuple)) else parse_cards(cards if cards is not None else "")


def classify(cards: Any, rules: Any = None, players: int | None = None) -> tuple:
    """The readings of some cards: one natural card is a single; anything else is no play."""
    _rules(rules)
    cards = _cards(cards, "play")
    if len(cards) == 1 and not cards[0].is_joker:
        return (Reading(SINGLE, cards[0].rank, 1, cards, (cards[0].rank,)),)
    return ()


def check(previous: Any, play: Any, rules: Any = None, **opts: Any) -> Verdict:
    rules = _rules(rules)
    shown = _cards(play, "play")
    if not shown:
        return Verdict(True, "pass", N_("Passing is always allowed."))
    readings = classify(shown, rules)
    if not readings:
        return Verdict(False, "not_a_combination", N_("In 对决 every play is one card (no jokers)."))
    on_table = classify(_cards(previous, "previous"), rules) if previous else None
    if previous and not on_table:
        raise CardError(N_("The cards on the table are not a single card, so nothing can follow them."),
                        code="previous_not_a_combination", field="previous")
    if not on_table:
        return Verdict(True, "lead_ok", N_("Any single card may lead."), readings[0], readings)
    if readings[0].rank > on_table[0].rank:
        return Verdict(True, "ok", N_("A higher card beats a lower one."), readings[0], readings)
    return Verdict(False, "not_higher", N_("Only a higher card beats the card on the table."), readings[0], readings)


def answers(previous: Any, rules: Any = None, hand: Any = None, *, players: int | None = None,
            previous_as: str | None = None) -> tuple:
    """The weakest single that beats ``previous`` (from ``hand`` when given), judged by :func:`check`."""
    rules = _rules(rules)
    pool = _cards(hand, "hand") if hand is not None else tuple(Card(rank, "s") for rank in NATURAL_RANKS)
    for card in sorted((c for c in pool if not c.is_joker), key=lambda c: c.rank):
        verdict = check(previous, (card,), rules)
        if verdict.legal and verdict.code == "ok":
            return (Answer((card,), verdict, "follow"),)
    return ()


def declaration(reading: Reading, readings: tuple) -> str | None:
    return None


# --------------------------------------------------------------------------------------------
# The facts of a hand: who won, who dealt, how many cards the loser had left

_KEYS = ("players", "winner", "dealer", "left")


def needed_facts(rules: Any = None) -> tuple:
    _rules(rules)
    return ()


def facts_description(rules: Any = None, players: int | None = None) -> dict:
    """The bounds of a hand's facts (the protocol's older, shorter form of :func:`describe_facts`)."""
    _rules(rules)
    return {"left": (1, HAND_SIZE), "needed": ()}


@lru_cache(maxsize=8)
def _describe() -> d.FactsDescription:
    return d.FactsDescription(NAME, TITLE, (
        d.FactField("players", d.PLAYERS, N_("Players"), doc="the two names."),
        d.FactField("winner", d.PLAYER, N_("Who played out first?"), missing=N_("Choose who played out first."),
                    widget="pills", phrase=N_("played out first"), summary=N_("Winner"), doc="who played out first."),
        d.FactField("dealer", d.OPTIONAL_PLAYER, N_("Dealer of this hand"), widget="select", phrase=N_("dealer"),
                    summary=N_("Dealer"), doc="the dealer of the hand."),
        d.FactField("left", d.COUNT, N_("Cards left in the loser's hand"), missing=N_("Enter a number."), low=1,
                    high=HAND_SIZE, chips=tuple(range(1, HAND_SIZE + 1)), widget="chips",
                    summary=N_("Cards left"), doc="the cards the loser still holds (1 to 7)."),
    ))


def describe_facts(rules: Any = None, players: int | None = None) -> d.FactsDescription:
    """The facts of a hand, typed: the hand form, the facts' JSON schema, the CSV phrases and the
    hand page are made from this (companion/engine/described.py). The same under every rule."""
    _rules(rules)
    return _describe()


def _fail(problems: list, code: str, field: str, sentence: Text) -> None:
    problems.append(FactsError(sentence, code=code, field=field))


def _players(facts: Mapping) -> list:
    players = facts.get("players")
    if (not isinstance(players, list) or len(players) != 2 or not all(isinstance(p, str) and p.strip() for p in players)
            or players[0] == players[1]):
        raise FactsError(N_("List the two players by name."), code="players_missing", field="players")
    return players


def validate_facts(facts: Any, rules: Any = None) -> dict:
    _rules(rules)
    if not isinstance(facts, Mapping):
        raise FactsError(N_("The hand must be a set of facts: players, winner and left."), field=None)
    for key in facts:
        if key not in _KEYS:
            raise FactsError(N_("'{key}' is not a fact of a hand; use {known}.", key=key, known=", ".join(_KEYS)),
                             code="unknown_fact", field=str(key))
    players = _players(facts)
    problems: list = []
    winner, dealer, left = facts.get("winner"), facts.get("dealer") or None, facts.get("left")
    if winner not in players:
        _fail(problems, "unknown_winner", "winner", N_("The winner must be one of the players."))
    if dealer is not None and dealer not in players:
        _fail(problems, "unknown_dealer", "dealer", N_("The dealer must be one of the players."))
    if type(left) is not int or not 1 <= left <= HAND_SIZE:
        _fail(problems, "bad_left", "left", N_("Cards left: a whole number from 1 to 7, not '{value}'.", value=left))
    raise_all(problems)
    out = {"players": list(players), "winner": winner, "left": left}
    if dealer is not None:
        out["dealer"] = dealer
    return out


def used_facts(facts: Any, rules: Any = None) -> Any:
    return facts


def next_dealer(facts: Any) -> str:
    if isinstance(facts, Mapping) and isinstance(facts.get("winner"), str):
        return facts["winner"]
    raise FactsError(N_("The winner must be one of the players."), code="unknown_winner", field="winner")


# --------------------------------------------------------------------------------------------
# Settlement, tallies, rule sentences


def _swept(hand: dict, rules: Rules) -> bool:
    """The one decision of the switch: the loser never played (all 7 cards left) under sweep_doubles."""
    return rules.sweep_doubles and hand["left"] == HAND_SIZE


def settle(facts: Any, rules: Any = None, stake: Any = 1) -> Settlement:
    rules = _rules(rules)
    hand = validate_facts(facts, rules)
    money = parse_stake(stake)
    winner = hand["winner"]
    loser = next(p for p in hand["players"] if p != winner)
    swept = _swept(hand, rules)
    pay = hand["left"] * (2 if swept else 1)
    steps = [N_("{name}: {cards} cards left, never played, ×2 = {pay}", name=loser, cards=hand["left"], pay=pay)
             if swept else N_("{name}: {cards} cards left = {pay}", name=loser, cards=hand["left"], pay=pay),
             N_("{winner} collects {total}.", winner=winner, total=pay)]
    if money != 1:
        steps.append(N_("Stake: {stake} per point, so the money is the points × {stake}.", stake=money))
    points = {name: (pay if name == winner else -pay) for name in hand["players"]}
    tallies = {winner: {"won": 1}}
    if swept:
        tallies[loser] = {"swept": 1}
    return Settlement(deltas=apply_stake(points, money), steps=steps, points=points, next_dealer=winner,
                      tallies=tallies)


settle_as_recorded = settle  # the engine contract: a stored hand read as recorded (no earlier rules here)


def tally_figures(rules: Any = None) -> tuple:
    return TALLIES if _rules(rules).sweep_doubles else ("won",)


_SENTENCES = {
    ("sweep_doubles", False): ("pay", "§2", N_("The loser pays one point for each card left.")),
    ("sweep_doubles", True): ("pay", "§2", N_("The loser pays one point for each card left, ×2 when still "
                                              "holding all 7 cards.")),
}


def rule_sentences(rules: Any = None) -> tuple:
    return rule_sentences_from(_SENTENCES, SWITCHES, _rules(rules))


def example_hands(names: list) -> list:
    a, b = list(names)[:2] if len(names) >= 2 else ["A", "B"]
    return [{"players": [a, b], "winner": a, "dealer": a, "left": 3}]

