"""The docs that live in the repository: docs/api.md is the current snapshot of the OpenAPI
document (scripts/api_doc.py). The README's and docs' links: tests/guards/test_doc_links.py."""
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_api_md_is_current():
    sys.path.insert(0, str(ROOT / "scripts"))
    try:
        import api_doc
    finally:
        sys.path.pop(0)
    assert (ROOT / "docs" / "api.md").read_text(encoding="utf-8") == api_doc.render(), (
        "docs/api.md is stale: run python scripts/api_doc.py")


def test_every_error_code_is_documented_once():
    from companion.schemas import ERROR_CODES

    text = (ROOT / "docs" / "api.md").read_text(encoding="utf-8")
    for code in ERROR_CODES:
        assert text.count(f"| `{code}` |") == 1, code
