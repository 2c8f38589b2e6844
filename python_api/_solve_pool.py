"""The bounded solver's calls: in this thread, or split over workers (docs/solve.md).

``solve_here`` runs the compiled core's bounded solver
(``katra._core.Solver``) on one position; ``SplitSolve`` solves the
root's children as tasks (threads, a process pool or a dask client, like
perft: docs/scale.md) and combines their exact thresholds, so the answer is
the same whatever the split.  A process keeps the solvers of a split solve
between its tasks in ``POOL``, over one shared table.
"""
from __future__ import annotations

import threading
import time as _clock
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from katra._errors import ArgumentError

from ._backends import CorePosition, Solver, SolverTable
from ._parallel import Workers, register_task
from ._questions import QUESTIONS, Question, Thresholds, questions_for, value_of

__all__ = ["SolveProgress", "Progress", "Solved", "SolverPool", "POOL", "solve_here",
           "SplitSolve"]


@dataclass(frozen=True)
class SolveProgress:
    """Where a solve stands, for [katra.solve][]'s ``progress`` callback.

    ``bound``: the bound being searched (a split solve: the root's bound, one
    more than its subtrees'; 0 for df-pn); ``nodes``: positions visited so far;
    ``seconds`` since the start; ``subtrees``: the root's distinct children (0
    when the work is not split) and ``proven``: how many of them have a proven
    value; ``question``: df-pn's question being asked (``"S win"``, ``"N
    draw"``: a draw or better), ``""`` for the bounded solver.
    """

    bound: int
    nodes: int
    seconds: float
    subtrees: int
    proven: int
    question: str = ""


#: A progress callback.
Progress = Callable[[SolveProgress], None]


@dataclass(frozen=True)
class Solved:
    """What the bounded solver found for one position: its ``thresholds``,
    the largest ``bound`` completed, whether the clock stopped it, the
    ``nodes`` visited, and (value known) the best action and a line of best
    actions; -1 and ``[]`` otherwise."""

    thresholds: Thresholds
    bound: int
    timed_out: bool
    nodes: int
    best: int = -1
    pv: list[int] = field(default_factory=list)


def _principal_variation(solver: Any, pos: Any, thresholds: Thresholds, bound: int) -> list[int]:
    """Best moves from ``pos`` (value resolved within ``bound``) to the end of the game."""
    line: list[int] = []
    pos = pos.copy(stack=False)
    while not pos.is_terminal() and bound >= 1:
        best = int(solver.best_action(pos, thresholds))
        if best < 0:
            break
        line.append(best)
        pos.apply(best)
        bound -= 1
        if pos.is_terminal() or bound < 1:
            break
        thresholds, _, _ = solver.thresholds(pos, bound)
    return line


class SolverPool:
    """The solvers of one split solve (its session) that this process keeps
    between tasks, all on one transposition table that its threads share
    (``2**tt_bits`` entries, 2**20 for None, never grown): what one task
    proves, the tasks running at once in other threads and the later rounds
    read.  At most one solver per task running at once.  A new session drops
    the old one's solvers and table.

    ``new_table(tt_bits)`` makes the table and ``new_solver(table)`` a solver
    on it: one pool for the bounded solver (``POOL``), one for df-pn's jobs
    (``katra.api._dfpn_jobs.DFPN_POOL``).
    """

    def __init__(self, new_table: Callable[[int | None], Any],
                 new_solver: Callable[[Any], Any]) -> None:
        self.new_table = new_table
        self.new_solver = new_solver
        self.lock = threading.Lock()
        self.session: str | None = None
        self.table: Any = None
        self.free: list[Any] = []

    def acquire(self, session: str, tt_bits: int | None) -> Any:
        with self.lock:
            if session != self.session:
                self.session, self.table, self.free = session, self.new_table(tt_bits), []
            return self.free.pop() if self.free else self.new_solver(self.table)

    def release(self, session: str, solver: Any) -> None:
        with self.lock:
            if session == self.session:
                self.free.append(solver)

    def close(self, session: str) -> Any:
        """Drop the split solve's table and solvers: its table (None: no task of
        that solve ran in this process)."""
        with self.lock:
            if session != self.session:
                return None
            table = self.table
            self.session, self.table, self.free = None, None, []
            return table


#: The bounded solver's pool: its solvers on one ``SolverTable``.
POOL = SolverPool(SolverTable, lambda table: Solver(table=table))


