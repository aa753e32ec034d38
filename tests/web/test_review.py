"""Review the night: summary figures (hand-computed, both games), the score sheet across pages, the chart,
settle-up pages, CSV/JSON export and import (round trip; bad files change nothing)."""
import datetime
import io
import json
import re
import uuid
from decimal import Decimal

import pytest
from hypothesis import given
from hypothesis import strategies as st
from sqlalchemy import event, select

from companion import access, review, scoring
from companion.extensions import db
from companion.db.models import Hand, HandEvent

from web_helpers import snapshot, text_of

pytestmark = pytest.mark.db

GDY = ["Ann", "Bo", "Cy", "Di"]
DG = ["P1", "P2", "P3", "P4"]


def record(table, facts):
    return scoring.record_hand(table, facts, request_id=uuid.uuid4().hex)


@pytest.fixture
def gdy_night(ctx):
    """干瞪眼, shut-out ×2 (with the dealer exception), stake 0.5 ¥. Worked by hand (pay = cards, ×2 with a
    joker, ×2 shut out):
      #1 Ann wins (dealer Ann): Bo 3+joker = 6, Cy 5 never played = 10, Di 1      -> +17 −6 −10 −1
      #2 Bo wins (dealer Ann): Ann 2 only the opening lead = 4, Cy 2+2 jokers = 4, Di 6 never played = 12
                                                                                  -> −4 +20 −4 −12
      #3 Cy wins — VOID: Ann 4, Bo 4+2 jokers = 8, Di 1                            -> (−4 −8 +13 −1)
      #4 Di wins: Ann 1, Bo 1, Cy 3+joker = 6                                      -> −1 −1 −6 +8
    Totals Ann +12, Bo +13, Cy −20, Di −5."""
    table = scoring.create_table(game="gandengyan", name="星期五 night", players=GDY, stake="0.5",
                                 currency="¥", rules={"shut_out": "double"}, first_dealer="Ann")
    record(table, {"winner": "Ann", "dealer": "Ann", "losers": {
        "Bo": {"cards": 3, "jokers": 1}, "Cy": {"cards": 5, "played": False}, "Di": {"cards": 1}}})
    record(table, {"winner": "Bo", "dealer": "Ann", "losers": {
        "Ann": {"cards": 2, "dealer_only_opening": True}, "Cy": {"cards": 2, "jokers": 2},
        "Di": {"cards": 6, "played": False}}})
    void = record(table, {"winner": "Cy", "dealer": "Bo", "losers": {
        "Ann": {"cards": 4}, "Bo": {"cards": 4, "jokers": 2}, "Di": {"cards": 1}}})
    scoring.void_hand(table, void.number, revision=void.revision)
    record(table, {"winner": "Di", "dealer": "Cy", "losers": {
        "Ann": {"cards": 1}, "Bo": {"cards": 1}, "Cy": {"cards": 3, "jokers": 1}}})
    return table


def cap(*values):
    return dict(zip(DG, values))


@pytest.fixture
def dg_night(ctx):
    """大冶打拱 (preset daye, stake 1), team A = P1+P3 unless a shout; the rules file's worked examples:
      #1 ex. 5: order P1 P2 P3 P4, A half arch ×1            -> +1 −1 +1 −1
      #2 ex. 1: order P1 P3 (E12), B on 0: A dry arch ×4      -> +4 −4 +4 −4
      #3 ex. 19: P3 shouts and goes out first               -> −4 −4 +12 −4
      #4 ex. 20: P3 shouts, P1 goes out first               -> +4 +4 −12 +4
      #5 order P1 P2 P4 (P3 last, implied): B half arch ×1   -> −1 +1 −1 +1
      #6 ex. 6: order P1 P2 P3 P4, A 200 : 0, straight ×2     -> +2 −2 +2 −2
      #7 ex. 3: order P2 P4, B dry ×4 — VOID
    Totals P1 +6, P2 −6, P3 +6, P4 −6."""
    table = scoring.create_table(game="dagong", name="大冶", players=DG, stake="1", preset="daye",
                                 first_dealer="P1")
    team = {"banker": "P1", "partner": "P3"}
    record(table, {**team, "order": ["P1", "P2", "P3", "P4"], "captured": cap(60, 50, 30, 40), "last_hand_points": 20})
    record(table, {**team, "order": ["P1", "P3"], "captured": cap(120, 0, 80, 0), "last_hand_points": 0})
    record(table, {"banker": "P3", "shout": "P3", "order": ["P3"]})
    record(table, {"banker": "P3", "shout": "P3", "order": ["P1"]})
    record(table, {**team, "order": ["P1", "P2", "P4"], "captured": cap(40, 60, 30, 50), "last_hand_points": 20})
    record(table, {**team, "order": ["P1", "P2", "P3", "P4"], "captured": cap(110, 0, 60, 30), "last_hand_points": 0})
    void = record(table, {**team, "order": ["P2", "P4"], "captured": cap(0, 110, 0, 90), "last_hand_points": 0})
    scoring.void_hand(table, void.number, revision=void.revision)
    return table


