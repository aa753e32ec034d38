"""The sentences of 大冶打拱 verdicts: how a reading is described, why a play is legal, why not.

Each reason is written when the verdict is made (:mod:`.check`), from the readings of
:mod:`.combos`."""
from __future__ import annotations

from .. import inputs
from ..cards import RANK_NAMES, SUIT_SYMBOLS
from ..results import Reading
from ..text import N_, Text
from .combos import beats, jokers_over_510k_limit, power, read, top_rank
from .rules import MAX_BOMB, PlayRules

TYPE_NAMES = {
    "single": N_("single"), "pair": N_("pair"), "triple": N_("triple"),
    "linked_pairs": N_("consecutive pairs"), "linked_triples": N_("consecutive triples"),
    "straight": N_("straight"), "510k": N_("510K"), "bomb": N_("bomb"),
    "four_jokers": N_("four jokers"), "gunlong": N_("rolling bomb (滚龙)"),
}


def _name(rank: int) -> str:
    return RANK_NAMES.get(rank, str(rank))


def _describe_group(kind: str, reading: Reading) -> Text | None:
    rank = _name(reading.rank)
    if kind == "pair":
        return N_("a pair of {rank}", rank=rank)
    if kind == "single":
        if reading.get("joker"):
            return N_("a single joker (counts as {rank})", rank=rank)
        return N_("a single {rank}", rank=rank)
    if kind == "triple":
        return N_("a triple of {rank}", rank=rank)
    if kind == "bomb":
        if reading.get("soft"):
            return N_("a soft bomb of {count} × {rank} (with jokers)", count=reading.length, rank=rank)
        return N_("a bomb of {count} × {rank}", count=reading.length, rank=rank)
    return None


def _describe_sequence(kind: str, reading: Reading) -> Text | None:
    low, top = _name(reading.rank), _name(top_rank(reading))
    if kind == "linked_pairs":
        return N_("consecutive pairs {low} to {top}", low=low, top=top)
    if kind == "linked_triples":
        return N_("consecutive triples {low} to {top}", low=low, top=top)
    if kind == "straight":
        return N_("a straight {low} to {top}", low=low, top=top)
    if kind == "gunlong":
        return N_("a rolling bomb (滚龙) {low} to {top} of {count} cards", low=low, top=top, count=reading.length)
    return None


def describe(reading: Reading) -> Text:
    """A short phrase for a reading, such as "a pair of 8" or "a pure 510K of ♥"."""
    inputs.reading(reading)
    kind = reading.type
    text = _describe_group(kind, reading) or _describe_sequence(kind, reading)
    if text is not None:
        return text
    if kind == "510k":
        if reading.get("pure"):
            return N_("a pure 510K of {suit}", suit=SUIT_SYMBOLS[reading.get("suit")])
        return N_("a mixed 510K")
    if kind == "four_jokers":
        return N_("four jokers (the top bomb)")
    return N_("{kind}", kind=kind)


# Each phrase of describe() as the start of a sentence: its own catalog entry, so that a reason
# that begins with the play ("A single 5 …") is translated whole in every language.
_CAPITALS = {lower.template: upper for lower, upper in (
    (N_("a pair of {rank}"), N_("A pair of {rank}")),
    (N_("a single joker (counts as {rank})"), N_("A single joker (counts as {rank})")),
    (N_("a single {rank}"), N_("A single {rank}")),
    (N_("a triple of {rank}"), N_("A triple of {rank}")),
    (N_("a soft bomb of {count} × {rank} (with jokers)"), N_("A soft bomb of {count} × {rank} (with jokers)")),
    (N_("a bomb of {count} × {rank}"), N_("A bomb of {count} × {rank}")),
    (N_("consecutive pairs {low} to {top}"), N_("Consecutive pairs {low} to {top}")),
    (N_("consecutive triples {low} to {top}"), N_("Consecutive triples {low} to {top}")),
    (N_("a straight {low} to {top}"), N_("A straight {low} to {top}")),
    (N_("a rolling bomb (滚龙) {low} to {top} of {count} cards"),
     N_("A rolling bomb (滚龙) {low} to {top} of {count} cards")),
    (N_("a pure 510K of {suit}"), N_("A pure 510K of {suit}")),
    (N_("a mixed 510K"), N_("A mixed 510K")),
    (N_("four jokers (the top bomb)"), N_("Four jokers (the top bomb)")),
)}


