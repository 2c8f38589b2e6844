"""Writing proof certificates of solved positions (the format: docs/solve.md).

The writer walks a solver's answers: at each node of the player who forces
the result, one move that still forces it within the plies left; at each
node of the other player, every legal move.  The answers come from the
bounded solver (``katra._core.Solver``, whose table the solve has filled) or
from df-pn (``katra._core.DfpnSolver``: its table's proofs and their depths,
new searches where an entry was lost, and the bounded solver as the exact
last resort).  A subtree already written for the same position and question,
no taller than the plies left, is referred to by its line number instead of
being written again.  Lines go to the file as they are found.  The checker
(``katra.testing.check_proof``) reads the file with the reference backend only.
"""
from __future__ import annotations

from typing import Any, Protocol, TextIO

from katra import _core
from katra._errors import ArgumentError
from katra._games import GAMES
from katra._limits import MAX_SOLVE_PLIES
from katra._recursion import recursion_room
from katra._text import action_text

from ._dfpn import Dfpn
from ._questions import Question, questions_for

__all__ = ["PROOF_HEADER", "write_proof"]

#: The first line of every proof file (the format's version).
PROOF_HEADER = "katra-proof 1"


class _Oracle(Protocol):
    def holds(self, pos: Any, question: Question, plies: int) -> bool:
        """Does ``question`` hold at ``pos`` within ``plies`` plies?"""

    def choose(self, children: list[tuple[int, Any]], question: Question, plies: int) -> int:
        """The index of a child where ``question`` holds within ``plies``, or -1."""


class _Bounded:
    """The bounded solver's answers: the first child in action order that forces."""

    def __init__(self, solver: Any) -> None:
        self.solver = solver

    def holds(self, pos: Any, question: Question, plies: int) -> bool:
        return bool(self.solver.forces(pos, question.player, question.target, plies))

    def choose(self, children: list[tuple[int, Any]], question: Question, plies: int) -> int:
        return next((i for i, (_, child) in enumerate(children)
                     if self.holds(child, question, plies)), -1)


class _Proofs:
    """df-pn's answers: a table proof of depth within the plies left, else a
    new df-pn search, else the bounded solver (exact; made when first needed)."""

    def __init__(self, search: Dfpn, tt_bits: int | None) -> None:
        self.search, self.tt_bits = search, tt_bits
        self.bounded: _Bounded | None = None

    def holds(self, pos: Any, question: Question, plies: int) -> bool:
        for search in (False, True):
            depth = self.search.depth(pos, question, search)
            if depth is not None and depth <= plies:
                return True
        if self.bounded is None:
            self.bounded = _Bounded(_core.Solver(self.tt_bits))
        return self.bounded.holds(pos, question, plies)

    def choose(self, children: list[tuple[int, Any]], question: Question, plies: int) -> int:
        best, least = -1, plies + 1           # the table's shallowest proof first
        for i, (_, child) in enumerate(children):
            depth = self.search.depth(child, question, False)
            if depth is not None and depth < least:
                best, least = i, depth
        if best >= 0:
            return best
        return next((i for i, (_, child) in enumerate(children)
                     if self.holds(child, question, plies)), -1)


class _Writer:
    def __init__(self, out: TextIO, oracle: _Oracle, game_id: str) -> None:
        self.out = out
        self.oracle = oracle
        self.spec = GAMES[game_id]
        self.line = 0
        self.done: dict[tuple[str, Question], tuple[int, int]] = {}  # -> (line, height)

    def emit(self, text: str) -> None:
        self.out.write(text + "\n")
        self.line += 1

    def node(self, pos: Any, question: Question, plies: int, depth: int) -> int:
        """Write the children of pos (where question holds within plies); its height."""
        if pos.is_terminal():
            return 0
        children = []
        for action in pos.legal_actions():
            child = pos.copy(stack=False)
            child.apply(action)
            children.append((int(action), child))
        if pos.to_move == question.player:
            pick = self.oracle.choose(children, question, plies - 1)
            moves = [children[pick]] if pick >= 0 else []
        else:
            moves = children
            if not all(self.oracle.holds(child, question, plies - 1) for _, child in moves):
                moves = []
        if not moves:
            raise RuntimeError(f"the solver found no move for a proven node: {pos.text()}")
        height = 0
        for action, child in moves:
            key = (child.text(), question)
            move = f"{depth + 1} {action_text(self.spec, action)}"
            seen = self.done.get(key)
            if seen is not None and seen[1] <= plies - 1:
                self.emit(f"{move} = {seen[0]}")
                height = max(height, 1 + seen[1])
                continue
            self.emit(move)
            line = self.line
            child_height = self.node(child, question, plies - 1, depth + 1)
            self.done[key] = (line, child_height)
            height = max(height, 1 + child_height)
        return height


def write_proof(out: TextIO, state: Any, result: Any, *, tt_bits: int | None = None,
                solver: Any = None, search: Dfpn | None = None) -> int:
    """Write the proof of ``result`` (a settled :class:`SolveResult` of ``state``) to ``out``.

    An exact result is proven with the bounded solver (``solver``: a
    ``katra._core.Solver`` to reuse, else a fresh one), a df-pn result with
    df-pn (``search``: the solve's, whose table holds its proofs, else a
    fresh one of ``2**tt_bits`` entries).  Returns the number of lines
    written.  ``ArgumentError`` if nothing was settled, or if the proof
    would be deeper than the format's MAX_SOLVE_PLIES plies.
    """
    from ._counting import load_position
    if result.outcome is None or result.plies is None:
        raise ArgumentError("nothing was proven: there is no proof to write")
    if result.plies > MAX_SOLVE_PLIES:
        raise ArgumentError(f"the proof is {result.plies} plies deep: a proof file holds at "
                            f"most {MAX_SOLVE_PLIES}")
    pos = load_position(state, "core")
    oracle: _Oracle
    if result.exact:
        oracle = _Bounded(solver if solver is not None else _core.Solver(tt_bits))
    else:
        oracle = _Proofs(search if search is not None else Dfpn(tt_bits), tt_bits)
    writer = _Writer(out, oracle, pos.game_id)
    writer.emit(PROOF_HEADER)
    writer.emit(f"position {pos.text()}")
    writer.emit(f"claim {result.outcome} {result.plies}")
    with recursion_room(result.plies):
        for question in questions_for(result.outcome, int(pos.to_move)):
            if not oracle.holds(pos, question, result.plies):
                raise RuntimeError("the solver does not confirm its own result")
            writer.emit(f"tree {question.text} {result.plies}")
            writer.node(pos, question, result.plies, 0)
    writer.emit("end")
    return writer.line