def solve_here(text: str, max_plies: int, time: float | None, tt_bits: int | None,
               known: tuple[Thresholds, int] | None = None, session: str | None = None,
               players: tuple[int, ...] = (0, 1), progress: Progress | None = None,
               solver: Any = None) -> Solved:
    """Solve one position in this thread (a finished position too: its
    thresholds are 0 or never).  ``known``: the thresholds and bound of an
    earlier call on ``text``: only the bounds above it are searched.
    ``session``: reuse this process's solvers of that split solve; ``solver``:
    this one instead (else a fresh one); ``players``: whose questions to ask;
    ``progress``: called before each bound."""
    pos = CorePosition.from_text(text)
    if solver is None:
        solver = POOL.acquire(session, tt_bits) if session else Solver(tt_bits)
    before, start = int(solver.nodes), _clock.monotonic()
    if progress is None:
        thresholds, bound, timed_out = solver.thresholds(pos, max_plies, time, known, players)
    else:
        thresholds, bound, timed_out = _deepen(solver, pos, max_plies, time, known, players,
                                               lambda b: progress(SolveProgress(
                                                   b, int(solver.nodes) - before,
                                                   _clock.monotonic() - start, 0, 0)))
    best, pv = -1, []
    if value_of(thresholds, pos.to_move)[0] is not None:
        best = int(solver.best_action(pos, thresholds))
        pv = _principal_variation(solver, pos, thresholds, bound)
    if session:
        POOL.release(session, solver)
    return Solved(thresholds, bound, bool(timed_out), int(solver.nodes) - before, best, pv)


def _deepen(solver: Any, pos: Any, max_plies: int, time: float | None,
            known: tuple[Thresholds, int] | None, players: tuple[int, ...],
            report: Callable[[int], None]) -> tuple[Thresholds, int, bool]:
    """solver.thresholds one bound at a time (the same search: the table is kept and
    each call resumes where the last stopped), calling report(bound) before each."""
    began = _clock.monotonic()
    unknown: Thresholds = [-1, -1, -1, -1]
    thresholds, bound = known if known is not None else (unknown, 0)
    timed_out = False
    while bound < max_plies and value_of(thresholds, int(pos.to_move))[0] is None:
        report(bound + 1)
        left = None if time is None else time - (_clock.monotonic() - began)
        if left is not None and left <= 0:
            return thresholds, bound, True
        thresholds, bound, timed_out = solver.thresholds(pos, bound + 1, left,
                                                         (thresholds, bound), players)
        if timed_out:
            break
    return thresholds, bound, timed_out


def solve_task(backend: str, text: str, max_plies: int, time: float | None,
               tt_bits: int | None, known: tuple[Thresholds, int] | None,
               session: str, players: tuple[int, ...]) -> Solved:
    """One task of a split solve: solve_here with this process's solvers of the session."""
    if backend != "core":
        raise ArgumentError("solve runs on the core only")
    return solve_here(text, max_plies, time, tt_bits, known, session, players)


register_task("solve", solve_task)


def combine(mover: int, children: list[Thresholds]) -> Thresholds:
    """A position's thresholds from its children's (found within one bound less):
    the mover's questions need one child, the opponent's every child."""
    combined: Thresholds = []
    for question in QUESTIONS:
        values = [child[question.index] for child in children]
        known = [v for v in values if v is not None and v >= 0]
        if question.player == mover:   # the least known child; else open unless all are never
            if known:
                combined.append(1 + min(known))
            else:
                combined.append(None if all(v is None for v in values) else -1)
        elif any(v is None for v in values):
            combined.append(None)
        elif len(known) < len(values):
            combined.append(-1)
        else:
            combined.append(1 + max(known))
    return combined


def _best_from_children(thresholds: Thresholds, mover: int,
                        children: list[tuple[int, Thresholds]]) -> int:
    """The least action whose child keeps the deciding threshold d at exactly d - 1."""
    outcome, _ = value_of(thresholds, mover)
    deciding = questions_for(outcome or "win", mover)[0].index
    target = thresholds[deciding]
    for action, child in children:
        if target is not None and child[deciding] == target - 1:
            return action
    return -1


@dataclass
class _Child:
    """A distinct child position of a split solve's root and what is known of it."""

    text: str
    mover: int
    thresholds: Thresholds = field(default_factory=lambda: [-1, -1, -1, -1])
    bounds: list[int] = field(default_factory=lambda: [0, 0])  # searched, per player
    work: list[int] = field(default_factory=lambda: [0, 0])    # last task's nodes, per player
    pv: list[int] = field(default_factory=list)
    resolved: bool = False


