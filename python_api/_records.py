"""Game records: a start position and the moves played, one game per record.

A record is a few ``key: value`` lines; records are separated by blank lines;
lines starting with ``#`` are comments::

    start: gore 6,6,6,6/6,6,6,6 S stores=0,0 owners=NNNN/SSSS
    moves: a1 c2 offer:d2
    result: *

* ``start``: the position text before the first move (RULES.md §1.5);
* ``ply``: the ply of the start position, only when it is not 0;
* ``moves``: the move texts, separated by single spaces (may be empty);
* ``result``: ``1-0`` (South won), ``0-1`` (North won), ``1/2-1/2`` (draw),
  or ``*`` (the game goes on); on reading it must match the replay.

Reading a record replays its moves, so every move is checked for legality,
and gives back the state written: same position, move stack and ply.
"""
from __future__ import annotations

from typing import Iterable

from katra._errors import IllegalMoveError, KatraError

from ._state import State

__all__ = ["write_record", "write_records", "read_records"]

_KEYS = ("start", "ply", "moves", "result")


def write_record(state: State) -> str:
    """One record: the state's start (its move stack undone), its moves and result."""
    root = state.root()
    outcome = state.outcome()
    lines = [f"start: {root.text()}"]
    if root.ply:
        lines.append(f"ply: {root.ply}")
    moves = " ".join(root.action_text(a) for a in state._moves)
    lines.append(f"moves: {moves}".rstrip())
    lines.append(f"result: {outcome.result() if outcome else '*'}")
    return "\n".join(lines) + "\n"


def write_records(states: Iterable[State]) -> str:
    """Many records, separated by blank lines."""
    return "\n".join(write_record(s) for s in states)


def _parse_one(fields: dict[str, str], where: str, backend: str) -> State:
    if "start" not in fields:
        raise KatraError(f"{where}: missing 'start:' line")
    ply_text = fields.get("ply", "0")
    if not ply_text.isdigit():
        raise KatraError(f"{where}: ply must be a non-negative integer, got {ply_text!r}")
    state = State.from_text(fields["start"], backend=backend, ply=int(ply_text))
    moves = fields.get("moves", "")
    for number, move in enumerate(moves.split(" ") if moves else [], start=1):
        try:
            state.push(move)
        except IllegalMoveError as exc:
            raise IllegalMoveError(f"{where}: move {number}: {exc}") from None
    result = fields.get("result")
    if result is not None:
        outcome = state.outcome()
        actual = outcome.result() if outcome else "*"
        if result != actual:
            raise KatraError(f"{where}: the record says result {result!r} but its moves "
                             f"give {actual!r}")
    return state


def read_records(text: str, backend: str = "core") -> list[State]:
    """Every record in ``text``, each as the state at its end (moves on the move stack)."""
    if not isinstance(text, str):
        raise TypeError(f"records are read from a str, not {type(text).__name__}")
    states: list[State] = []
    fields: dict[str, str] = {}
    first_line = 0
    for number, line in enumerate(text.splitlines() + [""], start=1):
        if line.startswith("#"):
            continue
        if not line.strip():
            if fields:
                states.append(_parse_one(fields, f"record at line {first_line}", backend))
                fields = {}
            continue
        key, colon, value = line.partition(":")
        key = key.strip()
        if not colon or key not in _KEYS:
            raise KatraError(f"line {number}: expected one of "
                             f"{', '.join(k + ':' for k in _KEYS)}, got {line!r}")
        if key in fields:
            raise KatraError(f"line {number}: {key!r} given twice in one record")
        if not fields:
            first_line = number
        fields[key] = value.strip()
    return states
