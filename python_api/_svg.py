"""SVG drawings: ``state.svg()`` (the board, for notebooks) and ``trace.svg()`` (a move lap by
lap, docs/explain.md).

Holes are circles with their seed counts, North at the top, rows numbered on
the left and columns lettered underneath; a thick line parts the two players'
halves (not in Goré, where trades move holes between owners: there each hole
is tinted by its owner instead, South light, North dark, and a pending offer
is dashed); the last move's squares (its origin, or the offered squares) are
ringed in red; labelled stores stand on the right (North's above, South's
below).  Under the board, in words: who is to move (beside a mark in their
tint) or how the game ended, the last move (with Katra Mpantsaka's direction)
and a legend of the marks used.

A trace is drawn on the board before the move: each lap's path is an arrow
through the holes it sows, numbered at its start, captured holes are crossed
out, and the laps are listed in words underneath.  ``lap=k`` draws one frame:
the board once lap ``k``'s seeds are sown, its arrow, its landing ringed.
"""
from __future__ import annotations

import html
from collections.abc import Sequence
from dataclasses import dataclass
from functools import partial
from typing import TYPE_CHECKING

from katra._display import PLAYERS, move_squares, square_names
from katra._games import GORE, MPANTSAKA
from katra._limits import as_int

if TYPE_CHECKING:
    from ._state import State
    from ._trace import Lap, MoveTrace

#: &, < and > as entities (text and titles; xml.sax.saxutils.escape, without the
#: import of urllib that xml.sax costs every program that imports katra).
escape = partial(html.escape, quote=False)

SOUTH_FILL = "#f3e3c3"
NORTH_FILL = "#9c6b3c"
BOARD_FILL = "#c8955a"
LINE = "#5a3a1a"
LASTMOVE = "#d62728"
CAPTURED = "#b00020"
#: Arrow colours of successive laps.
LAP_COLOURS = ("#1f4e9c", "#2e7d32", "#6a1b9a", "#00838f", "#ad5700", "#37474f")
#: A whole-move picture draws the arrows of this many laps at most (frames show any lap).
DRAWN_LAPS = 12

#: Pixels per hole that ``svg`` accepts.
SIZES = range(8, 1025)


def _check_size(size: object) -> int:
    number = as_int(size)
    if number is None or number not in SIZES:
        raise ValueError(f"size must be an int in {SIZES.start}..{SIZES.stop - 1} "
                         f"(pixels per hole), got {size!r}")
    return number


def direction_words(family: str, action: int) -> str:
    """`` (counter-clockwise)`` or `` (clockwise)`` for a Katra Mpantsaka sowing, else ''."""
    if family != MPANTSAKA:
        return ""
    return " (counter-clockwise)" if action % 2 == 0 else " (clockwise)"


