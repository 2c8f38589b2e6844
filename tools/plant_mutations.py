#!/usr/bin/env python3
"""Plant a one-line mistake in each of the core's rule functions; do the tests catch it?

Every rule of docs/rules.md is written once in the core (docs/performance.md,
"One form of every rule"), so one changed line changes both working forms.
For each planted mistake of MUTATIONS this script copies the tracked files of
the working tree to a temporary folder, changes that one line of that rule
function, builds the core there (``setup.py build_ext --inplace``) and runs
QUICK, a part of the default test run, on the copy.  A mistake is *caught* if
a test fails, *survived* if every test passes (then a rulebook test is
missing), *not built* if the change does not compile (a broken plant).

Usage::

    python tools/plant_mutations.py                 # every planted mistake
    python tools/plant_mutations.py katro_lap_captures djenon_lap_ends
    python tools/plant_mutations.py --list

Each case builds the core once (about a minute of CPU) and runs the tests
until the first failure.  Not a test itself: run it by hand after changing a
rule function or the tests that hold them.
"""
from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

#: The tests run on each planted copy: a part of the default run.
QUICK = (
    "tests/test_rules_katro.py", "tests/test_rules_mpantsaka.py", "tests/test_rules_gore.py",
    "tests/test_rules_djenon.py", "tests/test_rulebook.py", "tests/test_differential.py",
    "tests/test_lanes.py", "tests/test_perft.py", "tests/test_node_layer.py",
)


@dataclass(frozen=True)
class Mutation:
    function: str      # the rule function planted in (its name: the case's name)
    file: str          # the .pxi file that defines it
    old: str           # a line of its body, found once in it
    new: str           # what that line becomes
    what: str          # the mistake, in the rulebook's words


MUTATIONS = (
    Mutation("relay_lap_ends", "cython_core/_common.pxi",
             "return landed == 1", "return landed <= 2",
             "Katro/Mpantsaka: a landing in a hole that held 1 also ends the move"),
    Mutation("first_lap_ends_by", "cython_core/_common.pxi",
             "return djenon_lap_ends(landed)", "return relay_lap_ends(landed)",
             "Djenon-aboure's first laps are judged by Katro's lap-end rule"),
    Mutation("first_lap_ends_by", "cython_core/_common.pxi",
             "if seeds >= loop_len:", "if seeds >= loop_len - 1:",
             "too cautious: a first lap of loop - 1 seeds is sown to be judged"),
    Mutation("brent_lap", "cython_core/_common.pxi",
             "if same:", "if same or c.left == 1:",
             "the cycle detector reports cycles it has not seen"),
    Mutation("winner_by_scores", "cython_core/_common.pxi",
             "return 0 if south > north else", "return 0 if south >= north else",
             "a draw counts as South's win"),
    Mutation("katro_origins_in", "cython_core/_katro.pxi",
             "return seeded & (row << (outer + d * step))", "return seeded",
             "Katro: any seeded hole may start a move, not only the outermost row's"),
    Mutation("katro_innermost_row", "cython_core/_katro.pxi",
             "cdef int d = K - 1", "cdef int d = 0",
             "Katro: captures take from the opponent's outer row"),
    Mutation("katro_lap_captures", "cython_core/_katro.pxi",
             "return facing_seeded & (not deeper_seeded)", "return facing_seeded",
             "Katro: a landing captures even when a deeper row of the mover holds seeds"),
    Mutation("mpantsaka_origins_in", "cython_core/_mpantsaka.pxi",
             "return seeded & front if seeded & front else seeded & back",
             "return seeded & (front | back)",
             "Mpantsaka: the back row may start a move while the front row holds seeds"),
    Mutation("mpantsaka_lap_captures", "cython_core/_mpantsaka.pxi",
             "return front & facing_seeded", "return 0",
             "Mpantsaka: no capture"),
    Mutation("djenon_origins_in", "cython_core/_djenon.pxi",
             "return at_least_two & own", "return at_least_two",
             "Djenon-aboure: a player may sow from the opponent's holes"),
    Mutation("djenon_pass_forced", "cython_core/_djenon.pxi",
             "return at_least_two != 0", "return (at_least_two & (at_least_two - 1)) != 0",
             "Djenon-aboure: the pass needs two holes of 2 or more"),
    Mutation("djenon_lap_ends", "cython_core/_djenon.pxi",
             "return <bint>((landed <= 4) & (0x16 >> (landed & 7)) & 1)",
             "return <bint>((landed <= 4) & (0x06 >> (landed & 7)) & 1)",
             "Djenon-aboure: a landing that held 3 relays instead of capturing"),
    Mutation("djenon_lap_captures", "cython_core/_djenon.pxi",
             "return landed != 1", "return landed == 2",
             "Djenon-aboure: a landing that held 3 ends the move without a capture"),
    Mutation("djenon_capturable", "cython_core/_djenon.pxi",
             "return seeds == 2 or seeds == 4", "return seeds == 2",
             "Djenon-aboure: the run behind a capture takes only 2s"),
    Mutation("gore_origins", "cython_core/_gore.pxi",
             "return gore_holes_of(s, player) & gore_holes_at_least(s, 1)",
             "return gore_holes_of(s, player) & gore_holes_at_least(s, 2)",
             "Goré: a hole of one seed may not be sown"),
    Mutation("gore_capturable", "cython_core/_gore.pxi",
             "return seeds == 2 or seeds == 4", "return seeds == 2 or seeds == 3",
             "Goré: holes of 3 are captured instead of 4"),
    Mutation("gore_captured", "cython_core/_gore.pxi",
             "if (mine >> landing) & 1 or not gore_capturable(gore_seeds_at(s, landing)):",
             "if not gore_capturable(gore_seeds_at(s, landing)):",
             "Goré: a landing in the mover's own hole captures too"),
    Mutation("gore_apply", "cython_core/_gore.pxi",
             "s.stores[me] -= GORE_SEEDS_PER_TRADED_HOLE_C * POPCOUNT8[s.offer]",
             "s.stores[me] -= GORE_SEEDS_PER_TRADED_HOLE_C",
             "Goré: an accepted offer costs one hole's price whatever its size"),
)


