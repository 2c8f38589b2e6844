"""Djenon-aboure (docs/rules.md §5): first seed back into the origin, relay, backward chains."""
from __future__ import annotations

from typing import TYPE_CHECKING

from .._games import DJENON_PASS
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

# CCW round all 12 holes: a1 .. f1, f2 .. a2, then a1 again (§5.1).
PATH = (0, 1, 2, 3, 4, 5, 11, 10, 9, 8, 7, 6)
NEXT_HOLE = next_table(PATH)
PREVIOUS_HOLE = next_table(PATH[::-1])


def own_holes(pos: Position) -> range:
    return range(0, 6) if pos.to_move == 0 else range(6, 12)


def sowing_candidates(pos: Position) -> list[int]:
    """Own holes holding at least 2 seeds (§5.2)."""
    return [i for i in own_holes(pos) if pos.board[i] >= 2]


def sow(pos: Position, origin: int, limit: int, watch: LapWatcher | None = None) -> int | None:
    """Play the sowing in place; the laps it took, or None past ``limit``.

    ``watch``, if given, is told about every lap (common.py).
    """
    board, store = pos.board, pos.store
    hand, board[origin] = board[origin], 0
    hole, laps = origin, 1
    while True:
        start = hole
        board[hole] += 1              # the first seed goes back into the emptied hole
        for _ in range(hand - 1):
            hole = NEXT_HOLE[hole]
            board[hole] += 1
        before = board[hole] - 1      # b: what the landing hole held before the last seed
        if before == 0:
            if watch is not None:
                watch(seen_lap(board, NEXT_HOLE, start, start, hand, END))
            return laps
        if before in (1, 3):          # now 2 or 4: capture it, then backwards
            sown = tuple(board) if watch is not None else ()
            landing = hole
            while board[hole] in (2, 4):
                store[pos.to_move] += board[hole]
                board[hole] = 0
                hole = PREVIOUS_HOLE[hole]
            if watch is not None:
                watch(seen_lap(sown, NEXT_HOLE, start, start, hand, CAPTURE,
                               tuple(run_taken(PREVIOUS_HOLE, landing, sown, board, []))))
            return laps
        if watch is not None:
            watch(seen_lap(board, NEXT_HOLE, start, start, hand, RELAY))
        if laps == limit:
            return None
        laps += 1
        hand, board[hole] = board[hole], 0   # relay: lift h, sow again from h


def legal_actions(pos: Position, limit: int) -> list[int]:
    if max(pos.board) < 2:
        return []                     # the game is over (§5.3)
    moves = sowings_that_end(pos, sowing_candidates(pos), sow, limit)
    return moves or [DJENON_PASS]


def apply(pos: Position, action: int, limit: int, watch: LapWatcher | None = None) -> None:
    if action != DJENON_PASS:
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
