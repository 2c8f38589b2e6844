"""docs/api.md (and the README's API section) run as doctests: their examples are tests;
every plain Python block of the README and docs/ runs as written."""
from __future__ import annotations

import doctest
import re
import subprocess
import sys
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
    exec(code, namespace)  # as written: the block imports katra itself
    printed = capsys.readouterr().out.strip()
    assert printed in {"a1", "b1", "c1", "d1", "e1", "f1"}


def plain_python_blocks():
    """Every ```python block without doctest prompts in README.md and docs/*.md."""
    for path in [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]:
        text = path.read_text(encoding="utf-8")
        for match in re.finditer(r"```python\n(.*?)```", text, re.S):
            if not match.group(1).lstrip().startswith(">>>"):
                line = text.count("\n", 0, match.start()) + 1
                # a block that starts a dask cluster runs with the slow tests (test_dask.py
                # checks the cluster's answers in the default run)
                yield pytest.param(match.group(1), id=f"{path.name}:{line}",
                                   marks=[pytest.mark.slow] if "Client(" in match.group(1)
                                   else [])


@pytest.mark.parametrize("code", list(plain_python_blocks()))
def test_plain_code_blocks_run_as_written(code, tmp_path):
    """In a fresh interpreter and an empty folder: nothing but the block itself."""
    script = tmp_path / "block.py"
    script.write_text(code, encoding="utf-8")
    result = subprocess.run([sys.executable, str(script)], cwd=tmp_path, capture_output=True,
                            text=True, timeout=600)
    assert result.returncode == 0, result.stderr
