"""``katra diff`` and ``katra perft --suite``: katra as the referee (docs/diff.md).

Registered on the ``katra`` parser by ``register`` and
``add_suite_options``; the work is done by ``katra.testing``.
Exit status: 0 the two sides agree (every suite count passes), 1 they
differ, 2 bad input (including a program that cannot start, exits non-zero,
hangs past ``--timeout`` or prints something unreadable).
"""
from __future__ import annotations

import argparse
import json
import shlex
from collections.abc import Sequence
from typing import Any

from katra._text import plural

from .common import (
    CommandFailed,
    UsageError,
    add_variant_options,
    non_negative_arg,
    positive_int_arg,
    seconds_arg,
    seed_arg,
)

#: Seconds a program may take per call (perft protocol) or per reply (line protocol).
DEFAULT_TIMEOUT = 60.0
DEFAULT_WALK_GAMES = 100


def register(commands: Any) -> None:
    """Add ``diff`` to the subcommands of the ``katra`` parser."""
    from katra.api import DEFAULT_MAX_PLIES

    diff = commands.add_parser("diff", help="find where another implementation of the rules "
                               "first differs from katra (docs/diff.md)")
    diff.add_argument("command", metavar="COMMAND",
                      help="the program to check, one argument (split like a shell would)")
    diff.add_argument("position", metavar="GAME_OR_POSITION",
                      help="a game id (start position) or a position text")
    diff.add_argument("depth", nargs="?", type=positive_int_arg, metavar="DEPTH",
                      help="perft depth (not with --walk)")
    diff.add_argument("--walk", action="store_true",
                      help="line protocol on stdin: compare seeded random games move by move")
    diff.add_argument("--games", type=non_negative_arg, metavar="N",
                      help=f"--walk: games to play (default {DEFAULT_WALK_GAMES})")
    diff.add_argument("--seed", type=seed_arg, metavar="S", help="--walk: seed (default 0)")
    diff.add_argument("--max-plies", type=non_negative_arg, metavar="P",
                      help=f"--walk: ply limit per game (default {DEFAULT_MAX_PLIES})")
    add_program_options(diff)
    diff.add_argument("--json", action="store_true", help="print one JSON object")
    add_variant_options(diff)
    diff.set_defaults(
        variant_of="position", variant_command="katra diff", run=cmd_diff)


def add_program_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--timeout", type=seconds_arg, default=DEFAULT_TIMEOUT, metavar="SECONDS",
                        help=f"seconds per call or reply of the program (default "
                             f"{DEFAULT_TIMEOUT:g})")
    parser.add_argument("--int-moves", action="store_true",
                        help="give the program moves as int actions instead of move text")


def add_suite_options(perft: argparse.ArgumentParser) -> None:
    """Add ``--suite`` and ``--command`` (with ``--timeout``, ``--int-moves``) to ``perft``."""
    perft.add_argument("--suite", metavar="FILE", help="check every count of a perft suite "
                       "file (or of katra's suite for a game name)")
    perft.add_argument("--command", metavar="COMMAND",
                       help="--suite: check this program (perft protocol, docs/diff.md) "
                            "instead of katra")
    add_program_options(perft)


def _print_board(text: str) -> None:
    from katra.api import State

    from .board import board
    from .term import out

    out().print(board(State.from_text(text), status=True, legal=False))


def _report(difference: Any, reproduce: str, other: str = "command") -> None:
    print(difference.headline(f"the {other}"))
    lines = difference.lines(other)
    board_after = next(k for k, line in enumerate(lines) if line.startswith("position")) + 1
    print("\n".join(lines[:board_after]))
    _print_board(difference.position)
    print("\n".join(lines[board_after:]))
    width = max(len(other), len("reproduce"))
    print(f"{'reproduce'.ljust(width)}  {reproduce}")


