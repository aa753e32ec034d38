"""flask commands. Every rule decision is the engine's."""
import click
from flask import Flask


def init_app(app: Flask) -> None:
    @app.cli.command("check")
    @click.option("--game", type=click.Choice(["gandengyan", "dagong"]), default="gandengyan")
    @click.option("--preset", default=None)
    @click.argument("previous")
    @click.argument("play")
    def check_command(game, preset, previous, play):
        """Is PLAY legal on PREVIOUS? Use '-' for a lead."""
        from .engine import dagong, gandengyan

        module = gandengyan if game == "gandengyan" else dagong
        rules = module.PRESETS[preset] if preset else module.Rules()
        verdict = module.check(None if previous == "-" else previous, play, rules)
        click.echo(("legal" if verdict.legal else "illegal") + f" ({verdict.code}): {verdict.reason}")
