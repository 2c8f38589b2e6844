#!/usr/bin/env python3
"""Scaling of perft and playouts over threads, processes and dask (docs/scale.md).

Three measurements, each printed as a table (or JSON with ``--json``):

``speedup``
    per game id, a start-position perft and a playout batch sized to take
    about ``--seconds`` (default 10) as one call; then the same job with
    ``jobs=2`` (threads) and on a dask ``LocalCluster`` of two one-thread
    worker processes.  Every run must give the single call's exact result.
    Wall-clock speed-ups, and the CPU seconds each run used (this process's
    threads, plus the dask workers'): the extra CPU of a split run is the
    splitting overhead, whatever else runs on the machine.
``overhead``
    the cost of one task on threads, a ``ProcessPoolExecutor`` and a dask
    ``LocalCluster``: many tiny tasks (perft depth 1) timed against the same
    calls made directly.
``table``
    start-position perft of every game id with every core (``katra perft
    GAME DEPTH --jobs 0``), depth after depth while the next depth is
    predicted to fit in ``--budget`` seconds; the first depths are checked
    against tests/data/perft/*.perft.  This is docs/perft.md's table.

Usage::

    python benchmarks/bench_parallel.py speedup [--seconds 10] [--only GAME ...]
    python benchmarks/bench_parallel.py overhead
    nice python benchmarks/bench_parallel.py table [--budget 170] [--only GAME ...]

The machine's load (``os.getloadavg()``) is printed before and after: other
work on the cores makes the ratios smaller than they are.  A script, not a
pytest test; the dask parts need ``pip install "katra[dask]"``.
"""
from __future__ import annotations

import argparse
import concurrent.futures as cf
import json
import logging
import os
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

import katra
from katra.api._parallel import Workers, run_perft, run_playouts

REPO = Path(__file__).resolve().parent.parent
PERFT_FILES = REPO / "tests" / "data" / "perft"


def load() -> str:
    one, five, fifteen = os.getloadavg()
    return f"load average {one:.2f} {five:.2f} {fifteen:.2f}"


def timed(call: Callable[[], Any], repeat: int = 1) -> tuple[float, Any]:
    """Median seconds of ``repeat`` runs, and the (identical) result."""
    times, results = [], []
    for _ in range(repeat):
        start = time.perf_counter()
        results.append(call())
        times.append(time.perf_counter() - start)
    assert all(r == results[0] for r in results)
    return statistics.median(times), results[0]


def start_text(game_id: str) -> str:
    return katra.game(game_id).initial_state().text()


def perft_depth_for(game_id: str, seconds: float) -> tuple[int, float]:
    """The start-position depth whose one-call perft takes about ``seconds``."""
    depth, took, before = 1, 0.0, 0.0
    while True:
        before, took = took, timed(partial(katra.perft, game_id, depth + 1))[0]
        depth += 1
        if took >= seconds / 2:
            return depth, took
        if before > 0.01 and took * took / before > 2.5 * seconds:
            return depth, took


def games_for(game_id: str, seconds: float, max_plies: int) -> int:
    """A number of playouts that takes about ``seconds`` in one call."""
    games = 200
    while True:
        took = timed(partial(katra.playouts, game_id, games, seed=1, max_plies=max_plies))[0]
        if took > 0.5:
            return max(2, int(games * seconds / took))
        games *= 4


def cpu_seconds(client: Any) -> float:
    """CPU seconds used so far by this process (all threads), plus the dask workers'."""
    used = time.process_time()
    if client is not None:
        used += sum(client.run(time.process_time).values())
    return used


def local_cluster() -> tuple[Any, Any]:
    import distributed
    cluster = distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                       host="127.0.0.1", dashboard_address=None,
                                       silence_logs=logging.ERROR)
    return cluster, distributed.Client(cluster, set_as_default=False)


def split_perft(text: str, depth: int, workers: Workers) -> int:
    return sum(run_perft("core", katra.api.load_position(text), depth, workers).values())


def split_playouts(text: str, games: int, max_plies: int, workers: Workers) -> dict[str, int]:
    return run_playouts("core", katra.api.load_position(text), games, 1, max_plies, 0, workers)


def speedup(args: argparse.Namespace) -> list[dict[str, Any]]:
    rows = []
    cluster, client = local_cluster() if not args.no_dask else (None, None)
    try:
        for game_id in args.only or katra.GAME_IDS:
            text = start_text(game_id)
            depth, _ = perft_depth_for(game_id, args.seconds)
            games = games_for(game_id, args.seconds, args.max_plies)
            jobs = {
                "perft": (f"perft d{depth}",
                          partial(split_perft, text, depth),
                          partial(katra.perft, text, depth)),
                "playouts": (f"playouts x{games}",
                             partial(split_playouts, text, games, args.max_plies),
                             partial(katra.playouts, text, games, seed=1,
                                     max_plies=args.max_plies)),
            }
            for kind, (label, split, single) in jobs.items():
                row: dict[str, Any] = {"game": game_id, "job": label, "load_before": load()}
                cpu = cpu_seconds(None)
                one, expected = timed(single, args.repeat)
                row["one_call_s"] = round(one, 3)
                row["one_call_cpu_s"] = round(cpu_seconds(None) - cpu, 3)
                for name, workers in [("jobs_2", Workers(2)),
                                      *([("dask_2", Workers(executor=client))]
                                        if client is not None else [])]:
                    cpu = cpu_seconds(client if name == "dask_2" else None)
                    took, result = timed(partial(split, workers), args.repeat)
                    assert result == expected, (game_id, kind, name)
                    row[name + "_s"] = round(took, 3)
                    row[name + "_cpu_s"] = round(
                        cpu_seconds(client if name == "dask_2" else None) - cpu, 3)
                    row["speedup_" + name] = round(one / took, 2)
                    # Extra CPU work of the split run (tasks, threads, transport), in %.
                    row["cpu_overhead_pct_" + name] = round(
                        100 * (row[name + "_cpu_s"] / row["one_call_cpu_s"] - 1), 1)
                row["load_after"] = load()
                rows.append(row)
                print(json.dumps(row), file=sys.stderr, flush=True)
    finally:
        if client is not None:
            client.close()
            cluster.close()
    return rows


