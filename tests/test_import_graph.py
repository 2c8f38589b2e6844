"""The package's modules and layers import each other without cycles or reach-ins.

Every import counts, at module level or inside a function (a cycle hidden in
a function is still a cycle), except those under ``if TYPE_CHECKING:``, which
never run.  An import of ``a.b.c`` also imports the packages ``a.b`` (its
``__init__``), so it is an edge to them too; only the root package ``katra``
(whose ``__init__`` re-exports the API: the package importing its parts) and
the importer's own packages (it is loaded as their part) are left out.  The
graph is read from the installed sources with ``ast``.

The layers, each a package or a group of modules:

* ``base``: katra's own private modules (``katra._core``, ``katra._games``,
  ``katra._limits``...), shared by every layer;
* ``reference``: ``katra._reference``; ``api``: ``katra.api``; ``testing``:
  ``katra.testing``; ``match``: ``katra.match``; ``cli``: ``katra.cli``;
  ``adapters``: ``katra.openspiel``, ``katra.pettingzoo``, ``katra.gymnasium``;
  ``root``: ``katra`` and ``katra.__main__``.

No cycle between modules, none between layers, and no module imports another
layer's private module (a ``_name`` module inside a layer package) or a private
name (``from m import _name``) of another module.  Within ``api``, one module
(``CORE_SEAM``) imports the compiled core and the others take its objects from
there, and a State's backend position (``State._pos``) is read by the state
module only.  The tests themselves: no test module imports another (what they
share is in helper modules such as tests/helpers.py).
"""
from __future__ import annotations

import ast
from pathlib import Path

import katra
import katra.api

ROOT = "katra"

#: layer package -> layer name; modules of katra outside them are "base"
LAYER_PACKAGES = {"katra._reference": "reference", "katra.api": "api",
                  "katra.testing": "testing", "katra.match": "match", "katra.cli": "cli"}
ADAPTERS = ("katra.openspiel", "katra.pettingzoo", "katra.gymnasium")

#: The one module of katra.api that imports the compiled core (its docstring says why).
CORE_SEAM = "katra.api._backends"
#: The one module that reads a State's backend position (``State._pos``).
STATE_MODULE = "katra.api._state"


