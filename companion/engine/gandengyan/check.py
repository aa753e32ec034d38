"""May this play follow that one? (rules file §3.3–§3.7, §7.) Every verdict is written, reason
included, when it is made; the cards are read by :mod:`.combos` only."""
from __future__ import annotations

from ..cards import RANK_NAMES, declared_text
from ..results import Reading, Verdict
from ..text import N_, NP_, Text
from .combos import (BOMB, BOMB_TYPES, CONNECTED_PAIRS, JOKER, JOKER_BOMB, NATURAL_LIMIT, PAIR, SINGLE,
                     STRAIGHT, TRIPLE, TWO, ACE, beats, card_name, cards_of, codes_of, deck_excess, describe,
                     readings_for, show)
from .rules import Rules, as_rules, decks, players_error

# Sentences. Templates are marked with N_ (for pybabel) and filled with Text(template, params).
_LEAD = {
    SINGLE: N_("{play} leads as a single: any valid combination may lead a trick."),
    PAIR: N_("{play} leads as a pair: any valid combination may lead a trick."),
    TRIPLE: N_("{play} leads as a triple: any valid combination may lead a trick."),
    STRAIGHT: N_("{play} leads as a straight: any valid combination may lead a trick."),
    CONNECTED_PAIRS: N_("{play} leads as connected pairs: any valid combination may lead a trick."),
    BOMB: N_("{play} leads as a bomb: any valid combination may lead a trick."),
    JOKER_BOMB: N_("{play} leads as the double-joker bomb: any valid combination may lead a trick."),
}
_LEAD_AMBIGUOUS = N_("{cards} can be read {count} ways ({readings}); it counts as {play} unless you "
                     "declare another reading.")
_FOLLOW_OK = N_("{play} follows {top}: same kind of combination, exactly one rank higher.")
_FOLLOW_TWO = N_("{play} beats {top}: 2s beat any single, pair or triple of a lower rank.")
_FOLLOW_JOKER = N_("{play} beats {top}: a single joker ranks above 2.")
_FOLLOW_ANY_HIGHER = N_("{play} follows {top}: at this table any higher triple may follow a triple.")
_BOMB_ON_PLAIN = N_("{play} is a bomb: a bomb beats any play that is not a bomb.")
_BOMB_BIGGER = N_("{play} beats {top}: a bomb with more cards beats a bomb with fewer.")
_BOMB_HIGHER = N_("{play} beats {top}: between bombs of the same size the higher rank wins.")
_BOMB_PURE = N_("{play} beats {top}: at this table a bomb of natural cards beats a bomb of the same size "
                "made with jokers.")
_JOKER_BOMB_WINS = {
    "top": N_("{play} is the double-joker bomb: at this table it beats everything."),
    "as3": N_("{play} is the double-joker bomb: at this table it counts as the strongest 3-card bomb."),
    "as4": N_("{play} is the double-joker bomb: at this table it counts as the strongest 4-card bomb."),
}
_NOT_ONE_HIGHER = {
    SINGLE: N_("Only {next} may follow {top}: a single must be exactly one rank higher, or a 2."),
    PAIR: N_("Only {next} may follow {top}: a pair must be exactly one rank higher, or 2 2."),
    TRIPLE: N_("Only {next} may follow {top}: a triple must be exactly one rank higher, or 2 2 2."),
    STRAIGHT: N_("Only {next} may follow {top}: a straight must start exactly one rank higher, "
                 "with the same number of cards."),
    CONNECTED_PAIRS: N_("Only {next} may follow {top}: connected pairs must start exactly one rank "
                        "higher, with the same number of pairs."),
}
_SEQUENCE_AT_TOP = N_("Only a bomb can follow {top}: a sequence cannot go past A, so none starts one "
                      "rank higher.")
