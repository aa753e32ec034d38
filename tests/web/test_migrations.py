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


def _without_inline_person_fk(conn, diff):
    """SQLite: ``players.person_id`` was added with an inline ``REFERENCES people (id) ON DELETE SET
    NULL`` (the only way to add a foreign key without copying the table), whose ON DELETE SQLAlchemy
    does not read back, so compare_metadata reports that key as removed and added again. Check the
    key as SQLite itself sees it, then leave exactly that pair out of the comparison."""
    keys = [tuple(row[2:7]) for row in conn.execute(text("PRAGMA foreign_key_list(players)"))]
    assert ("people", "person_id", "id", "NO ACTION", "SET NULL") in keys

    def person_fk(entry):
        return (entry[0] in ("remove_fk", "add_fk") and entry[1].table.name == "players"
                and [c.name for c in entry[1].columns] == ["person_id"])
    assert sorted(e[0] for e in diff if person_fk(e)) in ([], ["add_fk", "remove_fk"])
    return [e for e in diff if not person_fk(e)]


def test_migrations_match_the_models_and_keep_data(app, schema_rebuilt):
    _empty(app)
    try:
        with app.app_context():
            upgrade()
            names = set(inspect(db.engine).get_table_names())
            assert {"tables", "players", "hands", "hand_deltas", "hand_events", "people", "alembic_version"} <= names
            with db.engine.connect() as conn:
                diff = compare_metadata(MigrationContext.configure(conn), db.metadata)
                if conn.dialect.name == "sqlite":
                    diff = _without_inline_person_fk(conn, diff)
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


def test_the_token_migration_keeps_existing_tokens_working_and_stores_only_their_hash(app, schema_rebuilt):
    """A table made before tokens were derived: after the upgrade its old token still works (API
    clients, phones), it is stored nowhere but as a hash, and it cannot be shown again (version 0).
    The players and hands survive (no table copy that would cascade-delete them)."""
    from companion import access

    _empty(app)
    token = "legacy-token-0123456789abcdefghij"
    try:
        with app.app_context():
            upgrade(revision="c7d8e9f0a1b2")
            with db.engine.begin() as conn:
                conn.execute(text(
                    "INSERT INTO tables (id, public_id, edit_token, game, name, stake, currency, rules, rules_version,"
                    " notes, created_at, updated_at, revision, hand_seq) VALUES (1, 'legacypublicid0000001', :token,"
                    " 'gandengyan', 'old', '0', '', '{}', 1, '', '2026-01-01 00:00:00', '2026-01-01 00:00:00', 1, 0)"),
                    {"token": token})
                conn.execute(text("INSERT INTO players (id, table_id, seat, name) VALUES (1, 1, 0, 'A'), (2, 1, 1, 'B')"))
            upgrade()
            assert "edit_token" not in {c["name"] for c in inspect(db.engine).get_columns("tables")}
            with db.engine.connect() as conn:
                row = conn.execute(text("SELECT * FROM tables")).mappings().one()
                assert conn.execute(text("SELECT count(*) FROM players")).scalar() == 2
            assert token not in repr(dict(row)) and row["token_version"] == 0
            table = scoring.get_table("legacypublicid0000001")
            assert scoring.check_edit_token(table, token) and not scoring.check_edit_token(table, token + "x")
            assert access.edit_token(table) is None  # a legacy token is never shown again
            new = access.reset_token(table)
            assert table.token_version == 1 and scoring.check_edit_token(table, new)
            assert not scoring.check_edit_token(table, token)
            db.session.remove()
            downgrade(revision="c7d8e9f0a1b2")  # the derived token is written back: links keep working
            with db.engine.connect() as conn:
                assert conn.execute(text("SELECT edit_token FROM tables")).scalar() == new
    finally:
        _empty(app)
        with app.app_context():
            db.create_all()


def test_the_stake_migration_gives_every_existing_hand_its_tables_stake(app, schema_rebuilt):
    """Hands recorded before stakes were kept per hand were all played at the table's stake: after
    the upgrade each carries it, so the money shown does not change."""
    _empty(app)
    try:
        with app.app_context():
            upgrade(revision="e5f6a7b8c9d0")
            with db.engine.begin() as conn:
                for tid, stake in ((1, "0.5"), (2, "3")):
                    conn.execute(text(
                        "INSERT INTO tables (id, public_id, token_version, edit_token_hash, game, name, stake, currency,"
                        " rules, rules_version, notes, created_at, updated_at, revision, hand_seq) VALUES (:id, :pid, 1,"
                        " 'h', 'gandengyan', 'old', :stake, '', '{}', 1, '', '2026-01-01 00:00:00',"
                        " '2026-01-01 00:00:00', 1, 1)"), {"id": tid, "pid": f"stakepublicid00000{tid}", "stake": stake})
                    conn.execute(text(
                        "INSERT INTO hands (id, table_id, number, facts, status, request_id, revision, outcome,"
                        " created_at, updated_at) VALUES (:id, :id, 1, '{}', 'active', 'r', 1, '{}',"
                        " '2026-01-01 00:00:00', '2026-01-01 00:00:00')"), {"id": tid})
            upgrade()
            with db.engine.connect() as conn:
                stakes = dict(conn.execute(text("SELECT table_id, stake FROM hands")).all())
            assert stakes == {1: "0.5", 2: "3"}
            db.session.remove()
            downgrade(revision="e5f6a7b8c9d0")  # in place: no table copy that would cascade-delete hands
            with db.engine.connect() as conn:
                assert conn.execute(text("SELECT count(*) FROM hands")).scalar() == 2
                assert conn.execute(text("SELECT count(*) FROM tables")).scalar() == 2
    finally:
        _empty(app)
        with app.app_context():
            db.create_all()


