"""干瞪眼 engine against the slow reference written from the rules file (reference_gandengyan.py):
readings and following on generated plays under every switch value, settlement on generated
hands against the §4 formula."""
from collections import Counter
from decimal import Decimal

from hypothesis import assume, example, given, settings
from hypothesis import strategies as st

from companion.engine import gandengyan as g
from companion.engine.cards import Card
from companion.engine.errors import FactsError

import reference_gandengyan as ref  # tests/engine is on sys.path (pytest rootdir-relative import)

READING_SWITCHES = st.fixed_dictionaries({
    "triple_is_bomb": st.booleans(), "joker_bomb": st.sampled_from(g.SWITCHES["joker_bomb"].choices),
    "joker_single": st.booleans(), "pure_beats_soft": st.booleans(),
    "triple_follow": st.sampled_from(g.SWITCHES["triple_follow"].choices)})


@st.composite
def plays(draw, max_naturals=6):
    """A few cards around one rank (so that combinations are common), up to 3 jokers."""
    base = draw(st.integers(3, 15))
    naturals = draw(st.lists(st.integers(max(3, base - 2), min(15, base + 3)), min_size=0, max_size=max_naturals))
    jokers = draw(st.lists(st.sampled_from(ref.JOKERS), max_size=3))
    cards = naturals + jokers
    assume(cards)
    return draw(st.permutations(cards))


@st.composite
def combinations(draw, near=None):
    """A combination of some type (single … bomb, a lone or double joker) at a rank near ``near``,
    some of its naturals swapped for jokers: plays that often beat each other in several ways."""
    kind = draw(st.sampled_from(["single", "pair", "triple", "straight", "connected_pairs", "bomb", "jokers"]))
    if kind == "jokers":
        return draw(st.lists(st.sampled_from(ref.JOKERS), min_size=1, max_size=2))
    rank = draw(st.integers(3, 15) if near is None else st.integers(max(3, near - 1), min(15, near + 2)))
    if kind in ("straight", "connected_pairs"):
        width = draw(st.integers(2 if kind == "connected_pairs" else 3, 5))
        rank = min(rank, 15 - width)
        ranks = [r for r in range(rank, rank + width) for _ in range(1 if kind == "straight" else 2)]
    else:
        ranks = [rank] * {"single": 1, "pair": 2, "triple": 3}.get(kind, draw(st.integers(4, 6)))
    swaps = draw(st.integers(0, min(2, len(ranks) - 1)))
    for i in draw(st.permutations(range(len(ranks))))[:swaps]:
        ranks[i] = draw(st.sampled_from(ref.JOKERS))
    return ranks


def cards_of(ranks):
    return tuple(Card(r) for r in ranks)


def fits_two_decks(ranks):
    counts = Counter(ranks)
    jokers = sum(counts[j] for j in ref.JOKERS)
    return all(counts[r] <= 8 for r in range(3, 16)) and jokers <= 4 and counts[16] <= 2 and counts[17] <= 2


@settings(max_examples=400, deadline=None)
@given(plays(), READING_SWITCHES)
def test_classify_matches_the_reference(ranks, switches):
    rules = g.Rules(**switches)
    got = g.classify(cards_of(ranks), rules)
    assert {(r.type, r.rank, r.length) for r in got} == ref.readings(list(ranks), rules)
    assert len(got) == len({(r.type, r.rank, r.length) for r in got})  # each reading once
    for reading in got:
        assert sorted(reading.cards) == sorted(cards_of(ranks))
        assert len(reading.values) == len(ranks)
        naturals = Counter(r for r in ranks if r not in ref.JOKERS)
        if reading.type != "joker_bomb" and reading.rank != ref.LONE_JOKER:
            # the values are the naturals' ranks plus what each joker stands for, and form the reading
            assert not naturals - Counter(reading.values)
            assert (reading.type, reading.rank, reading.length) in ref.shapes(list(reading.values),
                                                                             rules.triple_is_bomb)
            assert all(c.rank == v for c, v in zip(reading.cards, reading.values) if not c.is_joker)
    if got:  # best first: bombs, then rank, then top card
        assert got[0] == max(got, key=lambda r: (r.type in ("bomb", "joker_bomb"), r.rank, r.values[-1]))


