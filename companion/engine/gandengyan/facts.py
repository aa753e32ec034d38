"""The facts of a finished hand (rules file §9): the one validator, the facts each table's
switches need, and the next dealer (§3.2)."""
from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache

from .. import described as d
from ..cards import JOKERS_PER_DECK
from ..errors import FactsError, raise_all
from ..text import N_, NP_, Text
from .rules import DEALER_EXTRA, HAND_DEALT, PLAYER_RANGE, Rules, as_rules, decks

MAX_NUMBER = 108  # no count in a hand can exceed two decks' cards
CARDS_PER_DECK = 54
MAX_BOMBS = 40

_TOP_KEYS = {"players": "players", "winner": "winner", "dealer": "dealer", "losers": "losers",
             "bombs_played": "bombs_played", "bombsPlayed": "bombs_played", "tricks": "tricks"}
_LOSER_KEYS = {"cards": "cards", "jokers": "jokers", "twos": "twos", "held_bombs": "held_bombs",
               "heldBombs": "held_bombs", "played": "played", "playedAny": "played", "played_any": "played",
               "dealer_only_opening": "dealer_only_opening", "dealerOnlyOpening": "dealer_only_opening"}

_E_FACTS = N_("The hand must be a set of facts: players, winner and losers.")
_E_FACT_KEY = N_("'{key}' is not a fact of a hand; use {known}.")
_E_PLAYERS = N_("List the players in seat order: 2 to 6 names.")
_E_PLAYER_COUNT = N_("{count} players listed: 干瞪眼 is played by 2 to 6 players.")
_E_PLAYER_COUNT_HERE = N_("{count} players listed: under these rules 干瞪眼 is played by {low} to {high} players.")
_E_PLAYER_NAME = N_("Player {position} has no name: every player needs a non-empty name.")
_E_PLAYER_DUP = N_("'{name}' is listed twice: player names must be different.")
_E_WINNER = N_("The winner '{name}' is not one of the players: choose the player who played out first.")
_E_DEALER = N_("The dealer '{name}' is not one of the players.")
_E_LOSERS = N_("Give the losers as a set of name: facts pairs.")
_E_LOSER_MISSING = N_("{name}: missing — every player except the winner needs their cards left.")
_E_LOSER_UNKNOWN = N_("'{name}' is not one of the players: losers must be players.")
_E_WINNER_LOSER = N_("{name} is the winner and cannot also be a loser: the winner has no cards left.")
_E_LOSER_FACTS = N_("{name}: give the facts as cards, jokers, … values.")
_E_LOSER_KEY = N_("{name}: '{key}' is not a fact of a hand; use {known}.")
_E_NOT_INT = N_("{name}: {what} must be a whole number, not '{value}'.")
_E_NEGATIVE = N_("{name}: {what} cannot be negative ({value}).")
_E_TOO_BIG = N_("{name}: {what} = {value} is more than a whole game holds.")
_E_NO_CARDS = N_("{name}: a loser has at least 1 card left — only the winner played out.")
_E_CARDS_MISSING = N_("{name}: how many cards are left? Give 'cards'.")
_E_JOKERS_CARDS = N_("{name}: {jokers} jokers held but only {cards} cards left — jokers cannot exceed cards.")
_E_JOKERS_CARD = N_("{name}: {jokers} jokers held but only 1 card left — jokers cannot exceed cards.")
# plural templates: the number given to _fail (decks, or the cards left) chooses the form
_E_JOKERS_DECK = NP_("{total} jokers held in all, but {decks} deck has only {limit} — check the jokers.",
                     "{total} jokers held in all, but {decks} decks have only {limit} — check the jokers.", None)
_E_TWOS_CARDS = NP_("{name}: 2s ({twos}) and jokers ({jokers}) held but only {cards} card left — 2s and jokers "
                    "together cannot exceed cards.",
                    "{name}: 2s ({twos}) and jokers ({jokers}) held but only {cards} cards left — 2s and jokers "
                    "together cannot exceed cards.", None)
_E_TWOS_DECK = NP_("{total} 2s held in all, but {decks} deck has only {limit} — check the 2s.",
                   "{total} 2s held in all, but {decks} decks have only {limit} — check the 2s.", None)
