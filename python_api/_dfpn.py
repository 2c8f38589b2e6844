"""Solving without a bound: df-pn's questions, the value they settle, its line
(docs/solve.md, "Without a bound"; docs/rules.md §6.3).

The compiled core's ``DfpnSolver`` answers one question at a time ("can P
force at least t within some finite number of plies?") with a proof's depth.
A value is settled from proofs only: a win from a proof of the winner's
"win", a draw from proofs of both players' "draw or better".
"""
from __future__ import annotations

import time as _clock
from dataclasses import dataclass
from typing import Any

from katra._games import game_by_id

from ._backends import DfpnSolver
from ._questions import DRAW, WIN, Question, questions_for
from ._solve_pool import Progress, SolveProgress

__all__ = ["Settled", "Dfpn"]

#: Nodes between two looks at the clock and the progress callback (when either is given).
CHUNK_NODES = 1 << 18

#: The budget of a search for a proof lost from the table (the line, the proof file).
AGAIN_NODES = 1 << 24

#: The budgets of the new searches for one proven child among several (the proof
#: file's move at its player's node), each four times the last: every child gets
#: the small budget before any gets a larger one, so that a child where the
#: question does not hold (whose search may spend any budget without settling)
#: does not hold up a sibling that is proven in a few thousand nodes.
AGAIN_BUDGETS = tuple(AGAIN_NODES >> shift for shift in range(12, -1, -2))


@dataclass(frozen=True)
class Settled:
    """What df-pn settled: the ``outcome`` for the player to move (None if
    not settled), ``plies`` (the proofs' depth: an upper bound on the
    distance), and whether the node budget (``out_of_nodes``) or the clock
    (``timed_out``) stopped it."""

    outcome: str | None
    plies: int | None
    out_of_nodes: bool
    timed_out: bool


class Settler:
    """Settles a value from the answers of ``prove`` (one question at a
    time): df-pn in this thread (``Dfpn``), or split over workers
    (``katra.api._dfpn_jobs.SplitDfpn``)."""

    out_of_nodes: bool = False
    timed_out: bool = False

    def prove(self, pos: Any, question: Question) -> int | None:
        """The depth of a proof of ``question`` at ``pos``, or None."""
        raise NotImplementedError

    def settle(self, pos: Any) -> Settled:
        """The value of ``pos`` (unfinished) from proofs: the mover's draw or
        better, then their win or the opponent's draw or better; failing the
        first, the opponent's win.  In the games without stores there are no
        draws (the player left without a move loses: §2.4, §3.4), so a draw or
        better is a win: the mover's win, then the opponent's."""
        mover = int(pos.to_move)
        other = 1 - mover
        if not game_by_id(pos.game_id).has_stores:
            win = self.prove(pos, Question(mover, WIN))
            if win is not None:
                return Settled("win", win, self.out_of_nodes, self.timed_out)
            loss = self.prove(pos, Question(other, WIN))
            outcome = None if loss is None else "loss"
            return Settled(outcome, loss, self.out_of_nodes, self.timed_out)
        outcome, plies = None, None
        hold = self.prove(pos, Question(mover, DRAW))
        if hold is not None:
            win = self.prove(pos, Question(mover, WIN))
            if win is not None:
                outcome, plies = "win", win
            else:
                theirs = self.prove(pos, Question(other, DRAW))
                if theirs is not None:
                    outcome, plies = "draw", max(hold, theirs)
        else:
            loss = self.prove(pos, Question(other, WIN))
            if loss is not None:
                outcome, plies = "loss", loss
        return Settled(outcome, plies, self.out_of_nodes, self.timed_out)


