"""The start page: open a table, the tables this phone opened, languages, this phone's name."""
from flask import Blueprint, abort, redirect, render_template, request, url_for

from ..db import models  # noqa: F401  (registers the models with the metadata)
from .. import scoring
from ..forms.tables import DeviceForm
from .tables import has_right, phone_tables, remembered

bp = Blueprint("main", __name__)


@bp.get("/")
def index():
    tables = phone_tables()
    rights = dict(remembered())
    deleted = [t for t in scoring.recently_deleted(rights) if has_right(t, rights[t.public_id])]
    form = DeviceForm(data={"device": request.cookies.get("device", "")})
    return render_template("index.html", tables=[t for t in tables if not t.archived],
                           archived=[t for t in tables if t.archived], deleted=deleted, device_form=form,
                           minutes_left=scoring.undelete_minutes_left)


@bp.post("/device")
def device():
    form = DeviceForm()
    if not form.validate():
        abort(400)
    name = " ".join((form.device.data or "").split())[:60]
    response = redirect(url_for("main.index"))
    if name:
        response.set_cookie("device", name, max_age=365 * 24 * 3600, samesite="Lax", httponly=True)
    else:
        response.delete_cookie("device")
    return response


@bp.get("/healthz")
def healthz():
    """Liveness: the process answers (no database: a database outage must not get it restarted)."""
    return {"ok": True}


@bp.get("/readyz")
def readyz():
    """Readiness: the database answers and its schema is this version's (every migration applied).
    200 ``{"ok": true, ...}``, else 503 saying which (for a load balancer or a person)."""
    from sqlalchemy.exc import SQLAlchemyError

    from ..extensions import db
    from ..db.schema_version import schema_state

    try:
        with db.engine.connect() as connection:
            state = schema_state(connection)
    except SQLAlchemyError as error:
        return {"ok": False, "database": "unreachable", "reason": error.__class__.__name__}, 503
    answer = {"ok": state.ready, "database": "reachable", "schema": state.status,
              "revision": ",".join(state.revisions) or None, "head": state.head}
    if not state.ready:
        answer["reason"] = state.describe()
    return answer, 200 if state.ready else 503


@bp.get("/favicon.ico")
def favicon():
    """Browsers that ask for /favicon.ico without reading the page's icon links."""
    return redirect(url_for("static", filename="favicon-32.png"), code=301)
