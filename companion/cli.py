"""flask commands: ``check``, ``answers``, ``settle``, ``players``, ``demo``. Every rule decision is the engine's.

The CLI reads its input with the same schemas as the JSON API (companion/schemas/), asks the
same scoring functions and prints the same JSON (the API's answer schemas, companion/schemas/), so a command and a
request with the same data give the same answer and the same error messages. It never imports a
view module.
"""
from __future__ import annotations

import functools
import json
import sys
from contextlib import contextmanager

import click
from flask import Flask, current_app, g

from .engine import ENGINES


@contextmanager
def _request_context(lang: str | None):
    """Flask-Babel needs a request to choose the language; ``--lang`` picks it."""
    headers = {"Accept-Language": lang} if lang else {}
    with current_app.test_request_context("/", headers=headers):
        yield


def _fail(error) -> None:
    """Print an API/engine error the way the API words it, and exit with status 2."""
    from .engine.public import EngineError
    from .i18n import tr
    from .schemas import InputError

    if isinstance(error, InputError):
        message, field = error.message, error.field
    elif isinstance(error, EngineError):
        message, field = tr(error.message), error.field
    else:
        raise error
    click.echo(f"error: {message}" + (f" [{field}]" if field else ""), err=True)
    sys.exit(2)


def _print_answers(answer: dict) -> None:
    sets = answer["readings"] or [{"reading": answer["previous"], "answers": answer["answers"],
                                   "can_beat": answer["can_beat"]}]
    for one in sets:
        if len(sets) > 1 and one["reading"]:
            click.echo(f"as {one['reading']['type']} {one['reading']['read_as']}:")
        if not one["can_beat"]:
            click.echo("  cannot beat it" if len(sets) > 1 else "cannot beat it")
        for item in one["answers"]:
            click.echo(f"{'  ' if len(sets) > 1 else ''}{item['play']}  ({item['type']}): {item['reason']}")


def _number(value) -> str:
    return f"+{value}" if isinstance(value, (int, float)) and value > 0 else str(value)


def _echo_json(answer: dict) -> None:
    click.echo(json.dumps(answer, ensure_ascii=False, indent=2))


def _or_fail(compute, on_error=None):
    """``compute()``; an input or engine error is printed the way the API words it (after
    ``on_error()``, e.g. to drop a half-made change) and exits with status 2."""
    from .engine.public import EngineError
    from .schemas import InputError

    try:
        return compute()
    except (InputError, EngineError) as error:
        if on_error:
            on_error()
        _fail(error)


def _with_rules(body: dict, rules_json: str | None) -> dict:
    """The body of a rules question with ``--rules`` (JSON text) read the way the API reads it."""
    from .schemas import parse_json_text

    if rules_json is not None:
        body["rules"] = parse_json_text(rules_json)
    return body


def _find_table(table_id: str):
    """The table TABLE_ID names, or the error every table command prints (exit status 2)."""
    from . import scoring

    table = scoring.get_table(table_id)
    if table is None or table.deleted_at is not None:
        click.echo(f"error: no table has the id {table_id!r}", err=True)
        sys.exit(2)
    return table


def _lang_option(what: str):
    return click.option("--lang", default=None, help=f"Language of {what} (en, zh, fr, id, ar, ko).")


def _json_option(what: str = "the answer"):
    return click.option("--json", "as_json", is_flag=True, help=f"Print {what} as the JSON API does.")


def check_command(game, preset, rules_json, players, previous_as, play_as, lang, as_json, previous, play):
    """Is PLAY legal on PREVIOUS? Use '-' for PREVIOUS when PLAY leads a new trick.

    Exit status: 0 legal, 1 not legal, 2 bad input.
    """
    body = {"game": game, "previous": None if previous.strip() in ("-", "") else previous, "play": play,
            "players": players, "previous_as": previous_as, "play_as": play_as, "preset": preset}
    with _request_context(lang):
        answer = _or_fail(lambda: _check(_with_rules(body, rules_json)))
    if as_json:
        _echo_json(answer)
    else:
        _print_verdict(answer)
    sys.exit(0 if answer["legal"] else 1)


