"""Small helpers shared by the reference's game files, and the lap watcher.

A *lap watcher* (``watch=``, used by ``katra.explain``) is told about every lap
of a sowing as the rules file plays it: where it started, the holes it sowed,
what the landing hole held and what the landing decided (docs/rules.md §1.2).
Watching never changes what is played; without a watcher the rules files run
exactly as before (the record is built only inside ``if watch is not None``).
"""
from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

from .._games import GameSpec

if TYPE_CHECKING:
    from .position import Position

#: What a landing decided, in the rulebook's words.
END, RELAY, CAPTURE = "end", "relay", "capture"


@dataclass(frozen=True)
class LapSeen:
    """One lap of a sowing, as the reference played it (hole indices, not names)."""

    #: The hole whose seeds were lifted for this lap.
    start: int
    #: The seeds in hand (a capture's seeds included).
    seeds: int
    #: The holes sown, in order; the last one is the landing hole.
    sown: tuple[int, ...]
    #: What the landing hole held before the lap's last seed.
    landing_before: int
    #: ``END``, ``RELAY`` or ``CAPTURE``.
    decision: str
    #: ``(hole, seeds)`` taken by the capture, in the order taken (``()`` unless one).
    captured: tuple[tuple[int, int], ...]
    #: The board once the lap's seeds are sown, before the landing's decision acts.
    board: tuple[int, ...]

    @property
    def landing(self) -> int:
        return self.sown[-1]


#: ``watch(lap)``: called once per lap, in order.
LapWatcher = Callable[[LapSeen], None]

#: ``sow(pos, action, limit)``: laps taken, or None if the sowing never ends within ``limit``.
Sow = Callable[["Position", int, int], "int | None"]


def rotate_path(spec: GameSpec, path: Sequence[int]) -> tuple[int, ...]:
    """The path turned half round: index ``i`` -> ``holes - 1 - i`` (docs/rules.md §1.1)."""
    return tuple(spec.holes - 1 - i for i in path)


def next_table(path: Sequence[int]) -> dict[int, int]:
    """hole -> the hole after it on a closed path."""
    return {path[k]: path[(k + 1) % len(path)] for k in range(len(path))}


def lap_holes(next_hole: Mapping[int, int], first: int, count: int) -> tuple[int, ...]:
    """The ``count`` holes a lap sows, beginning with ``first`` (for watchers only)."""
    holes = [first]
    while len(holes) < count:
        holes.append(next_hole[holes[-1]])
    return tuple(holes)


def seen_lap(board: Sequence[int], next_hole: Mapping[int, int], start: int, first: int,
             seeds: int, decision: str, captured: tuple[tuple[int, int], ...] = ()) -> LapSeen:
    """The watcher's record of a lap just sown on ``board`` (``first``: its first hole)."""
    sown = lap_holes(next_hole, first, seeds)
    return LapSeen(start, seeds, sown, board[sown[-1]] - 1, decision, captured, tuple(board))


def run_taken(step: Mapping[int, int], hole: int, sown: Sequence[int], board: Sequence[int],
              taken: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """``taken`` plus ``(hole, seeds)`` of the run of holes a capture emptied from ``hole``
    on along ``step``: the holes whose count changed since ``sown`` and are not in
    ``taken`` yet (for watchers only)."""
    done = {h for h, _ in taken}
    while board[hole] != sown[hole] and hole not in done:
        taken.append((hole, sown[hole]))
        done.add(hole)
        hole = step[hole]
    return taken


def sowings_that_end(pos: Position, candidates: list[int], sow: Sow, limit: int) -> list[int]:
    """The candidate actions whose sowing ends within ``limit`` laps (docs/rules.md §1.3)."""
    return [a for a in candidates if sow(pos.copy(), a, limit) is not None]


def relay_sow(pos: Position, origin: int, next_hole: Mapping[int, int],
              captured_by: Callable[[int], int | None], limit: int,
              watch: LapWatcher | None = None) -> int | None:
    """Katro's and Katra Mpantsaka's sowing (docs/rules.md §2.3, §3.3), in place: lift
    ``origin`` and sow lap after lap along ``next_hole``.  A lap landing in an empty
    hole ends the move; any other landing relays from there, sowing on with the seeds
    of the hole ``captured_by(landing)`` names (the game's capture rule, asked with the
    lap sown; None: no capture).  Returns the laps taken, or None past ``limit``.
    ``watch``, if given, is told about every lap."""
    board = pos.board
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
        target = captured_by(hole)
        if watch is not None:
            watch(seen_lap(board, next_hole, start, next_hole[start], hand, RELAY)
                  if target is None else
                  seen_lap(board, next_hole, start, next_hole[start], hand, CAPTURE,
                           ((target, board[target]),)))
        if laps == limit:             # another lap would pass the limit
            return None
        laps += 1
        hand, board[hole] = board[hole], 0
        if target is not None:        # capture: both holes sown on from the next hole
            hand, board[target] = hand + board[target], 0


class SowWatched(Protocol):
    """``sow`` as the rules files define it, with the optional watcher."""

    def __call__(self, pos: Position, action: int, limit: int,
                 watch: LapWatcher | None = None, /) -> int | None: ...


def sow_and_pass_the_turn(pos: Position, sow: SowWatched, action: int, limit: int,
                          watch: LapWatcher | None = None) -> None:
    if watch is None:
        sow(pos, action, limit)  # as before watchers: a patched three-argument sow works
    else:
        sow(pos, action, limit, watch)
    pos.to_move = 1 - pos.to_move