def by_name(summary):
    return {p.name: p for p in summary.players}


# --------------------------------------------------------------------------------------------
# Summary figures


def test_gandengyan_summary_figures(gdy_night):
    s = review.summary(gdy_night)
    assert [p.name for p in s.players] == ["Bo", "Ann", "Di", "Cy"]  # by standing
    f = by_name(s)
    assert {n: p.points for n, p in f.items()} == {"Ann": 12, "Bo": 13, "Cy": -20, "Di": -5}
    assert {n: p.money for n, p in f.items()} == {"Ann": Decimal("6"), "Bo": Decimal("6.5"),
                                                  "Cy": Decimal("-10"), "Di": Decimal("-2.5")}
    assert (s.hands, s.void) == (3, 1)
    assert s.first_at is not None and s.first_at <= s.last_at
    assert {n: p.hands for n, p in f.items()} == dict.fromkeys(GDY, 3)
    assert {n: p.won for n, p in f.items()} == {"Ann": 1, "Bo": 1, "Cy": 0, "Di": 1}
    assert {n: p.shut_out for n, p in f.items()} == {"Ann": 1, "Bo": 0, "Cy": 1, "Di": 1}
    assert {n: p.jokers for n, p in f.items()} == {"Ann": 0, "Bo": 1, "Cy": 3, "Di": 0}
    assert {n: p.biggest_win for n, p in f.items()} == {"Ann": 17, "Bo": 20, "Cy": None, "Di": 8}
    assert {n: p.biggest_loss for n, p in f.items()} == {"Ann": -4, "Bo": -6, "Cy": -10, "Di": -12}


def test_dealer_exception_off_does_not_count_the_opening_lead(ctx):
    table = scoring.create_table(game="gandengyan", name="XS", players=GDY, stake="1",
                                 rules={"shut_out": "double", "shut_out_dealer_exception": False})
    record(table, {"winner": "Bo", "dealer": "Ann", "losers": {
        "Ann": {"cards": 2}, "Cy": {"cards": 5, "played": False}, "Di": {"cards": 1}}})
    f = by_name(review.summary(table))
    assert {n: p.shut_out for n, p in f.items()} == {"Ann": 0, "Bo": 0, "Cy": 1, "Di": 0}


def test_threshold_shut_out_counts_cards(ctx):
    table = scoring.create_table(game="gandengyan", name="V1", players=GDY, stake="1",
                                 rules={"shut_out": "threshold:5"})
    record(table, {"winner": "Bo", "losers": {"Ann": {"cards": 5}, "Cy": {"cards": 4}, "Di": {"cards": 7}}})
    f = by_name(review.summary(table))
    assert {n: p.shut_out for n, p in f.items()} == {"Ann": 1, "Bo": 0, "Cy": 0, "Di": 1}


def test_names_with_json_path_characters(ctx):
    names = ['A"b', "c.d", "$e", "李'f"]
    table = scoring.create_table(game="gandengyan", name="odd", players=names, stake="1", rules={"shut_out": "double"})
    record(table, {"winner": "c.d", "losers": {'A"b': {"cards": 5, "played": False, "jokers": 1},
                                               "$e": {"cards": 1}, "李'f": {"cards": 2, "jokers": 2}}})
    f = by_name(review.summary(table))
    assert {n: (p.won, p.shut_out, p.jokers) for n, p in f.items()} == {
        'A"b': (0, 1, 1), "c.d": (1, 0, 0), "$e": (0, 0, 0), "李'f": (0, 0, 2)}
    copy = review.import_json(review.export_json(table))
    assert played(review.export_json(copy)) == played(review.export_json(table))


