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

Records of refereed games (``katra match``, docs/match.md) carry tags too,
read and kept in ``Record.tags`` but never replayed: ``event`` (the match and
the game's number), ``south`` and ``north`` (the players), ``decision`` (the
result the referee gave: ``1-0``, ``0-1``, ``1/2-1/2``, or ``*`` for an
unfinished game; it differs from ``result`` when a forfeit or an adjudication
ended the game before the rules did) and ``reason`` (why the game ended, with
the offending line of a forfeit).

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
#: The tags of refereed games, in the order they are written.
TAG_KEYS = ("event", "south", "north", "decision", "reason")


@dataclass(frozen=True)
class Record:
    """One record as read, before its moves are replayed (``State._replay`` does that)."""

    where: str  # "record at line N", for error messages
    start: str
    ply: int
    moves: tuple[str, ...]
    result: str | None
    tags: tuple[tuple[str, str], ...] = ()


def write_record(state: State, tags: dict[str, str] | None = None) -> str:
    """One record: the state's start (its move stack undone), its moves and result, then
    the ``tags`` (keys of TAG_KEYS, values on one line)."""
    root = state.root()
    outcome = state.outcome()
    lines = [f"start: {root.text()}"]
    if root.ply:
        lines.append(f"ply: {root.ply}")
    moves = " ".join(root.action_text(a) for a in state.move_stack)
    lines.append(f"moves: {moves}".rstrip())
    lines.append(f"result: {outcome.result() if outcome else '*'}")
    for key, value in (tags or {}).items():
        if key not in TAG_KEYS:
            raise KatraError(f"a record has no tag {key!r}; tags: {', '.join(TAG_KEYS)}")
        lines.append(f"{key}: {' '.join(value.split())}".rstrip())
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
                  fields.get("result"), tuple((k, fields[k]) for k in TAG_KEYS if k in fields))


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
        if not colon or key not in _KEYS + TAG_KEYS:
            raise KatraError(f"line {number}: expected one of "
                             f"{', '.join(k + ':' for k in _KEYS + TAG_KEYS)}, got {line!r}")
        if key in fields:
            raise KatraError(f"line {number}: {key!r} given twice in one record")
        if not fields:
            first_line = number
        fields[key] = value.strip()
    return records
