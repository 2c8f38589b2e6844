"""``katra bench``: perft and playouts per game on the compiled core and on the reference.

Each job runs on both backends from the game's start position; the table
gives the count (perft nodes, playout plies), the best time of each backend,
the speed-up and whether the two backends agree (they must: a disagreement is
a bug, and makes the command exit with status 1).  A backend's job is
repeated until it has run for ``BUDGET`` seconds (at most ``MAX_RUNS``
times) and its best time is kept, so that the core's millisecond runs are
timed fairly.
"""
from __future__ import annotations

import argparse
import json
import time
from collections.abc import Callable
from functools import partial
from typing import Any

from katra._text import plural
from katra.api import game as find_game
from katra.api import games as all_games
from katra.api import perft, playouts

#: Default perft depth from the start position, per game: the reference takes
#: roughly 0.1 to 1 s on one core.
PERFT_DEPTHS = {
    "katro": 5,
    "katro-4x6": 5,
    "katro-4x4": 6,
    "katra-mpantsaka": 4,
    "katra-mpantsaka-simplified": 3,
    "gore": 8,
    "djenon-aboure": 6,
}

#: A variant's default depth: the first whose perft counts VARIANT_LEAVES leaves
#: or more (as the named games' depths count 1,683 to 54,132), at most
#: VARIANT_MAX_DEPTH: the same depth on every machine.
VARIANT_LEAVES = 5_000
VARIANT_MAX_DEPTH = 12


def default_depth(game_id: str) -> int:
    """The perft depth ``katra bench`` times a game at when no ``--depth`` is given."""
    if game_id in PERFT_DEPTHS:
        return PERFT_DEPTHS[game_id]
    for depth in range(1, VARIANT_MAX_DEPTH):
        if perft(game_id, depth) >= VARIANT_LEAVES:
            return depth
    return VARIANT_MAX_DEPTH


#: Seconds each backend spends on one job (the best run counts).
BUDGET = 0.25
MAX_RUNS = 200


def best_time(job: Callable[[], Any]) -> tuple[Any, float]:
    """The job's result and its best wall time over runs filling ``BUDGET`` seconds."""
    best = float("inf")
    spent = 0.0
    runs = 0
    result = None
    while runs < MAX_RUNS and (runs == 0 or spent < BUDGET):
        start = time.perf_counter()
        result = job()
        seconds = time.perf_counter() - start
        best = min(best, seconds)
        spent += seconds
        runs += 1
    return result, best


def _perft_job(game_id: str, depth: int, backend: str) -> int:
    return perft(game_id, depth, backend=backend)


def _playouts_job(game_id: str, games: int, seed: int, max_plies: int,
                  backend: str) -> dict[str, int]:
    return playouts(game_id, games, seed=seed, max_plies=max_plies, backend=backend)


def _jobs(args: argparse.Namespace) -> list[tuple[str, str, str, Callable[[str], Any]]]:
    """``(game id, job name, size, run(backend) -> comparable result)`` for every job."""
    ids = [find_game(name).id for name in args.games] or [g.id for g in all_games()]
    ids = list(dict.fromkeys(ids))  # each game once, in the order given
    jobs: list[tuple[str, str, str, Callable[[str], Any]]] = []
    for game_id in ids:
        depth = args.depth or default_depth(game_id)
        jobs.append((game_id, "perft", f"depth {depth}", partial(_perft_job, game_id, depth)))
        if args.playouts:
            jobs.append((game_id, "playouts", plural(args.playouts, "game"),
                         partial(_playouts_job, game_id, args.playouts, args.seed,
                                 args.max_plies)))
    return jobs


def _count(result: Any) -> int:
    """Perft nodes, or the plies a batch of playouts played."""
    return int(result["plies"]) if isinstance(result, dict) else int(result)


def bench(args: argparse.Namespace) -> None:
    from .term import out, progress

    jobs = _jobs(args)
    rows: list[dict[str, Any]] = []
    with progress("bench", 2 * len(jobs), "runs") as bar:
        for game_id, job, size, run in jobs:
            core, core_s = best_time(partial(run, "core"))
            bar.advance(1)
            ref, ref_s = best_time(partial(run, "reference"))
            bar.advance(1)
            rows.append({"game": game_id, "job": job, "size": size,
                         "unit": "plies" if job == "playouts" else "nodes",
                         "count": _count(core), "core_seconds": round(core_s, 6),
                         "reference_seconds": round(ref_s, 6),
                         "speedup": round(ref_s / core_s, 1) if core_s > 0 else None,
                         "agree": core == ref})
    if args.json:
        print(json.dumps({"seed": args.seed, "max_plies": args.max_plies, "jobs": rows}))
    else:
        out().print(_table(rows))
    if not all(row["agree"] for row in rows):
        from .common import CommandFailed
        bad = ", ".join(f"{r['game']} {r['job']}" for r in rows if not r["agree"])
        raise CommandFailed(f"katra bench: the core and the reference disagree on: {bad}")


def seconds(value: float) -> str:
    if value < 1e-3:
        return f"{value * 1e6:.0f} µs"
    if value < 1:
        return f"{value * 1e3:.1f} ms"
    return f"{value:.2f} s"


def _table(rows: list[dict[str, Any]]) -> Any:
    from rich import box
    from rich.table import Table

    table = Table(box=box.SIMPLE_HEAD, show_edge=False, pad_edge=False)
    table.add_column("game")
    table.add_column("job")
    table.add_column("size")
    table.add_column("count", justify="right")
    table.add_column("core", justify="right", style="cyan")
    table.add_column("reference", justify="right")
    table.add_column("speed-up", justify="right", style="bold")
    table.add_column("agree", justify="right")  # the last column: no trailing spaces
    for row in rows:
        speedup = f"{row['speedup']:,.0f}x" if row["speedup"] is not None else "-"
        table.add_row(row["game"], row["job"], row["size"],
                      f"{row['count']:,} {row['unit']}", seconds(row["core_seconds"]),
                      seconds(row["reference_seconds"]), speedup,
                      "yes" if row["agree"] else "NO")
    return table
