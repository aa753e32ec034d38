"""Managing a table (issue 11, item 5): the stake per hand, name/currency/notes, archive, delete with
an undo window, and removing a table from this phone. Pages through the test client, on SQLite and
PostgreSQL."""
import json
from datetime import timedelta
from decimal import Decimal

from sqlalchemy import text as sql

from companion import review, scoring
from companion.extensions import db
from companion.db.models import utcnow

from web_helpers import counts, field_errors, text_of

FACTS = {"winner": "Ann", "losers": {"Bo": {"cards": 2}, "Cy": {"cards": 1}, "Di": {"cards": 3}}}  # Ann +6


def record(table, n):
    return scoring.record_hand(table, FACTS, request_id=f"r{n}")


def money(table):
    return {row.name: row.money for row in scoring.standings(table)}


def settings(client, table, **values):
    form = {"name": table.name, "stake": table.stake_text, "currency": table.currency, "notes": table.notes}
    form.update(values)
    return client.post(f"/t/{table.public_id}/settings", data=form)


# --- the stake per hand ------------------------------------------------------------------------


def test_a_new_stake_applies_from_the_next_hand_and_earlier_hands_keep_theirs(client, gdy, writer):
    writer(gdy)  # stake 0.5 ¥
    record(gdy, 1)
    answer = settings(client, gdy, stake="2")
    assert answer.status_code == 302
    assert "from hand 2 on" in text_of(client.get(f"/t/{gdy.public_id}"))
    record(gdy, 2)
    # Ann won 6 points twice: 6 × 0.5 + 6 × 2 = 15, not 12 × 2 = 24 (twin: the old single stake)
    assert money(gdy)["Ann"] == Decimal("15")
    assert sum(money(gdy).values()) == 0
    first, second = scoring.get_hand(gdy, 1), scoring.get_hand(gdy, 2)
    assert (first.stake_text, second.stake_text) == ("0.5", "2")
    assert [(c.from_hand, c.stake) for c in scoring.stake_changes(gdy)] == [(1, Decimal("0.5")), (2, Decimal("2"))]
    page = text_of(client.get(f"/t/{gdy.public_id}"))
    assert "From hand 1: one point = 0.5 ¥" in page and "From hand 2: one point = 2 ¥" in page
    assert "+3 ¥" in text_of(client.get(f"/t/{gdy.public_id}/hands/1"))  # hand 1 at its own stake
    assert "+12 ¥" in text_of(client.get(f"/t/{gdy.public_id}/hands/2"))


def test_the_summary_settle_up_and_csv_use_each_hands_stake(client, gdy, writer):
    writer(gdy)
    record(gdy, 1)
    scoring.update_table(gdy, stake="2")
    record(gdy, 2)
    figures = {p.name: p.money for p in review.summary(gdy).players}
    assert figures["Ann"] == Decimal("15") and figures == money(gdy)
    up = review.settle_table(gdy)
    assert up.in_money and sum(t.amount for t in up.transfers if t.payee == "Ann") == Decimal("15")
    rows = review.export_csv(gdy, labels={k: k for k in ("hand", "status", "player", "points", "money", "facts",
                                                         "active", "void")}).decode("utf-8-sig").splitlines()
    ann = [r.split(",") for r in rows if ",Ann," in r]
    assert [r[4] for r in ann] == ["3", "12"]


def test_money_stays_shown_when_the_stake_goes_to_zero_after_paid_hands(client, gdy, writer):
    writer(gdy)
    record(gdy, 1)
    scoring.update_table(gdy, stake="0")
    record(gdy, 2)
    assert scoring.in_money(gdy) and money(gdy)["Ann"] == Decimal("3")
    page = text_of(client.get(f"/t/{gdy.public_id}"))
    assert "Money" in page and "points only, no money" in page and "From hand 2: points only" in page