_E_CARDS_DECK = NP_("{total} cards left in all, but {decks} deck has only {limit} — check the card counts.",
                    "{total} cards left in all, but {decks} decks have only {limit} — check the card counts.", None)
_E_CARDS_DEAL_WINNER = N_("{name}: {cards} cards left, but only a trick's winner draws, one card right after "
                          "their own play, so a loser ends the hand with at most the {limit} cards dealt (the "
                          "dealer's extra card goes in the opening lead) — check the cards left.")
_E_CARDS_DEAL_ALL = N_("{name}: {cards} cards left, but with {players} players the stock holds {stock} cards after the "
                       "deal, so a loser draws at most {draws} and ends the hand with at most {limit} ({dealt} dealt "
                       "+ {draws} drawn) — check the cards left.")
_E_HELD_NATURAL = NP_("{name}: a bomb of {size} cards held besides the jokers needs {size} cards of one rank, but "
                      "{decks} deck has only {limit} — count the jokers in the bomb or check its size.",
                      "{name}: a bomb of {size} cards held besides the jokers needs {size} cards of one rank, but "
                      "{decks} decks have only {limit} — count the jokers in the bomb or check its size.", None)
_E_HELD_JOKERS = NP_("{name}: the bombs held ({sizes}) need jokers (at least {need}: {decks} deck has only {limit} "
                     "cards of a rank), but the jokers held are {jokers} — check the jokers or the bombs.",
                     "{name}: the bombs held ({sizes}) need jokers (at least {need}: {decks} decks have only {limit} "
                     "cards of a rank), but the jokers held are {jokers} — check the jokers or the bombs.", None)
_E_PLAYED_CARDS = NP_("Bombs of {played} cards played and {held} cards left in the losers' hands make {total}, but "
                      "{decks} deck has only {limit} cards — check the bombs played.",
                      "Bombs of {played} cards played and {held} cards left in the losers' hands make {total}, but "
                      "{decks} decks have only {limit} cards — check the bombs played.", None)
_E_PLAYED_JOKERS = NP_("The bombs played need {need} jokers and the losers hold {held}, but {decks} deck has only "
                       "{limit} — check the bombs played or the jokers held.",
                       "The bombs played need {need} jokers and the losers hold {held}, but {decks} decks have only "
                       "{limit} — check the bombs played or the jokers held.", None)
_E_BOOL = N_("{name}: {what} must be true or false, not '{value}'.")
_E_LIST = N_("{name}: {what} must be a list of bomb sizes such as [4, 5].")
_E_BOMB_SIZE = N_("{name}: a bomb of {size} cards is not possible here — bombs have {low} to {high} cards.")
_E_HELD_CARDS = NP_("{name}: bombs of {total} cards in all held but only {cards} card left.",
                    "{name}: bombs of {total} cards in all held but only {cards} cards left.", None)
_E_HELD_CARDS_JOKERS = NP_("{name}: bombs of {total} cards held besides the jokers ({jokers}), but only {cards} "
                           "card left — count the jokers first, then the bombs in the other cards.",
                           "{name}: bombs of {total} cards held besides the jokers ({jokers}), but only {cards} "
                           "cards left — count the jokers first, then the bombs in the other cards.", None)
_E_SHUT_OUT = N_("{name}: never played, so {name} still holds the {need} cards dealt (or more after "
                 "drawing), not {cards}.")
_E_SHUT_OUT_EXACT = N_("{name}: never played and only trick winners draw, so {name} holds exactly 5 cards, "
                       "not {cards}.")
_E_DEALER_PLAYED = N_("{name}: the dealer always leads the first trick — mark 'only the opening lead' "
                      "instead of 'never played'.")
_E_DEALER_NEVER_SHUT_OUT = N_("{name}: the dealer always leads the first trick, and at this table that lead counts "
                              "as a play, so the dealer is never shut out — untick 'Never played a card'.")
_E_NOT_DEALER = N_("{name}: only the dealer can have played just the opening lead — {dealer} is the dealer.")
_E_NEED_DEALER = N_("{name}: only the opening lead is marked, so say who the dealer is.")
_E_TRICKS = N_("The number of tricks must be a whole number from 0 to 108, not '{value}'.")