def test_dagong_summary_figures(dg_night):
    s = review.summary(dg_night)
    f = by_name(s)
    assert {n: p.points for n, p in f.items()} == {"P1": 6, "P2": -6, "P3": 6, "P4": -6}
    assert (s.hands, s.void) == (6, 1)
    assert {n: tuple(p.grouped()["places"][k] for k in ("first", "second", "third", "last")) for n, p in f.items()} == {
        "P1": (5, 0, 0, 0), "P2": (0, 3, 0, 0), "P3": (1, 1, 2, 1), "P4": (0, 0, 1, 2)}
    assert {n: p.grouped()["arch_wins"] for n, p in f.items()} == {
        "P1": {"half": 1, "straight": 1, "dry": 1}, "P2": {"half": 1, "straight": 0, "dry": 0},
        "P3": {"half": 1, "straight": 1, "dry": 1}, "P4": {"half": 1, "straight": 0, "dry": 0}}
    assert {n: (p.shouts_won, p.shouts_lost) for n, p in f.items()} == {
        "P1": (0, 0), "P2": (0, 0), "P3": (1, 1), "P4": (0, 0)}
    assert {n: p.banker for n, p in f.items()} == {"P1": 4, "P2": 0, "P3": 2, "P4": 0}
    assert {n: (p.biggest_win, p.biggest_loss) for n, p in f.items()} == {
        "P1": (4, -4), "P2": (4, -4), "P3": (12, -12), "P4": (4, -4)}


def count_queries(fn):
    statements = []

    def before(conn, cursor, statement, *args):
        statements.append(statement)

    engine = db.engine
    event.listen(engine, "before_cursor_execute", before)
    try:
        fn()
    finally:
        event.remove(engine, "before_cursor_execute", before)
    return len(statements)


def test_summary_sheet_and_chart_queries_do_not_grow_with_hands(gdy):
    facts = {"winner": "Ann", "losers": {"Bo": {"cards": 2}, "Cy": {"cards": 1}, "Di": {"cards": 3}}}
    record(gdy, facts)
    db.session.expire_all()
    small = [count_queries(lambda: review.summary(gdy)), count_queries(lambda: review.sheet_page(gdy)),
             count_queries(lambda: review.chart_series(gdy))]
    for _ in range(12):
        record(gdy, facts)
    db.session.expire_all()
    large = [count_queries(lambda: review.summary(gdy)), count_queries(lambda: review.sheet_page(gdy)),
             count_queries(lambda: review.chart_series(gdy))]
    assert small == large
    assert large[0] <= 4  # the table row, the figures, the money (points per stake played), the counts


def test_summary_page(client, gdy_night):
    page = client.get(f"/t/{gdy_night.public_id}/summary")
    assert page.status_code == 200
    html = page.get_data(as_text=True)
    text = text_of(page)
    assert "4 hands played, 1 void" in text  # issue 21: the hands recorded, then the void ones
    assert re.search(r"From \d{4}-\d\d-\d\d \d\d:\d\d UTC to \d\d:\d\d UTC \(0 min\)", text)
    assert re.search(r'<time datetime="[^"]+\+00:00" data-only="time">', html)  # app.js: the phone's zone
    assert re.search(r'<tr id="fig-shut_out">.*?</tr>', html, re.S)
    row = re.search(r'<tr id="fig-jokers">(.*?)</tr>', html, re.S).group(1)
    assert re.findall(r"<td[^>]*>([^<]*)</td>", row) == ["1", "0", "0", "3"]  # Bo Ann Di Cy, by standing
    assert "Cy pays Bo 6.50 ¥" in text and "Cy pays Ann 3.50 ¥" in text and "Di pays Ann 2.50 ¥" in text
    assert '@media print' in client.get("/static/css/review.css").get_data(as_text=True)


def test_no_shut_out_row_when_the_rules_have_none(client, gdy):
    record(gdy, {"winner": "Ann", "losers": {"Bo": {"cards": 5, "played": False}, "Cy": {"cards": 1},
                                             "Di": {"cards": 1}}})
    summary = review.summary(gdy)
    assert not summary.counts_shut_out and {p.shut_out for p in summary.players} == {0}
    html = client.get(f"/t/{gdy.public_id}/summary").get_data(as_text=True)
    assert 'id="fig-won"' in html and 'id="fig-shut_out"' not in html


def test_summary_of_an_empty_table(client, gdy):
    page = client.get(f"/t/{gdy.public_id}/summary")
    assert page.status_code == 200
    text = text_of(page)
    assert "0 hands played" in text and "Everyone is square" in text and "Player by player" not in text


def test_time_span_of_a_long_night(client, gdy_night):
    from datetime import timedelta

    first = db.session.scalars(select(Hand).where(Hand.table_id == gdy_night.id).order_by(Hand.number)).first()
    first.created_at = first.created_at - timedelta(hours=3, minutes=35)
    db.session.commit()
    text = text_of(client.get(f"/t/{gdy_night.public_id}/summary"))
    assert "(3 h 35 min)" in text


