"""``katra solve``: proven values and distances, proof files and their check (docs/solve.md)."""
from __future__ import annotations

import argparse
import json
from typing import Any

from .common import UsageError, positive_int_arg, seconds_arg


def max_solve_plies_arg(text: str) -> int:
    from katra.api._solve import MAX_SOLVE_PLIES
    value = positive_int_arg(text)
    if value > MAX_SOLVE_PLIES:
        raise argparse.ArgumentTypeError(f"expected at most {MAX_SOLVE_PLIES} plies, got {value}")
    return value


def register(commands: Any) -> None:
    """Add ``solve`` to the subcommands of the ``katra`` parser."""
    from .counting import add_worker_options

    solve = commands.add_parser("solve", help="prove who wins and in how many plies "
                                "(docs/solve.md)")
    solve.add_argument("position", nargs="?", metavar="GAME_OR_POSITION",
                       help="a game id (start position) or a position text")
    solve.add_argument("--max-plies", type=max_solve_plies_arg, metavar="N",
                       help="the largest ply bound to search (1..500, default 500)")
    solve.add_argument("--time", type=seconds_arg, metavar="SECONDS",
                       help="stop after this long (the result of the last bound completed)")
    solve.add_argument("--proof", metavar="FILE", help="write the proof of the result to FILE")
    solve.add_argument("--check", metavar="FILE",
                       help="check a proof file with the reference backend (no position)")
    solve.add_argument("--json", action="store_true", help="print one JSON object")
    add_worker_options(solve)
    for action in solve._actions:   # solve's default is one thread, not every core
        if "--jobs" in action.option_strings:
            action.help = "threads to split the root's moves over (default 1; 0: every core)"
    solve.set_defaults(run=cmd_solve, backend="core")


def _side(player: int) -> str:
    return "South" if player == 0 else "North"


def cmd_solve(args: argparse.Namespace) -> None:
    if args.check is not None:
        if args.position is not None or args.proof is not None:
            raise UsageError("katra solve: --check FILE takes no position and no --proof")
        return _check(args)
    if args.position is None:
        raise UsageError("katra solve: GAME_OR_POSITION is required (or --check FILE)")
    from katra._games import GAMES
    from katra._text import action_text
    from katra.api import load_position
    from katra.api._parallel import workers_for
    from katra.api._solve import MAX_SOLVE_PLIES, solve_position

    from .counting import worker_options

    pos = load_position(args.position, "core")
    if pos.is_terminal():
        raise UsageError(f"katra solve: the game is already over: {pos.text()}")
    plies = args.max_plies if args.max_plies is not None else MAX_SOLVE_PLIES
    if args.jobs is None and args.scheduler is None:
        result = solve_position(pos, plies, args.time, None, None)
    else:
        with worker_options(args) as options:
            workers = workers_for(options.get("jobs", 1), options.get("executor"))
            result = solve_position(pos, plies, args.time, None, workers)
    spec = GAMES[pos.game_id]
    line = " ".join(action_text(spec, a) for a in result.pv)
    proof_lines = None
    if args.proof is not None:
        if result.outcome is None:
            raise UsageError(f"katra solve: {result.describe()}: there is no proof to write")
        from katra.api._proof import write_proof
        with open(args.proof, "w", encoding="utf-8") as out:
            proof_lines = write_proof(out, pos, result)
    record: dict[str, Any] = {
        "position": pos.text(), "to_move": "SN"[result.to_move], "outcome": result.outcome,
        "plies": result.plies, "best_move": result.best_move or None,
        "pv": [action_text(spec, a) for a in result.pv], "max_plies": result.max_plies,
        "timed_out": result.timed_out, "nodes": result.nodes,
        "seconds": round(result.seconds, 6)}
    if proof_lines is not None:
        record["proof"] = args.proof
    if args.json:
        print(json.dumps(record))
        return
    lines = [f"position {pos.text()}", f"result   {result.describe()}"
             + (" (the clock stopped the search)" if result.timed_out else "")]
    if result.outcome is not None:
        lines += [f"best     {result.best_move}", f"line     {line}"]
    lines += [f"bound    {result.max_plies} plies searched", f"nodes    {result.nodes}",
              f"time     {result.seconds:.3f} s"]
    if proof_lines is not None:
        lines.append(f"proof    {args.proof} ({proof_lines} lines)")
    print("\n".join(lines))


def _check(args: argparse.Namespace) -> None:
    from katra.testing import check_proof

    try:
        summary = check_proof(args.check)
    except OSError as exc:
        raise UsageError(f"katra solve: cannot read {args.check}: {exc.strerror}") from None
    mover = 0 if summary.position.split(" ")[2] == "S" else 1
    who = {"win": f"{_side(mover)} wins", "loss": f"{_side(1 - mover)} wins",
           "draw": "a draw"}[summary.outcome]
    if args.json:
        print(json.dumps({"proof": args.check, "valid": True, "position": summary.position,
                          "outcome": summary.outcome, "plies": summary.plies,
                          "moves_checked": summary.nodes}))
        return
    print(f"proof OK: {who} within {summary.plies} plies\n"
          f"position {summary.position}\nchecked  {summary.nodes} moves (reference backend)")
