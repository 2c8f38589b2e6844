"""Small helpers shared by the reference's game files."""
from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from .._games import GameSpec

if TYPE_CHECKING:
    from .position import Position

#: ``sow(pos, action, limit)``: laps taken, or None if the sowing never ends within ``limit``.
Sow = Callable[["Position", int, int], "int | None"]


def rotate_path(spec: GameSpec, path: Sequence[int]) -> tuple[int, ...]:
    """The path turned half round: index ``i`` -> ``holes - 1 - i`` (docs/rules.md §1.1)."""
    return tuple(spec.holes - 1 - i for i in path)


def next_table(path: Sequence[int]) -> dict[int, int]:
    """hole -> the hole after it on a closed path."""
    return {path[k]: path[(k + 1) % len(path)] for k in range(len(path))}


def sowings_that_end(pos: Position, candidates: list[int], sow: Sow, limit: int) -> list[int]:
    """The candidate actions whose sowing ends within ``limit`` laps (docs/rules.md §1.3)."""
    return [a for a in candidates if sow(pos.copy(), a, limit) is not None]


def sow_and_pass_the_turn(pos: Position, sow: Sow, action: int, limit: int) -> None:
    sow(pos, action, limit)
    pos.to_move = 1 - pos.to_move
