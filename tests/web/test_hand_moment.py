"""A hand keeps its own moment (issue 29): every view of a past hand is drawn with the hand's own
players and stake, whoever sits at the table now; a person absent from a hand is shown absent,
never as "played, 0". On SQLite and PostgreSQL."""
import csv
import io

from companion import scoring


def loses(**cards):
    return {name: {"cards": n, "jokers": 0} for name, n in cards.items()}


def evening(gdy):
    """Hand 1 with Ann Bo Cy Di; Eve joins; hand 2 with five; Di leaves; hand 3 with four."""
    scoring.record_hand(gdy, {"winner": "Ann", "losers": loses(Bo=3, Cy=1, Di=2)}, request_id="h1")
    scoring.change_players(gdy, ["Ann", "Bo", "Cy", "Di", "Eve"])
    scoring.record_hand(gdy, {"winner": "Eve", "losers": loses(Ann=2, Bo=1, Cy=1, Di=4)}, request_id="h2")
    scoring.change_players(gdy, ["Ann", "Bo", "Cy", "Eve"])
    scoring.record_hand(gdy, {"winner": "Bo", "losers": loses(Ann=1, Cy=2, Eve=3)}, request_id="h3")


def test_the_api_explains_a_hand_played_before_the_players_changed(client, gdy):
    evening(gdy)
    answer = client.get(f"/api/v1/tables/{gdy.public_id}/hands/1").get_json()
    assert set(answer["deltas"]) == {"Ann", "Bo", "Cy", "Di"}
    assert answer["steps"] and any("Di" in step for step in answer["steps"])
    assert answer["earlier_rules"] is None


def test_the_score_sheet_shows_who_was_absent_as_absent(client, gdy):
    evening(gdy)
    page = client.get(f"/t/{gdy.public_id}/sheet").get_data(as_text=True)
    row1 = page.split('id="sheet-1"', 1)[1].split("</tr>", 1)[0]
    row3 = page.split('id="sheet-3"', 1)[1].split("</tr>", 1)[0]
    assert 'data-absent="Eve"' in row1 and 'data-player="Eve"' not in row1
    assert 'data-absent="Di"' in row3 and 'data-player="Di"' not in row3
    assert 'data-player="Di"' in row1 and "not at this hand" in row1


def test_the_csv_has_rows_only_for_the_players_of_each_hand(client, gdy):
    evening(gdy)
    text = client.get(f"/t/{gdy.public_id}/export.csv").get_data(as_text=True).lstrip("\ufeff")
    rows = list(csv.reader(io.StringIO(text)))[1:]
    players = {}
    for row in rows:
        players.setdefault(int(row[0]), []).append(row[2])
    assert players == {1: ["Ann", "Bo", "Cy", "Di"], 2: ["Ann", "Bo", "Cy", "Eve", "Di"], 3: ["Ann", "Bo", "Cy", "Eve"]}


def test_the_hand_page_keeps_its_stake_and_its_players_after_a_rename(client, gdy):
    evening(gdy)
    before = client.get(f"/t/{gdy.public_id}/hands/1").get_data(as_text=True)
    scoring.update_table(gdy, stake="2")
    scoring.change_players(gdy, ["Ann", "Bo", {"name": "Cyrus", "was": "Cy"}, "Eve"])
    after = client.get(f"/t/{gdy.public_id}/hands/1").get_data(as_text=True)
    block = after.split('id="hand-deltas"', 1)[1].split("</table>", 1)[0]
    assert 'data-player="Cyrus"' in block and 'data-player="Eve"' not in block
    assert before.split('id="hand-deltas"', 1)[1].split("</table>", 1)[0].replace("Cy", "Cyrus") == block
    assert "How it was counted" in after
