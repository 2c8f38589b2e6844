"""Solver speed beside perft's, per game: the table of docs/solve.md.

    python benchmarks/bench_solve.py [ROUNDS] [--before DIR]

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

``--before DIR``: DIR is put first on the path of a second interpreter that
imports another build of katra (a folder holding a ``katra`` package, its
``_core`` built from an older commit).  Each round then runs once with each
build, in turn and in alternating order (ABBA), each in a fresh
interpreter, and the table adds that build's nodes, CPU and rate in
parentheses, and the speed-up: two builds measured under the same load.
"""
from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import time

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


def cpu(job, *args):
    """(CPU seconds of job(*args), its result)."""
    start = time.thread_time()
    result = job(*args)
    return time.thread_time() - start, result


def one_round() -> dict[str, tuple[int, float, float]]:
    """game id -> (solver nodes, solver CPU s, perft CPU s), one run each."""
    import katra

    rows = {}
    for game_id, bound, depth in CASES:
        solve_s, r = cpu(katra.solve, game_id, bound)
        perft_s, _ = cpu(_core.perft, _core.Position.initial(game_id), depth)
        rows[game_id] = (r.nodes, solve_s, perft_s)
    return rows


def round_in(path: str | None) -> dict[str, tuple[int, float, float]]:
    """one_round() in a fresh interpreter, with path first on its sys.path."""
    env = dict(os.environ)
    if path is not None:
        env["PYTHONPATH"] = os.pathsep.join(filter(None, [path, env.get("PYTHONPATH")]))
    out = subprocess.run([sys.executable, __file__, "--round"], env=env, check=True,
                         capture_output=True, text=True).stdout
    return {k: tuple(v) for k, v in json.loads(out).items()}


def table(rounds: int = 5, before: str | None = None) -> str:
    runs: dict[str | None, list] = {None: [], before: []} if before else {None: []}
    for i in range(rounds):
        order = [None, before] if i % 2 == 0 else [before, None]
        for path in order if before else [None]:
            runs[path].append(round_in(path) if before else one_round())
    rows = ["| game | bound | solver nodes | solver CPU s | solver M/s | speed-up | perft depth "
            "| perft leaves M/s | perft played M/s | ratio to leaves | ratio to played |",
            "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for game_id, bound, depth in CASES:
        pos = _core.Position.initial(game_id)
        leaves = _core.perft(pos, depth)
        played = sum(_core.perft(pos, d) for d in range(1, depth))
        nodes = runs[None][0][game_id][0]
        solve_s = statistics.median(r[game_id][1] for r in runs[None])
        perft_s = statistics.median(r[game_id][2] for r in runs[None])
        rate, leaf_rate, made = nodes / solve_s, leaves / perft_s, played / perft_s
        cells = [f"{nodes:,}", f"{solve_s:.3f}", f"{rate / 1e6:.2f}", ""]
        if before:
            old_nodes = runs[before][0][game_id][0]
            old_s = statistics.median(r[game_id][1] for r in runs[before])
            cells = [f"{nodes:,} ({old_nodes:,})", f"{solve_s:.3f} ({old_s:.3f})",
                     f"{rate / 1e6:.2f} ({old_nodes / old_s / 1e6:.2f})", f"{old_s / solve_s:.2f}x"]
        rows.append(f"| {game_id} | {bound} | {' | '.join(cells)} | {depth} "
                    f"| {leaf_rate / 1e6:.1f} | {made / 1e6:.2f} | {rate / leaf_rate:.2f} "
                    f"| {rate / made:.2f} |")
    return "\n".join(rows)


if __name__ == "__main__":
    if sys.argv[1:] == ["--round"]:
        print(json.dumps(one_round()))
        sys.exit(0)
    args = sys.argv[1:]
    before_dir = None
    if "--before" in args:
        at = args.index("--before")
        before_dir = args[at + 1]
        del args[at:at + 2]
    print(table(int(args[0]) if args else 5, before_dir), flush=True)
