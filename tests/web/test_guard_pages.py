"""The input guard on pages: junk in a path or a form is a clear 4xx page, nothing is stored."""
import pytest
from sqlalchemy import func, select

from companion.extensions import db
from companion.guard import clean_name
from companion.models import Hand
from web_helpers import text_of


@pytest.mark.parametrize("path", ["/t/%00" + "A" * 21, "/t/" + "A" * 21 + "%00/record", "/t/%F0%9F%98%80" * 8])
def test_ids_outside_the_alphabet_are_the_usual_404(client, ctx, path):
    response = client.get(path)
    assert response.status_code == 404
    assert "does not exist" in text_of(response)


def test_nul_in_a_form_field_is_400_and_nothing_is_stored(client, gdy, writer):
    writer(gdy)
    response = client.post(f"/t/{gdy.public_id}/record", data={"winner": "Ann\x00", "request_id": "x"})
    assert response.status_code == 400
    assert "NUL" in text_of(response)
    assert db.session.scalar(select(func.count()).select_from(Hand)) == 0


def test_overlong_query_value_is_413(client, ctx):
    assert client.get("/check?play=" + "5" * 9000).status_code == 413


@pytest.mark.parametrize("raw, problem", [
    ("Ana\u200b", True), ("\u202eanA", True), ("A\u2066na", True), ("Ana", False), ("李 明", False),
    ("Ｊｏｅ", False),
])
def test_names_refuse_invisible_and_direction_characters(raw, problem):
    name, why = clean_name(raw)
    assert (why is not None) is problem


def test_names_are_nfkc_normalised_and_spaces_collapsed():
    assert clean_name("  Ｊｏｅ   Li ") == ("Joe Li", None)


def test_an_error_after_a_commit_never_says_nothing_was_saved(app, gdy, client):
    """A failure after the hand was committed (here: the settlement page's rendering) says the
    change was saved and to reload; the same failure before any commit says nothing was saved."""
    from companion import scoring

    app.config["PROPAGATE_EXCEPTIONS"] = False

    @app.get("/boom-after-save/<public_id>")
    def boom_after_save(public_id):
        table = scoring.get_table(public_id)
        scoring.record_hand(table, {"winner": "Ann", "losers": {"Bo": {"cards": 2, "jokers": 0},
                                                                "Cy": {"cards": 1, "jokers": 0},
                                                                "Di": {"cards": 3, "jokers": 0}}},
                            request_id="boom")
        raise RuntimeError("the database went away after the commit")

    @app.get("/boom-before-save")
    def boom_before_save():
        raise RuntimeError("nothing happened yet")

    after = client.get(f"/boom-after-save/{gdy.public_id}")
    assert after.status_code == 500
    assert "saved" in text_of(after) and "Nothing was saved" not in text_of(after)
    before = client.get("/boom-before-save")
    assert before.status_code == 500 and "Nothing was saved" in text_of(before)


@pytest.mark.parametrize("data", [
    {"facts_json": "[" * 3000, "request_id": "deep"},            # the conflict page's hidden JSON
    {"facts_json": '{"winner": "\\ud800"}', "request_id": "sur"},  # unreadable text inside it
    {"winner": "1", "cards_1": "9" * 5000, "jokers_1": "0", "cards_2": "3", "jokers_2": "0",
     "cards_3": "2", "jokers_3": "0", "request_id": "big"},        # a number past int()'s limit
    {"winner": "9" * 5000, "request_id": "seat"},
])
def test_hostile_form_values_are_4xx_and_store_nothing(client, gdy, writer, data):
    writer(gdy)
    response = client.post(f"/t/{gdy.public_id}/record", data=data)
    assert 400 <= response.status_code < 500
    assert db.session.scalar(select(func.count()).select_from(Hand)) == 0


@pytest.mark.parametrize("suffix", ["", "/sheet", "/history"])
def test_a_page_number_of_thousands_of_digits_is_page_one(client, gdy, suffix):
    response = client.get(f"/t/{gdy.public_id}{suffix}?page=" + "9" * 5000)
    assert response.status_code in (200, 404)