class Dfpn(Settler):
    """One df-pn solve: a ``_core.DfpnSolver`` (its table kept for the line and the
    proof; ``solver``: this one instead of a new one; ``table``: a new one on this
    ``_core.DfpnTable``), a node budget and a clock shared by every question asked."""

    def __init__(self, tt_bits: int | None, max_nodes: int | None = None,
                 time: float | None = None, progress: Progress | None = None,
                 solver: Any = None, tables: Any = None, table: Any = None) -> None:
        if solver is None:
            solver = (DfpnSolver(tt_bits, tables) if table is None
                      else DfpnSolver(None, tables, table))
        self.solver = solver
        self.max_nodes = max_nodes
        self.start = _clock.monotonic()
        self.deadline = None if time is None else self.start + time
        self.progress = progress
        self.out_of_nodes = self.timed_out = False

    @property
    def nodes(self) -> int:
        return int(self.solver.nodes)

    def _left(self) -> int | None:
        """The nodes the budget leaves (None: no budget)."""
        return None if self.max_nodes is None else self.max_nodes - self.nodes

    def prove(self, pos: Any, question: Question) -> int | None:
        """The depth of a proof of ``question`` at ``pos``, or None (disproven, not
        found, or the budget or clock ran out: see out_of_nodes and timed_out)."""
        status, depth = self.solver.lookup(pos, question.player, question.target)
        if status == 1:
            return int(depth)
        chunked = self.deadline is not None or self.progress is not None
        while not (self.out_of_nodes or self.timed_out):
            left = self._left()
            if left is not None and left <= 0:
                self.out_of_nodes = True
                break
            if self.deadline is not None and _clock.monotonic() >= self.deadline:
                self.timed_out = True
                break
            if self.progress is not None:
                self.progress(SolveProgress(0, self.nodes, _clock.monotonic() - self.start,
                                            0, 0, question.text))
            step = CHUNK_NODES if chunked else left
            if step is not None and left is not None:
                step = min(step, left)
            before = self.nodes
            status, depth = self.solver.prove(pos, question.player, question.target, max_nodes=step)
            if status == 1:
                return int(depth)
            if status == 0 or step is None or self.nodes - before < step:
                break          # disproven, or not found (the search ended)
        return None

    def depth(self, pos: Any, question: Question, search: bool = True) -> int | None:
        """A proof's depth of ``question`` at ``pos``: the table's, else (``search``)
        a new search of at most AGAIN_NODES nodes (the entry of a position a proof
        went through may have been replaced: it is found again)."""
        status, depth = self.solver.lookup(pos, question.player, question.target)
        if status == 1:
            return int(depth)
        if not search:
            return None
        status, depth = self.solver.prove(pos, question.player, question.target,
                                          max_nodes=AGAIN_NODES)
        return int(depth) if status == 1 else None

    def first_proven(self, children: list[tuple[int, Any]], question: Question,
                     plies: int) -> int:
        """The index of a child (of ``(action, child)`` pairs) where new searches
        prove ``question`` within ``plies``, or -1: the children searched in
        turn at each of AGAIN_BUDGETS, those settled (disproven, or proven too
        deep) left out of the next round."""
        unsettled = list(range(len(children)))
        for budget in AGAIN_BUDGETS:
            left = []
            for i in unsettled:
                status, depth = self.solver.prove(children[i][1], question.player,
                                                  question.target, max_nodes=budget)
                if status == 1 and depth <= plies:
                    return i
                if status == -1:     # the budget ran out: searched again, with more
                    left.append(i)
            unsettled = left
        return -1

    def line(self, pos: Any, outcome: str, plies: int) -> list[int]:
        """A line of best moves of a settled ``pos`` along the proofs: the
        player a proof is for plays a child of least proof depth, the other a
        child of greatest (the longest resistance within the proof); in a draw
        each player follows their own proof.  At most ``plies`` moves."""
        deciding = questions_for(outcome, int(pos.to_move))[0]
        return self._follow(pos, plies, None if outcome == "draw" else deciding)

    def proof_line(self, pos: Any, question: Question, plies: int) -> list[int]:
        """A line along a proof of ``question`` at ``pos`` (of depth at most
        ``plies``): its player plays a child of least proof depth, the other a
        child of greatest."""
        return self._follow(pos, plies, question)

    def _follow(self, pos: Any, plies: int, question: Question | None) -> list[int]:
        """The moves of line (question None: each player follows their own
        proof of a draw or better)."""
        line: list[int] = []
        pos = pos.copy(stack=False)
        while not pos.is_terminal() and len(line) < plies:
            asked = Question(int(pos.to_move), DRAW) if question is None else question
            action = self.choose(pos, asked)
            if action < 0:
                break
            line.append(action)
            pos.apply(action)
        return line

    def choose(self, pos: Any, question: Question) -> int:
        """At a node of a proof of ``question``: its player's child of least
        depth (from the table; searched only if none is there), the other's
        child of greatest depth (every child is proven); -1 if none is found."""
        mine = int(pos.to_move) == question.player
        children = []
        for action in pos.legal_actions():
            child = pos.copy(stack=False)
            child.apply(action)
            children.append((int(action), child))
        best, best_depth = -1, -1
        for search in ((False, True) if mine else (True,)):
            for action, child in children:
                depth = self.depth(child, question, search)
                if depth is not None and (best < 0 or (depth < best_depth if mine
                                                        else depth > best_depth)):
                    best, best_depth = action, depth
            if best >= 0:
                break
        return best
