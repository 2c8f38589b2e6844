#!/usr/bin/env python3
"""Side-by-side perft timing: katra's compiled core against plain C.

The yardstick is ``benchmarks/c_baseline/perft.c`` (copy-make perft written
by hand in C11).  This script

1. compiles it with ``gcc -O3 -march=native`` into a temporary directory;
2. checks it against every vector in ``tests/data/perft/*.perft``;
3. for each case below (the start position and one mid-game position of
   every game id, each at a depth where C takes roughly 0.3-2 s) runs the C
   perft and ``katra._core.perft`` on the same position and depth several
   times, alternating the two, and asserts that every run gives the same
   node count;
4. prints a table of medians (or JSON with ``--json``).

Usage::

    python benchmarks/compare_c.py                 # 5 runs each, table
    python benchmarks/compare_c.py --repeat 9 --json
    python benchmarks/compare_c.py --only katro --only gore

The goal for the core is perft within 2x of the C (ratio core/C <= 2.0),
ideally within 1.25x.  This is a script, not a pytest test.
"""
from __future__ import annotations

import argparse
import json
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
C_SOURCE = HERE / "c_baseline" / "perft.c"
VECTORS = REPO / "tests" / "data" / "perft"

# (game id, label, position text or None for the start position, depth).
# Mid-game positions were reached from the start by fixed moves: at ply i the
# action with index (7*i + 3) mod len in the ascending legal list, for 6 plies
# (Djenon-aboure: 2 plies, later positions shrink too fast; Goré: 30 plies of
# index (13*72 + 7*i + 3) mod len, after a hole trade, both stores at 6, so
# offers are live).  Their texts are fixed here so that the benchmark never
# depends on move generation.
CASES: list[tuple[str, str, str | None, int]] = [
    ("katro", "start", None, 10),
    ("katro", "mid", "katro 0,5,0,0,0,1/2,1,5,2,0,1/1,4,1,5,5,2/0,4,0,4,4,1/"
                     "1,4,4,2,0,5/4,1,0,2,0,1 S", 12),
    ("katro-4x6", "start", None, 10),
    ("katro-4x6", "mid", "katro-4x6 6,1,1,3,0,2/0,0,6,1,0,2/0,1,6,1,0,1/6,1,4,1,4,1 S", 10),
    ("katro-4x4", "start", None, 13),
    ("katro-4x4", "mid", "katro-4x4 5,2,2,5/0,4,1,3/0,0,0,1/4,4,1,0 S", 12),
    ("katra-mpantsaka", "start", None, 7),
    ("katra-mpantsaka", "mid", "katra-mpantsaka 1,9,5,1,2,3,0,2/5,6,0,1,2,5,2,3/"
                               "0,0,0,0,0,0,0,0/6,0,2,1,0,6,2,0 S", 7),
    ("katra-mpantsaka-simplified", "start", None, 5),
    ("katra-mpantsaka-simplified", "mid", "katra-mpantsaka-simplified 1,0,3,1,4,4,1,1/"
                                          "1,1,1,4,4,2,1,2/0,1,1,0,4,1,0,4/5,2,2,0,4,1,4,4 S", 5),
    ("gore", "start", None, 13),
    ("gore", "mid", "gore 3,7,0,9/3,0,13,1 S stores=6,6 owners=NSNN/SSSS", 11),
    ("djenon-aboure", "start", None, 13),
    ("djenon-aboure", "mid", "djenon-aboure 1,3,7,2,6,1/2,7,3,4,8,0 S stores=2,2", 15),
]


def compile_c(workdir: Path, extra_flags: list[str]) -> Path:
    cc = os.environ.get("CC", "gcc")
    if shutil.which(cc) is None:
        sys.exit(f"compare_c: compiler {cc!r} not found")
    exe = workdir / "perft"
    cmd = [cc, "-std=c11", "-O3", "-march=native", *extra_flags, "-o", str(exe), str(C_SOURCE)]
    subprocess.run(cmd, check=True)
    return exe


def run_c(exe: Path, game: str, depth: int, text: str | None) -> tuple[int, float]:
    args = [str(exe), game, str(depth)] + ([text] if text else [])
    out = subprocess.run(args, check=True, capture_output=True, text=True).stdout
    fields = dict(item.split("=", 1) for item in out.split())
    return int(fields["nodes"]), float(fields["seconds"])


def run_core(core, game: str, depth: int, text: str | None) -> tuple[int, float]:
    pos = core.Position.from_text(text) if text else core.Position.initial(game)
    t0 = time.perf_counter()
    nodes = core.perft(pos, depth)
    return nodes, time.perf_counter() - t0


