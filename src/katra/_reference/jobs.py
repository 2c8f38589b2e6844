"""Whole jobs on the reference: perft, divide (docs/rules.md §1.4), seeded playouts (§6.2)."""
from __future__ import annotations

from .._games import MAX_PERFT_DEPTH
from .._zobrist import MASK64, splitmix64
from .position import Position

#: Game indices of a batch run 0 .. 2**62 - 1 (the core counts them in 64 bits).
MAX_GAME_INDEX = 1 << 62


class SplitMix64:
    """splitmix64 exactly as docs/rules.md §6.2 gives it, modulo 2**64."""

    def __init__(self, state: int) -> None:
        self.state = state & MASK64

    def next(self) -> int:
        self.state, output = splitmix64(self.state)
        return output


def _check_int(name: str, value: object, low: int, high: int | None = None) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < low or (
            high is not None and value > high):
        bound = f">= {low}" if high is None else f"in {low}..{high}"
        raise ValueError(f"{name} must be an int {bound}, got {value!r}")
    return value


def _check_position(pos: object) -> None:
    if not isinstance(pos, Position):
        raise ValueError(f"expected a reference Position, not {type(pos).__name__}")


def perft(pos: Position, depth: int) -> int:
    _check_position(pos)
    _check_int("depth", depth, 0, MAX_PERFT_DEPTH)
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
    _check_int("depth", depth, 1, MAX_PERFT_DEPTH)
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
    _check_int("games", games, 0)
    _check_int("seed", seed, 0, MASK64)
    _check_int("max_plies", max_plies, 0)
    _check_int("first_game", first_game, 0)
    if first_game + games > MAX_GAME_INDEX:
        raise ValueError(f"first_game + games must be <= 2**62, got {first_game} + {games}")
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
