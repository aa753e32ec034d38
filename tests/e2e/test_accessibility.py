"""axe-core (vendored, see vendor/README.md) on every page a player sees, in English and Arabic,
light and dark: no serious or critical violation, also on the rule checker (a legal and an illegal
verdict with "What beats this?" open, an ambiguous table play), the rules pages and the API help."""
import os

import pytest
from playwright.sync_api import Page

from companion import access, people, scoring
from companion.extensions import db
from companion.models import Person

AXE = os.path.join(os.path.dirname(__file__), "vendor", "axe-4.12.1.min.js")


@pytest.fixture
def pages(live_server):
    """The paths of every kind of page, at a table of each game with hands recorded."""
    with live_server.app.app_context():
        gdy = scoring.create_table(game="gandengyan", name="Friday 干瞪眼 with a rather long name", stake="0.5",
                                   currency="¥", players=["Ann", "Bo", "محمد عبد الله الطويل", "Dee"],
                                   rules={"played_bomb_mult": "double", "held_bomb_mult": "once"},
                                   first_dealer="Ann")
        scoring.record_hand(gdy, {"winner": "Ann", "losers": {"Bo": {"cards": 3, "jokers": 1},
                                                              "محمد عبد الله الطويل": {"cards": 5},
                                                              "Dee": {"cards": 1}}, "bombs_played": [4]},
                            request_id="a", device="Ann's phone")
        dg = scoring.create_table(game="dagong", name="大冶打拱", players=["Li", "Wang", "Zhang", "Zhao"],
                                  first_dealer="Li")
        scoring.record_hand(dg, {"banker": "Li", "partner": "Zhang", "order": ["Li", "Wang", "Zhang"],
                                 "captured": {"Li": 60, "Wang": 50, "Zhang": 30, "Zhao": 60}}, request_id="b")
        people.link_players(gdy, {gdy.players[0].id: "new"}, offered_from=[gdy.id])
        person = gdy.players[0].person_id
        paths = ["/", "/new/gandengyan", "/new/dagong", "/tables", "/api", "/rules/gandengyan", "/rules/dagong",
                 "/check?game=gandengyan&previous=5+5&play=6+6", "/check?game=gandengyan&previous=5+5&play=7+8",
                 "/check?game=dagong&previous=8+8",
                 f"/p/{db.session.get(Person, person).public_id}"]
        keys = []
        for table in (gdy, dg):
            t = f"/t/{table.public_id}"
            keys.append(f"{t}#key={access.edit_token(table)}")
            paths += [f"{t}/check?previous=5+SJ+BJ&play=6+6+6", f"{t}/rules"]
            paths += [t, f"{t}/record", f"{t}/hands/1", f"{t}/hands/1/edit", f"{t}/hands/1/history", f"{t}/history",
                      f"{t}/sheet", f"{t}/chart", f"{t}/summary", f"{t}/settle", f"{t}/export", f"{t}/settings", f"{t}/people",
                      f"{t}/players"]
    return keys, paths


def serious(page: Page) -> list:
    page.evaluate("document.querySelectorAll('details').forEach(d => { d.open = true; })")  # folded panels too
    page.add_script_tag(path=AXE)
    result = page.evaluate("""async () => (await axe.run(document, {resultTypes: ['violations']})).violations
        .filter(v => v.impact === 'serious' || v.impact === 'critical')
        .map(v => v.id + ' (' + v.impact + '): ' + v.nodes.slice(0, 3).map(n => n.target.join(' ')).join(' | '))""")
    return result


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("lang", ["en", "ar"])
def test_no_serious_accessibility_violations(browser, live_server, pages, lang, scheme):
    keys, paths = pages
    context = browser.new_context(viewport={"width": 390, "height": 844}, bypass_csp=True, color_scheme=scheme,
                                  locale=lang)
    page = context.new_page()
    for key in keys:                                       # this phone may record at both tables
        page.goto(live_server + key)
        page.wait_for_load_state("networkidle")            # join.js has joined
    found = {}
    for path in paths:
        response = page.goto(f"{live_server}{path}{'&' if '?' in path else '?'}lang={lang}")
        assert response.ok, path
        problems = serious(page)
        if problems:
            found[path] = problems
    context.close()
    assert found == {}, "\n".join(f"{p}: {v}" for p, v in found.items())
