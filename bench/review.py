"""Review speed: the summary, score sheet (its last page) and chart pages of one 干瞪眼 table, timed
in-process with the Flask test client. Prints p50 / p95 in ms; reports, never fails.

SQLite (a temp file): 1,000 hands, target p95 <= 50 ms each. With DATABASE_URL set to PostgreSQL
(e.g. ``scripts/with_pg.sh .venv/bin/python bench/review.py``): 10,000 hands, target p95 <= 150 ms.
The chart is timed cold (its drawing cache emptied before every request) and warm.
"""
import os
import sys
import tempfile
import time
import uuid

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
os.environ.setdefault("SECRET_KEY", "bench-secret")

from bench.sizes import size  # noqa: E402

RUNS = size("REVIEW_RUNS", 30, 2)
PLAYERS = ["Ann", "Bo", "Cy", "Di"]


def percentile(values, q):
    values = sorted(values)
    return values[min(len(values) - 1, max(0, round(q / 100 * (len(values) - 1))))]


def fill(table, hands: int) -> None:
    """Hands as the engine would store them, written in bulk (recording 10,000 hands one by one
    would time the recording, not the review)."""
    from companion.extensions import db
    from companion.db.models import Hand, HandDelta

    ids = {p.name: p.id for p in table.players}
    for i in range(hands):
        winner = PLAYERS[i % 4]
        losers = {p: {"cards": 1 + (i + k) % 7, "jokers": (i + k) % 2, "played": (i + k) % 11 != 0 or (i + k) % 7 < 4}
                  for k, p in enumerate(PLAYERS) if p != winner}
        points = {p: -(f["cards"] * (2 if f["jokers"] else 1) * (1 if f["played"] else 2)) for p, f in losers.items()}
        points[winner] = -sum(points.values())
        hand = Hand(table_id=table.id, number=i + 1, facts={"players": PLAYERS, "winner": winner, "losers": losers},
                    status="void" if i % 97 == 5 else "active", request_id=uuid.uuid4().hex,
                    outcome={"winners": [winner], "arch": None, "multiplier": 1}, next_dealer=winner,
                    stake_text="1" if i < hands // 2 else "2")  # the stake doubled half way
        hand.deltas = [HandDelta(player_id=ids[p], points=v) for p, v in points.items()]
        db.session.add(hand)
    table.hand_seq = hands
    db.session.commit()


def main():
    from sqlalchemy import text

    from companion import create_app, scoring
    from companion.extensions import db
    from companion.views import review as review_views

    postgres = bool(os.environ.get("DATABASE_URL"))
    hands, target = (10_000, 150.0) if postgres else (1_000, 50.0)
    hands = size("REVIEW_HANDS", hands, 20)
    with tempfile.TemporaryDirectory() as tmp:
        config = {"WTF_CSRF_ENABLED": False, "RATELIMIT_ENABLED": False}  # timing, not the read budget
        if not postgres:
            config["SQLALCHEMY_DATABASE_URI"] = f"sqlite:///{tmp}/bench.sqlite3"
        app = create_app(config)
        with app.app_context():
            db.drop_all()
            db.create_all()
            table = scoring.create_table(game="gandengyan", name="bench", players=PLAYERS, stake="0.5",
                                         rules={"shut_out": "double"})
            fill(table, hands)
            if postgres:
                with db.engine.connect().execution_options(isolation_level="AUTOCOMMIT") as conn:
                    conn.execute(text("ANALYZE"))
            public_id = table.public_id
            last = -(-hands // app.config.get("SHEET_PER_PAGE", 50))
        client = app.test_client()
        pages = {"summary": f"/t/{public_id}/summary", "sheet (last page)": f"/t/{public_id}/sheet?page={last}",
                 "chart (cold)": f"/t/{public_id}/chart", "chart (warm)": f"/t/{public_id}/chart",
                 "settle up": f"/t/{public_id}/settle"}
        print(f"Review pages, {hands:,} hands on {'PostgreSQL' if postgres else 'SQLite'} "
              f"(target p95 <= {target:.0f} ms):")
        for name, url in pages.items():
            times = []
            for _ in range(RUNS):
                if "cold" in name:
                    review_views._CHARTS.clear()
                start = time.perf_counter()
                response = client.get(url)
                times.append((time.perf_counter() - start) * 1000)
                assert response.status_code == 200, (url, response.status_code)
            p95 = percentile(times, 95)
            print(f"  {name:<18} p50 {percentile(times, 50):7.1f} ms   p95 {p95:7.1f} ms   "
                  f"{'ok' if p95 <= target else 'over target'}")
        with app.app_context():
            db.session.remove()
            if not postgres:
                db.engine.dispose()


if __name__ == "__main__":
    main()
