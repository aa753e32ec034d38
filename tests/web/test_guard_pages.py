"""The input guard on pages: junk in a path or a form is a clear 4xx page, nothing is stored."""
import unicodedata

import pytest
from sqlalchemy import func, select

from companion.extensions import db
from companion.db.models import Hand
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


@pytest.mark.parametrize("raw, code", [
    ("Ana\u200b", "invisible"), ("\u202eanA", "invisible"), ("A\u2066na", "invisible"), ("Ana\x07", "bad_text"),
    ("Ana", None), ("李 明", None), ("Ｊｏｅ", None),
    # issue 21: joiners inside emoji sequences and between letters of a joining script are part of
    # the name; the same joiners alone, at an edge or between Latin letters are not
    ("👩🏽\u200d🦰", None), ("👨\u200d👩\u200d👧", None), ("🏳️\u200d🌈", None), ("Ann 👩\u200d❤️\u200d👨", None),
    ("می\u200cخواهم", None), ("क्\u200dष", None), ("🏴\U000e0067\U000e0062\U000e0073\U000e0063\U000e0074\U000e007f", None),
    ("Ann\u200d", "invisible"), ("\u200d👩", "invisible"), ("A\u200dna", "invisible"), ("A\u200cna", "invisible"),
    ("👩\u200d\u202e🦰", "invisible"), ("Ann\U000e0067", "invisible"), ("🏴\U000e0067", "invisible"),
    ("\u200e👩", "invisible"),
])
def test_player_names_refuse_invisible_and_direction_characters(ctx, raw, code):
    from companion import scoring
    from companion.engine.errors import EngineError

    if code is None:
        table = scoring.create_table(game="gandengyan", name="t", players=[raw, "Bo"])
        assert table.player_names[0] == unicodedata.normalize("NFKC", raw)
    else:
        with pytest.raises(EngineError) as caught:
            scoring.create_table(game="gandengyan", name="t", players=[raw, "Bo"])
        assert caught.value.code == code and caught.value.field == "players.0"


def test_names_are_nfkc_normalised_so_lookalikes_are_one_player(ctx):
    from companion import scoring
    from companion.engine.errors import EngineError

    assert scoring.create_table(game="gandengyan", name="t", players=["  Ｊｏｅ   Li ", "Bo"]).player_names[0] == "Joe Li"
    with pytest.raises(EngineError) as caught:
        scoring.create_table(game="gandengyan", name="t", players=["Joe", "Ｊｏｅ"])
    assert caught.value.code == "duplicate_player"


@pytest.mark.own_app  # it adds two routes
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


def test_the_database_itself_refuses_notes_over_2000_characters(ctx, gdy):
    """The same limit as scoring, the forms and the schemas, in the database (a CHECK constraint)."""
    from sqlalchemy import text
    from sqlalchemy.exc import IntegrityError

    with pytest.raises(IntegrityError):
        with db.engine.begin() as conn:
            conn.execute(text("UPDATE tables SET notes = :n WHERE id = :id"), {"n": "x" * 2001, "id": gdy.id})
    with db.engine.begin() as conn:  # the twin: 2,000 characters are stored
        conn.execute(text("UPDATE tables SET notes = :n WHERE id = :id"), {"n": "x" * 2000, "id": gdy.id})