_CANONICAL = frozenset(_LOSER_KEYS.values())
_WHAT = {"cards": N_("cards left"), "jokers": N_("jokers held"), "twos": N_("2s held"),
         "held_bombs": N_("a bomb size"), "bombs_played": N_("a bomb size"),
         "played": N_("'played'"), "dealer_only_opening": N_("'only the opening lead'")}


def _fail(code: str, field: str | None, template: Text, count: int | None = None, /, **params):
    """Refuse the facts with ``template`` filled in (``count`` chooses a plural template's form)."""
    raise FactsError(Text(template.template, params, template.plural, count), code=code, field=field)


def needed_facts(rules: Rules = None) -> tuple:
    """The facts beyond each loser's ``cards`` and ``jokers`` that this table's switches use.

    Per loser: ``twos``, ``held_bombs``, ``played``, ``dealer_only_opening``; per hand:
    ``bombs_played``, ``tricks``.
    """
    rules = as_rules(rules)
    shut = rules.shut_out in ("double", "fixed20")
    wanted = (("twos", rules.twos_are_trumps != "off"),
              ("held_bombs", rules.held_bomb_mult != "off"),
              ("played", shut),
              ("dealer_only_opening", shut and rules.shut_out_dealer_exception),
              ("bombs_played", rules.played_bomb_mult != "off" or rules.shut_out == "fixed20"),
              ("tricks", rules.long_hand_mult == "on"))
    return tuple(name for name, needed in wanted if needed)


def next_dealer(facts) -> str:
    """The next hand's dealer: this hand's winner (§3.2)."""
    if isinstance(facts, Mapping) and isinstance(facts.get("winner"), str):
        return facts["winner"]
    raise FactsError(Text(_E_WINNER.template, {"name": None}), code="unknown_winner", field="winner")


def _int(value, name: str, key: str, field: str, low: int = 0) -> int:
    """A whole number from ``low`` to :data:`MAX_NUMBER` (bool is not a number here)."""
    if type(value) is int and low <= value <= MAX_NUMBER:
        return value
    if isinstance(value, bool) or not isinstance(value, int):
        _fail("not_integer", field, _E_NOT_INT, name=name, what=_WHAT.get(key, key), value=value)
    if value < low:
        if key == "cards":
            _fail("loser_without_cards", field, _E_NO_CARDS, name=name)
        _fail("negative", field, _E_NEGATIVE, name=name, what=_WHAT.get(key, key), value=value)
    if value > MAX_NUMBER:
        _fail("too_large", field, _E_TOO_BIG, name=name, what=_WHAT.get(key, key), value=value)
    return value


def _bool(value, name: str, key: str, field: str, default: bool) -> bool:
    if value is None:
        return default
    if not isinstance(value, bool):
        _fail("not_boolean", field, _E_BOOL, name=name, what=_WHAT.get(key, key), value=value)
    return value


def bomb_sizes(rules: Rules, n_decks: int, played: bool) -> tuple:
    """Every size a listed bomb may have: ``min_bomb`` to 6 per deck (4 naturals + 2 jokers); and 2,
    the double joker, for bombs PLAYED at a table with ``jokerBomb`` on. The one place these bounds
    are decided: the validator below and the hand form's chips (:func:`facts_description`) use it."""
    return ((2,) if played and rules.joker_bomb != "off" else ()) + tuple(range(rules.min_bomb, 6 * n_decks + 1))


def most_jokers(n_decks: int) -> int:
    """The most jokers the losers of a hand can hold together (two per deck)."""
    return JOKERS_PER_DECK * n_decks


def facts_description(rules: Rules = None, players: int | None = None) -> dict:
    """Bounds of a hand's facts under ``rules`` at a table of ``players`` (the older, shorter form
    of :func:`describe_facts`): ``jokers`` (the most a loser can hold), ``held_bomb_sizes``,
    ``played_bomb_sizes``, ``needed`` (the optional facts these rules use)."""
    rules = as_rules(rules)
    n = decks(rules, players)
    return {"jokers": most_jokers(n), "held_bomb_sizes": bomb_sizes(rules, n, False),
            "played_bomb_sizes": bomb_sizes(rules, n, True), "needed": tuple(needed_facts(rules))}


CHIP_SIZES = 8  # the form offers bombs of up to 8 cards as chips (bigger ones are typed)


