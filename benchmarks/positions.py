"""Positions the benchmarks start from."""
import random


def mid_game_text(game_id, plies=10, seed=1):
    """A position ``plies`` seeded random moves into the game (reference backend)."""
    from katra._reference import Position

    position = Position.initial(game_id)
    rng = random.Random(seed)
    for _ in range(plies):
        actions = position.legal_actions()
        if not actions:
            break
        position.apply(rng.choice(actions))
    return position.text()
