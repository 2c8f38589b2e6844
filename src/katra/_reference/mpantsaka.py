"""Katra Mpantsaka (docs/rules.md §3): two directions, relay laps, front-row captures.

Serves ``katra-mpantsaka`` and ``katra-mpantsaka-simplified`` (any own hole may
start a move), and their variants of 4 rows of any width (§7.4).
Action = 2 * origin + d, d = 0 counter-clockwise, 1 clockwise.
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
from .katro import outcome_by_owners

if TYPE_CHECKING:
    from .position import Position

CCW, CW = 0, 1


@cache
def paths(spec: GameSpec) -> tuple[tuple[tuple[int, ...], ...], ...]:
    """paths[player][direction]: the loop of the player's 2 x cols holes (§3.1, §7.4).

    South's CCW loop: a1 rightwards to h1, h2 leftwards to a2, back to a1 (on
    4 x 8; along row 1 and back along row 2 on every board);
    clockwise is the reverse; North's loops are South's turned half round.
    """
    cols = spec.cols
    south_ccw = list(range(cols)) + list(range(2 * cols - 1, cols - 1, -1))
    south_cw = south_ccw[::-1]
    south = (tuple(south_ccw), tuple(south_cw))
    north = (rotate_path(spec, south_ccw), rotate_path(spec, south_cw))
    return south, north


def front_row(spec: GameSpec, player: int) -> int:
    """The 0-based row of the player's front (inner) row."""
    return 1 if player == 0 else 2


def back_row(spec: GameSpec, player: int) -> int:
    return 0 if player == 0 else 3


def sowing_candidates(pos: Position) -> list[int]:
    """Actions from the front row, or the back row once the front row is empty (§3.2)."""
    spec, cols = pos.spec, pos.spec.cols
    rows = [front_row(spec, pos.to_move), back_row(spec, pos.to_move)]
    if spec.simplified:
        origins = [r * cols + c for r in rows for c in range(cols) if pos.board[r * cols + c]]
    else:
        origins = []
        for row in rows:
            origins = [row * cols + c for c in range(cols) if pos.board[row * cols + c]]
            if origins:
                break
    return sorted(2 * origin + d for origin in origins for d in (CCW, CW))


def sow(pos: Position, action: int, limit: int, watch: LapWatcher | None = None) -> int | None:
    """Play the sowing of ``action`` in place; the laps it took, or None past ``limit``.

    ``watch``, if given, is told about every lap (common.py).
    """
    spec, cols = pos.spec, pos.spec.cols
    origin, direction = divmod(action, 2)
    my_front = front_row(spec, pos.to_move)
    their_front = front_row(spec, 1 - pos.to_move)

    def captured_by(landing: int) -> int | None:
        """A landing in the mover's front row takes the facing hole, if it holds seeds."""
        facing = their_front * cols + landing % cols
        return facing if landing // cols == my_front and pos.board[facing] > 0 else None

    return relay_sow(pos, origin, next_table(paths(spec)[pos.to_move][direction]),
                     captured_by, limit, watch)


def legal_actions(pos: Position, limit: int) -> list[int]:
    return sowings_that_end(pos, sowing_candidates(pos), sow, limit)


def apply(pos: Position, action: int, limit: int, watch: LapWatcher | None = None) -> None:
    sow_and_pass_the_turn(pos, sow, action, limit, watch)


def outcome(pos: Position) -> tuple[int, int, int]:
    """Terminal only: the player to move has no seeds or no legal move and loses (§3.4)."""
    return outcome_by_owners(pos)
