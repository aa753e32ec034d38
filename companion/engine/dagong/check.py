"""Is a 大冶打拱 play legal? (rules/dagong.md §5.2–§5.4)

``check`` reads both plays through :func:`.combos.analyse` (the one reader, cached by card key)
and writes the reason with the verdict (:mod:`.reasons`)."""
from __future__ import annotations

from ..cards import RANK_NAMES, Card, CardError, declared_text, decks_limit_error, parse_cards
from ..errors import EngineError
from ..results import Reading, Verdict
from ..text import N_
from . import reasons
from .combos import BOMB_CLASS, analyse, beats, cards_key, fits_decks
from .rules import DECKS, DEFAULT_RULES, PLAYER_RANGE, PlayRules, Rules, coerce_rules, play_rules

_PASS_WORDS = frozenset({"", "-", "pass", "p", "过", "不要", "要不起"})
_TYPE_WORDS = {"pairs": "linked_pairs", "triples": "linked_triples", "consecutive_pairs": "linked_pairs",
               "consecutive_triples": "linked_triples"}


def classify(cards, rules: Rules = DEFAULT_RULES, players: int | None = None) -> tuple:
    """Every reading of ``cards`` (text or Cards), strongest first. Empty when it is no combination.
    ``players`` is part of the engine contract; 大冶打拱 is always played by four."""
    return analyse(cards_key(to_cards(cards)), play_rules(coerce_rules(rules))).readings


def to_cards(cards, field: str = "cards") -> tuple:
    """Text or a sequence of Cards as a tuple of Cards (the card parser reads text); CardError names
    ``field``."""
    if isinstance(cards, (list, tuple)) and cards and all(isinstance(c, Card) for c in cards):
        return tuple(cards)
    try:
        return parse_cards(cards)
    except CardError as error:
        raise CardError(error.message, code=error.code, field=field) from None


def _seated(players) -> bool:
    """Is ``players`` a whole number of players 大冶打拱 seats (exactly 4)?"""
    return type(players) is int and PLAYER_RANGE[0] <= players <= PLAYER_RANGE[1]


def _is_pass(play) -> bool:
    return play is None or (isinstance(play, str) and play.strip().lower() in _PASS_WORDS)


def _is_lead(previous) -> bool:
    return previous is None or (isinstance(previous, str) and previous.strip() in ("", "-"))


def _declared(value, field: str = "play_as"):
    """The declared reading as written (None: nothing declared); not text: CardError naming ``field``."""
    return declared_text(value, field)


def check(previous, play, rules: Rules = DEFAULT_RULES, *, players=None, previous_as=None,
          play_as=None, last_card: bool = False) -> Verdict:
    """Is ``play`` legal on ``previous`` (None, "" or "-" for a lead)?

    ``play`` "pass", "-" or "" is a pass. Bad card text raises :class:`CardError` with field
    "previous" or "play"; every other problem is an illegal :class:`Verdict`. ``previous_as`` /
    ``play_as`` declare a reading: a type ("pair", "510k", …) or the ranks the cards stand for
    ("5 5 5"; a joker name stands for any rank). Without one, the previous play is read at its
    highest reading; the play at its highest ordinary reading that beats it, or else its highest
    bomb-class reading that does. ``players`` must be 4 when given. ``last_card`` is accepted for
    the common API: no 大冶打拱 rule depends on it.
    """
    rules = coerce_rules(rules)
    previous_as, play_as = _declared(previous_as, "previous_as"), _declared(play_as, "play_as")
    if players is not None and not _seated(players):
        return Verdict(False, "bad_players", N_("大冶打拱 is played by exactly 4 players, not {players}.",
                                                players=players))
    lead = _is_lead(previous)
    previous_cards = None if lead else to_cards(previous, "previous")
    if _is_pass(play):
        if lead:
            return Verdict(False, "lead_pass",
                           N_("The leader of a new trick must play: passing is allowed only when following."))
        return Verdict(True, "pass", N_("Passing is always allowed when following, even when you could beat the play."))
    play_cards = to_cards(play, "play")
    return judge(previous_cards, play_cards, play_rules(rules), previous_as, play_as)


def judge(previous: tuple | None, play: tuple, rules: PlayRules, previous_as: str | None = None,
          play_as: str | None = None) -> Verdict:
    """The verdict on ``play`` (Cards) following ``previous`` (Cards, None for a lead), under the
    play switches ``rules``."""
    key = cards_key(play)
    mine = analyse(key, rules)
    table = previous_key = None
    if previous is not None:
        previous_key = cards_key(previous)
        table = analyse(previous_key, rules)
        if table.deck_problem is not None:
            return Verdict(False, "too_many_copies",
                           N_("The play on the table is impossible: {problem}", problem=table.deck_problem),
                           None, () if mine.deck_problem else mine.readings)
    if mine.deck_problem is not None:
        return Verdict(False, "too_many_copies", mine.deck_problem)
    if previous_key is not None and not fits_decks(sorted(key + previous_key)):
        together = decks_limit_error(previous + play, DECKS)  # each play fits the decks, but not both (§2)
        return Verdict(False, "too_many_copies",
                       N_("The play on the table and this play together are impossible: {problem}",
                          problem=together.message), None, mine.readings)
    readings = mine.readings
    if play_as is not None:
        readings = declared_readings(readings, play_as)
        if not readings:
            return Verdict(False, "reading_not_possible",
                           N_("These cards cannot be read as '{declared}'.", declared=play_as), None, mine.readings)
    if not readings:
        code, reason = reasons.no_combination(key, rules)
        return Verdict(False, code, reason, None, mine.readings)
    if table is None:
        return Verdict(True, "ok", reasons.legal_lead(readings[0]), readings[0], mine.readings)
    return _follow(table.readings, previous_as, readings, key, rules, mine.readings)