_NOT_HIGHER = N_("{play} does not beat {top}: a triple must be of a higher rank.")
_ONLY_BOMB_TWO = N_("Only a bomb can follow {top}: nothing ranks above 2 (no wrap-around to 3).")
_ONLY_BOMB_JOKER = N_("Only a bomb can follow a single joker: it ranks above everything else.")
_ONLY_BOMB_BOMB = N_("Only a bigger bomb can follow the bomb {top}.")
_BOMB_SMALL = N_("{play} does not beat {top}: a bomb must have more cards, or as many cards and a "
                 "higher rank.")
_BOMB_EQUAL = N_("{play} does not beat {top}: equal bombs never beat each other.")
_BOMB_SOFT = N_("{play} does not beat {top}: at this table a bomb made with jokers loses to a natural "
                "bomb of the same size.")
_BOMB_VS_JOKER_BOMB = N_("{play} does not beat the double-joker bomb.")
_TYPE_MISMATCH = {
    SINGLE: N_("{play} cannot follow {top}: on a single only a single exactly one rank higher, a 2, "
               "or a bomb may be played."),
    PAIR: N_("{play} cannot follow {top}: on a pair only a pair exactly one rank higher, 2 2, or a bomb "
             "may be played."),
    TRIPLE: N_("{play} cannot follow {top}: on a triple only a triple one rank higher, 2 2 2, or a bomb "
               "may be played."),
    STRAIGHT: N_("{play} cannot follow {top}: on a straight only a straight of the same length starting "
                 "one rank higher, or a bomb, may be played."),
    CONNECTED_PAIRS: N_("{play} cannot follow {top}: on connected pairs only as many pairs starting one "
                        "rank higher, or a bomb, may be played."),
}
_LENGTH_MISMATCH = {
    STRAIGHT: N_("{play} cannot follow {top}: a straight must have the same number of cards ({length})."),
    CONNECTED_PAIRS: N_("{play} cannot follow {top}: connected pairs must have the same number of cards "
                        "({length})."),
}
_JOKER_ALONE = N_("A joker cannot be played alone: it must go with at least one natural card.")
_JOKER_ONLY = N_("{play} has no natural card: jokers must be played with at least one natural card.")
_JOKER_ONLY_BOMB = N_("{play} has no natural card: jokers must be played with at least one natural card "
                      "(the double-joker bomb is a house rule, 'jokerBomb', that is off at this table).")
_JOKER_BOMB_SAME = N_("{play} is not the double-joker bomb: it needs one small and one big joker.")
_JOKER_AS_TWO = N_("{play} is not a combination: a joker can stand for any rank except 2.")
_TWO_IN_SEQUENCE = N_("{play} is not a combination: a 2 cannot be part of a straight or of connected pairs.")
_NOT_COMBINATION = N_("{play} is not a combination: play one rank (single, pair, triple, bomb), a straight "
                      "of 3 or more consecutive ranks, or 2 or more consecutive pairs.")
# too many copies: of one play (the card parser's sentences), of the table's play, of both together
# (plural templates: the number of decks chooses "deck holds" / "decks hold")
_TOO_MANY_RANK = NP_("There are {count} cards of rank {rank}, but {decks} deck holds only {limit}.",
                     "There are {count} cards of rank {rank}, but {decks} decks hold only {limit}.", None)
_TOO_MANY_SUITED = NP_("{card} appears {count} times, but {decks} deck holds only {limit}.",
                       "{card} appears {count} times, but {decks} decks hold only {limit}.", None)
_TOO_MANY_JOKERS = NP_("There are {count} jokers, but {decks} deck holds only {limit}.",
                       "There are {count} jokers, but {decks} decks hold only {limit}.", None)
_TOO_MANY_JOKER = NP_("There are {count} {card}, but {decks} deck holds only {limit}.",
                      "There are {count} {card}, but {decks} decks hold only {limit}.", None)
_IMPOSSIBLE_PREVIOUS = N_("The play on the table, {previous}, is not possible: {problem}")
_TOO_MANY_TOGETHER = NP_("{previous} and {play} together use {count} cards of rank {rank}, but {decks} "
                         "deck holds only {limit}.",
                         "{previous} and {play} together use {count} cards of rank {rank}, but {decks} "
                         "decks hold only {limit}.", None)