def _check(body: dict) -> dict:
    from . import scoring
    from .schemas import CheckAnswer, CheckRequest, engine_guard, load, merged

    data = load(CheckRequest, body)
    with engine_guard(None):
        verdict = scoring.check_play(data["game"], data.get("previous"), data["play"], data["rules"],
                                     players=data.get("players"), previous_as=data.get("previous_as"),
                                     play_as=data.get("play_as"))
    return CheckAnswer().dump(merged(verdict, game=data["game"].NAME))


def _print_verdict(answer: dict) -> None:
    word = "legal" if answer["legal"] else "illegal"
    click.echo(f"{word} ({answer['code']}): {answer['reason']}")
    if answer["play"]:
        click.echo(f"reading used: {answer['play']['type']} {answer['play']['read_as']}")
    if len(answer["readings"]) > 1:
        click.echo("all readings: " + "; ".join(f"{r['type']} {r['read_as']}" for r in answer["readings"]))


def answers_command(game, preset, rules_json, players, hand, previous_as, lang, as_json, previous):
    """What beats PREVIOUS? The smallest legal answer of each kind (from --hand when given).

    Exit status: 0 something beats it, 1 nothing can, 2 bad input.
    """
    body = {"game": game, "previous": previous, "hand": hand, "players": players,
            "previous_as": previous_as, "preset": preset}
    with _request_context(lang):
        answer = _or_fail(lambda: _answers(_with_rules(body, rules_json)))
    if as_json:
        _echo_json(answer)
    else:
        _print_answers(answer)
    sys.exit(0 if answer["can_beat"] else 1)


def _answers(body: dict) -> dict:
    from . import scoring
    from .schemas import AnswersAnswer, AnswersRequest, engine_guard, load

    data = load(AnswersRequest, body)
    with engine_guard(None):
        sets = scoring.answer_play(data["game"], data["previous"], data["rules"], hand=data.get("hand"),
                                   players=data.get("players"), previous_as=data.get("previous_as"))
    return AnswersAnswer().dump({"sets": sets, "game": data["game"].NAME})


def settle_command(lang, as_json, source):
    """Settle one hand: SOURCE is a JSON file (or - for standard input) shaped like the
    body of POST /api/v1/settle. Prints each player's delta and the steps."""
    with _request_context(lang):
        answer = _or_fail(lambda: _settle(source.read()))
    if as_json:
        _echo_json(answer)
    else:
        _print_settlement(answer)


def _settle(text: bytes) -> dict:
    from . import scoring
    from .schemas import SettleAnswer, SettleRequest, engine_guard, json_object, load

    data = load(SettleRequest, json_object(text))
    with engine_guard(None):
        settlement = scoring.settle_facts(data["module"], data["facts"], data["rules"], data["stake"])
    return SettleAnswer().dump(settlement)


def _print_settlement(answer: dict) -> None:
    width = max((len(str(name)) for name in answer["deltas"]), default=0)
    points = answer.get("points") or {}
    for name, delta in answer["deltas"].items():
        extra = f"  ({_number(points[name])} points)" if name in points and points[name] != delta else ""
        click.echo(f"{str(name):<{width}}  {_number(delta)}{extra}")
    if answer.get("arch"):
        click.echo(f"winners: {', '.join(answer['winners'])}; {answer['arch']} ×{answer['multiplier']}")
    click.echo("")
    for step in answer["steps"]:
        click.echo(f"- {step}")


def purge_command():
    """Remove for good the tables deleted longer ago than their undo window (10 minutes), with their
    players, hands and history, and the people left with no table. Schedule it (cron, systemd timer);
    the server also does it by itself now and then."""
    from . import review, scoring

    removed = scoring.purge_deleted()
    unfinished = review.purge_unfinished_imports()
    click.echo(f"purged {removed} deleted table(s)" + (f" and {unfinished} unfinished import(s)" if unfinished else ""))