def _follow(table: tuple, previous_as, readings: tuple, key: tuple, rules: PlayRules, every: tuple) -> Verdict:
    if previous_as is not None:
        table = declared_readings(table, previous_as)
        if not table:
            return Verdict(False, "reading_not_possible",
                           N_("The cards on the table cannot be read as '{declared}'.", declared=previous_as),
                           None, every)
    if not table:
        return Verdict(False, "previous_not_a_combination",
                       N_("The cards on the table are not a legal combination, so nothing can follow them."),
                       None, every)
    prev = table[0]
    beating = [r for r in readings if beats(prev, r, rules)]
    if beating:
        ordinary = [r for r in beating if r.type not in BOMB_CLASS]
        used = (ordinary or beating)[0]
        others = [r for r in beating if r is not used]
        # a legal follow lists every reading that beats, the one used first (as 干瞪眼)
        return Verdict(True, "ok", reasons.legal_follow(prev, used, others, rules), used, (used, *others))
    code, reason, shown = reasons.not_beating(prev, readings, key, rules)
    return Verdict(False, code, reason, shown, every)


def declared_readings(readings: tuple, declared: str) -> tuple:
    """The readings matching a declared type ("pair", "linked_pairs", …) or the declared ranks
    ("5 5 6 6"; a joker name in the declaration stands for any rank; typed suits pick a pure
    or mixed 510K). Empty when none matches or the declaration cannot be read."""
    word = declared.lower().replace(" ", "_").replace("-", "_")
    word = _TYPE_WORDS.get(word, word)
    if word in reasons.TYPE_NAMES:
        return tuple(r for r in readings if r.type == word)
    try:
        cards = parse_cards(declared)
    except CardError:
        return ()
    return tuple(r for r in readings if _matches(r, cards))


def _matches(reading: Reading, declared: tuple) -> bool:
    values = list(reading.values)
    if len(values) != len(declared):
        return False
    for card in declared:
        if card.is_joker:
            continue
        if card.rank in values:
            values.remove(card.rank)
        else:
            return False
    if reading.type != "510k":
        return True
    suits = {card.suit for card in declared if card.suit}
    if not suits:
        return True
    pure = reading.get("pure")
    return (pure == (len(suits) == 1) and (not pure or reading.get("suit") in suits)
            and _keeps_naturals(reading, declared))


def _keeps_naturals(reading: Reading, declared: tuple) -> bool:
    """A declaration never changes a natural card: each natural card played whose rank the
    declaration gives a suit keeps its own suit there (a joker may stand for any suit)."""
    free = [card for card in declared if not card.is_joker]
    for card in reading.cards:
        if card.is_joker or not card.suit:
            continue
        same = next((c for c in free if c.rank == card.rank and c.suit in (card.suit, None)), None)
        if same is None:
            return False
        free.remove(same)
    return True


def declaration(reading: Reading, readings: tuple):
    """The shortest ``previous_as`` / ``play_as`` that makes ``reading`` the one used among
    ``readings`` (the cards' readings), or None: the ranks it stands for, else its type, else
    (a 510K) its suits."""
    if not isinstance(reading, Reading) or not isinstance(readings, (tuple, list)) or not all(
            isinstance(r, Reading) for r in readings):
        raise EngineError(N_("A declaration is asked for a reading of the cards and the readings of those cards."),
                          code="bad_reading", field="reading")
    for word in declaration_words(reading):
        chosen = declared_readings(readings, word)
        if chosen and chosen[0] == reading:
            return word
    return None


def declaration_words(reading: Reading) -> list:
    """The declarations that may pin ``reading``, shortest first: the ranks it stands for, its
    type, and (a 510K) its suits. Which one pins it when following is :func:`judge`'s to say (a
    bomb of 3 × A declared "A A A" on a triple is read as the triple)."""
    ranks = " ".join(RANK_NAMES[value] for value in reading.values)
    words = [ranks, reading.type]
    if reading.type == "510k":
        words.append(_510k_suits(reading))
    return words


def _510k_suits(reading: Reading) -> str:
    """A 510K's cards with the suits its reading gives them (``Reading.suits``: every natural card
    as it is, a joker the pure 510K's suit or, mixed, a suit none of the natural cards has), as a
    declaration; the ranks alone when the natural cards have no suits."""
    return " ".join(RANK_NAMES[value] + suit for value, suit in zip(reading.values, reading.suits)) or " ".join(
        RANK_NAMES[value] for value in reading.values)
