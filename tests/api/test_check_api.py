"""POST /api/v1/check over real HTTP: legal cases with their illegal twins, both games, and every
kind of bad input (the engine tests cover the rules exhaustively; these cover the contract)."""
import pytest

from api_helpers import assert_error

G, D = "gandengyan", "dagong"

# (game, previous, play, extra request fields, legal, code or None). Each legal case is followed
# by its illegal twin: the same situation with one thing changed.
CASES = [
    # 干瞪眼 (rules §7)
    (G, "7", "8", {}, True, "ok"),
    (G, "7", "9", {}, False, "not_one_higher"),
    (G, "5 5", "6 JK", {}, True, "ok"),
    (G, "5 5", "2 JK", {}, False, None),
    (G, "4 5 6", "5 6 JK", {}, True, "ok"),
    (G, "4 5 6", "5 6 7 8", {}, False, "length_mismatch"),
    (G, "8 8 8", "4 4 4 4", {}, True, "ok"),
    (G, "6 6 6 6", "5 5 5 5", {}, False, "bomb_too_small"),
    (G, "2", "3 3 3 3", {"players": 4}, True, "ok"),
    (G, "2", "2", {"players": 4}, False, None),
    (G, "8 8 8", "J J J", {"preset": "qq"}, True, "ok"),          # tripleFollow=anyHigher
    (G, "8 8 8", "J J J", {}, False, "not_one_higher"),
    (G, "5 5", "SJ BJ", {"rules": {"joker_bomb": "top"}}, True, "ok"),
    (G, "5 5", "SJ BJ", {}, False, None),
    (G, None, "5 SJ BJ", {}, True, None),                           # a lead with several readings
    (G, None, "6 7", {}, False, None),
    (G, "7", "8", {"players": 2}, True, "ok"),
    (G, "7", "SJ", {"players": 2}, False, None),                     # a joker alone
    # 大冶打拱 (rules §12)
    (D, "9", "10", {}, True, "ok"),
    (D, "A", "3 3", {}, False, "type_mismatch"),
    (D, "7 7", "8 JK", {}, True, "ok"),
    (D, "2", "JK", {}, False, None),
    (D, None, "3 3 3 4 4 4", {}, True, None),
    (D, None, "3 4 5 6 7", {}, False, None),
    (D, "5h 10c Ks", "5d 10d Kd", {}, True, "ok"),
    (D, "5h 10c Ks", "5d 10s Ks", {}, False, None),
    (D, "5 5 5 5", "3 3 3 3 3", {}, True, "ok"),
    (D, "K K K K", "5s 10s Ks", {}, False, None),
    (D, "K", "pass", {}, True, "pass"),
    (D, "3 3 4 4 5 5", "6 6 7 7 8 8 9 9", {}, False, None),
]


@pytest.mark.parametrize("game,previous,play,extra,legal,code", CASES,
                         ids=[f"{c[0][:3]}-{c[1]}-{c[2]}-{'legal' if c[4] else 'illegal'}-{i}"
                              for i, c in enumerate(CASES)])
def test_check_verdicts(api, game, previous, play, extra, legal, code):
    answer = api("POST", "/check", {"game": game, "previous": previous, "play": play, **extra})
    assert answer.status == 200, answer
    body = answer.json
    assert set(body) >= {"legal", "code", "reason", "play", "readings"}
    assert body["legal"] is legal, body
    if code:
        assert body["code"] == code, body
    assert isinstance(body["reason"], str) and len(body["reason"]) > 10
    assert isinstance(body["readings"], list)
    for reading in body["readings"] + ([body["play"]] if body["play"] else []):
        assert set(reading) >= {"type", "cards", "reading"}
        assert isinstance(reading["cards"], str) and isinstance(reading["reading"], str)


def test_cases_come_in_twins():
    """Every legal example is followed by an illegal twin of the same game."""
    for legal, twin in zip(CASES[::2], CASES[1::2]):
        assert legal[4] is True and twin[4] is False and legal[0] == twin[0]


def test_reading_used_is_in_notation(api):
    body = api("POST", "/check", {"game": G, "previous": "5 5", "play": "6 JK"}).json
    assert body["play"]["type"] == "pair"
    assert body["play"]["cards"] == "6 JK"
    assert body["play"]["reading"] == "6 6"


def test_joker_reading_for_a_straight(api):
    body = api("POST", "/check", {"game": G, "previous": "4 5 6", "play": "5 6 JK"}).json
    assert body["legal"] is True
    assert body["play"]["type"] == "straight"
    assert body["play"]["reading"].split() == ["5", "6", "7"]


def test_lead_lists_every_reading(api):
    body = api("POST", "/check", {"game": G, "previous": None, "play": "5 SJ BJ"}).json
    readings = {(r["type"], r["reading"]) for r in body["readings"]}
    assert ("triple", "5 5 5") in readings
    assert {r["type"] for r in body["readings"]} >= {"triple", "straight"}
    assert len(body["readings"]) >= 4  # 555, 345, 456, 567


def test_previous_may_be_omitted_or_a_dash(api):
    for body in ({"game": G, "play": "8"}, {"game": G, "previous": "-", "play": "8"},
                 {"game": G, "previous": "", "play": "8"}):
        answer = api("POST", "/check", body)
        assert answer.status == 200 and answer.json["legal"] is True, answer


def test_cards_as_a_list_of_strings(api):
    answer = api("POST", "/check", {"game": G, "previous": ["7"], "play": ["8"]})
    assert answer.status == 200 and answer.json["legal"] is True


def test_declared_reading(api):
    """play_as fixes what the jokers stand for: 5 SJ BJ declared as 5 6 7 (a straight)."""
    body = api("POST", "/check", {"game": G, "previous": None, "play": "5 SJ BJ", "play_as": "5 6 7"}).json
    assert body["play"]["type"] == "straight" and body["play"]["reading"].split() == ["5", "6", "7"]


