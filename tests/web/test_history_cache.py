"""The history pages do not grow with the table (issue 22): the list of events is drawn once per
table revision, hand, page and language (companion/middleware/pagecache.py), so a second request reads only
the table; any write makes a new revision, so the change shows at once."""

from companion import scoring

from web_helpers import statements_during

PLAYERS = ["Ann", "Bo", "Cy", "Di"]


def facts(i):
    winner = PLAYERS[i % 4]
    return {"winner": winner, "losers": {p: {"cards": 1 + (i + k) % 7, "jokers": 0}
                                         for k, p in enumerate(PLAYERS) if p != winner}}


def statements(app, call):
    response, seen = statements_during(app, call)
    return response, len(seen)


def new_table(app, hands=0, name="History"):
    with app.app_context():
        table = scoring.create_table(game="gandengyan", name=name, players=PLAYERS, stake="0.5")
        for i in range(hands):
            scoring.record_hand(table, facts(i), request_id=f"h{i}")
        return table.public_id


def test_a_second_request_is_served_from_the_cache_at_any_size(app, client):
    public_id = new_table(app)
    counts = {}
    for start, stop in ((0, 30), (30, 120)):
        with app.app_context():
            table = scoring.get_table(public_id)
            for i in range(start, stop):
                scoring.record_hand(table, facts(i), request_id=f"h{i}")
        cold, cold_count = statements(app, lambda: client.get(f"/t/{public_id}/history"))
        warm, warm_count = statements(app, lambda: client.get(f"/t/{public_id}/history"))
        assert cold.status_code == warm.status_code == 200
        assert cold.get_data() == warm.get_data()
        assert cold_count > warm_count
        counts[stop] = (cold_count, warm_count)
    assert counts[30] == counts[120], counts
    assert counts[120][1] == 1, counts  # the table itself; the events come from the cache


def test_any_write_changes_the_page_at_once(app, client):
    public_id = new_table(app, hands=3)
    url = f"/t/{public_id}/history"
    before = client.get(url).get_data(as_text=True)
    assert before.count('class="event create"') == 3 and "voided" not in before
    with app.app_context():
        scoring.void_hand(scoring.get_table(public_id), 2, revision=1)
    after_void = client.get(url).get_data(as_text=True)
    assert after_void.count('class="event void"') == 1
    with app.app_context():
        scoring.record_hand(scoring.get_table(public_id), facts(9), request_id="late")
    after_new = client.get(url).get_data(as_text=True)
    assert after_new.count('class="event create"') == 4
    with app.app_context():
        scoring.update_table(scoring.get_table(public_id), name="Renamed")
    assert "Renamed" in client.get(url).get_data(as_text=True)


def test_kept_per_language_page_and_hand(app, client):
    app.config["HISTORY_PER_PAGE"] = 5
    public_id = new_table(app, hands=7)
    first = client.get(f"/t/{public_id}/history").get_data(as_text=True)
    second = client.get(f"/t/{public_id}/history?page=2").get_data(as_text=True)
    assert first.count('class="event create"') == 5 and second.count('class="event create"') == 2
    assert 'rel="next"' in first and 'rel="prev"' in second and 'rel="next"' not in second
    hand = client.get(f"/t/{public_id}/hands/3/history").get_data(as_text=True)
    assert hand.count('class="event create"') == 1 and "History of hand 3" in hand
    assert "History of changes" in client.get(f"/t/{public_id}/history?lang=en").get_data(as_text=True)
    french = client.get(f"/t/{public_id}/history?lang=fr").get_data(as_text=True)
    assert "History of changes" not in french and 'lang="fr"' in french
    assert client.get(f"/t/{public_id}/history?page=3").status_code == 404
    assert client.get(f"/t/{public_id}/history?page=3").status_code == 404  # a miss stores nothing


def test_the_read_budget_is_spent_when_a_page_is_drawn(app_maker):
    app = app_maker(RATELIMIT_ENABLED=True, RATE_LIMITS={"heavy_read": (2, 600)}, HISTORY_PER_PAGE=2)
    public_id = new_table(app, hands=5, name="Budget")
    client = app.test_client()
    for _ in range(5):  # drawn once, then kept: one count
        assert client.get(f"/t/{public_id}/history").status_code == 200
    assert client.get(f"/t/{public_id}/history?page=2").status_code == 200  # drawn: the second count
    refused = client.get(f"/t/{public_id}/history?page=3")  # a third drawing: past the budget
    assert refused.status_code == 429 and "downloaded a lot" in refused.get_data(as_text=True)
    assert client.get(f"/t/{public_id}/history?page=2").status_code == 200  # kept: no count, no refusal
    other = client.get(f"/t/{public_id}/history?page=3", environ_base={"REMOTE_ADDR": "10.9.9.9"})
    assert other.status_code == 200  # another address has its own budget
