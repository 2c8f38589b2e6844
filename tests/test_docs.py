"""docs/api.md is executed as doctests: its examples are part of the test suite."""
from __future__ import annotations

import doctest
from pathlib import Path

import pytest

DOCS = Path(__file__).resolve().parent.parent / "docs"


@pytest.mark.parametrize("name", ["api.md"])
def test_doc_examples_run(name):
    pytest.importorskip("numpy")  # the batch example fills NumPy arrays
    path = DOCS / name
    if not path.exists():
        pytest.fail(f"{path} is missing (the tests run from a checkout)")
    result = doctest.testfile(str(path), module_relative=False, optionflags=(
        doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE), verbose=False, report=True)
    assert result.attempted > 40
    assert result.failed == 0, f"{result.failed} doctest(s) failed in docs/{name} (see stdout)"