def module_files() -> dict[str, Path]:
    """Dotted name -> source file, for katra (without katra.api) and katra.api; the
    compiled core is a module too (its file: its stub, whose imports are not read)."""
    files: dict[str, Path] = {}
    for package, root in ((ROOT, Path(katra.__file__).parent),
                          ("katra.api", Path(katra.api.__file__).parent)):
        for path in [*root.rglob("*.py"), *root.rglob("*.pyi")]:
            if path.suffix == ".pyi" and path.with_suffix(".py").exists():
                continue
            parts = list(path.relative_to(root).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            name = ".".join([package, *parts])
            if package == ROOT and name.startswith("katra.api"):
                continue  # a src/katra/api folder, if any, is not what is installed
            files[name] = path
    return files


def layer(module: str) -> str:
    """The layer of a module of the package (module docs)."""
    if module in (ROOT, "katra.__main__"):
        return "root"
    if module in ADAPTERS:
        return "adapters"
    for package, name in LAYER_PACKAGES.items():
        if module == package or module.startswith(package + "."):
            return name
    return "base"


def is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def parents(module: str) -> list[str]:
    """``a.b.c`` -> ``["a", "a.b"]``."""
    parts = module.split(".")
    return [".".join(parts[:k]) for k in range(1, len(parts))]


def read_imports(name: str, path: Path, known: set[str]) -> tuple[set[str], set[str]]:
    """The package modules ``name`` imports when it runs (parent packages included, but
    for the root and its own), and the private names it imports from package modules
    (``"module._name"``)."""
    if path.suffix == ".pyi":  # a compiled module: its stub's imports never run
        return set(), set()
    tree = ast.parse(path.read_text(encoding="utf-8"))
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    private_names: set[str] = set()

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
            for alias in node.names:
                target = f"{base}.{alias.name}"
                if target in known:
                    found.add(target)
                elif (alias.name.startswith("_") and not alias.name.startswith("__")
                      and base in known):
                    private_names.add(target)
        for child in ast.iter_child_nodes(node):
            visit(child)

    visit(tree)
    found |= {p for m in found for p in parents(m)}
    own = {name, *parents(name)}
    return {m for m in found if m in known and m != ROOT and m not in own}, private_names


def graph() -> dict[str, set[str]]:
    files = module_files()
    known = set(files)
    return {name: read_imports(name, path, known)[0] for name, path in files.items()}


def private_name_imports() -> dict[str, set[str]]:
    files = module_files()
    known = set(files)
    return {name: read_imports(name, path, known)[1] for name, path in files.items()}


def layer_graph(edges: dict[str, set[str]]) -> dict[str, set[str]]:
    """The edges between layers (a layer importing itself is no edge)."""
    layers: dict[str, set[str]] = {}
    for source, targets in edges.items():
        for target in targets:
            if layer(source) != layer(target):
                layers.setdefault(layer(source), set()).add(layer(target))
    return layers


def cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components with more than one node (Tarjan)."""
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


def is_private(module: str) -> bool:
    """A ``_name`` module inside a layer package (``katra.testing._proof``)."""
    return (layer(module) in LAYER_PACKAGES.values() and module not in LAYER_PACKAGES
            and module.rpartition(".")[2].startswith("_"))


def reach_ins(edges: dict[str, set[str]]) -> list[str]:
    """``importer -> module`` for every private module imported from another layer."""
    return sorted(f"{source} -> {target}" for source, targets in edges.items()
                  for target in targets if is_private(target) and layer(source) != layer(target))


# ---------------------------------------------------------------- the test's own checks

def test_the_graph_is_read():
    edges = graph()
    assert "katra.api._state" in edges and "katra._reference.position" in edges
    assert "katra._zobrist" in edges["katra._reference.position"]
    assert "katra.api._records" in edges["katra.api._state"]
    # an import of a module is an edge to its packages too (their __init__ runs)
    assert "katra.testing" in edges["katra.cli.diff"]
    assert "katra.api" in edges["katra.testing._referee"]
    # but not to the root, nor to the importer's own packages
    assert ROOT not in edges["katra.api._state"]
    assert "katra.api" not in edges["katra.api._state"]


def test_parent_package_edges_show_a_loop_a_deferred_import_hides(tmp_path):
    """katra.api._proof importing katra.testing._proof (in a function) imports
    katra.testing, which imports katra.api: a loop through the package edge."""
    files = {"katra.api": "from ._proof import write\n",
             "katra.api._proof": "def write():\n    from katra.testing._proof import room\n",
             "katra.testing": "from katra.api import write\n",
             "katra.testing._proof": "room = 1\n"}
    known = set(files)
    edges = {}
    for name, text in files.items():
        path = tmp_path / (name + ("/__init__.py" if name.count(".") == 1 and "._" not in name
                                   else ".py"))
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        edges[name] = read_imports(name, path, known)[0]
    assert edges["katra.api._proof"] == {"katra.testing", "katra.testing._proof"}
    assert cycles(edges) == [["katra.api", "katra.api._proof", "katra.testing"]]
    assert cycles(layer_graph(edges)) == [["api", "testing"]]
    assert reach_ins(edges) == ["katra.api._proof -> katra.testing._proof"]


def test_the_cycle_finder_finds_cycles():
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert cycles({"a": {"b"}, "b": set()}) == []


def test_layers():
    assert [layer(m) for m in ("katra", "katra._core", "katra._reference.gore", "katra.api",
                               "katra.api._state", "katra.testing._proof", "katra.cli.main",
                               "katra.match._players", "katra.gymnasium", "katra.__main__")] == [
        "root", "base", "reference", "api", "api", "testing", "cli", "match", "adapters", "root"]
    assert is_private("katra.testing._proof") and is_private("katra.api._state")
    assert not is_private("katra._core") and not is_private("katra._reference.common")
    assert not is_private("katra._reference")


# ---------------------------------------------------------------- the package

def test_no_import_cycles_between_modules():
    # The command line included: katra.cli.common holds what its modules share.
    assert cycles(graph()) == []


def test_no_import_cycles_between_layers():
    layers = layer_graph(graph())
    assert cycles(layers) == []
    assert "base" not in layers      # the shared modules import no layer


def test_no_layer_imports_another_layers_private_module():
    assert reach_ins(graph()) == []


def test_no_module_imports_a_private_name_of_another():
    found = sorted(f"{module} imports {name}"
                   for module, names in private_name_imports().items() for name in names)
    assert found == []


def test_api_helpers_do_not_import_the_state_module():
    edges = graph()
    for helper in ("katra.api._render", "katra.api._svg", "katra.api._records",
                   "katra.api._learning", "katra._display"):
        assert "katra.api._state" not in edges[helper], helper


def test_the_api_reaches_the_core_through_one_module():
    edges = graph()
    assert "katra._core" in edges[CORE_SEAM]
    found = sorted(module for module, targets in edges.items()
                   if layer(module) == "api" and module != CORE_SEAM and "katra._core" in targets)
    assert found == [], f"import the core's objects from {CORE_SEAM} instead"


def position_reads(path: Path) -> list[int]:
    """The lines of ``path`` that read an attribute ``_pos`` of anything but ``self``."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return sorted(node.lineno for node in ast.walk(tree)
                  if isinstance(node, ast.Attribute) and node.attr == "_pos"
                  and not (isinstance(node.value, ast.Name) and node.value.id == "self"))


def test_position_reads_are_found(tmp_path):
    path = tmp_path / "helper.py"
    path.write_text("def f(state):\n    self._pos = 1\n    return state._pos.board\n",
                    encoding="utf-8")
    assert position_reads(path) == [3]


def test_only_the_state_module_reads_a_states_position():
    files = module_files()
    assert position_reads(files[STATE_MODULE])  # LegalMoves reads its state's
    found = sorted(f"{module}:{line}" for module, path in files.items()
                   if module != STATE_MODULE and path.suffix == ".py"
                   for line in position_reads(path))
    assert found == [], "use State's interface for katra.api's helpers (_state.py)"


# ---------------------------------------------------------------- the tests

TESTS = Path(__file__).parent


def imported_test_modules(path: Path) -> list[str]:
    """The test modules (``test_*`` files of tests/) that the file at ``path`` imports."""
    tests = {p.stem for p in TESTS.glob("test_*.py")}
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            names.append(base)
            if base in ("", "tests"):   # from . import test_x, from tests import test_x
                names += [alias.name for alias in node.names]
    found = {name.removeprefix("tests.") for name in names}
    return sorted(name for name in found if name in tests)


def test_test_imports_are_found(tmp_path):
    path = tmp_path / "test_example.py"
    path.write_text("import helpers\nfrom test_dfpn import value\nimport tests.test_solve\n"
                    "from . import test_api, helpers\nfrom .test_vector import GAME\n",
                    encoding="utf-8")
    assert imported_test_modules(path) == ["test_api", "test_dfpn", "test_solve", "test_vector"]


def test_no_test_module_imports_another():
    found = {path.name: imported_test_modules(path) for path in sorted(TESTS.rglob("*.py"))}
    assert {name: modules for name, modules in found.items() if modules} == {}, (
        "move what test modules share into a helper module (tests/helpers.py)")
