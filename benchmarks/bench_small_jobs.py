#!/usr/bin/env python3
"""Small jobs with the default settings cost what one call costs (docs/scale.md).

For each job, from one node to about a second of work, the best of
``--repeat`` wall-clock times of

* ``one call``: ``katra.perft(..., jobs=1)`` (or ``playouts``);
* ``jobs=2`` and ``jobs=0`` (every usable core: the command line's default),

and the ratio of the split-capable run to the single call.  The target:
at most ``1.2 x one call + 1 ms``.  Then the command line:
``katra perft GAME DEPTH --json`` with the default ``--jobs`` and with
``--jobs 1``, the ``seconds`` it reports and the wall time of the whole
process (Python start-up and imports included).

Usage::

    python benchmarks/bench_small_jobs.py [--repeat 7] [--no-cli]

Only the public API is used, so the script measures any version of katra.
"""
from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path

import katra

#: (game, depth): perft jobs from 1 node to about a second on the core.
PERFT_JOBS = [("katro", 0), ("katro", 1), ("katro", 3), ("gore", 5), ("katro-4x4", 6),
              ("katra-mpantsaka-simplified", 3), ("katro", 7), ("djenon-aboure", 9),
              ("katro", 9), ("gore", 12), ("katro", 10), ("katro", 11)]
#: (game, games): playout batches with the default ply limit.
PLAYOUT_JOBS = [("gore", 1), ("katro", 10), ("djenon-aboure", 100), ("gore", 1000),
                ("katro", 3000), ("katro", 30000)]
#: Command-line jobs (perft): the wall time and the reported seconds.
CLI_JOBS = [("gore", 5), ("katra-mpantsaka-simplified", 3), ("katro-4x4", 6), ("katro", 9)]


def best(call: Callable[[], object], repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        call()
        times.append(time.perf_counter() - start)
    return min(times)


def ms(seconds: float) -> str:
    return f"{seconds * 1e3:.3f} ms" if seconds < 1 else f"{seconds:.2f} s"


def api_rows(repeat: int) -> list[list[str]]:
    rows = []
    jobs: list[tuple[str, str, Callable[[int], object]]] = []
    for game, depth in PERFT_JOBS:
        jobs.append((game, f"perft d{depth}",
                     lambda j, g=game, d=depth: katra.perft(g, d, jobs=j)))
    for game, n in PLAYOUT_JOBS:
        jobs.append((game, f"playouts x{n}",
                     lambda j, g=game, n=n: katra.playouts(g, n, seed=1, jobs=j)))
    for game, job, run in jobs:
        answer = run(1)
        assert run(2) == answer and run(0) == answer, (game, job)
        one, two, every = (best(partial(run, jobs), repeat) for jobs in (1, 2, 0))
        size = answer if isinstance(answer, int) else answer["plies"]
        worst = max(two, every)
        rows.append([game, job, f"{size:,}", ms(one), ms(two), ms(every),
                     f"{worst / one:.2f}x", "yes" if worst <= 1.2 * one + 1e-3 else "NO"])
    return rows


def cli_rows(repeat: int) -> list[list[str]]:
    exe = shutil.which("katra", path=str(Path(sys.executable).parent)) or "katra"
    rows = []
    for game, depth in CLI_JOBS:
        for jobs in ([], ["--jobs", "1"]):
            reported, wall = [], []
            for _ in range(max(3, repeat // 2)):
                start = time.perf_counter()
                out = subprocess.run([exe, "perft", game, str(depth), "--json", *jobs],
                                     capture_output=True, text=True, check=True).stdout
                wall.append(time.perf_counter() - start)
                reported.append(json.loads(out)["seconds"])
            rows.append([game, f"perft d{depth}", " ".join(jobs) or "(default)",
                         ms(min(reported)), ms(min(wall))])
    return rows


def table(head: list[str], rows: list[list[str]]) -> str:
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    lines += ["| " + " | ".join(row) + " |" for row in rows]
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=7)
    parser.add_argument("--no-cli", action="store_true")
    args = parser.parse_args()
    print(f"katra {katra.__version__}, load average {os.getloadavg()[0]:.2f}, "
          f"{os.cpu_count()} CPUs")
    print(table(["game", "job", "nodes / plies", "one call", "jobs=2", "jobs=0",
                 "worst / one", "<= 1.2x + 1 ms"], api_rows(args.repeat)))
    if not args.no_cli:
        print()
        print(table(["game", "job", "--jobs", "reported seconds", "process wall time"],
                    cli_rows(args.repeat)))
    print(f"load average {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
