"""Every module and package directly under companion/ is named in an import-linter contract.

A new top-level module that no contract names would sit outside the layers, free to import upward
unnoticed; this test names it. ``ancestors`` of an ``acyclic_siblings`` contract does not count
(it names the whole of companion, so it would cover anything). The application factory
(companion/__init__.py) wires every layer together and sits above them all."""
import configparser
import pathlib
import pkgutil
import re

ROOT = pathlib.Path(__file__).resolve().parents[2]
NOT_COUNTED = {"ancestors"}


def named_in_contracts(config_text: str) -> set[str]:
    """Every module a contract names (layers split on | and :), outside the ancestors fields."""
    parser = configparser.ConfigParser()
    parser.read_string(config_text)
    names: set[str] = set()
    for section in parser.sections():
        if not section.startswith("importlinter:contract:"):
            continue
        for key, value in parser[section].items():
            if key in NOT_COUNTED or key in {"name", "type"}:
                continue
            names.update(x.strip() for x in re.split(r"[\n|:]", value) if x.strip())
    return names


def uncovered(config_text: str, modules: list[str], root: str = "companion") -> list[str]:
    named = named_in_contracts(config_text)
    return sorted(m for m in modules if f"{root}.{m}" not in named)


def top_level_modules() -> list[str]:
    return sorted(info.name for info in pkgutil.iter_modules([str(ROOT / "companion")]))


def test_every_top_level_module_of_companion_is_in_a_contract():
    modules = top_level_modules()
    assert {"engine", "scoring", "views"} <= set(modules)
    missing = uncovered((ROOT / ".importlinter").read_text(encoding="utf-8"), modules)
    assert missing == [], f"companion.{missing[0]} is in no import-linter contract: add it to a layer of .importlinter"


def test_a_module_named_only_as_an_ancestor_or_a_title_is_reported():
    config = """
[importlinter]
root_packages =
    companion

[importlinter:contract:layers]
name = companion.newcomer is mentioned in a title only
type = layers
layers =
    companion.views | companion.cli
    companion.scoring : companion.access

[importlinter:contract:cycles]
name = none
type = acyclic_siblings
ancestors =
    companion.newcomer
"""
    assert uncovered(config, ["views", "cli", "scoring", "access", "newcomer"]) == ["newcomer"]
    assert uncovered(config, ["views", "access"]) == []