class SplitSolve:
    """The root's children solved as tasks, bound after bound (docs/solve.md).

    In round ``cap`` (the root's bound ``cap + 1``) every open child answers the
    root player's questions at bound ``cap``: the root's answer is the least
    child's.  The opponent's questions need every child, so they are asked in
    batches of one task per worker, and only until a child fails at ``cap``
    (which settles the root's answer at this bound); a child left out resumes
    from its own bound later.  Every threshold stays exact, so the result is
    the single call's.
    """

    def __init__(self, pos: Any, max_plies: int, time: float | None, tt_bits: int | None,
                 workers: Workers, session: str, progress: Progress | None = None) -> None:
        self.start = _clock.monotonic()
        self.progress = progress
        self.bound = 1
        self.max_plies, self.time, self.tt_bits = max_plies, time, tt_bits
        self.workers, self.session = workers, session
        self.mover = int(pos.to_move)
        self.moves: list[tuple[int, str]] = []
        self.children: dict[str, _Child] = {}
        for action in pos.legal_actions():
            child = pos.copy(stack=False)
            child.apply(action)
            text = child.text()
            self.moves.append((int(action), text))
            if text not in self.children:
                self.children[text] = _Child(text, int(child.to_move))
        self.nodes = 0
        self.timed_out = False
        for state in self.children.values():
            if CorePosition.from_text(state.text).is_terminal():
                self._update(state, solve_here(state.text, 1, None, 10), 1, (0,))

    def _update(self, state: _Child, result: Solved, cap: int,
                players: tuple[int, ...]) -> None:
        state.thresholds = result.thresholds
        for player in players:
            state.bounds[player] = cap
            state.work[player] = result.nodes // len(players)
        state.resolved = value_of(state.thresholds, state.mover)[0] is not None
        state.pv = list(result.pv)
        self.nodes += result.nodes
        self.timed_out = self.timed_out or result.timed_out
        self.report()

    def report(self) -> None:
        if self.progress is not None:
            self.progress(SolveProgress(
                self.bound, self.nodes, _clock.monotonic() - self.start, len(self.children),
                sum(c.resolved for c in self.children.values())))

    def _search(self, asked: list[tuple[_Child, tuple[int, ...]]], cap: int) -> None:
        """Tasks: the questions of the players given for each child, at bounds up
        to cap (one task per child: a task's thresholds replace the child's)."""
        left = None if self.time is None else self.time - (_clock.monotonic() - self.start)
        if left is not None and left <= 0:
            self.timed_out = True
            return

        def keep(i: int, result: Solved) -> None:
            self._update(asked[i][0], result, cap, asked[i][1])

        def describe(i: int) -> str:
            return f"solve within {cap} plies of the position {asked[i][0].text!r}"

        self.workers.run("solve", [
            ("core", state.text, cap, left, self.tt_bits,
             (state.thresholds, state.bounds[players[0]]), self.session, players)
            for state, players in asked], keep, describe)

    def _fails_at(self, question: Question, cap: int) -> bool:
        """Some child is known not to satisfy the question at bound cap."""
        return any(c.thresholds[question.index] == -1 and c.bounds[question.player] >= cap
                   and not c.resolved for c in self.children.values())

    def _round(self, cap: int, mine: bool, theirs: list[Question]) -> None:
        """Round cap: the mover's questions of every open child, and the
        opponent's (``theirs``) until some child fails them (or every child
        was asked).  The child likeliest to fail them (one that failed them
        last round) is asked both players' questions in one task of the
        mover's batch, so that a worker does not search a second child for
        the opponent in vain: the opponent's batches follow only if it did
        not fail."""
        mover, other = self.mover, 1 - self.mover
        batch: list[tuple[_Child, tuple[int, ...]]] = [
            (c, (mover,)) for c in self.children.values()
            if mine and not c.resolved and c.bounds[mover] < cap]
        waiting = sorted((c for c in self.children.values()
                          if theirs and not c.resolved and c.bounds[other] < cap),
                         key=lambda c: -c.bounds[other])
        if batch and waiting:
            first = waiting[0]
            mine_too = [i for i, (c, _) in enumerate(batch) if c is first]
            if not mine_too:
                batch.append((first, (other,)))
                waiting.pop(0)
            elif first.bounds[mover] == first.bounds[other]:  # one known bound for both
                batch[mine_too[0]] = (first, (mover, other))
                waiting.pop(0)
        if batch:   # the largest tasks first (as last round's), so that the round ends evenly
            batch.sort(key=lambda task: -sum(task[0].work[p] for p in task[1]))
            self._search(batch, cap)
        while waiting and not all(self._fails_at(q, cap) for q in theirs) \
                and not self.timed_out:
            ask, waiting = waiting[:self.workers.count], waiting[self.workers.count:]
            self._search([(c, (other,)) for c in ask], cap)

    def run(self) -> Solved:
        mover = self.mover
        thresholds: Thresholds = [-1, -1, -1, -1]
        bound, best, pv = 0, -1, []
        for cap in range(self.max_plies):
            self.bound = cap + 1
            self.report()
            open_questions = [q for q in QUESTIONS if thresholds[q.index] == -1]
            if cap:
                self._round(cap, any(q.player == mover for q in open_questions),
                            [q for q in open_questions if q.player != mover])
            if self.timed_out:
                break
            thresholds = combine(mover, [self.children[text].thresholds
                                         for _, text in self.moves])
            bound = cap + 1
            if value_of(thresholds, mover)[0] is not None:
                best = _best_from_children(thresholds, mover, [
                    (action, self.children[text].thresholds) for action, text in self.moves])
                pv = [best, *self.children[dict(self.moves)[best]].pv]
                break
        return Solved(thresholds, bound, self.timed_out, self.nodes, best, pv)