def capital(text: Text) -> Text:
    """The same phrase at the start of a sentence: the capitalised template of :data:`_CAPITALS`
    (a catalog entry of its own), so that the phrase is still translated."""
    upper = _CAPITALS.get(text.template)
    return text if upper is None else Text(upper.template, text.params, text.plural, text.count)


def either(texts: list) -> Text:
    """Phrases joined with "or", each still translatable."""
    joined = texts[-1]
    for text in reversed(texts[:-1]):
        joined = N_("{first} or {second}", first=text, second=joined)
    return joined


# --------------------------------------------------------------------------------------------
# Legal


def legal_lead(play: Reading) -> Text:
    return N_("Legal lead: {play}.", play=describe(play))


def legal_follow(previous: Reading, play: Reading, others: list, rules: PlayRules) -> Text:
    """Why ``play`` beats ``previous``; ``others`` are the other readings of the cards that beat it."""
    reason = _why_beats(previous, play, rules)
    if not others:
        return reason
    return N_("{reason} Read as {others} these cards beat it too: declare that reading to play it so.",
              reason=reason, others=either([describe(r) for r in others]))


def _why_beats(prev: Reading, play: Reading, rules: PlayRules) -> Text:
    p, q = describe(play), describe(prev)
    play_power, prev_power = power(play, rules), power(prev, rules)
    if play_power is None:
        return N_("Legal: {play} beats {previous} (same type and size, higher rank).", play=p, previous=q)
    if prev_power is None:
        return N_("Legal: {play} beats any ordinary play, such as {previous}.", play=p, previous=q)
    kinds = (play.type, prev.type)
    if kinds == ("510k", "510k"):
        if prev.get("pure"):
            return N_("Legal: {suit} ranks above {prev_suit} for pure 510Ks (♠ > ♥ > ♣ > ♦).",
                      suit=SUIT_SYMBOLS[play.get("suit")], prev_suit=SUIT_SYMBOLS[prev.get("suit")])
        return N_("Legal: a pure 510K beats a mixed 510K.")
    if kinds == ("bomb", "510k"):
        return N_("Legal: {play} beats {previous}: any bomb beats any 510K in 大冶打拱.", play=p, previous=q)
    if kinds == ("510k", "bomb"):
        return N_("Legal: a 510K beats a bomb of 4 cards or fewer (house rule bombVs510K).")
    if kinds == ("bomb", "bomb"):
        return _why_bomb_beats_bomb(prev, prev_power, play, play_power)
    return N_("Legal: {play} beats {previous}.", play=p, previous=q)


def _why_bomb_beats_bomb(prev: Reading, prev_power: tuple, play: Reading, play_power: tuple) -> Text:
    p, q = describe(play), describe(prev)
    if play_power[1] > prev_power[1]:
        return N_("Legal: a hard bomb of 7 or 8 cards beats every soft bomb (house rule xiPremium).")
    if play.length > prev.length:
        return N_("Legal: {play} beats {previous}: a bomb with more cards wins.", play=p, previous=q)
    if play_power[3] > prev_power[3]:
        return N_("Legal: with the same number of cards, a hard bomb beats a soft one (house rule hardBeatsSoft).")
    return N_("Legal: {play} beats {previous}: same number of cards, higher rank.", play=p, previous=q)


# --------------------------------------------------------------------------------------------
# Illegal: (code, reason, the reading shown)