def test_the_people_migration_keeps_players_and_hands_both_ways(app, schema_rebuilt):
    """Adding and dropping ``players.person_id`` copies no table (a copy of ``players`` would
    cascade-delete every hand delta on SQLite); deleting a person unlinks its players."""
    from companion.db.models import Person, Player

    def deltas():
        with db.engine.connect() as conn:
            return conn.execute(text("SELECT count(*) FROM hand_deltas")).scalar()

    _empty(app)
    try:
        with app.app_context():
            upgrade()
            table = scoring.create_table(game="gandengyan", name="kept", players=["A", "B"])
            scoring.record_hand(table, {"winner": "A", "losers": {"B": {"cards": 2, "jokers": 0}}},
                                request_id="r")
            db.session.remove()
            downgrade(revision="a1b2c3d4e5f7")
            assert "people" not in inspect(db.engine).get_table_names()
            assert "person_id" not in {c["name"] for c in inspect(db.engine).get_columns("players")}
            assert deltas() == 2
            upgrade()
            assert "person_id" in {c["name"] for c in inspect(db.engine).get_columns("players")}
            assert deltas() == 2
            person = Person(name="A")
            db.session.add(person)
            db.session.flush()
            player = db.session.scalars(db.select(Player).where(Player.name == "A")).one()
            player.person_id = person.id
            db.session.commit()
            with db.engine.begin() as conn:
                conn.execute(text("DELETE FROM people"))
            db.session.expire_all()
            assert db.session.get(Player, player.id).person_id is None
            assert deltas() == 2
            db.session.remove()
    finally:
        _empty(app)
        with app.app_context():
            db.create_all()


def test_the_players_come_and_go_migration_keeps_players_and_deltas_both_ways(app, schema_rebuilt):
    """Issue 21: ``players.former_seat`` and ``player_changes`` are added and dropped in place (no copy
    of ``players``, which would cascade-delete its hand deltas on SQLite); existing players stay
    seated and their totals stay."""
    _empty(app)
    try:
        with app.app_context():
            upgrade(revision="b7c8d9e0f1a2")
            with db.engine.begin() as conn:
                conn.execute(text(
                    "INSERT INTO tables (id, public_id, token_version, edit_token_hash, game, name, stake, currency,"
                    " rules, rules_version, notes, created_at, updated_at, revision, hand_seq) VALUES (1,"
                    " 'comegopublicid0000001', 1, 'h', 'gandengyan', 'old', '0', '', '{}', 1, '',"
                    " '2026-01-01 00:00:00', '2026-01-01 00:00:00', 1, 1)"))
                conn.execute(text("INSERT INTO players (id, table_id, seat, name) VALUES (1, 1, 0, 'A'), (2, 1, 1, 'B')"))
                conn.execute(text(
                    "INSERT INTO hands (id, table_id, number, facts, status, request_id, revision, outcome, stake,"
                    " created_at, updated_at) VALUES (1, 1, 1, '{\"players\": [\"A\", \"B\"], \"winner\": \"A\","
                    " \"losers\": {\"B\": {\"cards\": 2}}}', 'active', 'r', 1, '{}', '0', '2026-01-01 00:00:00',"
                    " '2026-01-01 00:00:00')"))
                conn.execute(text("INSERT INTO hand_deltas (id, hand_id, player_id, points) VALUES (1, 1, 1, 2),"
                                  " (2, 1, 2, -2)"))
                if conn.dialect.name == "postgresql":  # rows inserted with their ids: move the sequence on
                    conn.execute(text("SELECT setval('players_id_seq', 10)"))
            upgrade()
            table = scoring.get_table("comegopublicid0000001")
            assert table.player_names == ["A", "B"] and [p.former_seat for p in table.players] == [None, None]
            scoring.change_players(table, ["A", "B", "C"])  # the new table holds the change
            assert {row.name: row.points for row in scoring.standings(table)} == {"A": 2, "B": -2, "C": 0}
            db.session.remove()
            downgrade(revision="b7c8d9e0f1a2")
            with db.engine.connect() as conn:
                assert conn.execute(text("SELECT count(*) FROM hand_deltas")).scalar() == 2
                assert "player_changes" not in inspect(db.engine).get_table_names()
    finally:
        _empty(app)
        with app.app_context():
            db.create_all()
