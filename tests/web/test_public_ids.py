"""Table ids never start with "-" (issue 28): an id is also a command-line argument, where a leading
"-" reads as an option ("No such option" from `flask players <id>`, 1 id in 64 before). Ids made
before stay valid: after "--" the command takes them."""
from companion import scoring
from companion.extensions import db
from companion.db.models import new_public_id


def test_a_new_id_never_starts_with_a_dash():
    ids = [new_public_id() for _ in range(5000)]  # before: (63/64)^5000 ≈ 1e-34 of passing
    assert not [i for i in ids if i.startswith("-")]
    assert len(set(ids)) == 5000 and {len(i) for i in ids} == {22}
    assert sum(i.startswith("_") for i in ids) > 0  # still the whole URL-safe alphabet otherwise


def test_an_old_id_with_a_dash_works_after_double_dash(runner, app):
    with app.app_context():
        table = scoring.create_table(game="gandengyan", name="old id", players=["Ana", "Bo", "Chen"])
        table.public_id = "-" + table.public_id[1:]
        db.session.commit()
        public_id = table.public_id
    result = runner.invoke(args=["players", "--", public_id, "Ana", "Bo", "Chen", "Eve"])
    assert result.exit_code == 0, result.output
    assert result.output.splitlines()[0] == "players: Ana, Bo, Chen, Eve"
    assert "after \"--\"" in runner.invoke(args=["players", "--help"]).output
