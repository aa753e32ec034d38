"""Issue 17, item 4: the answers of every API route (and the CLI's --json) are the same bytes as
before they went out through their marshmallow schemas. A fixed night at two tables is played over
real HTTP; every answer, with the table ids, tokens, times and the server's address replaced by
placeholders, is compared with ``answers_golden.json`` (written by the hand-built serializers the
schemas replaced). Numbers compare by their JSON text, so 1 and 1.0 differ. Key order does not count.

Rewrite the file only when an answer changes on purpose (a field added):
``GOLDEN_UPDATE=1 .venv/bin/python -m pytest -p no:playwright tests/api/test_answers_golden.py``.
"""
import json
import os
import re
from pathlib import Path

GOLDEN = Path(__file__).with_name("answers_golden.json")

GDY = ["Ana", "Bo", "Chen", "Dee"]
DG = ["P1", "P2", "P3", "P4"]
TIME = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(\+00:00|Z)$")


def _gdy(winner="Ana", **extra):
    losers = {"Bo": {"cards": 3, "jokers": 0}, "Chen": {"cards": 5, "jokers": 1}, "Dee": {"cards": 1, "jokers": 0}}
    losers.pop(winner, None)
    if winner != "Ana":
        losers["Ana"] = {"cards": 2, "jokers": 0}
    return {"winner": winner, "losers": losers, **extra}


DG_HANDS = [
    {"banker": "P1", "partner": "P3", "shout": None, "order": ["P1", "P2", "P3", "P4"],
     "captured": {"P1": 60, "P2": 50, "P3": 30, "P4": 40}, "last_hand_points": 20},
    {"banker": "P1", "partner": "P3", "shout": None, "order": ["P1", "P3"],
     "captured": {"P1": 120, "P2": 0, "P3": 80, "P4": 0}, "last_hand_points": 0},
    {"banker": "P1", "partner": None, "shout": "P3", "order": ["P3"], "captured": {}, "last_hand_points": 0},
]


class Recorder:
    def __init__(self, api):
        self.api = api
        self.answers = {}
        self.calls = {}  # key -> (method, path, status): which operation answered
        self.secrets = {}

    def secret(self, value, name):
        if value and value not in self.secrets:
            self.secrets[value] = f"<{name}>"

    def __call__(self, key, method, path, body=None, status=200, **kw):
        answer = self.api(method, path, body, **kw)
        assert answer.status == status, (key, answer)
        assert answer.headers.get("Content-Type", "").startswith("application/json"), (key, answer)
        self.answers[key] = answer.json
        self.calls[key] = (method, path.split("?")[0], answer.status)
        return answer.json

    def normal(self, value):
        if isinstance(value, dict):
            return {self.normal(k): self.normal(v) for k, v in value.items()}
        if isinstance(value, list):
            return [self.normal(v) for v in value]
        if isinstance(value, str):
            if TIME.match(value):
                return "<time>" + value[-6:].replace("Z", "+00:00")[-6:]
            value = value.replace(self.api.base, "<base>")
            for secret, name in sorted(self.secrets.items(), key=lambda item: -len(item[0])):
                value = value.replace(secret, name)
            value = re.sub(r"\d{4}-\d\d-\d\d \d\d:\d\d UTC", "<date>", value)  # a moment said in a sentence
            return re.sub(r"server-[A-Za-z0-9_-]{16,}", "server-<id>", value)
        return value


