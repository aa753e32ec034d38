"""One description of a hand's facts (GameEngine.describe_facts), four uses: the hand form, the
JSON schema of facts, the CSV phrases and the pages. Here: every field the description lists
round-trips form data -> facts -> the engine accepts them -> form data again, for random rules;
the JSON schema of facts lists exactly what the games describe (also a game registered later);
a game without its own template gets every described field from the generic one."""
import re
from types import SimpleNamespace

import pytest
from flask import render_template
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from werkzeug.datastructures import MultiDict

from companion import schemas
from companion.engine import ENGINES, dagong, described, gandengyan
from companion.engine.errors import FactsError
from companion.engine.text import N_
from companion.forms.tables import facts_to_data, hand_form

FIXTURES = [HealthCheck.function_scoped_fixture, HealthCheck.too_slow]


def _table(game: str, rules: dict, names: list):
    """What the form needs of a table (no database)."""
    return SimpleNamespace(id=0, game=game, rules=rules, player_names=list(names))


def _posted(data: dict) -> MultiDict:
    """Form data as a browser sends it: ticked boxes as "y", unticked ones left out, numbers as text."""
    out = MultiDict()
    for key, value in data.items():
        if value is True:
            out.add(key, "y")
        elif value is False or value is None:
            continue
        else:
            out.add(key, str(value))
    return out


def _shown(form, data: dict) -> dict:
    """``data`` on the form's own fields, as a browser would send it back."""
    return {k: v for k, v in _posted({k: data.get(k) for k in form._fields}).items()}


def _round_trip(app, game: str, rules: dict, facts: dict) -> None:
    module = ENGINES[game]
    names = facts["players"]
    table = _table(game, rules, names)
    rules_value = module.rules_from_dict(rules)
    data = facts_to_data(table, facts, rules_value)
    with app.test_request_context(method="POST"):
        form = hand_form(table, module, rules_value, formdata=_posted(data))
        assert form.validate(), form.errors
        again = form.facts()
        module.validate_facts(again, rules_value)  # the engine accepts what the form read
        # every field the description needs is a field of the form, and shows the same again
        wanted = {f.field_name for f in module.describe_facts(rules_value, len(names)).needed()
                  if f.kind != described.PLAYERS}
        prefixes = {re.sub(r"_\d+$", "", name) for name in form._fields} - {"request_id", "expected_number",
                                                                             "revision", "csrf_token"}
        assert prefixes == wanted
        assert _shown(form, facts_to_data(table, again, rules_value)) == _shown(form, data)


GDY_RULES = st.fixed_dictionaries({
    "deck_mode": st.sampled_from(["source", "oneDeck", "perThree"]), "draw_mode": st.sampled_from(["all", "winnerOnly"]),
    "triple_is_bomb": st.booleans(), "joker_bomb": st.sampled_from(["off", "top", "as3", "as4"]),
    "twos_are_trumps": st.sampled_from(["off", "perTwo"]),
    "held_bomb_mult": st.sampled_from(["off", "once", "perBomb", "bySize"]),
    "played_bomb_mult": st.sampled_from(["off", "double", "bySize", "linear"]),
    "shut_out": st.sampled_from(["off", "double", "fixed20", "threshold:5"]),
    "shut_out_dealer_exception": st.booleans(), "long_hand_mult": st.sampled_from(["off", "on"])})


@st.composite
def gandengyan_hands(draw):
    rules = draw(GDY_RULES)
    value = gandengyan.rules_from_dict(rules)
    low, high = value.player_range
    names = [f"P{i}.x" for i in range(draw(st.integers(low, high)))]  # names with dots, as players type them
    description = gandengyan.describe_facts(value, len(names))
    needed = {f.key for f in description.needed()}
    winner = draw(st.sampled_from(names))
    dealer = draw(st.sampled_from(names + [None]))
    losers = {}
    for name in names:
        if name == winner:
            continue
        loser = {"cards": draw(st.integers(5, 8)), "jokers": draw(st.integers(0, 1))}
        if "losers.*.twos" in needed:
            loser["twos"] = draw(st.integers(0, 1))
        if "losers.*.held_bombs" in needed:
            loser["held_bombs"] = draw(st.sampled_from([[], [value.min_bomb]]))
        if "losers.*.played" in needed:
            loser["played"] = name == dealer or value.draw_mode == "winnerOnly" and loser["cards"] != 5 or \
                draw(st.booleans())
        if "losers.*.dealer_only_opening" in needed:
            loser["dealer_only_opening"] = name == dealer and draw(st.booleans())
        losers[name] = loser
    facts = {"players": names, "winner": winner, "losers": losers}
    if dealer is not None:
        facts["dealer"] = dealer
    if "bombs_played" in needed:
        facts["bombs_played"] = draw(st.sampled_from([[], [description.get("bombs_played").chips[-1]]]))
    if "tricks" in needed:
        facts["tricks"] = draw(st.integers(0, 40))
    return rules, facts


