"""The Alembic migrations build exactly the models' schema (SQLite here, PostgreSQL under make test-pg)."""
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from flask_migrate import downgrade, upgrade
from sqlalchemy import inspect, text

from companion import scoring
from companion.extensions import db


def _empty(app):
    with app.app_context():
        db.drop_all()
        with db.engine.begin() as conn:
            conn.execute(text("DROP TABLE IF EXISTS alembic_version"))


def test_migrations_match_the_models_and_keep_data(app, schema_rebuilt):
    _empty(app)
    try:
        with app.app_context():
            upgrade()
            names = set(inspect(db.engine).get_table_names())
            assert {"tables", "players", "hands", "hand_deltas", "hand_events", "alembic_version"} <= names
            with db.engine.connect() as conn:
                diff = compare_metadata(MigrationContext.configure(conn), db.metadata)
            assert diff == []
            table = scoring.create_table(game="gandengyan", name="kept", players=["A", "B"])
            scoring.record_hand(table, {"winner": "A", "losers": {"B": {"cards": 2, "jokers": 0}}},
                                request_id="r")
            upgrade()  # what make run does on every start: nothing to do, nothing lost
            db.session.expire_all()
            assert scoring.get_table(table.public_id).name == "kept"
            assert scoring.standings(table)[0].points == 2
            db.session.remove()
            downgrade(revision="base")
            assert "hands" not in inspect(db.engine).get_table_names()
            upgrade()
            assert "hands" in inspect(db.engine).get_table_names()
    finally:
        _empty(app)
        with app.app_context():
            db.create_all()
