"""Solve start positions bound by bound within a CPU budget (docs/solved.md).

    python benchmarks/solve_starts.py GAME_ID [--cpu SECONDS] [--tt-bits B] [--max-plies N]

One compiled-core ``Solver`` (its table kept from bound to bound) deepens the
bound ``N = 1, 2, ...`` as ``katra.solve`` does; after each bound it prints
the bound, the nodes and the CPU seconds so far.  The search runs in a
worker thread; the main thread stops it with ``katra.cancel_jobs()`` once the
process has used ``--cpu`` seconds of CPU (a budget in CPU time, not wall
clock: the machine may be shared).  The last line is the result: the proven
outcome and distance (then ``katra.solve`` is run to give the best move), or
the largest bound completed with no result.
"""
from __future__ import annotations

import argparse
import json
import platform
import threading
import time

import katra
from katra import _core


def solve_within(game: str, cpu: float, tt_bits: int, max_plies: int) -> dict[str, object]:
    solver = _core.Solver(tt_bits)
    pos = _core.Position.initial(game)
    mover = int(pos.to_move)
    state: dict[str, object] = {"thresholds": [-1, -1, -1, -1], "bound": 0, "done": False}
    cpu_start, wall_start = time.process_time(), time.monotonic()

    def work() -> None:
        try:
            while int(state["bound"]) < max_plies:
                known = (state["thresholds"], state["bound"])
                thresholds, bound, _ = solver.thresholds(pos, int(state["bound"]) + 1, None,
                                                         known)
                state["thresholds"], state["bound"] = thresholds, bound
                print(f"bound {bound:3d}  nodes {solver.nodes:>14,}  "
                      f"cpu {time.process_time() - cpu_start:9.1f} s  "
                      f"wall {time.monotonic() - wall_start:9.1f} s", flush=True)
                if katra_value(thresholds, mover)[0] is not None:
                    break
        except katra.JobCancelled:
            pass
        state["done"] = True

    thread = threading.Thread(target=work, daemon=True)
    thread.start()
    while thread.is_alive():
        thread.join(0.5)
        if time.process_time() - cpu_start > cpu:
            katra.cancel_jobs()
            thread.join()
    outcome, distance = katra_value(state["thresholds"], mover)
    return {"game": game, "outcome": outcome, "plies": distance, "bound": state["bound"],
            "nodes": solver.nodes, "cpu_seconds": round(time.process_time() - cpu_start, 1),
            "wall_seconds": round(time.monotonic() - wall_start, 1), "tt_bits": tt_bits,
            "machine": f"{platform.machine()} {platform.processor() or ''}".strip()}


def katra_value(thresholds: list[int | None], mover: int) -> tuple[str | None, int | None]:
    """(outcome for the mover, distance) of a thresholds list, as katra.solve reads it."""
    from katra.api._questions import value_of
    return value_of(thresholds, mover)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game")
    parser.add_argument("--cpu", type=float, default=60.0, help="CPU seconds (default 60)")
    parser.add_argument("--tt-bits", type=int, default=22, help="table size (default 22)")
    parser.add_argument("--max-plies", type=int, default=500)
    args = parser.parse_args()
    result = solve_within(args.game, args.cpu, args.tt_bits, args.max_plies)
    if result["outcome"] is not None:
        r = katra.solve(args.game, int(result["bound"]))
        result["describe"], result["best_move"] = r.describe(), r.best_move
    print(json.dumps(result))


if __name__ == "__main__":
    main()
