"""A switch that changes nothing under the table's other rules is not listed (issue 33 item 8): the
dependency is the engine's datum (``Switch.moot_when``), never a game's name in the web layer."""
import pytest

from companion import scoring
from companion.engine import ENGINES

from web_helpers import text_of

pytestmark = pytest.mark.db


@pytest.mark.parametrize("shut_out, shown", [("off", False), ("double", True), ("fixed20", True),
                                             ("threshold:5", True)])
def test_the_engine_says_when_the_dealer_exception_matters(shut_out, shown):
    module = ENGINES["gandengyan"]
    rules = module.rules_from_dict({"shut_out": shut_out})
    assert module.SWITCHES["shut_out_dealer_exception"].matters(rules) is shown
    assert module.SWITCHES["shut_out_dealer_exception"].matters({"shut_out": shut_out}) is shown


def test_every_moot_when_names_a_switch_and_one_of_its_values():
    from thirdgame.registry import every_game

    for module in every_game().values():
        for switch in module.SWITCHES.values():
            if switch.moot_when:
                key, value = switch.moot_when
                other = module.SWITCHES[key]
                assert not other.choices or value in other.choices, (switch.key, switch.moot_when)


@pytest.mark.parametrize("shut_out, shown", [("off", False), ("double", True)])
def test_the_table_and_rules_pages_list_it_only_when_it_matters(app, client, shut_out, shown):
    with app.app_context():
        public_id = scoring.create_table(game="gandengyan", name="Dep", players=["Ann", "Bo", "Cy"],
                                         rules={"shut_out": shut_out}).public_id
    rules_page = client.get(f"/t/{public_id}/rules").get_data(as_text=True)
    assert ('data-switch="shut_out_dealer_exception"' in rules_page) is shown
    assert ("only the opening lead" in text_of(client.get(f"/t/{public_id}"))) is shown