def function_body(text: str, name: str) -> tuple[int, int]:
    """The span of the cdef function ``name`` in a .pxi file's text."""
    start = -1
    for head in (f"cdef inline bint {name}(", f"cdef inline int {name}(",
                 f"cdef inline unsigned {name}(", f"cdef inline u64 {name}(",
                 f"cdef inline long long {name}(", f"cdef inline void {name}("):
        start = text.find(head)
        if start >= 0:
            break
    if start < 0:
        raise SystemExit(f"plant_mutations: no cdef function {name}")
    end = text.find("\ncdef ", start + 1)
    return start, len(text) if end < 0 else end


def plant(root: Path, m: Mutation) -> None:
    path = root / m.file
    text = path.read_text()
    start, end = function_body(text, m.function)
    body = text[start:end]
    if body.count(m.old) != 1:
        raise SystemExit(f"plant_mutations: {m.function}: {m.old!r} is not found once in it")
    path.write_text(text[:start] + body.replace(m.old, m.new) + text[end:])


def copy_tree(dest: Path) -> None:
    """The tracked files of the working tree, as they are now."""
    files = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, check=True,
                           capture_output=True).stdout.decode().split("\0")
    for name in filter(None, files):
        src = ROOT / name
        if src.is_file():
            (dest / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(src, dest / name)
    link = Path("src/katra/docs")          # made by the editable install (CONTRIBUTING.md)
    if (ROOT / link).is_symlink():
        (dest / link).symlink_to(os.readlink(ROOT / link))


def run_case(m: Mutation, python: str, keep: bool) -> str:
    work = Path(tempfile.mkdtemp(prefix=f"katra-plant-{m.function}-"))
    try:
        copy_tree(work)
        plant(work, m)
        build = subprocess.run([python, "setup.py", "build_ext", "--inplace"], cwd=work,
                               capture_output=True, text=True)
        if build.returncode:
            return "not built: " + build.stderr.strip().splitlines()[-1]
        env = dict(os.environ, PYTHONPATH=str(work / "src"))
        where = subprocess.run([python, "-c", "import katra._core as c; print(c.__file__)"],
                               cwd=work, env=env, capture_output=True, text=True).stdout
        if not where.startswith(str(work)):
            raise SystemExit(f"plant_mutations: the copy imports another katra: {where!r}")
        tests = subprocess.run([python, "-m", "pytest", "-x", "-q", "-n", "0",
                                "-p", "no:cacheprovider", *QUICK],
                               cwd=work, env=env, capture_output=True, text=True)
        if tests.returncode == 0:
            return "SURVIVED"
        failed = [line for line in tests.stdout.splitlines() if line.startswith("FAILED")]
        return "caught by " + (failed[0].split(" ")[1] if failed else "pytest exit "
                               + str(tests.returncode))
    finally:
        if not keep:
            shutil.rmtree(work, ignore_errors=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("names", nargs="*", help="rule functions to plant in (default: all)")
    parser.add_argument("--list", action="store_true", help="list the planted mistakes")
    parser.add_argument("--keep", action="store_true", help="keep the planted copies")
    args = parser.parse_args(argv)
    chosen = [m for m in MUTATIONS if not args.names or m.function in args.names]
    unknown = set(args.names) - {m.function for m in MUTATIONS}
    if unknown:
        parser.error(f"no planted mistake in {', '.join(sorted(unknown))}")
    if args.list:
        for m in chosen:
            print(f"{m.function:24} {m.what}")
        return 0
    survived = 0
    for m in chosen:
        t0 = time.monotonic()
        verdict = run_case(m, sys.executable, args.keep)
        survived += verdict == "SURVIVED"
        print(f"{m.function:24} {verdict}  ({time.monotonic() - t0:.0f} s)  [{m.what}]", flush=True)
    return 1 if survived else 0


if __name__ == "__main__":
    sys.exit(main())
