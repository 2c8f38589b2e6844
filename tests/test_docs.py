"""docs/api.md (and the README's API section) run as doctests: their examples are tests."""
from __future__ import annotations

import doctest
from pathlib import Path

import pytest

DOCS = Path(__file__).resolve().parent.parent / "docs"


@pytest.mark.parametrize("name, examples", [("api.md", 40), ("readme-api-section.md", 5)])
def test_doc_examples_run(name, examples):
    path = DOCS / name
    if not path.exists():
        pytest.fail(f"{path} is missing (the tests run from a checkout)")
    result = doctest.testfile(str(path), module_relative=False, optionflags=(
        doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE), verbose=False, report=True)
    assert result.attempted >= examples
    assert result.failed == 0, f"{result.failed} doctest(s) failed in docs/{name} (see stdout)"
