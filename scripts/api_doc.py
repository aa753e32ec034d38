"""Write docs/api.md from the OpenAPI document (/api/v1/openapi.json) and the error codes of
companion/schemas/: ``python scripts/api_doc.py`` (tests/api/test_api_doc.py checks it is current)."""
from __future__ import annotations

import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("SECRET_KEY", "api-doc")

HEAD = """# JSON API v1

<!-- Written by scripts/api_doc.py from the OpenAPI document; edit the schemas, not this file. -->

The machine-readable description is the OpenAPI 3 document that the running app serves at
`GET /api/v1/openapi.json`. It is generated from the same marshmallow schemas
(`companion/schemas/`) that parse every request body and query and write every answer, so it
cannot drift from what the app accepts or sends. A person-readable page built from it is at `/api` in the running app. This file
is a snapshot of the same document, for reading in the repository.

- Send JSON with `Content-Type: application/json`: a body sent with another type is refused, 415
  `unsupported_media_type`. Bodies are at most {body_kib} KiB; a hand's write (record, edit, void,
  restore, undo) at most {hand_kib} KiB; an import at most {import_mib} MiB (refused from its
  `Content-Length`, 413). Every answer is JSON.
- A request with a field the operation does not take is refused (`unknown_field`, `field` names it).
  A request that names its game (check, answers, settle, a new table) is described per game below:
  that game's presets, house-rule switches with their values, player counts and, for settle, its facts.
- A new table needs a `name` (not empty): without one the answer is 400 `required`, "The table needs a name."
- **A hand's facts** are checked the same way at every door (this API, the pages, an import): a count
  written as text is refused (`wrong_type`); a fact the game does not know is refused by name
  (`unknown_fact`); a fact the game knows but the table's rules do not use (the bombs of a bonus
  the table does not play, a count no switch of the table reads) is **dropped**: it is not stored,
  answered or exported.
- **Edit token.** Changes to a table need its edit token (returned once, by `POST /api/v1/tables`
  or `POST /api/v1/import`): send `Authorization: Bearer <token>`. `X-Edit-Token: <token>` is still
  accepted for existing clients. `"token"` in the JSON body still works but is **deprecated**.
  The server stores only a hash of the token and compares in constant time. `urls.share` is the
  table's record link, `…/t/<id>#key=<token>` (the token in the fragment, which browsers never
  send). Resetting the table's share link (on its page) replaces the token: the old one then gets
  403 `bad_token`, with a message that says the link was reset.
- **Errors.** Every bad input is a 4xx answer
  `{"error": {"code": "...", "message": "...", "field": "..." | null}}`: `code` is stable (below),
  `message` is one sentence in the language of `Accept-Language` (or `?lang=`), `field` names the
  input that is wrong (`"play"`, `"losers.B.jokers"`, `"rules.triple_follow"`). When the rules
  engine refused the input, `errors` lists every problem it found at once, the first being `error`
  (`[{"code", "message", "field"}, …]`: a hand with three mistakes lists three). A 409 also carries
  `current` (the stored hand) and `submitted`. Never a 500.
- Version 1 is a contract: fields are added, never renamed or removed.

## Operations
"""


def _type(prop: dict, schemas: dict) -> str:
    if "$ref" in prop:
        return prop["$ref"].rsplit("/", 1)[-1]
    if "oneOf" in prop:
        return " or ".join(_type(p, schemas) for p in prop["oneOf"])
    kind = prop.get("type", "any")
    if kind == "array":
        return f"list of {_type(prop.get('items', {}), schemas)}"
    if "enum" in prop:
        return " \\| ".join(f"`{v}`" for v in prop["enum"])
    return kind


def _fields(schema: dict, schemas: dict) -> list[str]:
    if "oneOf" in schema:  # one variant per game
        lines = []
        for variant in schema["oneOf"]:
            lines += [f"\nFor {variant.get('title', 'one variant')}:\n", *_fields(variant, schemas)]
        return lines
    required = set(schema.get("required", []))
    lines = []
    for name, prop in schema.get("properties", {}).items():
        notes = []
        if name in required:
            notes.append("required")
        if prop.get("nullable"):
            notes.append("may be null")
        if prop.get("deprecated"):
            notes.append("**deprecated**")
        notes.extend(_bounds(prop))
        text = f"- `{name}` ({_type(prop, schemas)}{'; ' + ', '.join(notes) if notes else ''})"
        if prop.get("description"):
            text += f": {prop['description']}"
        lines.append(text)
        for key, inner in (prop.get("properties") or {}).items() if name == "rules" else ():  # each switch
            lines.append(f"  - `{key}` ({'; '.join([_type(inner, schemas), *_bounds(inner)])})")
    return lines


