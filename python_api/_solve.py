"""Exact solving: proven values, distances and proofs (docs/rules.md §6.3, docs/solve.md).

Without a bound, depth-first proof-number search (``katra._core.DfpnSolver``,
``_dfpn``) settles the value from proofs and bounds the distance by the
proofs' depth; ``exact=True`` then finds the exact distance with the bounded
solver.  With ``max_plies``, the bounded solver (``katra._core.Solver``)
finds the exact value and distance within that bound, in this thread or
split over workers (``_solve_pool``).
"""
from __future__ import annotations

import os
import time as _clock
import uuid
from dataclasses import dataclass
from typing import Any, TextIO

from katra._errors import ArgumentError, ArgumentTypeError
from katra._games import game_by_id
from katra._limits import (
    MAX_SEARCH_NODES,
    MAX_SEARCH_TIME,
    MAX_SOLVE_PLIES,
    MAX_SOLVE_TT_BITS,
    MIN_SOLVE_TT_BITS,
    check_int,
    check_seconds,
)
from katra._text import action_text

from ._backends import Solver
from ._counting import load_position
from ._dfpn import Dfpn
from ._dfpn_file import DfpnTableFile
from ._dfpn_jobs import SplitDfpn
from ._parallel import Workers, workers_for
from ._proof import write_proof
from ._questions import value_of
from ._solve_pool import POOL, Progress, Solved, SolveProgress, SplitSolve, solve_here
from ._tables import check_tables

__all__ = ["MAX_SOLVE_PLIES", "SolveProgress", "SolveResult", "solve"]


@dataclass(frozen=True)
class SolveResult:
    """What [solve][katra.solve] proved, from the side of the player to move (``to_move``: 0 South).

    ``outcome`` is ``"win"``, ``"loss"`` or ``"draw"``, or None when nothing
    is settled; ``plies``: the plies within which it is proven (None with no
    result), the exact distance of docs/rules.md §6.3 when ``exact`` is True,
    else an upper bound on it (the depth of df-pn's proofs);
    ``best_action``/``best_move`` the move that keeps it (-1 / ``""`` with no
    result) and ``pv`` a line of best moves to the end of the game.
    ``nodes`` counts positions visited.  ``max_plies``: the bound searched by
    the bounded solver (the requested one, or less if the clock ran out;
    None for df-pn alone); ``max_nodes``: df-pn's node budget (None: none).
    """

    outcome: str | None
    plies: int | None
    best_action: int
    best_move: str
    pv: tuple[int, ...]
    nodes: int
    seconds: float
    max_plies: int | None
    to_move: int
    timed_out: bool
    exact: bool = True
    max_nodes: int | None = None

    def describe(self) -> str:
        """In words: ``"South wins in 17 plies"``, ``"draw within 4 plies"``, ``"no result"``
        (``"no forced result"`` when [retrograde][katra.retrograde] solved every
        position reachable and neither player forces anything; ``"no result within
        N positions"`` when it ran out of them)."""
        me = "South" if self.to_move == 0 else "North"
        other = "North" if self.to_move == 0 else "South"
        unit = "ply" if self.plies == 1 else "plies"
        within = "in" if self.exact else "within"
        if self.outcome == "win":
            return f"{me} wins {within} {self.plies} {unit}"
        if self.outcome == "loss":
            return f"{other} wins {within} {self.plies} {unit}"
        if self.outcome == "draw":
            return f"draw {within} {self.plies} {unit}"
        if self.max_plies is not None:
            return f"no result within {self.max_plies} plies"
        if self.exact and self.max_nodes is None:
            return "no forced result"
        if self.max_nodes is not None and self.nodes >= self.max_nodes:
            # exact: retrograde analysis, whose budget counts the positions listed
            return f"no result within {self.max_nodes} {'positions' if self.exact else 'nodes'}"
        return "no result"


def check_max_plies(max_plies: object) -> int | None:
    """``max_plies`` as an int in 1..MAX_SOLVE_PLIES, or None."""
    return None if max_plies is None else check_int(max_plies, "max_plies", 1, MAX_SOLVE_PLIES)


def check_tt_bits(tt_bits: object) -> int | None:
    if tt_bits is None:
        return None
    return check_int(tt_bits, "tt_bits", MIN_SOLVE_TT_BITS, MAX_SOLVE_TT_BITS)


def check_time(time: object) -> float | None:
    """``time`` as a float of seconds in ``(0, MAX_SEARCH_TIME]``, or None."""
    return None if time is None else check_seconds(time, "time", MAX_SEARCH_TIME)


def check_nodes(nodes: object) -> int | None:
    return None if nodes is None else check_int(nodes, "nodes", 1, MAX_SEARCH_NODES)


