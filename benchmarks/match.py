"""Deeper search against shallower search: seeded matches per game.

    python benchmarks/match.py                      # depth 6 vs depth 2, 100 games per game
    python benchmarks/match.py --games 20 --game gore --deep 4 --shallow 1

Games come in pairs: game ``2j`` and ``2j + 1`` start with the same random
opening (``--opening-min``..``--opening-max`` plies, drawn from
``random.Random(seed + j)``), and the deeper engine plays South in the first,
North in the second, so colours are alternated and no side gets the luckier
openings.  After the opening both engines play ``katra._core.search`` at their
fixed depth (deterministic, so a seed gives the same games on every machine).
A game still running after ``--max-plies`` plies (opening included) is
*unfinished* (docs/rules.md §6.1).  The search releases the GIL, so games run in a
thread pool (``--workers``).

Prints one Markdown row per game id: wins, draws, losses and unfinished games
of the deeper side, its score ((wins + draws/2) / finished games), the
unfinished games split by who was ahead in seeds when they were stopped (seeds
in owned holes plus the store: never counted as a result), the mean game
length, and the deeper side's mean nodes per move.
"""
from __future__ import annotations

import argparse
import random
import sys
import time
from concurrent.futures import ThreadPoolExecutor

from katra import _core
from katra._games import GAME_IDS


def _seeds(pos, player: int) -> int:
    """What a player would score if the game stopped here: seeds in its holes plus
    its store (the end sweep of Goré and Djenon-aboure; Katro and Katra Mpantsaka
    have no stores)."""
    return pos.stores[player] + sum(c for c, o in zip(pos.board, pos.owners) if o == player)


def play_game(game_id: str, index: int, deep: int, shallow: int, seed: int,
              opening: tuple[int, int], max_plies: int) -> dict:
    """One game; the deeper engine is South when ``index`` is even."""
    rng = random.Random(seed + index // 2)
    deep_side = index % 2
    pos = _core.Position.initial(game_id)
    plies = 0
    deep_nodes = deep_moves = 0
    for _ in range(rng.randint(*opening)):
        actions = pos.legal_actions()
        if not actions:
            break
        pos.apply(rng.choice(actions))
        plies += 1
    while True:
        if pos.is_terminal():
            winner = pos.outcome()[0]
            if winner == -1:
                result = "draw"
            else:
                result = "win" if winner == deep_side else "loss"
            break
        if plies >= max_plies:
            result = "unfinished"
            margin = _seeds(pos, deep_side) - _seeds(pos, 1 - deep_side)
            result += " ahead" if margin > 0 else " behind" if margin < 0 else " level"
            break
        mover_is_deep = pos.to_move == deep_side
        r = _core.search(pos, deep if mover_is_deep else shallow)
        if mover_is_deep:
            deep_nodes += r["nodes"]
            deep_moves += 1
        pos.apply(r["best_action"])
        plies += 1
    return {"result": result, "plies": plies, "deep_nodes": deep_nodes, "deep_moves": deep_moves}


def run(game_id: str, games: int, deep: int, shallow: int, seed: int, opening: tuple[int, int],
        max_plies: int, workers: int) -> dict:
    start = time.perf_counter()
    with ThreadPoolExecutor(max_workers=workers) as pool:
        results = list(pool.map(
            lambda k: play_game(game_id, k, deep, shallow, seed, opening, max_plies), range(games)))
    tally = {key: sum(1 for r in results if r["result"] == key)
             for key in ("win", "draw", "loss",
                         "unfinished ahead", "unfinished level", "unfinished behind")}
    tally["unfinished"] = sum(1 for r in results if r["result"].startswith("unfinished"))
    finished = games - tally["unfinished"]
    tally.update(
        games=games,
        score=(tally["win"] + tally["draw"] / 2) / finished if finished else float("nan"),
        mean_plies=sum(r["plies"] for r in results) / max(games, 1),
        nodes_per_move=(sum(r["deep_nodes"] for r in results)
                        / max(1, sum(r["deep_moves"] for r in results))),
        seconds=time.perf_counter() - start,
    )
    return tally


def _fmt(score: float) -> str:
    return "-" if score != score else f"{score:.2f}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", action="append", choices=GAME_IDS,
                        help="game id (repeatable; default: all)")
    parser.add_argument("--games", type=int, default=100, help="games per game id (even)")
    parser.add_argument("--deep", type=int, default=6)
    parser.add_argument("--shallow", type=int, default=2)
    parser.add_argument("--seed", type=int, default=2024)
    parser.add_argument("--opening-min", type=int, default=2)
    parser.add_argument("--opening-max", type=int, default=4)
    parser.add_argument("--max-plies", type=int, default=300)
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args(argv)
    print(f"depth {args.deep} vs depth {args.shallow}, {args.games} games per game id, "
          f"seed {args.seed}, random opening of {args.opening_min}-{args.opening_max} plies, "
          f"ply limit {args.max_plies}; counts are the depth-{args.deep} side's\n")
    print("| game | games | wins | draws | losses | unfinished | score "
          "| unfinished: ahead/level/behind | mean plies | nodes/move (deep) | seconds |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for game_id in args.game or GAME_IDS:
        t = run(game_id, args.games, args.deep, args.shallow, args.seed,
                (args.opening_min, args.opening_max), args.max_plies, args.workers)
        print(f"| {game_id} | {t['games']} | {t['win']} | {t['draw']} | {t['loss']} "
              f"| {t['unfinished']} | {_fmt(t['score'])} "
              f"| {t['unfinished ahead']}/{t['unfinished level']}/{t['unfinished behind']} "
              f"| {t['mean_plies']:.0f} "
              f"| {t['nodes_per_move']:.0f} | {t['seconds']:.1f} |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