def _bounds(prop: dict) -> list:
    """The document's limits of a value, in words (the same keywords the server's checks match)."""
    notes = []
    labels = (("minimum", ">" if prop.get("exclusiveMinimum") is True else "≥"), ("maximum", "≤"),
              ("minLength", "at least chars:"), ("maxLength", "at most chars:"), ("minItems", "at least items:"),
              ("maxItems", "at most items:"), ("minProperties", "at least entries:"))
    for key, label in labels:
        if key in prop:
            notes.append(f"{label} {prop[key]}")
    if prop.get("uniqueItems"):
        notes.append("no two alike")
    return notes


def render() -> str:
    from companion import create_app
    from companion.schemas import ERROR_CODES

    app = create_app({"TESTING": True, "SQLALCHEMY_DATABASE_URI": "sqlite://"})
    with app.test_request_context("/"):
        doc = app.extensions["openapi"].spec.to_dict()
        codes = {code: str(meaning) for code, meaning in ERROR_CODES.items()}
    schemas = doc["components"]["schemas"]
    from companion.middleware.guard import HAND_WRITE_MAX_BYTES

    config = app.config
    limits = {"{body_kib}": config["MAX_CONTENT_LENGTH"] // 1024,  # the limits the server applies
              "{hand_kib}": config.get("HAND_WRITE_MAX_BYTES", HAND_WRITE_MAX_BYTES) // 1024,
              "{import_mib}": config["IMPORT_MAX_BYTES"] // (1024 * 1024)}
    head = HEAD
    for mark, value in limits.items():
        head = head.replace(mark, str(value))
    out = [head]
    for path, item in doc["paths"].items():
        for method, op in item.items():
            if method not in ("get", "post", "put", "patch", "delete"):
                continue
            out.append(f"### `{method.upper()} {path}`\n")
            if op.get("summary"):
                out.append(op["summary"] + "\n")
            if op.get("security"):
                out.append("Needs the table's edit token.\n")
            params = [*item.get("parameters", []), *op.get("parameters", [])]
            for param in params:
                out.append(f"- {param['in']} `{param['name']}` ({_type(param.get('schema', {}), schemas)})"
                           + (f": {param['description']}" if param.get("description") else ""))
            if params:
                out.append("")
            body = op.get("requestBody")
            if body:
                media = body["content"]["application/json"]
                if "$ref" in media["schema"]:
                    name = media["schema"]["$ref"].rsplit("/", 1)[-1]
                    out.append(f"Body `{name}`{'' if body.get('required') else ' (optional)'}:\n")
                    out.extend(_fields(schemas[name], schemas))
                else:  # a free-form document, described in words
                    out.append(f"Body: {body.get('description', 'a JSON object')}\n")
                if "example" in media:
                    import json

                    out.append("\nExample:\n\n```json\n" + json.dumps(media["example"], ensure_ascii=False) + "\n```")
            answers = []
            for status, response in op.get("responses", {}).items():
                if status == "default":
                    continue
                ref = response.get("$ref")
                if ref:
                    answers.append(f"{status} `ErrorAnswer`")
                    continue
                content = response.get("content", {}).get("application/json", {})
                name = content.get("schema", {}).get("$ref", "").rsplit("/", 1)[-1]
                answers.append(f"{status} `{name}`" if name else status)
            out.append("\nAnswers: " + ", ".join(answers) + "\n")
    out.append("## Answer shapes\n")
    for name in sorted(schemas):
        if name.endswith("Answer") or name in ("ErrorDetail",):
            out.append(f"### `{name}`\n")
            out.extend(_fields(schemas[name], schemas))
            out.append("")
    out.append("## Error codes\n")
    out.append("Each code an answer's `error.code` can take at the API level, once. The engine's own codes "
               "for cards, rules and hand facts (`bad_card`, `unknown_fact`, `jokers_exceed_cards`, …) pass "
               "through unchanged with their field; see docs/engine.md.\n")
    out.append("| code | meaning |\n|---|---|")
    for code, meaning in codes.items():
        out.append(f"| `{code}` | {meaning} |")
    from companion.schemas.per_game import BEYOND_THE_DOCUMENT

    out.append("\n## What the document cannot say\n")
    out.append("A request valid by the OpenAPI document is accepted, except for these refusals (schemathesis "
               "checks it: tests/api/test_openapi_schemathesis.py allows exactly these and no other 4xx):\n")
    out.append("| refusal (code, on fields) | why the document cannot say it |\n|---|---|")
    for code, fields, why in BEYOND_THE_DOCUMENT:
        shown = fields.replace("|", "\\|") or "(a field name)"
        out.append(f"| `{code}` on `{shown}` | {why} |")
    return "\n".join(out).rstrip() + "\n"


if __name__ == "__main__":
    (ROOT / "docs" / "api.md").write_text(render(), encoding="utf-8")
    print("docs/api.md written")