_TOO_MANY_CARD = NP_("{previous} and {play} together use {card} {count} times, but {decks} deck holds "
                     "only {limit}.",
                     "{previous} and {play} together use {card} {count} times, but {decks} decks hold "
                     "only {limit}.", None)
_TWO_LAST = N_("A single 2 may not be a player's last card at this table.")
_BAD_PREVIOUS = N_("The play on the table, {previous}, is not a valid combination, so nothing can be "
                   "checked against it.")
_BAD_READING = N_("{cards} cannot be read as {declared}; it can be read as {readings}.")
_NO_READING = N_("{cards} cannot be read as {declared}.")
_BAD_PREVIOUS_READING = N_("The play on the table, {cards}, cannot be read as {declared}; it can be read as "
                           "{readings}.")


def _say(template: Text, count: int | None = None, /, **params) -> Text:
    """``template`` filled in; ``count`` chooses a plural template's form."""
    return Text(template.template, params, template.plural, count)


def _no(code: str, reason: Text, play: Reading | None = None, readings: tuple = ()) -> Verdict:
    return Verdict(False, code, reason, play, readings)


def _text_of(cards) -> str:
    return " ".join([str(c) for c in cards])


def _is_lead(previous) -> bool:
    if previous is None:
        return True
    if isinstance(previous, str):
        return previous.strip() in ("", "-")
    return isinstance(previous, (tuple, list)) and len(previous) == 0


def _declared_text(declared, field: str = "play_as") -> str | None:
    """The declared reading as the user wrote it (None = nothing declared); not text: CardError."""
    text = declared_text(declared, field)
    return None if text in (None, "-") else text


def check(previous, play, rules: Rules = None, *, players: int | None = None, previous_as=None,
          play_as=None, last_card: bool = False) -> Verdict:
    """May ``play`` follow ``previous`` (``None``, ``""`` or ``"-"`` = a lead)? §3.7.

    ``previous_as`` / ``play_as`` declare a joker reading as the ranks the cards stand for
    (``"5 5 5"``). ``last_card``: the play would empty the player's hand (``twoAsLastCard``).
    When following, a play is read the ordinary way if that beats the table; as a bomb only when
    declared or when nothing else beats. Unreadable card text raises :class:`CardError` (field
    ``previous``, ``play``, ``previous_as`` or ``play_as``); anything else wrong gives an illegal
    :class:`Verdict`. Unreadable house rules raise :class:`RulesError` naming the switch
    (``rules.<key>``), as in 大冶打拱.
    """
    rules = as_rules(rules)
    previous_as = _declared_text(previous_as, "previous_as")
    play_as = _declared_text(play_as, "play_as")
    top = None if _is_lead(previous) else _Play(previous, "previous", rules)
    mine = _Play(play, "play", rules)
    error = players_error(rules, players)
    if error is not None:
        return _no("bad_players", error.message, None, mine.readings)
    n_decks = decks(rules, players)
    # if the decks hold both plays together they hold each; only then is each one asked about
    crowded = deck_excess(mine.codes if top is None else tuple(sorted(top.codes + mine.codes)), n_decks)
    excess = crowded and deck_excess(mine.codes, n_decks)
    if excess:
        return _no("too_many_copies", _excess_text(excess, n_decks), None, mine.readings)
    if not mine.readings:
        return _no_reading(mine, rules)
    chosen = mine.readings
    declared = play_as
    if declared is not None:
        chosen = _declared(mine, play_as, declared, "play_as", _BAD_READING, _NO_READING)
        if isinstance(chosen, Verdict):
            return chosen
    if last_card and rules.two_as_last_card == "forbidden" and chosen[0].values == (TWO,):
        return _no("two_as_last_card", _say(_TWO_LAST), chosen[0], mine.readings)
    if top is None:
        return _lead(mine, chosen)
    return _follow(top, mine, chosen, declared is not None, previous_as, rules, n_decks if crowded else 0)


