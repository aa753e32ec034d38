"""Junk never reaches a non-engine exception (issue 19 item 6): every public engine function, fed
any value in any argument, answers or raises an engine error (a subclass of ``EngineError``)."""
from decimal import Decimal

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.engine import ENGINES, dagong, engine_for, gandengyan
from companion.engine.cards import Card, check_deck, decks_limit_error, format_cards, parse_cards
from companion.engine.errors import EngineError, RulesError
from companion.engine.money import apply_stake, parse_stake
from thirdgame.registry import every_game

SETTINGS = settings(deadline=None, suppress_health_check=[HealthCheck.too_slow])

scalars = st.one_of(
    st.none(), st.booleans(), st.integers(-10**12, 10**12), st.floats(allow_nan=True, allow_infinity=True),
    st.decimals(allow_nan=True, allow_infinity=True), st.sampled_from([Decimal("sNaN"), Decimal("NaN"),
                                                                      Decimal("-Infinity"), Decimal("1e3")]),
    st.text(max_size=12), st.sampled_from(["8 8", "5 JK JK", "-", "pass", "1e3", "3 3 4 4", "2", "JK",
                                           "10h Kh 5h", "9 9 9 9", "A", "x"]),
    st.binary(max_size=4), st.builds(Card, st.sampled_from([3, 8, 15, 16, 17, 18])), st.just(object()))
junk = st.recursive(scalars, lambda inner: st.one_of(
    st.lists(inner, max_size=4), st.tuples(inner, inner), st.dictionaries(st.text(max_size=6), inner, max_size=4),
    st.dictionaries(st.sampled_from(["winner", "losers", "players", "order", "dealer", "cards", "bombs",
                                     "jokers", "twos", "captured", "in_hand", "teams", "A", "B", "C"]), inner,
                    max_size=5)), max_leaves=8)
GAMES = list(every_game().values())  # the app's games and the fixture games (斗地主)


def _only_engine_errors(call, *args, **kwargs):
    try:
        call(*args, **kwargs)
    except EngineError:
        pass


@SETTINGS
@given(previous=junk, play=junk, rules=junk, players=junk, previous_as=junk, play_as=junk, last_card=junk)
@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.NAME)
def test_check(game, previous, play, rules, players, previous_as, play_as, last_card):
    _only_engine_errors(game.check, previous, play, rules, players=players, previous_as=previous_as,
                        play_as=play_as, last_card=last_card)
    _only_engine_errors(game.check, "6 6", "7 7", players=players, previous_as=previous_as, play_as=play_as)


@SETTINGS
@given(previous=junk, rules=junk, hand=junk, players=junk, previous_as=junk)
@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.NAME)
def test_answers(game, previous, rules, hand, players, previous_as):
    _only_engine_errors(game.answers, previous, rules, hand, players=players, previous_as=previous_as)
    _only_engine_errors(game.answers, "6 6", None, "7 7 8 8", players=players, previous_as=previous_as)


@SETTINGS
@given(facts=junk, rules=junk, stake=junk)
@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.NAME)
def test_settle_and_facts(game, facts, rules, stake):
    _only_engine_errors(game.settle, facts, rules, stake)
    _only_engine_errors(game.validate_facts, facts, rules)
    _only_engine_errors(game.needed_facts, rules)
    _only_engine_errors(game.next_dealer, facts)
    _only_engine_errors(game.describe_facts, rules)
    _only_engine_errors(game.describe_facts, None, stake)  # anything as the player count
    _only_engine_errors(lambda: game.describe_facts().phrases(facts, stake, rules))


@SETTINGS
@given(cards=junk, rules=junk, data=junk, preset=junk)
@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.NAME)
def test_classify_and_rules(game, cards, rules, data, preset):
    _only_engine_errors(game.classify, cards, rules)
    _only_engine_errors(game.rules_from_dict, data)
    _only_engine_errors(game.rules_from_dict, data, preset=preset)


@SETTINGS
@given(value=junk, readings=junk)
def test_parsers_and_declaration(value, readings):
    _only_engine_errors(parse_cards, value)
    _only_engine_errors(parse_stake, value)
    _only_engine_errors(parse_stake, value, allow_zero=True)
    _only_engine_errors(apply_stake, {"A": 1, "B": -1}, value)
    _only_engine_errors(dagong.declaration, value, readings)


# the reproducers of the issue, each with its twin
@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.NAME)
def test_a_number_as_the_declared_reading(game):
    with pytest.raises(EngineError) as error:
        game.check("6 6", "7 7", previous_as=8)
    assert error.value.field == "previous_as"
    with pytest.raises(EngineError) as error:
        game.check("6 6", "7 7", play_as=8)
    assert error.value.field == "play_as"
    with pytest.raises(EngineError) as error:
        game.answers("6 6", previous_as=8)
    assert error.value.field == "previous_as"
    assert game.check("6 6", "7 7", previous_as="6 6").legal  # twin: text


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.NAME)
def test_a_signalling_nan_player_count(game):
    with pytest.raises(EngineError) as error:
        verdict = game.check("6", "7", players=Decimal("sNaN"))
        assert not verdict.legal and verdict.code == "bad_players"
        raise RulesError("illegal verdict", field="players")
    assert error.value.field == "players"
    assert game.check("6", "7", players=game.PLAYER_RANGE[0]).legal  # twin: a number of players the game takes