@dataclass(frozen=True)
class _Layout:
    """Where things go: the board at (margin, margin), stores on its right, then the
    caption lines under the column letters."""

    rows: int
    cols: int
    size: int
    has_stores: bool
    caption_lines: int
    min_width: float = 0

    @property
    def margin(self) -> int:
        return self.size // 2

    @property
    def store_w(self) -> int:
        return self.size if self.has_stores else 0

    @property
    def board_right(self) -> float:
        return self.margin + self.cols * self.size

    @property
    def line_height(self) -> float:
        return self.small * 1.5

    @property
    def small(self) -> float:
        return max(6, self.size * 0.26)

    @property
    def font(self) -> float:
        return max(8, self.size * 0.36)

    @property
    def width(self) -> float:
        board = self.margin * 2 + self.cols * self.size + (
            self.store_w + self.margin // 2 if self.store_w else 0)
        return max(board, self.min_width)

    @property
    def caption_top(self) -> float:
        return self.margin * 2 + self.rows * self.size

    @property
    def height(self) -> float:
        return self.caption_top + self.caption_lines * self.line_height + (
            self.margin / 2 if self.caption_lines else 0)

    def centre(self, hole: int) -> tuple[float, float]:
        row, col = divmod(hole, self.cols)
        return (self.margin + col * self.size + self.size / 2,
                self.margin + (self.rows - 1 - row) * self.size + self.size / 2)


def _text_width(layout: _Layout, text: str) -> float:
    """A generous estimate of a caption line's width in pixels."""
    return layout.margin + len(text) * layout.small * 0.58


def _open(layout: _Layout, title: str) -> list[str]:
    w, h = f"{layout.width:.0f}", f"{layout.height:.0f}"
    return [f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" '
            f'viewBox="0 0 {w} {h}" font-family="sans-serif">',
            f"<title>{escape(title)}</title>",
            f'<rect x="0" y="0" width="{w}" height="{h}" rx="{layout.size // 4}" '
            f'fill="{BOARD_FILL}"/>']


def _holes(layout: _Layout, spec_holes: int, names: Sequence[str], owners: Sequence[int],
           show_owners: bool, offer: int, rings: dict[int, str]) -> list[str]:
    """The hole circles; ``rings``: hole -> stroke attributes replacing the plain border."""
    parts = []
    radius = layout.size * 0.4
    for i in range(spec_holes):
        cx, cy = layout.centre(i)
        fill = NORTH_FILL if show_owners and owners[i] else SOUTH_FILL
        stroke = rings.get(i, f'stroke="{LINE}" stroke-width="1"')
        dash = f' stroke-dasharray="{layout.size / 10:.1f}"' if offer >> i & 1 else ""
        parts.append(f'<circle cx="{cx:.1f}" cy="{cy:.1f}" r="{radius:.1f}" fill="{fill}" '
                     f'{stroke}{dash}><title>{names[i]}</title></circle>')
    return parts


def _counts(layout: _Layout, board: Sequence[int], owners: Sequence[int],
            show_owners: bool) -> list[str]:
    parts = []
    for i, count in enumerate(board):
        cx, cy = layout.centre(i)
        colour = "#ffffff" if show_owners and owners[i] else "#000000"
        parts.append(f'<text x="{cx:.1f}" y="{cy:.1f}" font-size="{layout.font:.1f}" '
                     f'fill="{colour}" text-anchor="middle" '
                     f'dominant-baseline="central">{count}</text>')
    return parts


def _frame(layout: _Layout, gore: bool) -> list[str]:
    """Column letters, row numbers and (not in Goré) the line between the halves."""
    parts = []
    small = max(6, layout.size * 0.22)
    letters_y = layout.margin + layout.rows * layout.size + layout.margin * 2 / 3
    for col in range(layout.cols):
        x = layout.margin + col * layout.size + layout.size / 2
        parts.append(f'<text x="{x:.1f}" y="{letters_y:.1f}" font-size="{small:.1f}" '
                     f'text-anchor="middle">{chr(ord("a") + col)}</text>')
    for row in range(layout.rows):
        y = layout.margin + (layout.rows - 1 - row) * layout.size + layout.size / 2
        parts.append(f'<text x="{layout.margin / 2:.1f}" y="{y:.1f}" font-size="{small:.1f}" '
                     f'text-anchor="middle" dominant-baseline="central">{row + 1}</text>')
    if not gore:
        y = layout.margin + layout.rows * layout.size / 2
        width = max(1.5, layout.size / 16)
        parts.append(f'<line x1="{layout.margin:.1f}" y1="{y:.1f}" x2="{layout.board_right:.1f}" '
                     f'y2="{y:.1f}" stroke="{LINE}" stroke-width="{width:.1f}">'
                     f"<title>the border between North's half and South's</title></line>")
    return parts


def _stores(layout: _Layout, stores: Sequence[int]) -> list[str]:
    parts: list[str] = []
    if not layout.store_w:
        return parts
    half = layout.rows * layout.size / 2
    x = layout.board_right + layout.margin / 2
    label = max(5, layout.size * 0.18)
    for player, y in ((1, layout.margin), (0, layout.margin + half)):
        colour = "#ffffff" if player else "#000000"
        parts.append(f'<rect x="{x:.1f}" y="{y + 2:.1f}" width="{layout.store_w:.1f}" '
                     f'height="{half - 4:.1f}" rx="{layout.size / 5:.1f}" '
                     f'fill="{NORTH_FILL if player else SOUTH_FILL}" stroke="{LINE}">'
                     f"<title>{PLAYERS[player]}'s store</title></rect>")
        parts.append(f'<text x="{x + layout.store_w / 2:.1f}" y="{y + 2 + label:.1f}" '
                     f'font-size="{label:.1f}" fill="{colour}" text-anchor="middle" '
                     f'dominant-baseline="central">{PLAYERS[player]}</text>')
        parts.append(f'<text x="{x + layout.store_w / 2:.1f}" y="{y + half / 2 + label / 2:.1f}" '
                     f'font-size="{layout.font:.1f}" fill="{colour}" text-anchor="middle" '
                     f'dominant-baseline="central">{stores[player]}</text>')
    return parts


def _caption(layout: _Layout, lines: Sequence[tuple[str, str]], indent: float = 0) -> list[str]:
    """Lines of words under the board, each ``(text, colour)``."""
    parts = []
    for k, (text, colour) in enumerate(lines):
        y = layout.caption_top + (k + 0.5) * layout.line_height
        x = layout.margin / 2 + (indent if k == 0 else 0)
        parts.append(f'<text x="{x:.1f}" y="{y:.1f}" font-size="{layout.small:.1f}" '
                     f'fill="{colour}" dominant-baseline="central">{escape(text)}</text>')
    return parts


def _legend_gore(layout: _Layout, line: int) -> list[str]:
    """Goré's owner tints and the dashed offer, as swatches with words."""
    y = layout.caption_top + line * layout.line_height + layout.line_height * 0.2
    side = layout.line_height * 0.6
    x = layout.margin / 2
    parts = []
    for fill, words, dashed in ((SOUTH_FILL, "South's hole", False),
                                (NORTH_FILL, "North's hole", False),
                                (SOUTH_FILL, "offered", True)):
        dash = f' stroke-dasharray="{side / 4:.1f}"' if dashed else ""
        parts.append(f'<rect x="{x:.1f}" y="{y:.1f}" width="{side:.1f}" height="{side:.1f}" '
                     f'fill="{fill}" stroke="{LINE}"{dash}/>')
        parts.append(f'<text x="{x + side * 1.4:.1f}" y="{y + side / 2:.1f}" '
                     f'font-size="{layout.small:.1f}" dominant-baseline="central">{words}</text>')
        x += side * 1.4 + len(words) * layout.small * 0.58 + side
    return parts


def _status_words(state: State) -> str:
    outcome = state.outcome()
    if outcome is None:
        words = f"{PLAYERS[state.to_move]} to move"
        if state.pending_offer:
            words += f" (answer {PLAYERS[1 - state.to_move]}'s offer)"
        return words
    scores = f"{outcome.scores[0]}-{outcome.scores[1]}"
    if outcome.winner is None:
        return f"game over: draw {scores} ({outcome.reason})"
    return f"game over: {PLAYERS[outcome.winner]} won {scores} ({outcome.reason})"


def svg(state: State, size: int = 48, *, lastmove: bool = True) -> str:
    size = _check_size(size)
    game, spec = state.game, state.game.spec
    gore = spec.family == GORE
    lines: list[tuple[str, str]] = [(_status_words(state), "#000000")]
    last = move_squares(spec, state.peek()) if lastmove and state.move_stack else []
    if lastmove and state.move_stack:
        probe = state.copy()
        action = probe.pop()
        lines.append((f"last move: {PLAYERS[probe.to_move]} {state.action_text(action)}"
                      f"{direction_words(spec.family, action)}"
                      + (" (ringed in red)" if last else ""), LASTMOVE))
    legend_line = len(lines) if gore else -1
    if gore:
        lines.append(("", "#000000"))  # the legend's swatches go on this line
    probe_layout = _Layout(game.rows, game.cols, size, game.has_stores, len(lines))
    layout = _Layout(game.rows, game.cols, size, game.has_stores, len(lines),
                     max(_text_width(probe_layout, text) + probe_layout.line_height
                         for text, _ in lines))
    ring = f'stroke="{LASTMOVE}" stroke-width="{size / 12:.1f}"'
    parts = _open(layout, state.text())
    parts += _frame(layout, gore)
    owners = state.owners
    parts += _holes(layout, game.holes, square_names(spec), owners, gore, state._offer_mask,
                    dict.fromkeys(last, ring))
    parts += _counts(layout, state.board, owners, gore)
    parts += _stores(layout, state.stores)
    mark = layout.line_height * 0.3
    if not state.is_terminal():  # the mover's mark, in their tint, before "South to move"
        y = layout.caption_top + layout.line_height / 2
        parts.append(f'<circle cx="{layout.margin / 2 + mark:.1f}" cy="{y:.1f}" r="{mark:.1f}" '
                     f'fill="{NORTH_FILL if state.to_move else SOUTH_FILL}" stroke="{LINE}">'
                     f"<title>{PLAYERS[state.to_move]} to move</title></circle>")
    parts += _caption(layout, lines, indent=3 * mark if not state.is_terminal() else 0)
    if gore:
        parts += _legend_gore(layout, legend_line)
    parts.append("</svg>")
    return "\n".join(parts)


# ---------------------------------------------------------------- traces

def _markers() -> str:
    """One arrowhead per lap colour."""
    heads = "".join(
        f'<marker id="head{k}" viewBox="0 0 10 10" refX="8" refY="5" markerWidth="5" '
        f'markerHeight="5" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" '
        f'fill="{colour}"/></marker>' for k, colour in enumerate(LAP_COLOURS))
    return f"<defs>{heads}</defs>"


def _lap_arrow(layout: _Layout, lap: Lap, holes: dict[str, int], slot: int) -> list[str]:
    """The lap's path from its start through the holes it sows, numbered at the start."""
    k = (lap.number - 1) % len(LAP_COLOURS)
    colour = LAP_COLOURS[k]
    # Off the centres (down and right), so that the counts stay readable; laps apart.
    shift = layout.size * (0.2 + ((slot % 3) - 1) * 0.07)
    points = [layout.centre(holes[lap.start])] + [layout.centre(holes[s]) for s in lap.sown]
    (x0, y0), (x1, y1) = points[-2], points[-1]
    points[-1] = (x0 + (x1 - x0) * 0.8, y0 + (y1 - y0) * 0.8) if len(points) == 2 else (
        x1 - (x1 - x0) * 0.25, y1 - (y1 - y0) * 0.25)  # the head stops short of the landing
    path = " ".join(f"{x + shift:.1f},{y + shift:.1f}" for x, y in points)
    sx, sy = points[0]
    badge = layout.size * 0.15
    bx, by = sx - layout.size * 0.3, sy - layout.size * 0.3
    return [f'<polyline points="{path}" fill="none" stroke="{colour}" '
            f'stroke-width="{max(1.0, layout.size / 16):.1f}" stroke-opacity="0.8" '
            f'stroke-linejoin="round" marker-end="url(#head{k})">'
            f"<title>{escape(lap.text())}</title></polyline>",
            f'<circle cx="{bx:.1f}" cy="{by:.1f}" r="{badge:.1f}" fill="{colour}"/>',
            f'<text x="{bx:.1f}" y="{by:.1f}" font-size="{badge * 1.3:.1f}" fill="#ffffff" '
            f'text-anchor="middle" dominant-baseline="central">{lap.number}</text>']


def _cross(layout: _Layout, hole: int, title: str) -> str:
    cx, cy = layout.centre(hole)
    r = layout.size * 0.3
    return (f'<path d="M{cx - r:.1f},{cy - r:.1f} L{cx + r:.1f},{cy + r:.1f} '
            f'M{cx - r:.1f},{cy + r:.1f} L{cx + r:.1f},{cy - r:.1f}" stroke="{CAPTURED}" '
            f'stroke-width="{max(1.0, layout.size / 16):.1f}" stroke-opacity="0.75">'
            f"<title>{escape(title)}</title></path>")


def trace_svg(trace: MoveTrace, lap: int | None = None, size: int = 48) -> str:
    size = _check_size(size)
    before = trace.before
    game, spec = before.game, before.game.spec
    names = square_names(spec)
    holes = {name: i for i, name in enumerate(names)}
    gore = spec.family == GORE
    if lap is not None:
        number = as_int(lap)
        if number is None or not 1 <= number <= len(trace.laps):
            kept = (f"1..{len(trace.laps)}" if trace.laps else "none: the move sows nothing")
            raise ValueError(f"lap must be an int in {kept}, got {lap!r}")
        lap = number
        shown = [trace.laps[lap - 1]]
        board: Sequence[int] = shown[0].board
        lines = [(f"{trace.headline()}, lap {lap} of {trace.total_laps}", "#000000"),
                 (shown[0].text(), "#000000"), (f"sows {' '.join(shown[0].sown)}", "#000000")]
    else:
        shown = list(trace.laps[:DRAWN_LAPS])
        board = before.board
        lines = [(trace.headline() + " (the board before it)", "#000000")]
        lines += [(one.text(), "#000000") for one in shown]
        if trace.total_laps > len(shown):
            lines.append((f"... laps {len(shown) + 1}-{trace.total_laps} not drawn "
                          "(svg(lap=k) draws any one)", "#000000"))
    probe = _Layout(game.rows, game.cols, size, game.has_stores, len(lines))
    layout = _Layout(game.rows, game.cols, size, game.has_stores, len(lines),
                     max(_text_width(probe, text) for text, _ in lines))
    rings: dict[int, str] = {}
    if lap is None and trace.laps:
        rings[holes[trace.laps[0].start]] = f'stroke="{LASTMOVE}" stroke-width="{size / 12:.1f}"'
    for one in shown if lap is not None else []:
        rings[holes[one.start]] = (f'stroke="{LINE}" stroke-width="{size / 20:.1f}" '
                                   f'stroke-dasharray="{size / 14:.1f}"')
        rings[holes[one.landing]] = f'stroke="{LASTMOVE}" stroke-width="{size / 12:.1f}"'
    parts = _open(layout, f"{before.text()}: {trace.move}")
    parts.append(_markers())
    parts += _frame(layout, gore)
    parts += _holes(layout, game.holes, names, before.owners, gore, 0, rings)
    for slot, one in enumerate(shown):
        parts += _lap_arrow(layout, one, holes, slot)
    parts += _counts(layout, board, before.owners, gore)
    for one in shown:
        for square in one.captured:
            parts.append(_cross(layout, holes[square], f"captured on lap {one.number}"))
    parts += _stores(layout, before.stores)
    parts += _caption(layout, lines)
    parts.append("</svg>")
    return "\n".join(parts)
