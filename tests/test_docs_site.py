"""The documentation site's hook (tools/docs_site.py) and the docstrings it renders.

The site itself is built by CI in a virtual environment holding only the wheel
and the docs extra (`.ci/run`); these tests keep its two past failures out of
the default run: the hook must not import the adapters (their extras are not
the docs extra's), and every reference link of a docstring must name an object
the reference renders (mkdocs-autorefs fails the strict build on one it cannot
find). The docstrings' convention: cross-references are autorefs
(``[katra.State][]``, ``[search][katra.search]``), examples ``>>>`` blocks in a
```` ```pycon ```` fence, literal blocks fenced code, no Sphinx roles.
"""
from __future__ import annotations

import importlib
import inspect
import re
import subprocess
import sys
from pathlib import Path

import pytest

import katra

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))
import docs_site  # noqa: E402  (tools/ is no package)

#: What each adapter's extra brings: blocked in the child below, as in a docs-only venv.
EXTRA_MODULES = ("numpy", "pyspiel", "pettingzoo", "gymnasium")


@pytest.mark.parametrize("module_name", docs_site.ADAPTERS)
def test_adapters_public_names_read_from_source_match_the_module(module_name):
    assert docs_site.source_all(module_name) == importlib.import_module(module_name).__all__


def test_reference_check_runs_without_the_adapters_extras_or_mkdocs():
    """In a child where NumPy, OpenSpiel, PettingZoo, Gymnasium and mkdocs cannot be
    imported, the check still names every public name that has no entry, the
    adapters' included, and imports none of them."""
    blocked = (*EXTRA_MODULES, "mkdocs")
    code = f"""\
import sys
for name in {blocked!r}:
    sys.modules[name] = None        # import raises ImportError, as where it is missing
sys.path.insert(0, {str(ROOT / "tools")!r})
import docs_site, katra.api, katra.testing
missing = docs_site.missing_from_reference(set())
adapters = [m for m in docs_site.ADAPTERS if m in sys.modules]
print(len(missing), *sorted(set(m.rsplit(".", 1)[0] for m in missing)), "imported:", *adapters)
"""
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                            timeout=120)
    assert result.returncode == 0, result.stderr
    every = sum(len(importlib.import_module(m).__all__) for m in docs_site.REFERENCED)
    assert result.stdout.split() == [str(every), *sorted(docs_site.REFERENCED), "imported:"]


def test_reference_check_accepts_reexported_names_under_katra():
    anchors = {f"katra.{name}" for name in katra.__all__}
    anchors |= {f"{m}.{name}" for m in docs_site.REFERENCED[1:]
                for name in importlib.import_module(m).__all__
                if getattr(katra, name, None) is not getattr(importlib.import_module(m), name)}
    assert docs_site.missing_from_reference(anchors) == []
    assert docs_site.missing_from_reference(anchors - {"katra.perft"}) == ["katra.perft",
                                                                           "katra.api.perft"]


#: ``[text][target]`` or ``[text]`` and ``[target]`` on consecutive lines: Markdown's
#: reference link, which mkdocs-autorefs resolves as a cross-reference (and a strict
#: build fails on one it cannot find: the doctest output of a list of tuples did).
_REFERENCE_LINK = re.compile(r"\][ \t]*\n?[ \t]*\[")

#: An autoref: ``[text][identifier]``, or ``[identifier][]``.
_AUTOREF = re.compile(r"\[([^\]\n]+)\]\[([^\]\n]*)\]")

#: What Markdown shows as code, where no link is read: fences and inline code.
_CODE = re.compile(r"^[ \t]*```.*?^[ \t]*```|``.*?``|`[^`\n]*`", re.S | re.M)

#: A Sphinx role, which the reference would show as raw text.
_SPHINX_ROLE = re.compile(r":(func|class|meth|attr|data|mod|exc|obj):`")


def _public_docstrings():
    for module_name in docs_site.REFERENCED:
        module = importlib.import_module(module_name)
        yield module_name, inspect.getdoc(module) or ""
        for name in module.__all__:
            obj = getattr(module, name)
            if _documented(obj):    # (a constant's getdoc is its type's)
                yield f"{module_name}.{name}", _own_doc(obj)
            if inspect.isclass(obj):
                for member in vars(obj):
                    value = getattr(obj, member)
                    if (not member.startswith("_") or member == "__init__") and _documented(value):
                        yield f"{module_name}.{name}.{member}", _own_doc(value)


def _own_doc(obj):
    """The docstring the reference renders: the object's own, never one it inherits
    (``inspect.getdoc`` falls back to a base class's, which mkdocstrings does not show)."""
    return inspect.cleandoc(obj.__doc__ or "")


def _documented(obj):
    return inspect.isroutine(obj) or inspect.isclass(obj) or isinstance(obj, property)


def _renders(identifier):
    """Is ``identifier`` a public object of a module the reference renders?"""
    parts = identifier.split(".")
    if any(part.startswith("_") for part in parts):
        return False
    for n in range(len(parts), 0, -1):
        module_name = ".".join(parts[:n])
        if module_name in docs_site.REFERENCED:
            obj = importlib.import_module(module_name)
            for part in parts[n:]:
                if not hasattr(obj, part) and part not in getattr(obj, "__annotations__", {}):
                    return False
                obj = getattr(obj, part, None)
            return True
    return False


def test_public_docstrings_link_only_what_the_reference_renders():
    """Outside code, a docstring's reference links are autorefs to rendered objects."""
    wrong = []
    for where, doc in _public_docstrings():
        prose = _CODE.sub("", doc)
        for match in _AUTOREF.finditer(prose):
            if not _renders(match.group(2) or match.group(1)):
                wrong.append(f"{where}: {match.group(0)}")
        if _REFERENCE_LINK.search(_AUTOREF.sub("", prose)):
            wrong.append(f"{where}: a stray reference link")
    assert wrong == []


def test_the_link_check_tells_rendered_from_missing():
    assert _renders("katra.State.push") and _renders("katra.api.write_proof")
    assert _renders("katra.testing.walk") and _renders("katra.SearchResult.score")
    assert not _renders("katra.api._parallel.Workers") and not _renders("katra.Nowhere")
    assert not _renders("numpy.array")
    prose = _CODE.sub("", "see [katra.State][] and\n```pycon\n>>> [(1, 2)]\n[(1, 2)]\n```")
    assert [m.group(1) for m in _AUTOREF.finditer(prose)] == ["katra.State"]


def test_public_docstrings_use_no_sphinx_roles():
    found = [where for where, doc in _public_docstrings() if _SPHINX_ROLE.search(doc)]
    assert found == []