def describe_facts(rules: Rules = None, players: int | None = None) -> d.FactsDescription:
    """The facts of a hand under ``rules`` at a table of ``players`` (the dealer first, then as the
    form asks for them), with the bounds :func:`validate_facts` uses (:func:`bomb_sizes`,
    :func:`most_jokers`). The same rules and players give the same (cached) description."""
    rules = as_rules(rules)
    return _describe(rules, decks(rules, players), most_cards_left(rules, players))


CHIP_CARDS = 9  # the form offers cards left up to 9 as chips, then a "10+" chip opens the field


@lru_cache(maxsize=64)
def _describe(rules: Rules, n: int, most_cards: int) -> d.FactsDescription:
    needed = needed_facts(rules)
    more = CHIP_CARDS + 1 if most_cards > CHIP_CARDS else None
    held, played = bomb_sizes(rules, n, False), bomb_sizes(rules, n, True)
    loser = {"skip": "winner"}
    fields = (
        d.FactField("players", d.PLAYERS, N_("Players"), doc='names in seat order (2 to 6).'),
        d.FactField("dealer", d.OPTIONAL_PLAYER, N_("Dealer of this hand"),
                    help=N_("Suggested: the winner of the previous hand."), widget="select",
                    phrase=N_("dealer"), summary=N_("Dealer"), doc='the dealer of the hand.'),
        d.FactField("winner", d.PLAYER, N_("Who went out first?"), missing=N_("Choose who went out first."),
                    widget="pills", by_seat=True, phrase=N_("went out first"), summary=N_("Winner"), doc='who went out first.'),
        d.FactField("losers.*.cards", d.PER_PLAYER_COUNT, N_("Cards left"), missing=N_("Enter a number."),
                    low=1, high=most_cards, chips=tuple(range(1, min(most_cards, CHIP_CARDS) + 1)), more=more,
                    widget="chips",
                    phrase=N_("cards left: {cards}"), **loser, doc='{name: {cards, jokers, twos?, held_bombs?, played?, dealer_only_opening?}}.'),
        d.FactField("losers.*.jokers", d.PER_PLAYER_COUNT, N_("Jokers held"), default=0, high=most_jokers(n),
                    chips=tuple(range(most_jokers(n) + 1)), widget="chips", phrase=N_("jokers held: {jokers}"),
                    **loser),
        d.FactField("losers.*.twos", d.PER_PLAYER_COUNT, N_("2s held"), default=0, high=4 * n,
                    needed="twos" in needed, widget="number", **loser),
        d.FactField("losers.*.held_bombs", d.PER_PLAYER_SIZES, N_("Bombs held (sizes, e.g. 4 5)"),
                    low=rules.min_bomb, high=held[-1], chips=tuple(s for s in held if s <= CHIP_SIZES),
                    needed="held_bombs" in needed, widget="sizes", max_length=60, aliases=("heldBombs",), **loser),
        d.FactField("losers.*.played", d.PER_PLAYER_FLAG, N_("Never played a card"), default=True, invert=True,
                    needed="played" in needed, name="never_played", widget="check", phrase=N_("never played"),
                    aliases=("playedAny", "played_any"), **loser),
        d.FactField("losers.*.dealer_only_opening", d.PER_PLAYER_FLAG, N_("Dealer: only the opening lead"),
                    default=False, needed="dealer_only_opening" in needed, name="only_opening", widget="check",
                    only_for="dealer",
                    phrase=N_("only the opening lead"), aliases=("dealerOnlyOpening",), **loser),
        d.FactField("bombs_played", d.SIZES, N_("Bombs played this hand (sizes, e.g. 4 4 5)"),
                    help=N_("2 is the two jokers played together.") if 2 in played else None,
                    low=played[0], high=played[-1], chips=tuple(s for s in played if s <= CHIP_SIZES),
                    needed="bombs_played" in needed, widget="sizes", max_length=120, aliases=("bombsPlayed",),
                    summary=N_("Bombs played"), doc='sizes of the bombs played.'),
        d.FactField("tricks", d.COUNT, N_("Number of tricks played"), high=MAX_NUMBER, needed="tricks" in needed,
                    widget="number", summary=N_("Tricks"), doc='tricks played.'),
    )
    return d.FactsDescription("gandengyan", "干瞪眼", fields)


