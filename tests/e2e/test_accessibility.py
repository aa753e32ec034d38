"""axe-core (vendored, see vendor/README.md) on every page a player sees, in English and Arabic,
light and dark: no serious or critical violation, also on the rule checker (a legal and an illegal
verdict with "What beats this?" open, an ambiguous table play), the rules pages and the API help.

Each page is loaded once per language it is checked in: every axe rule runs in the light theme, then
the page is switched to the dark theme (color-scheme emulation, same page) and the colour rules run
again. The dark theme changes colours only (``test_the_dark_theme_changes_colours_only`` holds the
style sheets to that), so no other rule can answer differently in the dark.

Which page in which language (``pages``): the pages outside a table, the rule checker in its three
states, and each game's own pages (its new-table form, its rules, its record and correction forms:
fields from the game's description) in both languages; the table's other pages (the table, a hand,
its history, the history, sheet, chart, summary, settle-up, export, settings, people, players, the
table's checker and rules page) are one template for every game, checked once per language: at the
干瞪眼 table in English, at the 大冶打拱 table in Arabic (right to left). So every template is checked in
both languages and both themes, and every page of both tables in one language."""
import glob
import os
import re

import pytest
from playwright.sync_api import Page

from companion import access, scoring
from companion.sharing import people
from companion.extensions import db
from companion.db.models import Person

AXE = os.path.join(os.path.dirname(__file__), "vendor", "axe-4.12.1.min.js")


@pytest.fixture
def pages(live_server):
    """The paths of every kind of page, at a table of each game with hands recorded, each with the
    languages it is checked in."""
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
        both = ("en", "ar")
        paths = [(path, both) for path in (
            "/", "/new/gandengyan", "/new/dagong", "/tables", "/api", "/rules/gandengyan", "/rules/dagong",
            "/check?game=gandengyan&previous=5+5&play=6+6", "/check?game=gandengyan&previous=5+5&play=7+8",
            "/check?game=dagong&previous=8+8", f"/p/{db.session.get(Person, person).public_id}")]
        keys = []
        for table, lang in ((gdy, "en"), (dg, "ar")):
            t = f"/t/{table.public_id}"
            keys.append(f"{t}#key={access.edit_token(table)}")
            paths += [(path, both) for path in (f"{t}/record", f"{t}/hands/1/edit")]  # the game's own forms
            paths += [(path, (lang,)) for path in (  # the same template at every table: one language each
                f"{t}/check?previous=5+SJ+BJ&play=6+6+6", f"{t}/rules", t, f"{t}/hands/1", f"{t}/hands/1/history",
                f"{t}/history", f"{t}/sheet", f"{t}/chart", f"{t}/summary", f"{t}/settle", f"{t}/export",
                f"{t}/settings", f"{t}/people", f"{t}/players")]
    return keys, paths


# The axe rules that read colours: the only ones the dark theme can change.
COLOUR_RULES = ["color-contrast", "link-in-text-block"]
# What a dark-theme block of a style sheet may set: colours (custom properties hold colours too).
COLOUR_PROPERTY = re.compile(r"^(--[\w-]+|color|background(-color)?|border(-\w+)?-color|outline-color|fill|stroke)$")


def serious(page: Page, rules: list | None = None) -> list:
    """axe's serious and critical violations on this page (every rule, or only ``rules``)."""
    page.evaluate("document.querySelectorAll('details').forEach(d => { d.open = true; })")  # folded panels too
    if not page.evaluate("typeof axe !== 'undefined'"):
        page.add_script_tag(path=AXE)
    options = {"resultTypes": ["violations"]}
    if rules:
        options["runOnly"] = {"type": "rule", "values": rules}
    result = page.evaluate("""async (options) => (await axe.run(document, options)).violations
        .filter(v => v.impact === 'serious' || v.impact === 'critical')
        .map(v => v.id + ' (' + v.impact + '): ' + v.nodes.slice(0, 3).map(n => n.target.join(' ')).join(' | '))""",
                           options)
    return result


@pytest.mark.parametrize("lang", ["en", "ar"])
def test_no_serious_accessibility_violations(browser, live_server, pages, lang):
    keys, paths = pages
    context = browser.new_context(viewport={"width": 390, "height": 844}, bypass_csp=True, color_scheme="light",
                                  locale=lang)
    page = context.new_page()
    for key in keys:                                       # this phone may record at both tables
        page.goto(live_server + key)
        page.wait_for_load_state("networkidle")            # join.js has joined
    found = {}
    for path in (path for path, languages in paths if lang in languages):
        page.emulate_media(color_scheme="light")
        response = page.goto(f"{live_server}{path}{'&' if '?' in path else '?'}lang={lang}")
        assert response.ok, path
        if problems := serious(page):
            found[f"{path} (light)"] = problems
        page.emulate_media(color_scheme="dark")
        assert page.evaluate("matchMedia('(prefers-color-scheme: dark)').matches"), path
        if problems := serious(page, COLOUR_RULES):
            found[f"{path} (dark)"] = problems
    context.close()
    assert found == {}, "\n".join(f"{p}: {v}" for p, v in found.items())


def dark_blocks(css: str) -> list[str]:
    """The bodies of a style sheet's ``@media (prefers-color-scheme: dark)`` blocks."""
    bodies = []
    for match in re.finditer(r"@media[^{]*prefers-color-scheme:\s*dark[^{]*\{", css):
        depth, start = 1, match.end()
        at = start
        while depth:
            depth += {"{": 1, "}": -1}.get(css[at], 0)
            at += 1
        bodies.append(css[start:at - 1])
    return bodies


def test_the_dark_theme_changes_colours_only():
    """The dark theme's rules set colours only, so the accessibility test runs only axe's colour rules
    in the dark (a dark rule that moved, hid or resized things would need every axe rule run again)."""
    root = os.path.join(os.path.dirname(__file__), "..", "..")
    sheets = glob.glob(os.path.join(root, "static", "**", "*.css"), recursive=True) + glob.glob(os.path.join(root, "templates", "**", "*.html"),
                                                                          recursive=True)
    others = {}
    seen = 0
    for sheet in sheets:
        with open(sheet, encoding="utf-8") as f:
            text = re.sub(r"/\*.*?\*/", "", f.read(), flags=re.S)
        for body in dark_blocks(text):
            seen += 1
            for declaration in re.findall(r"\{([^{}]*)\}", body):
                for prop in (d.split(":", 1)[0].strip() for d in declaration.split(";") if ":" in d):
                    if not COLOUR_PROPERTY.match(prop):
                        others.setdefault(os.path.basename(sheet), set()).add(prop)
    assert seen >= 5                                       # the sheets were found and read
    assert others == {}, f"dark-theme rules that set more than colours: {others}"


def test_the_colour_check_sees_dark_only_properties():
    """The guard above would notice a dark rule that sets a size."""
    body = dark_blocks("a{} @media (prefers-color-scheme: dark) { .x { color: red; width: 2px } }")[0]
    props = [d.split(":", 1)[0].strip() for d in re.findall(r"\{([^{}]*)\}", body)[0].split(";") if ":" in d]
    assert [p for p in props if not COLOUR_PROPERTY.match(p)] == ["width"]
