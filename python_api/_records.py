"""Game records: a start position and the moves played, one game per record.

A record is a few ``key: value`` lines; records are separated by blank lines;
lines starting with ``#`` are comments:

```text
start: gore 6,6,6,6/6,6,6,6 S stores=0,0 owners=NNNN/SSSS
moves: a1 c2 offer:d2
result: *
```

* ``start``: the position text before the first move (docs/rules.md §1.5);
* ``ply``: the ply of the start position, only when it is not 0;
* ``moves``: the move texts, separated by single spaces (may be empty);
* ``result``: ``1-0`` (South won), ``0-1`` (North won), ``1/2-1/2`` (draw),
  or ``*`` (the game goes on); on reading it must match the replay.

Reading a record replays its moves, so every move is checked for legality,
and gives back the state written: same position, move stack and ply.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from katra._errors import ArgumentTypeError, KatraError
from katra._limits import MAX_START_PLY, bound_text

if TYPE_CHECKING:
    from ._state import State

__all__ = ["Record", "write_record", "parse_records"]

_KEYS = ("start", "ply", "moves", "result")


@dataclass(frozen=True)
class Record:
    """One record as read, before its moves are replayed (``State._replay`` does that)."""

    where: str  # "record at line N", for error messages
    start: str
    ply: int
    moves: tuple[str, ...]
    result: str | None


def write_record(state: State) -> str:
    """One record: the state's start (its move stack undone), its moves and result."""
    root = state.root()
    outcome = state.outcome()
    lines = [f"start: {root.text()}"]
    if root.ply:
        lines.append(f"ply: {root.ply}")
    moves = " ".join(root.action_text(a) for a in state.move_stack)
    lines.append(f"moves: {moves}".rstrip())
    lines.append(f"result: {outcome.result() if outcome else '*'}")
    return "\n".join(lines) + "\n"


def _record(fields: dict[str, str], where: str) -> Record:
    if "start" not in fields:
        raise KatraError(f"{where}: missing 'start:' line")
    ply_text = fields.get("ply", "0")
    digits = len(str(MAX_START_PLY))  # no longer number is read: int() of a long text is slow
    if (not (ply_text.isascii() and ply_text.isdigit()) or len(ply_text) > digits
            or int(ply_text) > MAX_START_PLY):
        raise KatraError(f"{where}: ply must be an integer in 0..{bound_text(MAX_START_PLY)}, "
                         f"got {ply_text[:40]!r}")
    moves = fields.get("moves", "")
    return Record(where, fields["start"], int(ply_text), tuple(moves.split(" ") if moves else ()),
                  fields.get("result"))


def parse_records(text: str) -> list[Record]:
    """Every record in ``text``, checked for form (not yet replayed)."""
    if not isinstance(text, str):
        raise ArgumentTypeError(f"records are read from a str (a file's contents: read the "
                                f"file first), not {type(text).__name__}")
    records: list[Record] = []
    fields: dict[str, str] = {}
    first_line = 0
    for number, line in enumerate([*text.splitlines(), ""], start=1):
        if line.startswith("#"):
            continue
        if not line.strip():
            if fields:
                records.append(_record(fields, f"record at line {first_line}"))
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
    return records