def _sizes(value, name: str, field: str, rules: Rules, n_decks: int, joker_bomb: bool) -> list:
    """A list of bomb sizes, each one of :func:`bomb_sizes` (``joker_bomb``: bombs played)."""
    if value is None:
        return []
    if not isinstance(value, (list, tuple)) or len(value) > MAX_BOMBS:
        _fail("not_list", field, _E_LIST, name=name, what=_WHAT["held_bombs"])
    allowed = bomb_sizes(rules, n_decks, joker_bomb)
    low, high = rules.min_bomb, allowed[-1]
    out = []
    for i, size in enumerate(value):
        size = _int(size, name, "held_bombs", f"{field}.{i}")
        if size not in allowed:
            _fail("bomb_size", f"{field}.{i}", _E_BOMB_SIZE, name=name, size=size, low=low, high=high)
        out.append(size)
    return out


def _check_keys(facts: Mapping) -> None:
    for key in facts:
        if key not in _TOP_KEYS:
            _fail("unknown_fact", str(key), _E_FACT_KEY, key=key,
                  known="players, winner, dealer, losers, bombs_played, tricks")


def _players(facts: Mapping, rules: Rules) -> list:
    players = facts.get("players")
    if not isinstance(players, (list, tuple)):
        _fail("players_missing", "players", _E_PLAYERS)
    low, high = rules.player_range
    if not low <= len(players) <= high:
        if (low, high) == PLAYER_RANGE:
            _fail("player_count", "players", _E_PLAYER_COUNT, count=len(players))
        _fail("player_count", "players", _E_PLAYER_COUNT_HERE, count=len(players), low=low, high=high)
    seen = set()
    for i, name in enumerate(players):
        if not isinstance(name, str) or not name.strip():
            _fail("player_name", f"players.{i}", _E_PLAYER_NAME, position=i + 1)
        if name in seen:
            _fail("duplicate_player", f"players.{i}", _E_PLAYER_DUP, name=name)
        seen.add(name)
    return list(players)


def _people(facts: Mapping, players: list, problems: list) -> tuple:
    """(winner or None, dealer or None, losers mapping), each checked against the players. An
    unknown winner is one of the ``problems``: the losers' facts are still checked, every player
    with facts counted as a loser (so every error of the hand is said at once)."""
    winner = facts.get("winner")
    if not isinstance(winner, str) or winner not in players:
        problems.append(FactsError(Text(_E_WINNER.template, {"name": winner}), code="unknown_winner",
                                   field="winner"))
        winner = None
    dealer = facts.get("dealer")
    if dealer == "":
        dealer = None
    if dealer is not None and (not isinstance(dealer, str) or dealer not in players):
        _fail("unknown_dealer", "dealer", _E_DEALER, name=dealer)
    losers = facts.get("losers")
    if not isinstance(losers, Mapping):
        _fail("losers_missing", "losers", _E_LOSERS)
    if winner is not None and winner in losers:
        _fail("winner_is_loser", f"losers.{winner}", _E_WINNER_LOSER, name=winner)
    for name in losers:
        if name not in players:
            _fail("unknown_loser", f"losers.{name}", _E_LOSER_UNKNOWN, name=name)
    return winner, dealer, losers


def _entry(losers: Mapping, name: str) -> dict:
    """One loser's facts with canonical keys (read only)."""
    entry = losers.get(name)
    if entry is None:
        _fail("loser_missing", f"losers.{name}", _E_LOSER_MISSING, name=name)
    if not isinstance(entry, Mapping):
        _fail("bad_loser", f"losers.{name}", _E_LOSER_FACTS, name=name)
    if entry.keys() <= _CANONICAL:
        return entry
    out = {}
    for key, value in entry.items():
        canonical = _LOSER_KEYS.get(key)
        if canonical is None:
            _fail("unknown_fact", f"losers.{name}.{key}", _E_LOSER_KEY, name=name, key=key,
                  known="cards, jokers, twos, held_bombs, played, dealer_only_opening")
        out[canonical] = value
    return out


def _cards(entry: dict, name: str) -> int:
    """The cards a loser has left (at least 1)."""
    cards = entry.get("cards")
    if cards is None:
        _fail("cards_missing", f"losers.{name}.cards", _E_CARDS_MISSING, name=name)
    return _int(cards, name, "cards", f"losers.{name}.cards", low=1)