class _Play:
    """Some cards as given, their sorted codes and their readings under the rules."""

    __slots__ = ("cards", "codes", "readings")

    def __init__(self, value, field: str, rules: Rules):
        self.cards = cards_of(value, field)
        self.codes = codes_of(self.cards, field)
        self.readings = readings_for(self.codes, rules)


def _lead(mine: _Play, chosen: tuple) -> Verdict:
    """Any combination may lead (§3.3); several readings: the best, unless one is declared (§3.5)."""
    best = chosen[0]
    if len(chosen) > 1:
        return Verdict(True, "lead_ok", _say(
            _LEAD_AMBIGUOUS, cards=_text_of(mine.cards), count=len(chosen),
            readings="; ".join([describe(r) for r in chosen]), play=describe(best)), best, mine.readings)
    return Verdict(True, "lead_ok", _say(_LEAD[best.type], play=show(best)), best, mine.readings)


def _follow(top: _Play, mine: _Play, chosen: tuple, declared: bool, previous_as, rules: Rules,
            crowded_decks: int) -> Verdict:
    """The play on the table must be possible (``crowded_decks``: the decks, when the two plays
    together need more) and readable; then the candidate readings are tried against its reading
    (§3.7)."""
    if crowded_decks:
        return _crowded(top, mine, crowded_decks)
    if not top.readings:
        return _no("bad_previous", _say(_BAD_PREVIOUS, previous=_text_of(top.cards)), None, mine.readings)
    table = top.readings[0]  # the table's play at its highest reading unless declared (§3.5)
    text = previous_as
    if text is not None:
        table = _declared(top, previous_as, text, "previous_as", _BAD_PREVIOUS_READING, _IMPOSSIBLE_READING)
        if isinstance(table, Verdict):
            return _no(table.code, table.reason, None, mine.readings)
        table = table[0]
    beating = [r for r in mine.readings if beats(table, r, rules)]
    play = _preferred(beating, chosen, declared)
    if play is None:
        return _why_not(table, chosen, mine.readings, rules)
    return Verdict(True, "ok", _why_beats(table, play, rules), play,
                   (play,) + tuple([r for r in beating if r is not play]))


_IMPOSSIBLE_READING = N_("The play on the table, {cards}, cannot be read as {declared}.")


def _crowded(top: _Play, mine: _Play, n_decks: int) -> Verdict:
    """The table's play needs more decks than the table has, or the two plays together do."""
    excess = deck_excess(top.codes, n_decks)
    if excess is not None:
        return _no("too_many_copies", _say(_IMPOSSIBLE_PREVIOUS, previous=_text_of(top.cards),
                                           problem=_excess_text(excess, n_decks)), None, mine.readings)
    excess = deck_excess(tuple(sorted(top.codes + mine.codes)), n_decks)
    return _no("too_many_copies", _together_text(top, mine, excess, n_decks), None, mine.readings)


def _preferred(beating: list, chosen: tuple, declared: bool) -> Reading | None:
    """The reading that is played: the declared one if it beats; otherwise an ordinary reading
    that beats, and a bomb only when no ordinary reading does (issue 7 §4)."""
    if declared:
        return chosen[0] if chosen[0] in beating else None
    for reading in beating:
        if reading.type not in BOMB_TYPES:
            return reading
    return beating[0] if beating else None


def _normal(values) -> tuple:
    """Ranks a reading stands for, every joker counted alike (a declared "5 SJ" matches "5 BJ")."""
    return tuple(sorted([JOKER if v >= JOKER else v for v in values]))


