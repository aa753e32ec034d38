"""Helpers for the Flask test-client tests of the web pages (import from the tests)."""
import re
from html import unescape

from sqlalchemy import event, func, select

from companion.extensions import db
from companion.db.models import Hand, HandDelta, HandEvent, Player, Table

GDY_PLAYERS = ["Ann", "Bo", "Cy", "Di"]
DG_PLAYERS = ["P1", "P2", "P3", "P4"]


def text_of(response) -> str:
    """The page as plain text (tags removed, whitespace collapsed)."""
    html = response.get_data(as_text=True)
    html = re.sub(r"<(script|style)[^>]*>.*?</\1>", " ", html, flags=re.S)
    return re.sub(r"\s+", " ", unescape(re.sub(r"<[^>]+>", " ", html))).strip()


def field_errors(response) -> dict:
    """{field id: [messages]} from the rendered form."""
    html = response.get_data(as_text=True)
    out: dict = {}
    for ident, message in re.findall(r'<p class="field-error" id="([^"]+)-error"[^>]*>([^<]*)</p>', html):
        out.setdefault(ident, []).append(unescape(message))
    return out


def hidden(response, name: str) -> str:
    html = response.get_data(as_text=True)
    match = re.search(rf'<input[^>]*name="{name}"[^>]*value="([^"]*)"', html) or \
        re.search(rf'<input[^>]*value="([^"]*)"[^>]*name="{name}"', html)
    return unescape(match.group(1)) if match else ""


def statements_during(app, call):
    """(call()'s result, the SQL statements the database of ``app`` saw while call() ran)."""
    seen = []
    with app.app_context():
        engine = db.engine

    def count(conn, cursor, statement, *rest):
        seen.append(statement)

    event.listen(engine, "before_cursor_execute", count)
    try:
        result = call()
    finally:
        event.remove(engine, "before_cursor_execute", count)
    return result, seen


def counts() -> dict:
    """How many rows each table has: 'nothing stored changes' compares two of these."""
    return {m.__name__: db.session.scalar(select(func.count()).select_from(m))
            for m in (Table, Player, Hand, HandDelta, HandEvent)}


def snapshot() -> list:
    """Everything stored that a bad request must not change."""
    db.session.expire_all()
    rows = []
    for hand in db.session.scalars(select(Hand).order_by(Hand.id)):
        rows.append((hand.id, hand.number, hand.status, hand.revision, repr(hand.facts),
                     sorted((d.player_id, d.points) for d in hand.deltas)))
    tables = [(t.id, t.name, t.revision, t.hand_seq, t.stake_text) for t in db.session.scalars(select(Table))]
    return [counts(), tables, rows]



def gdy_form(**overrides):
    """Form data of a 干瞪眼 hand at the 4-player table: Ann wins; Bo 3 (1 joker), Cy 5, Di 1."""
    data = {"winner": "0", "dealer": "Ann", "cards_1": "3", "jokers_1": "1", "cards_2": "5",
            "jokers_2": "0", "cards_3": "1", "jokers_3": "0"}
    data.update(overrides)
    return {k: v for k, v in data.items() if v is not None}


def dg_form(**overrides):
    """Form data of a 大冶打拱 hand: worked example #5 (A = P1+P3 wins ×1)."""
    data = {"banker": "P1", "partner": "P3", "shout": "", "bright_card": "7h",
            "order_1": "P1", "order_2": "P2", "order_3": "P3", "order_4": "P4",
            "captured_0": "60", "captured_1": "50", "captured_2": "30", "captured_3": "40",
            "last_hand_points": "20"}
    data.update(overrides)
    return {k: v for k, v in data.items() if v is not None}
