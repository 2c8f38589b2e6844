"""Katra Mpantsaka (docs/rules.md §3): two directions, relay laps, front-row captures.

Serves ``katra-mpantsaka`` and ``katra-mpantsaka-simplified`` (any own hole may
start a move).  Action = 2 * origin + d, d = 0 counter-clockwise, 1 clockwise.
"""
from __future__ import annotations

from functools import cache
from typing import TYPE_CHECKING

from .._games import GameSpec
from .common import (
    CAPTURE,
    END,
    RELAY,
    LapWatcher,
    next_table,
    rotate_path,
    seen_lap,
    sow_and_pass_the_turn,
    sowings_that_end,
)
from .katro import outcome_by_owners

if TYPE_CHECKING:
    from .position import Position

CCW, CW = 0, 1


@cache
def paths(spec: GameSpec) -> tuple[tuple[tuple[int, ...], ...], ...]:
    """paths[player][direction]: the loop of the player's 16 holes (§3.1).

    South's CCW loop: a1 rightwards to h1, h2 leftwards to a2, back to a1;
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
    spec, cols, board = pos.spec, pos.spec.cols, pos.board
    origin, direction = divmod(action, 2)
    next_hole = next_table(paths(spec)[pos.to_move][direction])
    my_front = front_row(spec, pos.to_move)
    their_front = front_row(spec, 1 - pos.to_move)
    hand, board[origin] = board[origin], 0
    hole, laps = origin, 1
    while True:
        start = hole
        for _ in range(hand):
            hole = next_hole[hole]
            board[hole] += 1
        if board[hole] == 1:          # the landing hole was empty: the move ends
            if watch is not None:
                watch(seen_lap(board, next_hole, start, next_hole[start], hand, END))
            return laps
        facing = their_front * cols + hole % cols
        captures = hole // cols == my_front and board[facing] > 0
        if watch is not None:
            watch(seen_lap(board, next_hole, start, next_hole[start], hand, CAPTURE,
                           ((facing, board[facing]),))
                  if captures else
                  seen_lap(board, next_hole, start, next_hole[start], hand, RELAY))
        if laps == limit:
            return None
        laps += 1
        hand, board[hole] = board[hole], 0
        if captures:                  # capture: sown on together
            hand, board[facing] = hand + board[facing], 0


def legal_actions(pos: Position, limit: int) -> list[int]:
    return sowings_that_end(pos, sowing_candidates(pos), sow, limit)


def apply(pos: Position, action: int, limit: int, watch: LapWatcher | None = None) -> None:
    sow_and_pass_the_turn(pos, sow, action, limit, watch)


def outcome(pos: Position) -> tuple[int, int, int]:
    """Terminal only: the player to move has no seeds or no legal move and loses (§3.4)."""
    return outcome_by_owners(pos)