def not_beating(prev: Reading, readings: tuple, key: tuple, rules: PlayRules) -> tuple:
    """(code, reason, reading shown) for a play none of whose ``readings`` beats ``prev``."""
    limit = jokers_over_510k_limit(key, rules)
    if limit is not None:
        wider = rules._replace(max_jokers_in_510k=limit)
        if any(beats(prev, r, wider) for r in read(key, wider)):
            return ("too_many_jokers_in_510k", _too_many_jokers(rules), readings[0])
    if power(prev, rules) is None:
        return _not_beating_ordinary(prev, readings)
    return _not_beating_bomb_class(prev, readings[0], rules)


def _too_many_jokers(rules: PlayRules) -> Text:
    return N_("A 510K may contain at most {limit} joker (house rule maxJokersIn510K), so these cards "
              "are not a 510K.", limit=rules.max_jokers_in_510k)


def _not_beating_ordinary(prev: Reading, readings: tuple) -> tuple:
    q = describe(prev)
    ordinary = [r for r in readings if r.type not in ("510k", "bomb", "four_jokers", "gunlong")]
    same_type = [r for r in ordinary if r.type == prev.type]
    same = [r for r in same_type if r.length == prev.length]
    if same:
        play = same[0]
        if play.type == "single" and play.get("joker"):
            return ("not_higher",
                    N_("A joker played alone counts as {rank}, which does not beat {previous}: a follow "
                       "needs a higher rank.", rank=_name(play.rank), previous=q), play)
        return ("not_higher",
                N_("{play} does not beat {previous}: a follow of the same type needs a higher rank.",
                   play=capital(describe(play)), previous=q), play)
    if same_type:
        play = same_type[0]
        return ("length_mismatch",
                N_("{play} has {count} cards but {previous} has {previous_count}: a follow must have "
                   "the same number of cards.", play=capital(describe(play)), count=play.length,
                   previous=q, previous_count=prev.length), play)
    play = readings[0]
    return ("type_mismatch",
            N_("{play} cannot follow {previous}: play the same type with the same number of cards, "
               "or a 510K or a bomb.", play=capital(describe(play)), previous=q), play)


def _not_beating_bomb_class(prev: Reading, play: Reading, rules: PlayRules) -> tuple:
    kinds = (play.type, prev.type)
    if power(play, rules) is None:
        return ("needs_bomb", _what_beats(prev, rules, capital(describe(prev)), describe(play)), play)
    if kinds == ("510k", "510k"):
        return _510k_below_510k(prev, play) + (play,)
    if kinds == ("510k", "bomb"):
        if rules.bomb_vs_510k == "510KAboveFourBomb":
            return ("bomb_beats_510k", N_("A 510K beats only bombs of 4 cards or fewer (house rule "
                                          "bombVs510K), and {previous} is bigger.", previous=describe(prev)), play)
        return ("bomb_beats_510k", N_("A 510K cannot beat a bomb: any bomb beats any 510K in 大冶打拱."), play)
    if kinds == ("bomb", "510k"):
        return ("510k_beats_small_bomb", N_("A bomb of 4 cards or fewer cannot beat a 510K (house rule "
                                            "bombVs510K): play a bomb of 5 or more cards."), play)
    if kinds == ("bomb", "bomb"):
        return _bomb_below_bomb(prev, play, rules) + (play,)
    return ("bomb_too_small", N_("{play} cannot beat {previous}.", play=capital(describe(play)),
                                 previous=describe(prev)), play)


def _what_beats(prev: Reading, rules: PlayRules, previous: Text, play: Text) -> Text:
    """Why an ordinary play cannot beat the bomb-class ``prev``, naming only what can (§5.3: a
    510K never beats a bomb, except a bomb of 4 cards or fewer under bombVs510K)."""
    if prev.type == "510k":
        return N_("{previous} can only be beaten by a stronger 510K or by a bomb, not by {play}.",
                  previous=previous, play=play)
    if prev.type == "four_jokers":
        return N_("{previous} is the strongest play: nothing beats it, so {play} cannot.", previous=previous,
                  play=play)
    if prev.type == "bomb" and rules.bomb_vs_510k == "510KAboveFourBomb" and prev.length <= 4:
        return N_("{previous} can only be beaten by a 510K or by a stronger bomb, not by {play}.",
                  previous=previous, play=play)
    return N_("{previous} can only be beaten by a stronger bomb, not by {play}.", previous=previous, play=play)


