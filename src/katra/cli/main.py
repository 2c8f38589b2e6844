"""The ``katra`` command line (docs/cli.md).

Subcommands: ``perft``, ``playouts``, ``show``, ``play``, ``bench``, ``rules``,
``replay``, ``diff``, ``solve``, ``analyse``, ``tables``, ``engine`` and ``match``.
Every failure caused by the input (unknown game, malformed position, bad number,
unreadable or malformed record file, illegal move given on the command line)
prints one line on stderr and exits with status 2.
Output is plain text unless stdout is a terminal (then it has colours);
progress displays appear on stderr only when stderr is a terminal.
"""
from __future__ import annotations

import argparse
import io
import json
import os
import sys
from collections.abc import Callable, Sequence
from typing import Any, TextIO, cast

from .common import (
    EXIT_BAD_INPUT,
    EXIT_FAILURE,
    CommandFailed,
    Parser,
    UsageError,
    add_variant_options,
    apply_variant_options,
    load_state,
    non_negative_arg,
    positive_int_arg,
    search_depth_arg,
    search_nodes_arg,
    seconds_arg,
    seed_arg,
    side_arg,
    write_text_file,
)


def _emit(args: argparse.Namespace, record: dict[str, Any], lines: list[str]) -> None:
    if args.json:
        print(json.dumps(record))
    else:
        print("\n".join(lines))


def cmd_perft(args: argparse.Namespace) -> None:
    from katra.api import load_position

    from .counting import run_perft
    from .term import stderr_is_tty

    if args.suite is not None:  # katra perft --suite (docs/diff.md)
        from .diff import cmd_perft_suite
        return cmd_perft_suite(args)
    if args.position is None or args.depth is None:
        raise UsageError("katra perft: GAME_OR_POSITION and DEPTH are required (or --suite FILE)")
    position = load_position(args.position, args.backend)
    text = position.text()
    if args.divide and args.depth < 1:
        raise UsageError("katra perft: --divide needs a depth of at least 1")
    nodes, counts, seconds = run_perft(position, args.depth, args.backend, args.divide,
                                       stderr_is_tty(), args)
    record: dict[str, Any] = {"position": text, "depth": args.depth, "nodes": nodes,
                              "seconds": round(seconds, 6)}
    lines = []
    if counts is not None:
        record["divide"] = counts
        lines += [f"{move}: {count}" for move, count in counts.items()] + [""]
    if args.quiet:  # the counts only: the total (after the divide's lines and a blank one)
        lines.append(str(nodes))
    else:
        lines += [f"position {text}", f"depth    {args.depth}", f"nodes    {nodes}",
                  f"time     {seconds:.3f} s" + (f" ({nodes / seconds:,.0f} nodes/s)"
                                                 if seconds > 0 else "")]
    _emit(args, record, lines)


def cmd_playouts(args: argparse.Namespace) -> None:
    from katra.api import load_position

    from .counting import run_playouts
    from .term import stderr_is_tty

    position = load_position(args.position, args.backend)
    text = position.text()
    tally, seconds = run_playouts(position, args.games, args.seed, args.max_plies,
                                  args.backend, stderr_is_tty(), args)
    record = {"position": text, **tally, "seconds": round(seconds, 6)}
    lines = [f"position   {text}",
             f"games      {tally['games']} (seed {args.seed}, ply limit {args.max_plies})",
             f"South won  {tally['south_wins']}", f"North won  {tally['north_wins']}",
             f"drawn      {tally['draws']}", f"unfinished {tally['unfinished']}",
             f"plies      {tally['plies']}", f"time       {seconds:.3f} s"]
    _emit(args, record, lines)


def cmd_show(args: argparse.Namespace) -> None:
    from .board import board
    from .term import out

    if (args.all or args.explain) and not args.moves:
        raise UsageError("katra show: --explain needs a MOVE to explain")
    if args.all and not args.explain:
        raise UsageError("katra show: --all goes with --explain")
    state = load_state(args.position)
    moves = args.moves[:-1] if args.explain else args.moves
    for move in moves:
        state.push(move)
    if args.explain:  # katra show POSITION MOVE --explain (docs/explain.md)
        from .explain import explained
        trace = state.explain(args.moves[-1])
        if args.svg:
            write_text_file(args.svg, trace.svg(), "katra show")
        out().print(explained(trace, every_lap=args.all))
        return
    if args.svg:
        write_text_file(args.svg, state.svg(), "katra show")
    last = state.peek() if state.move_stack else None
    out().print(board(state, last=last, heading=True, position=True))


def cmd_rules(args: argparse.Namespace) -> None:
    from .rules import print_full_rules, print_rules
    if args.full:
        print_full_rules(args.game)
    elif args.game is None:
        raise UsageError("katra rules: name a GAME, or give --full for the whole rulebook")
    else:
        print_rules(args.game)


def cmd_play(args: argparse.Namespace) -> None:
    from .play import play
    play(args)


