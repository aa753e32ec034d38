"""The docs that live in the repository: docs/api.md is the current snapshot of the OpenAPI
document (scripts/api_doc.py), and the README's and docs' relative links work in a plain clone."""
import re
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


CHECKED = ("README.md", "docs/architecture.md", "docs/api.md")  # every link of these must resolve


def test_readme_and_docs_link_only_inside_the_repository():
    for path in [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]:
        text = path.read_text(encoding="utf-8")
        for target in re.findall(r"\]\(([^)#\s]+)(?:#[^)]*)?\)", text):
            assert not target.startswith(("http://", "https://")) or "localhost" in target, (path.name, target)
            resolved = (path.parent / target).resolve()
            assert resolved.is_relative_to(ROOT), (path.name, target)
            if str(path.relative_to(ROOT)) in CHECKED:
                assert resolved.exists(), (path.name, target)
        assert "../shared" not in text and "shared/design.md" not in text, path.name