def test_chinese_game_names_and_joker_words(api):
    answer = api("POST", "/check", {"game": "干瞪眼", "previous": "5 5", "play": "6 小王"})
    assert answer.status == 200 and answer.json["legal"] is True


# ------------------------------------------------------------------------------------------
# Bad input: always 4xx with {"error": {"code", "message", "field"}}


@pytest.mark.parametrize("body,code,field", [
    ({"previous": "7", "play": "8"}, "missing", "game"),
    ({"game": "poker", "previous": "7", "play": "8"}, "unknown_game", "game"),
    ({"game": 7, "previous": "7", "play": "8"}, "unknown_game", "game"),
    ({"game": ["gandengyan"], "previous": "7", "play": "8"}, "unknown_game", "game"),
    ({"game": G, "previous": "7"}, "missing", "play"),
    ({"game": G, "previous": "7", "play": None}, "missing", "play"),
    ({"game": G, "previous": "7", "play": 8}, "wrong_type", "play"),
    ({"game": G, "previous": {"a": 1}, "play": "8"}, "wrong_type", "previous"),
    ({"game": G, "previous": "7", "play": "8" * 1000}, "too_long", "play"),
    ({"game": G, "previous": "7", "play": "4 5 1"}, "bad_card", "play"),
    ({"game": G, "previous": "7x", "play": "8"}, "bad_card", "previous"),
    ({"game": G, "previous": "7", "play": "8", "preset": "nope"}, "unknown_preset", "preset"),
    ({"game": G, "previous": "7", "play": "8", "preset": 3}, "unknown_preset", "preset"),
    ({"game": D, "previous": "7", "play": "8", "preset": "qq"}, "unknown_preset", "preset"),
    ({"game": G, "previous": "7", "play": "8", "rules": {"no_such_rule": True}}, "unknown_rule", "rules.no_such_rule"),
    ({"game": G, "previous": "7", "play": "8", "rules": {"triple_is_bomb": "maybe"}}, None, "rules.triple_is_bomb"),
    ({"game": G, "previous": "7", "play": "8", "rules": ["triple_is_bomb"]}, "wrong_type", "rules"),
    ({"game": G, "previous": "7", "play": "8", "rules": "qq"}, "wrong_type", "rules"),
    ({"game": G, "previous": "7", "play": "8", "players": "4"}, "wrong_type", "players"),
    ({"game": G, "previous": "7", "play": "8", "players": 4.5}, "wrong_type", "players"),
    ({"game": G, "previous": "7", "play": "8", "players": True}, "wrong_type", "players"),
    ({"game": G, "previous": "7", "play": "8", "players": 7}, "out_of_range", "players"),
    ({"game": G, "previous": "7", "play": "8", "players": 10**30}, "out_of_range", "players"),
    ({"game": D, "previous": "7", "play": "8", "players": 5}, "out_of_range", "players"),
    ({"game": G, "previous": "7", "play": "8", "play_as": 8}, "wrong_type", "play_as"),
    # digits that str.isdigit() accepts but int() refuses
    ({"game": G, "previous": "7", "play": "8", "rules": {"shut_out": "threshold:²"}}, None, "rules*"),
    ({"game": D, "previous": "7", "play": "8", "rules": {"bomb_min": "²"}}, None, "rules*"),
])
def test_bad_check_requests(api, body, code, field):
    error = assert_error(api("POST", "/check", body), 400, code, field)
    assert error["message"][0].isupper() or error["message"][0] in "'\""


def test_bad_card_message_says_what_and_where(api):
    error = assert_error(api("POST", "/check", {"game": G, "previous": "7", "play": "4 5 1"}), 400)
    assert "'1'" in error["message"] and "position 3" in error["message"]


@pytest.mark.parametrize("raw,code", [
    (b"", "empty_body"),
    (b"{", "bad_json"),
    (b"{'game': 'gandengyan'}", "bad_json"),
    (b"[1, 2]", "not_an_object"),
    (b"\"gandengyan\"", "not_an_object"),
    (b"null", "not_an_object"),
    (b"42", "not_an_object"),
    (b"NaN", "bad_json"),
    (b"{\"players\": Infinity}", "bad_json"),
    (b"\xff\xfe\x00garbage", "bad_json"),
    (b"[" * 5000 + b"]" * 5000, "bad_json"),
    (b'{"game": "gandengyan", "play": "8", "rules": {"cap": ' + b"[" * 500 + b"]" * 500 + b"}}", "bad_json"),
    (b"{\"n\": 1" + b"0" * 5000 + b"}", "bad_json"),
])
def test_malformed_bodies(api, raw, code):
    assert_error(api("POST", "/check", raw=raw), 400, code)


def test_body_too_large_is_413_json(api):
    answer = api("POST", "/check", raw=b'{"game": "' + b"x" * 300_000 + b'"}')
    assert_error(answer, 413)


def test_wrong_method_and_unknown_path_are_json(api):
    assert_error(api("GET", "/check"), 405)
    assert_error(api("POST", "/nothing-here", {}), 404)


def test_reason_is_translated_through_babel(api, monkeypatch):
    """Every engine sentence goes through gettext with the request's language."""
    import flask_babel

    seen = []
    real = flask_babel.Domain.gettext

    def spy(self, string, **variables):
        seen.append(flask_babel.get_locale().language)
        return real(self, string, **variables)

    monkeypatch.setattr(flask_babel.Domain, "gettext", spy)
    answer = api("POST", "/check", {"game": G, "previous": "7", "play": "9"}, headers={"Accept-Language": "fr"})
    assert answer.status == 200
    assert "fr" in seen
