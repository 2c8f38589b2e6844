"""Coverage-guided fuzzing of ``State.from_text`` and ``State.push`` with atheris.

An input is UTF-8 text (undecodable bytes are replaced): its first line is a
position text, every further line a move, pushed in turn (a line that reads as
an integer is pushed as that int, any other line as move text).  For each
input, on both backends:

* ``State.from_text`` returns a state or raises ``PositionError``, and both
  backends agree; a state read back from its own text is equal to it;
* each ``push`` succeeds or raises ``IllegalMoveError``, both backends alike
  (the core alone once a sowing that never ends is possible: the reference
  would play it to the lap limit at every step);
  a failed push leaves the state unchanged (text, move stack, hash);
* at the end, popping every move returns to the position read.

Anything else (another exception, a disagreement, a crash of the core) is a
finding: atheris stops and writes the input to a ``crash-*`` file.  Usage
(docs/fuzzing.md)::

    pip install -e ".[fuzz]"
    python fuzz/fuzz_state.py fuzz/corpus -max_total_time=300 -artifact_prefix=/tmp/
"""
from __future__ import annotations

import re
import sys

import atheris

with atheris.instrument_imports(include=["katra"]):
    import katra._reference  # noqa: F401  (imported lazily by the API: instrument it now)
    from katra import IllegalMoveError, PositionError, State
    from katra._games import GORE

BACKENDS = ("core", "reference")
MAX_MOVES = 64  # keeps one input cheap (the reference is pure Python)


INTEGER = re.compile(r"-?[0-9]{1,30}")


def moves_of(lines: list[str]) -> list[int | str]:
    """An int for each line that is one, else the line itself (a move text)."""
    return [int(line) if INTEGER.fullmatch(line) else line for line in lines[:MAX_MOVES]]


def read(text: str) -> list[State] | None:
    """The position on each backend, or None if both reject it alike."""
    states, errors = [], 0
    for backend in BACKENDS:
        try:
            states.append(State.from_text(text, backend=backend))
        except PositionError as exc:
            assert str(exc)
            errors += 1
    assert errors in (0, len(BACKENDS)), f"the backends disagree on {text!r}"
    if errors:
        return None
    core, reference = states
    assert core.text() == reference.text() and core.hash == reference.hash, text
    for state in states:
        assert State.from_text(state.text(), backend=state.backend) == state
    return states


def never_ends(state: State) -> bool:
    """Does some sowing here never end?  (The core finds out at once; the reference
    plays it to the 10,000-lap limit, which takes seconds under instrumentation.)"""
    pos = state._pos
    spec = state.game.spec
    sowings = 0 if spec.family == GORE else min(spec.num_actions, 2 * spec.holes)  # Goré: 1 lap
    for action in range(sowings):
        try:
            if pos.lap_count(action) is None:
                return True
        except IllegalMoveError:  # not a sowing candidate
            pass
    return False


def push_all(states: list[State], moves: list[int | str]) -> None:
    for move in moves:
        if len(states) > 1 and never_ends(states[0]):
            # go on with the core alone: the reference would spend most of the
            # run's time on the lap limit (tests/test_never_ending.py compares
            # the backends on such positions)
            states = states[:1]
        outcomes = []
        for state in states:
            before = (state.text(), state.move_stack, state.hash)
            try:
                state.push(move)
            except IllegalMoveError as exc:
                assert str(exc)
                assert (state.text(), state.move_stack, state.hash) == before, move
                assert not state.is_legal(move)
                outcomes.append("illegal")
            else:
                assert type(state.move_stack[-1]) is int
                outcomes.append(state.text())
        assert len(set(outcomes)) == 1, (move, outcomes)
        assert len({state.hash for state in states}) == 1


def test_one_input(data: bytes) -> None:
    lines = data.decode("utf-8", errors="replace").split("\n")
    states = read(lines[0])
    if states is None:
        return
    start = states[0].text()
    push_all(states, moves_of(lines[1:]))
    for state in states:
        while state.move_stack:
            state.pop()
        assert state.text() == start


def main() -> None:
    atheris.Setup(sys.argv, test_one_input)
    atheris.Fuzz()


if __name__ == "__main__":
    main()
