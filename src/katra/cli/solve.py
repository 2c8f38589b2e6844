"""``katra solve``: proven values and distances, proof files and their check (docs/solve.md)."""
from __future__ import annotations

import argparse
import json
import signal
import sys
import threading
import time
from typing import Any, TextIO, cast

from katra._limits import MAX_SEARCH_NODES, MAX_SOLVE_PLIES, MAX_SOLVE_TT_BITS, MIN_SOLVE_TT_BITS

from .common import CommandFailed, UsageError, add_variant_options, int_arg, seconds_arg

max_solve_plies_arg = int_arg("the bound", 1, MAX_SOLVE_PLIES)
solve_nodes_arg = int_arg("the node budget", 1, MAX_SEARCH_NODES)
tt_bits_arg = int_arg("--tt-bits", MIN_SOLVE_TT_BITS, MAX_SOLVE_TT_BITS)
positions_arg = int_arg("--positions", 1, 1 << 31)


def register(commands: Any) -> None:
    """Add ``solve`` to the subcommands of the ``katra`` parser."""
    from .counting import add_worker_options

    solve = commands.add_parser("solve", help="prove who wins and in how many plies "
                                "(docs/solve.md)")
    solve.add_argument("position", nargs="?", metavar="GAME_OR_POSITION",
                       help="a game id (start position) or a position text")
    solver = solve.add_mutually_exclusive_group()   # the bounded solver or df-pn's distance
    solver.add_argument("--max-plies", type=max_solve_plies_arg, metavar="N",
                        help="the bounded solver: exact within N plies (1..500); without it, "
                        "df-pn searches with no bound")
    solver.add_argument("--exact", action="store_true",
                        help="after df-pn's proof, find the exact distance (the bounded solver)")
    solver.add_argument("--retrograde", action="store_true",
                        help="list every position reachable and solve them all, exactly "
                        "(small boards; lines that never end are settled too)")
    solve.add_argument("--positions", type=positions_arg, metavar="N",
                       help="--retrograde's budget: the most positions listed (default "
                       "1,000,000, about 200 MB)")
    solve.add_argument("--nodes", type=solve_nodes_arg, metavar="N",
                       help="df-pn's node budget (no result if it runs out)")
    solve.add_argument("--tt-bits", type=tt_bits_arg, metavar="B",
                       help=f"the transposition table: 2**B entries ({MIN_SOLVE_TT_BITS}.."
                       f"{MAX_SOLVE_TT_BITS}; default 20, 24 MiB for df-pn); a proof is written "
                       "from it, so a long df-pn solve's --proof wants one that holds its nodes")
    solve.add_argument("--time", type=seconds_arg, metavar="SECONDS",
                       help="stop after this long (the result of what was completed)")
    solve.add_argument("--proof", metavar="FILE", help="write the proof of the result to FILE "
                       "(as it is found)")
    solve.add_argument("--check", metavar="FILE",
                       help="check a proof file with the reference backend (no position)")
    solve.add_argument("--tables", metavar="FILE",
                       help="endgame tables made by `katra tables build` (docs/tables.md): "
                       "their values answer the boards they hold; no --proof, no --jobs")
    solve.add_argument("--dfpn-table", metavar="FILE",
                       help="keep df-pn's table in FILE between runs: read if it exists (its "
                       "size then the table's), written back when the solve stops (settled, "
                       "--time, --nodes or Ctrl-C), so a long solve resumes; one thread")
    solve.add_argument("--json", action="store_true", help="print one JSON object")
    solve.add_argument("--progress", action="store_true",
                       help="report the bound being searched, the nodes and the proven "
                       "subtrees on stderr (the default when stderr is a terminal)")
    add_worker_options(solve)
    for action in solve._actions:   # solve's default is one thread, not every core
        if "--jobs" in action.option_strings:
            action.help = ("threads to split the solve over (default 1; 0: every core): "
                           "the root's moves with --max-plies, else df-pn's jobs")
    add_variant_options(solve)
    solve.set_defaults(
        variant_of="position", variant_command="katra solve", run=cmd_solve, backend="core")


class _Terminated(KeyboardInterrupt):
    """SIGTERM during a solve with --dfpn-table: raised where Ctrl-C's
    KeyboardInterrupt would be (the core's jobs stop on either)."""


def _terminate(signum: int, frame: Any) -> None:
    raise _Terminated


def _side(player: int) -> str:
    return "South" if player == 0 else "North"