def test_dagong_summary_page_names_the_places(client, dg_night):
    text = text_of(client.get(f"/t/{dg_night.public_id}/summary"))
    for word in ("头游", "二游", "三游", "末游", "半拱", "直拱", "干带直", "Shouts won", "Hands as banker"):
        assert word in text


# --------------------------------------------------------------------------------------------
# Score sheet


def expected_running(table):
    """Running totals worked out in Python from each hand's own deltas (not by the window function)."""
    names = {p.id: p.name for p in table.players}
    totals = dict.fromkeys(names, 0)
    out = {}
    for hand in db.session.scalars(select(Hand).where(Hand.table_id == table.id).order_by(Hand.number)):
        for d in hand.deltas:
            if hand.status == "active":
                totals[d.player_id] += d.points
        out[hand.number] = {pid: ({d.player_id: d.points for d in hand.deltas}[pid], totals[pid]) for pid in names}
    return out


def test_sheet_running_totals_are_right_on_every_page(app, client, gdy_night):
    for i in range(5):
        record(gdy_night, {"winner": GDY[i % 4], "losers": {n: {"cards": 1 + i} for n in GDY if n != GDY[i % 4]}})
    scoring.void_hand(gdy_night, 6, revision=1)
    expected = expected_running(gdy_night)
    seen = {}
    for page in (1, 2, 3):
        for row in review.sheet_page(gdy_night, page, per_page=4):
            seen[row.number] = row.cells
            assert row.active == (row.number not in (3, 6))
    assert seen == expected
    # the page itself, three hands a page
    app.config["SHEET_PER_PAGE"] = 3
    html = client.get(f"/t/{gdy_night.public_id}/sheet?page=2").get_data(as_text=True)
    assert "Page 2 of 3" in text_of(client.get(f"/t/{gdy_night.public_id}/sheet?page=2"))
    row = re.search(r'<tr class="void" id="sheet-6">(.*?)</tr>', html, re.S).group(1)
    cells = re.findall(r'<span class="delta[^"]*" dir="ltr">([^<]*)</span><span class="running" dir="ltr">([^<]*)</span>',
                       row)
    ann = [p.id for p in gdy_night.players if p.name == "Ann"][0]
    delta, running = expected[6][ann]
    assert cells[0] == (f"+{delta}" if delta > 0 else f"−{-delta}" if delta < 0 else "0",
                        f"+{running}" if running > 0 else f"−{-running}" if running < 0 else "0")
    assert '<tr class="active" id="sheet-4">' in html and 'id="sheet-7"' not in html
    assert client.get(f"/t/{gdy_night.public_id}/sheet?page=4").status_code == 404


def test_sheet_of_an_empty_table(client, gdy):
    page = client.get(f"/t/{gdy.public_id}/sheet")
    assert page.status_code == 200 and "No hands yet." in text_of(page)


# --------------------------------------------------------------------------------------------
# Chart


def test_chart_is_an_accessible_svg_without_script(client, gdy_night):
    page = client.get(f"/t/{gdy_night.public_id}/chart")
    assert page.status_code == 200
    html = page.get_data(as_text=True)
    svg = re.search(r"<svg.*?</svg>", html, re.S).group(0)
    assert "<script" not in svg
    # labelled; a group (not an image) since each hand is a link a screen reader can reach (issue 33.2)
    assert re.search(r'<svg[^>]*role="group"', svg) and "aria-labelledby" in svg
    title = re.search(r"<svg[^>]*>\s*<title[^>]*>([^<]*)</title>\s*<desc[^>]*>([^<]*)</desc>", svg)
    assert title and "星期五 night" in title.group(1)
    assert "Ann +11" not in title.group(2) and "Ann +12" in title.group(2) and "Cy −20" in title.group(2)
    for name in GDY:
        assert f">{name}<" in svg  # the legend
    assert len(re.findall(r'class="line reactive nofill"', svg)) == 4  # a line per player
    assert "<style" not in svg and 'style="' not in svg  # the page's CSP allows no inline style
    stylesheet = re.search(r'<link rel="stylesheet" href="([^"]*chart\.css)"', html).group(1)
    css = client.get(stylesheet).get_data(as_text=True)
    assert "#0072B2" in css and "#D55E00" in css and "#running-totals" in css
    assert 'id="running-totals"' in svg
    assert "Only some hands are drawn" not in html  # every active hand is drawn (the void one is not a hand)