@st.composite
def follows(draw):
    """(table, play): random cards, or a combination and another near its rank."""
    branch = draw(st.integers(0, 2))
    if branch == 0:
        return draw(plays(4)), draw(plays(4))
    top = draw(combinations())
    naturals = [r for r in top if r not in ref.JOKERS]
    if branch == 1 or not naturals:
        return top, draw(combinations(near=naturals[0] if naturals else None))
    # one rank and jokers: a bomb and often a sequence too (5 5 JK JK: 5555, 4455, 5566)
    rank = min(14, naturals[0] + draw(st.integers(0, 3)))
    return top, [rank] * draw(st.integers(1, 2)) + draw(st.lists(st.sampled_from(ref.JOKERS), min_size=1,
                                                                 max_size=2))


DEFAULT_SWITCHES = {"triple_is_bomb": False, "joker_bomb": "off", "joker_single": False, "pure_beats_soft": False,
                    "triple_follow": "plusOne"}


@settings(max_examples=1000, deadline=None)
@given(follows(), READING_SWITCHES)
@example(([3, 3, 4, 4], [5, 5, 18, 18]), DEFAULT_SWITCHES)                    # 4455 and 5555 both beat
@example(([3, 4, 5], [6, 18, 18]), dict(DEFAULT_SWITCHES, triple_is_bomb=True))  # 456 and the bomb 666
@example(([9], [5, 5, 18, 18]), DEFAULT_SWITCHES)                             # only the bomb beats
@example(([7], [16]), dict(DEFAULT_SWITCHES, joker_single=True))              # a lone joker on a 7
@example(([16], [17]), dict(DEFAULT_SWITCHES, joker_single=True))
@example(([6, 6, 6, 18], [6, 6, 6, 6]), dict(DEFAULT_SWITCHES, pure_beats_soft=True))
@example(([15, 15, 15, 15], [16, 17]), dict(DEFAULT_SWITCHES, joker_bomb="as4"))
@example(([8, 8, 8], [11, 11, 11]), dict(DEFAULT_SWITCHES, triple_follow="anyHigher"))
def test_check_matches_the_reference(top_and_play, switches):
    top, play = top_and_play
    rules = g.Rules(**switches)
    assume(fits_two_decks(list(top) + list(play)))
    verdict = g.check(cards_of(top), cards_of(play), rules)
    if not ref.readings(list(play), rules):
        assert not verdict.legal and verdict.play is None
        return
    if not ref.readings(list(top), rules):
        assert (verdict.legal, verdict.code) == (False, "bad_previous")
        return
    legal, played, winning = ref.follow(list(top), list(play), rules)
    assert verdict.legal == legal, verdict.reason
    assert verdict.code == ("ok" if legal else verdict.code) and (verdict.code == "ok") == legal
    if legal:
        assert {(r.type, r.rank, r.length) for r in verdict.readings} == winning
        used = (verdict.play.type, verdict.play.rank, verdict.play.length)
        assert used in winning and ref.is_bomb(used) == ref.is_bomb(played)
        assert verdict.readings[0] == verdict.play


@settings(max_examples=200, deadline=None)
@given(plays(), READING_SWITCHES)
def test_every_lead_of_a_combination_is_legal(play, switches):
    rules = g.Rules(**switches)
    assume(fits_two_decks(list(play)))
    verdict = g.check(None, cards_of(play), rules)
    assert verdict.legal == bool(ref.readings(list(play), rules))


# --- settlement ---------------------------------------------------------------------------------

SETTLE_SWITCHES = st.fixed_dictionaries({
    key: st.sampled_from(switch.choices) for key, switch in g.SWITCHES.items() if switch.choices
}).map(lambda d: dict(d, shut_out=d["shut_out"])) | st.just({})