def overhead(args: argparse.Namespace) -> list[dict[str, Any]]:
    """Per-task cost: N perft-depth-1 tasks through each kind of worker vs N direct calls."""
    text, n = start_text("katro"), args.tasks
    tasks = [("core", katra.api.load_position(text), 1)] * n
    from katra.api._parallel import perft_task
    direct, _ = timed(lambda: [perft_task(*t) for t in tasks], 3)
    rows = []

    def through(workers: Workers) -> float:
        got: list[int] = []
        start = time.perf_counter()
        workers.run("perft", list(tasks), lambda i, v: got.append(v), str)
        took = time.perf_counter() - start
        assert got == [6] * n
        return took

    with cf.ProcessPoolExecutor(2) as pool:
        pool.submit(int).result()  # workers started
        for name, workers in [("threads (jobs=2)", Workers(2)),
                              ("ProcessPoolExecutor(2)", Workers(executor=pool))]:
            took = statistics.median(through(workers) for _ in range(3))
            rows.append({"workers": name, "tasks": n,
                         "per_task_us": round(1e6 * (took - direct) / n, 1)})
    if not args.no_dask:
        cluster, client = local_cluster()
        try:
            workers = Workers(executor=client)
            through(workers)  # warm up (imports on the workers)
            took = statistics.median(through(workers) for _ in range(3))
            rows.append({"workers": "dask LocalCluster(2 x 1 thread)", "tasks": n,
                         "per_task_us": round(1e6 * (took - direct) / n, 1)})
        finally:
            client.close()
            cluster.close()
    for row in rows:
        row["load"] = load()
    return rows


def known_counts(game_id: str) -> dict[int, int]:
    """Depth -> nodes from the project's perft vectors for the start position."""
    counts: dict[int, int] = {}
    path = PERFT_FILES / f"{game_id}.perft"
    position = None
    for line in path.read_text().splitlines() if path.exists() else []:
        key, _, value = line.partition(" ")
        if key == "position":
            position = value.strip()
        elif key == "perft" and position == start_text(game_id):
            depth, nodes = value.split()
            counts[int(depth)] = int(nodes)
    return counts


def table(args: argparse.Namespace) -> list[dict[str, Any]]:
    """Depth after depth with ``katra perft GAME DEPTH --jobs 0`` while it fits the budget."""
    rows = []
    for game_id in args.only or katra.GAME_IDS:
        known = known_counts(game_id)
        spent, depth, times = 0.0, 0, [0.0]
        while True:
            depth += 1
            if len(times) >= 3 and times[-2] > 0.05:
                predicted = times[-1] * times[-1] / times[-2]
                if spent + predicted > args.budget:
                    break
            command = ["katra", "perft", game_id, str(depth), "--jobs", "0", "--json"]
            result = subprocess.run([sys.executable, "-m", "katra", *command[1:]],
                                    capture_output=True, text=True, check=True)
            record = json.loads(result.stdout)
            times.append(record["seconds"])
            spent += record["seconds"]
            if depth in known:
                assert record["nodes"] == known[depth], (game_id, depth)
            row = {"game": game_id, "depth": depth, "nodes": record["nodes"],
                   "seconds": record["seconds"], "checked": depth in known,
                   "command": " ".join(command[:-1]), "load": load()}
            rows.append(row)
            print(json.dumps(row), file=sys.stderr, flush=True)
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("what", choices=("speedup", "overhead", "table"))
    parser.add_argument("--seconds", type=float, default=10.0, help="size of one job (speedup)")
    parser.add_argument("--repeat", type=int, default=1, help="runs per timing (median)")
    parser.add_argument("--max-plies", type=int, default=katra.DEFAULT_MAX_PLIES)
    parser.add_argument("--tasks", type=int, default=2000, help="tiny tasks (overhead)")
    parser.add_argument("--budget", type=float, default=170.0,
                        help="seconds of perft per game (table)")
    parser.add_argument("--only", action="append", metavar="GAME")
    parser.add_argument("--no-dask", action="store_true", help="leave dask out")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    print(f"{args.what}: {os.cpu_count()} cores, {load()}", file=sys.stderr)
    rows = {"speedup": speedup, "overhead": overhead, "table": table}[args.what](args)
    if args.json:
        print(json.dumps(rows, indent=1))
    else:
        keys = list(dict.fromkeys(k for row in rows for k in row))
        print(" | ".join(keys))
        for row in rows:
            print(" | ".join(str(row.get(k, "")) for k in keys))


if __name__ == "__main__":
    main()
