"""``katra.explain(position, move)``: a move lap by lap (docs/explain.md)."""
from __future__ import annotations

from typing import Any

from ._counting import load_position
from ._state import State
from ._trace import MoveTrace

__all__ = ["explain"]


def explain(position: Any, move: int | str, *, max_laps: int | None = None) -> MoveTrace:
    """The laps of ``move`` played in ``position`` (a [State][katra.State], a position text or
    a game id for its start position), as a [MoveTrace][katra.MoveTrace].

    The laps are played by the pure-Python reference, which reads like the
    rulebook, and checked against the compiled core (the same position after
    the move, the same number of laps).  ``IllegalMoveError`` for a malformed
    or illegal move, as ``push`` gives; ``max_laps``: keep only the first laps
    of a long move (``total_laps`` still counts them all).
    """
    if isinstance(position, State):
        return position.explain(move, max_laps=max_laps)
    state = State.from_text(load_position(position, "core").text())
    return state.explain(move, max_laps=max_laps)
