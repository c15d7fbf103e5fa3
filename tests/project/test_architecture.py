"""The import graph: every import points down the layers, and no module imports itself back.

The layers, lowest first, are the top-level folders of ``odds/`` (see the architecture page,
docs/guides/architecture.md, whose diagram this test keeps in step). A module may import
its own layer and any layer below it; a cycle — at module level or inside a function, where
Python would only discover it at run time — fails. Imports under ``if TYPE_CHECKING:`` are
for the type checker only and are not counted.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from tests.paths import ROOT
from tests.project.import_graph import LAYERS, ImportGraph, layer_of, page_with_modules


@pytest.fixture(scope="module")
def graph() -> ImportGraph:
    """The package's import graph, read when a test asks (not at collection: every xdist
    worker collects this file, one runs it)."""
    return ImportGraph.of_package(ROOT / "odds")


def test_every_module_is_in_a_layer(graph):
    unplaced = sorted(m for m in graph.modules if layer_of(m) is None)
    assert unplaced == []


def test_no_import_points_up(graph):
    upward = [f"{edge.source} imports {edge.target} (line {edge.line})" for edge in graph.upward()]
    assert upward == []


def test_no_cycles(graph):
    assert graph.cycles() == []


def test_the_checks_can_fail(tmp_path):
    """A package with an upward import and a cycle is caught by both checks."""
    package = tmp_path / "odds"
    for folder in ("core", "games", "games/dice"):
        (package / folder).mkdir(parents=True)
        (package / folder / "__init__.py").write_text("")
    (package / "__init__.py").write_text("")
    (package / "core" / "shoe.py").write_text("def f():\n    from odds.games.dice import rules\n")
    (package / "games" / "dice" / "__init__.py").write_text(
        "from odds.games.dice.game import GAME\n"
    )
    (package / "games" / "dice" / "game.py").write_text(
        "from odds.games.dice import rules\nGAME = 1\n"
    )
    (package / "games" / "dice" / "rules.py").write_text(
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from odds.core import shoe\n"
        "def g():\n    from odds.games.dice import GAME\n"
    )
    graph = ImportGraph.of_package(package)
    assert [(e.source, e.target) for e in graph.upward()] == [
        ("odds.core.shoe", "odds.games.dice.rules")
    ]
    assert graph.cycles() == [["odds.games.dice", "odds.games.dice.game", "odds.games.dice.rules"]]


def test_the_architecture_page_draws_these_layers():
    page = (ROOT / "docs" / "guides" / "architecture.md").read_text("utf-8")
    diagram = page.split("```mermaid", 1)[1].split("```", 1)[0]
    drawn = re.findall(r"^\s*(\w+)\[", diagram, re.M)
    assert drawn == [layer.name for layer in reversed(LAYERS)]
    for layer in LAYERS:
        assert f"`odds/{layer.folder}`" in page or layer.folder.endswith(".py"), layer.name


@pytest.mark.parametrize("layer", LAYERS, ids=lambda layer: layer.name)
def test_each_layer_is_a_folder_or_module(layer):
    assert (ROOT / "odds" / layer.folder).exists()


def test_the_architecture_page_lists_every_module():
    """Regenerate with ``python -m tests.project.import_graph`` after adding a module."""
    page = (ROOT / "docs" / "guides" / "architecture.md").read_text("utf-8")
    assert page == page_with_modules(page, ROOT / "odds")


def _imports_of_tests(folder: Path) -> list[str]:
    """Every import of ``tests`` (or a module under it) by a module of the package folder,
    under ``if TYPE_CHECKING:`` too: an installed ``odds`` has no ``tests``."""
    found = []
    for path in sorted(folder.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text("utf-8"))):
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and not node.level:
                names = [node.module or ""]
            else:
                continue
            found += [
                f"{path.relative_to(folder.parent).as_posix()}:{node.lineno} imports {name}"
                for name in names
                if name == "tests" or name.startswith("tests.")
            ]
    return found


def test_the_package_imports_nothing_of_the_tests():
    """The docs' measurement scripts (``tests/measure/``) and every test may import ``odds``;
    ``odds`` imports none of them."""
    assert _imports_of_tests(ROOT / "odds") == []


def test_an_import_of_the_tests_is_caught(tmp_path):
    package = tmp_path / "odds"
    (package / "tools").mkdir(parents=True)
    (package / "tools" / "power.py").write_text(
        "import os\nfrom .. import core\n\ndef f():\n    from tests.measure import power\n"
    )
    (package / "cli.py").write_text("import tests.measure.scale as scale\n")
    assert _imports_of_tests(package) == [
        "odds/cli.py:1 imports tests.measure.scale",
        "odds/tools/power.py:5 imports tests.measure",
    ]
