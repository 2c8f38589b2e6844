"""The strength ladder of katra's built-in players (docs/strength.md).

    python tools/strength_ladder.py                        # every game id, into docs/strength.md
    python tools/strength_ladder.py --game gore --games 8  # one game id, fewer games
    python tools/strength_ladder.py --print-commands       # the katra match commands only

Each game id gets one round robin of the players of ``PLAYERS``, every
pairing ``--games`` games (each opening of the game's shipped suite played
twice, colours swapped), run as

    katra match GAME --tournament roundrobin --engine katra:random ... \\
        --games G --concurrency 1 --rating-prior 1 --results DIR/GAME.jsonl --json

Every player has a fixed budget (nodes, simulations) and a fixed seed, and
``--concurrency 1`` hands every game to the same copies in the same order, so
the command gives the same games on every machine.  The ratings are
``katra match``'s: maximum-likelihood Elo over all the games of the round robin
(``katra.stats.ladder``) with one virtual draw added to every pairing (a
player who won or lost every game still gets a finite rating), ``katra:random``
at 0, with 95% half-widths.  Games
stopped at the ply limit are unfinished and count for nobody (docs/rules.md
§6.1, docs/match.md).  A results file left by a stopped run is continued
(``--resume``).  ``--jobs`` game ids run side by side (one core each).

The tables go between the markers ``<!-- ladder:begin -->`` and
``<!-- ladder:end -->`` of the output page; the text around them stays.
"""
from __future__ import annotations

import argparse
import json
import os
import shlex
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from katra import GAME_IDS

ROOT = Path(__file__).resolve().parent.parent
PLAYERS = (
    "katra:random",
    "katra:greedy",
    "katra:alphabeta:nodes=1000",
    "katra:alphabeta:nodes=10000",
    "katra:alphabeta:nodes=100000",
    "katra:mcts:simulations=100",
    "katra:mcts:simulations=1000",
)
DEFAULT_GAMES = 10
#: virtual draws added to every pairing (katra.stats.ladder's prior): a player who won
#: or lost every game of the round robin still gets a finite rating
RATING_PRIOR = 1
BEGIN, END = "<!-- ladder:begin -->", "<!-- ladder:end -->"


def match_command(game: str, games: int, results: Path | None) -> list[str]:
    command = ["katra", "match", game, "--tournament", "roundrobin"]
    for player in PLAYERS:
        command += ["--engine", player]
    command += ["--games", str(games), "--concurrency", "1", "--rating-prior", str(RATING_PRIOR),
                "--json"]
    if results is not None:
        command += ["--results", str(results)]
    return command


def run_one(game: str, games: int, folder: Path) -> tuple[dict, float]:
    """The match's --json report and its wall time (seconds of this run)."""
    results = folder / f"{game}.jsonl"
    command = match_command(game, games, results)
    if results.exists():
        command.append("--resume")
    start = time.monotonic()
    done = subprocess.run(["katra", *command[1:]], capture_output=True, text=True)
    if done.returncode != 0:
        raise SystemExit(f"{shlex.join(command)} exited with status {done.returncode}: "
                         f"{done.stderr.strip()}")
    return json.loads(done.stdout), time.monotonic() - start


def _number(x: float | None, digits: int = 0) -> str:
    if x is None or x != x or x in (float("inf"), float("-inf")):
        return "n/a"
    return f"{x:+.{digits}f}" if digits == 0 else f"{x:.{digits}f}"


def table(game: str, games: int, report: dict) -> list[str]:
    """One game id's section: the ratings, best first, and the command."""
    plies = sum(p.get("plies", 0) for p in report["pairings"])
    unfinished = sum(p["unfinished"] for p in report["pairings"])
    points = {row["engine"]: row for row in report["scores"]}
    lines = [f"### {game}", ""]
    ratings = report["ratings"]
    if ratings is None:
        lines += ["No finite maximum-likelihood ratings (a player won or lost every point "
                  "it played); the scores:", ""]
        order = sorted(points, key=lambda name: -points[name]["points"])
    else:
        order = sorted(ratings, key=lambda name: -ratings[name]["elo"])
    lines += ["| player | Elo | ± 95% | points | games |", "|---|---:|---:|---:|---:|"]
    for name in order:
        elo = ratings[name]["elo"] if ratings else None
        error = ratings[name]["error95"] if ratings else None
        row = points[name]
        anchor = " (anchor)" if name == PLAYERS[0] else ""
        lines.append(f"| `{name.removeprefix('katra:')}`{anchor} | {_number(elo)} | "
                     f"{'0' if anchor else _number(error).lstrip('+')} | "
                     f"{row['points']:g} | {row['games']} |")
    finished = report["played"] - unfinished
    lines += ["", f"{report['played']} games ({games} a pairing), {finished} finished, "
              f"{unfinished} unfinished at the ply limit"
              + (f", {plies:,} plies" if plies else "") + ".", "",
              "```console", "$ " + shlex.join(match_command(game, games, None)), "```", ""]
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", action="append", choices=GAME_IDS,
                        help="a game id (repeat; default: every one)")
    parser.add_argument("--games", type=int, default=DEFAULT_GAMES,
                        help=f"games a pairing (default {DEFAULT_GAMES})")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1,
                        help="game ids run side by side (default: one per core)")
    parser.add_argument("--results", type=Path, default=ROOT / "build" / "ladder",
                        help="folder of the results files (default build/ladder)")
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "strength.md")
    parser.add_argument("--print-commands", action="store_true")
    args = parser.parse_args()
    game_ids = args.game or list(GAME_IDS)
    if args.print_commands:
        for game in game_ids:
            print(shlex.join(match_command(game, args.games, None)))
        return
    args.results.mkdir(parents=True, exist_ok=True)
    with ThreadPoolExecutor(args.jobs) as pool:
        reports = dict(zip(game_ids, pool.map(
            lambda game: run_one(game, args.games, args.results), game_ids)))
    for game, (_, seconds) in reports.items():
        print(f"{game}: {seconds:.0f} s", file=sys.stderr)
    body = [BEGIN, ""]
    for game in game_ids:
        body += table(game, args.games, reports[game][0])
    body.append(END)
    page = args.out.read_text(encoding="utf-8") if args.out.exists() else f"{BEGIN}\n{END}\n"
    head, _, rest = page.partition(BEGIN)
    _, _, tail = rest.partition(END)
    args.out.write_text(head + "\n".join(body) + tail, encoding="utf-8")


if __name__ == "__main__":
    main()