def cmd_diff(args: argparse.Namespace) -> None:
    from katra.api import DEFAULT_MAX_PLIES, load_position

    if args.walk:
        if args.depth is not None:
            raise UsageError("katra diff: --walk compares whole games and takes no DEPTH")
        start = load_position(args.position).text()
        games = DEFAULT_WALK_GAMES if args.games is None else args.games
        seed = 0 if args.seed is None else args.seed
        max_plies = DEFAULT_MAX_PLIES if args.max_plies is None else args.max_plies
        _diff_walk(args, start, games, seed, max_plies)
        return
    if args.depth is None:
        raise UsageError("katra diff: DEPTH is required (or --walk for the line protocol)")
    given = [name for name in ("games", "seed", "max_plies") if getattr(args, name) is not None]
    if given:
        raise UsageError(f"katra diff: --{given[0].replace('_', '-')} goes with --walk only")
    start = load_position(args.position).text()
    _diff_perft(args, start, args.depth)


def _diff_perft(args: argparse.Namespace, start: str, depth: int) -> None:
    from katra._games import game_by_id
    from katra.testing import PerftProgram, drill_down

    program = PerftProgram(args.command, game_by_id(start.split(" ")[0]), start, args.timeout,
                           args.int_moves)
    result = drill_down(start, depth, program.divide)
    difference = result.difference
    reproduce = (program.reproduce(result.final_depth, difference.path)
                 if difference is not None else program.reproduce(depth, ()))
    failure = (f"katra diff: the command differs from katra at {difference.position!r} "
               f"({result.calls} calls)" if difference is not None else "")
    _conclude(args, start, difference, reproduce, {
        "depth": depth, "nodes": {"katra": result.katra_nodes, "command": result.other_nodes},
        "calls": result.calls},
        f"agree: perft {depth} from {start} is {result.katra_nodes} for both, and so is "
        "every move's count",
        f"perft {depth} from {start}: katra {result.katra_nodes}, command {result.other_nodes}",
        failure)


def _conclude(args: argparse.Namespace, start: str, difference: Any, reproduce: str,
              fields: dict[str, Any], agreed: str, intro: str, failure: str) -> None:
    """Print the JSON record or the report; CommandFailed (status 1) if they differ."""
    if args.json:
        record: dict[str, Any] = {"agree": difference is None, "position": None, "path": [],
                                  "katra": None, "command": None, "start": start, **fields}
        if difference is not None:
            record.update(difference.record())
            record["reproduce"] = reproduce
        print(json.dumps(record))
    elif difference is None:
        print(agreed)
    else:
        print(intro)
        _report(difference, reproduce)
    if difference is not None:
        raise CommandFailed(failure)


def _diff_walk(args: argparse.Namespace, start: str, games: int, seed: int,
               max_plies: int) -> None:
    from katra._games import game_by_id
    from katra.testing import ProgramFailed, WalkProgram, walk

    try:
        program = WalkProgram(args.command, game_by_id(start.split(" ")[0]), args.timeout,
                              args.int_moves)
    except ProgramFailed as failed:
        raise failed.at(start, []) from None
    with program:
        result = walk(program, start, games, seed, max_plies)
        reproduce = program.reproduce()
    difference = result.difference
    compared = result.finished + result.unfinished
    failure = (f"katra diff: the command differs from katra in game {difference.game}, "
               f"ply {len(difference.path)}" if difference is not None else "")
    _conclude(args, start, difference, reproduce, {
        "games": games, "seed": seed, "max_plies": max_plies, "games_compared": compared,
        "plies": result.plies, "finished": result.finished, "unfinished": result.unfinished},
        f"agree: {plural(games, 'game')} from {start} (seed {seed}, ply limit {max_plies}), "
        f"{plural(result.plies, 'ply', 'plies')}: the same legal moves and positions at every "
        f"ply ({plural(result.finished, 'game')} finished, {result.unfinished} stopped at the "
        "limit)",
        f"{plural(compared, 'game')} agreed (seed {seed}); game "
        f"{difference.game if difference else ''} differs:", failure)


