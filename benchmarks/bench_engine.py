"""Does keeping the table pay?  A game searched move by move, with one
``katra.Engine`` (its table kept between moves) against a fresh
``katra.search`` per move.

    python benchmarks/bench_engine.py            # the table of docs/engine.md
    python benchmarks/bench_engine.py 60         # plies per game (default 40)

The kept table is measured twice: the Engine's default size (2**20 entries) and
2**16 entries, the size a fresh search picks at these depths, since a larger
table costs cache misses that show in the CPU time but not in the nodes.
    python -m pytest benchmarks/bench_engine.py  # a short game per game id

Each game id's start position is played by the engine against itself at a
fixed depth, for a fixed number of plies (or to the end): count-driven, so the
moves and node counts are the same on every machine.  Both ways play the same
moves (a kept table never changes a fixed-depth result: the script checks
it); the table compares the nodes and the CPU time (``time.process_time``)
per move, as totals over the game and as the median of the per-move ratios.
"""
from __future__ import annotations

import statistics
import sys
import time

import katra

# (game id, depth): a few milliseconds to a few tens per move
DEPTHS = [
    ("katro", 9),
    ("katro-4x6", 10),
    ("katro-4x4", 12),
    ("katra-mpantsaka", 7),
    ("katra-mpantsaka-simplified", 5),
    ("gore", 12),
    ("djenon-aboure", 12),
]


def play(game_id: str, depth: int, plies: int,
         tt_bits: int | None = None) -> list[tuple[int, int, float, int, float]]:
    """Per move: (action, fresh nodes, fresh CPU seconds, kept nodes, kept CPU seconds),
    the kept table of ``2**tt_bits`` entries (None: the Engine's default)."""
    state = katra.game(game_id).initial_state()
    engine = katra.Engine(tt_bits=tt_bits)
    moves = []
    for _ in range(plies):
        if state.is_terminal():
            break
        start = time.process_time()
        fresh = katra.search(state, depth=depth)
        middle = time.process_time()
        kept = engine.search(state, depth=depth)
        end = time.process_time()
        if (kept.best_action, kept.score) != (fresh.best_action, fresh.score):
            raise AssertionError(f"{game_id} ply {state.ply}: the kept table changed the result")
        moves.append((kept.best_action, fresh.nodes, middle - start, kept.nodes, end - middle))
        state.push(kept.best_action)
    return moves


def table(plies: int = 40, tt_bits: int | None = None) -> str:
    rows = ["| game | depth | moves | nodes/move fresh | nodes/move kept | nodes kept/fresh "
            "(median move) | CPU ms/move fresh | CPU ms/move kept | CPU kept/fresh |",
            "|---|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for game_id, depth in DEPTHS:
        moves = play(game_id, depth, plies, tt_bits)
        n = len(moves)
        fresh_nodes = sum(m[1] for m in moves)
        kept_nodes = sum(m[3] for m in moves)
        fresh_cpu = sum(m[2] for m in moves)
        kept_cpu = sum(m[4] for m in moves)
        median_ratio = statistics.median(m[3] / m[1] for m in moves)
        rows.append(f"| {game_id} | {depth} | {n} | {fresh_nodes / n:,.0f} | "
                    f"{kept_nodes / n:,.0f} | {kept_nodes / fresh_nodes:.2f} "
                    f"({median_ratio:.2f}) | {1000 * fresh_cpu / n:.2f} | "
                    f"{1000 * kept_cpu / n:.2f} | {kept_cpu / fresh_cpu:.2f} |")
    return "\n".join(rows)


def test_engine_reuse() -> None:
    """A short game per game id: the same moves both ways, fewer nodes kept."""
    for game_id, depth in DEPTHS:
        moves = play(game_id, max(depth - 3, 2), 12)
        assert sum(m[3] for m in moves) < sum(m[1] for m in moves), game_id


if __name__ == "__main__":
    plies = int(sys.argv[1]) if len(sys.argv) > 1 else 40
    for bits in (None, 16):
        print(f"\nkept table: {'the default, 2**20' if bits is None else f'2**{bits}'} entries "
              "(a fresh search at these depths sizes its own 2**16)\n")
        print(table(plies, bits))
