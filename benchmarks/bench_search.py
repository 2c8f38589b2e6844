"""Search speed per game: nodes per second of ``katra._core.search``.

    python -m pytest benchmarks/bench_search.py -n 0 --benchmark-timer=time.process_time
    python benchmarks/bench_search.py          # the nodes/second table of docs/engine.md
    python benchmarks/bench_search.py --versus-perft [ROUNDS]   # over perft's made rate
    python benchmarks/bench_search.py --before DIR [--before DIR2] [ROUNDS]   # A/B

Each case searches one position to a fixed depth (deterministic: the node
count is the same on every run and machine, only the time varies); the
benchmark's ``extra_info`` holds the nodes and the nodes per second of the
fastest round.  A node is one call of the negamax function (interior nodes
and leaves alike).
"""
from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import time

import pytest

from katra import _core
from positions import mid_game_text

# (game id, depth from the start, depth mid-game): ~0.02-0.4 s per search
DEPTHS = [
    ("katro", 11, 11),
    ("katro-4x6", 12, 12),
    ("katro-4x4", 16, 16),
    ("katra-mpantsaka", 10, 10),
    ("katra-mpantsaka-simplified", 7, 7),
    ("gore", 15, 15),
    ("djenon-aboure", 15, 15),
]


def _position(game_id: str, where: str):
    if where == "start":
        return _core.Position.initial(game_id)
    return _core.Position.from_text(mid_game_text(game_id))


CASES = [(g, where, d) for g, d0, d1 in DEPTHS for where, d in (("start", d0), ("mid-game", d1))]


@pytest.mark.parametrize("game_id,where,depth", CASES, ids=[f"{g}-{w}" for g, w, _ in CASES])
def test_search(benchmark, game_id, where, depth):
    benchmark.group = f"search {where}"
    position = _position(game_id, where)
    result = benchmark.pedantic(_core.search, args=(position, depth), rounds=3, iterations=1)
    benchmark.extra_info["nodes"] = result["nodes"]
    if benchmark.stats:                  # None under --benchmark-disable
        benchmark.extra_info["nodes_per_second"] = round(result["nodes"] / benchmark.stats["min"])
    assert result["depth"] == depth


def table(rounds: int = 9) -> str:
    """One Markdown row per case: depth, nodes, median CPU time of ``rounds`` searches
    (time.process_time: a loaded machine's other work does not count), nodes/second."""
    rows = ["| game | position | depth | nodes | CPU seconds | nodes/second |",
            "|---|---|---:|---:|---:|---:|"]
    for game_id, where, depth in CASES:
        position = _position(game_id, where)
        times = []
        for _ in range(rounds):
            start = time.process_time()
            result = _core.search(position, depth)
            times.append(time.process_time() - start)
        median = statistics.median(times)
        rows.append(f"| {game_id} | {where} | {depth} | {result['nodes']:,} | {median:.3f} "
                    f"| {result['nodes'] / median / 1e6:.2f} M |")
    return "\n".join(rows)


#: perft depth from the start whose made positions the search is measured against
PERFT_DEPTH = {"katro": 9, "katro-4x6": 9, "katro-4x4": 12, "katra-mpantsaka": 7,
               "katra-mpantsaka-simplified": 5, "gore": 12, "djenon-aboure": 12}


def cpu_median(job, rounds: int) -> tuple[object, float]:
    times = []
    for _ in range(rounds):
        start = time.process_time()
        result = job()
        times.append(time.process_time() - start)
    return result, statistics.median(times)