def cmd_solve(args: argparse.Namespace) -> None:
    if args.check is not None:
        if args.position is not None or args.proof is not None:
            raise UsageError("katra solve: --check FILE takes no position and no --proof")
        return _check(args)
    if args.position is None:
        raise UsageError("katra solve: GAME_OR_POSITION is required (or --check FILE)")
    from katra._games import game_by_id
    from katra._text import action_text
    from katra.api import ProofWriteError, dfpn_table_info, load_position, load_tables, solve

    from .counting import worker_options

    pos = load_position(args.position, "core")
    if pos.is_terminal():
        raise UsageError(f"katra solve: the game is already over: {pos.text()}")
    split = args.jobs is not None or args.scheduler is not None
    if args.positions is not None and not args.retrograde:
        raise UsageError("katra solve: --positions is --retrograde's budget: give it with "
                         "--retrograde")
    if args.retrograde:
        return _retrograde(args, pos, split)
    if args.max_plies is not None and args.nodes is not None:
        raise UsageError("katra solve: --nodes is df-pn's budget: give it without --max-plies")
    show = _ProgressLine(sys.stderr) if args.progress or (
        not args.json and sys.stderr.isatty()) else None
    options: dict[str, Any] = {"time": args.time, "progress": show, "tt_bits": args.tt_bits}
    if args.max_plies is None:
        options.update(exact=args.exact, nodes=args.nodes)
    if args.tables is not None:
        options["tables"] = load_tables(args.tables, pos.game_id)
    if args.dfpn_table is not None:
        options["dfpn_table"] = args.dfpn_table
    proof = _ProofFile(args.proof) if args.proof is not None else None
    # SIGTERM (a batch system's time limit) stops a solve that keeps its table as
    # Ctrl-C does, so the table is written on the way out
    on_term = args.dfpn_table is not None and threading.current_thread() is threading.main_thread()
    previous = signal.signal(signal.SIGTERM, _terminate) if on_term else None
    try:
        if not split:
            result = solve(pos.text(), args.max_plies, proof=cast(TextIO, proof), **options)
        else:
            with worker_options(args) as workers:
                result = solve(pos.text(), args.max_plies, proof=cast(TextIO, proof),
                               **options, **workers)
    except BaseException as exc:
        if proof is not None:
            proof.discard()
            if isinstance(exc, OSError) and proof.failed is exc:
                raise proof.cannot_write(exc) from None
        if isinstance(exc, ProofWriteError):
            raise CommandFailed(f"katra solve: {exc}") from None
        if isinstance(exc, _Terminated):
            raise CommandFailed(f"katra solve: terminated (SIGTERM); df-pn's table is "
                                f"in {args.dfpn_table}") from None
        raise
    finally:
        if on_term:
            signal.signal(signal.SIGTERM, previous)
        if show is not None:
            show.close()
    if proof is not None:
        if result.outcome is None:
            proof.discard()
        else:
            proof.commit()
    spec = game_by_id(pos.game_id)
    line = " ".join(action_text(spec, a) for a in result.pv)
    proof_lines = None
    if proof is not None:
        if result.outcome is None:
            raise UsageError(f"katra solve: {result.describe()}: there is no proof to write")
        proof_lines = proof.lines
    record: dict[str, Any] = {
        "position": pos.text(), "to_move": "SN"[result.to_move], "outcome": result.outcome,
        "plies": result.plies, "exact": result.exact, "best_move": result.best_move or None,
        "pv": [action_text(spec, a) for a in result.pv], "max_plies": result.max_plies,
        "max_nodes": result.max_nodes, "timed_out": result.timed_out, "nodes": result.nodes,
        "seconds": round(result.seconds, 6)}
    if proof_lines is not None:
        record["proof"] = args.proof
    if args.dfpn_table is not None:
        kept = dfpn_table_info(args.dfpn_table)
        record["dfpn_table"] = {"file": args.dfpn_table, "tt_bits": kept.tt_bits,
                                "nodes": kept.nodes, "runs": kept.runs}
    if args.json:
        print(json.dumps(record))
        return
    _print_result(pos, result, line, proof_lines, args)


def _print_result(pos: Any, result: Any, line: str, proof_lines: int | None,
                  args: argparse.Namespace) -> None:
    lines = [f"position {pos.text()}", f"result   {result.describe()}"
             + (" (the clock stopped the search)" if result.timed_out else "")]
    if result.outcome is not None:
        lines += [f"best     {result.best_move}", f"line     {line}"]
    if args.retrograde:
        lines.append("method   retrograde analysis (every position reachable)"
                     if result.max_nodes is None else
                     "method   retrograde analysis (the budget ran out)")
    elif result.max_plies is not None:
        lines.append(f"bound    {result.max_plies} plies searched")
    else:
        lines.append("method   df-pn (plies: the proof's depth; --exact for the distance)"
                     if result.outcome is not None and not result.exact else "method   df-pn")
    lines += [f"{'positions' if args.retrograde else 'nodes   '} {result.nodes}",
              f"time     {result.seconds:.3f} s"]
    if proof_lines is not None:
        lines.append(f"proof    {args.proof} ({proof_lines} lines)")
    if args.dfpn_table is not None:
        from katra.api import dfpn_table_info
        kept = dfpn_table_info(args.dfpn_table)
        lines.append(f"table    {args.dfpn_table} (2**{kept.tt_bits} entries; {kept.nodes} nodes "
                     f"in {kept.runs} run{'s' if kept.runs != 1 else ''})")
    print("\n".join(lines))


