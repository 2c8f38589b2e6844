"""Katro (docs/rules.md §2): serpentine relay sowing, row-priority captures.

Serves ``katro`` (6x6, three rows a side), ``katro-4x6`` and ``katro-4x4``
(two rows a side), and the variants of 4 or 6 rows of any width (§7.3).
Each player sows only in their own rows, forward along a closed serpentine
path.
"""
from __future__ import annotations

from functools import cache
from typing import TYPE_CHECKING

from .._games import GameSpec
from .common import (
    LapWatcher,
    next_table,
    relay_sow,
    rotate_path,
    sow_and_pass_the_turn,
    sowings_that_end,
)

if TYPE_CHECKING:
    from .position import Position


@cache
def paths(spec: GameSpec) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """(South's path, North's path) as sequences of hole indices (§2.1).

    South: row 1 rightwards, row 2 leftwards, row 3 rightwards (6 rows), then
    back to a1.  North's path is South's turned half round.
    """
    south = []
    for row in range(spec.rows // 2):
        cols = range(spec.cols) if row % 2 == 0 else range(spec.cols - 1, -1, -1)
        south += [row * spec.cols + col for col in cols]
    return tuple(south), rotate_path(spec, south)


def own_rows(spec: GameSpec, player: int) -> list[int]:
    """The player's row numbers (0-based), outer first, inner last."""
    half = spec.rows // 2
    return list(range(half)) if player == 0 else list(range(spec.rows - 1, half - 1, -1))


def row_has_seeds(pos: Position, row: int) -> bool:
    cols = pos.spec.cols
    return any(pos.board[row * cols:(row + 1) * cols])


def sowing_candidates(pos: Position) -> list[int]:
    """Non-empty holes of the mover's outermost non-empty row (§2.2)."""
    cols = pos.spec.cols
    for row in own_rows(pos.spec, pos.to_move):
        holes = [row * cols + col for col in range(cols) if pos.board[row * cols + col]]
        if holes:
            return holes
    return []


def capture_target(pos: Position, landing: int) -> int | None:
    """The opponent's hole captured by a landing in ``landing``, if any (§2.3 step 2)."""
    spec, cols = pos.spec, pos.spec.cols
    mover_rows_inner_first = own_rows(spec, pos.to_move)[::-1]
    mover_innermost = next(r for r in mover_rows_inner_first if row_has_seeds(pos, r))
    if landing // cols != mover_innermost:
        return None
    opponent_rows_inner_first = own_rows(spec, 1 - pos.to_move)[::-1]
    for row in opponent_rows_inner_first:
        if row_has_seeds(pos, row):
            target = row * cols + landing % cols
            return target if pos.board[target] else None
    return None  # the opponent has no seeds


def sow(pos: Position, origin: int, limit: int, watch: LapWatcher | None = None) -> int | None:
    """Play the sowing from ``origin`` in place; the laps it took, or None past ``limit``.

    ``watch``, if given, is told about every lap (common.py).
    """
    return relay_sow(pos, origin, next_table(paths(pos.spec)[pos.to_move]),
                     lambda landing: capture_target(pos, landing), limit, watch)


def legal_actions(pos: Position, limit: int) -> list[int]:
    return sowings_that_end(pos, sowing_candidates(pos), sow, limit)


def apply(pos: Position, action: int, limit: int, watch: LapWatcher | None = None) -> None:
    sow_and_pass_the_turn(pos, sow, action, limit, watch)


def outcome(pos: Position) -> tuple[int, int, int]:
    """Terminal only: the player to move has no legal move and loses (§2.4)."""
    return outcome_by_owners(pos)


def outcome_by_owners(pos: Position) -> tuple[int, int, int]:
    south = sum(c for c, o in zip(pos.board, pos.owners, strict=True) if o == 0)
    north = sum(c for c, o in zip(pos.board, pos.owners, strict=True) if o == 1)
    return 1 - pos.to_move, south, north
