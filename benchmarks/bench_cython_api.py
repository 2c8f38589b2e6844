#!/usr/bin/env python3
"""The C API's example extension (examples/cython_perft) beside katra.perft.

Install the example first, with docs/cython.md's command (from the repository
root, in the environment where katra is installed):

    pip install --no-build-isolation ./examples/cython_perft
    python benchmarks/bench_cython_api.py [--repeat 5] [--only gore]

For the start position of every game id, at a depth of about a second, it
runs the example's ``perft(text, depth)`` and ``katra.perft(state, depth,
jobs=1)`` alternately, checks that they count the same leaves, and prints the
median CPU time of each (time.process_time: one thread; steadier than the
wall clock on a shared machine) and the example's speed relative to
katra.perft's (their time over its; 1.00 = parity, higher is faster).  This is
a script, not a test.
"""
from __future__ import annotations

import argparse
import statistics
import time

import katra

#: Depth per game id: 0.4 to 1 s of katra.perft on one core (the next depth of
#: katra-mpantsaka-simplified takes 9 s).
DEPTHS = {"katro": 11, "katro-4x6": 10, "katro-4x4": 14, "katra-mpantsaka": 7,
          "katra-mpantsaka-simplified": 5, "gore": 14, "djenon-aboure": 13}


def cpu_seconds(job, *args, **kwargs):
    start = time.process_time()
    result = job(*args, **kwargs)
    return time.process_time() - start, result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--repeat", type=int, default=5, help="runs of each side (median)")
    parser.add_argument("--only", choices=sorted(DEPTHS), help="one game id")
    args = parser.parse_args()
    try:
        import cython_perft
    except ImportError:
        raise SystemExit("install the example first: "
                         "pip install --no-build-isolation ./examples/cython_perft") from None
    print(f"{'game':28} {'depth':>5} {'leaves':>12} {'example s':>10} {'katra s':>9} "
          f"{'speed':>6}")
    for game_id, depth in DEPTHS.items():
        if args.only and game_id != args.only:
            continue
        state = katra.State(game_id)
        text = state.text()
        ours, theirs = [], []
        for _ in range(args.repeat):
            seconds, leaves = cpu_seconds(cython_perft.perft, text, depth)
            ours.append(seconds)
            seconds, expected = cpu_seconds(katra.perft, state, depth, jobs=1)
            theirs.append(seconds)
            assert leaves == expected, (game_id, depth, leaves, expected)
        example_s, katra_s = statistics.median(ours), statistics.median(theirs)
        print(f"{game_id:28} {depth:>5} {leaves:>12,} {example_s:>10.3f} {katra_s:>9.3f} "
              f"{katra_s / example_s:>6.2f}", flush=True)


if __name__ == "__main__":
    main()
