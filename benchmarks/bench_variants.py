"""The general (int) form against the packed forms, and the speed of variants.

    python benchmarks/bench_variants.py [ROUNDS]

A variant (docs/rules.md §7) that is not one of the seven named games runs on
the core's int form, one C ``int`` a hole; the named games run on packed
lanes.  The first table forces each named game onto the int form
(``_core._set_lanes(False)``) and counts the same perft on both forms in one
process, in turn, ROUNDS times (default 5): the medians of the CPU seconds
(``time.thread_time``) and their ratio, the int form's rate over the packed
forms'.  That ratio is what a variant of the same shape gets.  The second
table gives the perft rate of a few variants of every family (int form).
Node counts are exact and the same on every machine; the times are not.
"""
from __future__ import annotations

import statistics
import sys
import time

from katra import _core

# (game id, perft depth from the start): ~0.1-0.5 s each on packed lanes (an ordinary x86-64 core)
NAMED = [
    ("katro", 11),
    ("katro-4x6", 10),
    ("katro-4x4", 13),
    ("katra-mpantsaka", 6),
    ("katra-mpantsaka-simplified", 5),
    ("gore", 13),
    ("djenon-aboure", 13),
]

VARIANTS = [
    ("katro-4x5-s2", 10),
    ("katro-6x4-s2", 13),
    ("katra-mpantsaka-4x6-s2", 7),
    ("katra-mpantsaka-simplified-4x5-s2", 5),
    ("gore-2x3-s4", 16),
    ("djenon-aboure-2x8-s4", 9),
]


def cpu_perft(game_id: str, depth: int) -> tuple[float, int]:
    """(CPU seconds, leaves) of perft from game_id's start, one thread."""
    position = _core.Position.initial(game_id)
    start = time.thread_time()
    leaves = _core.perft(position, depth)
    return time.thread_time() - start, leaves


def on_form(packed: bool, game_id: str, depth: int) -> tuple[float, int]:
    previous = _core._set_lanes(packed)
    try:
        return cpu_perft(game_id, depth)
    finally:
        _core._set_lanes(previous)


def main(rounds: int) -> None:
    print(f"perft from the start, one thread, median CPU seconds of {rounds} rounds")
    print(f"{'game id':28} {'depth':>5} {'leaves':>13} {'packed s':>9} {'int s':>9} "
          f"{'int/packed rate':>15}")
    for game_id, depth in NAMED:
        packed_times, int_times = [], []
        leaves = set()
        for k in range(rounds):  # alternating order: ABBA over the rounds
            order = (True, False) if k % 2 == 0 else (False, True)
            for packed in order:
                seconds, count = on_form(packed, game_id, depth)
                (packed_times if packed else int_times).append(seconds)
                leaves.add(count)
        assert len(leaves) == 1, f"{game_id}: the forms disagree: {leaves}"
        packed_s, int_s = statistics.median(packed_times), statistics.median(int_times)
        print(f"{game_id:28} {depth:>5} {leaves.pop():>13,} {packed_s:>9.3f} {int_s:>9.3f} "
              f"{packed_s / int_s:>15.2f}")
    print()
    print(f"{'variant id':34} {'depth':>5} {'leaves':>13} {'int s':>9} {'leaves/s':>14}")
    for game_id, depth in VARIANTS:
        runs = [cpu_perft(game_id, depth) for _ in range(rounds)]
        seconds = statistics.median(s for s, _ in runs)
        leaves = runs[0][1]
        print(f"{game_id:34} {depth:>5} {leaves:>13,} {seconds:>9.3f} "
              f"{leaves / seconds:>14,.0f}")


def test_int_form_counts_what_packed_lanes_count():
    """Run by ``python -m pytest benchmarks``: both forms give the same leaves."""
    for game_id, depth in NAMED:
        assert on_form(True, game_id, depth - 2)[1] == on_form(False, game_id, depth - 2)[1]


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 5)