def test_a_table_that_never_played_for_money_shows_no_money(client, ctx):
    table = scoring.create_table(game="gandengyan", name="free", players=["A", "B"], stake="0")
    scoring.record_hand(table, {"winner": "A", "losers": {"B": {"cards": 2}}}, request_id="x")
    assert not scoring.in_money(table)
    assert "Money" not in text_of(client.get(f"/t/{table.public_id}"))


def test_a_bad_stake_is_refused_with_the_typed_text_kept_and_nothing_changed(client, gdy, writer):
    writer(gdy)
    record(gdy, 1)
    before, revision = counts(), gdy.revision
    for bad in ("abc", "-1", "1e9999"):
        answer = settings(client, gdy, stake=bad, name="Renamed")
        assert answer.status_code == 400
        assert field_errors(answer).get("stake"), bad
        assert f'value="{bad}"' in answer.get_data(as_text=True)  # what was typed stays
        db.session.expire_all()
        assert gdy.stake_text == "0.5" and gdy.name == "Friday" and gdy.revision == revision
    assert counts() == before


# --- name, currency, notes ---------------------------------------------------------------------


def test_name_currency_and_notes_can_be_changed(client, gdy, writer):
    writer(gdy)
    assert settings(client, gdy, name="Friday late", currency="€", notes="double after midnight").status_code == 302
    db.session.expire_all()
    assert (gdy.name, gdy.currency, gdy.notes) == ("Friday late", "€", "double after midnight")
    assert "Friday late" in text_of(client.get(f"/t/{gdy.public_id}"))


def test_an_empty_or_too_long_name_is_refused_and_nothing_changes(client, gdy, writer):
    writer(gdy)
    for bad in ("", "x" * 81):
        answer = settings(client, gdy, name=bad, currency="€")
        assert answer.status_code == 400 and field_errors(answer).get("name")
        db.session.expire_all()
        assert gdy.name == "Friday" and gdy.currency == "¥"


def test_a_phone_without_the_right_cannot_change_settings(client, gdy):
    assert client.get(f"/t/{gdy.public_id}/settings").status_code == 403
    assert settings(client, gdy, name="hijacked").status_code == 403
    db.session.expire_all()
    assert gdy.name == "Friday"


# --- archive -----------------------------------------------------------------------------------


def test_an_archived_table_takes_no_hands_until_restored(client, gdy, writer):
    writer(gdy)
    record(gdy, 1)
    assert client.post(f"/t/{gdy.public_id}/archive").status_code == 302
    page = client.get(f"/t/{gdy.public_id}")
    assert 'id="archived"' in page.get_data(as_text=True) and 'id="record"' not in page.get_data(as_text=True)
    assert client.get(f"/t/{gdy.public_id}/record").status_code == 302
    assert client.get(f"/t/{gdy.public_id}/hands/1/edit").status_code == 302
    hand_page = client.get(f"/t/{gdy.public_id}/hands/1").get_data(as_text=True)
    assert 'id="edit"' not in hand_page and 'id="void"' not in hand_page and 'id="next-hand"' not in hand_page
    before = counts()
    try:
        record(gdy, 2)
        raise AssertionError("an archived table took a hand")
    except scoring.ScoringError as error:
        assert error.code == "table_archived"
    assert counts() == before
    assert "1 archived table" in text_of(client.get("/"))
    assert client.post(f"/t/{gdy.public_id}/unarchive").status_code == 302
    record(gdy, 2)  # the twin: restored, it records again
    assert scoring.hand_counts(gdy) == (2, 2)
    assert client.get(f"/t/{gdy.public_id}/hands/1/edit").status_code == 200
    assert 'id="edit"' in client.get(f"/t/{gdy.public_id}/hands/1").get_data(as_text=True)


# --- delete, with an undo window -----------------------------------------------------------------