def _jokers(entry: dict, name: str) -> int:
    """The jokers a loser holds, a whole number (within the cards: :func:`_jokers_within_cards`)."""
    jokers = entry.get("jokers")
    return 0 if jokers is None else _int(jokers, name, "jokers", f"losers.{name}.jokers")


def _jokers_within_cards(name: str, jokers: int, cards: int) -> None:
    if jokers > cards:
        _fail("jokers_exceed_cards", f"losers.{name}.jokers", _E_JOKERS_CARD if cards == 1 else _E_JOKERS_CARDS,
              name=name, jokers=jokers, cards=cards)


def _held(entry: dict, name: str, cards: int, jokers: int, rules: Rules, n_decks: int) -> list:
    """The bombs a loser holds, within the cards held and the decks: under ``heldBombMult=bySize``
    the jokers are counted first (§8 S7), so a bomb is natural cards of one rank (at most 4 per
    deck); otherwise a bomb bigger than a rank's natural cards needs the jokers held."""
    if entry.get("held_bombs") is None:
        return []
    field = f"losers.{name}.held_bombs"
    held = _sizes(entry["held_bombs"], name, field, rules, n_decks, False)
    by_size = rules.held_bomb_mult == "bySize"
    if sum(held) > (cards - jokers if by_size else cards):
        _fail("held_bombs_exceed_cards", field, _E_HELD_CARDS_JOKERS if by_size and jokers else _E_HELD_CARDS,
              cards, name=name, total=sum(held), cards=cards, jokers=jokers)
    natural = 4 * n_decks  # the natural cards of one rank in the decks
    if by_size:
        for i, size in enumerate(held):
            if size > natural:
                _fail("held_bomb_needs_jokers", f"{field}.{i}", _E_HELD_NATURAL, n_decks, name=name, size=size,
                      decks=n_decks, limit=natural)
    need = sum(max(0, size - natural) for size in held)
    if not by_size and need > jokers:
        _fail("held_bombs_need_jokers", field, _E_HELD_JOKERS, n_decks, name=name,
              sizes=", ".join(map(str, held)), need=need, decks=n_decks, limit=natural, jokers=jokers)
    return held


def stock_after_deal(players: int, n_decks: int) -> int:
    """The cards left to draw after the deal (§3.2): every player is dealt :data:`HAND_DEALT`,
    the dealer :data:`DEALER_EXTRA` more."""
    return max(CARDS_PER_DECK * n_decks - (HAND_DEALT * players + DEALER_EXTRA), 0)


def most_draws(rules: Rules, players: int, n_decks: int) -> int:
    """The most cards a loser can have drawn beyond those they played (§3.3; docs/engine.md,
    "The most cards a 干瞪眼 loser holds").

    ``winnerOnly``: 0 — a draw follows the drawer's own play of at least one card.
    ``all``: every full round of draws gives each player one card (⌊S/n⌋ rounds); in the last,
    partial round of r cards the trick's winner draws first, so a loser who did not win that
    trick gets one of them only when r ≥ 2."""
    if rules.draw_mode == "winnerOnly":
        return 0
    rounds, rest = divmod(stock_after_deal(players, n_decks), players)
    return rounds + (1 if rest >= 2 else 0)


def most_cards_left(rules: Rules = None, players: int | None = None) -> int:
    """The most cards a loser can hold when the hand ends: the :data:`HAND_DEALT` cards dealt (the
    dealer's extra card goes in the opening lead) plus :func:`most_draws`. ``players=None``: the
    most at any table these rules seat. The one place the bound is decided: the validator and the
    hand form's chips and the facts' JSON schema (:func:`describe_facts`) use it."""
    rules = as_rules(rules)
    if players is not None and type(players) is not int:
        decks(rules, players)  # the RulesError that names the player count
    return _most_cards_left(rules, players)


@lru_cache(maxsize=256)
def _most_cards_left(rules: Rules, players: int | None) -> int:
    if players is None:
        low, high = rules.player_range
        return max(_most_cards_left(rules, p) for p in range(low, high + 1))
    return HAND_DEALT + most_draws(rules, players, decks(rules, players))


