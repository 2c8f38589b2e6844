"""Djenon-aboure (docs/rules.md §5): first seed back into the origin, relay, backward chains."""
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
    run_taken,
    seen_lap,
    sowings_that_end,
)

if TYPE_CHECKING:
    from .position import Position


@cache
def loop_path(spec: GameSpec) -> tuple[int, ...]:
    """CCW round all the holes of a 2-row board: a1 .. f1, f2 .. a2, then a1 again on
    the 2 x 6 board (§5.1); along row 1, back along row 2 on every board (§7.6).
    Goré sows round the same loop (§4.1, §7.5)."""
    cols = spec.cols
    return tuple(range(cols)) + tuple(range(2 * cols - 1, cols - 1, -1))


@cache
def loop_steps(spec: GameSpec) -> tuple[dict[int, int], dict[int, int]]:
    """(the hole after each hole on the loop, the hole before it)."""
    path = loop_path(spec)
    return next_table(path), next_table(path[::-1])


def pass_action(spec: GameSpec) -> int:
    """The pass: the action after the last hole, 12 on the 2 x 6 board (§5.2, §7.2)."""
    return spec.holes


def own_holes(pos: Position) -> range:
    """The mover's row: South row 1, North row 2, whatever its length (§5.1, §7.6)."""
    cols = pos.spec.cols
    return range(pos.to_move * cols, (pos.to_move + 1) * cols)


def sowing_candidates(pos: Position) -> list[int]:
    """Own holes holding at least 2 seeds (§5.2)."""
    return [i for i in own_holes(pos) if pos.board[i] >= 2]


def sow(pos: Position, origin: int, limit: int, watch: LapWatcher | None = None) -> int | None:
    """Play the sowing in place; the laps it took, or None past ``limit``.

    ``watch``, if given, is told about every lap (common.py).
    """
    board, store = pos.board, pos.store
    next_hole, previous_hole = loop_steps(pos.spec)
    hand, board[origin] = board[origin], 0
    hole, laps = origin, 1
    while True:
        start = hole
        board[hole] += 1              # the first seed goes back into the emptied hole
        for _ in range(hand - 1):
            hole = next_hole[hole]
            board[hole] += 1
        before = board[hole] - 1      # b: what the landing hole held before the last seed
        if before == 0:
            if watch is not None:
                watch(seen_lap(board, next_hole, start, start, hand, END))
            return laps
        if before in (1, 3):          # now 2 or 4: capture it, then backwards
            sown = tuple(board) if watch is not None else ()
            landing = hole
            while board[hole] in (2, 4):
                store[pos.to_move] += board[hole]
                board[hole] = 0
                hole = previous_hole[hole]
            if watch is not None:
                watch(seen_lap(sown, next_hole, start, start, hand, CAPTURE,
                               tuple(run_taken(previous_hole, landing, sown, board, []))))
            return laps
        if watch is not None:
            watch(seen_lap(board, next_hole, start, start, hand, RELAY))
        if laps == limit:
            return None
        laps += 1
        hand, board[hole] = board[hole], 0   # relay: lift h, sow again from h


def legal_actions(pos: Position, limit: int) -> list[int]:
    if max(pos.board) < 2:
        return []                     # the game is over (§5.3)
    moves = sowings_that_end(pos, sowing_candidates(pos), sow, limit)
    return moves or [pass_action(pos.spec)]


def apply(pos: Position, action: int, limit: int, watch: LapWatcher | None = None) -> None:
    if action != pass_action(pos.spec):
        sow(pos, action, limit, watch)
    pos.to_move = 1 - pos.to_move


def outcome(pos: Position) -> tuple[int, int, int]:
    """Terminal only: stores plus the seeds left in each player's row (§5.3)."""
    return outcome_by_stores(pos)


def outcome_by_stores(pos: Position) -> tuple[int, int, int]:
    south = pos.store[0] + sum(c for c, o in zip(pos.board, pos.owners, strict=True) if o == 0)
    north = pos.store[1] + sum(c for c, o in zip(pos.board, pos.owners, strict=True) if o == 1)
    winner = 0 if south > north else 1 if north > south else -1
    return winner, south, north
