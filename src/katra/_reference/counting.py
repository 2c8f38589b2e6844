"""Counting on the reference: perft, divide (docs/rules.md §1.4), seeded playouts (§6.2).

Arguments are checked as on every layer (katra._limits), with the same exceptions.
"""
from __future__ import annotations

from .._errors import ArgumentTypeError
from .._limits import check_perft_depth, check_playout_args
from .._zobrist import MASK64, splitmix64
from .position import Position


class SplitMix64:
    """splitmix64 exactly as docs/rules.md §6.2 gives it, modulo 2**64."""

    def __init__(self, state: int) -> None:
        self.state = state & MASK64

    def next(self) -> int:
        self.state, output = splitmix64(self.state)
        return output


def _check_position(pos: object) -> None:
    if not isinstance(pos, Position):
        raise ArgumentTypeError(f"expected a reference Position, not {type(pos).__name__}")


def perft(pos: Position, depth: int) -> int:
    _check_position(pos)
    check_perft_depth(depth)
    return _perft(pos, depth)


def _perft(pos: Position, depth: int) -> int:
    if depth == 0:
        return 1
    actions = pos.legal_actions()
    if depth == 1:
        return len(actions)
    total = 0
    for action in actions:
        child = pos.copy()
        child.apply(action)
        total += _perft(child, depth - 1)
    return total


def divide(pos: Position, depth: int) -> list[tuple[int, int]]:
    _check_position(pos)
    check_perft_depth(depth, 1)
    result = []
    for action in pos.legal_actions():
        child = pos.copy()
        child.apply(action)
        result.append((action, _perft(child, depth - 1)))
    return result


def playouts(pos: Position, games: int, seed: int, max_plies: int,
             first_game: int = 0) -> dict[str, int]:
    """Play games ``first_game .. first_game + games - 1`` of the batch seeded ``seed``
    from ``pos`` (docs/rules.md §6.2)."""
    _check_position(pos)
    games, seed, max_plies, first_game = check_playout_args(games, seed, max_plies, first_game)
    tally = {"games": games, "south_wins": 0, "north_wins": 0, "draws": 0, "unfinished": 0,
             "plies": 0}
    for k in range(games):
        rng = SplitMix64(seed + ((first_game + k) << 32))
        game = pos.copy()
        plies = 0
        while True:
            actions = game.legal_actions()
            if not actions:
                winner = game.rules.outcome(game)[0]
                tally[("draws", "south_wins", "north_wins")[winner + 1]] += 1
                break
            if plies == max_plies:
                tally["unfinished"] += 1
                break
            game.apply(actions[rng.next() % len(actions)])
            plies += 1
        tally["plies"] += plies
    return tally
