"""``str(state)``: the board as text, North at the top, as docs/rules.md §1.1 draws it.

Rows are numbered on the left, columns lettered underneath; Goré marks each
hole's owner after its count (``6n``, ``6s``); games with stores show
North's store above the board and South's below; the last line says who is
to move (or how the game ended) and any pending offer.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from katra._display import PLAYERS

if TYPE_CHECKING:
    from ._state import State


def board_text(state: State) -> str:
    game = state.game
    board = state.board
    owners = state.owners
    show_owners = game.spec.has_owners
    cells = [f"{board[i]}{'sn'[owners[i]]}" if show_owners else str(board[i])
             for i in range(game.holes)]
    width = max(2, max(len(c) for c in cells))
    label = len(str(game.rows))
    lines = []
    if game.has_stores:
        lines.append(f"North store: {state.stores[1]}")
    for row in range(game.rows, 0, -1):
        start = (row - 1) * game.cols
        lines.append(f"{row:>{label}} " + " ".join(c.rjust(width)
                                                  for c in cells[start:start + game.cols]))
    lines.append(" " * (label + 1) + " ".join(chr(ord("a") + c).rjust(width)
                                              for c in range(game.cols)))
    if game.has_stores:
        lines.append(f"South store: {state.stores[0]}")
    outcome = state.outcome()
    if outcome is None:
        status = f"{PLAYERS[state.to_move]} to move"
    elif outcome.winner is None:
        status = f"draw {outcome.scores[0]}-{outcome.scores[1]} ({outcome.reason})"
    else:
        status = (f"{PLAYERS[outcome.winner]} won {outcome.scores[0]}-{outcome.scores[1]} "
                  f"({outcome.reason})")
    if state.pending_offer:
        status += f", offer {','.join(state.pending_offer)} pending"
    lines.append(status)
    return "\n".join(lines)