def _shut_out(entry: dict, name: str, cards: int, dealer, rules: Rules) -> tuple:
    """(played, dealer_only_opening) of one loser, checked against the dealer and the deal (§9)."""
    if entry.get("played") is None and entry.get("dealer_only_opening") is None:
        return True, False
    base = f"losers.{name}"
    played = _bool(entry.get("played"), name, "played", f"{base}.played", True)
    opening = _bool(entry.get("dealer_only_opening"), name, "dealer_only_opening",
                    f"{base}.dealer_only_opening", False)
    if not played:
        if name == dealer:  # the sentence names only a box the table's form shows (shutOutDealerException)
            _fail("dealer_played", f"{base}.played",
                  _E_DEALER_PLAYED if rules.shut_out_dealer_exception else _E_DEALER_NEVER_SHUT_OUT, name=name)
        if rules.draw_mode == "winnerOnly" and cards != HAND_DEALT:
            _fail("shut_out_cards", f"{base}.cards", _E_SHUT_OUT_EXACT, name=name, cards=cards)
        if cards < HAND_DEALT:
            _fail("shut_out_cards", f"{base}.cards", _E_SHUT_OUT, name=name, need=HAND_DEALT, cards=cards)
    if opening and dealer is None:
        _fail("dealer_missing", "dealer", _E_NEED_DEALER, name=name)
    if opening and name != dealer:
        _fail("not_dealer", f"{base}.dealer_only_opening", _E_NOT_DEALER, name=name, dealer=dealer)
    return played, opening


class _Totals:
    """What all losers hold together, against what the decks hold (§9)."""

    __slots__ = ("jokers", "cards", "twos", "n_decks", "told")

    def __init__(self, n_decks: int):
        self.jokers = self.cards = self.twos = 0
        self.n_decks = n_decks
        self.told: set = set()  # each total is refused once, at the loser who passes the decks

    def _over(self, code: str, field: str, template: Text, total: int, limit: int) -> None:
        if total > limit and code not in self.told:
            self.told.add(code)
            _fail(code, field, template, self.n_decks, total=total, decks=self.n_decks, limit=limit)

    def add(self, name: str, cards: int | None, jokers: int | None, problems: list) -> None:
        n = self.n_decks
        self.jokers += jokers or 0
        _attempt(problems, self._over, "jokers_exceed_deck", f"losers.{name}.jokers", _E_JOKERS_DECK, self.jokers,
                 most_jokers(n))
        self.cards += cards or 0
        _attempt(problems, self._over, "cards_exceed_deck", f"losers.{name}.cards", _E_CARDS_DECK, self.cards,
                 CARDS_PER_DECK * n)

    def add_twos(self, name: str, twos: int) -> None:
        self.twos += twos
        self._over("twos_exceed_deck", f"losers.{name}.twos", _E_TWOS_DECK, self.twos, 4 * self.n_decks)


def _attempt(problems: list, check, *args, default=None):
    """``check(*args)``, or ``default`` with its refusal added to ``problems`` (every fact is
    checked, and every problem reported at once)."""
    try:
        return check(*args)
    except FactsError as error:
        problems.append(error)
        return default


def _loser(losers: Mapping, name: str, dealer, rules: Rules, totals: _Totals, n_players: int,
           problems: list) -> dict:
    """One loser's facts, each checked; the problems found are added to ``problems`` (a fact
    that others depend on, such as the cards left, stops the checks that need it)."""
    entry = _entry(losers, name)
    base = f"losers.{name}"
    cards = _attempt(problems, _cards, entry, name)
    jokers = _attempt(problems, _jokers, entry, name)
    if cards is not None:
        _attempt(problems, _within_deal, name, cards, rules, n_players, totals.n_decks)
    beyond = cards is not None and jokers is not None and _attempt(problems, _jokers_within_cards, name, jokers,
                                                                   cards, default=True)
    totals.add(name, cards, jokers, problems)  # jokers beyond the cards still count against the decks
    if beyond:
        return {}
    twos = entry.get("twos")
    twos = 0 if twos is None else _attempt(problems, _int, twos, name, "twos", f"{base}.twos", default=0)
    if cards is None or jokers is None:
        return {}
    if twos + jokers > cards:
        problems.append(FactsError(Text(_E_TWOS_CARDS.template, {"name": name, "twos": twos, "jokers": jokers,
                                                                   "cards": cards}, _E_TWOS_CARDS.plural, cards),
                                   code="twos_exceed_cards", field=f"{base}.twos"))
    held = _attempt(problems, _held, entry, name, cards, jokers, rules, totals.n_decks, default=[])
    played, opening = _attempt(problems, _shut_out, entry, name, cards, dealer, rules, default=(True, False))
    _attempt(problems, totals.add_twos, name, twos)
    return {"cards": cards, "jokers": jokers, "twos": twos, "held_bombs": held, "played": played,
            "dealer_only_opening": opening}