def test_chart_series_are_running_totals_and_thin_out(gdy_night):
    numbers, series, thinned = review.chart_series(gdy_night)
    assert numbers == [0, 1, 2, 4] and not thinned  # void hand 3 is left out
    assert series == {"Ann": [0, 17, 13, 12], "Bo": [0, -6, 14, 13], "Cy": [0, -10, -14, -20], "Di": [0, -1, -13, -5]}
    numbers, series, thinned = review.chart_series(gdy_night, points=2)
    assert numbers == [0, 2, 4] and series["Ann"] == [0, 13, 12] and thinned


def test_a_thinned_chart_says_so(app, client, gdy_night):
    app.config["CHART_POINTS"] = 2
    html = client.get(f"/t/{gdy_night.public_id}/chart").get_data(as_text=True)
    assert "Only some hands are drawn" in html


def test_the_chart_follows_every_change(client, gdy_night):
    before = client.get(f"/t/{gdy_night.public_id}/chart").get_data(as_text=True)
    assert client.get(f"/t/{gdy_night.public_id}/chart").get_data(as_text=True).count("Ann +12") == 1
    record(gdy_night, {"winner": "Cy", "losers": {"Ann": {"cards": 1}, "Bo": {"cards": 1}, "Di": {"cards": 1}}})
    after = client.get(f"/t/{gdy_night.public_id}/chart").get_data(as_text=True)
    assert "Ann +12" in before and "Ann +11" in after and "Cy −17" in after


def test_names_are_escaped_on_every_review_page(client, ctx):
    table = scoring.create_table(game="gandengyan", name="<b>night</b>", players=["<i>Li", "Chen&"], stake="1")
    record(table, {"winner": "<i>Li", "losers": {"Chen&": {"cards": 3}}})
    for path in ("sheet", "chart", "summary", "settle"):
        html = client.get(f"/t/{table.public_id}/{path}").get_data(as_text=True)
        assert "<i>Li" not in html and "<b>night" not in html, path
        assert "&lt;i&gt;Li" in html, path


def test_chart_of_an_empty_table(client, gdy):
    page = client.get(f"/t/{gdy.public_id}/chart")
    assert page.status_code == 200 and "<svg" not in page.get_data(as_text=True)


# --------------------------------------------------------------------------------------------
# Settle up


def test_settle_page_lists_the_transfers_and_the_text_to_copy(client, gdy_night):
    page = client.get(f"/t/{gdy_night.public_id}/settle")
    html = page.get_data(as_text=True)
    assert page.status_code == 200
    items = re.findall(r"<li>(.*?)</li>", re.search(r'<ol class="transfers".*?</ol>', html, re.S).group(0))
    assert len(items) == 3
    copy = re.search(r'<textarea id="settle-text"[^>]*>(.*?)</textarea>', html, re.S).group(1)
    assert copy.splitlines()[1:] == ["Cy pays Bo 6.50 ¥", "Cy pays Ann 3.50 ¥", "Di pays Ann 2.50 ¥"]
    assert 'class="button primary copy-button"' in html and "hidden" in html  # JavaScript shows the button
    assert "<script>" not in html  # no inline script
    assert "copy-button" in client.get("/static/js/review.js").get_data(as_text=True)


def test_settle_rounding_names_who_absorbs_the_cent(client, ctx):
    table = scoring.create_table(game="gandengyan", name="eighths", players=["Li", "Chen", "Wu"], stake="0.125")
    record(table, {"winner": "Li", "losers": {"Chen": {"cards": 1}, "Wu": {"cards": 10}}})  # +11 −1 −10
    record(table, {"winner": "Chen", "losers": {"Li": {"cards": 1}, "Wu": {"cards": 1}}})   # −1 +2 −1
    # exact: Li +1.25, Chen +0.125, Wu −1.375 -> 1.25, 0.12, −1.38: one cent short; Chen gets it.
    result = review.settle_table(table)
    assert result.rounded == {"Li": Decimal("1.25"), "Chen": Decimal("0.13"), "Wu": Decimal("-1.38")}
    text = re.sub(r"<[^>]+>", "", client.get(f"/t/{table.public_id}/settle").get_data(as_text=True))
    assert "Wu pays Li 1.25" in text and "Wu pays Chen 0.13" in text
    assert "Chen absorbs the rounding: +0.13 instead of exactly +0.125." in text


def test_settle_without_money_is_in_points(client, ctx):
    table = scoring.create_table(game="gandengyan", name="free", players=["Li", "Chen"], stake="0")
    record(table, {"winner": "Li", "losers": {"Chen": {"cards": 4}}})
    text = text_of(client.get(f"/t/{table.public_id}/settle"))
    assert "Chen pays Li 4 points" in text and "plays for no money" in text