def check_vectors(exe: Path) -> int:
    """Every `perft <depth> <nodes>` line of tests/data/perft, reproduced by the C."""
    checked = 0
    for path in sorted(VECTORS.glob("*.perft")):
        text = None
        for line in path.read_text().splitlines():
            if line.startswith("position "):
                text = line[len("position "):].strip()
            elif line.startswith("perft ") and text is not None:
                _, depth, want = line.split()
                game = text.split()[0]
                got, _ = run_c(exe, game, int(depth), text)
                if got != int(want):
                    sys.exit(f"compare_c: C perft of {text!r} at depth {depth} gave {got}, "
                             f"the vector says {want}")
                checked += 1
    return checked


def measure(exe: Path, core, repeat: int, only: list[str] | None, log) -> list[dict]:
    rows = []
    for game, label, text, depth in CASES:
        if only and game not in only:
            continue
        c_times, core_times, counts = [], [], set()
        for _ in range(repeat):           # alternate, so load drifts hit both alike
            n, s = run_c(exe, game, depth, text)
            counts.add(("C", n))
            c_times.append(s)
            n, s = run_core(core, game, depth, text)
            counts.add(("core", n))
            core_times.append(s)
        nodes = {n for _, n in counts}
        assert len(nodes) == 1, f"{game} {label} depth {depth}: node counts differ: {counts}"
        (n,) = nodes
        c_med, core_med = statistics.median(c_times), statistics.median(core_times)
        row = {
            "game": game, "position": label, "text": text, "depth": depth, "nodes": n,
            "c_median_s": c_med, "core_median_s": core_med, "ratio": core_med / c_med,
            "c_nodes_per_s": n / c_med, "core_nodes_per_s": n / core_med,
            "c_times_s": c_times, "core_times_s": core_times,
        }
        rows.append(row)
        log(f"  {game} {label} d{depth}: C {c_med:.3f}s core {core_med:.3f}s "
            f"ratio {row['ratio']:.2f}")
    return rows


def table(rows: list[dict]) -> str:
    head = ("game", "pos", "depth", "nodes", "C s", "core s", "core/C", "C Mn/s", "core Mn/s")
    body = [(r["game"], r["position"], str(r["depth"]), f"{r['nodes']:,}",
             f"{r['c_median_s']:.3f}", f"{r['core_median_s']:.3f}", f"{r['ratio']:.2f}",
             f"{r['c_nodes_per_s'] / 1e6:.1f}", f"{r['core_nodes_per_s'] / 1e6:.1f}")
            for r in rows]
    widths = [max(len(x) for x in col) for col in zip(head, *body)]
    left = {0, 1}
    def fmt(cells):
        return "  ".join(c.ljust(w) if i in left else c.rjust(w)
                         for i, (c, w) in enumerate(zip(cells, widths)))
    lines = [fmt(head), fmt(["-" * w for w in widths])] + [fmt(b) for b in body]
    if rows:
        ratios = [r["ratio"] for r in rows]
        geo = statistics.geometric_mean(ratios)
        lines.append(f"core/C: geometric mean {geo:.2f}, worst {max(ratios):.2f} "
                     f"({rows[ratios.index(max(ratios))]['game']} "
                     f"{rows[ratios.index(max(ratios))]['position']}); "
                     f"goal <= 2.00, aim <= 1.25")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--repeat", type=int, default=5, help="runs of each side per case (default 5)")
    ap.add_argument("--json", action="store_true", help="print JSON instead of the table")
    ap.add_argument("--only", action="append", metavar="GAME",
                    help="only this game id (may be repeated)")
    ap.add_argument("--cflags", default="",
                    help="extra C compiler flags, e.g. '-DCYCLE_CHECK=0'")
    ap.add_argument("--skip-vectors", action="store_true",
                    help="do not check the C against tests/data/perft first")
    args = ap.parse_args(argv)
    if args.repeat < 1:
        ap.error("--repeat must be >= 1")
    def log(msg):
        print(msg, file=sys.stderr, flush=True)

    try:
        import katra._core as core
    except ImportError as exc:
        sys.exit(f"compare_c: cannot import katra._core ({exc}); build it first with "
                 f"pip install -e {REPO} --no-build-isolation")

    with tempfile.TemporaryDirectory(prefix="katra-c-perft-") as tmp:
        exe = compile_c(Path(tmp), args.cflags.split())
        if not args.skip_vectors:
            log(f"C perft reproduces all {check_vectors(exe)} vectors of {VECTORS}")
        log(f"timing, {args.repeat} runs each (medians):")
        rows = measure(exe, core, args.repeat, args.only, log)

    if args.json:
        print(json.dumps({
            "repeat": args.repeat, "cflags": "-std=c11 -O3 -march=native " + args.cflags,
            "machine": platform.machine(), "python": platform.python_version(),
            "cpus": os.cpu_count(), "rows": rows,
        }, indent=2))
    else:
        print(table(rows))
    return 0


if __name__ == "__main__":
    sys.exit(main())