# ---------------------------------------------------------------- katra perft --suite

def cmd_perft_suite(args: argparse.Namespace) -> None:
    """``katra perft --suite FILE [--command COMMAND]``: every count, drill-down on failure.

    With ``--command`` each count is the program's (its divide, drilled down
    against katra's); without, katra's own (``--backend``), drilled down
    against the core's and the reference's when it fails.
    """
    from katra.testing import load_suite

    if args.position is not None or args.depth is not None or args.divide or args.quiet:
        raise UsageError("katra perft: --suite takes no GAME_OR_POSITION, DEPTH, --divide or -q")
    name, entries = load_suite(args.suite)
    other = "command" if args.command is not None else "reference"
    results: list[dict[str, Any]] = []
    lines: list[str] = []
    for entry in entries:
        nodes, drill, reproduce = _check_entry(args, entry.position, entry.depth, entry.nodes)
        ok = nodes == entry.nodes and (drill is None or drill.agree)
        record: dict[str, Any] = {"id": entry.id, "position": entry.position,
                                  "depth": entry.depth, "expected": entry.nodes, "nodes": nodes,
                                  "ok": ok, "difference": None}
        results.append(record)
        lines.append(f"{'ok  ' if ok else 'FAIL'} {entry.id} depth {entry.depth}: "
                     f"expected {entry.nodes}, got {nodes}")
        if ok or drill is None:
            continue
        if drill.difference is not None:
            record["difference"] = drill.difference.record()
            record["reproduce"] = reproduce
            lines += ["     " + line for line in [drill.difference.headline(f"the {other}"),
                                                      *drill.difference.lines(other),
                                                      f"reproduce  {reproduce}"]]
        else:
            lines.append(f"     katra and the {other} both count {drill.katra_nodes}: "
                         "the suite's count is wrong")
    failed = sum(not r["ok"] for r in results)
    who = f"the command {args.command!r}" if args.command else f"katra ({args.backend})"
    if args.json:
        print(json.dumps({"suite": name, "checked": who, "passed": len(results) - failed,
                          "failed": failed, "results": results}))
    else:
        print("\n".join(lines))
        print(f"{len(results) - failed} of {len(results)} counts of {name} pass for {who}")
    if failed:
        raise CommandFailed(f"katra perft: {failed} of {len(results)} suite counts fail")


def _check_entry(args: argparse.Namespace, position: str, depth: int,
                 expected: int) -> tuple[int, Any, str]:
    """``(count, drill-down or None, reproduce command)`` for one suite count."""
    from katra._games import game_by_id
    from katra.api import perft
    from katra.testing import PerftProgram, drill_down

    if args.command is not None:
        program = PerftProgram(args.command, game_by_id(position.split(" ")[0]), position,
                               args.timeout, args.int_moves)
        drill = drill_down(position, depth, program.divide)
        found = drill.difference
        return (drill.other_nodes, drill,
                program.reproduce(drill.final_depth, found.path) if found else "")
    nodes = perft(position, depth, backend=args.backend)
    if nodes == expected:
        return nodes, None, ""
    # The core (katra's side of a drill-down) against the reference.
    drill = drill_down(position, depth, backend_divide(position, "reference"))
    found = drill.difference
    reproduce = (f"katra perft {shlex.quote(found.position)} 1 --divide --backend "
                 "reference" if found else "")
    return nodes, drill, reproduce


def backend_divide(start: str, backend: str) -> Any:
    """A backend of katra as the other side of a drill-down."""
    from katra._text import parse_action
    from katra.api import State, divide

    def other_divide(depth: int, path: Sequence[str]) -> dict[int, int]:
        state = State.from_text(start, backend=backend)
        for move in path:
            state.push(move)
        spec = state.game.spec
        return {parse_action(spec, m): c for m, c in divide(state, depth).items()}
    return other_divide