def cmd_replay(args: argparse.Namespace) -> None:
    from .play import replay
    replay(args)


def cmd_bench(args: argparse.Namespace) -> None:
    from .bench import bench
    bench(args)


def build_parser() -> Parser:
    from katra._version import __version__
    from katra.api import DEFAULT_MAX_PLIES

    from .counting import (
        add_worker_options,
        depth_arg,
        first_game_arg,
        games_arg,
        max_plies_arg,
    )

    parser = Parser(prog="katra", description="Exact and fast mancala: Katro, Katra "
                     "Mpantsaka, Goré and Djenon-aboure.")
    parser.add_argument("--version", action="version", version=f"katra {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=Parser)
    commands.required = True

    def backend_and_json(sub: argparse.ArgumentParser) -> None:
        sub.add_argument("--backend", choices=("core", "reference"), default="core",
                         help="compiled core (default) or the pure-Python reference")
        sub.add_argument("--json", action="store_true", help="print one JSON object")

    perft = commands.add_parser("perft", help="count the nodes of the game tree")
    perft.add_argument("position", nargs="?", metavar="GAME_OR_POSITION",
                       help="a game id (start position) or a position text")
    perft.add_argument("depth", nargs="?", type=depth_arg, metavar="DEPTH")
    perft.add_argument("--divide", action="store_true", help="count per legal move")
    perft.add_argument("-q", "--quiet", action="store_true",
                       help="print only the count (with --divide: the counts and the total)")
    backend_and_json(perft)
    add_worker_options(perft)
    from .diff import add_suite_options
    from .diff import register as register_diff
    add_suite_options(perft)
    add_variant_options(perft)
    perft.set_defaults(
        variant_of="position", variant_command="katra perft", run=cmd_perft)

    outs = commands.add_parser("playouts", help="play seeded random games (docs/rules.md §6)")
    outs.add_argument("position", metavar="GAME_OR_POSITION")
    outs.add_argument("games", type=games_arg, metavar="N")
    outs.add_argument("--seed", type=seed_arg, default=0)
    outs.add_argument("--max-plies", type=max_plies_arg, default=DEFAULT_MAX_PLIES)
    outs.add_argument("--first-game", type=first_game_arg, default=0, metavar="K",
                      help="play games K..K+N-1 of the seeded batch (default 0)")
    backend_and_json(outs)
    add_worker_options(outs)
    add_variant_options(outs)
    outs.set_defaults(
        variant_of="position", variant_command="katra playouts", run=cmd_playouts)

    show = commands.add_parser("show", help="draw a position's board")
    show.add_argument("position", metavar="GAME_OR_POSITION",
                      help="a game id (start position) or a position text")
    show.add_argument("moves", nargs="*", metavar="MOVE",
                      help="moves to play first (the last one is highlighted)")
    show.add_argument("--explain", action="store_true",
                      help="show the last MOVE lap by lap (docs/explain.md)")
    show.add_argument("--all", action="store_true", help="--explain: every lap of a long move")
    show.add_argument("--svg", metavar="FILE",
                      help="also write the picture (with --explain: the move's laps) as SVG")
    add_variant_options(show)
    show.set_defaults(
        variant_of="position", variant_command="katra show", run=cmd_show)

    play = commands.add_parser("play", help="play against the engine in the terminal")
    play.add_argument("position", metavar="GAME",
                      help="a game id (start position) or a position text")
    play.add_argument("--as", dest="side", type=side_arg, default=0, metavar="S|N",
                      help="the side you play (default S: South moves first)")
    strength = play.add_mutually_exclusive_group()
    strength.add_argument("--depth", type=search_depth_arg, metavar="N",
                          help="engine searches N plies deep")
    strength.add_argument("--time", type=seconds_arg, metavar="SECONDS",
                          help="engine thinks this long per move (default 1)")
    strength.add_argument("--nodes", type=search_nodes_arg, metavar="N",
                          help="engine searches N nodes per move (the same moves on any machine)")
    play.add_argument("--record", metavar="FILE", help="write the game record to FILE")
    add_variant_options(play)
    play.set_defaults(
        variant_of="position", variant_command="katra play", run=cmd_play)

    bench = commands.add_parser("bench", help="time the core against the reference")
    bench.add_argument("games", nargs="*", metavar="GAME", help="games to time (default all)")
    bench.add_argument("--depth", type=positive_int_arg, metavar="N",
                       help="perft depth for every game (default: per game, see docs/cli.md)")
    bench.add_argument("--playouts", type=non_negative_arg, default=20, metavar="N",
                       help="random games per game (default 20)")
    bench.add_argument("--seed", type=seed_arg, default=1)
    bench.add_argument("--max-plies", type=max_plies_arg, default=DEFAULT_MAX_PLIES)
    bench.add_argument("--json", action="store_true", help="print one JSON object")
    add_variant_options(bench)
    bench.set_defaults(
        variant_of="games", variant_command="katra bench", run=cmd_bench)

    rules = commands.add_parser("rules", help="a game's rules in short, or in full (--full)")
    rules.add_argument("game", nargs="?", metavar="GAME",
                       help="a game id or name (with --full: optional, default the whole book)")
    rules.add_argument("--full", action="store_true",
                       help="print the complete rules from the rulebook installed with katra")
    add_variant_options(rules)
    rules.set_defaults(
        variant_of="game", variant_command="katra rules", run=cmd_rules)

    replay = commands.add_parser("replay", help="step through a saved game record")
    replay.add_argument("file", metavar="FILE", help="a game record file ('-': stdin)")
    replay.add_argument("--game", type=positive_int_arg, default=1, metavar="N",
                        help="which record of the file (default 1)")
    replay.add_argument("--ply", type=non_negative_arg, metavar="N",
                        help="show only the position after N plies")
    replay.add_argument("--html", metavar="OUT",
                        help="write a self-contained HTML page that replays the game")
    replay.set_defaults(run=cmd_replay)

    register_diff(commands)  # katra diff (docs/diff.md)
    from .solve import register as register_solve
    register_solve(commands)  # katra solve (docs/solve.md)
    from .analyse import register as register_analyse
    register_analyse(commands)  # katra analyse (docs/cli.md)
    from .tables import register as register_tables
    register_tables(commands)  # katra tables (docs/tables.md)
    from .engine import register as register_engine
    register_engine(commands)  # katra engine (docs/protocol.md)
    from .match import register as register_match
    register_match(commands)  # katra match (docs/match.md)
    return parser


class OutputLost(Exception):
    """stdout cannot take the command's output (closed, a full disk...): one line, status 1."""


class _GuardedStdout(io.TextIOBase):
    """stdout for the length of a command: a write or flush that fails (or any write
    at all when stdout is closed: Python's ``sys.stdout`` is then None) raises
    OutputLost, so that every command reports lost output the same way; a closed
    pipe stays a BrokenPipeError (the reader has what it wanted)."""

    def __init__(self, stream: TextIO | None) -> None:
        super().__init__()
        self.stream = stream

    def _failed(self, exc: OSError) -> OutputLost:
        return OutputLost(f"katra: cannot write the output: {exc.strerror or exc}")

    def write(self, text: str) -> int:
        if self.stream is None:
            raise OutputLost("katra: cannot write the output: stdout is closed")
        try:
            return self.stream.write(text)
        except BrokenPipeError:
            raise
        except OSError as exc:
            raise self._failed(exc) from None

    def flush(self) -> None:
        if self.stream is None:
            return
        try:
            self.stream.flush()
        except BrokenPipeError:
            raise
        except OSError as exc:
            raise self._failed(exc) from None

    def isatty(self) -> bool:
        return self.stream is not None and self.stream.isatty()

    def fileno(self) -> int:
        if self.stream is None:
            raise io.UnsupportedOperation("stdout is closed")
        return self.stream.fileno()

    @property
    def encoding(self) -> str:  # type: ignore[override]
        return getattr(self.stream, "encoding", None) or "utf-8"

    def writable(self) -> bool:
        return True

    def close(self) -> None:
        """Nothing: the real stdout is Python's to close (at exit, after main's flush)."""


def _discard_stdout(stream: TextIO | None) -> None:
    """Point the stdout that failed at devnull, so that Python's flush at exit of what
    is still buffered fails no more (no second report, no status 120)."""
    try:
        fd = stream.fileno() if stream is not None else -1
    except (OSError, ValueError):
        return
    if fd >= 0:
        os.dup2(os.open(os.devnull, os.O_WRONLY), fd)


def main(argv: Sequence[str] | None = None) -> int:
    real_stdout = sys.stdout
    sys.stdout = cast(TextIO, _GuardedStdout(real_stdout))
    try:
        return _run(argv, real_stdout)
    finally:
        sys.stdout = real_stdout


def _run(argv: Sequence[str] | None, real_stdout: TextIO | None) -> int:
    try:
        args = build_parser().parse_args(argv)
        apply_variant_options(args)  # --rows/--cols/--seeds/--simplified (docs/cli.md)
        run: Callable[[argparse.Namespace], None] = args.run
        run(args)
        sys.stdout.flush()  # here, not at exit, so that a failed write is caught below
    except UsageError as exc:
        print(exc, file=sys.stderr)
        return EXIT_BAD_INPUT
    except ValueError as exc:  # KatraError and every other bad value
        print(f"katra: {exc}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except CommandFailed as exc:
        print(exc, file=sys.stderr)
        return EXIT_FAILURE
    except OutputLost as exc:  # docs/cli.md, "Conventions"
        print(exc, file=sys.stderr)
        _discard_stdout(real_stdout)
        return EXIT_FAILURE
    except KeyboardInterrupt:
        print("katra: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        # The reader of stdout went away (katra replay game.txt | head -13): it has read
        # what it wanted, so the command ends quietly and successfully (docs/cli.md).
        _discard_stdout(real_stdout)
        return 0
    return 0
