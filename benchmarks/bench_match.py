"""Refereed plies per second of ``katra match`` (docs/match.md, "Speed").

Three measurements, printed as a table:

* two protocol engines (tests/engines/well_behaved.py: a legal move at once, no
  search) in one game at a time: the referee's cost per ply, pipes included;
* two in-process random players (``katra:random``), one game at a time;
* two games at once against one, with CPU-bound protocol engines (the same
  engine searching ``--nodes`` per move): the speed-up of ``--concurrency 2``.

    python benchmarks/bench_match.py             # the table
    python benchmarks/bench_match.py --quick     # fewer games
"""
from __future__ import annotations

import shlex
import sys
import time
from pathlib import Path

from katra.match import EngineSpec, MatchConfig, MatchRun, TimeControl, load_suite, run_match

ENGINE = Path(__file__).resolve().parent.parent / "tests" / "engines" / "well_behaved.py"
GAME = "katro"


def plies_per_second(engines: tuple[EngineSpec, ...], games: int,
                     concurrency: int) -> tuple[float, int, float]:
    """(plies/s, plies, seconds) of one match, from the end of its first game to the end
    of its last (the engines' start-up left out)."""
    config = MatchConfig(GAME, engines, games, TimeControl(), 1000,
                         tuple(load_suite(None, GAME)), f"katra:{GAME}")
    ends: list[tuple[float, int]] = []

    def game_ended(run: MatchRun) -> None:
        ends.append((time.perf_counter(), run.standings.entries[-1]["plies"]))

    run_match(config, concurrency=concurrency, on_game=game_ended)
    assert len(ends) == games
    seconds = ends[-1][0] - ends[0][0]
    plies = sum(plies for _, plies in ends[1:])
    return plies / seconds, plies, seconds


def process(seed: int, *options: str) -> EngineSpec:
    command = shlex.join([sys.executable, str(ENGINE)])
    return EngineSpec(command, f"seed{seed}",
                      (("Seed", str(seed)), *((o.split("=")[0], o.split("=")[1])
                                                for o in options)))


def main() -> None:
    quick = "--quick" in sys.argv
    rows = []
    rate, plies, seconds = plies_per_second((process(1), process(2)), 20 if quick else 100, 1)
    rows.append(("two protocol engines, answering at once", rate, plies, seconds, ""))
    rate, plies, seconds = plies_per_second(
        (EngineSpec("katra:random:seed=1"), EngineSpec("katra:random:seed=2")),
        200 if quick else 2000, 1)
    rows.append(("two in-process random players", rate, plies, seconds, ""))
    searching = (process(1, "Nodes=20000"), process(2, "Nodes=20000"))
    games = 4 if quick else 8
    one, plies1, s1 = plies_per_second(searching, games, 1)
    two, plies2, s2 = plies_per_second(searching, games, 2)
    rows.append(("CPU-bound protocol engines, 1 game at a time", one, plies1, s1, ""))
    rows.append(("CPU-bound protocol engines, 2 games at once", two, plies2, s2,
                 f"{two / one:.2f}x"))
    print(f"{'match':48} {'plies/s':>10} {'plies':>8} {'seconds':>8}  speed-up")
    for name, rate, plies, seconds, extra in rows:
        print(f"{name:48} {rate:>10,.0f} {plies:>8} {seconds:>8.2f}  {extra}")


if __name__ == "__main__":
    main()