def solve(position: Any, max_plies: int | None = None, *, exact: bool = False,
          nodes: int | None = None, jobs: int = 1, executor: Any = None,
          time: float | None = None, tt_bits: int | None = None,
          progress: Progress | None = None, proof: TextIO | None = None,
          tables: Any = None, dfpn_table: str | os.PathLike[str] | None = None) -> SolveResult:
    """Prove the value of ``position`` (docs/rules.md §6.3, docs/solve.md).

    ``position``: a [katra.State][], a game id or name (its start) or a
    position text; it must not be finished.  Without ``max_plies``,
    proof-number search (df-pn) settles the value with no bound: ``plies`` is
    then the depth of its proofs, an upper bound on the distance
    (``exact=False``), unless ``exact=True`` asks the bounded solver for the
    exact distance below it (only without ``max_plies``: the pair raises
    [katra.ArgumentError][]); ``nodes``: df-pn's node budget (1..2**62, None:
    none).  ``max_plies``: an int 1..500: the bounded solver instead, exact
    within that bound.  ``jobs``/``executor`` split either over workers as
    [katra.perft][] does: the bounded solver's root (the outcome,
    distance, best move and line are the same whatever the split), df-pn as
    job-level proof-number search (the outcome is the same; the proofs'
    depth and the line follow the split's proofs: docs/solve.md, "Splitting
    df-pn").  ``time``: None or seconds (then the result of what was
    completed).  ``tt_bits``: the transposition table holds ``2**tt_bits``
    entries (10..28; df-pn's of 24 bytes, 2**20 for None; the bounded
    solver's of 16 bytes, 2**16 for None, grown between bounds as needed up
    to 2**20; a split bounded solve one table of ``2**tt_bits`` per process,
    2**20 for None; split df-pn one
    per job running at once).  ``progress``: None or a callable given a
    [SolveProgress][katra.api.SolveProgress] before each bound (split: as each task ends;
    df-pn: before each question and every 2**18 nodes, split: as each job
    ends).  ``proof``: None or a text stream: a settled result's
    proof is written to it as it is found (docs/solve.md, "Proof files"; the
    same as [katra.api.write_proof][] gives).  Bad arguments raise
    [katra.ArgumentError][] (a ``ValueError``) or
    [katra.ArgumentTypeError][] naming them.  ``tables``: None or
    Djenon-aboure's endgame tables ([katra.api.load_tables][],
    docs/tables.md), which df-pn and the bounded solver read where a board of
    few seeds comes up (the same result, fewer nodes; no ``proof``, ``jobs``
    or ``executor`` with them).  ``dfpn_table``: None or a file path for
    df-pn's table, kept between solves so that a long one resumes where it
    stopped: read if the file exists (then ``tt_bits`` is the file's, or must
    equal it), written back when df-pn stops, settled or not (the clock, the
    budget, Ctrl-C, [katra.cancel_jobs][]); df-pn in one thread only (no
    ``max_plies``, ``jobs`` or ``executor``; docs/solve.md, "Resuming a long
    solve").  Ctrl-C and [katra.cancel_jobs][] stop it.

    ```pycon
    >>> r = solve("katro-4x4", exact=True)
    >>> r.describe(), r.best_move, len(r.pv)
    ('South wins in 17 plies', 'b1', 17)

    ```
    """
    pos = load_position(position, "core")
    plies = check_max_plies(max_plies)
    seconds = check_time(time)
    bits = check_tt_bits(tt_bits)
    budget = check_nodes(nodes)
    if not isinstance(exact, bool):
        raise ArgumentTypeError(f"exact must be a bool, not {type(exact).__name__}")
    if exact and plies is not None:
        raise ArgumentError("exact asks for the distance after df-pn's proof: give it without "
                            "max_plies (the bounded solver's distance is exact already)")
    if progress is not None and not callable(progress):
        raise ArgumentTypeError(f"progress must be None or a callable, "
                                f"not {type(progress).__name__}")
    if proof is not None and not callable(getattr(proof, "write", None)):
        raise ArgumentTypeError(f"proof must be None or a text stream, "
                                f"not {type(proof).__name__}")
    workers = workers_for(jobs, executor)
    check_tables(tables, pos.game_id, proof is not None or workers is not None)
    kept = None
    if dfpn_table is not None:
        if plies is not None or workers is not None:
            raise ArgumentError("dfpn_table keeps df-pn's table in one thread: give it "
                                "without max_plies, jobs or executor")
        kept = DfpnTableFile(dfpn_table, pos.game_id, bits)
    if plies is None:
        search: Dfpn | SplitDfpn
        if workers is None:
            search = Dfpn(bits, budget, seconds, progress, tables=tables,
                          table=None if kept is None else kept.load())
        else:
            search = SplitDfpn(workers, bits, budget, seconds, progress,
                               proof=proof is not None and not exact)
        start = _clock.monotonic()
        try:
            result = solve_unbounded(pos, budget, seconds, bits, exact, progress, search, workers)
            if proof is not None and result.outcome is not None:
                write_proof(proof, pos, result, tt_bits=bits,
                            search=search.local if isinstance(search, SplitDfpn) else search)
        finally:
            if kept is not None:      # what df-pn found, whatever stopped it
                kept.save(search.nodes, _clock.monotonic() - start)
        return result
    if budget is not None:
        raise ArgumentError("nodes is df-pn's budget: give it without max_plies")
    solver = (Solver(bits, tables=tables)
              if (proof is not None or tables is not None) and workers is None else None)
    result = solve_position(pos, plies, seconds, bits, workers, progress, solver)
    if proof is not None and result.outcome is not None:
        write_proof(proof, pos, result, tt_bits=bits, solver=solver)
    return result


