"""Exact solving: proven values and distances (docs/rules.md §6.3, docs/solve.md).

One call into the compiled core's solver (``katra._core.Solver``), or, with
``jobs``/``executor``, the root's children solved as tasks (threads, a
process pool or a dask client, like perft: docs/scale.md) and their exact
thresholds combined, so the answer is the same whatever the split.
"""
from __future__ import annotations

import threading
import time as _clock
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from katra import _core
from katra._errors import ArgumentError, ArgumentTypeError
from katra._games import GAMES
from katra._limits import MAX_SOLVE_PLIES, check_int
from katra._text import action_text

from ._counting import load_position
from ._parallel import Workers, register_task, workers_for
from ._search import _check_time

__all__ = ["MAX_SOLVE_PLIES", "SolveProgress", "SolveResult", "solve"]

#: Index of each predicate in a thresholds list: 2 * player + target.
_DRAW, _WIN = 0, 1

#: Thresholds of a position: least bounds for (South draw-or-better, South win,
#: North draw-or-better, North win); -1: not within the bound searched; None: never.
Thresholds = list[int | None]


@dataclass(frozen=True)
class SolveResult:
    """What :func:`solve` proved, from the side of the player to move (``to_move``: 0 South).

    ``outcome`` is ``"win"``, ``"loss"`` or ``"draw"``, or None when nothing
    is proven within ``max_plies`` (the bound searched: the requested one, or
    less if the clock ran out); ``plies`` is the exact distance
    (docs/rules.md §6.3), None with no result; ``best_action``/``best_move``
    the move that keeps it (-1 / ``""`` with no result) and ``pv`` a line of
    best moves to the end of the game.  ``nodes`` counts positions visited.
    """

    outcome: str | None
    plies: int | None
    best_action: int
    best_move: str
    pv: tuple[int, ...]
    nodes: int
    seconds: float
    max_plies: int
    to_move: int
    timed_out: bool

    def describe(self) -> str:
        """In words: ``"South wins in 17 plies"``, ``"draw in 4 plies"``, ``"not proven ..."``."""
        me = "South" if self.to_move == 0 else "North"
        other = "North" if self.to_move == 0 else "South"
        unit = "ply" if self.plies == 1 else "plies"
        if self.outcome == "win":
            return f"{me} wins in {self.plies} {unit}"
        if self.outcome == "loss":
            return f"{other} wins in {self.plies} {unit}"
        if self.outcome == "draw":
            return f"draw in {self.plies} {unit}"
        return f"no result within {self.max_plies} plies"


@dataclass(frozen=True)
class SolveProgress:
    """Where a solve stands, for :func:`solve`'s ``progress`` callback.

    ``bound``: the bound being searched (a split solve: the root's bound, one
    more than its subtrees'); ``nodes``: positions visited so far; ``seconds``
    since the start; ``subtrees``: the root's distinct children (0 when the
    work is not split) and ``proven``: how many of them have a proven value.
    """

    bound: int
    nodes: int
    seconds: float
    subtrees: int
    proven: int


#: A progress callback.
Progress = Callable[[SolveProgress], None]


def value_of(thresholds: Thresholds, mover: int) -> tuple[str | None, int | None]:
    """(outcome for ``mover``, distance) from a position's thresholds, or (None, None)."""
    other = 1 - mover
    mine_win, theirs_win = thresholds[2 * mover + _WIN], thresholds[2 * other + _WIN]
    mine_draw, theirs_draw = thresholds[2 * mover + _DRAW], thresholds[2 * other + _DRAW]
    if mine_win is not None and mine_win >= 0:
        return "win", mine_win
    if theirs_win is not None and theirs_win >= 0:
        return "loss", theirs_win
    if mine_draw is not None and mine_draw >= 0 and theirs_draw is not None and theirs_draw >= 0:
        return "draw", max(mine_draw, theirs_draw)
    return None, None


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


