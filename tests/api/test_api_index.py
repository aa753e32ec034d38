"""GET /api/v1/ (what the API offers), GET /api/v1/games (presets and switches), and the /api help page."""


def test_index_lists_the_endpoints(api):
    answer = api("GET", "/")
    assert answer.status == 200
    assert answer.json["version"] == 1
    assert answer.json["endpoints"]["check"] == "POST /api/v1/check"
    assert answer.json["help"].endswith("/api")


def test_games_describe_presets_and_switches(api):
    games = api("GET", "/games").json["games"]
    assert set(games["gandengyan"]["presets"]) == {"source", "qq", "m2", "xiangshan"}
    assert set(games["dagong"]["presets"]) == {"daye"}
    assert games["gandengyan"]["presets"]["qq"]["triple_follow"] == "anyHigher"
    assert games["gandengyan"]["presets"]["source"]["triple_follow"] == "plusOne"
    assert games["gandengyan"]["players"] == {"min": 2, "max": 6}
    assert games["dagong"]["players"] == {"min": 4, "max": 4}
    for game in games.values():
        for key, switch in game["switches"].items():
            assert isinstance(switch["help"], str) and len(switch["help"]) > 5, key
            assert switch["kind"] in ("choice", "bool", "int", "number")
            assert key in game["presets"][next(iter(game["presets"]))]


def test_help_page(client):
    r = client.get("/api")
    assert r.status_code == 200
    html = r.get_data(as_text=True)
    assert "POST http://localhost/api/v1/check" in html and "X-Edit-Token" in html
    assert 'name="viewport"' in html
