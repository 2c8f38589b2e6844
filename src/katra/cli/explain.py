"""``katra show GAME_OR_POSITION MOVE --explain``: a move lap by lap in the terminal.

For each lap, one line in words and a compact board as the lap leaves it (its
seeds sown, before the landing's decision acts), with marks that read without
colour: ``o`` the hole lifted, ``+`` a hole sown, ``*`` the landing hole, ``x``
a hole captured.  On a terminal the same holes are coloured too (none when
piped or with ``NO_COLOR``).  Long moves show their first laps and a summary;
``--all`` shows every lap.
"""
from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING

from rich.text import Text

from katra._display import square_names
from katra._games import GORE

from .board import board
from .term import PLAYER_STYLES

if TYPE_CHECKING:
    from katra.api import Lap, MoveTrace

#: Laps shown before the summary, unless --all.
SHOWN_LAPS = 12

#: Mark and style of each kind of hole in a lap's board; a later one wins.
MARKS = {"start": ("o", "underline"), "sown": ("+", "yellow"), "landing": ("*", "bold reverse"),
         "captured": ("x", "bold red strike")}
LEGEND = "marks: o lifted, + sown, * landing hole, x captured"


def lap_board(trace: MoveTrace, lap: Lap) -> Text:
    """The board once ``lap``'s seeds are sown, marked; North at the top."""
    spec = trace.before.game.spec
    rows, cols = spec.rows, spec.cols
    names = square_names(spec)
    kind: dict[str, str] = {lap.start: "start"}
    kind.update(dict.fromkeys(lap.sown, "sown"))
    kind[lap.landing] = "landing"
    kind.update(dict.fromkeys(lap.captured, "captured"))
    width = max(len(str(n)) for n in lap.board) + 1
    out = Text()
    for row in range(rows, 0, -1):
        line = Text(f"  {row:>{len(str(rows))}} ", style="dim")
        for col in range(cols):
            i = (row - 1) * cols + col
            mark, style = MARKS.get(kind.get(names[i], ""), (" ", ""))
            line.append(" ")
            line.append(f"{mark}{lap.board[i]:>{width - 1}}", style=style)
        out.append_text(line)
        out.append("\n")
        if row - 1 == rows // 2 and row > 1 and spec.family != GORE:
            out.append(" " * (len(str(rows)) + 3) + "─" * (cols * (width + 1)) + "\n",
                       style="dim")
    out.append(" " * (len(str(rows)) + 3)
               + "".join(" " + chr(ord("a") + c).rjust(width) for c in range(cols)),
               style="dim")
    return out


def summary(trace: MoveTrace, shown: int) -> str:
    """What the laps after the first ``shown`` did, in one line."""
    rest = trace.laps[shown:]
    decisions = Counter(lap.decision for lap in rest)
    counts = ", ".join(f"{n} {word}{'s' if n > 1 else ''}"
                       for word, n in sorted(decisions.items()))
    last = trace.laps[-1]
    return (f"... {len(rest)} more laps ({counts}): the move ends on lap {last.number} "
            f"in {last.landing} (--all shows every lap)")


def explained(trace: MoveTrace, *, every_lap: bool) -> Text:
    """The whole explanation: the board before, each lap, the board after."""
    mover = trace.mover
    out = board(trace.before, heading=True, legal=False)
    out.append("\n\n")
    out.append(trace.headline(), style=PLAYER_STYLES[mover])
    if trace.laps:
        out.append(f"   ({LEGEND})", style="dim")
    shown = len(trace.laps) if every_lap else min(len(trace.laps), SHOWN_LAPS)
    for lap in trace.laps[:shown]:
        out.append("\n\n")
        out.append(lap.text(), style="bold")
        out.append(f"\n  sows {' '.join(lap.sown)}\n", style="dim")
        out.append_text(lap_board(trace, lap))
    if shown < len(trace.laps):
        out.append("\n\n" + summary(trace, shown))
    out.append("\n\nAfter the move:\n")
    out.append_text(board(trace.after, last=trace.action, position=True))
    return out