def _510k_below_510k(prev: Reading, play: Reading) -> tuple:
    hint = not play.get("pure") and not play.get("suited")
    if not play.get("pure") and not prev.get("pure"):
        if hint:
            return ("mixed_510k", N_("A mixed 510K cannot beat another mixed 510K; type the suits "
                                     "(such as 5h 10h Kh) to claim a pure one."))
        return ("mixed_510k", N_("A mixed 510K cannot beat another mixed 510K."))
    if not play.get("pure"):
        if hint:
            return ("mixed_below_pure", N_("A mixed 510K cannot beat a pure 510K; type the suits "
                                           "(such as 5h 10h Kh) to claim a pure one."))
        return ("mixed_below_pure", N_("A mixed 510K cannot beat a pure 510K."))
    return ("suit_not_higher",
            N_("A pure 510K of {suit} cannot beat a pure 510K of {prev_suit}: suits rank ♠ > ♥ > ♣ > ♦ "
               "and the same suit cannot beat.", suit=SUIT_SYMBOLS[play.get("suit")],
               prev_suit=SUIT_SYMBOLS[prev.get("suit")]))


def _bomb_below_bomb(prev: Reading, play: Reading, rules: PlayRules) -> tuple:
    play_power, prev_power = power(play, rules), power(prev, rules)
    p, q = capital(describe(play)), describe(prev)
    if prev_power[1] > play_power[1]:
        return ("bomb_too_small", N_("A soft bomb never beats a hard bomb of 7 or 8 cards (house rule "
                                     "xiPremium)."))
    if play.length < prev.length:
        return ("bomb_too_small", N_("{play} cannot beat {previous}: a bomb with more cards wins.",
                                     play=p, previous=q))
    if prev_power[3] > play_power[3]:
        return ("bomb_too_small", N_("A soft bomb (with jokers) never beats a hard bomb of the same size "
                                     "(house rule hardBeatsSoft)."))
    if play.rank == prev.rank:
        return ("bomb_equal", N_("{play} only equals {previous}: with the same number of cards the rank "
                                 "must be higher.", play=p, previous=q))
    return ("bomb_too_small", N_("{play} cannot beat {previous}: with the same number of cards the "
                                 "higher rank wins.", play=p, previous=q))


# --------------------------------------------------------------------------------------------
# No combination at all: (code, reason)


def no_combination(key: tuple, rules: PlayRules) -> tuple:
    """(code, reason) for cards that form no combination under ``rules``."""
    if jokers_over_510k_limit(key, rules) is not None:
        return ("too_many_jokers_in_510k", _too_many_jokers(rules))
    loose = rules._replace(allow_straights=True, min_straight=3, min_linked_pairs=2,
                                min_linked_triples=2)
    with_two, plain = read(key, loose, allow_two=True), read(key, loose)
    if not rules.allow_straights and any(r.type == "straight" for r in plain):
        return ("no_straights", N_("Single straights (顺子) are not played in 大冶打拱 (house rule allowStraights)."))
    if with_two and not plain:
        return ("two_in_sequence", N_("A 2 cannot be part of a sequence: consecutive pairs, triples and "
                                      "straights run from 3 up to A."))
    if plain:
        return ("sequence_too_short", N_("This sequence is shorter than the house rules allow (minLinkedPairs, "
                                         "minLinkedTriples, minStraight)."))
    if len(key) > MAX_BOMB:
        return ("not_a_combination", N_("These cards do not form a combination: no play has more than {limit} "
                                        "cards except consecutive pairs or triples.", limit=MAX_BOMB))
    return ("not_a_combination",
            N_("These cards do not form a 大冶打拱 combination: play a single, a pair, a triple, consecutive "
               "pairs or triples, a 510K or a bomb."))
