"""Issue 33 item 6: every error of a hand in one answer, each beside its field — even when the
form cannot be read whole (no winner chosen, an empty count), what it could read is checked by
the engine too. Each row has its twin with the mistake fixed."""
import pytest

from companion import scoring
from web_helpers import dg_form, field_errors, gdy_form, hidden, snapshot


def _post(client, table, data):
    page = client.get(f"/t/{table.public_id}/record")
    ids = {"request_id": hidden(page, "request_id"), "expected_number": hidden(page, "expected_number")}
    return client.post(f"/t/{table.public_id}/record", data={**data, **ids})


# (form overrides, {field id: words its message says}); the twin (None) records the hand
GANDENGYAN = [
    ({"winner": None, "cards_1": "99", "cards_2": "1", "jokers_2": "3"},
     {"winner": "went out first", "cards_1": "99", "jokers_2": "3 jokers"}),
    ({"winner": None}, {"winner": "went out first"}),                        # one mistake: one message
    ({"cards_1": "99", "cards_2": "1", "jokers_2": "3"}, {"cards_1": "99", "jokers_2": "3 jokers"}),
    ({"cards_1": "", "jokers_2": "9", "cards_2": "5"}, {"cards_1": "number", "jokers_2": "9 jokers"}),
    ({"jokers_1": "3", "cards_2": "5", "jokers_2": "4"}, {"jokers_2": "7 jokers"}),  # 7 in a 4-joker deck
    ({}, None),
]


@pytest.mark.parametrize("overrides, expected", GANDENGYAN)
def test_gandengyan_errors_all_at_once(client, gdy, writer, overrides, expected):
    writer(gdy)
    before = snapshot()
    response = _post(client, gdy, gdy_form(**overrides))
    if expected is None:
        assert response.status_code == 302, field_errors(response)
        return
    assert response.status_code == 400
    errors = field_errors(response)
    assert set(errors) == set(expected), errors
    for field, words in expected.items():
        assert any(words in message for message in errors[field]), (field, errors[field])
    assert snapshot() == before


def test_dagong_points_over_200_flagged_with_the_odd_value(client, dg, writer):
    writer(dg)
    response = _post(client, dg, dg_form(captured_0="123", captured_1="150", captured_2="0", captured_3="0",
                                         last_hand_points="0"))
    assert response.status_code == 400
    page = response.get_data(as_text=True)
    assert "multiple of 5" in page and "273" in page  # the odd value and the total, in one answer
    twin = _post(client, dg, dg_form(captured_0="125", captured_1="150", captured_2="0", captured_3="0",
                                     last_hand_points="0"))
    assert twin.status_code == 400
    page = twin.get_data(as_text=True)
    assert "multiple of 5" not in page and "275" in page
    assert scoring.hand_counts(dg)[1] == 0