class _SolverPool:
    """The solvers of one split solve (its session) that this process keeps
    between tasks, all sharing one transposition table (``_core.SolverTable``,
    ``2**tt_bits`` entries, 2**20 for None, never grown): what one task
    proves, the tasks running at once in other threads and the later rounds
    read.  At most one solver per task running at once.  A new session drops
    the old one's solvers and table."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.session: str | None = None
        self.table: Any = None
        self.free: list[Any] = []

    def acquire(self, session: str, tt_bits: int | None) -> Any:
        with self.lock:
            if session != self.session:
                self.session, self.free = session, []
                self.table = _core.SolverTable(tt_bits)
            if self.free:
                return self.free.pop()
            return _core.Solver(table=self.table)

    def release(self, session: str, solver: Any) -> None:
        with self.lock:
            if session == self.session:
                self.free.append(solver)

    def close(self, session: str) -> None:
        with self.lock:
            if session == self.session:
                self.session, self.table, self.free = None, None, []


_POOL = _SolverPool()


def solve_here(text: str, max_plies: int, time: float | None, tt_bits: int | None,
               known: tuple[Thresholds, int] | None = None, session: str | None = None,
               players: tuple[int, ...] = (0, 1), progress: Progress | None = None
               ) -> dict[str, Any]:
    """Solve one position in this thread: thresholds, bound, timed_out, nodes, best, pv
    (a finished position too: its thresholds are 0 or never).  ``known``: the
    thresholds and bound of an earlier call on ``text``: only the bounds above
    it are searched.  ``session``: reuse this process's solvers of that split solve;
    ``players``: whose questions to ask; ``progress``: called before each bound."""
    pos = _core.Position.from_text(text)
    solver = _POOL.acquire(session, tt_bits) if session else _core.Solver(tt_bits)
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
        _POOL.release(session, solver)
    return {"thresholds": thresholds, "bound": bound, "timed_out": timed_out,
            "nodes": int(solver.nodes) - before, "best": best, "pv": pv}


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
               session: str, players: tuple[int, ...]) -> dict[str, Any]:
    """One task of a split solve: solve_here with this process's solvers of the session."""
    if backend != "core":
        raise ArgumentError("solve runs on the core only")
    return solve_here(text, max_plies, time, tt_bits, known, session, players)


register_task("solve", solve_task)


def combine(mover: int, children: list[Thresholds]) -> Thresholds:
    """A position's thresholds from its children's (found within one bound less):
    the mover's predicates need one child, the opponent's every child."""
    combined: Thresholds = []
    for index in range(4):
        values = [child[index] for child in children]
        known = [v for v in values if v is not None and v >= 0]
        if index // 2 == mover:   # the least known child; else open unless all are never
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
    other = 1 - mover
    outcome, _ = value_of(thresholds, mover)
    index = {"win": 2 * mover + _WIN, "loss": 2 * other + _WIN,
             "draw": 2 * mover + _DRAW}[outcome or "win"]
    target = thresholds[index]
    for action, child in children:
        if target is not None and child[index] == target - 1:
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


