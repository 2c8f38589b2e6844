"""The documentation site's hook (tools/docs_site.py) and the docstrings it renders.

The site itself is built by CI in a virtual environment holding only the wheel
and the docs extra (`.ci/run`); these tests keep its two past failures out of
the default run: the hook must not import the adapters (their extras are not
the docs extra's), and no docstring may hold what Markdown reads as a
reference link (mkdocs-autorefs then fails the strict build).
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


def _public_docstrings():
    for module_name in docs_site.REFERENCED:
        module = importlib.import_module(module_name)
        yield module_name, inspect.getdoc(module) or ""
        for name in module.__all__:
            obj = getattr(module, name)
            if _documented(obj):    # (a constant's getdoc is its type's)
                yield f"{module_name}.{name}", inspect.getdoc(obj) or ""
            if inspect.isclass(obj):
                for member in vars(obj):
                    value = getattr(obj, member)
                    if (not member.startswith("_") or member == "__init__") and _documented(value):
                        yield f"{module_name}.{name}.{member}", inspect.getdoc(value) or ""


def _documented(obj):
    return inspect.isroutine(obj) or inspect.isclass(obj) or isinstance(obj, property)


def test_no_public_docstring_reads_as_a_markdown_reference_link():
    found = [where for where, doc in _public_docstrings() if _REFERENCE_LINK.search(doc)]
    assert found == []
