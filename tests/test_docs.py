"""docs/api.md, docs/stats.md (and the README's API section) run as doctests: their
examples are tests; every plain Python block of the README and docs/ runs as written."""
from __future__ import annotations

import doctest
import re
import subprocess
import sys
from pathlib import Path

import pytest

import katra

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.parametrize("name, examples", [("docs/api.md", 41), ("README.md", 8),
                                            ("docs/stats.md", 27)])
def test_doc_examples_run(name, examples):
    path = ROOT / name
    if not path.exists():
        pytest.fail(f"{path} is missing (the tests run from a checkout)")
    result = doctest.testfile(str(path), module_relative=False, optionflags=(
        doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE), verbose=False, report=True)
    assert result.attempted >= examples
    assert result.failed == 0, f"{result.failed} doctest(s) failed in {name} (see stdout)"


def readme_alpha_beta():
    """The code block of the README's "Alpha-beta in ten lines"."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    section = text[text.index("### Alpha-beta in ten lines"):]
    code = section[section.index("```python\n") + len("```python\n"):]
    return code[:code.index("```")]


def negamax(s, depth):
    """The value the README's alphabeta must give: plain negamax, every move searched."""
    me = s.to_move
    if s.is_terminal():
        return 1000 * s.returns()[me]
    if depth == 0:
        held = sum(c if o == me else -c for c, o in zip(s.board, s.owners))
        return held + s.stores[me] - s.stores[1 - me]
    best = -10**6
    for child in (s.child(a) for a in s.legal_actions()):
        v = negamax(child, depth - 1)
        best = max(best, v if child.to_move == me else -v)
    return best


def test_readme_alpha_beta_is_ten_lines_and_exact(capsys):
    """The README's alpha-beta is ten lines, runs as written (naming a legal move) and
    gives plain negamax's value, Goré's turn-keeping answers included."""
    code = readme_alpha_beta()
    search = [line for line in code[:code.index("\nroot = ")].splitlines()
              if line.strip() and not line.startswith("import ")]
    assert len(search) == 10, search    # the search, its evaluation included
    namespace: dict = {}
    exec(code, namespace)  # as written: the block imports katra itself
    assert capsys.readouterr().out.strip() in {"a1", "b1", "c1", "d1", "e1", "f1"}
    alphabeta = namespace["alphabeta"]
    positions = [katra.game(g).initial_state() for g in katra.GAME_IDS]
    positions.append(katra.State.from_text(
        "gore 4,1,8,4/3,1,21,0 S stores=6,0 owners=NNNN/SSSS offer=c2"))  # South answers
    for s in positions:
        for depth in (1, 2, 3):
            assert alphabeta(s, depth) == negamax(s, depth), (s.text(), depth)


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
