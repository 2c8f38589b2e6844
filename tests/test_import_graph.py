"""The package's modules import each other without cycles.

Every import counts, at module level or inside a function (a cycle hidden in
a function is still a cycle), except those under ``if TYPE_CHECKING:``, which
never run.  The graph is read from the installed sources with ``ast``.
"""
from __future__ import annotations

import ast
from pathlib import Path

import katra
import katra.api


def module_files() -> dict[str, Path]:
    """Dotted name -> source file, for katra (without katra.api) and katra.api."""
    files: dict[str, Path] = {}
    for package, root in (("katra", Path(katra.__file__).parent),
                          ("katra.api", Path(katra.api.__file__).parent)):
        for path in root.rglob("*.py"):
            parts = list(path.relative_to(root).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            name = ".".join([package, *parts])
            if package == "katra" and name.startswith("katra.api"):
                continue  # a src/katra/api folder, if any, is not what is installed
            files[name] = path
    return files


def is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def imports_of(name: str, path: Path, known: set[str]) -> set[str]:
    """The package modules ``name`` imports when it runs."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()

    def visit(node: ast.AST) -> None:
        if isinstance(node, ast.If) and is_type_checking(node.test):
            for child in node.orelse:
                visit(child)
            return
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")
                anchor = anchor[:len(anchor) - node.level + 1]
                base = ".".join(anchor + ([node.module] if node.module else []))
            found.add(base)
            found.update(f"{base}.{alias.name}" for alias in node.names)
        for child in ast.iter_child_nodes(node):
            visit(child)

    visit(tree)
    # a module imports its parent packages too, but those edges are Python's, not ours
    return {m for m in found if m in known and m != name and not name.startswith(m + ".")}


def graph() -> dict[str, set[str]]:
    files = module_files()
    known = set(files)
    return {name: imports_of(name, path, known) for name, path in files.items()}


def cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components with more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def connect(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(edges.get(v, ())):
            if w not in index:
                connect(w)
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
                found.append(sorted(component))

    for v in sorted(edges):
        if v not in index:
            connect(v)
    return found


def test_the_graph_is_read():
    edges = graph()
    assert "katra.api._state" in edges and "katra._reference.position" in edges
    assert "katra._zobrist" in edges["katra._reference.position"]
    assert "katra.api._records" in edges["katra.api._state"]


def test_the_cycle_finder_finds_cycles():
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert cycles({"a": {"b"}, "b": set()}) == []


def test_no_import_cycles():
    # The command line included: katra.cli.common holds what its modules share.
    edges = graph()
    # katra/__init__ re-exports katra.api, which imports katra's private modules
    # (``from katra import _core``): the package importing its parts, not a cycle.
    for targets in edges.values():
        targets.discard("katra")
    assert cycles(edges) == []


def test_api_helpers_do_not_import_the_state_module():
    edges = graph()
    for helper in ("katra.api._render", "katra.api._svg", "katra.api._records",
                   "katra.api._learning", "katra._display"):
        assert "katra.api._state" not in edges[helper], helper
