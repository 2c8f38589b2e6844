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

from katra._errors import ArgumentError
from katra._games import game_by_id
from katra._limits import MAX_PROOF_PLIES, MAX_SOLVE_PLIES, bound_text
from katra._text import action_text

from ._backends import Solver
from ._dfpn import Dfpn
from ._questions import Question, questions_for

__all__ = ["PROOF_HEADER", "ProofWriteError", "write_proof", "write_trees"]

#: The first line of every proof file (the format's version).
PROOF_HEADER = "katra-proof 1"


class ProofWriteError(RuntimeError):
    """The proof of a settled result could not be rebuilt from the solver's table
    (an entry lost, and no proof as shallow found again within the limits)."""


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
        if plies > MAX_SOLVE_PLIES:
            return False       # beyond the bounded solver's reach: not confirmed
        if self.bounded is None:
            self.bounded = _Bounded(Solver(self.tt_bits))
        return self.bounded.holds(pos, question, plies)

    def choose(self, children: list[tuple[int, Any]], question: Question, plies: int) -> int:
        best, least = -1, plies + 1           # the table's shallowest proof first
        for i, (_, child) in enumerate(children):
            depth = self.search.depth(child, question, False)
            if depth is not None and depth < least:
                best, least = i, depth
        if best >= 0:
            return best
        found = self.search.first_proven(children, question, plies)  # then new searches
        if found >= 0:
            return found
        return next((i for i, (_, child) in enumerate(children)   # the exact last resort
                     if self.holds(child, question, plies)), -1)


class _Frame:
    """A node of the proof being written: the moves written below it."""

    __slots__ = ("moves", "next", "plies", "depth", "key", "line", "height")

    def __init__(self, moves: list[tuple[int, Any]], plies: int, depth: int,
                 key: tuple[str, Question] | None, line: int) -> None:
        self.moves: list[tuple[int, Any] | None] = list(moves)  # (action, child), None once read
        self.next = 0                # how many of them were written
        self.plies = plies           # the plies left at the node
        self.depth = depth           # its depth in the tree
        self.key = key               # (its text, the question); None: the tree's root
        self.line = line             # the line of the move that reached it
        self.height = 0              # the height of the subtrees written so far


class _Writer:
    """Writes trees depth first with an explicit stack (a frame per ply of the
    current line, so a proof of any depth needs no recursion); ``done``
    remembers each subtree written, for references."""

    def __init__(self, out: TextIO, oracle: _Oracle, game_id: str) -> None:
        self.out = out
        self.oracle = oracle
        self.spec = game_by_id(game_id)
        self.line = 0
        self.done: dict[tuple[str, Question], tuple[int, int]] = {}  # -> (line, height)

    def emit(self, text: str) -> None:
        self.out.write(text + "\n")
        self.line += 1

    def open(self, pos: Any, question: Question, plies: int, depth: int,
             key: tuple[str, Question] | None, line: int) -> _Frame:
        """The frame of pos (unfinished, where question holds within plies): the
        player's move that keeps it, or every move of the other player."""
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
            raise ProofWriteError(
                f"cannot write the proof: no move confirms {question.text} within {plies} "
                f"plies at {pos.text()} (the table lost the proofs below it and new searches "
                f"found none as shallow; the bounded solver confirms at most "
                f"{MAX_SOLVE_PLIES} plies): try a larger tt_bits")
        return _Frame(moves, plies, depth, key, line)

    def tree(self, pos: Any, question: Question, plies: int) -> int:
        """Write the moves of the tree of question within plies at pos; its height."""
        stack = [self.open(pos, question, plies, 0, None, self.line)]
        while True:
            top = stack[-1]
            if top.next == len(top.moves):           # the node's subtree is written
                stack.pop()
                if not stack:
                    return top.height
                if top.key is not None:
                    self.done[top.key] = (top.line, top.height)
                stack[-1].height = max(stack[-1].height, 1 + top.height)
                continue
            move = top.moves[top.next]
            assert move is not None
            top.moves[top.next] = None               # the child is not kept once written
            top.next += 1
            action, child = move
            key = (child.text(), question)
            text = f"{top.depth + 1} {action_text(self.spec, action)}"
            seen = self.done.get(key)
            if seen is not None and seen[1] <= top.plies - 1:
                self.emit(f"{text} = {seen[0]}")
                top.height = max(top.height, 1 + seen[1])
                continue
            self.emit(text)
            if child.is_terminal():
                self.done[key] = (self.line, 0)
                top.height = max(top.height, 1)
                continue
            stack.append(self.open(child, question, top.plies - 1, top.depth + 1, key, self.line))


def write_proof(out: TextIO, state: Any, result: Any, *, tt_bits: int | None = None,
                solver: Any = None, search: Dfpn | None = None) -> int:
    """Write the proof of ``result`` (a settled [SolveResult][katra.SolveResult] of
    ``state``) to ``out``.

    An exact result is proven with the bounded solver (``solver``: a
    ``katra._core.Solver`` to reuse, else a fresh one), a df-pn result with
    df-pn (``search``: the solve's, whose table holds its proofs, else a
    fresh one of ``2**tt_bits`` entries).  Returns the number of lines
    written.  ``ArgumentError`` if nothing was settled, or if the proof
    would be deeper than the format's MAX_PROOF_PLIES plies.
    """
    from ._counting import load_position
    if result.outcome is None or result.plies is None:
        raise ArgumentError("nothing was proven: there is no proof to write")
    if result.plies > MAX_PROOF_PLIES:
        raise ArgumentError(f"the proof is {result.plies} plies deep: a proof file holds at "
                            f"most {bound_text(MAX_PROOF_PLIES)}")
    pos = load_position(state, "core")
    oracle: _Oracle
    if result.exact:
        oracle = _Bounded(solver if solver is not None else Solver(tt_bits))
    else:
        oracle = _Proofs(search if search is not None else Dfpn(tt_bits), tt_bits)
    return write_trees(out, oracle, pos, result.outcome, result.plies)


def write_trees(out: TextIO, oracle: _Oracle, pos: Any, outcome: str, plies: int) -> int:
    """The proof file of ``outcome`` within ``plies`` at ``pos`` (a core position) from
    an oracle's answers (``holds``, ``choose``); the number of lines written."""
    writer = _Writer(out, oracle, pos.game_id)
    writer.emit(PROOF_HEADER)
    writer.emit(f"position {pos.text()}")
    writer.emit(f"claim {outcome} {plies}")
    for question in questions_for(outcome, int(pos.to_move)):
        if not oracle.holds(pos, question, plies):
            raise ProofWriteError(f"cannot write the proof: the solver does not confirm "
                                  f"{question.text} within {plies} plies")
        writer.emit(f"tree {question.text} {plies}")
        writer.tree(pos, question, plies)
    writer.emit("end")
    return writer.line
