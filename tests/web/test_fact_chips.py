"""The hand form's chips offer only what the table's rules allow, from the engine's description
of the facts (the same bounds the engine's validator uses): no +2 joker-bomb chip with joker bombs
off, no 5 jokers with one deck."""
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion import scoring
from companion.engine import gandengyan
from companion.engine.errors import FactsError

PLAYERS = ["Ann", "Bo", "Cy", "Di"]


def record_page(client, writer, table) -> str:
    writer(table)
    response = client.get(f"/t/{table.public_id}/record")
    assert response.status_code == 200
    return response.get_data(as_text=True)


def chip_values(html: str, field_id: str) -> list:
    box = re.search(r'<div class="chips"[^>]*data-for="%s">(.*?)</div>' % re.escape(field_id), html, re.S).group(1)
    return [int(v) for v in re.findall(r'data-value="(\d+)"', box)]


def test_one_deck_and_no_joker_bomb_offer_no_impossible_chip(client, writer, ctx):
    table = scoring.create_table(game="gandengyan", name="象山", players=PLAYERS, preset="xiangshan")
    html = record_page(client, writer, table)
    assert chip_values(html, "jokers_1") == [0, 1, 2]  # one deck: two jokers at most
    assert 'data-more="5"' not in html
    assert chip_values(html, "bombs_played") == [3, 4, 5, 6]  # a triple is a bomb; no +2 (joker bombs off)
    assert "2 is the two jokers played together." not in html
    assert chip_values(html, "held_bombs_1") == [3, 4, 5, 6]


def test_joker_bombs_on_offer_the_double_joker_chip(client, writer, ctx):
    table = scoring.create_table(game="gandengyan", name="QQ", players=PLAYERS,
                                 rules={"joker_bomb": "top", "played_bomb_mult": "double"})
    html = record_page(client, writer, table)
    assert chip_values(html, "bombs_played")[:2] == [2, 4]
    assert chip_values(html, "jokers_1") == [0, 1, 2, 3, 4]  # two decks


rules_st = st.fixed_dictionaries({"deck_mode": st.sampled_from(["source", "oneDeck", "perThree"]),
                                  "triple_is_bomb": st.booleans(),
                                  "joker_bomb": st.sampled_from(["off", "top", "as3", "as4"]),
                                  "played_bomb_mult": st.sampled_from(["double", "bySize"]),
                                  "held_bomb_mult": st.sampled_from(["perBomb", "bySize"])})


@settings(max_examples=60, deadline=None)
@given(rules_st, st.integers(2, 6), st.integers(1, 14), st.booleans())
def test_the_description_and_the_validator_agree(rules, players, size, played):
    """Every size the form offers is accepted by the engine; every other size is refused."""
    rules = gandengyan.rules_from_dict(rules)
    names = [f"P{i}" for i in range(players)]
    described = gandengyan.facts_description(rules, players)
    offered = described["played_bomb_sizes" if played else "held_bomb_sizes"]
    facts = {"players": names, "winner": names[0], "losers": {n: {"cards": 1, "jokers": 0} for n in names[1:]}}
    # room for any bomb (and the jokers a big one needs); 14 + 4 cards fit in one deck
    facts["losers"][names[1]].update(cards=14, jokers=0 if played else described["jokers"])
    if played:
        facts["bombs_played"] = [size]
    else:
        facts["losers"][names[1]]["held_bombs"] = [size]
    try:
        gandengyan.validate_facts(facts, rules)
        refused_size = False
    except FactsError as error:  # other checks (the jokers a big bomb needs) may refuse too
        refused_size = any(code == "bomb_size" for _field, code, _message in error.errors)
    assert refused_size == (size not in offered)
    jokers = {n: {"cards": 5, "jokers": 0} for n in names[1:]}
    jokers[names[1]]["jokers"] = described["jokers"]
    gandengyan.validate_facts({"players": names, "winner": names[0], "losers": jokers}, rules)
    jokers[names[1]]["jokers"] += 1
    with pytest.raises(FactsError):
        gandengyan.validate_facts({"players": names, "winner": names[0], "losers": jokers}, rules)