def _retrograde(args: argparse.Namespace, pos: Any, split: bool) -> None:
    """katra solve --retrograde: every position reachable, solved (docs/solve.md)."""
    from katra._games import game_by_id
    from katra._text import action_text
    from katra.api import retrograde

    others = [name for name, given in (
        ("--nodes", args.nodes is not None), ("--tt-bits", args.tt_bits is not None),
        ("--time", args.time is not None), ("--tables", args.tables is not None),
        ("--dfpn-table", args.dfpn_table is not None), ("--jobs or --scheduler", split),
        ("--progress", args.progress)) if given]
    if others:
        raise UsageError(f"katra solve: --retrograde takes no {others[0]}")
    proof = _ProofFile(args.proof) if args.proof is not None else None
    try:
        result = retrograde(pos.text(), positions=args.positions, proof=cast(TextIO, proof))
    except BaseException as exc:
        if proof is not None:
            proof.discard()
            if isinstance(exc, OSError) and proof.failed is exc:
                raise proof.cannot_write(exc) from None
        raise
    if proof is not None:
        if result.outcome is None:
            proof.discard()
            raise UsageError(f"katra solve: {result.describe()}: there is no proof to write")
        proof.commit()
    spec = game_by_id(pos.game_id)
    if args.json:
        record: dict[str, Any] = {
            "position": pos.text(), "to_move": "SN"[result.to_move],
            "outcome": result.outcome, "plies": result.plies, "exact": result.exact,
            "best_move": result.best_move or None,
            "pv": [action_text(spec, a) for a in result.pv], "method": "retrograde",
            "positions": result.nodes, "complete": result.max_nodes is None,
            "seconds": round(result.seconds, 6)}
        if proof is not None:
            record["proof"] = args.proof
        print(json.dumps(record))
        return
    _print_result(pos, result, " ".join(action_text(spec, a) for a in result.pv),
                  proof.lines if proof is not None else None, args)


class _ProgressLine:
    """A solve's progress on a stream: one line rewritten in place on a terminal,
    else a line per bound and at most one every PERIOD seconds between."""

    PERIOD = 2.0

    def __init__(self, out: TextIO) -> None:
        self.out, self.tty = out, out.isatty()
        self.bound: tuple[int, str] = (0, "")
        self.last, self.width = 0.0, 0

    def __call__(self, p: Any) -> None:
        now = time.monotonic()
        period = 0.1 if self.tty else self.PERIOD
        if (p.bound, p.question) == self.bound and now - self.last < period:
            return
        self.bound, self.last = (p.bound, p.question), now
        if p.question:
            text = f"df-pn, {p.question}: {p.nodes:,} nodes, {p.seconds:.1f} s"
        else:
            text = f"bound {p.bound}: {p.nodes:,} nodes, {p.seconds:.1f} s"
        if p.subtrees:
            text += f", {p.proven} of {p.subtrees} subtrees proven"
        if self.tty:
            self.out.write("\r" + text.ljust(self.width))
            self.width = len(text)
        else:
            self.out.write(text + "\n")
        self.out.flush()

    def close(self) -> None:
        if self.tty and self.width:
            self.out.write("\r" + " " * self.width + "\r")
            self.out.flush()


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


class _ProofFile:
    """The proof file, opened before the search (a path that cannot be written is a
    UsageError then) by katra._files' rule: a regular file is written to its
    ``.partial`` copy, renamed once the result is settled; its lines are counted
    as they are written (a FIFO cannot be read back)."""

    def __init__(self, path: str) -> None:
        from katra._files import OutputFile
        self.path, self.lines = path, 0
        self.failed: OSError | None = None      # the write that failed, if one did
        try:
            self.file = OutputFile(path, suffix=".partial")
        except OSError as exc:
            raise UsageError(f"katra solve: cannot write {path!r}: "
                             f"{exc.strerror or exc}") from None

    def write(self, text: str) -> int:
        try:
            written = self.file.stream.write(text)
        except OSError as exc:
            self.failed = exc
            raise
        self.lines += text.count("\n")
        return written

    def cannot_write(self, exc: OSError) -> CommandFailed:
        return CommandFailed(f"katra solve: cannot write {self.path!r}: {exc.strerror or exc}")

    def commit(self) -> None:
        try:
            self.file.commit()
        except OSError as exc:
            raise self.cannot_write(exc) from None

    def discard(self) -> None:
        self.file.discard()