def test_delete_needs_the_tick_and_then_can_be_undone_within_the_window(client, gdy, writer):
    writer(gdy)
    record(gdy, 1)
    before = counts()
    refused = client.post(f"/t/{gdy.public_id}/delete", data={})
    assert refused.status_code == 400 and field_errors(refused).get("confirm")
    db.session.expire_all()
    assert gdy.deleted_at is None and counts() == before
    assert client.post(f"/t/{gdy.public_id}/delete", data={"confirm": "y"}).status_code == 302
    assert client.get(f"/t/{gdy.public_id}").status_code == 410  # this phone: the page that brings it back
    home = text_of(client.get("/"))
    assert "Deleted: it can be brought back for 10 more minutes" in home
    assert counts() == before  # nothing is gone yet
    assert client.post(f"/t/{gdy.public_id}/undelete").status_code == 302
    assert client.get(f"/t/{gdy.public_id}").status_code == 200
    assert scoring.standings(gdy)[0].points == 6


def test_a_deleted_table_is_hidden_from_other_phones(client, gdy):
    assert client.get(f"/t/{gdy.public_id}").status_code == 200  # twin: before the deletion
    scoring.delete_table(gdy)
    assert client.get(f"/t/{gdy.public_id}").status_code == 404
    assert client.get(f"/api/v1/tables/{gdy.public_id}").status_code == 404


def test_after_the_window_a_deleted_table_is_gone_for_good_with_everything_it_held(client, gdy, writer, dg):
    writer(gdy)
    record(gdy, 1)
    kept = counts()
    scoring.delete_table(gdy)
    db.session.execute(sql("UPDATE tables SET deleted_at = :t WHERE id = :id"),
                       {"t": utcnow() - timedelta(seconds=scoring.DELETE_UNDO_SECONDS + 1), "id": gdy.id})
    db.session.commit()
    public_id = gdy.public_id
    assert scoring.get_table(public_id) is None  # purged on sight
    db.session.expire_all()
    left = counts()
    assert left["Table"] == kept["Table"] - 1 and left["Hand"] == 0 and left["HandEvent"] == 0
    assert left["Player"] == len(dg.players)  # the other table is untouched
    assert client.get(f"/t/{public_id}").status_code == 404


# --- this phone's list ----------------------------------------------------------------------------


def test_remove_from_this_phone_drops_it_from_the_list_and_the_right_to_record(client, gdy, writer):
    writer(gdy)
    assert "Friday" in text_of(client.get("/"))
    assert client.post(f"/t/{gdy.public_id}/forget").status_code == 302
    home = text_of(client.get("/"))
    assert "“Friday” is no longer listed on this phone" in home  # the flash says so, once
    assert "Friday" not in text_of(client.get("/"))
    assert client.get(f"/t/{gdy.public_id}/record").status_code == 403
    assert client.get(f"/t/{gdy.public_id}").status_code == 200  # the table itself is untouched


# --- export and import keep each hand's stake ------------------------------------------------------


def test_export_import_keeps_each_hands_stake_exactly(ctx, gdy):
    record(gdy, 1)
    scoring.update_table(gdy, stake="2")
    record(gdy, 2)
    exported = review.export_json(gdy)
    copy = review.import_json(exported)
    assert money(copy) == money(gdy)
    stakes = [(h["number"], h["stake"]) for h in json.loads(review.export_json(copy))["hands"]]
    assert stakes == [(h["number"], h["stake"]) for h in json.loads(exported)["hands"]] == [(1, "0.5"), (2, "2")]
    assert copy.stake_text == gdy.stake_text == "2"


def test_a_version_1_file_imports_with_every_hand_at_the_tables_stake(ctx, gdy):
    record(gdy, 1)
    doc = review.export_document(gdy)
    doc["format_version"] = 1
    for hand in doc["hands"]:
        del hand["stake"]
    del doc["table"]["archived_at"]
    doc["checksum"] = review._checksum(doc)
    copy = review.import_json(review._canonical(doc))
    assert scoring.get_hand(copy, 1).stake_text == "0.5" and money(copy)["Ann"] == Decimal("3")
