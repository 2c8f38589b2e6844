"""docs/learning.md runs: its doctests, and its PPO and MCTS self-play code blocks."""
from __future__ import annotations

import doctest
from pathlib import Path

import pettingzoo  # noqa: F401  (the test extra brings OpenSpiel and PettingZoo)
import pyspiel  # noqa: F401

DOC = Path(__file__).resolve().parent.parent / "docs" / "learning.md"


def test_doctests_run():
    result = doctest.testfile(str(DOC), module_relative=False, optionflags=(
        doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE), verbose=False, report=True)
    assert result.attempted >= 25
    assert result.failed == 0, f"{result.failed} doctest(s) failed in docs/learning.md"


def code_block(marker: str) -> str:
    """The plain ```python block (no doctest prompts) that contains marker."""
    text = DOC.read_text(encoding="utf-8")
    for block in text.split("```python\n")[1:]:
        code = block[:block.index("```")]
        if marker in code and ">>>" not in code:
            return code
    raise AssertionError(f"no code block with {marker!r} in docs/learning.md")


def test_ppo_skeleton_runs():
    namespace: dict = {}
    exec(code_block("KatraVectorEnv"), namespace)
    assert namespace["update"] == 2 and len(namespace["buffer"]["obs"]) == 0
    assert namespace["obs"].shape == (256, 112)


def test_mcts_self_play_example_runs():
    namespace: dict = {}
    exec(code_block("PlayoutEvaluator(n_rollouts"), namespace)
    trajectories = namespace["trajectories"]
    assert len(trajectories) == 2
    for trajectory, returns in trajectories:
        assert sorted(returns) == [-1.0, 1.0] and len(trajectory) >= 4
