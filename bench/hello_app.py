"""The baseline of ``make load``: a bare Flask hello world (no hooks, no database, no session),
served by the same gunicorn settings as the app (``bench/load.py``). It answers every path and
method the evening mix sends (``bench/evening.lua``) with the same few bytes."""
from flask import Flask

app = Flask(__name__)


@app.route("/", defaults={"path": ""}, methods=["GET", "POST"])
@app.route("/<path:path>", methods=["GET", "POST"])
def hello(path):
    return "hello"
