#!/usr/bin/env python3
"""The compiled core beside any plain-C implementation of the same rules.

Takes a perft binary that understands ``BIN perft GAME DEPTH ["POSITION TEXT"]``
and prints ``perft D LEAVES SECONDS s ...``, and optionally a playout command
template (``{game}``, ``{games}``, ``{seed}``, ``{max_plies}`` are filled in)
whose output contains ``N plies/s``.  For every case of
``benchmarks/compare_c.py`` (start and mid-game position of every game id) it
runs the binary's perft and ``katra._core.perft`` alternately, asserts equal
leaf counts and reports the median times and core/C; for playouts it runs the
command and ``katra._core.playouts`` alternately and reports C/core plies per
second.  Lower is better for both ratios (1.00 = parity).  Both sides are
timed by the CPU time they use (``--clock wall`` for the wall clock): on a
shared machine the CPU time of a single-threaded job is much steadier.

Usage::

    python benchmarks/compare_yardstick.py --perft-bin ./yard \\
        --playout-cmd './yard playouts {game} {games} {seed} {max_plies} full'
    python benchmarks/compare_yardstick.py --perft-bin ./yard --repeat 5 --only gore

The project's own C baseline (benchmarks/c_baseline/perft.c) has its own
script, compare_c.py, whose output format differs.  This is a script, not a test.
"""
from __future__ import annotations

import argparse
import re
import resource
import shlex
import statistics
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from compare_c import CASES

PERFT_LINE = re.compile(r"^perft\s+(\d+)\s+(\d+)\s+([0-9.eE+-]+)\s*s\b", re.M)
PLIES_PER_S = re.compile(r"([0-9.eE+]+)\s+plies/s")
WALL_SECONDS = re.compile(r"([0-9.]+)\s+s\b")

#: Playout workload per game id: (games, max_plies), a few tenths of a second in C.
PLAYOUTS: dict[str, tuple[int, int]] = {
    "katro": (3000, 1000),
    "katro-4x6": (4000, 1000),
    "katro-4x4": (10000, 1000),
    "katra-mpantsaka": (1000, 1000),
    "katra-mpantsaka-simplified": (1000, 1000),
    "gore": (3000, 1000),
    "djenon-aboure": (10000, 1000),
}


# --clock cpu (the default) times both sides by the CPU time they used (the C
# program's from the kernel's accounting of the finished child, the core's by
# time.process_time()), which a shared, busy machine disturbs far less than
# the wall clock; --clock wall takes the C program's own report and
# time.perf_counter() instead.
CLOCK = "cpu"


def child_cpu_seconds() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def core_clock() -> float:
    return time.process_time() if CLOCK == "cpu" else time.perf_counter()


def run_c_perft(binary: str, game: str, depth: int, text: str | None) -> tuple[int, float]:
    args = [binary, "perft", game, str(depth)] + ([text] if text else [])
    cpu0 = child_cpu_seconds()
    out = subprocess.run(args, check=True, capture_output=True, text=True).stdout
    cpu = child_cpu_seconds() - cpu0
    m = PERFT_LINE.search(out)
    if m is None or int(m.group(1)) != depth:
        sys.exit(f"compare_yardstick: no 'perft {depth} LEAVES SECONDS s' line in {out!r}")
    return int(m.group(2)), cpu if CLOCK == "cpu" else float(m.group(3))


def run_core_perft(core, game: str, depth: int, text: str | None) -> tuple[int, float]:
    pos = core.Position.from_text(text) if text else core.Position.initial(game)
    t0 = core_clock()
    leaves = core.perft(pos, depth)
    return leaves, core_clock() - t0


def run_c_playouts(template: str, game: str, games: int, max_plies: int) -> float:
    cmd = template.format(game=game, games=games, seed=1, max_plies=max_plies)
    cpu0 = child_cpu_seconds()
    out = subprocess.run(shlex.split(cmd), check=True, capture_output=True, text=True).stdout
    cpu = child_cpu_seconds() - cpu0
    m = PLIES_PER_S.search(out)
    if m is None:
        sys.exit(f"compare_yardstick: no 'N plies/s' in the output of {cmd!r}: {out!r}")
    if CLOCK == "wall":
        return float(m.group(1))
    wall = WALL_SECONDS.search(out)
    if wall is None:
        sys.exit(f"compare_yardstick: --clock cpu needs 'T s' in the output of {cmd!r}: {out!r}")
    return float(m.group(1)) * float(wall.group(1)) / cpu     # plies / CPU seconds


