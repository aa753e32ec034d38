"""No import cycle anywhere in companion/, and proof that both guards of `make guards` see one.

``scripts/import_cycles.py`` builds the import graph with grimp (imports inside functions count;
a package's ``__init__`` is a module of its own) and names every circle; the ``acyclic_siblings``
contract of ``.importlinter`` checks siblings at every depth. Each is shown failing on a small
package written to a temporary folder."""
import importlib.util
import os
import pathlib
import subprocess
import sys
import textwrap

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
spec = importlib.util.spec_from_file_location("import_cycles", ROOT / "scripts" / "import_cycles.py")
import_cycles = importlib.util.module_from_spec(spec)
spec.loader.exec_module(import_cycles)


def write_package(root: pathlib.Path, name: str, files: dict) -> None:
    package = root / name
    package.mkdir()
    for path, text in files.items():
        target = package / path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(textwrap.dedent(text))


@pytest.fixture
def on_path(tmp_path, monkeypatch):
    monkeypatch.syspath_prepend(str(tmp_path))
    return tmp_path


def test_companion_has_no_import_cycle():
    assert import_cycles.find_cycles("companion") == []


def test_a_cycle_through_an_import_inside_a_function_is_found(on_path):
    write_package(on_path, "cyc_func", {
        "__init__.py": "",
        "a.py": "from . import b\n",
        "b.py": "def late():\n    from .a import x  # inside a function: still a cycle\n    return x\n",
        "c.py": "from . import a\n",  # imports into the cycle, is not part of it
    })
    assert import_cycles.find_cycles("cyc_func") == [(["cyc_func.a", "cyc_func.b", "cyc_func.a"],
                                                     ["cyc_func.a", "cyc_func.b"])]


def test_a_cycle_through_a_packages_front_door_is_found(on_path):
    """A submodule importing its package's __init__ (which imports it): the cycle the front doors
    of companion.scoring and companion.review must never have."""
    write_package(on_path, "cyc_door", {
        "__init__.py": "from .inner import thing\n",
        "inner.py": "import cyc_door\n\nthing = 1\n",
        "other.py": "from .inner import thing\n",
    })
    assert import_cycles.find_cycles("cyc_door") == [(["cyc_door", "cyc_door.inner", "cyc_door"],
                                                     ["cyc_door", "cyc_door.inner"])]


def test_a_longer_cycle_is_named_in_full_and_the_script_fails(on_path):
    write_package(on_path, "cyc_long", {
        "__init__.py": "",
        "one.py": "from . import two\n",
        "two.py": "from . import three\n",
        "three.py": "from .sub import four\n",
        "sub/__init__.py": "",
        "sub/four.py": "from .. import one\n",
        "fine.py": "from . import one\n",
    })
    (chain, group), = import_cycles.find_cycles("cyc_long")
    assert chain == ["cyc_long.one", "cyc_long.two", "cyc_long.three", "cyc_long.sub.four", "cyc_long.one"]
    script = subprocess.run([sys.executable, str(ROOT / "scripts" / "import_cycles.py"), "cyc_long"],
                            capture_output=True, text=True, cwd=on_path, env={**os.environ, "PYTHONPATH": str(on_path)})
    assert script.returncode == 1
    assert "cyc_long.one -> cyc_long.two -> cyc_long.three -> cyc_long.sub.four -> cyc_long.one" in script.stdout


def test_no_cycle_passes(on_path):
    write_package(on_path, "acyclic", {"__init__.py": "from .a import x\n", "a.py": "from .b import y as x\n",
                                       "b.py": "y = 1\n"})
    assert import_cycles.find_cycles("acyclic") == []


def test_the_import_linter_contract_fails_on_a_cycle_between_siblings(on_path):
    """The `acyclic_siblings` contract as .importlinter writes it, on a package with a cycle between
    two subpackages (through an import inside a function), and on the same package without it."""
    write_package(on_path, "layered", {
        "__init__.py": "",
        "low/__init__.py": "",
        "low/m.py": "def f():\n    from ..high import n\n    return n\n",
        "high/__init__.py": "",
        "high/n.py": "from ..low import m\n",
    })
    contract = ROOT / ".importlinter"
    assert "type = acyclic_siblings" in contract.read_text()
    config = on_path / "cycles.ini"
    config.write_text("[importlinter]\nroot_packages =\n    layered\n\n[importlinter:contract:c]\nname = No cycles\n"
                      "type = acyclic_siblings\nancestors =\n    layered\n")
    lint = pathlib.Path(sys.executable).with_name("lint-imports")
    env = {**os.environ, "PYTHONPATH": str(on_path)}

    def run():
        return subprocess.run([str(lint), "--config", str(config), "--no-cache"], capture_output=True, text=True,
                              cwd=on_path, env=env)

    broken = run()
    assert broken.returncode != 0 and "No cycles BROKEN" in broken.stdout
    (on_path / "layered" / "low" / "m.py").write_text("def f():\n    return 1\n")
    kept = run()
    assert kept.returncode == 0 and "No cycles KEPT" in kept.stdout