class _SplitSolve:
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
            if _core.Position.from_text(state.text).is_terminal():
                self._update(state, solve_here(state.text, 1, None, 10), 1, (0,))

    def _update(self, state: _Child, result: dict[str, Any], cap: int,
                players: tuple[int, ...]) -> None:
        state.thresholds = result["thresholds"]
        for player in players:
            state.bounds[player] = cap
            state.work[player] = int(result["nodes"]) // len(players)
        state.resolved = value_of(state.thresholds, state.mover)[0] is not None
        state.pv = list(result["pv"])
        self.nodes += int(result["nodes"])
        self.timed_out = self.timed_out or bool(result["timed_out"])
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

        def keep(i: int, result: dict[str, Any]) -> None:
            self._update(asked[i][0], result, cap, asked[i][1])

        def describe(i: int) -> str:
            return f"solve within {cap} plies of the position {asked[i][0].text!r}"

        self.workers.run("solve", [
            ("core", state.text, cap, left, self.tt_bits,
             (state.thresholds, state.bounds[players[0]]), self.session, players)
            for state, players in asked], keep, describe)

    def _fails_at(self, player: int, question: int, cap: int) -> bool:
        """Some child is known not to satisfy the question at bound cap."""
        index = 2 * player + question
        return any(c.thresholds[index] == -1 and c.bounds[player] >= cap and not c.resolved
                   for c in self.children.values())

    def _round(self, cap: int, mine: bool, theirs: list[int]) -> None:
        """Round cap: the mover's questions of every open child, and the
        opponent's until some child fails them (or every child was asked).
        The child likeliest to fail them (one that failed them last round)
        is asked both players' questions in one task of the mover's batch,
        so that a worker does not search a second child for the opponent
        in vain: the opponent's batches follow only if it did not fail."""
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
        while waiting and not all(self._fails_at(other, q, cap) for q in theirs) \
                and not self.timed_out:
            ask, waiting = waiting[:self.workers.count], waiting[self.workers.count:]
            self._search([(c, (other,)) for c in ask], cap)

    def run(self) -> dict[str, Any]:
        mover, other = self.mover, 1 - self.mover
        thresholds: Thresholds = [-1, -1, -1, -1]
        root: dict[str, Any] = {"thresholds": thresholds, "bound": 0, "best": -1, "pv": []}
        for cap in range(self.max_plies):
            self.bound = cap + 1
            self.report()
            open_questions = [i for i in range(4) if thresholds[i] == -1]
            if cap:
                self._round(cap, any(i // 2 == mover for i in open_questions),
                            [i % 2 for i in open_questions if i // 2 == other])
            if self.timed_out:
                break
            thresholds = combine(mover, [self.children[text].thresholds
                                         for _, text in self.moves])
            root = {"thresholds": thresholds, "bound": cap + 1, "best": -1, "pv": []}
            if value_of(thresholds, mover)[0] is not None:
                best = _best_from_children(thresholds, mover, [
                    (action, self.children[text].thresholds) for action, text in self.moves])
                root["best"] = best
                root["pv"] = [best, *self.children[dict(self.moves)[best]].pv]
                break
        root["timed_out"] = self.timed_out
        return root


def check_max_plies(max_plies: object) -> int:
    """``max_plies`` as an int in 1..MAX_SOLVE_PLIES (None: MAX_SOLVE_PLIES)."""
    if max_plies is None:
        return MAX_SOLVE_PLIES
    return check_int(max_plies, "max_plies", 1, MAX_SOLVE_PLIES)


def check_tt_bits(tt_bits: object) -> int | None:
    if tt_bits is None:
        return None
    return check_int(tt_bits, "tt_bits", 10, 28)


def solve(state: Any, max_plies: int | None = None, *, jobs: int = 1, executor: Any = None,
          time: float | None = None, tt_bits: int | None = None,
          progress: Progress | None = None) -> SolveResult:
    """Prove the value of ``state`` and its distance (docs/rules.md §6.3, docs/solve.md).

    ``state``: a :class:`katra.State`, a game id or name (its start) or a
    position text; it must not be finished.  ``max_plies``: the largest
    bound to search, an int 1..500 (None: 500); ``time``: None or seconds
    (the result is then the last bound completed); ``tt_bits``: the
    transposition table holds ``2**tt_bits`` entries of 24 bytes (10..28;
    None: 2**16 entries, grown between bounds as needed up to 2**20, 24 MiB;
    a split solve: one table per process, shared by its threads, of
    ``2**tt_bits`` entries, 2**20 for None).  ``jobs``/``executor`` split the
    root's children into tasks as :func:`katra.perft` does; the outcome, distance,
    best move and line are the same whatever the split.  ``progress``: None
    or a callable given a :class:`SolveProgress` before each bound (and, when
    the work is split, as each task ends).  Bad
    arguments raise :class:`katra.ArgumentError` (a ``ValueError``) or
    :class:`katra.ArgumentTypeError` naming them; Ctrl-C and
    :func:`katra.cancel_jobs` stop it.

    >>> r = solve("katro-4x4")
    >>> r.describe(), r.best_move, len(r.pv)
    ('South wins in 17 plies', 'b1', 17)
    """
    pos = load_position(state, "core")
    plies = check_max_plies(max_plies)
    seconds = _check_time(time)
    bits = check_tt_bits(tt_bits)
    if progress is not None and not callable(progress):
        raise ArgumentTypeError(f"progress must be None or a callable, "
                                f"not {type(progress).__name__}")
    return solve_position(pos, plies, seconds, bits, workers_for(jobs, executor), progress)


def solve_position(pos: Any, plies: int, seconds: float | None, bits: int | None,
                   workers: Workers | None, progress: Progress | None = None) -> SolveResult:
    """:func:`solve` of a core ``Position`` with checked arguments (workers None: this thread)."""
    if pos.is_terminal():
        raise ArgumentError(f"cannot solve a finished game: {pos.text()}")
    start = _clock.monotonic()
    if workers is None:
        raw = solve_here(pos.text(), plies, seconds, bits, progress=progress)
        nodes = int(raw["nodes"])
    else:
        session = uuid.uuid4().hex
        try:
            split = _SplitSolve(pos, plies, seconds, bits, workers, session, progress)
            raw, nodes = split.run(), split.nodes
        finally:
            _POOL.close(session)    # this process's solvers (threads); workers elsewhere
                                    # drop theirs when the next split solve starts
    mover = int(pos.to_move)
    outcome, distance = value_of(raw["thresholds"], mover)
    best = int(raw["best"]) if outcome is not None else -1
    spec = GAMES[pos.game_id]
    return SolveResult(
        outcome=outcome, plies=distance, best_action=best,
        best_move=action_text(spec, best) if best >= 0 else "",
        pv=tuple(int(a) for a in raw["pv"]), nodes=nodes,
        seconds=_clock.monotonic() - start, max_plies=int(raw["bound"]), to_move=mover,
        timed_out=bool(raw["timed_out"]))
