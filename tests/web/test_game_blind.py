"""A game is known only in its engine package: no Python outside ``companion/engine/`` and no
template branches on a game's name (``== "gandengyan"``) or keys a table by it; no script or style
sheet (``static/**/*.js``, ``static/**/*.css``) names a game, its title or one of its switches; and no
template, script or style sheet writes one of a game's rule numbers (its constants: the 200
points of the cards, the 27 cards of a hand) as a literal: pages take them from the engine. What remains is
listed below with its count; the count may only go down (lower it here when you remove one), and
a new branch anywhere fails this test. Use the registry instead (``engine_for(table.game)``:
LABEL, DEALER_WORD, OUTCOME_NAMES, TALLIES, NUMERIC_FACTS, rule_sentences, …)."""
import pathlib
import re

ROOT = pathlib.Path(__file__).resolve().parents[2]
BRANCH = re.compile(r"""(==|!=)\s*["'](gandengyan|dagong)["']|["'](gandengyan|dagong)["']\s*(==|!=)"""
                    r"""|^\s*\{?\s*["'](gandengyan|dagong)["']\s*:""")

# What is left (issue 17), per file: the count may only go down.
ALLOWED: dict = {}  # none left: the hand form and the CSV phrases come from the engine's facts description


def branches() -> dict:
    found: dict = {}
    paths = [p for p in (ROOT / "companion").rglob("*.py") if "engine" not in p.relative_to(ROOT / "companion").parts]
    paths += list((ROOT / "templates").rglob("*.html"))
    for path in paths:
        for line in path.read_text(encoding="utf-8").splitlines():
            if BRANCH.search(line):
                key = str(path.relative_to(ROOT))
                found[key] = found.get(key, 0) + 1
    return found


def test_no_new_branch_on_a_games_name_outside_the_engine():
    found = branches()
    grown = {path: (count, ALLOWED.get(path, 0)) for path, count in found.items() if count > ALLOWED.get(path, 0)}
    assert grown == {}, "new game-name branches (found, allowed): use the engine registry instead"


def test_the_allow_list_is_not_larger_than_what_is_left():
    """When a branch is removed, lower its count here, so it cannot come back unnoticed."""
    found = branches()
    assert {path: n for path, n in ALLOWED.items() if found.get(path, 0) < n} == {}


def test_the_pattern_sees_a_branch():
    assert BRANCH.search('    if table.game == "gandengyan":')
    assert BRANCH.search("{% if game == 'dagong' %}")
    assert BRANCH.search('    "dagong": ("captured.*",),')
    assert not BRANCH.search('    body = {"game": "gandengyan", "play": "8"}')


# --------------------------------------------------------------------------------------------
# Scripts and style sheets know no game; pages write no rule number


def _static_files():
    """Every script and style sheet under static/, at any depth (static/js/, static/css/, …)."""
    return sorted(p for ext in ("*.js", "*.css") for p in (ROOT / "static").rglob(ext))


def _game_words() -> set:
    """Every game's key and title, and every switch key (as a whole word): the registered games
    and the fixture games kept under the tests (thirdgame.registry)."""
    from thirdgame.registry import every_game

    words = set()
    for module in every_game().values():
        words |= {module.NAME, module.TITLE, *module.SWITCHES}
    return words


def named_in_static() -> dict:
    words = _game_words()
    found: dict = {}
    for path in _static_files():
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
            hits = [w for w in words if re.search(rf"(?<![A-Za-z0-9_]){re.escape(w)}(?![A-Za-z0-9_])", line)]
            if hits:
                found[f"{path.relative_to(ROOT)}:{number}"] = hits
    return found


def test_no_script_or_style_sheet_names_a_game_or_its_switches():
    assert named_in_static() == {}


# a game's key written into a page's class or id (``class="hand-form {{ table.game }}"``): a hook
# for a per-game selector in a script or style sheet
GAME_AS_CLASS = re.compile(r"""(class|id)=["'][^"']*\{\{[^}]*\bgame\b[^}]*\}\}""")