def _declared(play: _Play, declared, text: str, field: str, wrong: Text, none: Text):
    """The readings of ``play`` whose ranks are the declared ones (a 1-tuple), or an illegal
    Verdict that shows the declaration as written."""
    want = _normal(c.rank for c in cards_of(declared, field))
    for reading in play.readings:
        if _normal(reading.values) == want:
            return (reading,)
    cards = _text_of(play.cards)
    if play.readings:
        return _no("bad_reading", _say(wrong, cards=cards, declared=text,
                                       readings="; ".join([describe(r) for r in play.readings])),
                   None, play.readings)
    return _no("bad_reading", _say(none, cards=cards, declared=text), None, play.readings)


def _excess_text(excess: tuple, n_decks: int) -> Text:
    """Why one play needs more decks than the table has (the card parser's sentences)."""
    what, key, count, limit = excess
    if what == "rank":
        return _say(_TOO_MANY_RANK, n_decks, count=count, rank=RANK_NAMES[key], decks=n_decks, limit=limit)
    if what == "jokers":
        return _say(_TOO_MANY_JOKERS, n_decks, count=count, decks=n_decks, limit=limit)
    if key < NATURAL_LIMIT:
        return _say(_TOO_MANY_SUITED, n_decks, card=card_name(key, True), count=count, decks=n_decks, limit=limit)
    return _say(_TOO_MANY_JOKER, n_decks, count=count, card=card_name(key, False), decks=n_decks, limit=limit)


def _together_text(top: _Play, mine: _Play, excess: tuple, n_decks: int) -> Text:
    """Why the table's play and this one together need more decks than the table has."""
    what, key, count, limit = excess
    both = {"previous": _text_of(top.cards), "play": _text_of(mine.cards), "count": count, "decks": n_decks,
            "limit": limit}
    if what == "card":
        return _say(_TOO_MANY_CARD, n_decks, card=card_name(key, False), **both)
    return _say(_TOO_MANY_TOGETHER, n_decks, rank=RANK_NAMES[key] if what == "rank" else "JK", **both)


def _no_reading(mine: _Play, rules: Rules) -> Verdict:
    """Why ``cards`` form no combination (§3.5, §3.6)."""
    text = _text_of(mine.cards)
    naturals = [c >> 3 for c in mine.codes if c < NATURAL_LIMIT]
    jokers = len(mine.codes) - len(naturals)
    if not naturals:
        if jokers == 1:
            return _no("joker_alone", _say(_JOKER_ALONE))
        if jokers == 2:
            return _no("joker_only", _say(_JOKER_BOMB_SAME if rules.joker_bomb != "off" else _JOKER_ONLY_BOMB,
                                          play=text))
        return _no("joker_only", _say(_JOKER_ONLY, play=text))
    distinct = set(naturals)
    if jokers and distinct == {TWO}:
        return _no("joker_as_two", _say(_JOKER_AS_TWO, play=text))
    if TWO in distinct and len(distinct) >= 2 and _sequence_if_two_allowed(naturals, len(mine.codes)):
        return _no("two_in_sequence", _say(_TWO_IN_SEQUENCE, play=text))
    return _no("not_a_combination", _say(_NOT_COMBINATION, play=text))


