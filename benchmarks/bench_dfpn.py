"""df-pn on positions the bounded solver cannot settle: the table of docs/solve.md.

    python benchmarks/bench_dfpn.py [SECONDS] [PER_GAME] [GAMES...]
                                    [--positions FILE] [--bounded-only]

Draws seeded mid-game positions (20 to 40 random plies from the start) of
each game (default: katro-4x6, katro, gore), keeps the first PER_GAME
(default 8) that the bounded solver (``katra.solve(pos, 500)``) does not
settle within SECONDS (default 60) of CPU time, and gives df-pn
(``katra.solve(pos)``) the same budget on each.  Each call runs in a thread
of its own, one at a time, and is cancelled (``katra.cancel_jobs``) once
that thread's CPU clock reaches the budget, so a loaded machine lengthens
the run but not the budget.  Prints df-pn's result, nodes and CPU seconds
per position and the count it settled.

``--positions FILE`` keeps the positions the bounded solver did not settle
(a line each: game, bounded CPU seconds, position): written as they are
found, or, when FILE exists, read from it without running the bounded
solver again (so df-pn versions can be compared on the same positions).
``--bounded-only`` collects them without running df-pn.
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


def unsettled(game: str, per_game: int, seconds: float) -> Iterator[tuple[str, float]]:
    """The first per_game mid-games of game that the bounded solver does not settle
    within ``seconds`` of CPU: (position, the bounded solver's CPU seconds).  The
    seed is the game's own (2029, 2030, 2031 for GAMES' order), whatever games are
    run with it, so games may be collected by processes of their own."""
    kept = 0
    seed = 2029 + (GAMES.index(game) if game in GAMES else len(GAMES))
    for text in mid_games(game, seed):
        if kept == per_game:
            return

        def bounded_call(text: str = text) -> SolveResult:
            return katra.solve(text, 500)

        bounded, bounded_cpu = within_cpu(bounded_call, seconds)
        if bounded is not None and bounded.outcome is not None:
            print(f"  (skipped: the bounded solver settles it: {bounded.describe()}, "
                  f"{bounded_cpu:.1f} s) {text}", flush=True)
            continue
        kept += 1
        yield text, bounded_cpu


def main(argv: list[str]) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("seconds", nargs="?", type=float, default=60.0)
    parser.add_argument("per_game", nargs="?", type=int, default=8)
    parser.add_argument("games", nargs="*", default=list(GAMES))
    parser.add_argument("--positions", metavar="FILE")
    parser.add_argument("--bounded-only", action="store_true")
    args = parser.parse_args(argv)
    seconds = args.seconds
    if args.positions and os.path.exists(args.positions):
        with open(args.positions, encoding="utf-8") as saved:
            found = [(game, text, float(cpu)) for game, cpu, text in
                     (line.rstrip("\n").split("\t") for line in saved if line.strip())]
        print(f"budget {seconds} s a position, {len(found)} positions from {args.positions}")
    else:
        print(f"budget {seconds} s a position, {args.per_game} positions a game")
        found = []
        for game in args.games:
            for text, bounded_cpu in unsettled(game, args.per_game, seconds):
                found.append((game, text, bounded_cpu))
                if args.positions:
                    with open(args.positions, "a", encoding="utf-8") as saved:
                        saved.write(f"{game}\t{bounded_cpu:.1f}\t{text}\n")
                if args.bounded_only:
                    print(f"{text}\n  bounded: {bounded_cpu:.1f} s CPU, nothing settled",
                          flush=True)
    if args.bounded_only:
        return
    settled = 0
    for _game, text, bounded_cpu in found:
        def dfpn_call(text: str = text) -> SolveResult:
            return katra.solve(text)

        r, cpu = within_cpu(dfpn_call, seconds)
        settled += r is not None and r.outcome is not None
        said = (f"{r.describe()}, {r.nodes:,} nodes" if r is not None
                else "stopped at the budget")
        print(f"{text}\n  bounded: {bounded_cpu:.1f} s CPU, nothing settled\n"
              f"  df-pn:   {said}, {cpu:.1f} s CPU", flush=True)
    print(f"df-pn settled {settled} of {len(found)} positions the bounded solver did not "
          f"settle within {seconds} s")


if __name__ == "__main__":
    main(sys.argv[1:])
