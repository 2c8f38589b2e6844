"""Solver speed beside perft's, per game: the table of docs/solve.md.

    python benchmarks/bench_solve.py [ROUNDS]

Each row solves a start position to a fixed bound (deterministic: the node
count is the same on every run and machine) and counts perft from the same
position to a fixed depth, both in one thread; times are CPU seconds
(``time.thread_time``, so other jobs on a shared machine do not count),
the median of ROUNDS runs (default 5).  A solver node is one position the
AND/OR search visits (leaves included), each made by playing a move; a
perft node is one leaf counted, and perft counts its last ply without
playing it (bulk counting).  So two perft rates: leaves per second (what
``katra perft`` reports) and positions played per second (the nodes above
the last ply, perft(1) + ... + perft(depth - 1), over the same time: the
same work per node as the solver's).  The ratios are the solver's rate over
each.
"""
from __future__ import annotations

import statistics
import sys
import time

import katra
from katra import _core

# (game id, solve bound, perft depth): ~0.05-0.5 s each
CASES = [
    ("katro", 14, 9),
    ("katro-4x6", 16, 9),
    ("katro-4x4", 17, 12),
    ("katra-mpantsaka", 9, 6),
    ("katra-mpantsaka-simplified", 7, 5),
    ("gore", 18, 13),
    ("djenon-aboure", 18, 11),
]


def cpu_median(rounds: int, job, *args):
    """(median CPU seconds of job(*args) over rounds runs, its result)."""
    times, result = [], None
    for _ in range(rounds):
        start = time.thread_time()
        result = job(*args)
        times.append(time.thread_time() - start)
    return statistics.median(times), result


def table(rounds: int = 5) -> str:
    rows = ["| game | bound | solver nodes | solver CPU s | solver M/s | perft depth "
            "| perft leaves M/s | perft played M/s | ratio to leaves | ratio to played |",
            "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for game_id, bound, depth in CASES:
        pos = _core.Position.initial(game_id)
        solve_s, r = cpu_median(rounds, katra.solve, game_id, bound)
        perft_s, count = cpu_median(rounds, _core.perft, pos, depth)
        played = sum(_core.perft(pos, d) for d in range(1, depth))
        rate, leaves, made = r.nodes / solve_s, count / perft_s, played / perft_s
        rows.append(f"| {game_id} | {bound} | {r.nodes:,} | {solve_s:.3f} | {rate / 1e6:.2f} "
                    f"| {depth} | {leaves / 1e6:.1f} | {made / 1e6:.2f} | {rate / leaves:.2f} "
                    f"| {rate / made:.2f} |")
    return "\n".join(rows)


if __name__ == "__main__":
    print(table(int(sys.argv[1]) if len(sys.argv) > 1 else 5), flush=True)
