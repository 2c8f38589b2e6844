"""Positions the benchmarks start from."""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from helpers import random_walk  # the tests' seeded random walk


def mid_game_text(game_id, plies=10, seed=1):
    """A position ``plies`` seeded random moves into the game (reference backend)."""
    from katra._reference import Position

    return random_walk(Position.initial(game_id), plies, seed).text()
