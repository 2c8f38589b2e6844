"""The ``katra`` command line.

Every failure caused by the input (unknown game, malformed position, bad
number, illegal move) prints one line on stderr and exits with status 2.
"""
from __future__ import annotations

import argparse
import json
import sys
import time
from typing import Any, Callable, NoReturn, Sequence


EXIT_BAD_INPUT = 2


class UsageError(Exception):
    """Bad command-line input: reported as one line, exit status 2."""


class _Parser(argparse.ArgumentParser):
    """argparse, but errors are one line and exit status 2."""

    def error(self, message: str) -> NoReturn:
        raise UsageError(f"{self.prog}: {message}")


def _non_negative(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"expected a number >= 0, got {value}")
    return value


def _emit(args: argparse.Namespace, record: dict[str, Any], lines: list[str]) -> None:
    if args.json:
        print(json.dumps(record))
    else:
        print("\n".join(lines))


def cmd_perft(args: argparse.Namespace) -> None:
    from katra.api import divide, load_position, perft

    position = load_position(args.position, args.backend)
    text = position.text()
    start = time.perf_counter()
    if args.divide:
        if args.depth < 1:
            raise UsageError("katra perft: --divide needs a depth of at least 1")
        counts = divide(text, args.depth, backend=args.backend)
        nodes = sum(counts.values())
    else:
        nodes = perft(text, args.depth, backend=args.backend)
    seconds = time.perf_counter() - start
    record: dict[str, Any] = {"position": text, "depth": args.depth, "nodes": nodes,
                              "seconds": round(seconds, 6)}
    lines = []
    if args.divide:
        record["divide"] = counts
        lines += [f"{move}: {count}" for move, count in counts.items()] + [""]
    lines += [f"position {text}", f"depth    {args.depth}", f"nodes    {nodes}",
              f"time     {seconds:.3f} s" + (f" ({nodes / seconds:,.0f} nodes/s)"
                                             if seconds > 0 else "")]
    if not args.json and not args.divide:
        lines = [str(nodes)] if args.quiet else lines
    _emit(args, record, lines)


def cmd_playouts(args: argparse.Namespace) -> None:
    from katra.api import load_position, playouts

    text = load_position(args.position, args.backend).text()
    start = time.perf_counter()
    tally = playouts(text, args.games, seed=args.seed, max_plies=args.max_plies,
                     backend=args.backend)
    seconds = time.perf_counter() - start
    record = {"position": text, **tally, "seconds": round(seconds, 6)}
    lines = [f"position   {text}",
             f"games      {tally['games']} (seed {args.seed}, ply limit {args.max_plies})",
             f"South won  {tally['south_wins']}", f"North won  {tally['north_wins']}",
             f"drawn      {tally['draws']}", f"unfinished {tally['unfinished']}",
             f"plies      {tally['plies']}", f"time       {seconds:.3f} s"]
    _emit(args, record, lines)


def build_parser() -> _Parser:
    from katra.api import DEFAULT_MAX_PLIES

    parser = _Parser(prog="katra", description="Exact and fast mancala: Katro, Katra "
                     "Mpantsaka, Goré and Djenon-aboure.")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    commands.required = True

    def backend_and_json(sub: argparse.ArgumentParser) -> None:
        sub.add_argument("--backend", choices=("core", "reference"), default="core",
                         help="compiled core (default) or the pure-Python reference")
        sub.add_argument("--json", action="store_true", help="print one JSON object")

    perft = commands.add_parser("perft", help="count the nodes of the game tree")
    perft.add_argument("position", metavar="GAME_OR_POSITION",
                       help="a game id (start position) or a position text")
    perft.add_argument("depth", type=_non_negative, metavar="DEPTH")
    perft.add_argument("--divide", action="store_true", help="count per legal move")
    perft.add_argument("-q", "--quiet", action="store_true", help="print only the count")
    backend_and_json(perft)
    perft.set_defaults(run=cmd_perft)

    play = commands.add_parser("playouts", help="play seeded random games (RULES.md §6)")
    play.add_argument("position", metavar="GAME_OR_POSITION")
    play.add_argument("games", type=_non_negative, metavar="N")
    play.add_argument("--seed", type=_non_negative, default=0)
    play.add_argument("--max-plies", type=_non_negative, default=DEFAULT_MAX_PLIES)
    backend_and_json(play)
    play.set_defaults(run=cmd_playouts)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    try:
        args = build_parser().parse_args(argv)
        run: Callable[[argparse.Namespace], None] = args.run
        run(args)
    except UsageError as exc:
        print(exc, file=sys.stderr)
        return EXIT_BAD_INPUT
    except ValueError as exc:  # KatraError and every other bad value
        print(f"katra: {exc}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except KeyboardInterrupt:
        print("katra: interrupted", file=sys.stderr)
        return 130
    return 0