def test_table_page_links_to_the_review(client, gdy_night):
    html = client.get(f"/t/{gdy_night.public_id}").get_data(as_text=True)
    for path in ("sheet", "chart", "summary", "settle", "export"):
        assert f'href="/t/{gdy_night.public_id}/{path}"' in html


# --------------------------------------------------------------------------------------------
# Export and import


def test_csv_has_a_bom_and_one_row_per_hand_and_player(client, gdy_night):
    response = client.get(f"/t/{gdy_night.public_id}/export.csv")
    assert response.status_code == 200 and response.mimetype == "text/csv"
    assert "attachment" in response.headers["Content-Disposition"]
    assert response.data.startswith(b"\xef\xbb\xbf")
    lines = response.data.decode("utf-8-sig").splitlines()
    assert lines[0] == "Hand,Status,Player,Points,Money (¥),What happened"
    assert len(lines) == 1 + 4 * 4
    assert lines[1] == "1,counts,Ann,17,8.5,dealer; went out first"
    assert lines[3] == "1,counts,Cy,-10,-5,cards left: 5; never played"
    assert lines[9].startswith("3,void,Ann,-4,-2,")


def test_csv_keeps_chinese_names(client, dg_night):
    text = client.get(f"/t/{dg_night.public_id}/export.csv").data.decode("utf-8-sig")
    assert "1,counts,P1,1,1,banker; 头游; points captured: 60; winning side" in text.splitlines()


def export(table) -> bytes:
    return review.export_json(table)


def played(data: bytes) -> dict:
    """What an import replays, from an export: the table's settings, players and each hand's facts,
    status, stake and points (times, revisions and the history are the import's own)."""
    doc = json.loads(data)
    table = {k: v for k, v in doc["table"].items() if k not in ("created_at", "updated_at", "revision", "archived_at")}
    hands = [{k: h[k] for k in ("number", "status", "facts", "outcome", "next_dealer", "points", "stake")}
             for h in doc["hands"]]
    return {"table": {**table, "archived": doc["table"]["archived_at"] is not None}, "players": doc["players"],
            "hands": hands}


def test_export_import_replays_the_same_night(gdy_night, dg_night):
    for table in (gdy_night, dg_night):
        first = export(table)
        doc = json.loads(first)
        assert doc["format_version"] == review.FORMAT_VERSION and doc["format"] == review.FORMAT
        assert table.public_id.encode() not in first and access.edit_token(table).encode() not in first
        copy = review.import_json(first)
        assert copy.id != table.id and copy.public_id != table.public_id
        assert copy.token_version == 1 and access.edit_token(copy) not in (None, access.edit_token(table))
        db.session.expire_all()
        assert played(export(copy)) == played(first)
        assert [(s.name, s.points, s.money) for s in review.standings(copy)] == \
               [(s.name, s.points, s.money) for s in review.standings(table)]
        assert review.summary(copy).players == [
            p.__class__(**{**p.__dict__, "player_id": q.player_id}) for p, q in
            zip(review.summary(table).players, review.summary(copy).players)]
        # the history: each hand recorded by the import (and voided, when void)
        events = scoring.history(copy)
        assert {e.device for e in events} == {review.IMPORT_DEVICE}
        assert sum(e.kind == "create" for e in events) == len(doc["hands"])
        assert sum(e.kind == "void" for e in events) == sum(h["status"] == "void" for h in doc["hands"])


def test_forged_points_are_refused_naming_the_hand(gdy_night):
    """The checksum is no signature: a file whose points were changed and re-summed is refused by the
    engine's settlement, with the hand's number; nothing is stored."""
    doc = json.loads(export(gdy_night))
    doc["hands"][1]["points"]["Ann"] += 2**40
    doc["hands"][1]["points"]["Bo"] -= 2**40
    doc["checksum"] = review._checksum(doc)
    before = snapshot()
    with pytest.raises(review.ImportRefused) as refused:
        review.import_json(json.dumps(doc).encode())
    assert refused.value.code == "points_differ"
    assert "Hand 2: the points in this file are not what the rules give" in str(refused.value.message)
    assert snapshot() == before


def test_the_files_history_is_kept_as_inert_text(client, gdy_night):
    copy = review.import_json(export(gdy_night))
    notes = [e for e in scoring.history(copy) if e.kind == scoring.NOTE]
    assert len(notes) == 1 and "void" in notes[0].after["imported"]  # hand 3 was recorded, then voided
    page = client.get(f"/t/{copy.public_id}/history")
    assert page.status_code == 200 and "UTC void" in text_of(page)


