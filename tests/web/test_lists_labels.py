"""Issue 21, item 6: lists and labels — each hand's money, stake and shout mark in the hand list,
"8 hands, 1 void", the draw for a first dealer/banker (offered only when nobody is suggested)."""
import re

from companion import scoring

from web_helpers import text_of

DG = {"banker": "P1", "partner": "P3", "order": ["P1", "P3"], "captured": {"P2": 0, "P4": 0}}


def hand_item(html: str, number: int) -> str:
    return re.search(rf'<li class="hand [a-z]+" id="hand-{number}">.*?</li>\s*</ul>', html, re.S).group(0)


def test_hand_list_shows_money_stake_and_shout(client, ctx):
    table = scoring.create_table(game="dagong", name="x", players=["P1", "P2", "P3", "P4"], stake="0.5",
                                 currency="¥", first_dealer="P1")
    scoring.record_hand(table, {"banker": "P1", "shout": "P2", "order": ["P2"]}, request_id="1")
    scoring.update_table(table, stake="2")
    scoring.record_hand(table, DG, request_id="2")
    html = client.get(f"/t/{table.public_id}").get_data(as_text=True)
    shout, later = hand_item(html, 1), hand_item(html, 2)
    assert "shout (独牌)" in shout and "shout (独牌)" not in later
    assert "One point = 0.5 ¥" in shout and "One point = 2 ¥" in later       # the stake changed in between
    assert '<b dir="ltr">+12</b> <span class="money" dir="ltr">+6 ¥</span>' in shout   # 12 × 0.5
    assert '<b dir="ltr">−4</b> <span class="money" dir="ltr">−8 ¥</span>' in later   # 4 × 2


def test_one_stake_all_night_shows_money_without_a_stake_tag(client, gdy):
    scoring.record_hand(gdy, {"winner": "Ann", "losers": {"Bo": {"cards": 3}, "Cy": {"cards": 1}, "Di": {"cards": 2}}}, request_id="1")
    html = client.get(f"/t/{gdy.public_id}").get_data(as_text=True)
    item = hand_item(html, 1)
    assert "stake-mark" not in item and 'class="money"' in item


def test_points_only_table_shows_no_money(client, ctx):
    table = scoring.create_table(game="gandengyan", name="x", players=["Ann", "Bo"], first_dealer="Ann")
    scoring.record_hand(table, {"winner": "Ann", "losers": {"Bo": {"cards": 3}}}, request_id="1")
    assert 'class="money"' not in hand_item(client.get(f"/t/{table.public_id}").get_data(as_text=True), 1)


def test_void_hands_are_counted_as_recorded(client, gdy):
    for i in range(8):
        scoring.record_hand(gdy, {"winner": "Ann", "losers": {"Bo": {"cards": 1}, "Cy": {"cards": 1}, "Di": {"cards": 1}}},
                            request_id=str(i))
    scoring.void_hand(gdy, 3, revision=1)
    page = text_of(client.get(f"/t/{gdy.public_id}"))
    assert "8 hands, 1 void" in page and "7 hands" not in page
    assert "8 hands played, 1 void" in text_of(client.get(f"/t/{gdy.public_id}/summary"))
    from flask_babel import refresh

    refresh()  # the test's app context keeps the locale of the last request
    zh = client.get(f"/t/{gdy.public_id}?lang=zh").get_data(as_text=True)
    assert re.search(r'id="hand-count">8 局，1 局作废<', zh), re.search(r'id="hand-count">[^<]*', zh).group(0)


def test_a_draw_is_offered_only_when_nobody_is_suggested(client, writer, ctx):
    table = scoring.create_table(game="gandengyan", name="x", players=["Ann", "Bo"])   # decided at the table
    writer(table)
    form = client.get(f"/t/{table.public_id}/record").get_data(as_text=True)
    assert 'id="draw-dealer"' in form and "{name} deals first (drawn by lot)." in form
    scoring.record_hand(table, {"winner": "Ann", "losers": {"Bo": {"cards": 3}}}, request_id="1")
    assert 'id="draw-dealer"' not in client.get(f"/t/{table.public_id}/record").get_data(as_text=True)
    dg = scoring.create_table(game="dagong", name="y", players=["P1", "P2", "P3", "P4"])
    writer(dg)
    assert 'id="draw-banker"' in client.get(f"/t/{dg.public_id}/record").get_data(as_text=True)
