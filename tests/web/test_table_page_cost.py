"""The table page does not grow with the table (issue 22): a fixed number of SQL statements at any
number of hands (one page of hands, one aggregate per figure), and the parts that change only with
the table — the live block, the house rules — are cached per table revision, so a change shows at once."""
from companion import access, scoring
from web_helpers import statements_during

PLAYERS = ["Ann", "Bo", "Cy", "Di"]


def facts(i):
    winner = PLAYERS[i % 4]
    return {"winner": winner, "losers": {p: {"cards": 1 + (i + k) % 7, "jokers": 0}
                                         for k, p in enumerate(PLAYERS) if p != winner}}


def grow(app, public_id, start, stop):
    with app.app_context():
        table = scoring.get_table(public_id)
        for i in range(start, stop):
            scoring.record_hand(table, facts(i), request_id=f"h{i}")


def test_the_page_costs_the_same_statements_at_30_and_at_120_hands(app, client):
    with app.app_context():
        table = scoring.create_table(game="gandengyan", name="Growing", players=PLAYERS, stake="0.5")
        public_id, token = table.public_id, access.edit_token(table)
    assert client.post(f"/t/{public_id}/join", data={"key": token}).status_code == 303
    counts = {}
    for start, stop in ((0, 30), (30, 120)):
        grow(app, public_id, start, stop)
        cold, cold_seen = statements_during(app, lambda: client.get(f"/t/{public_id}"))  # a new revision: rendered
        warm, warm_seen = statements_during(app, lambda: client.get(f"/t/{public_id}"))  # cached
        assert cold.status_code == warm.status_code == 200
        counts[stop] = (len(cold_seen), len(warm_seen))
    assert counts[30] == counts[120], counts
    assert counts[120][1] == 1, counts  # the table itself; everything else comes from the caches


def test_a_change_of_notes_or_rules_shows_at_once(app, client):
    with app.app_context():
        table = scoring.create_table(game="gandengyan", name="Cached", players=PLAYERS, notes="first notes")
        public_id = table.public_id
    assert "first notes" in client.get(f"/t/{public_id}").get_data(as_text=True)
    with app.app_context():
        scoring.update_table(scoring.get_table(public_id), notes="second notes")
    page = client.get(f"/t/{public_id}").get_data(as_text=True)
    assert "second notes" in page and "first notes" not in page
    french = client.get(f"/t/{public_id}?lang=fr").get_data(as_text=True)
    assert "Règles maison de cette table" in french  # the rules block is cached per language too
    assert "House rules of this table" in client.get(f"/t/{public_id}?lang=en").get_data(as_text=True)
