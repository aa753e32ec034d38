"""Players who come and go between hands (issue 21, item 3): join, leave, rename, change seats and,
in 大冶打拱, a substitute. Totals checked by hand; on SQLite and PostgreSQL."""
from decimal import Decimal

import pytest

from companion import scoring
from companion.extensions import db
from companion.db.models import Hand

from web_helpers import snapshot


def loses(**cards):
    return {name: {"cards": n, "jokers": 0} for name, n in cards.items()}


def totals(table):
    db.session.expire_all()
    return {row.name: (row.points, row.money) for row in scoring.standings(table)}


def hand(table, number):
    return db.session.scalar(db.select(Hand).where(Hand.table_id == table.id, Hand.number == number))


def played_evening(gdy):
    """Hand 1 with four; Eve joins; hand 2 with five; Di leaves; hand 3 with four."""
    scoring.record_hand(gdy, {"winner": "Ann", "losers": loses(Bo=3, Cy=1, Di=2)}, request_id="h1")
    assert scoring.change_players(gdy, ["Ann", "Bo", "Cy", "Di", "Eve"]) is not None
    scoring.record_hand(gdy, {"winner": "Eve", "losers": loses(Ann=2, Bo=1, Cy=1, Di=4)}, request_id="h2")
    scoring.change_players(gdy, ["Ann", "Bo", "Cy", "Eve"])
    scoring.record_hand(gdy, {"winner": "Bo", "losers": loses(Ann=1, Cy=2, Eve=3)}, request_id="h3")


def test_a_player_joins_and_one_leaves_totals_by_hand(gdy):
    played_evening(gdy)
    # Ann +6 −2 −1 = 3; Bo −3 −1 +6 = 2; Cy −1 −1 −2 = −4; Di −2 −4 = −6 (left); Eve +8 −3 = 5. At 0.5 ¥.
    assert totals(gdy) == {"Ann": (3, Decimal("1.5")), "Bo": (2, Decimal("1.0")), "Cy": (-4, Decimal("-2.0")),
                           "Di": (-6, Decimal("-3.0")), "Eve": (5, Decimal("2.5"))}
    assert sum(points for points, _ in totals(gdy).values()) == 0
    assert gdy.player_names == ["Ann", "Bo", "Cy", "Eve"]
    assert [p.name for p in gdy.players] == ["Ann", "Bo", "Cy", "Eve", "Di"]  # everyone who played
    # Hands already played keep their players; Di is in no later hand.
    assert hand(gdy, 1).facts["players"] == ["Ann", "Bo", "Cy", "Di"]
    assert hand(gdy, 2).facts["players"] == ["Ann", "Bo", "Cy", "Di", "Eve"]
    assert hand(gdy, 3).facts["players"] == ["Ann", "Bo", "Cy", "Eve"]
    assert len(hand(gdy, 3).deltas) == 4 and len(hand(gdy, 1).deltas) == 4
    # The next hand is for those seated now: naming Di is refused and nothing is stored.
    before = snapshot()
    with pytest.raises(scoring.ScoringError) as error:
        scoring.record_hand(gdy, {"players": ["Ann", "Bo", "Cy", "Di"], "winner": "Di", "losers": loses(
            Ann=1, Bo=1, Cy=1)}, request_id="h4")
    assert error.value.code == "bad_players"
    assert snapshot() == before


def test_a_hand_played_before_someone_left_can_still_be_corrected(gdy):
    played_evening(gdy)
    first = hand(gdy, 1)
    scoring.edit_hand(gdy, 1, {"winner": "Ann", "losers": loses(Bo=3, Cy=1, Di=1)}, revision=first.revision)
    assert totals(gdy)["Di"][0] == -5 and totals(gdy)["Ann"][0] == 2  # Di −1 −4; Ann +5 −2 −1


def test_joining_stops_at_the_games_limit_and_changes_nothing(gdy):
    scoring.change_players(gdy, ["Ann", "Bo", "Cy", "Di", "Eve", "Fay"])  # six: the most 干瞪眼 allows
    before = snapshot()
    problems = scoring.players_problems(gdy, ["Ann", "Bo", "Cy", "Di", "Eve", "Fay", "Gus"])
    assert [p.code for p in problems] == ["player_count"]
    with pytest.raises(scoring.ScoringError):
        scoring.change_players(gdy, ["Ann", "Bo", "Cy", "Di", "Eve", "Fay", "Gus"])
    assert snapshot() == before


@pytest.mark.parametrize("players, code, field", [
    (["Ann", "Bo", "Cy", "ann"], "duplicate_player", "players.3"),
    (["Ann", "Bo", "", "Di"], "required", "players.2"),
    (["Ann", "Bo", "Cy", {"name": "Zed", "was": "Nobody"}], "unknown_player", "players.3"),
    (["Ann", "Bo", {"name": "Di", "was": "Cy"}], "name_taken", "players.2"),
    (["Ann"], "player_count", "players"),
    ("Ann, Bo", "bad_players", "players"),
])
def test_bad_players_are_refused_beside_their_field(gdy, players, code, field):
    before = snapshot()
    problems = scoring.players_problems(gdy, players)
    assert (problems[0].code, problems[0].field) == (code, field)
    with pytest.raises(scoring.ScoringError):
        scoring.change_players(gdy, players)
    assert snapshot() == before