def players_command(rename, lang, as_json, table_id, names):
    """Change who sits at table TABLE_ID between hands: NAMES are the new players in seat order
    (a player left out leaves and keeps their total; a new name joins, or takes the seat of
    the one it replaces). Without NAMES: print the players. Same as PUT /api/v1/tables/<id>/players.
    An id that starts with "-" (some made before ids avoided it) goes after "--":
    flask players [--rename OLD NEW] -- <id> NAMES…"""
    from . import scoring

    with _request_context(lang):
        table = _find_table(table_id)
        if names:
            _or_fail(lambda: _change_players(table, names, rename), on_error=scoring.discard_changes)
        answer = _table_answer(table)
    if as_json:
        _echo_json(answer)
    else:
        _print_players(answer)


def _change_players(table, names, rename) -> None:
    from . import scoring
    from .schemas import PlayersRequest, load

    was = {new: old for old, new in rename}
    entries = [{"name": n, "was": was[n]} if n in was else n for n in names]
    data = load(PlayersRequest, {"players": entries})
    scoring.change_players(table, data["players"], device="cli")


def _table_answer(table) -> dict:
    from .schemas import TableAnswer

    return TableAnswer().dump(table)


def _print_players(answer: dict) -> None:
    click.echo("players: " + ", ".join(p["name"] for p in answer["players"]))
    if answer["players_left"]:
        click.echo("left: " + ", ".join(p["name"] for p in answer["players_left"]))
    click.echo("standings: " + ", ".join(f"{row['player']} {_number(row['points'])}"
                                         for row in answer["standings"]))


def demo_command(base_url):
    """Create a demo table of each game with a few hands (through scoring) and print their links."""
    tables = _make_demo_tables()
    with current_app.test_request_context("/", base_url=base_url):
        g.link_base = base_url.rstrip("/")  # the operator's own address: links use it as given
        for spec, table in zip(DEMO_TABLES, tables):
            _print_demo_table(table, len(spec["hands"]), base_url)


def _make_demo_tables() -> list:
    from . import scoring
    from .engine.public import EngineError

    tables = []
    try:
        for spec in DEMO_TABLES:
            table = scoring.create_table(**spec["table"])
            for i, facts in enumerate(spec["hands"]):
                scoring.record_hand(table, facts, request_id=f"demo-{i}", device="demo")
            tables.append(table)
    except EngineError as error:
        scoring.discard_changes()
        _fail(error)
    return tables


def _print_demo_table(table, hands: int, base_url: str) -> None:
    from . import access, scoring
    from .schemas import StandingAnswer, url

    click.echo(f"{table.name} ({table.game}), {hands} hands")
    token = access.edit_token(table)
    page = url("tables.show", public_id=table.public_id)
    click.echo(f"  page:  {page or base_url + '/'}#key={token}")
    click.echo(f"  api:   {url('api.get_table', public_id=table.public_id)}")
    click.echo(f"  token: {token}")
    click.echo("  standings: " + ", ".join(
        f"{row['player']} {_number(row['points'])}" for row in StandingAnswer(many=True).dump(scoring.standings(table))))


