"""The table PIN field (issue 33 item 7): 5 or 7 digits get the reason beside the field, in the
phone's language, with what was typed still in it; nothing is stored that was not typed."""
import re

import pytest

from companion import access, scoring
from companion.extensions import db
from companion.db.models import Table

from web_helpers import text_of

pytestmark = pytest.mark.db


def recording_phone(app, client):
    with app.app_context():
        table = scoring.create_table(game="gandengyan", name="PIN", players=["Ann", "Bo", "Cy"])
        public_id, token = table.public_id, access.edit_token(table)
    client.post(f"/t/{public_id}/join", data={"key": token})
    return public_id


def pin_hash(app, public_id):
    with app.app_context():
        return db.session.query(Table.pin_hash).filter_by(public_id=public_id).scalar()


@pytest.mark.parametrize("typed", ["12345", "1234567", "12a456", "１２３４５６７"])
def test_a_pin_that_is_not_6_digits_is_refused_beside_the_field_and_kept_as_typed(app, client, typed):
    public_id = recording_phone(app, client)
    response = client.post(f"/t/{public_id}/pin", data={"pin": typed, "action": "set"})
    assert response.status_code == 400
    html = response.get_data(as_text=True)
    error = re.search(r'<p class="field-error" id="table-pin-error" role="alert">([^<]*)</p>', html)
    assert error and "exactly 6 digits" in error.group(1)
    assert re.search(r'id="table-pin"[^>]*value="' + re.escape(typed) + '"', html)  # not cut to 6
    assert pin_hash(app, public_id) is None


def test_the_reason_is_in_the_phones_language_and_6_digits_are_set(app, client):
    public_id = recording_phone(app, client)
    response = client.post(f"/t/{public_id}/pin", data={"pin": "1234567"}, headers={"Accept-Language": "zh"})
    assert response.status_code == 400 and "6 位数字" in text_of(response)
    assert client.post(f"/t/{public_id}/pin", data={"pin": "123456"}).status_code == 303
    with app.app_context():
        assert access.check_pin(scoring.get_table(public_id), "123456")
        assert not access.check_pin(scoring.get_table(public_id), "1234567")


def test_the_field_leaves_the_check_to_the_page_not_the_browsers_bubble(app, client):
    public_id = recording_phone(app, client)
    html = client.get(f"/t/{public_id}").get_data(as_text=True)
    form = re.search(r'<form[^>]*id="pin-form"[^>]*>', html).group(0)
    field = re.search(r'<input[^>]*id="table-pin"[^>]*>', html).group(0)
    assert "novalidate" in form and "pattern=" not in field and 'maxlength="6"' not in field


@pytest.mark.parametrize("typed, joined_with", [("１２３４５６", "١٢٣٤٥٦"), ("٠٩٨٧٦٥", "０９８７６５"), ("۱۲۳۴۵۶", "123456")])
def test_full_width_and_arabic_indic_digits_are_read_as_0_to_9_at_every_door(app, client, typed, joined_with):
    """A phone's keyboard in Chinese or Arabic types ０１２ or ٠١٢: the PIN form sets them as 0–9 and
    the join form (another phone) takes the same PIN typed in any of those scripts."""
    public_id = recording_phone(app, client)
    assert client.post(f"/t/{public_id}/pin", data={"pin": typed, "action": "set"}).status_code == 303
    ascii_pin = "".join(str(int(c)) for c in typed)
    with app.app_context():
        table = scoring.get_table(public_id)
        assert access.check_pin(table, ascii_pin) and access.check_pin(table, typed)
    other = app.test_client()
    five = joined_with[:5]  # 5 of them: the digits message, not "not this table's"
    refused = other.post(f"/t/{public_id}/join", data={"key": five}, headers={"Accept": "application/json"})
    assert refused.status_code == 400 and "exactly 6 digits" in refused.get_json()["message"]
    answer = other.post(f"/t/{public_id}/join", data={"key": joined_with}, headers={"Accept": "application/json"})
    assert answer.status_code == 200 and answer.get_json()["joined"] is True