def _night(api, runner):
    r = Recorder(api)
    # the rules side, in three languages
    for lang in ("en", "zh", "ar"):
        q = f"?lang={lang}"
        r(f"check {lang}", "POST", "/check" + q, {"game": "gandengyan", "previous": "4 5 6", "play": "5 6 JK"})
        r(f"check illegal {lang}", "POST", "/check" + q, {"game": "gandengyan", "previous": "7", "play": "9"})
        r(f"settle gdy {lang}", "POST", "/settle" + q, {
            "game": "gandengyan", "players": ["A", "B", "C"], "winner": "A", "stake": "0.5",
            "losers": {"B": {"cards": 3, "jokers": 0}, "C": {"cards": 5, "jokers": 1}}})
        r(f"settle dagong {lang}", "POST", "/settle" + q, {"game": "dagong", "players": DG, **DG_HANDS[0]})
        r(f"answers {lang}", "POST", "/answers" + q,
          {"game": "dagong", "previous": "7 7", "hand": "8 JK 9 9 9 9 5h 10h Kh"})
    r("check lead readings", "POST", "/check", {"game": "gandengyan", "previous": None, "play": "5 SJ BJ"})
    r("check dagong 510k", "POST", "/check", {"game": "dagong", "previous": "5h 10c Ks", "play": "5d 10d Kd"})
    r("check pinned", "POST", "/check", {"game": "gandengyan", "previous": "5 JK", "play": "6 6",
                                         "previous_as": "5 5"})
    r("answers readings", "POST", "/answers", {"game": "gandengyan", "previous": "5 JK"})
    r("answers none", "POST", "/answers", {"game": "gandengyan", "previous": "2", "hand": "3 4"})
    r("settle bombs", "POST", "/settle", {
        "game": "gandengyan", "players": GDY, "winner": "Ana", "stake": 2, "dealer": "Bo", "bombs_played": [4],
        "losers": {"Bo": {"cards": 5, "jokers": 0}, "Chen": {"cards": 4, "jokers": 2}, "Dee": {"cards": 1, "jokers": 0}}})
    r("settle dagong shout", "POST", "/settle", {"game": "dagong", "players": DG, "stake": "0.25", **DG_HANDS[2]})
    r("settle dagong dry", "POST", "/settle", {"game": "dagong", "players": DG, **DG_HANDS[1]})
    r("games", "GET", "/games")
    r("games zh", "GET", "/games?lang=zh")
    r("index", "GET", "/")

    # a 干瞪眼 table through a night
    t = r("create gdy", "POST", "/tables", {"game": "gandengyan", "name": "Friday", "players": GDY,
                                            "stake": "0.5", "currency": "¥", "preset": "source",
                                            "first_dealer": "Ana", "notes": "golden"}, status=201)
    r.secret(t["id"], "gdy-id")
    r.secret(t["token"], "gdy-token")
    table, auth = f"/tables/{t['id']}", {"Authorization": "Bearer " + t["token"]}
    r("get gdy new", "GET", table)
    r("record 1", "POST", table + "/hands", {"facts": _gdy(), "request_id": "g1"}, status=201, headers=auth)
    r("record 1 again", "POST", table + "/hands", {"facts": _gdy(), "request_id": "g1"}, headers=auth)
    r("record 2 zh", "POST", table + "/hands?lang=zh", {"facts": _gdy("Chen", dealer="Bo", bombs_played=[4])},
      status=201, headers=auth)
    r("record 3", "POST", table + "/hands", {"facts": _gdy("Bo"), "request_id": "g3", "device": "phone"},
      status=201, headers=auth)
    r("patch stake", "PATCH", table, {"stake": "1.25", "name": "Friday late"}, headers=auth)
    r("record 4", "POST", table + "/hands", {"facts": _gdy("Dee"), "request_id": "g4"}, status=201, headers=auth)
    r("edit 1", "PUT", table + "/hands/1", {"facts": _gdy("Bo"), "revision": 1}, headers=auth)
    r("edit 1 stale", "PUT", table + "/hands/1", {"facts": _gdy("Chen"), "revision": 1}, status=409, headers=auth)
    r("void 2", "POST", table + "/hands/2/void", {"revision": 1}, headers=auth)
    r("restore 2", "POST", table + "/hands/2/restore", {"revision": 2}, headers=auth)
    r("void 3", "POST", table + "/hands/3/void", {"revision": 1}, headers=auth)
    r("undo hand", "POST", table + "/undo", {}, headers=auth)
    r("players", "PUT", table + "/players", {"players": ["Ana", {"name": "Bob", "was": "Bo"}, "Chen", "Eve"]},
      headers=auth)
    r("record 5", "POST", table + "/hands", {"facts": {"winner": "Eve", "losers": {
        "Ana": {"cards": 2, "jokers": 0}, "Bob": {"cards": 4, "jokers": 1}, "Chen": {"cards": 1, "jokers": 0}}},
        "request_id": "g5"}, status=201, headers=auth)
    r("get gdy", "GET", table)
    r("get gdy ar", "GET", table + "?lang=ar")
    r("hands page 1", "GET", table + "/hands?per_page=2")
    r("hands page 3", "GET", table + "/hands?per_page=2&page=3")
    r("hands all", "GET", table + "/hands")
    r("hand 1", "GET", table + "/hands/1")
    r("hand 2", "GET", table + "/hands/2")
    r("summary gdy", "GET", table + "/summary")
    r("summary gdy zh", "GET", table + "/summary?lang=zh")
    exported = api("GET", table + "/export")
    assert exported.status == 200
    imported = r("import", "POST", "/import", raw=exported.raw, status=201)
    r.secret(imported["id"], "imported-id")
    r.secret(imported["token"], "imported-token")
    r("undo players", "POST", f"/tables/{imported['id']}/undo", {},
      headers={"Authorization": "Bearer " + imported["token"]})
    r("archive", "PATCH", table, {"archived": True}, headers=auth)
    r("delete", "PATCH", table, {"deleted": True}, headers=auth)
    r("undelete", "PATCH", table, {"deleted": False, "archived": False}, headers=auth)

    # a 大冶打拱 table, points only
    d = r("create dagong", "POST", "/tables", {"game": "dagong", "name": "大冶", "players": DG, "stake": "0",
                                               "preset": "daye"}, status=201)
    r.secret(d["id"], "dg-id")
    r.secret(d["token"], "dg-token")
    table, auth = f"/tables/{d['id']}", {"X-Edit-Token": d["token"]}
    for i, facts in enumerate(DG_HANDS, 1):
        r(f"dagong record {i}", "POST", table + "/hands", {"facts": facts, "request_id": f"d{i}"},
          status=201, headers=auth)
    r("dagong hands", "GET", table + "/hands")
    r("dagong summary", "GET", table + "/summary")
    r("dagong get", "GET", table)

    # a few errors (their shape is not the schemas' work, but stays the same too)
    r("error unknown table", "GET", "/tables/nope", status=404)
    r("error bad play", "POST", "/check", {"game": "gandengyan", "previous": "7", "play": "4 5 1"}, status=400)
    r("error engine", "POST", table + "/hands", {"facts": {**DG_HANDS[0], "banker": "Zed"}}, status=400,
      headers=auth)

    # the CLI prints the same JSON
    for key, args in {"cli check": ["check", "--json", "--lang", "zh", "4 5 6", "5 6 JK"],
                      "cli answers": ["answers", "--json", "--game", "dagong", "7 7"],
                      "cli players": ["players", "--json", "--", d["id"]]}.items():
        result = runner.invoke(args=args)
        assert result.exit_code in (0, 1), result.output
        r.answers[key] = json.loads(result.output)
    return r


def _canonical(value) -> str:
    return json.dumps(value, sort_keys=True, ensure_ascii=False, indent=1)


def _played_only(answers: dict) -> dict:
    """``/games`` lists every registered game; the night plays the games it opened tables of, and only
    those are compared, so a game added to the registry (docs/engine.md, "Adding a third game") needs
    no new golden file: the registry-wide tests check it."""
    played = {answer["game"] for key, answer in answers.items() if key.startswith("create ")}
    for key in ("games", "games zh"):
        answers[key] = {**answers[key], "games": {g: v for g, v in answers[key]["games"].items() if g in played}}
    return answers


def test_every_answer_is_the_same_as_before(api, live_server):
    runner = live_server.app.test_cli_runner()
    r = _night(api, runner)
    got = _played_only({key: r.normal(value) for key, value in r.answers.items()})
    if os.environ.get("GOLDEN_UPDATE"):
        GOLDEN.write_text(_canonical(got) + "\n", encoding="utf-8")
    want = json.loads(GOLDEN.read_text(encoding="utf-8"))
    assert sorted(got) == sorted(want)
    for key in want:
        assert _canonical(got[key]) == _canonical(want[key]), key