def _commands() -> list[tuple[str, object, list]]:
    """Each command's name, function and options (made for each app, so a game registered before
    the app is made is one of ``--game``'s choices and its presets are in ``--preset``'s help)."""
    game = click.option("--game", type=click.Choice(list(ENGINES)), default=next(iter(ENGINES)), show_default=True)
    previous_as = click.option("--previous-as", default=None, help="What the cards on the table stand for, e.g. '5 5 5'.")
    players = click.option("--players", type=int, default=None, help="Players at the table (decides the decks).")
    presets = "; ".join(f"{name}: {' '.join(module.PRESETS)}" for name, module in ENGINES.items())
    return [
        ("check", check_command, [
            game, click.option("--preset", default=None, help=f"House-rules preset ({presets})."),
            click.option("--rules", "rules_json", default=None,
                         help='House-rule switches as JSON, e.g. \'{"triple_is_bomb": true}\'.'),
            players, previous_as, click.option("--play-as", default=None, help="What the played cards stand for."),
            _lang_option("the reason"), _json_option(), click.argument("previous"), click.argument("play")]),
        ("answers", answers_command, [
            game, click.option("--preset", default=None, help="House-rules preset."),
            click.option("--rules", "rules_json", default=None, help="House-rule switches as JSON."), players,
            click.option("--hand", default=None, help="The cards in your hand: only plays they can make."),
            previous_as, _lang_option("the reasons"), _json_option(), click.argument("previous")]),
        ("settle", settle_command, [
            _lang_option("the steps"), _json_option(), click.argument("source", type=click.File("rb"))]),
        ("purge", purge_command, []),
        ("players", players_command, [
            click.option("--rename", nargs=2, multiple=True, metavar="OLD NEW",
                         help="Rename a player (also in every hand they played); name NEW among the players."),
            _lang_option("the messages"), _json_option("the table"), click.argument("table_id"),
            click.argument("names", nargs=-1)]),
        ("demo", demo_command, [
            click.option("--base-url", default="http://localhost:5000", show_default=True,
                         help="Where the app is served, for the printed links.")]),
    ]


def init_app(app: Flask) -> None:
    for name, function, options in _commands():
        command = functools.wraps(function)(lambda *args, _function=function, **kwargs: _function(*args, **kwargs))
        for option in reversed(options):
            command = option(command)
        app.cli.command(name)(command)


DEMO_TABLES = [
    {"table": dict(game="gandengyan", name="Demo 干瞪眼", players=["Ana", "Bo", "Chen", "Dee"], stake="0.5",
                   currency="¥", preset="source", rules=None, notes="Demo table", first_dealer="Ana"),
     "hands": [
         {"players": ["Ana", "Bo", "Chen", "Dee"], "winner": "Ana",
          "losers": {"Bo": {"cards": 3, "jokers": 0}, "Chen": {"cards": 5, "jokers": 1},
                     "Dee": {"cards": 1, "jokers": 0}}},
         {"players": ["Ana", "Bo", "Chen", "Dee"], "winner": "Chen",
          "losers": {"Ana": {"cards": 2, "jokers": 0}, "Bo": {"cards": 4, "jokers": 0},
                     "Dee": {"cards": 6, "jokers": 2}}},
         {"players": ["Ana", "Bo", "Chen", "Dee"], "winner": "Bo",
          "losers": {"Ana": {"cards": 1, "jokers": 0}, "Chen": {"cards": 2, "jokers": 1},
                     "Dee": {"cards": 3, "jokers": 0}}},
     ]},
    {"table": dict(game="dagong", name="Demo 大冶打拱", players=["P1", "P2", "P3", "P4"], stake="1",
                   currency="", preset="daye", rules=None, notes="Demo table", first_dealer="P1"),
     "hands": [
         {"players": ["P1", "P2", "P3", "P4"], "banker": "P1", "partner": "P3", "shout": None,
          "order": ["P1", "P2", "P3", "P4"], "captured": {"P1": 60, "P2": 50, "P3": 30, "P4": 40},
          "last_hand_points": 20},
         {"players": ["P1", "P2", "P3", "P4"], "banker": "P1", "partner": "P3", "shout": None,
          "order": ["P1", "P3"], "captured": {"P1": 120, "P2": 0, "P3": 80, "P4": 0},
          "last_hand_points": 0},
         {"players": ["P1", "P2", "P3", "P4"], "banker": "P1", "partner": None, "shout": "P3",
          "order": ["P3"], "captured": {}, "last_hand_points": 0},
     ]},
]
