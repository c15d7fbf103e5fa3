"""The blackjack package's own import graph: no cycles, annotations included.

``tests/project/test_architecture.py`` checks the layers between packages; inside
``odds.games.blackjack`` a module used to import a module that imports it back
under ``TYPE_CHECKING`` (three such cycles). Every import counts here: top level,
inside functions and for annotations only.
"""

from __future__ import annotations

import ast

from tests.paths import ROOT

PACKAGE = ROOT / "odds" / "games" / "blackjack"
PREFIX = "odds.games.blackjack"


def _graph() -> dict[str, set[str]]:
    graph: dict[str, set[str]] = {}
    for path in PACKAGE.glob("*.py"):
        found: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module:
                if node.module.startswith(PREFIX + "."):
                    found.add(node.module.split(".")[3])
                elif node.module == PREFIX:
                    found.update(alias.name for alias in node.names)
            elif isinstance(node, ast.Import):
                found.update(
                    alias.name.split(".")[3]
                    for alias in node.names
                    if alias.name.startswith(PREFIX + ".")
                )
        graph[path.stem] = found - {path.stem, "__init__"}
    return graph


def test_no_import_cycles_inside_the_package() -> None:
    graph = _graph()
    cycles = []

    def walk(start: str, node: str, path: list[str]) -> None:
        for nxt in sorted(graph.get(node, ())):
            if nxt == start:
                cycles.append(" -> ".join([*path, start]))
            elif nxt not in path and nxt > start:
                walk(start, nxt, [*path, nxt])

    for module in sorted(graph):
        walk(module, module, [module])
    assert cycles == []


def test_no_private_names_imported_across_modules() -> None:
    """A name a module keeps to itself (a leading underscore) stays in it."""
    imported = []
    for path in PACKAGE.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith(PREFIX):
                imported += [f"{path.stem}: {a.name}" for a in node.names if a.name[0] == "_"]
    assert imported == []
