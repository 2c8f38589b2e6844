"""The board as the command line draws it: Unicode box drawing, optional colours.

North is at the top, as docs/rules.md §1.1 draws the board.  Rows are numbered on
the left and labelled with their owner and depth on the right, columns are
lettered underneath; a double line separates the two players' halves.  Goré
marks every hole's owner after its count (``6n``, ``6s``), since trades
change owners.  Games with stores show North's store above the board and
South's below.  Colours (South cyan, North magenta, the last move's origin
reversed) appear only on a terminal; the text is the same either way.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from rich.text import Text

from katra._display import END_SENTENCES, PLAYERS, move_squares
from katra._games import DJENON, GORE, MPANTSAKA

from .term import PLAYER_STYLES

if TYPE_CHECKING:
    from katra.api import Outcome, State


def row_labels(state: State) -> list[str]:
    """Owner and depth of each row, bottom row first ('' for Goré: owners are per hole)."""
    game = state.game
    family = game.spec.family
    if family == GORE:
        return [""] * game.rows
    half = game.rows // 2
    if family == DJENON:
        depths = [""]
    elif family == MPANTSAKA:
        depths = [" back", " front"]
    else:
        depths = {1: [""], 2: [" outer", " inner"], 3: [" outer", " middle", " inner"]}[half]
    south = [f"South{d}" for d in depths]
    north = [f"North{d}" for d in reversed(depths)]
    return south + north


def title(game_id: str) -> str:
    """``Katro 4x4 (katro-4x4)``; ``Goré (gore)``."""
    from katra.api import game
    name = game(game_id).name
    return f"{name}, id {game_id}" if "(" in name else f"{name} ({game_id})"


def end_text(state: State, outcome: Outcome) -> str:
    """``North won 20-12: South has no legal move`` and the like."""
    scores = f"{outcome.scores[0]}-{outcome.scores[1]}"
    if outcome.winner is None:
        head = f"Draw {scores}"
    else:
        head = f"{PLAYERS[outcome.winner]} won {scores}"
    why = END_SENTENCES[state.game.spec.family].format(loser=PLAYERS[state.to_move])
    return f"{head}: {why}"


def status_text(state: State, *, legal: bool = True) -> Text:
    """Who is to move (with any pending offer and the legal moves), or how the game ended."""
    outcome = state.outcome()
    if outcome is not None:
        style = "bold" if outcome.winner is None else PLAYER_STYLES[outcome.winner]
        return Text(f"Game over. {end_text(state, outcome)}.", style=style)
    mover = state.to_move
    line = Text(f"{PLAYERS[mover]} to move", style=PLAYER_STYLES[mover])
    if state.pending_offer:
        line.append(f"; {PLAYERS[1 - mover]} offers {','.join(state.pending_offer)}")
    if legal:
        line.append(f"; legal moves: {' '.join(state.legal_moves)}")
    return line


def board(state: State, *, last: int | None = None, heading: bool = False,
          status: bool = True, legal: bool = True, position: bool = False) -> Text:
    """The board drawing, several lines (no trailing newline).

    ``last``: an action just played, whose origin is highlighted (colour only)
    and named under the board; ``heading``: a first line with the game's name;
    ``status``: the side to move or the result; ``legal``: list the legal
    moves in the status line; ``position``: a last line with the position text.
    """
    game = state.game
    rows, cols = game.rows, game.cols
    counts = state.board
    owners = state.owners
    gore = game.spec.family == GORE
    cells = [f"{counts[i]}{'sn'[owners[i]]}" if gore else str(counts[i]) for i in range(game.holes)]
    digits = max(len(c) for c in cells)
    cells = [f" {c.rjust(digits)} " for c in cells]
    width = digits + 2
    label_width = len(str(rows))
    margin = " " * (label_width + 2)
    labels = row_labels(state)
    hot = set(move_squares(state.game.spec, last)) if last is not None else set()

    def rule(left: str, fill: str, mid: str, right: str) -> Text:
        return Text(margin + left + mid.join(fill * width for _ in range(cols)) + right,
                    style="dim")

    out = Text()

    def line(text: Text) -> None:
        if out:
            out.append("\n")
        out.append_text(text)

    if heading:
        line(Text(title(game.id), style="bold"))
    if game.has_stores:
        line(Text(f"North store {state.stores[1]}", style=PLAYER_STYLES[1]))
    line(rule("┌", "─", "┬", "┐"))
    for row in range(rows, 0, -1):
        text = Text(f" {row:>{label_width}} ")
        text.append("│", style="dim")
        for col in range(cols):
            i = (row - 1) * cols + col
            style = "dim" if counts[i] == 0 else PLAYER_STYLES[owners[i]].replace("bold ", "")
            if i in hot:
                style += " reverse"
            text.append(cells[i], style=style)
            text.append("│", style="dim")
        if labels[row - 1]:
            owner = 0 if labels[row - 1].startswith("South") else 1
            text.append(f" {labels[row - 1]}", style=PLAYER_STYLES[owner])
        line(text)
        if row > 1:
            halves = row - 1 == rows // 2 and not gore
            line(rule("╞", "═", "╪", "╡") if halves else rule("├", "─", "┼", "┤"))
    line(rule("└", "─", "┴", "┘"))
    letters = margin + " " + " ".join(chr(ord("a") + c).center(width) for c in range(cols))
    if gore:
        letters += "   (n, s: the hole's owner)"
    line(Text(letters.rstrip(), style="dim"))
    if game.has_stores:
        line(Text(f"South store {state.stores[0]}", style=PLAYER_STYLES[0]))
    if last is not None:
        mover = _mover_of_last(state)
        text = Text("last move: ")
        text.append(f"{PLAYERS[mover]} {state.action_text(last)}", style=PLAYER_STYLES[mover])
        line(text)
    if status:
        line(status_text(state, legal=legal))
    if position:
        line(Text(f"position {state.text()}", style="dim"))
    return out


def _mover_of_last(state: State) -> int:
    """Who played the last move on the state's stack."""
    probe = state.copy()
    probe.pop()
    return probe.to_move