def test_the_same_players_again_change_nothing(gdy):
    assert scoring.change_players(gdy, ["Ann", "Bo", "Cy", "Di"]) is None
    assert scoring.player_changes(gdy) == []


def test_rename_reaches_every_hand_and_undo_takes_it_back(gdy):
    played_evening(gdy)
    scoring.change_players(gdy, ["Ann", {"name": "Bob", "was": "Bo"}, "Cy", "Eve"])
    assert totals(gdy)["Bob"] == (2, Decimal("1.0")) and "Bo" not in totals(gdy)
    assert hand(gdy, 1).facts["losers"]["Bob"]["cards"] == 3
    assert hand(gdy, 3).outcome["winners"] == ["Bob"] and hand(gdy, 3).next_dealer == "Bob"
    assert scoring.current_dealer(gdy) == "Bob"
    undo = scoring.undo_last(gdy)
    assert undo.kind == "undo"
    assert totals(gdy)["Bo"] == (2, Decimal("1.0"))
    assert hand(gdy, 1).facts["losers"]["Bo"]["cards"] == 3 and gdy.player_names == ["Ann", "Bo", "Cy", "Eve"]


def test_two_players_swap_names(gdy):
    scoring.change_players(gdy, [{"name": "Bo", "was": "Ann"}, {"name": "Ann", "was": "Bo"}, "Cy", "Di"])
    assert gdy.player_names == ["Bo", "Ann", "Cy", "Di"]


def test_seats_change_and_the_next_hand_follows_them(gdy):
    scoring.change_players(gdy, ["Di", "Cy", "Bo", "Ann"])
    assert gdy.player_names == ["Di", "Cy", "Bo", "Ann"]
    recorded = scoring.record_hand(gdy, {"winner": "Cy", "losers": loses(Di=1, Bo=1, Ann=1)}, request_id="s")
    assert recorded.facts["players"] == ["Di", "Cy", "Bo", "Ann"]


def test_undo_goes_back_through_hands_and_player_changes_in_order(gdy):
    scoring.record_hand(gdy, {"winner": "Ann", "losers": loses(Bo=3, Cy=1, Di=2)}, request_id="h1")
    scoring.change_players(gdy, ["Ann", "Bo", "Cy", "Di", "Eve"])
    scoring.record_hand(gdy, {"winner": "Eve", "losers": loses(Ann=2, Bo=1, Cy=1, Di=4)}, request_id="h2")
    assert scoring.next_undo(gdy).kind == "create"
    scoring.undo_last(gdy)  # hand 2 is void
    assert totals(gdy)["Ann"][0] == 6
    assert scoring.next_undo(gdy).kind == "players"
    scoring.undo_last(gdy)  # Eve leaves again
    assert gdy.player_names == ["Ann", "Bo", "Cy", "Di"]
    assert set(totals(gdy)) == {"Ann", "Bo", "Cy", "Di"}  # Eve's only hand is void
    assert scoring.next_undo(gdy).kind == "create"
    assert [c.kind for c in scoring.player_changes(gdy)] == ["undo", "players"]
    # She comes back by name: the same player, not a new one.
    scoring.change_players(gdy, ["Ann", "Bo", "Cy", "Di", "Eve"])
    assert len(gdy.players) == 5


def test_a_player_who_left_comes_back_with_their_total(gdy):
    played_evening(gdy)
    scoring.change_players(gdy, ["Ann", "Bo", "Cy", "Di", "Eve"])
    assert totals(gdy)["Di"][0] == -6 and len(gdy.players) == 5


def test_dagong_substitute_takes_the_seat_and_each_keeps_their_total(dg):
    facts = {"banker": "P1", "partner": "P3", "bright_card": "7h", "order": ["P1", "P2", "P3", "P4"],
             "captured": {"P1": 60, "P2": 50, "P3": 30, "P4": 40}, "last_hand_points": 20}
    scoring.record_hand(dg, facts, request_id="d1")  # P1 +1, P2 −1, P3 +1, P4 −1; P1 banks again
    with pytest.raises(scoring.ScoringError) as error:  # 大冶打拱 is four: leaving needs a substitute
        scoring.change_players(dg, ["P2", "P3", "P4"])
    assert error.value.code == "player_count"
    scoring.change_players(dg, ["Q", "P2", "P3", "P4"])  # Q takes P1's seat
    assert scoring.current_dealer(dg) == "Q"  # the seat's turn to be banker follows the seat
    facts2 = dict(facts, banker="Q", order=["Q", "P2", "P3", "P4"], captured={"Q": 60, "P2": 50, "P3": 30, "P4": 40})
    scoring.record_hand(dg, facts2, request_id="d2")  # Q +1, P2 −1, P3 +1, P4 −1
    assert {k: v[0] for k, v in totals(dg).items()} == {"P1": 1, "Q": 1, "P2": -2, "P3": 2, "P4": -2}


