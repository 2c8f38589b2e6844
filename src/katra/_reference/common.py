"""Small helpers shared by the reference's game files."""
from __future__ import annotations

from .._games import GameSpec


def rotate_path(spec: GameSpec, path) -> tuple[int, ...]:
    """The path turned half round: index ``i`` -> ``holes - 1 - i`` (RULES.md §1.1)."""
    return tuple(spec.holes - 1 - i for i in path)


def next_table(path) -> dict[int, int]:
    """hole -> the hole after it on a closed path."""
    return {path[k]: path[(k + 1) % len(path)] for k in range(len(path))}
