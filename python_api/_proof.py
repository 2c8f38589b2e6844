"""Writing proof certificates of solved positions (the format: docs/solve.md).

The writer walks the solver's answers (``katra._core.Solver``, whose
transposition table the solve has filled): at each node of the player who
forces the result, one move that still forces it within the plies left; at
each node of the other player, every legal move.  A subtree already written
for the same position and predicate, no taller than the plies left, is
referred to by its line number instead of being written again.  The checker
(``katra.testing.check_proof``) reads the file with the reference backend only.
"""
from __future__ import annotations

from typing import Any, TextIO

from katra import _core
from katra._errors import ArgumentError
from katra._games import GAMES
from katra._text import action_text

from ._solve import MAX_SOLVE_PLIES, SolveResult

__all__ = ["PROOF_HEADER", "write_proof", "trees_for"]

#: The first line of every proof file (the format's version).
PROOF_HEADER = "katra-proof 1"

_SIDES = ("S", "N")
_TARGETS = ("draw", "win")


def trees_for(outcome: str, mover: int) -> list[tuple[int, int]]:
    """The (player, target) trees a claim needs, in file order (target 0: draw or better)."""
    other = 1 - mover
    return {"win": [(mover, 1)], "loss": [(other, 1)], "draw": [(mover, 0), (other, 0)]}[outcome]


class _Writer:
    def __init__(self, out: TextIO, solver: Any, game_id: str) -> None:
        self.out = out
        self.solver = solver
        self.spec = GAMES[game_id]
        self.line = 0
        self.done: dict[tuple[str, int, int], tuple[int, int]] = {}  # -> (line, height)

    def emit(self, text: str) -> None:
        self.out.write(text + "\n")
        self.line += 1

    def node(self, pos: Any, player: int, target: int, plies: int, depth: int) -> int:
        """Write the children of pos (which the predicate holds at within plies); its height."""
        if pos.is_terminal():
            return 0
        moves = []
        for action in pos.legal_actions():
            child = pos.copy(stack=False)
            child.apply(action)
            if pos.to_move != player:
                moves.append((action, child))
            elif self.solver.forces(child, player, target, plies - 1):
                moves.append((action, child))
                break
        if not moves:
            raise RuntimeError(f"the solver found no move for a proven node: {pos.text()}")
        height = 0
        for action, child in moves:
            key = (child.text(), player, target)
            move = f"{depth + 1} {action_text(self.spec, action)}"
            seen = self.done.get(key)
            if seen is not None and seen[1] <= plies - 1:
                self.emit(f"{move} = {seen[0]}")
                height = max(height, 1 + seen[1])
                continue
            self.emit(move)
            line = self.line
            child_height = self.node(child, player, target, plies - 1, depth + 1)
            self.done[key] = (line, child_height)
            height = max(height, 1 + child_height)
        return height


def write_proof(out: TextIO, state: Any, result: SolveResult, *, tt_bits: int | None = None,
                solver: Any = None) -> int:
    """Write the proof of ``result`` (a proven :class:`SolveResult` of ``state``) to ``out``.

    ``solver``: a ``katra._core.Solver`` to reuse (else a fresh one).  Returns
    the number of lines written.  ``ValueError`` if nothing was proven.
    """
    from katra.testing._proof import recursion_room  # katra.testing imports katra.api

    from ._counting import load_position
    if result.outcome is None or result.plies is None:
        raise ArgumentError("nothing was proven: there is no proof to write")
    pos = load_position(state, "core")
    if solver is None:
        solver = _core.Solver(tt_bits)
    writer = _Writer(out, solver, pos.game_id)
    writer.emit(PROOF_HEADER)
    writer.emit(f"position {pos.text()}")
    writer.emit(f"claim {result.outcome} {result.plies}")
    with recursion_room(min(result.plies, MAX_SOLVE_PLIES)):
        for player, target in trees_for(result.outcome, int(pos.to_move)):
            if not solver.forces(pos, player, target, result.plies):
                raise RuntimeError("the solver does not confirm its own result")
            writer.emit(f"tree {_SIDES[player]} {_TARGETS[target]} {result.plies}")
            writer.node(pos, player, target, result.plies, 0)
    writer.emit("end")
    return writer.line
