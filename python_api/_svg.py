"""``state._repr_svg_()``: the board drawn for notebooks.

Holes are circles with their seed counts, North at the top; in Goré each hole
is tinted by its owner (South light, North dark) and a pending offer is
dashed; the last move's squares (its origin, or the offered squares) are
ringed; stores are boxes on the right (South below, North above); the side to
move is marked by a dot beside its store/row.
"""
from __future__ import annotations

from typing import TYPE_CHECKING
from xml.sax.saxutils import escape

from katra._display import PLAYERS, move_squares, square_names

if TYPE_CHECKING:
    from ._state import State

SOUTH_FILL = "#f3e3c3"
NORTH_FILL = "#9c6b3c"
BOARD_FILL = "#c8955a"
LASTMOVE = "#d62728"


def _last_squares(state: State) -> list[int]:
    """The squares the last move started from (or offered)."""
    return move_squares(state.game.spec, state.peek()) if state.move_stack else []


#: Pixels per hole that :func:`svg` accepts.
SIZES = range(8, 1025)


def svg(state: State, size: int = 48, *, lastmove: bool = True) -> str:
    if isinstance(size, bool) or not isinstance(size, int) or size not in SIZES:
        raise ValueError(f"size must be an int in {SIZES.start}..{SIZES.stop - 1} "
                         f"(pixels per hole), got {size!r}")
    game = state.game
    pos = state._pos
    board, owners, stores = pos.board, pos.owners, pos.stores
    offer = pos.pending_offer
    show_owners = game.spec.has_owners
    margin = size // 2
    store_w = size if game.has_stores else 0
    width = margin * 2 + game.cols * size + (store_w + margin // 2 if store_w else 0)
    height = margin * 2 + game.rows * size
    radius = size * 0.4
    last = set(_last_squares(state)) if lastmove else set()
    font = max(8, size * 0.36)
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
             f'viewBox="0 0 {width} {height}" font-family="sans-serif">',
             f"<title>{escape(state.text())}</title>",
             f'<rect x="0" y="0" width="{width}" height="{height}" rx="{size // 4}" '
             f'fill="{BOARD_FILL}"/>']
    for i in range(game.holes):
        row, col = divmod(i, game.cols)
        cx = margin + col * size + size / 2
        cy = margin + (game.rows - 1 - row) * size + size / 2
        fill = NORTH_FILL if show_owners and owners[i] else SOUTH_FILL
        text_fill = "#ffffff" if show_owners and owners[i] else "#000000"
        stroke = f'stroke="{LASTMOVE}" stroke-width="{size / 12:.1f}"' if i in last \
            else 'stroke="#5a3a1a" stroke-width="1"'
        dash = f' stroke-dasharray="{size / 10:.1f}"' if offer >> i & 1 else ""
        square = square_names(game.spec)[i]
        parts.append(f'<circle cx="{cx:.1f}" cy="{cy:.1f}" r="{radius:.1f}" fill="{fill}" '
                     f'{stroke}{dash}><title>{square}</title></circle>')
        parts.append(f'<text x="{cx:.1f}" y="{cy:.1f}" font-size="{font:.1f}" fill="{text_fill}" '
                     f'text-anchor="middle" dominant-baseline="central">{board[i]}</text>')
    small = max(6, size * 0.22)
    for col in range(game.cols):
        x = margin + col * size + size / 2
        parts.append(f'<text x="{x:.1f}" y="{height - margin / 3:.1f}" '
                     f'font-size="{small:.1f}" text-anchor="middle">{chr(ord("a") + col)}</text>')
    for row in range(game.rows):
        y = margin + (game.rows - 1 - row) * size + size / 2
        parts.append(f'<text x="{margin / 2:.1f}" y="{y:.1f}" '
                     f'font-size="{small:.1f}" text-anchor="middle" '
                     f'dominant-baseline="central">{row + 1}</text>')
    board_right = margin + game.cols * size
    half = game.rows * size / 2
    if store_w:
        x = board_right + margin / 2
        for player, y in ((1, margin), (0, margin + half)):
            parts.append(f'<rect x="{x:.1f}" y="{y + 2:.1f}" width="{store_w:.1f}" '
                         f'height="{half - 4:.1f}" rx="{size / 5:.1f}" '
                         f'fill="{NORTH_FILL if player else SOUTH_FILL}" stroke="#5a3a1a"/>')
            colour = "#ffffff" if player else "#000000"
            parts.append(f'<text x="{x + store_w / 2:.1f}" y="{y + half / 2:.1f}" '
                         f'font-size="{font:.1f}" fill="{colour}" text-anchor="middle" '
                         f'dominant-baseline="central">{stores[player]}</text>')
    if not pos.is_terminal():
        mover = pos.to_move
        y = margin + half * 1.5 if mover == 0 else margin + half * 0.5
        cx = board_right + (store_w + margin if store_w else margin / 2) - margin / 4
        parts.append(f'<circle cx="{cx:.1f}" '
                     f'cy="{y:.1f}" r="{size / 10:.1f}" fill="{LASTMOVE}">'
                     f'<title>{PLAYERS[mover]} to move</title></circle>')
    parts.append("</svg>")
    return "\n".join(parts)