def _played_within_decks(bombs: list, n_decks: int, totals: _Totals) -> None:
    """The bombs played fit the decks with the cards the losers still hold (a card is played or
    held, not both): their cards, and the jokers a bomb bigger than a rank's natural cards needs
    (the double joker: two) with the jokers held."""
    played, limit = sum(bombs), CARDS_PER_DECK * n_decks
    if played and played + totals.cards > limit:
        _fail("bombs_exceed_deck", "bombs_played", _E_PLAYED_CARDS, n_decks, played=played, held=totals.cards,
              total=played + totals.cards, decks=n_decks, limit=limit)
    natural = 4 * n_decks
    need = sum(2 if size == 2 else max(0, size - natural) for size in bombs)
    jokers = JOKERS_PER_DECK * n_decks
    if need and need + totals.jokers > jokers:
        _fail("bombs_need_jokers", "bombs_played", _E_PLAYED_JOKERS, n_decks, need=need, held=totals.jokers,
              decks=n_decks, limit=jokers)


def _within_deal(name: str, cards: int, rules: Rules, n_players: int, n_decks: int) -> None:
    """A loser's cards left within what the deal and the draws allow (:func:`most_cards_left`)."""
    limit = most_cards_left(rules, n_players)
    if cards <= limit:
        return
    if rules.draw_mode == "winnerOnly":
        _fail("cards_exceed_deal", f"losers.{name}.cards", _E_CARDS_DEAL_WINNER, name=name, cards=cards, limit=limit)
    _fail("cards_exceed_deal", f"losers.{name}.cards", _E_CARDS_DEAL_ALL, name=name, cards=cards, players=n_players,
          stock=stock_after_deal(n_players, n_decks), draws=limit - HAND_DEALT, limit=limit, dealt=HAND_DEALT)


def _has_cards(losers: Mapping, name: str) -> bool:
    """With no winner named, only a player whose cards left are given is checked as a loser (one
    without may be the winner)."""
    entry = losers.get(name)
    return isinstance(entry, Mapping) and entry.get("cards") is not None


def validate_facts(facts, rules: Rules = None) -> dict:
    """Check hand facts (§9) and return them normalised (snake_case keys, every optional fact filled).

    Raises :class:`FactsError` with a ``code`` and a ``field`` such as ``losers.B.jokers``.
    """
    rules = as_rules(rules)
    if not isinstance(facts, Mapping):
        _fail("bad_facts", None, _E_FACTS)
    _check_keys(facts)
    players = _players(facts, rules)
    n_decks = decks(rules, len(players))
    problems: list = []  # every problem of the winner, the losers, the bombs and the tricks, reported at once
    winner, dealer, losers = _people(facts, players, problems)
    totals = _Totals(n_decks)
    out_losers = {}
    for name in players:
        if name != winner and (winner is not None or _has_cards(losers, name)):
            out_losers[name] = _attempt(problems, _loser, losers, name, dealer, rules, totals, len(players),
                                        problems)
    bombs = facts.get("bombs_played")
    if bombs is None:
        bombs = facts.get("bombsPlayed")
    bombs = _attempt(problems, _sizes, bombs, "bombs_played", "bombs_played", rules, n_decks, True,
                     default=[]) if bombs else []
    _attempt(problems, _played_within_decks, bombs, n_decks, totals)
    tricks = facts.get("tricks")
    if tricks is not None and (type(tricks) is not int or not 0 <= tricks <= MAX_NUMBER):
        problems.append(FactsError(Text(_E_TRICKS.template, {"value": tricks}), code="bad_tricks", field="tricks"))
    raise_all(problems)
    out = {"players": players, "winner": winner, "losers": out_losers, "bombs_played": bombs, "tricks": tricks}
    if dealer is not None:
        out["dealer"] = dealer
    return out
