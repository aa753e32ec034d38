"""The rendered pages pass html-validate's recommended preset (issue 33 item 8): no unlabelled second
<nav>, no `pattern` on a number field, nothing after a <figcaption>, ids that begin with a letter,
no redundant `for`. Left out, as style rather than errors (.htmlvalidate.json): whitespace at the
ends of lines, the lower-case doctype, and a raw ">" in text (valid HTML; autoescaping takes care
of "<" and "&").

html-validate is pinned in package.json / package-lock.json and installed by `make test` (npm ci).
Without it (or without node) the test is skipped with the reason, except under CI=true: it fails.
"""
import json
import os
import pathlib
import shutil
import subprocess

import pytest

from companion import access, scoring

from web_helpers import dg_form

ROOT = pathlib.Path(__file__).resolve().parents[2]
VALIDATE = ROOT / "node_modules" / ".bin" / "html-validate"
MISSING = "html-validate not installed (npm ci in the project folder; make test does it): test skipped"
pytestmark = pytest.mark.db


BAD = ('<!doctype html><html lang="en"><head><meta charset="utf-8"><title>x</title></head><body>'
       '<nav><a href="/">a</a></nav><main><nav><a href="/">b</a></nav><p id="510k">x</p>'
       '<input type="number" pattern="[0-9]*" aria-label="n"></main></body></html>')


@pytest.fixture
def validator():
    if not (VALIDATE.exists() and shutil.which("node")):
        if os.environ.get("CI"):
            pytest.fail("CI is set but " + MISSING)
        pytest.skip(MISSING)
    return VALIDATE


def validate(validator, tmp_path, pages: dict) -> dict:
    files = []
    for name, html in pages.items():
        path = tmp_path / f"{name}.html"
        path.write_text(html, encoding="utf-8")
        files.append(str(path))
    out = tmp_path / "report.json"
    subprocess.run([str(validator), "--config", str(ROOT / ".htmlvalidate.json"), "--formatter", f"json={out}", *files],
                   cwd=ROOT, capture_output=True, timeout=120)
    report = json.loads(out.read_text(encoding="utf-8"))
    return {pathlib.Path(f["filePath"]).stem: sorted({f"{m['ruleId']}: {m['message']} ({m.get('selector')})"
                                                     for m in f["messages"]}) for f in report if f["messages"]}


def test_the_pages_have_no_html_errors(app, client, validator, tmp_path):
    with app.app_context():
        gdy = scoring.create_table(game="gandengyan", name="Valid", players=["Ann", "Bo", "Cy"], stake="1",
                                   currency="¥")
        scoring.record_hand(gdy, {"winner": "Ann", "losers": {"Bo": {"cards": 3, "jokers": 0},
                                                              "Cy": {"cards": 2, "jokers": 1}}}, request_id="v1")
        dg = scoring.create_table(game="dagong", name="Valid", players=["P1", "P2", "P3", "P4"])
        access.set_pin(gdy, "123456")
        g_id, g_key, d_id, d_key = gdy.public_id, access.edit_token(gdy), dg.public_id, access.edit_token(dg)
    client.post(f"/t/{g_id}/join", data={"key": g_key})
    client.post(f"/t/{d_id}/join", data={"key": d_key})
    client.post(f"/t/{d_id}/record", data={**dg_form(), "request_id": "d1"})
    paths = ["/", "/check", "/rules/gandengyan", "/rules/dagong", "/new/gandengyan", "/new/dagong", "/import",
             "/api"] + [f"/t/{t}{p}" for t in (g_id, d_id) for p in (
                 "", "/record", "/hands/1", "/hands/1/edit", "/history", "/sheet", "/chart", "/summary", "/settle",
                 "/export", "/rules", "/check", "/settings", "/players")]
    pages = {}
    right_to_left = {"/", "/rules/dagong", "/api", f"/t/{g_id}", f"/t/{d_id}/record", f"/t/{g_id}/summary"}
    for lang in ("en", "ar"):
        for i, path in enumerate(paths if lang == "en" else [p for p in paths if p in right_to_left]):
            response = client.get(path, query_string={"lang": lang})
            assert response.status_code == 200, path
            pages[f"{lang}-{i}-{path.strip('/').replace('/', '_') or 'index'}"] = response.get_data(as_text=True)
    pages["bad"] = BAD  # the check can fail: a page with the mistakes issue 33 found is refused
    problems = validate(validator, tmp_path, pages)
    found = " ".join(problems.pop("bad", []))
    assert "unique-landmark" in found and "valid-id" in found and "input-attributes" in found
    assert problems == {}, json.dumps(problems, ensure_ascii=False, indent=1)
