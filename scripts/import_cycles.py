"""Fail when a package's modules import each other in a circle, naming every circle found.

    python scripts/import_cycles.py companion      (run by `make guards`)

The import graph is built by grimp (import-linter's own graph library) from the source, so an
import inside a function counts like one at the top of a module, and a package's ``__init__`` is
a module of its own: a submodule that imports its package's front door while that front door
imports it is a circle too. import-linter's ``acyclic_siblings`` contract (in ``.importlinter``)
checks sibling modules and packages at every depth; this check adds the circles it cannot see
(through a package's ``__init__``) and prints each one as a chain of imports.
"""
from __future__ import annotations

import sys

import grimp


def strongly_connected(graph: grimp.ImportGraph, modules: set[str]) -> list[list[str]]:
    """The groups of ``modules`` that import each other in a circle (Tarjan's algorithm, without
    recursion), each sorted; groups of one module are left out unless it imports itself."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    groups: list[list[str]] = []
    edges = {m: sorted(d for d in graph.find_modules_directly_imported_by(m) if d in modules) for m in modules}
    counter = 0
    for root in sorted(modules):
        if root in index:
            continue
        work = [(root, 0)]
        while work:
            node, i = work.pop()
            if i == 0:
                index[node] = low[node] = counter
                counter += 1
                stack.append(node)
                on_stack.add(node)
            for j in range(i, len(edges[node])):
                nxt = edges[node][j]
                if nxt not in index:
                    work.append((node, j + 1))
                    work.append((nxt, 0))
                    break
                if nxt in on_stack:
                    low[node] = min(low[node], index[nxt])
            else:
                if low[node] == index[node]:
                    group = []
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        group.append(member)
                        if member == node:
                            break
                    if len(group) > 1 or node in edges[node]:
                        groups.append(sorted(group))
                if work:
                    parent = work[-1][0]
                    low[parent] = min(low[parent], low[node])
    return sorted(groups)


def a_cycle(graph: grimp.ImportGraph, group: list[str]) -> list[str]:
    """One circle through the first module of ``group``: [a, b, …, a] (the shortest way back)."""
    first = group[0]
    best: tuple[str, ...] | None = None
    for nxt in sorted(graph.find_modules_directly_imported_by(first)):
        if nxt == first:
            return [first, first]
        if nxt in group:
            chain = graph.find_shortest_chain(importer=nxt, imported=first)
            if chain and (best is None or len(chain) < len(best)):
                best = chain
    return [first, *best] if best else group + [first]


def find_cycles(package: str) -> list[tuple[list[str], list[str]]]:
    """Every circle of imports among ``package``'s modules: ``(one circle as a chain, every module
    of its group)`` per group of modules that import each other."""
    graph = grimp.build_graph(package, cache_dir=None)
    modules = {m for m in graph.modules if m == package or m.startswith(package + ".")}
    return [(a_cycle(graph, group), group) for group in strongly_connected(graph, modules)]


def describe(chain: list[str], group: list[str]) -> str:
    others = [m for m in group if m not in chain]
    return " -> ".join(chain) + (f" (and through {', '.join(others)})" if others else "")


def main(argv: list[str]) -> int:
    packages = argv or ["companion"]
    found = 0
    for package in packages:
        for chain, group in find_cycles(package):
            found += 1
            print(f"Import cycle: {describe(chain, group)}")
    if found:
        print(f"{found} import cycle(s): move the shared piece to a module both can import (imports inside "
              "functions count too; see docs/architecture.md).")
        return 1
    print(f"Import cycles: none in {', '.join(packages)}.")
    return 0


if __name__ == "__main__":
    sys.path.insert(0, ".")
    sys.exit(main(sys.argv[1:]))