def run_core_playouts(core, game: str, games: int, max_plies: int) -> float:
    pos = core.Position.initial(game)
    t0 = core_clock()
    tally = core.playouts(pos, games, 1, max_plies)
    return tally["plies"] / (core_clock() - t0)


def fmt_table(head: tuple[str, ...], body: list[tuple[str, ...]], left: int) -> str:
    widths = [max(len(x) for x in col) for col in zip(head, *body)]
    def line(cells: tuple[str, ...]) -> str:
        return "| " + " | ".join(c.ljust(w) if i < left else c.rjust(w)
                                 for i, (c, w) in enumerate(zip(cells, widths))) + " |"
    sep = "|" + "|".join(("-" * (w + 2)) if i < left else ("-" * (w + 1) + ":")
                         for i, w in enumerate(widths)) + "|"
    return "\n".join([line(head), sep] + [line(b) for b in body])


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--perft-bin", required=True,
                    help="plain-C binary: BIN perft GAME DEPTH [TEXT]")
    ap.add_argument("--playout-cmd", help="command template printing 'N plies/s'")
    ap.add_argument("--repeat", type=int, default=3, help="alternating runs per case (default 3)")
    ap.add_argument("--only", action="append", metavar="GAME", help="only this game id")
    ap.add_argument("--clock", choices=("cpu", "wall"), default="cpu",
                    help="time by CPU seconds used (default) or by the wall clock")
    args = ap.parse_args(argv)
    global CLOCK
    CLOCK = args.clock
    if args.repeat < 1:
        ap.error("--repeat must be >= 1")
    import katra._core as core

    def log(msg: str) -> None:
        print(msg, file=sys.stderr, flush=True)
    perft_rows, playout_rows = [], []
    for game, label, text, depth in CASES:
        if args.only and game not in args.only:
            continue
        c_times, core_times = [], []
        for _ in range(args.repeat):      # alternate, so load drifts hit both alike
            n_c, s = run_c_perft(args.perft_bin, game, depth, text)
            c_times.append(s)
            n_core, s = run_core_perft(core, game, depth, text)
            core_times.append(s)
            if n_c != n_core:
                sys.exit(f"compare_yardstick: {game} {label} d{depth}: C {n_c}, core {n_core}")
        c_med, core_med = statistics.median(c_times), statistics.median(core_times)
        perft_rows.append((game, label, str(depth), f"{n_core:,}", f"{c_med:.3f} s",
                           f"{core_med:.3f} s", f"{core_med / c_med:.2f}"))
        log(f"perft {game} {label} d{depth}: C {c_med:.3f}s core {core_med:.3f}s "
            f"core/C {core_med / c_med:.2f}")
    if args.playout_cmd:
        for game, (games, max_plies) in PLAYOUTS.items():
            if args.only and game not in args.only:
                continue
            c_rates, core_rates = [], []
            for _ in range(args.repeat):
                c_rates.append(run_c_playouts(args.playout_cmd, game, games, max_plies))
                core_rates.append(run_core_playouts(core, game, games, max_plies))
            c_med, core_med = statistics.median(c_rates), statistics.median(core_rates)
            playout_rows.append((game, f"{games}", f"{max_plies}", f"{c_med / 1e6:.2f}",
                                 f"{core_med / 1e6:.2f}", f"{c_med / core_med:.2f}"))
            log(f"playouts {game}: C {c_med / 1e6:.2f} M plies/s core {core_med / 1e6:.2f} "
                f"C/core {c_med / core_med:.2f}")
    print(fmt_table(("game", "position", "depth", "leaves", "C", "core", "core / C"),
                    perft_rows, 2))
    if playout_rows:
        print()
        print(fmt_table(("game", "games", "max plies", "C M plies/s", "core M plies/s",
                         "C / core"), playout_rows, 1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
