"""flask check / settle / demo, through the ``runner`` fixture."""
import json

import pytest

S1 = {"game": "gandengyan", "players": ["A", "B", "C", "D"], "winner": "A",
      "losers": {"B": {"cards": 3, "jokers": 0}, "C": {"cards": 5, "jokers": 1}, "D": {"cards": 1, "jokers": 0}}}


@pytest.mark.parametrize("args,legal", [
    (["7", "8"], True),
    (["7", "9"], False),
    (["5 5", "6 JK"], True),
    (["5 5", "2 JK"], False),
    (["--game", "dagong", "5h 10c Ks", "5d 10d Kd"], True),
    (["--game", "dagong", "5h 10c Ks", "5d 10s Ks"], False),
    (["--preset", "qq", "8 8 8", "J J J"], True),
    (["8 8 8", "J J J"], False),
    (["--rules", '{"joker_bomb": "top"}', "5 5", "SJ BJ"], True),
    (["5 5", "SJ BJ"], False),
])
def test_check_command(runner, args, legal):
    result = runner.invoke(args=["check", *args])
    assert result.exit_code == (0 if legal else 1), result.output
    first = result.output.splitlines()[0]
    assert first.startswith("legal (" if legal else "illegal (")
    assert len(first.split(":", 1)[1].strip()) > 10  # the one-sentence reason


def test_check_command_lead_and_readings(runner):
    result = runner.invoke(args=["check", "-", "5 SJ BJ"])
    assert result.exit_code == 0, result.output
    assert "all readings:" in result.output and "5 5 5" in result.output


def test_check_command_json_is_the_api_answer(runner, client):
    result = runner.invoke(args=["check", "--json", "4 5 6", "5 6 JK"])
    assert result.exit_code == 0
    cli = json.loads(result.output)
    api = client.post("/api/v1/check", json={"game": "gandengyan", "previous": "4 5 6", "play": "5 6 JK"}).get_json()
    assert cli == api


@pytest.mark.parametrize("args,words", [
    (["7", "4 5 1"], ["'1'", "position 3", "[play]"]),
    (["7x", "8"], ["[previous]"]),
    (["--preset", "nope", "7", "8"], ["nope", "[preset]"]),
    (["--rules", "{bad json", "7", "8"], ["JSON"]),
    (["--rules", '{"no_such": 1}', "7", "8"], ["[rules.no_such]"]),
    (["--players", "9", "7", "8"], ["[players]"]),
])
def test_check_command_bad_input(runner, args, words):
    result = runner.invoke(args=["check", *args])
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output
    for word in words:
        assert word in result.output


def test_settle_from_file(runner, tmp_path):
    path = tmp_path / "hand.json"
    path.write_text(json.dumps(S1))
    result = runner.invoke(args=["settle", str(path)])
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    deltas = dict(line.split() for line in lines[:4])
    assert deltas == {"A": "+14", "B": "-3", "C": "-10", "D": "-1"}
    assert any(line.startswith("- ") and "C" in line for line in lines)  # the steps


def test_settle_with_a_stake_shows_money_and_points(runner, tmp_path):
    path = tmp_path / "hand.json"
    path.write_text(json.dumps({**S1, "stake": 0.5}))
    result = runner.invoke(args=["settle", str(path)])
    assert result.exit_code == 0, result.output
    assert result.output.splitlines()[0].split() == ["A", "+7", "(+14", "points)"]


def test_settle_from_stdin_json(runner):
    body = {"game": "dagong", "players": ["P1", "P2", "P3", "P4"], "banker": "P1", "partner": "P3",
            "shout": None, "order": ["P1", "P2", "P3", "P4"],
            "captured": {"P1": 60, "P2": 50, "P3": 30, "P4": 40}, "last_hand_points": 20, "stake": 5}
    result = runner.invoke(args=["settle", "--json", "-"], input=json.dumps(body))
    assert result.exit_code == 0, result.output
    answer = json.loads(result.output)
    assert answer["deltas"] == {"P1": 5, "P2": -5, "P3": 5, "P4": -5}
    assert answer["arch"] == "half" and answer["multiplier"] == 1


@pytest.mark.parametrize("text,words", [
    ("{not json", ["not valid JSON"]),
    ("[1, 2]", ["object"]),
    ("", ["empty"]),
    (json.dumps({**S1, "losers": {**S1["losers"], "C": {"cards": 5, "jokers": 6}}}), ["[losers.C.jokers]"]),
    (json.dumps({**S1, "game": "chess"}), ["[game]"]),
])
def test_settle_bad_input(runner, text, words):
    result = runner.invoke(args=["settle", "-"], input=text)
    assert result.exit_code == 2, result.output
    for word in words:
        assert word in result.output


def test_demo_creates_a_table_of_each_game(runner, app):
    from companion import scoring
    from companion.extensions import db
    from companion.db.models import Table

    result = runner.invoke(args=["demo", "--base-url", "http://192.0.2.1:5000"])
    assert result.exit_code == 0, result.output
    with app.app_context():
        tables = db.session.scalars(db.select(Table).order_by(Table.id)).all()
        assert [t.game for t in tables] == ["gandengyan", "dagong"]
        for table in tables:
            assert scoring.hand_counts(table)[0] == 3
            totals = [row.points for row in scoring.standings(table)]
            assert sum(totals) == 0 and any(totals)
            assert f"http://192.0.2.1:5000/api/v1/tables/{table.public_id}" in result.output
