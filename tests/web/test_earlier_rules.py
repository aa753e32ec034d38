"""Hands recorded under earlier rules (issue 29): a database written by an early version of the app
(schema a8feb7a0cc4d, tests/web/fixtures/earlier_rules_a8feb7a0cc4d.sqlite, made by
fixtures/make_earlier_rules.py with the app of that time) holds 大冶打拱 hands whose finishing
order goes on past an E12 early end, which that engine accepted and today's refuses. Upgraded in
place, on SQLite and PostgreSQL, every view of them still reads them, counts them and marks them.
"""
import csv
import io
import json
import logging
import sqlite3
from pathlib import Path

from flask_migrate import upgrade
from sqlalchemy import text

from companion import access, review, scoring
from companion.extensions import db

FIXTURE = Path(__file__).parent / "fixtures" / "earlier_rules_a8feb7a0cc4d.sqlite"
TABLES = ("tables", "players", "hands", "hand_deltas", "hand_events")  # the schema of revision a8feb7a0cc4d


class _Heard(logging.Handler):
    """The migration's warnings (alembic's own logging config does not propagate them to caplog)."""

    def __init__(self):
        super().__init__(logging.WARNING)
        self.lines = []

    def emit(self, record):
        self.lines.append(record.getMessage())

    def __enter__(self):
        logging.getLogger("alembic.runtime.migration").addHandler(self)
        return self

    def __exit__(self, *exc):
        logging.getLogger("alembic.runtime.migration").removeHandler(self)


def _empty(app):
    with app.app_context():
        db.drop_all()
        with db.engine.begin() as conn:
            conn.execute(text("DROP TABLE IF EXISTS alembic_version"))


def _load_fixture():
    """The fixture's rows, copied as they are into this database at the fixture's revision."""
    source = sqlite3.connect(FIXTURE)
    source.row_factory = sqlite3.Row
    assert source.execute("SELECT version_num FROM alembic_version").fetchone()[0] == "a8feb7a0cc4d"
    with db.engine.begin() as conn:
        for name in TABLES:
            rows = [dict(r) for r in source.execute(f"SELECT * FROM {name} ORDER BY id")]  # noqa: S608 (names: TABLES)
            if rows:
                columns = list(rows[0])
                conn.execute(text(f"INSERT INTO {name} ({', '.join(columns)}) VALUES "  # noqa: S608 (fixture)
                                  f"({', '.join(':' + c for c in columns)})"), rows)
            if conn.dialect.name == "postgresql":
                conn.execute(text(f"SELECT setval(pg_get_serial_sequence('{name}', 'id'), "  # noqa: S608
                                  f"(SELECT max(id) FROM {name}))"))
    source.close()


def _upgraded(app) -> list:
    _empty(app)
    with app.app_context():
        upgrade(revision="a8feb7a0cc4d")
        _load_fixture()
        with _Heard() as heard:
            upgrade()
    return heard.lines


def _all_tables():
    from companion.db.models import Table
    return list(db.session.scalars(db.select(Table)))