def _sequence_if_two_allowed(naturals: list, n: int) -> bool:
    """Would these cards be a straight or connected pairs if 2s (and wrapping past 2) were allowed?
    (K A 2, A 2 3, A A 2 2, Q K A 2 JK …)"""
    most = max(naturals.count(r) for r in set(naturals))
    widths = [w for w, ok in ((n, n >= 3 and most == 1), (n // 2, n >= 4 and n % 2 == 0 and most <= 2))
              if ok and w <= 13]
    for width in widths:
        for start in range(13):
            window = {(start + i) % 13 + 3 for i in range(width)}
            if set(naturals) <= window:
                return True
    return False


def _why_beats(top: Reading, cand: Reading, rules: Rules) -> Text:
    play, top_text = show(cand), show(top)
    if cand.type == JOKER_BOMB:
        return _say(_JOKER_BOMB_WINS[rules.joker_bomb], play=play)
    if cand.type == BOMB:
        if top.type not in BOMB_TYPES:
            return _say(_BOMB_ON_PLAIN, play=play)
        if cand.length > top.length:
            return _say(_BOMB_BIGGER, play=play, top=top_text)
        if rules.pure_beats_soft and top.get("soft") and not cand.get("soft"):
            return _say(_BOMB_PURE, play=play, top=top_text)
        return _say(_BOMB_HIGHER, play=play, top=top_text)
    if cand.rank == JOKER:
        return _say(_FOLLOW_JOKER, play=play, top=top_text)
    if cand.rank == top.rank + 1:
        return _say(_FOLLOW_OK, play=play, top=top_text)
    if cand.type == TRIPLE and rules.triple_follow == "anyHigher":
        return _say(_FOLLOW_ANY_HIGHER, play=play, top=top_text)
    return _say(_FOLLOW_TWO, play=play, top=top_text)


def _next_of(top: Reading) -> str | None:
    """The ranks that follow ``top`` by the +1 rule, or None when no sequence starts higher."""
    if top.type in (STRAIGHT, CONNECTED_PAIRS):
        width = top.length if top.type == STRAIGHT else top.length // 2
        if top.rank + width > ACE:
            return None
        return " ".join([RANK_NAMES[v + 1] for v in top.values])
    return " ".join([RANK_NAMES[top.rank + 1]] * top.length)


def _why_not_bomb(top: Reading, candidates: tuple, readings: tuple, rules: Rules) -> Verdict:
    """Why nothing in ``candidates`` beats the bomb ``top``."""
    top_text = show(top)
    bombs = [c for c in candidates if c.type in BOMB_TYPES]
    if not bombs:
        return _no("only_bomb_beats_bomb", _say(_ONLY_BOMB_BOMB, top=top_text), candidates[0], readings)
    cand = bombs[0]
    play = show(cand)
    if top.type == JOKER_BOMB:
        return _no("bomb_too_small", _say(_BOMB_VS_JOKER_BOMB, play=play), cand, readings)
    if cand.type == BOMB and cand.length == top.length:
        if rules.pure_beats_soft and cand.get("soft") and not top.get("soft"):
            return _no("bomb_too_small", _say(_BOMB_SOFT, play=play, top=top_text), cand, readings)
        if cand.rank == top.rank:
            return _no("bomb_too_small", _say(_BOMB_EQUAL, play=play, top=top_text), cand, readings)
    return _no("bomb_too_small", _say(_BOMB_SMALL, play=play, top=top_text), cand, readings)


def _why_not(top: Reading, candidates: tuple, readings: tuple, rules: Rules) -> Verdict:
    """Why nothing in ``candidates`` follows ``top`` (the first reading of the closest kind is shown)."""
    if top.type in BOMB_TYPES:
        return _why_not_bomb(top, candidates, readings, rules)
    top_text = show(top)
    same = [c for c in candidates if c.type == top.type]
    if not same:
        return _no("type_mismatch", _say(_TYPE_MISMATCH[top.type], play=show(candidates[0]), top=top_text),
                   candidates[0], readings)
    same_length = [c for c in same if c.length == top.length]
    if not same_length:
        return _no("length_mismatch", _say(_LENGTH_MISMATCH[top.type], play=show(same[0]), top=top_text,
                                           length=top.length), same[0], readings)
    cand = same_length[0]
    if top.rank == JOKER:
        return _no("only_bomb_beats_joker", _say(_ONLY_BOMB_JOKER), cand, readings)
    if top.rank == TWO:
        return _no("only_bomb_beats_two", _say(_ONLY_BOMB_TWO, top=top_text), cand, readings)
    if top.type == TRIPLE and rules.triple_follow == "anyHigher":
        return _no("not_higher", _say(_NOT_HIGHER, play=show(cand), top=top_text), cand, readings)
    following = _next_of(top)
    if following is None:
        return _no("not_one_higher", _say(_SEQUENCE_AT_TOP, top=top_text), cand, readings)
    return _no("not_one_higher", _say(_NOT_ONE_HIGHER[top.type], next=following, top=top_text), cand, readings)
