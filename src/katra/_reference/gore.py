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
from .common import CAPTURE, END, LapWatcher, run_taken, seen_lap
from .djenon import loop_steps, outcome_by_stores

if TYPE_CHECKING:
    from .position import Position

# Every sowing runs CCW round all the holes: a1 b1 c1 d1 d2 c2 b2 a2, then a1
# again on the 2 x 4 board (§4.1); a1 .. along row 1, back along row 2 on every
# board (§7.5).  loop_steps(spec): (the hole after each hole, the hole before).


def owned_holes(pos: Position, player: int) -> list[int]:
    return [i for i in range(pos.spec.holes) if pos.owners[i] == player]


def is_over(pos: Position) -> bool:
    """About to take a normal turn with every hole under 3 seeds (§4.5)."""
    return not pos.offer and max(pos.board) < 3


def sowing_candidates(pos: Position) -> list[int]:
    """Non-empty holes the mover owns; none while an offer awaits an answer."""
    if pos.offer or is_over(pos):
        return []
    return [i for i in owned_holes(pos, pos.to_move) if pos.board[i]]


def offers(pos: Position) -> list[int]:
    """Offer actions: 1-3 owned holes, one kept, affordable by the opponent at 6
    seeds a hole on every board (§4.2, §7.5)."""
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
    next_hole, previous_hole = loop_steps(pos.spec)
    hand, board[origin] = board[origin], 0
    hole = origin
    for _ in range(hand):
        hole = next_hole[hole]
        board[hole] += 1
    sown = tuple(board) if watch is not None else ()
    landing = hole
    if pos.owners[landing] != mover and board[landing] in (2, 4):
        pos.store[mover] += board[landing]
        board[landing] = 0
        # The landing hole now holds 0, so neither run can pass it again.
        for step in (next_hole, previous_hole):
            hole = step[landing]
            while board[hole] in (2, 4):
                pos.store[mover] += board[hole]
                board[hole] = 0
                hole = step[hole]
    if watch is not None:
        lap = seen_lap(sown, next_hole, origin, next_hole[origin], hand, END)
        if board[landing] != sown[landing]:   # the landing hole was captured
            taken = [(landing, sown[landing])]
            for step in (next_hole, previous_hole):
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
        for hole in range(pos.spec.holes):
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
