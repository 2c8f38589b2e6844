"""Djenon-aboure's endgame tables: their build, and the solvers with and without them
(the tables of docs/tables.md).

    python benchmarks/bench_tables.py [MAX_SEEDS] [ROUNDS] [--positions N]

Builds the layers 0..MAX_SEEDS (default 12) in this process and prints each
layer's boards, sweeps, CPU seconds and compressed bytes; then, on the
Djenon-aboure start and N (default 10) mid-games (random games of 4 plies,
seeds 1.., as the profile of docs/tables.md), solves each position with
df-pn (``katra.solve(pos)``) and with the bounded solver
(``katra.solve(pos, BOUND)``, BOUND the exact distance found first), each
with and without the tables, and prints the nodes (deterministic) and the
median CPU time (``time.thread_time``) of ROUNDS alternating runs (default 5).
"""
from __future__ import annotations

import random
import statistics
import sys
import time
import zlib
from typing import Any

import katra
from katra import _core
from katra.api import _tables

GAME = "djenon-aboure"


def mid_games(count: int) -> list[str]:
    rng = random.Random(1)
    out: list[str] = []
    while len(out) < count:
        pos = _core.Position.initial(GAME)
        for _ in range(4):
            pos.apply(rng.choice(list(pos.legal_actions())))
        if not pos.is_terminal():
            out.append(pos.text())
    return out


def measured(text: str, bound: int | None, tables: Any, rounds: int) -> list[tuple[Any, float]]:
    """(result, median CPU seconds) without and with the tables, the runs alternating."""
    times: list[list[float]] = [[], []]
    results: list[Any] = [None, None]
    for r in range(rounds):
        for which in ((0, 1) if r % 2 == 0 else (1, 0)):
            start = time.thread_time()
            results[which] = katra.solve(text, bound, tables=tables if which else None)
            times[which].append(time.thread_time() - start)
    return [(results[i], statistics.median(times[i])) for i in (0, 1)]


def main(argv: list[str]) -> None:
    args = [a for a in argv if not a.startswith("--")]
    count = 10
    if "--positions" in argv:
        count = int(argv[argv.index("--positions") + 1])
        args.remove(str(count))
    max_seeds = int(args[0]) if args else 12
    rounds = int(args[1]) if len(args) > 1 else 5
    values, plies, infos = _tables.build_layers(GAME, max_seeds)
    print("| seeds | boards | sweeps | CPU s | bytes (zlib) |")
    print("|---:|---:|---:|---:|---:|")
    for v, p, info in zip(values, plies, infos):
        size = len(zlib.compress(v + p, 9))
        print(f"| {info.seeds} | {info.boards:,} | {info.sweeps} | {info.seconds:.3f} | {size:,} |")
    print(f"total CPU {sum(i.seconds or 0 for i in infos):.2f} s")
    tables = _core.EndgameTables(values, plies)
    print()
    print("| position | solver | outcome | nodes | with tables | CPU ms | with tables |")
    print("|---|---|---|---:|---:|---:|---:|")
    totals: dict[str, list[float]] = {"df-pn": [0, 0, 0.0, 0.0], "bounded": [0, 0, 0.0, 0.0]}
    for text in [GAME, *mid_games(count)]:
        exact = katra.solve(text, exact=True)
        for name, bound in (("df-pn", None), ("bounded", exact.plies)):
            (plain, plain_s), (tabled, tabled_s) = measured(text, bound, tables, rounds)
            assert (plain.outcome, plain.best_move if bound else "") == (
                tabled.outcome, tabled.best_move if bound else "")
            row = totals[name]
            row[0] += plain.nodes
            row[1] += tabled.nodes
            row[2] += plain_s
            row[3] += tabled_s
            print(f"| `{text}` | {name} | {plain.describe()} | {plain.nodes:,} | "
                  f"{tabled.nodes:,} | {1000 * plain_s:.1f} | {1000 * tabled_s:.1f} |")
    for name, (a, b, s, t) in totals.items():
        print(f"{name}: nodes {a:,} -> {b:,} ({b / a:.2f}x), CPU {s * 1000:.0f} -> "
              f"{t * 1000:.0f} ms ({t / s:.2f}x)")


if __name__ == "__main__":
    main(sys.argv[1:])
