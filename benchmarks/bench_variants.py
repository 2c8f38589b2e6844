"""The forms variants run on, against the named games' packed forms, and the speed of variants.

    python benchmarks/bench_variants.py [ROUNDS]

A variant (docs/rules.md §7) is not one of the seven named games, so it has no
packed form of its own.  A Katro or Katra Mpantsaka variant whose rows fit the
packed lanes (rows of at most 6 holes in Katro, 8 in Katra Mpantsaka) runs on
the variants' halves: the same lanes, with its shape read from its tables at
run time rather than built into the code.  A position of more than 255 seeds
of a Katro or Katra Mpantsaka board of at most 12 holes a player, named or
not, runs on the 16-bit halves: the same again on 16-bit lanes.  Every other
variant, and every other position of more than 255 seeds, runs on the int
form, one C ``int`` a hole.

The first table forces each named game onto those forms
(``_core._set_variant_halves(True)``, ``_core._set_halves16(True)``,
``_core._set_lanes(False)``) and counts the same perft on each in one
process, in turn, ROUNDS times (default 5): the medians of the CPU seconds
(``time.thread_time``) and each form's rate over the packed form's.  That
ratio is what a variant of the same shape, or a position of more than 255
seeds, gets.  The second table gives the perft rate of a few variants of
every family on the form they run on.  Node counts are exact and the same
on every machine; the times are not.
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

#: The families whose variants may run on the variants' halves.
HALVES_FAMILIES = ("katro", "katra-mpantsaka")

VARIANTS = [
    ("katro-4x5-s2", 10),
    ("katro-6x4-s2", 13),
    ("katro-4x8-s1", 9),
    ("katra-mpantsaka-4x6-s2", 7),
    ("katra-mpantsaka-simplified-4x5-s2", 5),
    ("katra-mpantsaka-4x9-s1", 6),
    ("gore-2x3-s4", 16),
    ("djenon-aboure-2x8-s4", 9),
]

#: The forms a job can run a named game on: (name, lanes on, forced onto the variants'
#: halves, forced onto the 16-bit halves).
FORMS = {"packed": (True, False, False), "variants' halves": (True, True, False),
         "16-bit halves": (True, False, True), "int form": (False, False, False)}


def cpu_perft(game_id: str, depth: int) -> tuple[float, int]:
    """(CPU seconds, leaves) of perft from game_id's start, one thread."""
    position = _core.Position.initial(game_id)
    start = time.thread_time()
    leaves = _core.perft(position, depth)
    return time.thread_time() - start, leaves


def on_form(form: str, game_id: str, depth: int) -> tuple[float, int]:
    lanes, halves, halves16 = FORMS[form]
    previous = (_core._set_lanes(lanes), _core._set_variant_halves(halves),
                _core._set_halves16(halves16))
    try:
        return cpu_perft(game_id, depth)
    finally:
        _core._set_lanes(previous[0])
        _core._set_variant_halves(previous[1])
        _core._set_halves16(previous[2])


def forms_of(game_id: str) -> list[str]:
    """The forms a game of game_id's shape can run on (the packed one first)."""
    if not game_id.startswith(HALVES_FAMILIES):
        return ["packed", "int form"]
    previous = _core._set_halves16(True)
    try:
        fits = _core._working_form(_core.Position.initial(game_id)) == "halves16"
    finally:
        _core._set_halves16(previous)
    return list(FORMS) if fits else ["packed", "variants' halves", "int form"]


def main(rounds: int) -> None:
    print(f"perft from the start, one thread, median CPU seconds of {rounds} rounds")
    print(f"{'game id':28} {'depth':>5} {'leaves':>13} {'packed s':>9} {'halves s':>9} "
          f"{'16-bit s':>9} {'int s':>9} {'halves/packed':>13} {'16-bit/packed':>13} "
          f"{'int/packed':>10}")
    for game_id, depth in NAMED:
        forms = forms_of(game_id)
        times: dict[str, list[float]] = {form: [] for form in forms}
        leaves = set()
        for k in range(rounds):  # the order turned round each round
            for form in (forms if k % 2 == 0 else forms[::-1]):
                seconds, count = on_form(form, game_id, depth)
                times[form].append(seconds)
                leaves.add(count)
        assert len(leaves) == 1, f"{game_id}: the forms disagree: {leaves}"
        median = {form: statistics.median(times[form]) for form in forms}
        packed = median["packed"]
        halves = median.get("variants' halves")
        sixteen = median.get("16-bit halves")
        print(f"{game_id:28} {depth:>5} {leaves.pop():>13,} {packed:>9.3f} "
              + (f"{halves:>9.3f} " if halves else f"{'-':>9} ")
              + (f"{sixteen:>9.3f} " if sixteen else f"{'-':>9} ")
              + f"{median['int form']:>9.3f} "
              + (f"{packed / halves:>13.2f} " if halves else f"{'-':>13} ")
              + (f"{packed / sixteen:>13.2f} " if sixteen else f"{'-':>13} ")
              + f"{packed / median['int form']:>10.2f}")
    print()
    print(f"{'variant id':34} {'form':16} {'depth':>5} {'leaves':>13} {'s':>9} {'leaves/s':>14}")
    for game_id, depth in VARIANTS:
        form = _core._working_form(_core.Position.initial(game_id))
        runs = [cpu_perft(game_id, depth) for _ in range(rounds)]
        seconds = statistics.median(s for s, _ in runs)
        leaves = runs[0][1]
        print(f"{game_id:34} {form:16} {depth:>5} {leaves:>13,} {seconds:>9.3f} "
              f"{leaves / seconds:>14,.0f}")


def test_every_form_counts_what_packed_lanes_count():
    """Run by ``python -m pytest benchmarks``: every form gives the same leaves."""
    for game_id, depth in NAMED:
        counts = {on_form(form, game_id, depth - 2)[1] for form in forms_of(game_id)}
        assert len(counts) == 1, (game_id, counts)


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 5)
