from flask import Blueprint, render_template

from .. import models  # noqa: F401  (registers the models with the metadata)

bp = Blueprint("main", __name__)


@bp.get("/")
def index():
    return render_template("index.html")


@bp.get("/healthz")
def healthz():
    return {"ok": True}
