"""Two workers against one on a long solve: the table of docs/solve.md.

    python benchmarks/bench_solve_split.py [BOUND] [PAIRS] [GAME]

Solves GAME's start position (default katro-4x6) to BOUND plies (default
23: about 23 s of CPU with one worker when the table was measured) with
``jobs=1`` and ``jobs=2``, alternating, PAIRS times (default 2), each in a
fresh process so that no run warms another's memory.  Per run it prints the
nodes (deterministic with one worker; with two they depend on how the
threads interleave over the shared table), the CPU seconds of all the
process's threads (``time.process_time``), the wall clock and the result;
then the medians and the ratios two workers / one.  On a machine shared
with other jobs only the node and CPU ratios mean anything; the speed-up
(one worker's wall clock over two's) needs an otherwise idle machine with
two free cores.
"""
from __future__ import annotations

import json
import statistics
import subprocess
import sys

RUN = """
import json, sys, time, katra
game, bound, jobs = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
cpu, wall = time.process_time(), time.perf_counter()
r = katra.solve(game, bound, jobs=jobs)
print(json.dumps({"nodes": r.nodes, "cpu": time.process_time() - cpu,
                  "wall": time.perf_counter() - wall, "result": r.describe()}))
"""


def run(game: str, bound: int, jobs: int) -> dict[str, object]:
    """One solve in a fresh interpreter: nodes, cpu, wall, result."""
    out = subprocess.run([sys.executable, "-c", RUN, game, str(bound), str(jobs)],
                         check=True, capture_output=True, text=True).stdout
    return dict(json.loads(out))


def main(bound: int = 23, pairs: int = 2, game: str = "katro-4x6") -> None:
    runs: dict[int, list[dict[str, object]]] = {1: [], 2: []}
    print(f"{game} from the start, bound {bound}, alternating jobs=1 / jobs=2, {pairs} pairs")
    print("| workers | nodes | CPU s (all threads) | wall s | result |")
    print("|---:|---:|---:|---:|---|")
    for _ in range(pairs):
        for jobs in (1, 2):
            r = run(game, bound, jobs)
            runs[jobs].append(r)
            print(f"| {jobs} | {r['nodes']:,} | {r['cpu']:.1f} | {r['wall']:.1f} "
                  f"| {r['result']} |", flush=True)

    def median(jobs: int, name: str) -> float:
        return statistics.median(float(r[name]) for r in runs[jobs])  # type: ignore[arg-type]

    nodes = median(2, "nodes") / median(1, "nodes")
    cpu = median(2, "cpu") / median(1, "cpu")
    speed = median(1, "wall") / median(2, "wall")
    print(f"medians, two workers / one: nodes {nodes:.3f}x, CPU {cpu:.3f}x; "
          f"speed-up (wall clock, one / two) {speed:.2f}x")


if __name__ == "__main__":
    args = sys.argv[1:]
    main(int(args[0]) if args else 23, int(args[1]) if len(args) > 1 else 2,
         args[2] if len(args) > 2 else "katro-4x6")
