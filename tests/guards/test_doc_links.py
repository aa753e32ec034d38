"""Every link of the README and docs/*.md resolves inside the repository (issue 35): a relative
link names a file of the project (never the virtualenv, node_modules or the instance folder), an
``#anchor`` names a heading of the Markdown file it points into (GitHub's slug of it), and no link
leaves the project: no ``http(s)://`` link and no bare address GitHub would turn into one (an
address in a code span, such as ``http://192.168.1.20:5000/``, is text, not a link). Upstream
projects are named in the text, not linked: the docs must read the same in an offline clone.

The checker is shown failing on a small docs folder written to a temporary directory."""
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
NOT_THE_PROJECT = {".venv", "node_modules", "instance", ".git"}

FENCE = re.compile(r"^(```|~~~)")
MD_LINK = re.compile(r"!?\[(?:[^\[\]]|\[[^\]]*\])*\]\(\s*<?([^)\s>]*)>?(?:\s+\"[^\"]*\")?\s*\)")
HTML_LINK = re.compile(r"<(?:a|img)\b[^>]*?\b(?:href|src)\s*=\s*[\"']([^\"']*)[\"']", re.IGNORECASE)
HTML_ANCHOR = re.compile(r"<a\b[^>]*?\b(?:id|name)\s*=\s*[\"']([^\"']*)[\"']", re.IGNORECASE)
AUTOLINK = re.compile(r"<((?:https?|ftp|mailto):[^>\s]*)>|(?<![\w/(\[<])((?:https?://|www\.)[^\s)<]+)")
CODE_SPAN = re.compile(r"(`+)(.+?)\1")
HEADING = re.compile(r"^ {0,3}(#{1,6})\s+(.*?)\s*#*\s*$")


def prose_lines(text: str):
    """(line number, line) of the lines outside fenced code blocks, with code spans blanked."""
    fenced = False
    for number, line in enumerate(text.split("\n"), 1):
        if FENCE.match(line.lstrip()):
            fenced = not fenced
            continue
        if not fenced:
            yield number, CODE_SPAN.sub(lambda m: " " * len(m.group(0)), line)


def slug(heading: str) -> str:
    """GitHub's anchor of a heading: markup dropped, lower case, punctuation dropped (letters of
    any script, digits, ``_`` and ``-`` stay), spaces become hyphens."""
    text = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", heading)  # a link's text
    text = re.sub(r"<[^>]+>", "", text).replace("`", "")
    return re.sub(r"[^\w\- ]", "", text.strip().lower()).replace(" ", "-")


def anchors(path: Path) -> set[str]:
    """Every anchor of a Markdown file: its headings' slugs (a repeated one gets -1, -2 …) and
    explicit ``<a id=…>`` / ``<a name=…>``."""
    seen: dict[str, int] = {}
    found = set()
    fenced = False
    for line in path.read_text(encoding="utf-8").split("\n"):
        if FENCE.match(line.lstrip()):
            fenced = not fenced
            continue
        if fenced:
            continue
        found.update(HTML_ANCHOR.findall(line))
        match = HEADING.match(line)
        if match:
            base = slug(match.group(2))
            count = seen.get(base, 0)
            seen[base] = count + 1
            found.add(base if count == 0 else f"{base}-{count}")
    return found


def problems(root: Path, files: list[Path]) -> list[str]:
    """What is wrong with the links of ``files`` (paths inside ``root``): one line each."""
    found = []
    for path in files:
        where = path.relative_to(root)
        for number, line in prose_lines(path.read_text(encoding="utf-8")):
            for outside in AUTOLINK.findall(line):
                found.append(f"{where}:{number}: a link out of the project: {''.join(outside)}")
            for target in MD_LINK.findall(line) + HTML_LINK.findall(line):
                found += check_target(root, path, target, f"{where}:{number}")
    return found