def test_every_page_shows_everyone_who_played(client, gdy, writer):
    played_evening(gdy)
    writer(gdy)
    base = f"/t/{gdy.public_id}"
    for path in ("", "/sheet", "/chart", "/summary", "/settle", "/history"):
        response = client.get(base + path)
        assert response.status_code == 200, path
        assert "Di" in response.get_data(as_text=True) and "Eve" in response.get_data(as_text=True), path
    # A hand's page lists exactly the people who played it, and explains it (issue 29).
    for number, there, absent in ((1, "Di", "Eve"), (3, "Eve", "Di")):
        page = client.get(f"{base}/hands/{number}").get_data(as_text=True)
        block = page.split('id="hand-deltas"', 1)[1].split("</table>", 1)[0]
        assert f'data-player="{there}"' in block and f'data-player="{absent}"' not in block, number
        assert "How it was counted" in page, number
    assert "Undo: the change of players" not in client.get(base).get_data(as_text=True)  # hand 3 is newer
    csv = client.get(base + "/export.csv").get_data(as_text=True)
    assert "Di" in csv and "Eve" in csv
    # The form to correct hand 1 offers the hand's own players (Di, who left; not Eve).
    form = client.get(base + "/hands/1/edit").get_data(as_text=True)
    assert ">Di<" in form.replace("<bdi>", "").replace("</bdi>", "") or 'value="Di"' in form
    assert "Eve" not in form.split("<form", 1)[1]
    scoring.change_players(gdy, ["Ann", "Bo", "Cy", "Eve", "Fay"])
    assert "Undo: the change of players" in client.get(base).get_data(as_text=True)
    record_form = client.get(base + "/record").get_data(as_text=True)
    assert "Fay" in record_form


def test_the_undo_button_takes_back_a_change_of_players(client, gdy, writer):
    import re
    writer(gdy)
    scoring.change_players(gdy, ["Ann", "Bo", "Cy", "Di", "Eve"])
    page = client.get(f"/t/{gdy.public_id}")
    named = re.search(r'name="undo_event" value="([^"]+)"', page.get_data(as_text=True)).group(1)
    assert named.startswith("players-")
    stale = client.post(f"/t/{gdy.public_id}/undo", data={"undo_event": "1"})  # the button named another change
    assert stale.status_code == 409
    response = client.post(f"/t/{gdy.public_id}/undo", data={"undo_event": named}, follow_redirects=True)
    assert response.status_code == 200 and "Undone: the last change of players." in response.get_data(as_text=True)
    db.session.expire_all()
    assert gdy.player_names == ["Ann", "Bo", "Cy", "Di"]


def test_export_import_replays_players_who_came_and_went(gdy):
    import json

    from companion import review

    played_evening(gdy)
    scoring.change_players(gdy, ["Ann", {"name": "Bob", "was": "Bo"}, "Cy", "Eve"])
    first = review.export_json(gdy)
    doc = json.loads(first)
    assert doc["players"][-1] == {"seat": None, "name": "Di", "former_seat": 3}
    copy = review.import_json(first)
    db.session.expire_all()
    again = json.loads(review.export_json(copy))
    assert again["players"] == doc["players"]
    assert [{k: h[k] for k in ("number", "status", "facts", "outcome", "next_dealer", "points", "stake")}
            for h in again["hands"]] == [{k: h[k] for k in ("number", "status", "facts", "outcome", "next_dealer",
                                                             "points", "stake")} for h in doc["hands"]]
    assert copy.player_names == ["Ann", "Bob", "Cy", "Eve"]
    assert totals(copy) == totals(gdy)
    # The copy goes on like the original: Di comes back, the next hand has her.
    scoring.change_players(copy, ["Ann", "Bob", "Cy", "Eve", "Di"])
    assert copy.player_names == ["Ann", "Bob", "Cy", "Eve", "Di"] and totals(copy)["Di"][0] == -6


def test_each_hand_lists_only_its_own_players(client, gdy):
    played_evening(gdy)
    html = client.get(f"/t/{gdy.public_id}").get_data(as_text=True)
    first = html.split('id="hand-1"', 1)[1].split("</li>\n", 1)[0] if 'id="hand-1"' in html else ""
    hand3 = html.split('id="hand-3"', 1)[1].split('id="hand-2"', 1)[0]
    assert 'title="Di"' not in hand3 and 'title="Eve"' in hand3
    assert first == "" or 'title="Eve"' not in first.split("</ul>", 1)[0]


def test_summary_api_says_who_left(client, gdy):
    played_evening(gdy)
    body = client.get(f"/api/v1/tables/{gdy.public_id}/summary").get_json()
    seats = {row["player"]: row["seat"] for row in body["players"]}
    assert seats["Di"] is None and seats["Eve"] == 3
    assert sum(int(row["points"]) for row in body["players"]) == 0 and len(body["players"]) == 5