def versus_perft(rounds: int = 5) -> str:
    """The search's nodes per second from the start (depths of DEPTHS) over perft's
    made-positions rate from the same position (perft(1) + ... + perft(d - 1),
    the positions perft plays, over perft(d)'s CPU time): one Markdown row a game."""
    rows = ["| game | search depth | search nodes/s | perft depth | perft made/s | ratio |",
            "|---|---:|---:|---:|---:|---:|"]
    for game_id, depth, _ in DEPTHS:
        position = _core.Position.initial(game_id)
        d = PERFT_DEPTH[game_id]
        result, search_cpu = cpu_median(lambda p=position, k=depth: _core.search(p, k), rounds)
        made = sum(_core.perft(position, k) for k in range(1, d))
        _, perft_cpu = cpu_median(lambda p=position, k=d: _core.perft(p, k), rounds)
        search_rate = result["nodes"] / search_cpu
        made_rate = made / perft_cpu
        rows.append(f"| {game_id} | {depth} | {search_rate / 1e6:.2f} M | {d} "
                    f"| {made_rate / 1e6:.2f} M | {search_rate / made_rate:.2f} |")
    return "\n".join(rows)


def one_round(searches: int = 3) -> dict[str, tuple[int, float]]:
    """game id -> (nodes, median CPU seconds of ``searches`` searches from the start
    at the depths of DEPTHS), as versus_perft times them."""
    rows: dict[str, tuple[int, float]] = {}
    for game_id, depth, _ in DEPTHS:
        position = _core.Position.initial(game_id)
        result, seconds = cpu_median(lambda p=position, k=depth: _core.search(p, k), searches)
        assert isinstance(result, dict)
        rows[game_id] = (result["nodes"], seconds)
    return rows


def round_in(path: str | None) -> dict[str, tuple[int, float]]:
    """one_round() in a fresh interpreter, with path (a folder holding another
    build's ``katra`` package) first on its sys.path."""
    env = dict(os.environ)
    if path is not None:
        env["PYTHONPATH"] = os.pathsep.join(filter(None, [path, env.get("PYTHONPATH")]))
    out = subprocess.run([sys.executable, __file__, "--round"], env=env, check=True,
                         capture_output=True, text=True).stdout
    return {k: tuple(v) for k, v in json.loads(out).items()}


def versus_builds(befores: list[str], rounds: int = 7) -> str:
    """This build's search against other builds (each a folder holding a ``katra``
    package built from an older commit): each round runs one_round() once per
    build, each in a fresh interpreter, the builds in turn and in alternating
    order (ABBA...), so that all meet the same load; per game the nodes, this
    build's nodes per second (median CPU time over the rounds) and its speed-up
    over each build (the ratio of the median times; node counts must be equal)."""
    builds: list[str | None] = [None, *befores]
    runs: dict[str | None, list[dict[str, tuple[int, float]]]] = {b: [] for b in builds}
    for i in range(rounds):
        for path in builds if i % 2 == 0 else builds[::-1]:
            runs[path].append(round_in(path))
    head = "| game | depth | nodes | nodes/s |" + "".join(f" over {b} |" for b in befores)
    rows = [head, "|---|---:|---:|---:|" + "---:|" * len(befores)]
    for game_id, depth, _ in DEPTHS:
        nodes = runs[None][0][game_id][0]
        seconds = statistics.median(r[game_id][1] for r in runs[None])
        cells = [f"{nodes:,}", f"{nodes / seconds / 1e6:.2f} M"]
        for b in befores:
            old_nodes = runs[b][0][game_id][0]
            old_seconds = statistics.median(r[game_id][1] for r in runs[b])
            mark = "" if old_nodes == nodes else f" ({old_nodes:,} nodes)"
            cells.append(f"{old_seconds / seconds:.2f}x{mark}")
        rows.append(f"| {game_id} | {depth} | {' | '.join(cells)} |")
    return "\n".join(rows)


if __name__ == "__main__":
    args = sys.argv[1:]
    if args == ["--round"]:
        print(json.dumps(one_round()))
    elif "--before" in args:
        dirs = []
        while "--before" in args:
            at = args.index("--before")
            dirs.append(args[at + 1])
            del args[at:at + 2]
        print(versus_builds(dirs, int(args[0]) if args else 7), flush=True)
    elif args[:1] == ["--versus-perft"]:
        print(versus_perft(int(args[1]) if len(args) > 1 else 5))
    else:
        print(table(int(args[0]) if args else 9))
