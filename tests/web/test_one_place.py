"""The maintainer's experiment (issue 30), as tests: a rule changed in its one place moves the whole
app. Each test makes the one change (monkeypatching the constant where the game keeps it, in every
module of the game that holds it, and clearing the game's caches), then checks that the record
form, the server's validator, the rules page, the checker and the settlement's steps all agree.
``one_edit`` also refuses a constant defined in two modules of the game (a copy under the same name);
a copy as a literal fails the checks themselves (each was tried: a literal 1 for the dealer's extra
card in the stock, 6 in the rules prose, ×4 in the shout sentence or the outcome).

(a) 大冶打拱: a K worth 15 (``CARD_POINTS``; the total follows: 240)
(b) 干瞪眼: the dealer dealt 7 (``DEALER_EXTRA``)
(c) 大冶打拱: a won shout ×3 (the standard rules' ``shout_multiplier``)
(d) a new preset (``PRESETS`` and its words in the game's ``words.py``)
"""
import ast
import dataclasses
import importlib
import inspect
import pkgutil
import re

import pytest

from companion import access, scoring
from companion.engine import dagong, gandengyan
from companion.engine.errors import EngineError

from web_helpers import text_of

DG = ["P1", "P2", "P3", "P4"]


def _modules(package):
    return [package] + [importlib.import_module(f"{package.__name__}.{m.name}")
                        for m in pkgutil.iter_modules(package.__path__)]


def _assigned(module) -> set:
    """The names a module assigns at its top level (a constant it defines, not one it imports)."""
    tree = ast.parse(inspect.getsource(module))
    out = set()
    for node in tree.body:
        targets = node.targets if isinstance(node, ast.Assign) else [node.target] if isinstance(
            node, ast.AnnAssign) else []
        out |= {target.id for target in targets if isinstance(target, ast.Name)}
    return out


def one_edit(monkeypatch, package, **constants):
    """Set each constant to its new value in every module of the game that holds the same value
    under that name (``from .rules import X`` copies the binding), then clear the game's caches
    (descriptions, readings) and the faces' caches built from them. A constant is defined by ONE
    module of the game (the others import it): a second definition under the same name is a copy
    the edit would miss in the source, so it fails here."""
    for name in constants:
        defining = [module.__name__ for module in _modules(package) if name in _assigned(module)]
        assert len(defining) == 1, f"{name} is defined in {defining}: one place only"
    for module in _modules(package):
        for name, value in constants.items():
            if name in vars(module):
                monkeypatch.setattr(module, name, value)
    clear_caches(package)
    monkeypatch.context()


def clear_caches(package):
    from companion.schemas import facts as schema_facts

    for module in _modules(package):
        for value in vars(module).values():
            if callable(getattr(value, "cache_clear", None)):
                value.cache_clear()
    schema_facts._DESCRIBED.clear()


@pytest.fixture
def restore():
    yield
    clear_caches(dagong)
    clear_caches(gandengyan)


def _played_out(captured: dict, last: int = 0) -> dict:
    return {"players": DG, "banker": "P1", "partner": "P3", "shout": None, "order": ["P1", "P2", "P3", "P4"],
            "captured": captured, "last_hand_points": last}


def test_a_king_worth_15_moves_the_total_everywhere(client, ctx, writer, monkeypatch, restore):
    points = {**dagong.CARD_POINTS, 13: 15}
    total = sum(points.values()) * dagong.rules.COPIES
    assert total == 240
    one_edit(monkeypatch, dagong, CARD_POINTS=points, TOTAL_POINTS=total)
    table = scoring.create_table(game="dagong", name="K15", players=DG, stake="1")
    # the form: the last share fills in to 240, and the running sum says "of 240"
    form = writer(table).get(f"/t/{table.public_id}/record").get_data(as_text=True)
    assert 'data-total="240"' in form and "of 240" in form and "of 200" not in form
    # the server: a played-out hand adds up to 240, not 200
    hand = scoring.record_hand(table, _played_out({"P1": 120, "P2": 60, "P3": 30, "P4": 30}), request_id="k1")
    assert hand.number == 1
    with pytest.raises(EngineError):
        scoring.record_hand(table, _played_out({"P1": 100, "P2": 50, "P3": 25, "P4": 25}), request_id="k2")
    # the rules page: each K counts 15, 240 in all
    rules = text_of(client.get(f"/t/{table.public_id}/rules"))
    assert "each K counts 15, 240 in all" in rules and "200 in all" not in rules
    # the settlement: partners first and second out (E12) with all 240 points is the dry arch's
    settled = dagong.settle({**_played_out({"P1": 240, "P2": 0, "P3": 0, "P4": 0}), "order": ["P1", "P3"]})
    assert settled.arch == "dry"
    # the checker shows the table's rules: the 510K, K included, is read the same
    checked = text_of(client.get(f"/t/{table.public_id}/check?previous=&play=5+10+K"))
    assert "510K" in checked


def _gdy_hand(bo_cards: int) -> dict:
    return {"players": ["Ann", "Bo", "Cy"], "winner": "Ann", "dealer": "Ann",
            "losers": {"Bo": {"cards": bo_cards}, "Cy": {"cards": 1}}}