@settings(max_examples=60, suppress_health_check=FIXTURES)
@given(gandengyan_hands())
def test_gandengyan_fields_round_trip(app, hand):
    rules, facts = hand
    try:
        gandengyan.validate_facts(facts, gandengyan.rules_from_dict(rules))
    except FactsError:
        assume(False)  # a random hand the rules refuse (too many cards for one deck …): not a form question
    _round_trip(app, "gandengyan", rules, facts)


@st.composite
def dagong_hands(draw):
    rules = {"bonus_xi_qian": draw(st.booleans()), "shout_allowed": True}
    names = ["甲", "乙.1", "丙", "丁"]
    banker, partner = draw(st.permutations(names))[:2]
    order = draw(st.permutations(names))
    shout = draw(st.sampled_from([None, None, None] + names))
    points = [5 * draw(st.integers(0, 10)) for _ in range(3)]
    last = draw(st.sampled_from([0, 5, 20]))
    captured = dict(zip(names, points + [200 - sum(points) - last]))
    facts = {"players": names, "banker": banker, "partner": partner, "shout": shout, "order": list(order),
             "captured": captured, "last_hand_points": last,
             "bright_card": draw(st.sampled_from([None, "7h", "10s"]))}
    if rules["bonus_xi_qian"]:
        facts["xi_bombs"] = {n: s for n in names if (s := draw(st.sampled_from([[], [7], [8], [7, 8]])))}
    return rules, facts


@settings(max_examples=40, suppress_health_check=FIXTURES)
@given(dagong_hands())
def test_dagong_fields_round_trip(app, hand):
    rules, facts = hand
    try:
        dagong.validate_facts(facts, dagong.rules_from_dict(rules))
    except FactsError:
        assume(False)
    _round_trip(app, "dagong", rules, facts)


def test_the_schema_of_facts_lists_exactly_what_the_games_describe():
    heads = {head for module in ENGINES.values() for head in module.describe_facts().heads()}
    assert set(schemas.FACT_FIELDS) == heads
    aliases = {a: f for module in ENGINES.values() for a, f in module.describe_facts().aliases().items()}
    assert dict(schemas.FACT_ALIASES.items()) == aliases == {"bombsPlayed": "bombs_played"}


def test_every_numeric_fact_the_api_insists_on_is_a_described_number():
    from thirdgame.registry import every_game

    for module in every_game().values():
        assert set(module.NUMERIC_FACTS) <= set(module.describe_facts().numeric_paths())


class _Dice:
    """A game registered after start-up: one fact of its own."""

    NAME = "dice"

    @staticmethod
    def describe_facts(rules=None, players=None):
        return described.FactsDescription("dice", "骰子", (
            described.FactField("players", described.PLAYERS, N_("Players")),
            described.FactField("pips.*", described.PER_PLAYER_COUNT, N_("Points captured"), high=6)))


def test_a_game_registered_later_is_in_the_schema_of_facts(app, monkeypatch):
    assert "pips" not in schemas.FACT_FIELDS
    monkeypatch.setitem(ENGINES, "dice", _Dice)
    assert schemas.FACT_FIELDS["pips"][0] == {"type": "object",
                                              "additionalProperties": {"type": "integer", "minimum": 0, "maximum": 6}}
    assert "pips" in schemas.Facts().metadata["properties"]
    assert "pips" in schemas.SettleRequest().fields
    with app.test_request_context():
        loaded = schemas.load(schemas.RecordHandRequest, {"facts": {"pips": {"A": 3}}, "request_id": "r1"})
        assert loaded["facts"] == {"pips": {"A": 3}}
        with pytest.raises(schemas.InputError) as refused:
            schemas.load(schemas.RecordHandRequest, {"facts": {"dots": 1}, "request_id": "r1"})
    assert (refused.value.code, refused.value.field) == ("unknown_field", "facts.dots")  # still refused by name
    monkeypatch.delitem(ENGINES, "dice")
    assert "pips" not in schemas.FACT_FIELDS