def test_an_imported_table_keeps_working(gdy_night):
    copy = review.import_json(export(gdy_night))
    hand = record(copy, {"winner": "Cy", "losers": {"Ann": {"cards": 1}, "Bo": {"cards": 1}, "Di": {"cards": 1}}})
    assert hand.number == 5
    event = scoring.undo_last(copy)  # undoing the new hand, then the void of hand 3 (history came along)
    assert event.hand.number == 5
    event = scoring.undo_last(copy)
    assert event.hand.number == 4


def test_import_page_recreates_the_table_and_remembers_it(client, gdy_night):
    data = export(gdy_night)
    response = client.post("/import", data={"file": (io.BytesIO(data), "night.json")},
                           content_type="multipart/form-data")
    assert response.status_code == 302
    public_id = response.headers["Location"].rsplit("/", 1)[1]
    assert public_id != gdy_night.public_id
    page = client.get(f"/t/{public_id}")
    assert "Record next hand" in text_of(page)  # this phone may record at the imported table
    assert "Imported: this is a new copy of the table" in text_of(page)
    # issue 21: the copy's name says it is one, in every list (the API's import stays exact)
    from flask_babel import format_date
    with client.application.test_request_context():
        day = format_date(datetime.date.today(), format="d MMM")
    assert f"(imported {day})" in text_of(page)
    assert f"(imported {day})" in text_of(client.get("/tables"))
    home = client.get("/").get_data(as_text=True)
    assert re.search(r'<form method="post" action="/import" enctype="multipart/form-data">\s*'
                     r'<input type="hidden" name="csrf_token"', home) and 'type="file"' in home


