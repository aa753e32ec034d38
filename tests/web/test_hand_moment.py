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


def test_the_chart_starts_each_line_where_its_player_joined_and_stops_where_they_left(client, gdy):
    from companion import review

    evening(gdy)
    numbers, series, thinned = review.chart_series(gdy)
    assert numbers == [0, 1, 2, 3] and not thinned
    # Ann +6 −2 −1; Eve (joined for hand 2) +8 −3; Di (left after hand 2) −2 −4.
    assert series["Ann"] == [0, 6, 4, 3]
    assert series["Eve"] == [None, None, 8, 5]
    assert series["Di"] == [0, -2, -6, None]
    numbers, series, thinned = review.chart_series(gdy, points=2)  # thinned: the same hands for everyone
    assert numbers == [0, 2, 3] and thinned and series["Eve"] == [None, 8, 5] and series["Di"] == [0, -6, None]
    page = client.get(f"/t/{gdy.public_id}/chart").get_data(as_text=True)
    # A tap on hand 1 leads to everyone's total at hand 1; Eve was not there.
    assert 'href="#at-hand-1"' in page and 'aria-label="Hand 1"' in page
    row = page.split('id="at-hand-1"', 1)[1].split("</li>", 1)[0]
    assert "<bdi>Eve</bdi>" in row and "not at this hand" in row and "+6" in row


def test_the_chart_has_no_white_box_and_its_legend_fits(client, gdy):
    from companion.views.chart import legend_columns

    evening(gdy)
    css = client.get("/review/chart.css").get_data(as_text=True)
    assert "#ffffff" not in css.lower() and "prefers-color-scheme: dark" in css
    assert legend_columns(["Ann", "Bo", "Cy", "Eve"]) == 2
    assert legend_columns(["Ann", "Bo", "Cy", "Dorothea Longname"]) == 1  # would be cut in half a line
    assert legend_columns(["李小龙李小龙", "Bo", "Cy", "Di"]) == 1  # 12 wide: CJK counts twice