@pytest.mark.parametrize("value", [Decimal("sNaN"), Decimal("NaN"), "1e3", "1E3", "2e-1", 1e20])
def test_stakes_refused(value):
    with pytest.raises(EngineError) as error:
        parse_stake(value)
    assert error.value.field == "stake" and error.value.code == "bad_stake"


def test_exponent_says_how_to_write_it():
    with pytest.raises(EngineError) as error:
        parse_stake("1e3")
    assert "1000" in str(error.value.message)
    assert parse_stake("1000") == 1000 and parse_stake(Decimal("1000")) == 1000  # twins
    assert str(parse_stake(Decimal("1e3"))) == "1000"  # a Decimal is a number, shown plainly


# Issue 32 item 6: the public functions that take engine objects refuse junk with an EngineError
# naming the field; each row's twin is the same call with the right object.
def _reading(game, cards="8 8"):
    return game.classify(parse_cards(cards))[0]


JUNK_CALLS = [
    ("dagong.declaration", lambda ok: dagong.declaration(_reading(dagong) if ok else "8 8",
                                                         (_reading(dagong),) if ok else None)),
    ("gandengyan.declaration", lambda ok: gandengyan.declaration(_reading(gandengyan) if ok else "8 8")),
    ("dagong.describe", lambda ok: dagong.describe(_reading(dagong) if ok else {"type": "pair"})),
    ("gandengyan.describe", lambda ok: gandengyan.describe(_reading(gandengyan) if ok else 8)),
    ("dagong.beats", lambda ok: dagong.beats(_reading(dagong), _reading(dagong, "9 9") if ok else "9 9",
                                             dagong.Rules())),
    ("gandengyan.beats", lambda ok: gandengyan.beats(_reading(gandengyan) if ok else None,
                                                     _reading(gandengyan, "9 9"))),
    ("dagong.kind_of", lambda ok: dagong.kind_of(_reading(dagong) if ok else object())),
    ("gandengyan.kind_of", lambda ok: gandengyan.kind_of(_reading(gandengyan) if ok else [8, 8])),
    ("dagong.example_hands", lambda ok: dagong.example_hands(["A", "B", "C", "D"] if ok else 4)),
    ("gandengyan.example_hands", lambda ok: gandengyan.example_hands(["A", "B"] if ok else [None])),
    ("format_cards", lambda ok: format_cards(parse_cards("8 9") if ok else [8, 9])),
    ("check_deck", lambda ok: check_deck(parse_cards("8 9"), 1 if ok else "1")),
    ("decks_limit_error", lambda ok: decks_limit_error(parse_cards("8 9") if ok else "8 9", 2)),
    ("apply_stake", lambda ok: apply_stake({"A": 2, "B": -2} if ok else {"A": "2", "B": -2}, 1)),
    ("engine_for", lambda ok: engine_for("dagong" if ok else ["dagong"])),
]


@pytest.mark.parametrize("name, call", JUNK_CALLS, ids=[name for name, _ in JUNK_CALLS])
def test_engine_objects_are_checked(name, call):
    call(True)  # the twin: the right object is answered
    with pytest.raises(EngineError) as error:
        call(False)
    assert error.value.field and str(error.value.message)


@pytest.mark.parametrize("key", ["bomb_min", "laizi_single_value", "max_jokers_in_510k",
                                 "shutout_multiplier_13_14"])
@pytest.mark.parametrize("value, refused", [(Decimal("sNaN"), True), (Decimal("NaN"), True), (4, None)])
def test_a_signalling_nan_in_a_dagong_number_switch(key, value, refused):
    good = {"bomb_min": 4, "laizi_single_value": 2, "max_jokers_in_510k": 1, "shutout_multiplier_13_14": 4}[key]
    value = good if refused is None else value
    for build in (lambda: dagong.rules_from_dict({key: value}), lambda: dagong.Rules(**{key: value}),
                  lambda: dagong.check("5", "6", {key: value})):
        if refused:
            with pytest.raises(RulesError) as error:
                build()
            assert error.value.field == f"rules.{key}"
        else:
            build()


def test_an_unknown_game_is_still_a_key_error():
    with pytest.raises(KeyError):
        engine_for("chess")


@SETTINGS
@given(value=junk, other=junk)
def test_engine_object_functions_fed_junk(value, other):
    for game in ENGINES.values():  # the shipped games' own helpers (not in the contract)
        _only_engine_errors(game.describe, value)
        _only_engine_errors(game.kind_of, value)
        _only_engine_errors(game.beats, value, other, None)
        _only_engine_errors(game.example_hands, value)
        _only_engine_errors(game.declaration, value, other)
    _only_engine_errors(format_cards, value)
    _only_engine_errors(check_deck, value, other)
    _only_engine_errors(decks_limit_error, value, other)
    _only_engine_errors(apply_stake, value, other)
    _only_engine_errors(engine_for, value)