def test_an_early_database_with_hands_under_earlier_rules_reads_in_every_view(app, client, schema_rebuilt, writer):
    try:
        assert _upgraded(app) == []  # every hand settles, today or as it was recorded: nothing to report
        with app.app_context():
            dg = next(t for t in _all_tables() if t.name == "Old night")
            base = f"/t/{dg.public_id}"
            # The hand page: the result line, "How it was counted" and the mark with the engine's reason.
            for number in (2, 4):
                page = client.get(f"{base}/hands/{number}").get_data(as_text=True)
                assert 'id="earlier-rules"' in page and "Recorded under earlier rules." in page, number
                assert "the finishing order stops at" in page, number
                assert 'id="arch"' in page and "How it was counted" in page, number
            page1 = client.get(f"{base}/hands/1").get_data(as_text=True)
            assert 'id="earlier-rules"' not in page1 and "How it was counted" in page1
            # The API's hand answer: steps and the reason.
            answer = client.get(f"/api/v1/tables/{dg.public_id}/hands/2").get_json()
            assert answer["steps"] and "went out first and second" in " ".join(answer["steps"])
            assert "finishing order stops at Cy" in answer["earlier_rules"]
            assert answer["deltas"] == {"Ann": 2, "Bo": -2, "Cy": 2, "Di": -2}
            # Counted everywhere: standings, sheet, chart, summary (4 hands: 4 头游; the shouter banks hand 3).
            assert {s.name: s.points for s in scoring.standings(dg)} == {"Ann": -5, "Bo": 13, "Cy": -5, "Di": -3}
            summary = {p.name: p for p in review.summary(dg).players}
            assert sum(p.first_out for p in summary.values()) == 4
            assert {n: p.banker for n, p in summary.items()} == {"Ann": 2, "Bo": 2, "Cy": 0, "Di": 0}
            for path in ("", "/sheet", "/chart", "/summary", "/settle", "/history", "/hands/2/history"):
                assert client.get(base + path).status_code == 200, path
            rows = list(csv.reader(io.StringIO(client.get(base + "/export.csv").get_data(as_text=True).lstrip("\ufeff"))))
            assert len(rows) == 1 + 4 * 4
            # The table's own export imports back, with the same points.
            document = client.get(base + "/export.json").get_data()
            copy = scoring.import_document(document)
            assert {s.name: s.points for s in scoring.standings(copy)} == {"Ann": -5, "Bo": 13, "Cy": -5, "Di": -3}
            assert json.loads(document)["hands"][1]["facts"]["order"] == ["Ann", "Cy", "Bo", "Di"]
            # The form to correct it says so too.
            access.reset_token(dg)  # a table of that time: its old token cannot be shown again
            writer(dg)
            form = client.get(f"{base}/hands/2/edit").get_data(as_text=True)
            assert 'id="earlier-rules"' in form and "the finishing order stops at" in form
            # Renaming a player is not blocked by them; saving one unchanged is not refused.
            scoring.change_players(dg, [{"name": "Anna", "was": "Ann"}, "Bo", "Cy", "Di"])
            hand2 = scoring.get_hand(dg, 2)
            assert hand2.facts["order"] == ["Anna", "Cy", "Bo", "Di"]
            scoring.edit_hand(dg, 2, dict(hand2.facts), revision=hand2.revision)
            # Corrected to what today's rules accept, it loses the mark and keeps its points.
            hand2 = scoring.get_hand(dg, 2)
            facts = dict(hand2.facts, order=["Anna", "Cy"], captured={"Bo": 20, "Di": 15})
            scoring.edit_hand(dg, 2, facts, revision=hand2.revision)
            page = client.get(f"{base}/hands/2").get_data(as_text=True)
            assert 'id="earlier-rules"' not in page and "How it was counted" in page
            assert {s.name: s.points for s in scoring.standings(dg)} == {"Anna": -5, "Bo": 13, "Cy": -5, "Di": -3}
    finally:
        _empty(app)
        with app.app_context():
            db.create_all()


def test_the_tally_migration_reports_each_hand_it_cannot_settle(app, schema_rebuilt):
    """A hand no engine reading settles (its facts damaged) is named in the migration's output."""
    from companion.scoring.retally import write_tallies

    try:
        _upgraded(app)
        with app.app_context():
            with db.engine.begin() as conn, _Heard() as heard:
                conn.execute(text("UPDATE hands SET facts = :f WHERE id = 3"),
                             {"f": json.dumps({"banker": "Nobody", "players": ["Ann", "Bo", "Cy", "Di"]})})
                failed = write_tallies(conn, replace=True)
            public_id = next(t for t in _all_tables() if t.name == "Old night").public_id
            assert [(p, n) for p, n, _ in failed] == [(public_id, 3)]
            assert any(f"table {public_id}, hand 3 could not be settled again" in line and "Nobody" in line
                       for line in heard.lines)
    finally:
        _empty(app)
        with app.app_context():
            db.create_all()