def game_as_class() -> list:
    return [f"{path.relative_to(ROOT)}:{number}" for path in sorted((ROOT / "templates").rglob("*.html"))
            for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1)
            if GAME_AS_CLASS.search(line)]


def test_no_page_writes_a_game_key_as_a_class():
    """Pages give scripts and styles data (``data-*`` from the facts description), never the game's
    key as a class or id to select on."""
    assert game_as_class() == []


def rule_numbers() -> set:
    """The numbers that are rules (two digits or more, so not a count like 2 or 4): each registered
    game's whole-number constants of its rules module, and its card points' total."""
    import importlib

    from companion.engine import ENGINES

    numbers = set()
    for module in ENGINES.values():
        try:
            rules = importlib.import_module(module.__name__ + ".rules")
        except ImportError:  # a game in one module (the test fixtures)
            rules = module
        numbers |= {v for k, v in vars(rules).items() if k.isupper() and type(v) is int and v >= 20}
    return numbers


# a number that is no rule: an HTTP status in the service worker and the live poll's comment
NOT_RULES = re.compile(r"status: 200|200 = the live part")


def rule_numbers_written() -> dict:
    numbers = rule_numbers()
    pattern = re.compile(r"(?<![\w.#-])(" + "|".join(str(n) for n in sorted(numbers)) + r")(?![\w%])")
    found: dict = {}
    for path in [*(ROOT / "templates").rglob("*.html"), *_static_files()]:
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
            if pattern.search(NOT_RULES.sub("", line)):
                found[f"{path.relative_to(ROOT)}:{number}"] = pattern.findall(line)
    return found


def test_no_page_writes_a_rule_number():
    """A rule number changed in its constant changes every page: none is written twice."""
    assert rule_numbers() >= {200, 27}  # the card points of 大冶打拱, its hand size
    assert rule_numbers_written() == {}


def test_the_static_guards_see_what_they_guard(tmp_path, monkeypatch):
    """Each guard fails on the mistake it is for (a script naming a game, a page writing 200)."""
    monkeypatch.setattr(__import__(__name__), "ROOT", tmp_path)
    (tmp_path / "static").mkdir()
    (tmp_path / "templates").mkdir()
    (tmp_path / "static" / "x.js").write_text('var f = document.querySelector(".hand-form.dagong");\n'
                                              "var rest = 200 - sum;\n", encoding="utf-8")
    (tmp_path / "static" / "y.css").write_text(".shout_allowed { color: red }\n.hand-form.gandengyan .chip { }\n"
                                               ".hand-form.doudizhu { }\n", encoding="utf-8")
    (tmp_path / "templates" / "z.html").write_text('<p>{{ _("all add up to 200") }}</p>\n<p>status: 200</p>\n'
                                                   '<form class="stack hand-form {{ table.game }}">\n'
                                                   '<div class="{{ game }}-rules">\n<p class="{{ gamer }}">\n',
                                                   encoding="utf-8")
    assert set(named_in_static()) == {"static/x.js:1", "static/y.css:1", "static/y.css:2", "static/y.css:3"}
    assert game_as_class() == ["templates/z.html:3", "templates/z.html:4"]
    assert set(rule_numbers_written()) == {"static/x.js:2", "templates/z.html:1"}


def test_the_scan_reads_every_script_and_sheet_at_any_depth():
    """The static scans are not vacuous: they read every .js and .css under static/, wherever a
    move puts them (after the tree was sorted by concern a flat glob read nothing and passed)."""
    found = {p.relative_to(ROOT).as_posix() for p in _static_files()}
    on_disk = {p.relative_to(ROOT).as_posix() for p in (ROOT / "static").rglob("*") if p.suffix in (".js", ".css")}
    assert found == on_disk and any(p.endswith(".js") for p in found) and any(p.endswith(".css") for p in found)
