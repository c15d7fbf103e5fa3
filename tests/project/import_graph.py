"""The package's import graph, read from the source with :mod:`ast` (nothing is imported).

An edge is one ``import`` statement of one module, wherever it is (module level or inside a
function), except under ``if TYPE_CHECKING:``. ``from package import name`` depends on
``package.name`` when that is a module (and on the package itself otherwise), as Python
resolves it.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class Layer:
    """One layer: a folder (or module) of ``odds/`` and what it may know."""

    name: str
    folder: str
    knows: str


#: Lowest first. A module may import its own layer and those below it.
LAYERS = (
    Layer("core", "core", "cards, tiles, shoes, exact numbers, options, tables; no counting"),
    Layer("runtime", "runtime", "files, processes, the terminal"),
    Layer("engine", "engine", "exact counting of hands and deals; no game"),
    Layer("stats", "stats", "every statistic from weighted outcomes; the tests"),
    Layer("output", "output", "Markdown, JSON, CSV, Excel, PDF, SVG from tables and charts"),
    Layer("games", "games", "each game's rules and counting; paytables"),
    Layer("tools", "tools", "verify, solve, sweep, compare, audit, shoe studies"),
    Layer("api", "api.py", "the documented Python API"),
    Layer("cli", "cli", "the command line"),
)
#: The package's own entry points, above every layer.
ENTRY = ("odds", "odds.__main__")


def layer_of(module: str) -> int | None:
    """The rank of a module's layer (0 for core), the top for the entry points, else None."""
    if module in ENTRY:
        return len(LAYERS)
    parts = module.split(".")
    if len(parts) < 2 or parts[0] != "odds":
        return None
    for rank, layer in enumerate(LAYERS):
        if parts[1] == layer.folder.removesuffix(".py"):
            return rank
    return None


@dataclass(frozen=True)
class Edge:
    source: str
    target: str
    line: int


class ImportGraph:
    """Every import between the modules of one package folder."""

    def __init__(self, modules: set[str], edges: list[Edge]) -> None:
        self.modules = modules
        self.edges = edges

    @classmethod
    def of_package(cls, folder: Path) -> ImportGraph:
        root = folder.name
        files: dict[str, Path] = {}
        for path in sorted(folder.rglob("*.py")):
            parts = (root, *path.relative_to(folder).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts = parts[:-1]
            files[".".join(parts)] = path
        edges = []
        for module, path in files.items():
            package = module if path.name == "__init__.py" else module.rpartition(".")[0]
            tree = ast.parse(path.read_text("utf-8"))
            typing_only = {
                id(sub)
                for node in ast.walk(tree)
                if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test)
                for sub in ast.walk(node)
            }
            for node in ast.walk(tree):
                if id(node) in typing_only:
                    continue
                for target in _targets(node, package, files):
                    if target != module:
                        edges.append(Edge(module, target, node.lineno))
        return cls(set(files), edges)

    def upward(self) -> list[Edge]:
        """Edges from a lower layer to a higher one."""
        found = []
        for edge in self.edges:
            source, target = layer_of(edge.source), layer_of(edge.target)
            if source is not None and target is not None and target > source:
                found.append(edge)
        return found

    def cycles(self) -> list[list[str]]:
        """Strongly connected components of more than one module, each sorted (Tarjan)."""
        successors: dict[str, set[str]] = {m: set() for m in self.modules}
        for edge in self.edges:
            successors[edge.source].add(edge.target)
        index: dict[str, int] = {}
        low: dict[str, int] = {}
        stack: list[str] = []
        on_stack: set[str] = set()
        components: list[list[str]] = []

        def visit(v: str) -> None:
            index[v] = low[v] = len(index)
            stack.append(v)
            on_stack.add(v)
            for w in sorted(successors[v]):
                if w not in index:
                    visit(w)
                    low[v] = min(low[v], low[w])
                elif w in on_stack:
                    low[v] = min(low[v], index[w])
            if low[v] == index[v]:
                component = []
                while True:
                    w = stack.pop()
                    on_stack.discard(w)
                    component.append(w)
                    if w == v:
                        break
                if len(component) > 1:
                    components.append(sorted(component))

        for module in sorted(self.modules):
            if module not in index:
                visit(module)
        return sorted(components)


def _targets(node: ast.AST, package: str, files: dict[str, Path]) -> list[str]:
    """The package modules one import statement loads."""
    if isinstance(node, ast.Import):
        return [t for alias in node.names if (t := _module(alias.name, files))]
    if not isinstance(node, ast.ImportFrom):
        return []
    if node.level:
        base = package.split(".")[: len(package.split(".")) - node.level + 1]
        name = ".".join([*base, node.module] if node.module else base)
    else:
        name = node.module or ""
    targets = []
    for alias in node.names:
        if f"{name}.{alias.name}" in files:
            targets.append(f"{name}.{alias.name}")
        elif (t := _module(name, files)) is not None:
            targets.append(t)
    return targets


def _module(name: str, files: dict[str, Path]) -> str | None:
    """The package module ``name`` is, or is inside (``odds.x.y`` for ``odds.x.y.attr``)."""
    while name and name not in files:
        name = name.rpartition(".")[0]
    return name or None


def first_sentence(path: Path) -> str:
    """A module's docstring up to its first blank line, on one line."""
    doc = ast.get_docstring(ast.parse(path.read_text("utf-8"))) or ""
    return " ".join(doc.split("\n\n", 1)[0].split())


def module_table(folder: Path) -> str:
    """The architecture page's list of modules: one table per layer, from the docstrings."""
    lines: list[str] = []
    for layer in LAYERS:
        heading = f"### {layer.name}: `odds/{layer.folder}`"
        lines += [heading, "", layer.knows.capitalize() + ".", ""]
        lines += ["| module | what it is |", "|---|---|"]
        target = folder / layer.folder
        paths = sorted(target.rglob("*.py")) if target.is_dir() else [target]
        for path in paths:
            name = path.relative_to(folder.parent).as_posix()
            text = first_sentence(path).replace("|", "\\|")
            lines.append(f"| `{name}` | {text} |")
        lines.append("")
    return "\n".join(lines)


BEGIN = "<!-- modules: generated by `python -m tests.project.import_graph`; do not edit -->"
END = "<!-- end of modules -->"


def page_with_modules(page: str, folder: Path) -> str:
    """The page with its generated module list replaced by today's."""
    head, rest = page.split(BEGIN, 1)
    _, tail = rest.split(END, 1)
    return f"{head}{BEGIN}\n\n{module_table(folder)}\n{END}{tail}"


if __name__ == "__main__":
    ROOT = Path(__file__).resolve().parents[2]
    PAGE = ROOT / "docs" / "guides" / "architecture.md"
    PAGE.write_text(page_with_modules(PAGE.read_text("utf-8"), ROOT / "odds"), "utf-8")
    print(f"wrote {PAGE}")
