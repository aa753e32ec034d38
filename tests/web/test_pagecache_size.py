"""The page cache is bounded by what it holds, not by a number of entries (issue 34): the parts
of a few hundred tables in use all stay (a bound of 1,024 entries evicted them at ~150 tables,
and every page load then drew its parts again), and a few large parts cannot push it past its
size."""
import pytest

from companion.middleware.pagecache import FragmentCache


def test_many_small_parts_stay_where_an_entry_count_would_have_evicted_them():
    cache = FragmentCache(max_chars=10_000_000)
    for table in range(800):  # 800 tables × 7 parts, as a busy evening's table pages
        for part in range(7):
            cache.put((table, part), "x" * 1_000)
    assert all(cache.get((table, part)) is not None for table in range(800) for part in range(7))


def test_the_least_recently_used_parts_go_first_when_the_size_is_reached():
    cache = FragmentCache(max_chars=10_000)
    for i in range(10):
        cache.put(i, "y" * 800)  # 1,000 counted each (800 + the key's share)
    cache.get(0)  # used again: kept
    cache.put("big", "z" * 3_000)
    assert cache.chars <= 10_000
    assert cache.get(0) is not None and cache.get("big") is not None
    assert cache.get(1) is None and cache.get(2) is None and cache.get(3) is None  # the oldest went
    assert cache.get(9) is not None


def test_replacing_a_part_counts_it_once():
    cache = FragmentCache(max_chars=10_000)
    for _ in range(100):
        cache.put("same", "w" * 500)
    assert cache.chars == 700 and len(cache.entries) == 1
    cache.clear()
    assert cache.chars == 0 and cache.get("same") is None


@pytest.mark.db
def test_a_page_served_with_its_kept_share_cards_draws_no_qr_code(app, client, monkeypatch):
    """The QR codes are drawn where the share cards are drawn, not on every page load: past the
    QR codes' own small cache (a few hundred tables) each page load drew one again."""
    from companion import scoring
    from companion.sharing import links as sharing
    from companion.middleware.pagecache import fragments

    with app.app_context():
        public_id = scoring.create_table(game="gandengyan", name="QR", players=["Ann", "Bo", "Cy"]).public_id
    drawn = []
    real = sharing.qr_svg.__wrapped__
    monkeypatch.setattr(sharing, "qr_svg", lambda url, title="": drawn.append(url) or real(url, title))
    fragments.clear()
    first = client.get(f"/t/{public_id}").get_data(as_text=True)
    assert len(drawn) == 1 and first.count("<svg") >= 1  # drawn once, with the share cards
    second = client.get(f"/t/{public_id}").get_data(as_text=True)
    assert len(drawn) == 1  # the kept share cards: nothing drawn
    assert second.count('<svg xmlns="http://www.w3.org/2000/svg"') == first.count('<svg xmlns="http://www.w3.org/2000/svg"') == 1
