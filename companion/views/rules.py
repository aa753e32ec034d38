"""The rules in the app (issue 13): a rules page per game (``/rules/<game>``) and a table's rules
(``/t/<id>/rules``: its switches on/off with their meaning, a worked settlement computed live by
the engine for that table's rules); card faces for every page that shows cards; where each
verdict's reason is explained (a verdict code -> the paragraph's anchor on the rules page).

Nothing here decides a rule: the examples are settled by the game's ``settle`` and read by its
``classify``; the page only says where the engine's reasons are explained.
"""
from __future__ import annotations

from flask import Blueprint, abort, current_app, render_template, url_for
from flask_babel import gettext as _
from jinja2 import TemplateNotFound

from .. import scoring
from ..engine import ENGINES
from ..games import ByGame
from ..engine.cards import BIG_JOKER, SMALL_JOKER, SUIT_SYMBOLS, Card, CardError, RANK_NAMES, parse_cards
from ..engine.errors import EngineError
from ..engine.text import from_data
from ..i18n import tr
from ..db.models import Table
from .tables import table_view

bp = Blueprint("rules", __name__)

# --------------------------------------------------------------------------------------------
# Where each verdict is explained: code -> the anchor of its paragraph on the game's rules page.
# A legal verdict ("ok") names the paragraph of the type of play it used.

RULE_ANCHORS = ByGame(lambda module: module.VERDICT_ANCHORS)  # read from the registry when used
TYPE_ANCHORS = ByGame(lambda module: module.WORDS.play_anchors)  # a play's type -> its paragraph


def rule_anchor(game: str, code: str, play_type: str | None = None) -> str:
    """The anchor of the rules paragraph that explains a verdict (``code``, and the type of play
    a legal verdict used)."""
    if code in ("ok", "lead_ok") and play_type:
        return TYPE_ANCHORS.get(game, {}).get(play_type, "plays")
    return RULE_ANCHORS.get(game, {}).get(code, "plays")


@bp.app_template_filter("html_id")
def html_id(anchor: str) -> str:
    """A paragraph's anchor as an HTML id that begins with a letter ("510k" -> "p510k")."""
    return anchor if anchor[:1].isalpha() else f"p{anchor}"


@bp.app_template_global()
def rule_matters(game: str, rules: dict, key: str) -> bool:
    """Does the house rule ``key`` change anything at a table with ``rules`` (the engine's switch
    says when it does not)? A key the engine does not know is shown."""
    from ..engine.public import snake

    switch = ENGINES[game].SWITCHES.get(snake(key)) if game in ENGINES else None
    return switch is None or switch.matters({snake(k): v for k, v in (rules or {}).items()})


def rule_link(game: str, code: str, play_type: str | None = None, table: Table | None = None) -> str:
    """The address of that paragraph (the table's own rules page when the checker knows the table)."""
    anchor = html_id(rule_anchor(game, code, play_type))
    if table is not None:
        return url_for("rules.table_rules", public_id=table.public_id, _anchor=anchor)
    return url_for("rules.page", game=game, _anchor=anchor)


# --------------------------------------------------------------------------------------------
# Card faces


SUIT_WORDS = {"s": "spades", "h": "hearts", "c": "clubs", "d": "diamonds"}


def _face(card: Card) -> dict:
    if card.is_joker:
        kind = "small" if card.rank == SMALL_JOKER else "big" if card.rank == BIG_JOKER else "any"
        label = {"small": _("small joker"), "big": _("big joker"), "any": _("joker")}[kind]
        mark = {"small": "小", "big": "大", "any": "王"}[kind]
        return {"rank": "★", "suit": mark, "color": "red" if kind == "big" else "black", "joker": kind,
                "label": label}
    rank = RANK_NAMES[card.rank]
    if card.suit is None:
        return {"rank": rank, "suit": "", "color": "plain", "joker": None, "label": rank}
    labels = {"s": _("%(rank)s of spades", rank=rank), "h": _("%(rank)s of hearts", rank=rank),
              "c": _("%(rank)s of clubs", rank=rank), "d": _("%(rank)s of diamonds", rank=rank)}
    return {"rank": rank, "suit": SUIT_SYMBOLS[card.suit], "color": "red" if card.suit in "hd" else "black",
            "joker": None, "label": labels[card.suit]}


