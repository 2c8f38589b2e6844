"""df-pn on positions the bounded solver cannot settle: the table of docs/solve.md.

    python benchmarks/bench_dfpn.py [SECONDS] [PER_GAME] [GAMES...]
                                    [--journal FILE] [--bounded-only]
                                    [--tt-bits N]

Draws seeded mid-game positions (20 to 40 random plies from the start) of
each game (default: katro-4x6, katro, gore), keeps the first PER_GAME
(default 8) that the bounded solver (``katra.solve(pos, 500)``) does not
settle within SECONDS (default 60) of CPU time, and gives df-pn
(``katra.solve(pos)``) the same budget on each.  Each call runs in a thread
of its own, one at a time, and is cancelled (``katra.cancel_jobs``) once
that thread's CPU clock reaches the budget, so a loaded machine lengthens
the run but not the budget.  Prints df-pn's result, nodes and CPU seconds
per position and the count it settled.  Each game's positions come from a
seed of its own (2029, 2030, 2031 in GAMES' order), whatever games are run,
so games may be measured by processes of their own.

``--journal FILE`` appends every measurement to FILE as it is made (a line
each: solver, game, position, result, nodes, CPU seconds, tab-separated)
and takes those already there instead of measuring again: a run stopped
part way resumes where it stopped, and a journal whose df-pn lines are
removed measures another df-pn on the same positions.  ``--bounded-only``
collects the positions without running df-pn.  ``--tt-bits N`` gives df-pn
a table of 2**N entries (``katra.solve(pos, tt_bits=N)``; default None, 2**20
entries); the bounded solver keeps its default.
"""
from __future__ import annotations

import argparse
import os
import random
import sys
import threading
import time
from collections.abc import Callable, Iterator

import katra
from katra.api import SolveResult

GAMES = ("katro-4x6", "katro", "gore")


def mid_games(game: str, seed: int) -> Iterator[str]:
    """Seeded positions 20 to 40 random plies from the start (unfinished), for ever."""
    rng = random.Random(seed)
    while True:
        state = katra.game(game).initial_state()
        for _ in range(rng.randint(20, 40)):
            legal = state.legal_actions()
            if not legal:
                break
            state.push(rng.choice(legal))
        if not state.is_terminal():
            yield state.text()


def within_cpu(call: Callable[[], SolveResult],
               seconds: float) -> tuple[SolveResult | None, float]:
    """call() in a thread of its own, cancelled (katra.cancel_jobs) once that
    thread has used ``seconds`` of CPU time: (its result or None, its CPU seconds)."""
    done: list[SolveResult | None] = []
    cpu = [0.0]

    def work() -> None:
        start = time.thread_time()
        try:
            done.append(call())
        except katra.JobCancelled:
            done.append(None)
        cpu[0] = time.thread_time() - start

    thread = threading.Thread(target=work)
    thread.start()
    try:
        clock = time.pthread_getcpuclockid(thread.ident or 0)
        while thread.is_alive():
            thread.join(0.05)
            if thread.is_alive() and time.clock_gettime(clock) >= seconds:
                katra.cancel_jobs()
    except OSError:          # the thread has ended (its clock with it)
        pass
    thread.join()
    return done[0], cpu[0]


Journal = dict[tuple[str, str], tuple[str, str, float]]


def measure(journal: Journal, path: str | None, solver: str, game: str, text: str,
            call: Callable[[], SolveResult],
            seconds: float) -> tuple[SolveResult | None, str, str, float]:
    """call() within ``seconds`` of CPU (within_cpu), or its line of the journal:
    (the result if just measured, its description ("" if stopped), nodes ("" if
    stopped), CPU seconds); a new measurement is appended to the journal at path."""
    if (solver, text) in journal:
        return (None, *journal[solver, text])
    r, cpu = within_cpu(call, seconds)
    said = "" if r is None else r.describe()
    nodes = "" if r is None else str(r.nodes)
    journal[solver, text] = (said, nodes, cpu)
    if path is not None:
        with open(path, "a", encoding="utf-8") as out:
            out.write(f"{solver}\t{game}\t{text}\t{said}\t{nodes}\t{cpu:.1f}\n")
    return r, said, nodes, cpu


def unsettled(game: str, per_game: int, seconds: float, journal: Journal,
              path: str | None) -> Iterator[tuple[str, float]]:
    """The first per_game mid-games of game that the bounded solver does not settle
    within ``seconds`` of CPU: (position, the bounded solver's CPU seconds)."""
    kept = 0
    seed = 2029 + (GAMES.index(game) if game in GAMES else len(GAMES))
    for text in mid_games(game, seed):
        if kept == per_game:
            return

        def bounded_call(text: str = text) -> SolveResult:
            return katra.solve(text, 500)

        _, said, _, cpu = measure(journal, path, "bounded", game, text, bounded_call, seconds)
        if said and not said.startswith("no result"):
            print(f"  (skipped: the bounded solver settles it: {said}, {cpu:.1f} s) {text}",
                  flush=True)
            continue
        kept += 1
        yield text, cpu


def main(argv: list[str]) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("seconds", nargs="?", type=float, default=60.0)
    parser.add_argument("per_game", nargs="?", type=int, default=8)
    parser.add_argument("games", nargs="*", default=list(GAMES))
    parser.add_argument("--journal", metavar="FILE")
    parser.add_argument("--bounded-only", action="store_true")
    parser.add_argument("--tt-bits", type=int, default=None, metavar="N")
    args = parser.parse_args(argv)
    seconds = args.seconds
    journal: Journal = {}
    if args.journal and os.path.exists(args.journal):
        with open(args.journal, encoding="utf-8") as saved:
            for line in saved:
                solver, _game, text, said, nodes, seconds_text = line.rstrip("\n").split("\t")
                journal[solver, text] = (said, nodes, float(seconds_text))
    print(f"budget {seconds} s a position, {args.per_game} positions a game, "
          f"df-pn's table 2**{20 if args.tt_bits is None else args.tt_bits} entries")
    settled = total = 0
    for game in args.games:
        for text, bounded_cpu in unsettled(game, args.per_game, seconds, journal,
                                           args.journal):
            total += 1
            print(f"{text}\n  bounded: {bounded_cpu:.1f} s CPU, nothing settled", flush=True)
            if args.bounded_only:
                continue

            def dfpn_call(text: str = text) -> SolveResult:
                return katra.solve(text, tt_bits=args.tt_bits)

            _, said, nodes, cpu = measure(journal, args.journal, "df-pn", game, text,
                                          dfpn_call, seconds)
            settled += bool(said) and not said.startswith("no result")
            print(f"  df-pn:   {said + ', ' + nodes + ' nodes' if said else 'stopped'}, "
                  f"{cpu:.1f} s CPU", flush=True)
    if not args.bounded_only:
        print(f"df-pn settled {settled} of {total} positions the bounded solver did not "
              f"settle within {seconds} s")


if __name__ == "__main__":
    main(sys.argv[1:])