@st.composite
def hands(draw):
    switches = draw(SETTLE_SWITCHES)
    switches["unit"] = draw(st.sampled_from([1, 1, 2, 3, 0.5, 0.25]))
    switches["shut_out"] = draw(st.sampled_from(["off", "double", "fixed20", "threshold:3", "threshold:5"]))
    switches["cap"] = draw(st.sampled_from(["none", "perLoser:20", "multiplier:64", "perLoser:7"]))
    rules = g.Rules(**switches)
    low, high = rules.player_range
    players = [f"P{i}" for i in range(draw(st.integers(low, high)))]
    winner = draw(st.sampled_from(players))
    dealer = draw(st.sampled_from(players + [None]))
    n_decks = g.decks(rules, len(players))
    jokers_left, twos_left = 2 * n_decks, 4 * n_decks
    smallest = rules.min_bomb
    losers = {}
    for name in players:
        if name == winner:
            continue
        never = draw(st.booleans()) and draw(st.booleans()) and name != dealer
        cards = 5 if never else draw(st.integers(1, 12) | st.integers(1, ref.most_cards_left(
            rules.draw_mode, len(players), n_decks)))
        jokers = draw(st.integers(0, min(cards, jokers_left)))
        jokers_left -= jokers
        twos = draw(st.integers(0, min(cards - jokers, twos_left)))
        twos_left -= twos
        room = cards - jokers if rules.held_bomb_mult == "bySize" else cards
        held = [smallest] if room >= smallest and draw(st.booleans()) else []
        loser = {"cards": cards, "jokers": jokers, "twos": twos, "held_bombs": held, "played": not never}
        if name == dealer and draw(st.booleans()):
            loser["dealer_only_opening"] = True
        losers[name] = loser
    bomb_sizes = [smallest, smallest + 1, 5, 6] + ([2] if rules.joker_bomb != "off" else [])
    played = []  # the jokers a bomb played takes (beyond a rank's natural cards) are not held
    for size in draw(st.lists(st.sampled_from(bomb_sizes), max_size=3)):
        need = 2 if size == 2 else max(0, size - 4 * n_decks)
        if need <= jokers_left:
            jokers_left -= need
            played.append(size)
    facts = {"players": players, "winner": winner, "losers": losers, "bombs_played": played,
             "tricks": draw(st.sampled_from([None, 0, 19, 20, 29, 30, 31]) | st.integers(0, 108))}
    if dealer is not None:
        facts["dealer"] = dealer
    return facts, rules


@settings(max_examples=400, deadline=None)
@given(hands(), st.sampled_from([1, 2, "0.5", "0.1", 3]))
def test_settle_matches_the_formula(hand, stake):
    facts, rules = hand
    try:
        result = g.settle(facts, rules, stake=stake)
    except FactsError as error:  # only deck totals and the deal can make a generated hand impossible
        assert error.code in ("cards_exceed_deck", "cards_exceed_deal"), error
        most = ref.most_cards_left(rules.draw_mode, len(facts["players"]), g.decks(rules, len(facts["players"])))
        assert error.code == "cards_exceed_deck" or any(loser["cards"] > most for loser in facts["losers"].values())
        return
    most = ref.most_cards_left(rules.draw_mode, len(facts["players"]), g.decks(rules, len(facts["players"])))
    assert all(loser["cards"] <= most for loser in facts["losers"].values())
    pays = ref.pays(facts, rules)
    for name, pay in pays.items():
        assert result.points[name] == -pay, (name, result.steps)
    assert result.points[facts["winner"]] == sum(pays.values())
    money = ref.money(result.points, rules, stake)
    assert {k: Decimal(str(v)) for k, v in result.deltas.items()} == {
        k: Decimal(v.numerator) / Decimal(v.denominator) for k, v in money.items()}
    assert len(result.steps) == len(facts["losers"]) + 1 + (stake != 1) + (not float(rules.unit).is_integer())
