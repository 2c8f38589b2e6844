"""Goré (docs/rules.md §4): single laps, captures of 2s and 4s with chains, trading holes."""
from __future__ import annotations

from dataclasses import replace
from itertools import combinations
from typing import TYPE_CHECKING

from .._games import (
    GORE_ACCEPT,
    GORE_DECLINE,
    GORE_OFFER_BASE,
    GORE_PASS,
    GORE_SEEDS_PER_TRADED_HOLE,
)
from .common import CAPTURE, END, LapWatcher, next_table, run_taken, seen_lap
from .djenon import outcome_by_stores

if TYPE_CHECKING:
    from .position import Position

# CCW round all 8 holes: a1 b1 c1 d1 d2 c2 b2 a2, then a1 again (§4.1).
PATH = (0, 1, 2, 3, 7, 6, 5, 4)
NEXT_HOLE = next_table(PATH)
PREVIOUS_HOLE = next_table(PATH[::-1])


def owned_holes(pos: Position, player: int) -> list[int]:
    return [i for i in range(8) if pos.owners[i] == player]


def is_over(pos: Position) -> bool:
    """About to take a normal turn with every hole under 3 seeds (§4.5)."""
    return not pos.offer and max(pos.board) < 3


def sowing_candidates(pos: Position) -> list[int]:
    """Non-empty holes the mover owns; none while an offer awaits an answer."""
    if pos.offer or is_over(pos):
        return []
    return [i for i in owned_holes(pos, pos.to_move) if pos.board[i]]


def offers(pos: Position) -> list[int]:
    """Offer actions: 1-3 owned holes, one kept, affordable by the opponent (§4.2)."""
    mine = owned_holes(pos, pos.to_move)
    their_store = pos.store[1 - pos.to_move]
    masks = []
    for k in (1, 2, 3):
        if k < len(mine) and their_store >= GORE_SEEDS_PER_TRADED_HOLE * k:
            masks += [sum(1 << i for i in holes) for holes in combinations(mine, k)]
    return sorted(GORE_OFFER_BASE + mask for mask in masks)


def sow(pos: Position, origin: int, limit: int, watch: LapWatcher | None = None) -> int:
    """One lap CCW from ``origin``, then captures (§4.3).  Always 1 lap.

    ``watch``, if given, is told about the lap (common.py).
    """
    board, mover = pos.board, pos.to_move
    hand, board[origin] = board[origin], 0
    hole = origin
    for _ in range(hand):
        hole = NEXT_HOLE[hole]
        board[hole] += 1
    sown = tuple(board) if watch is not None else ()
    landing = hole
    if pos.owners[landing] != mover and board[landing] in (2, 4):
        pos.store[mover] += board[landing]
        board[landing] = 0
        # The landing hole now holds 0, so neither run can pass it again.
        for step in (NEXT_HOLE, PREVIOUS_HOLE):
            hole = step[landing]
            while board[hole] in (2, 4):
                pos.store[mover] += board[hole]
                board[hole] = 0
                hole = step[hole]
    if watch is not None:
        lap = seen_lap(sown, NEXT_HOLE, origin, NEXT_HOLE[origin], hand, END)
        if board[landing] != sown[landing]:   # the landing hole was captured
            taken = [(landing, sown[landing])]
            for step in (NEXT_HOLE, PREVIOUS_HOLE):
                run_taken(step, step[landing], sown, board, taken)
            lap = replace(lap, decision=CAPTURE, captured=tuple(taken))
        watch(lap)
    return 1


def legal_actions(pos: Position, limit: int) -> list[int]:
    if pos.offer:
        return [GORE_ACCEPT, GORE_DECLINE]
    if is_over(pos):
        return []
    sows = sowing_candidates(pos)
    if not sows:
        return [GORE_PASS]            # owns no seeds: passing is forced
    return sows + offers(pos)


def apply(pos: Position, action: int, limit: int, watch: LapWatcher | None = None) -> None:
    mover = pos.to_move
    if action == GORE_ACCEPT:         # the answerer keeps the turn
        for hole in range(8):
            if pos.offer >> hole & 1:
                pos.owners[hole] = mover
                pos.board[hole] += GORE_SEEDS_PER_TRADED_HOLE
                pos.store[mover] -= GORE_SEEDS_PER_TRADED_HOLE
        pos.offer = 0
        return
    if action == GORE_DECLINE:
        pos.offer = 0
        return
    if action == GORE_PASS:
        pass
    elif action >= GORE_OFFER_BASE:
        pos.offer = action - GORE_OFFER_BASE
    else:
        sow(pos, action, limit, watch)
    pos.to_move = 1 - mover


def outcome(pos: Position) -> tuple[int, int, int]:
    """Terminal only: each adds the seeds in the holes they own (§4.5)."""
    return outcome_by_stores(pos)