def card_faces(cards) -> dict:
    """The faces of some cards (card text or Cards) and their text alternative; no faces when the
    text is no cards."""
    if not isinstance(cards, (list, tuple)):
        try:
            cards = parse_cards(cards or "")
        except CardError:
            return {"faces": [], "label": str(cards or "")}
    faces = [_face(card) for card in cards]
    return {"faces": faces, "label": ", ".join(face["label"] for face in faces)}


@bp.app_template_global()
def faces_of(cards) -> dict:
    return card_faces(cards)


@bp.app_template_global()
def reason_link(game: str, code: str, play_type: str | None = None, table: Table | None = None) -> str:
    return rule_link(game, code, play_type, table)


@bp.app_template_filter("ruling_reason")
def ruling_reason(data) -> str:
    """A ruling's reason stored with a hand note (engine Text as data), in the page's language."""
    return tr(from_data(data))


# --------------------------------------------------------------------------------------------
# Rules pages

def _examples(module, rules) -> list[dict]:
    """Example plays with their readings (the game's classify): type and what they stand for."""
    out = []
    for text in module.EXAMPLE_PLAYS:
        try:
            readings = scoring.readings_of(module, text, rules, 4)
        except EngineError:
            readings = ()
        out.append({"cards": text, "readings": readings})
    return out


def _switches(module, rules, sentences) -> list[dict]:
    """Every switch: its value at this table, whether that is the game's standard, its meaning (the
    engine's sentence for this value, else the switch's explanation)."""
    standard = module.rules_from_dict(None)
    said = {s.switch: s.text for s in sentences}
    out = []
    for key, switch in module.SWITCHES.items():
        if not switch.matters(rules):  # the engine says it changes nothing under these rules
            continue
        value = getattr(rules, key, None)
        out.append({"key": key, "value": value, "bool": switch.kind == "bool", "help": switch.help,
                    "sentence": said.get(key), "changed": value != getattr(standard, key, None)})
    return out


def _worked(module, rules, names: list[str], stake) -> list[dict]:
    """Worked settlements of example hands, settled live by the engine under ``rules``."""
    out = []
    for facts in module.example_hands(names):
        try:
            settlement = module.settle(facts, rules, stake=stake or 1)
        except EngineError:
            continue
        out.append({"facts": facts, "settlement": settlement})
    return out


def _sections(module, sentences) -> list[tuple[str, str]]:
    """The rules page's paragraphs for its contents, ``(anchor, title)``: all of them for a game with
    its own ``games/<key>/rules_prose.html``; for the generic one, the plays and the paragraphs its
    engine has sentences or prose for (``WORDS.prose``), or sends a verdict or a play to."""
    game = module.NAME
    titles = [("deal", _("The deal")), ("plays", _("Plays")), ("follow", _("Following")), ("bombs", _("Bombs")),
              ("end", _("End of a hand")), ("pay", _("Paying"))]
    try:
        current_app.jinja_env.get_template(f"games/{game}/rules_prose.html")  # loaded once, then cached
        return titles
    except TemplateNotFound:
        anchors = ({s.anchor for s in sentences} | {"plays"} | set(module.WORDS.prose)
                   | set(module.VERDICT_ANCHORS.values()) | set(module.WORDS.play_anchors.values()))
        return [(anchor, title) for anchor, title in titles if anchor in anchors]


def _render(module, rules, table: Table | None):
    names = table.player_names if table is not None else []
    stake = table.stake if table is not None else 1
    sentences = module.rule_sentences(rules)  # what this table's switch values mean, from the engine
    return render_template("rules/rules.html", module=module, game=module.NAME, table=table, sentences=sentences,
                           switches=_switches(module, rules, sentences), examples=_examples(module, rules),
                           worked=_worked(module, rules, names, stake), rules=rules,
                           rule_sections=_sections(module, sentences))


@bp.get("/rules/<game>")
def page(game: str):
    module = ENGINES.get(game)
    if module is None:
        abort(404)
    return _render(module, module.rules_from_dict(None), None)


@bp.get("/t/<public_id>/rules")
@table_view()
def table_rules(table: Table):
    return _render(scoring.engine_for(table.game), scoring.table_rules(table), table)
