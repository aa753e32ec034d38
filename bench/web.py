"""Web speed: a 干瞪眼 table with 1,000 recorded hands on SQLite (temp dir), timed in-process with
the Flask test client. Prints p50 / p95 in ms for the table page and the record-hand POST.

Targets: table page p95 <= 25 ms, record POST p95 <= 30 ms.
"""
import os
import statistics
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
os.environ.pop("DATABASE_URL", None)
os.environ.setdefault("SECRET_KEY", "bench-secret")

from bench.sizes import size  # noqa: E402

HANDS = size("WEB_HANDS", 1000, 5)
RUNS = size("WEB_RUNS", 200, 3)
TARGETS = {"table page": 25.0, "record POST": 30.0}
PLAYERS = ["Ann", "Bo", "Cy", "Di"]


def percentile(values, q):
    values = sorted(values)
    index = min(len(values) - 1, max(0, round(q / 100 * (len(values) - 1))))
    return values[index]


def facts(i):
    winner = PLAYERS[i % 4]
    return {"winner": winner, "losers": {p: {"cards": 1 + (i + k) % 7, "jokers": (i + k) % 2}
                                         for k, p in enumerate(PLAYERS) if p != winner}}


def form(i):
    winner = i % 4
    data = {"winner": str(winner), "dealer": PLAYERS[(i - 1) % 4], "request_id": f"bench-{i}"}
    for seat in range(4):
        if seat != winner:
            data[f"cards_{seat}"] = str(1 + (i + seat) % 7)
            data[f"jokers_{seat}"] = str((i + seat) % 2)
    return data


def main():
    from companion import access, create_app, scoring
    from companion.extensions import db

    with tempfile.TemporaryDirectory() as tmp:
        app = create_app({"SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp}/bench.sqlite3",
                          "WTF_CSRF_ENABLED": False})
        with app.app_context():
            db.create_all()
            table = scoring.create_table(game="gandengyan", name="bench", players=PLAYERS, stake="0.5")
            start = time.perf_counter()
            for i in range(HANDS):
                scoring.record_hand(table, facts(i), request_id=f"seed-{i}")
            seeded = time.perf_counter() - start
            public_id, token = table.public_id, access.edit_token(table)
        client = app.test_client()
        assert client.post(f"/t/{public_id}/join", data={"key": token}).status_code == 303
        url = f"/t/{public_id}"
        results = {}
        for _ in range(min(20, RUNS)):  # warm up
            assert client.get(url).status_code == 200
        times = []
        for _ in range(RUNS):
            t0 = time.perf_counter()
            response = client.get(url)
            times.append((time.perf_counter() - t0) * 1000)
            assert response.status_code == 200
        results["table page"] = times
        times = []
        for i in range(HANDS, HANDS + RUNS):
            t0 = time.perf_counter()
            response = client.post(url + "/record", data=form(i))
            times.append((time.perf_counter() - t0) * 1000)
            assert response.status_code == 302, response.get_data(as_text=True)[:500]
        results["record POST"] = times
        with app.app_context():
            counted = scoring.hand_counts(scoring.get_table(public_id))[0]
        print(f"web: table with {HANDS} hands seeded in {seeded:.1f} s ({counted} hands after the run), "
              f"SQLite, {RUNS} runs each")
        print(f"{'request':<16} {'p50 ms':>8} {'p95 ms':>8} {'target p95':>11}")
        ok = True
        for name, values in results.items():
            p50, p95 = statistics.median(values), percentile(values, 95)
            good = p95 <= TARGETS[name]
            ok &= good
            print(f"{name:<16} {p50:>8.2f} {p95:>8.2f} {TARGETS[name]:>9.0f} {'ok' if good else 'SLOW'}")
        if not ok:
            print("web: a p95 is above its target on this machine")
        return 0


if __name__ == "__main__":
    sys.exit(main())
