"""Helpers shared by the tests: random walks and the hand-worked rule tests' steps.

(The backend list and the ``impl``/``backend`` fixtures are in conftest.py.)
"""
import io
import os
import random
import subprocess
import sys
from contextlib import redirect_stderr, redirect_stdout

import pytest
from hypothesis import HealthCheck, given, settings

from katra._errors import IllegalMoveError
from katra._games import GAMES
from katra._text import parse_action
from katra.api._backends import BACKENDS  # noqa: F401  ("core", "reference"), for the tests


def legal(impl, text):
    return impl.Position.from_text(text).legal_actions()


def after(impl, text, action):
    """The position after the legal ``action`` from ``text``."""
    pos = impl.Position.from_text(text)
    assert action in pos.legal_actions()
    pos.apply(action)
    return pos


def play(impl, before, move, expected_after):
    """Play ``move`` (move text) from ``before``; the result must be ``expected_after``."""
    game = before.split()[0]
    pos = impl.Position.from_text(before)
    action = parse_action(GAMES[game], move)
    assert action in pos.legal_actions(), (before, move, pos.legal_actions())
    pos.apply(action)
    assert pos.text() == expected_after, (before, move)
    return pos


def assert_illegal(pos, action):
    """``apply`` raises IllegalMoveError and leaves the position as it was."""
    before = pos.text()
    with pytest.raises(IllegalMoveError):
        pos.apply(action)
    assert pos.text() == before


def random_walk(pos, plies, seed):
    """Push up to ``plies`` seeded random legal actions (stopping at the end of the game)
    on a ``katra.State`` or either backend's ``Position``; returns ``pos``."""
    rng = random.Random(seed)
    for _ in range(plies):
        actions = pos.legal_actions()
        if not actions:
            break
        pos.push(rng.choice(actions))
    return pos


def check_examples(check, examples, *strategies):
    """Call ``check`` on ``examples`` derandomized draws of ``strategies`` (Hypothesis:
    the same draws on every run, shrunk on failure, never timed)."""
    settings(max_examples=examples, deadline=None, derandomize=True,
             suppress_health_check=[HealthCheck.too_slow])(given(*strategies)(check))()


def quick_and_slow(quick, slow):
    """The two runs of a test that scales with a count (seeds, examples, games):
    ``quick`` in the default run, ``slow`` under the slow marker (``-m slow``)."""
    return [pytest.param(quick, id="quick"),
            pytest.param(slow, id="slow", marks=pytest.mark.slow)]


def katra_in_process(*args, stdin="", cwd=None):
    """``katra ARGS`` run in this process: katra.cli.main (the installed command's parser,
    commands and error handling) reading ``stdin``, with its output caught, none of the
    three streams a terminal.  A ``subprocess.CompletedProcess`` as ``katra_program``'s,
    without the half second of CPU a new interpreter costs."""
    from katra.cli import main
    out, err = io.StringIO(), io.StringIO()
    here, real_stdin = os.getcwd(), sys.stdin
    sys.stdin = io.StringIO(stdin)
    try:
        if cwd is not None:
            os.chdir(cwd)
        with redirect_stdout(out), redirect_stderr(err):
            try:
                status = main([str(arg) for arg in args])
            except SystemExit as exc:      # --help, --version: argparse exits
                status = exc.code if isinstance(exc.code, int) else int(exc.code is not None)
    finally:
        sys.stdin = real_stdin
        os.chdir(here)
    return subprocess.CompletedProcess(args, status, out.getvalue(), err.getvalue())


def katra_program(*args, stdin=None, cwd=None, timeout=120, env=None):
    """``python -m katra ARGS`` as a program of its own, as people run it."""
    return subprocess.run([sys.executable, "-m", "katra", *map(str, args)], input=stdin,
                          capture_output=True, text=True, timeout=timeout, cwd=cwd, env=env)
