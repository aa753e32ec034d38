"""The committed template (companion/translations/messages.pot) holds exactly the strings the code
and templates mark for translation (issue 28: it had fallen 200 msgids behind, so a first `make
messages` rewrote every catalog). The extraction is the Makefile's own `messages` command."""
import re
import shlex
import subprocess
import sys
from pathlib import Path

from babel.messages.pofile import read_po

ROOT = Path(__file__).resolve().parents[2]
POT = ROOT / "companion" / "translations" / "messages.pot"


def keys(path: Path) -> set:
    with open(path, "rb") as fh:
        catalog = read_po(fh)
    return {(m.context, m.id if isinstance(m.id, str) else tuple(m.id)) for m in catalog if m.id}


def extract_command(output: Path) -> list[str]:
    """`make messages`'s pybabel extract line, writing to ``output``."""
    line = next(ln for ln in (ROOT / "Makefile").read_text().splitlines() if "pybabel extract" in ln)
    line = line.replace("$(BIN)/", str(Path(sys.executable).parent) + "/").replace("$(TRANSLATIONS)", "companion/translations")
    command = shlex.split(line.strip())
    command[command.index("-o") + 1] = str(output)
    return command


def test_the_committed_template_matches_the_extracted_strings(tmp_path):
    fresh = tmp_path / "messages.pot"
    subprocess.run(extract_command(fresh), cwd=ROOT, check=True, capture_output=True)
    extracted, committed = keys(fresh), keys(POT)
    missing, stale = extracted - committed, committed - extracted
    assert not missing and not stale, (
        f"{len(missing)} msgids missing from messages.pot, {len(stale)} no longer in the code, e.g. "
        f"{sorted(map(str, missing))[:3]} / {sorted(map(str, stale))[:3]}: regenerate it with the extract line "
        "of `make messages` (and add the new msgids to each catalog)")
    assert re.search(r"--sort-output", " ".join(extract_command(fresh)))