def damaged_docs(good: bytes):
    doc = json.loads(good)

    def resigned(change):
        d = json.loads(good)
        change(d)
        d["checksum"] = review._checksum(d)
        return json.dumps(d).encode()

    newer = json.loads(good)
    newer["format_version"] = review.FORMAT_VERSION + 1
    tampered = json.loads(good)
    tampered["hands"][0]["points"]["Ann"] += 1
    return {
        "truncated": (good[: len(good) // 2], "not complete JSON"),
        "not text": (b"\xff\xfe\x00garbage", "not a table exported"),
        "foreign": (json.dumps({"hello": "world"}).encode(), "not a table exported"),
        "newer": (json.dumps(newer).encode(), "newer version"),
        "tampered": (json.dumps(tampered).encode(), "checksum"),
        "not zero-sum": (resigned(lambda d: d["hands"][0]["points"].update(Ann=99)), "Hand 1: the points"),
        "unknown player": (resigned(lambda d: d["hands"][1]["points"].update(Zed=3)), "Hand 2: the points"),
        "bad event": (resigned(lambda d: d["events"][0].update(hand=99)), "events.0"),
        "unknown rules": (resigned(lambda d: d["table"]["rules"].update(no_such_switch=True)), "Unknown house rule"),
        "foreign game": (resigned(lambda d: d["table"].update(game="mahjong")), "does not know"),
        "bad time": (resigned(lambda d: d["events"][2].update(created_at="yesterday")), "events.2.created_at"),
        "duplicate hand": (resigned(lambda d: d["hands"][1].update(number=1)), "hands.1.number"),
        "hand number 2**31": (resigned(lambda d: d["hands"][1].update(number=2**31)), "hands.1.number"),
        "version 0": (resigned(lambda d: d.update(format_version=0)), "format_version"),
        "long name": (resigned(lambda d: d["players"][0].update(name="x" * 41)), "players.0.name"),
        "long notes": (resigned(lambda d: d["table"].update(notes="x" * 2001)), "notes are too long"),
        "NUL in a name": (resigned(lambda d: d["players"][0].update(name="A\x00")), "players.0.name"),
        "bidi override": (resigned(lambda d: d["players"][0].update(name="A\u202e")), "invisible"),
        "lone surrogate": (json.dumps({**doc, "table": {**doc["table"], "name": "\ud800"}}).encode(), "table.name"),
        "huge stake": (resigned(lambda d: d["hands"][0].update(stake="9E+999999")), "hands.0.stake"),
        "losers as a list": (resigned(lambda d: d["hands"][0]["facts"].update(losers=["Bo"])), "Hand 1 in this file"),
        "float": (resigned(lambda d: d["hands"][0]["points"].update(Ann=17.0)), "document"),
        "no checksum": (json.dumps({k: v for k, v in doc.items() if k != "checksum"}).encode(), "checksum"),
    }


def test_bad_files_are_refused_and_change_nothing(gdy_night):
    good = export(gdy_night)
    before = snapshot()
    for label, (data, message) in damaged_docs(good).items():
        with pytest.raises(review.ImportRefused) as refused:
            review.import_json(data)
        assert message in str(refused.value.message), label
        assert snapshot() == before, label


def test_import_page_refuses_a_bad_file_with_a_clear_message(client, gdy_night):
    before = snapshot()
    data = export(gdy_night)
    response = client.post("/import", data={"file": (io.BytesIO(data[:100]), "night.json")},
                           content_type="multipart/form-data")
    assert response.status_code == 400
    assert "This file is damaged: it is not complete JSON." in text_of(response)
    response = client.post("/import", data={}, content_type="multipart/form-data")
    assert response.status_code == 400 and "Choose the table's JSON file" in text_of(response)
    assert snapshot() == before


def test_import_needs_the_csrf_token(app, client, gdy_night):
    app.config["WTF_CSRF_ENABLED"] = True
    before = snapshot()
    response = client.post("/import", data={"file": (io.BytesIO(export(gdy_night)), "night.json")},
                           content_type="multipart/form-data")
    assert response.status_code == 400 and "nothing was saved" in text_of(response)
    assert snapshot() == before


def test_import_with_the_csrf_token_of_the_page(app, client, gdy_night):
    app.config["WTF_CSRF_ENABLED"] = True
    page = client.get("/import")
    token = re.search(r'name="csrf_token" value="([^"]+)"', page.get_data(as_text=True)).group(1)
    response = client.post("/import", data={"csrf_token": token, "file": (io.BytesIO(export(gdy_night)), "n.json")},
                           content_type="multipart/form-data")
    assert response.status_code == 302


def test_import_takes_a_long_night_beyond_the_usual_upload_limit(app, client, gdy):
    for i in range(20):
        record(gdy, {"winner": GDY[i % 4], "losers": {n: {"cards": 1 + i % 9} for n in GDY if n != GDY[i % 4]}})
    data = export(gdy)
    app.config["MAX_CONTENT_LENGTH"] = len(data) // 2  # every other form keeps the usual limit
    response = client.post("/device", data={"device": "x" * len(data)})
    assert response.status_code == 413
    response = client.post("/import", data={"file": (io.BytesIO(data), "n.json")}, content_type="multipart/form-data")
    assert response.status_code == 302
    app.config["IMPORT_MAX_BYTES"] = len(data) // 2
    response = client.post("/import", data={"file": (io.BytesIO(data), "n.json")}, content_type="multipart/form-data")
    assert response.status_code == 413


def test_import_is_one_transaction(gdy_night):
    """A failure while storing (after every check passed, with the table and hands already flushed)
    leaves nothing behind."""
    good = export(gdy_night)
    before = snapshot()

    def fail(*args):
        raise RuntimeError("disk full")

    event.listen(HandEvent, "before_insert", fail)
    try:
        with pytest.raises(RuntimeError):
            review.import_json(good)
    finally:
        event.remove(HandEvent, "before_insert", fail)
    assert snapshot() == before


# --------------------------------------------------------------------------------------------
# Layers


def test_review_layers():
    """companion.review imports no views, forms or CLI; the review views run no SQL themselves."""
    import ast
    import pathlib

    package = pathlib.Path(review.__file__).parent  # companion/review/
    root = package.parent
    modules = sorted(package.glob("*.py"))
    assert len(modules) > 1
    for path in modules:
        tree = ast.parse(path.read_text())
        imported = {node.module or "" for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)}
        imported |= {alias.name for node in ast.walk(tree) if isinstance(node, ast.Import) for alias in node.names}
        assert not {m for m in imported if m.split(".")[0] in ("views", "forms", "cli")
                    or any(part in m for part in ("companion.views", "companion.forms", "companion.cli"))}, path
    views = (root / "views" / "review.py").read_text()
    assert "select(" not in views and "db.session" not in views and "sqlalchemy" not in views


@given(st.lists(st.integers(-10**9, 10**9), min_size=1, max_size=30))
def test_chart_ticks_are_whole_round_and_cover_every_value(values):
    from companion.views.chart import whole_ticks

    ticks = whole_ticks(values)
    assert all(isinstance(t, int) for t in ticks) and 0 in ticks
    assert ticks[0] <= min(values) and ticks[-1] >= max(values)
    steps = {b - a for a, b in zip(ticks, ticks[1:])}
    assert len(steps) <= 1 and len(ticks) <= 11
    step = steps.pop() if steps else 1
    assert str(step).strip("0") in ("1", "2", "5")  # 1, 2, 5, 10, 20, 50 …
