"""docs/api.md (and the README's API section) run as doctests: their examples are tests."""
from __future__ import annotations

import doctest
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.parametrize("name, examples", [("docs/api.md", 40), ("README.md", 8)])
def test_doc_examples_run(name, examples):
    path = ROOT / name
    if not path.exists():
        pytest.fail(f"{path} is missing (the tests run from a checkout)")
    result = doctest.testfile(str(path), module_relative=False, optionflags=(
        doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE), verbose=False, report=True)
    assert result.attempted >= examples
    assert result.failed == 0, f"{result.failed} doctest(s) failed in {name} (see stdout)"


def test_readme_alpha_beta_example_runs(capsys):
    """The README's ten-line alpha-beta (a plain code block) runs and names a legal move."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    section = text[text.index("### Alpha-beta in ten lines"):]
    code = section[section.index("```python\n") + len("```python\n"):]
    code = code[:code.index("```")]
    namespace: dict = {}
    exec("import katra\n" + code, namespace)
    printed = capsys.readouterr().out.strip()
    assert printed in {"a1", "b1", "c1", "d1", "e1", "f1"}