def _post_hand(client, table, facts, request_id):
    return client.post(f"/api/v1/tables/{table.public_id}/hands", json={"facts": facts, "request_id": request_id},
                       headers={"X-Edit-Token": access.edit_token(table)})


def test_the_dealer_dealt_7_moves_the_bound_the_server_enforces_and_the_rules_pages(client, ctx, monkeypatch,
                                                                                    restore):
    """Three players, two decks, everyone draws (the source rules): 108 − (3 × 5 + 1) = 92 cards in
    the stock, 30 full rounds and 2 left, so a loser ends with at most 5 + 31 = 36. The dealer
    dealt 7 leaves 91: 30 rounds and 1 left (the trick's winner draws it), at most 35."""
    plain = scoring.create_table(game="gandengyan", name="Six", players=["Ann", "Bo", "Cy"], stake="1")
    assert gandengyan.most_cards_left(gandengyan.rules_from_dict(plain.rules), 3) == 36
    assert _post_hand(client, plain, _gdy_hand(36), "six").status_code == 201
    one_edit(monkeypatch, gandengyan, DEALER_EXTRA=2)
    table = scoring.create_table(game="gandengyan", name="Seven", players=["Ann", "Bo", "Cy"], stake="1")
    # the server: 35 is accepted, 36 refused by a message that names the new bound and stock
    assert _post_hand(client, table, _gdy_hand(35), "seven-35").status_code == 201
    refused = _post_hand(client, table, _gdy_hand(36), "seven-36")
    assert refused.status_code == 400
    error = refused.get_json()["error"]
    assert error["code"] == "cards_exceed_deal" and error["field"] == "losers.Bo.cards"
    assert "the stock holds 91 cards" in error["message"] and "at most 35 (5 dealt + 30 drawn)" in error["message"]
    # the record form's description (the form's fields and bounds come from it) has the same bound
    cards = next(f for f in gandengyan.describe_facts(gandengyan.rules_from_dict(table.rules), 3)
                 if f.key == "losers.*.cards")
    assert cards.high == 35
    # the rules pages: the dealer gets 7
    rules = text_of(client.get(f"/t/{table.public_id}/rules"))
    assert "The dealer (庄家) gets 7 cards, everyone else 5" in rules and "gets 6 cards" not in rules
    assert "gets 7 cards, everyone else 5" in text_of(client.get("/rules/gandengyan"))


def test_a_won_shout_times_3_moves_form_server_rules_page_and_steps(client, ctx, monkeypatch, restore):
    standard = dataclasses.replace(dagong.PRESETS["daye"], shout_multiplier=3)
    monkeypatch.setitem(dagong.PRESETS, "daye", standard)
    one_edit(monkeypatch, dagong, DEFAULT_RULES=standard)
    table = scoring.create_table(game="dagong", name="Shout3", players=DG, stake="1")
    facts = {"players": DG, "banker": "P1", "partner": None, "shout": "P2", "order": ["P2"], "captured": {},
             "last_hand_points": 0}
    hand = scoring.record_hand(table, facts, request_id="s1")
    shown = text_of(client.get(f"/t/{table.public_id}/hands/{hand.number}"))
    assert "×3" in shown and "×4" not in shown  # the settlement's steps
    settled = dagong.settle(facts, dagong.rules_from_dict(None))
    assert settled.points["P2"] == 3 * 3 and any("×3" in str(s) for s in settled.steps)
    for page in (f"/t/{table.public_id}/rules", "/rules/dagong"):
        rules = text_of(client.get(page))
        assert "A shout is played at ×3: the shouter collects 3 from each of the three, or pays each of them 3." in rules
        assert "P2 went out first and wins the shout, ×3. P2: +9; P1+P3+P4: −3 each." in rules
        assert "Shout multiplier : 3" in rules
        assert "played at ×4" not in rules and "wins the shout, ×4" not in rules
    new_table = client.get("/new/dagong").get_data(as_text=True)
    assert 'name="rule_shout_multiplier"' in new_table


def test_a_new_preset_is_offered_named_and_kept(client, ctx, monkeypatch, restore):
    from companion.engine.text import N_

    fast = dataclasses.replace(gandengyan.PRESETS["source"], shut_out="double")
    monkeypatch.setitem(gandengyan.PRESETS, "fast", fast)
    monkeypatch.setitem(gandengyan.WORDS.presets, "fast", N_("Fast tables"))
    new_table = client.get("/new/gandengyan").get_data(as_text=True)
    assert re.search(r'<option value="fast">Fast tables</option>', new_table)
    check = client.get("/check").get_data(as_text=True)
    assert 'value="fast"' in check and "Fast tables" in check
    table = scoring.create_table(game="gandengyan", name="Fast", players=["Ann", "Bo", "Cy"], preset="fast")
    assert table.rules["shut_out"] == "double"
    page = text_of(client.get(f"/t/{table.public_id}"))
    assert "Preset: Fast tables." in page and "fast" not in page.replace("Fast", "")
    facts = {"players": ["Ann", "Bo", "Cy"], "winner": "Ann", "losers": {"Bo": {"cards": 5, "played": False},
                                                                         "Cy": {"cards": 2}}}
    hand = scoring.record_hand(table, facts, request_id="f1")
    assert hand.number == 1
    assert any("double" in str(s).lower() or "×2" in str(s) for s in gandengyan.settle(facts, fast).steps)
