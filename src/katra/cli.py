"""The ``katra`` command line (docs/cli.md).

Subcommands: ``perft``, ``playouts``, ``show``, ``play``, ``bench``, ``rules``
and ``replay``.  Every failure caused by the input (unknown game, malformed
position, bad number, unreadable or malformed record file, illegal move given
on the command line) prints one line on stderr and exits with status 2.
Output is plain text unless stdout is a terminal (then it has colours);
progress displays appear on stderr only when stderr is a terminal.
"""
from __future__ import annotations

import argparse
import json
import sys
import time
from typing import Any, Callable, NoReturn, Sequence


EXIT_BAD_INPUT = 2
EXIT_FAILURE = 1

#: The engine searches at most this many plies (katra.search).
MAX_SEARCH_DEPTH = 64


class UsageError(Exception):
    """Bad command-line input: reported as one line, exit status 2."""


class CommandFailed(Exception):
    """A failure not caused by the input (e.g. no engine in this build): one line, status 1."""


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


def _positive_int(text: str) -> int:
    value = _non_negative(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected a number >= 1, got {value}")
    return value


def _seed(text: str) -> int:
    value = _non_negative(text)
    if value >= 2**64:
        raise argparse.ArgumentTypeError(f"expected a seed in 0..2**64-1, got {value}")
    return value


def _search_depth(text: str) -> int:
    value = _positive_int(text)
    if value > MAX_SEARCH_DEPTH:
        raise argparse.ArgumentTypeError(f"expected a depth of at most {MAX_SEARCH_DEPTH}, "
                                         f"got {value}")
    return value


def _seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number of seconds, got {text!r}") from None
    if not 0 < value < 1e6:  # also refuses nan and inf
        raise argparse.ArgumentTypeError(f"expected seconds > 0, got {text}")
    return value


def _side(text: str) -> int:
    side = {"s": 0, "south": 0, "n": 1, "north": 1}.get(text.strip().lower())
    if side is None:
        raise argparse.ArgumentTypeError(f"expected S or N, got {text!r}")
    return side


def load_state(position: str) -> Any:
    """A State from a game name (its start position) or a position text."""
    from katra.api import State, load_position
    return State.from_text(load_position(position).text())


def _emit(args: argparse.Namespace, record: dict[str, Any], lines: list[str]) -> None:
    if args.json:
        print(json.dumps(record))
    else:
        print("\n".join(lines))


def cmd_perft(args: argparse.Namespace) -> None:
    from katra.api import load_position

    from ._cli_jobs import run_perft
    from ._cli_term import stderr_is_tty

    text = load_position(args.position, args.backend).text()
    if args.divide and args.depth < 1:
        raise UsageError("katra perft: --divide needs a depth of at least 1")
    start = time.perf_counter()
    nodes, counts = run_perft(text, args.depth, args.backend, args.divide, stderr_is_tty(),
                              args)
    seconds = time.perf_counter() - start
    record: dict[str, Any] = {"position": text, "depth": args.depth, "nodes": nodes,
                              "seconds": round(seconds, 6)}
    lines = []
    if counts is not None:
        record["divide"] = counts
        lines += [f"{move}: {count}" for move, count in counts.items()] + [""]
    lines += [f"position {text}", f"depth    {args.depth}", f"nodes    {nodes}",
              f"time     {seconds:.3f} s" + (f" ({nodes / seconds:,.0f} nodes/s)"
                                             if seconds > 0 else "")]
    if not args.json and not args.divide:
        lines = [str(nodes)] if args.quiet else lines
    _emit(args, record, lines)


def cmd_playouts(args: argparse.Namespace) -> None:
    from katra.api import load_position

    from ._cli_jobs import run_playouts
    from ._cli_term import stderr_is_tty

    text = load_position(args.position, args.backend).text()
    start = time.perf_counter()
    tally = run_playouts(text, args.games, args.seed, args.max_plies, args.backend,
                         stderr_is_tty(), args)
    seconds = time.perf_counter() - start
    record = {"position": text, **tally, "seconds": round(seconds, 6)}
    lines = [f"position   {text}",
             f"games      {tally['games']} (seed {args.seed}, ply limit {args.max_plies})",
             f"South won  {tally['south_wins']}", f"North won  {tally['north_wins']}",
             f"drawn      {tally['draws']}", f"unfinished {tally['unfinished']}",
             f"plies      {tally['plies']}", f"time       {seconds:.3f} s"]
    _emit(args, record, lines)


def cmd_show(args: argparse.Namespace) -> None:
    from ._cli_board import board
    from ._cli_term import out

    state = load_state(args.position)
    for move in args.moves:
        state.push(move)
    last = state.peek() if state.move_stack else None
    out().print(board(state, last=last, heading=True, position=True))


def cmd_rules(args: argparse.Namespace) -> None:
    from ._cli_rules import print_rules
    print_rules(args.game)


def cmd_play(args: argparse.Namespace) -> None:
    from ._cli_play import play
    play(args)


def cmd_replay(args: argparse.Namespace) -> None:
    from ._cli_play import replay
    replay(args)


def cmd_bench(args: argparse.Namespace) -> None:
    from ._cli_bench import bench
    bench(args)


def build_parser() -> _Parser:
    from katra.api import DEFAULT_MAX_PLIES

    from ._cli_jobs import add_worker_options, first_game_arg, games_arg, max_plies_arg

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
    add_worker_options(perft)
    perft.set_defaults(run=cmd_perft)

    outs = commands.add_parser("playouts", help="play seeded random games (RULES.md §6)")
    outs.add_argument("position", metavar="GAME_OR_POSITION")
    outs.add_argument("games", type=games_arg, metavar="N")
    outs.add_argument("--seed", type=_seed, default=0)
    outs.add_argument("--max-plies", type=max_plies_arg, default=DEFAULT_MAX_PLIES)
    outs.add_argument("--first-game", type=first_game_arg, default=0, metavar="K",
                      help="play games K..K+N-1 of the seeded batch (default 0)")
    backend_and_json(outs)
    add_worker_options(outs)
    outs.set_defaults(run=cmd_playouts)

    show = commands.add_parser("show", help="draw a position's board")
    show.add_argument("position", metavar="GAME_OR_POSITION",
                      help="a game id (start position) or a position text")
    show.add_argument("moves", nargs="*", metavar="MOVE",
                      help="moves to play first (the last one is highlighted)")
    show.set_defaults(run=cmd_show)

    play = commands.add_parser("play", help="play against the engine in the terminal")
    play.add_argument("position", metavar="GAME",
                      help="a game id (start position) or a position text")
    play.add_argument("--as", dest="side", type=_side, default=0, metavar="S|N",
                      help="the side you play (default S: South moves first)")
    strength = play.add_mutually_exclusive_group()
    strength.add_argument("--depth", type=_search_depth, metavar="N",
                          help="engine searches N plies deep")
    strength.add_argument("--time", type=_seconds, metavar="SECONDS",
                          help="engine thinks this long per move (default 1)")
    play.add_argument("--record", metavar="FILE", help="write the game record to FILE")
    play.set_defaults(run=cmd_play)

    bench = commands.add_parser("bench", help="time the core against the reference")
    bench.add_argument("games", nargs="*", metavar="GAME", help="games to time (default all)")
    bench.add_argument("--depth", type=_positive_int, metavar="N",
                       help="perft depth for every game (default: per game, see docs/cli.md)")
    bench.add_argument("--playouts", type=_non_negative, default=20, metavar="N",
                       help="random games per game (default 20)")
    bench.add_argument("--seed", type=_seed, default=1)
    bench.add_argument("--max-plies", type=max_plies_arg, default=DEFAULT_MAX_PLIES)
    bench.add_argument("--json", action="store_true", help="print one JSON object")
    bench.set_defaults(run=cmd_bench)

    rules = commands.add_parser("rules", help="a short summary of a game's rules")
    rules.add_argument("game", metavar="GAME")
    rules.set_defaults(run=cmd_rules)

    replay = commands.add_parser("replay", help="step through a saved game record")
    replay.add_argument("file", metavar="FILE", help="a game record file ('-': stdin)")
    replay.add_argument("--game", type=_positive_int, default=1, metavar="N",
                        help="which record of the file (default 1)")
    replay.add_argument("--ply", type=_non_negative, metavar="N",
                        help="show only the position after N plies")
    replay.set_defaults(run=cmd_replay)
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
    except CommandFailed as exc:
        print(exc, file=sys.stderr)
        return EXIT_FAILURE
    except KeyboardInterrupt:
        print("katra: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:  # e.g. katra replay game.txt | head -3 (rich itself exits 1)
        import os
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())  # no error at exit
        return 1
    return 0