@pytest.mark.parametrize("game, rules", [("gandengyan", {"twos_are_trumps": "perTwo", "long_hand_mult": "on",
                                                         "shut_out": "fixed20", "shut_out_dealer_exception": True,
                                                         "held_bomb_mult": "perBomb"}),
                                         ("dagong", {"bonus_xi_qian": True})])
def test_the_generic_template_shows_every_described_field(app, game, rules):
    """A game without templates/games/<key>/hand_fields.html gets them all from the description."""
    module = ENGINES[game]
    names = ["Ann", "Bo", "Cy", "Di"]
    with app.test_request_context():
        form = hand_form(_table(game, rules, names), module, module.rules_from_dict(rules))
        html = render_template("games/_generic/hand_fields.html", form=form, table=None, hand=None)
    shown = set(re.findall(r'\sname="([^"]+)"', html))
    assert shown == set(form._fields) - {"request_id", "expected_number", "revision", "csrf_token"}
    for fact in form.description.needed():
        if fact.kind != described.PLAYERS and not fact.per_player:
            assert str(fact.label) in html or fact.kind == described.ORDERED_PLAYERS


@pytest.mark.parametrize("game, facts, said", [
    ("gandengyan", {"players": ["Ann", "Bo", "Cy"], "winner": "Ann", "dealer": "Bo", "bombsPlayed": [4],
                    "losers": {"Bo": {"cards": 3, "jokers": 1}, "Cy": {"cards": 5, "playedAny": False}}, "tricks": 12},
     ["Winner", "Ann", "Dealer", "Cards left: 3", "Jokers held: 1", "Cards left: 5", "Never played a card",
      "Bombs played", ">4<", "Tricks", ">12<"]),
    ("dagong", {"players": ["Ann", "Bo", "Cy", "Di"], "banker": "Ann", "partner": "Cy", "shout": None,
                "order": ["Ann", "Bo", "Cy", "Di"], "captured": {"Ann": 60, "Bo": 50, "Cy": 30, "Di": 40},
                "last_hand_points": 20, "bright_card": "7h", "xi_bombs": {"Bo": [7, 8]}},
     ["Banker", "Partner", "Order out", "Points captured", "<bdi>Di</bdi> 40", "Left in the last hand", ">20<",
      "Bright card", ">7h<", "喜 bombs", "<bdi>Bo</bdi> 7 8"]),
])
def test_the_generic_facts_summary_shows_each_fact(app, game, facts, said):
    """A stored hand's page for a game without its own facts_summary.html: every fact, from the
    description (stored facts keep the spelling they were sent with: bombsPlayed, playedAny)."""
    with app.test_request_context():
        html = render_template("games/_generic/facts_summary.html", table=SimpleNamespace(game=game), facts=facts)
    for words in said:
        assert words in html
    assert "Jokers held: 0" not in html and "Shouted" not in html


@pytest.mark.parametrize("rules", [{}, {"deck_mode": "oneDeck"}, {"joker_bomb": "top", "played_bomb_mult": "double"}])
def test_every_count_chip_is_a_value_the_engine_takes_and_no_loser_has_0_cards(rules):
    value = gandengyan.rules_from_dict(rules)
    description = gandengyan.describe_facts(value, 4)
    names = ["A", "B", "C", "D"]
    cards = description.get("losers.*.cards")
    assert 0 not in cards.chips and min(cards.chips) == cards.low == 1
    for chip in cards.chips + (cards.more,):
        gandengyan.validate_facts({"players": names, "winner": "A",
                                   "losers": {n: {"cards": chip if n == "B" else 1} for n in names[1:]}}, value)
    with pytest.raises(FactsError):
        gandengyan.validate_facts({"players": names, "winner": "A",
                                   "losers": {n: {"cards": 0 if n == "B" else 1} for n in names[1:]}}, value)
    jokers = description.get("losers.*.jokers")
    assert jokers.chips == tuple(range(jokers.high + 1)) and jokers.high == gandengyan.facts.most_jokers(
        gandengyan.decks(value, 4))
