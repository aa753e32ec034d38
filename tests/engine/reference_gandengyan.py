"""A slow, obviously-correct reference for 干瞪眼, written from shared/rules/gandengyan.md only
(not from the engine): readings by brute force over every rank each joker may stand for (§3.5,
§3.6), following by the §3.7 pseudocode, settlement by the §4 "Full settlement formula".

Cards are rank numbers: 3…10, J 11, Q 12, K 13, A 14, 2 15; jokers 16 (small), 17 (big), 18 (either).
"""
from __future__ import annotations

from fractions import Fraction
from itertools import product
from math import prod

JOKERS = (16, 17, 18)
LONE_JOKER = 16  # the rank of a lone joker under jokerSingle: above 2 (15)


def shapes(values: list, triple_is_bomb: bool) -> set:
    """The (type, rank, length) combinations that exactly these ranks form (§3.6)."""
    values = sorted(values)
    n = len(values)
    out = set()
    if len(set(values)) == 1:
        kind = {1: "single", 2: "pair", 3: "bomb" if triple_is_bomb else "triple"}.get(n, "bomb")
        out.add((kind, values[0], n))
    no_two = 15 not in values
    if no_two and n >= 3 and values == list(range(values[0], values[0] + n)):
        out.add(("straight", values[0], n))
    if no_two and n >= 4 and n % 2 == 0:
        firsts, seconds = values[0::2], values[1::2]
        if firsts == seconds and firsts == list(range(values[0], values[0] + n // 2)):
            out.add(("connected_pairs", values[0], n))
    return out


def readings(cards: list, rules) -> set:
    """Every (type, rank, length) reading of the cards."""
    naturals = [c for c in cards if c not in JOKERS]
    jokers = [c for c in cards if c in JOKERS]
    if not naturals:
        if len(jokers) == 1 and rules.joker_single:
            return {("single", LONE_JOKER, 1)}
        if len(jokers) == 2 and rules.joker_bomb != "off" and sorted(jokers) not in ([16, 16], [17, 17]):
            return {("joker_bomb", LONE_JOKER, 2)}
        return set()
    out = set()
    for stand_ins in product(range(3, 15), repeat=len(jokers)):  # a joker is any rank but 2
        out |= shapes(naturals + list(stand_ins), rules.triple_is_bomb)
    return out


def is_bomb(reading) -> bool:
    return reading[0] in ("bomb", "joker_bomb")


def soft(reading, cards) -> bool:
    return reading[0] == "bomb" and any(c in JOKERS for c in cards)


def bomb_key(reading, cards, rules) -> tuple:
    kind, rank, length = reading
    if kind == "joker_bomb":
        size = {"top": 1000, "as3": 3, "as4": 4}[rules.joker_bomb]
        return (size, 1, 1000)
    pure = (0 if soft(reading, cards) else 1) if rules.pure_beats_soft else 0
    return (length, pure, rank)


def beats(top, top_cards, cand, cand_cards, rules) -> bool:
    """§3.7, with issue 7's ruling: a single of rank 2 or above (a 2, a lone joker) beats any lower single."""
    if is_bomb(cand):
        return not is_bomb(top) or bomb_key(cand, cand_cards, rules) > bomb_key(top, top_cards, rules)
    if is_bomb(top) or cand[0] != top[0] or cand[2] != top[2]:
        return False
    kind = cand[0]
    if kind in ("straight", "connected_pairs"):
        return cand[1] == top[1] + 1
    if kind == "triple" and rules.triple_follow == "anyHigher":
        return cand[1] > top[1]
    return cand[1] == top[1] + 1 or (cand[1] >= 15 and cand[1] > top[1])


def table_reading(cards, rules):
    """The play on the table at its highest reading: bombs first, then rank, then top card."""
    def key(r):
        top_card = r[1] + r[2] - 1 if r[0] == "straight" else r[1] + r[2] // 2 - 1 if r[0] == "connected_pairs" \
            else r[1]
        return (is_bomb(r), r[1], top_card)
    return max(readings(cards, rules), key=key)


def follow(top_cards, cards, rules):
    """(legal, the reading played or None, the set of readings that beat)."""
    top = table_reading(top_cards, rules)
    winning = {r for r in readings(cards, rules) if beats(top, top_cards, r, cards, rules)}
    ordinary = [r for r in winning if not is_bomb(r)]
    played = ordinary[0] if ordinary else (next(iter(winning)) if winning else None)
    return bool(winning), played, winning


# --- settlement: §4 "Full settlement formula" --------------------------------------------------

def bomb_count(bombs, rules) -> int:
    """炸数: the smallest bomb counts 1, each extra card 1 more (a double joker: its stand-in size)."""
    smallest = 3 if rules.triple_is_bomb else 4
    sizes = [({"as3": 3, "as4": 4}.get(rules.joker_bomb, 4) if s == 2 else s) for s in bombs]
    return sum(s - smallest + 1 for s in sizes)


def pays(facts, rules) -> dict:
    """What each loser pays, in points (a whole ``unit`` included)."""
    bombs, tricks, dealer = facts.get("bombs_played") or [], facts.get("tricks"), facts.get("dealer")
    pb = {"off": 1, "double": 2 ** len(bombs),
          "bySize": prod(2 ** (({"as3": 3, "as4": 4}.get(rules.joker_bomb, 4) if s == 2 else s) - 2) for s in bombs),
          "linear": 1 + bomb_count(bombs, rules)}[rules.played_bomb_mult]
    lh = 1 if rules.long_hand_mult == "off" or tricks is None else 4 if tricks >= 30 else 2 if tricks >= 20 else 1
    unit = rules.unit if float(rules.unit).is_integer() else 1
    cap = None if rules.cap == "none" else int(rules.cap.split(":")[1])
    out = {}
    for name, loser in facts["losers"].items():
        cards, jokers = loser["cards"], loser.get("jokers", 0)
        twos, held = loser.get("twos", 0), loser.get("held_bombs") or []
        never = loser.get("played") is False
        only_opening = bool(loser.get("dealer_only_opening")) and name == dealer
        shut = never or (rules.shut_out_dealer_exception and only_opening)
        if rules.one_card_exempt and cards == 1:
            out[name] = 0
            continue
        if rules.shut_out == "fixed20" and shut:
            m = 20 + 10 * bomb_count(bombs, rules)
        else:
            jk = {"once": 2 if jokers else 1, "perJoker": 2 ** jokers, "off": 1}[rules.joker_doubling]
            t = 2 ** twos if rules.twos_are_trumps == "perTwo" else 1
            hb = {"off": 1, "once": 2 if held and jk == 1 else 1, "perBomb": 2 ** len(held),
                  "bySize": prod(2 ** (s - 2) for s in held)}[rules.held_bomb_mult]
            if rules.shut_out == "double":
                so = 2 if shut else 1
            elif rules.shut_out.startswith("threshold:"):
                so = 2 if cards >= int(rules.shut_out.split(":")[1]) else 1
            else:
                so = 1
            m = cards * jk * t * hb * so * pb * lh
        out[name] = int(unit * (m if cap is None else min(m, cap)))
    return out


def money(points: dict, rules, stake) -> dict:
    """Points × a fractional unit × the stake."""
    unit = Fraction(str(rules.unit)) if not float(rules.unit).is_integer() else 1
    return {name: Fraction(p) * unit * Fraction(str(stake)) for name, p in points.items()}


def most_cards_left(draw_mode: str, players: int, decks: int) -> int:
    """The most cards a loser holds at the end (gandengyan.md §3.2–3.3), written from the spec alone:
    6 to the dealer, 5 to the others; under winnerOnly a draw always follows the drawer's own play,
    so nobody ends above 5; under all a loser who never plays draws once per round of draws, and
    in the last, short round (the trick's winner draws first) only if it has 2 cards or more."""
    if draw_mode == "winnerOnly":
        return 5
    stock = 54 * decks - 6 - 5 * (players - 1)
    return 5 + stock // players + (1 if stock % players >= 2 else 0)