def _result(pos: Any, outcome: str | None, plies: int | None, best: int, pv: list[int],
            nodes: int, start: float, *, max_plies: int | None, timed_out: bool, exact: bool,
            max_nodes: int | None = None) -> SolveResult:
    best = best if outcome is not None else -1
    spec = game_by_id(pos.game_id)
    return SolveResult(
        outcome=outcome, plies=plies if outcome is not None else None, best_action=best,
        best_move=action_text(spec, best) if best >= 0 else "",
        pv=tuple(pv) if outcome is not None else (), nodes=nodes,
        seconds=_clock.monotonic() - start, max_plies=max_plies, to_move=int(pos.to_move),
        timed_out=timed_out, exact=exact, max_nodes=max_nodes)


def solve_unbounded(pos: Any, max_nodes: int | None, seconds: float | None, bits: int | None,
                    exact: bool, progress: Progress | None = None,
                    search: Dfpn | SplitDfpn | None = None,
                    workers: Workers | None = None) -> SolveResult:
    """[solve][katra.solve] without a bound, with checked arguments: df-pn (``search``:
    this one, whose table then holds the proofs; a ``SplitDfpn`` splits it
    over its workers), then with ``exact`` the bounded solver up to the proofs'
    depth (split over ``workers`` if given)."""
    if pos.is_terminal():
        raise ArgumentError(f"cannot solve a finished game: {pos.text()}")
    start = _clock.monotonic()
    if search is None:
        search = Dfpn(bits, max_nodes, seconds, progress)
    settled = search.settle(pos)
    if settled.outcome is None or settled.plies is None:
        return _result(pos, None, None, -1, [], search.nodes, start, max_plies=None,
                       timed_out=settled.timed_out, exact=False, max_nodes=max_nodes)
    if exact:
        left = None if seconds is None else seconds - (_clock.monotonic() - start)
        if left is None or left > 0:
            bound = min(settled.plies, MAX_SOLVE_PLIES)
            if workers is None:
                bounded = solve_here(pos.text(), bound, left, bits, progress=progress)
            else:
                bounded = solve_split(pos, bound, left, bits, workers, progress)
            outcome, distance = value_of(bounded.thresholds, int(pos.to_move))
            if outcome is not None:
                return _result(pos, outcome, distance, bounded.best, bounded.pv,
                               search.nodes + bounded.nodes, start, max_plies=bounded.bound,
                               timed_out=False, exact=True, max_nodes=max_nodes)
    line = search.line(pos, settled.outcome, settled.plies)
    return _result(pos, settled.outcome, settled.plies, line[0] if line else -1, line,
                   search.nodes, start, max_plies=None, timed_out=settled.timed_out,
                   exact=settled.plies == 1,     # the game is not over: no fewer plies do
                   max_nodes=max_nodes)


def solve_position(pos: Any, plies: int, seconds: float | None, bits: int | None,
                   workers: Workers | None, progress: Progress | None = None,
                   solver: Any = None) -> SolveResult:
    """[solve][katra.solve] of a core ``Position`` within ``plies`` plies, with checked
    arguments (workers None: this thread, with ``solver`` if given)."""
    if pos.is_terminal():
        raise ArgumentError(f"cannot solve a finished game: {pos.text()}")
    start = _clock.monotonic()
    if workers is None:
        raw = solve_here(pos.text(), plies, seconds, bits, progress=progress, solver=solver)
    else:
        raw = solve_split(pos, plies, seconds, bits, workers, progress)
    outcome, distance = value_of(raw.thresholds, int(pos.to_move))
    return _result(pos, outcome, distance, raw.best, raw.pv, raw.nodes, start, max_plies=raw.bound,
                   timed_out=raw.timed_out, exact=True)


def solve_split(pos: Any, plies: int, seconds: float | None, bits: int | None,
                workers: Workers, progress: Progress | None) -> Solved:
    """The bounded solver's answer within ``plies``, split over ``workers``."""
    session = uuid.uuid4().hex
    try:
        return SplitSolve(pos, plies, seconds, bits, workers, session, progress).run()
    finally:
        POOL.close(session)     # this process's solvers (threads); workers elsewhere
                                # drop theirs when the next split solve starts
