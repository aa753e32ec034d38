"""The baseline of ``make load``: a bare Flask hello world (no hooks, no database, no session),
served by the same gunicorn settings as the app (``bench/load.py``)."""
from flask import Flask

app = Flask(__name__)


@app.get("/")
def hello():
    return "hello"