def check_target(root: Path, path: Path, target: str, where: str) -> list[str]:
    if re.match(r"^[a-z][a-z0-9+.-]*:", target, re.IGNORECASE) or target.startswith("//"):
        return [f"{where}: a link out of the project: {target}"]
    file_part, _, anchor = target.partition("#")
    resolved = (path.parent / file_part).resolve() if file_part else path
    if not resolved.is_relative_to(root):
        return [f"{where}: {target} points outside the repository"]
    if set(resolved.relative_to(root).parts) & NOT_THE_PROJECT or not resolved.exists():
        return [f"{where}: {target}: no such file in the project"]
    if anchor:
        if resolved.suffix != ".md":
            return [f"{where}: {target}: an anchor into a file that is not Markdown"]
        if anchor not in anchors(resolved):
            return [f"{where}: {target}: no heading of {resolved.relative_to(root)} has the anchor #{anchor}"]
    return []


def doc_files(root: Path) -> list[Path]:
    return [root / "README.md", *sorted((root / "docs").rglob("*.md"))]


def test_every_link_of_the_readme_and_docs_resolves_inside_the_project():
    assert problems(ROOT, doc_files(ROOT)) == []


def test_the_readme_stays_a_front_door():
    """Two screens at most: what it is, the pictures, the two commands and links. At 2.1 KB it
    rendered 1,463 px tall at 1280 px wide with its three pictures (3 Dec 2026); the budget leaves
    room for a few more lines, not for a manual (that goes in docs/). Each picture is a phone's
    screen, 390×844, as scripts/screenshot_readme.py draws it."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert len(readme) <= 3500 and readme.count("\n") <= 60, (len(readme), readme.count("\n"))
    pictures = [t for _, line in prose_lines(readme) for t in HTML_LINK.findall(line) + MD_LINK.findall(line)
                if t.endswith(".png")]
    assert pictures
    for picture in pictures:
        header = (ROOT / picture).read_bytes()[:24]
        assert header[:8] == b"\x89PNG\r\n\x1a\n", picture
        assert (int.from_bytes(header[16:20], "big"), int.from_bytes(header[20:24], "big")) == (390, 844), picture


def test_no_doc_names_a_file_outside_the_clone():
    """The design card and the rules specs the project was built from are not in the repository."""
    for path in doc_files(ROOT):
        text = path.read_text(encoding="utf-8")
        assert "../shared" not in text and "shared/design.md" not in text, path.name


def test_every_doc_is_reached_from_the_readme():
    """The front door leads everywhere: every file of docs/ is linked from the README or from a
    doc the README leads to."""
    reached, todo = set(), [ROOT / "README.md"]
    while todo:
        path = todo.pop()
        if path in reached or path.suffix != ".md" or not path.exists():
            continue
        reached.add(path)
        for _, line in prose_lines(path.read_text(encoding="utf-8")):
            for target in MD_LINK.findall(line) + HTML_LINK.findall(line):
                if target and not target.startswith("#"):
                    todo.append((path.parent / target.partition("#")[0]).resolve())
    assert [str(p.relative_to(ROOT)) for p in doc_files(ROOT) if p.resolve() not in reached] == []


def test_the_checker_finds_each_kind_of_broken_link(tmp_path):
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "guide.md").write_text(
        "# Guide\n\n## Record a hand (`make run`)\n\n## Record a hand (`make run`)\n\n## 干瞪眼 §3.2\n",
        encoding="utf-8")
    (tmp_path / "README.md").write_text("\n".join([
        "# Front door",
        "[ok](docs/guide.md#record-a-hand-make-run) [ok](docs/guide.md#record-a-hand-make-run-1)",
        "[ok](docs/guide.md#干瞪眼-32) [ok](#front-door) <img src=\"docs/guide.md\">",
        "`http://192.168.1.20:5000/` and `[x](http://x.org)` are text in code spans",
        "```", "[not a link in a fence](nowhere.md)", "```",
        "[no file](docs/missing.md)",
        "[no heading](docs/guide.md#record-a-hand)",
        "[out](https://example.org/page)",
        "see https://example.org/bare",
        "<img src=\"docs/img/missing.png\">",
        "[outside](../elsewhere.md)",
    ]), encoding="utf-8")
    found = problems(tmp_path, doc_files(tmp_path))
    assert [line.split(":")[1] for line in found] == ["8", "9", "10", "11", "12", "13"], found
