"""Checking proof certificates with the reference backend only (format: docs/solve.md).

Nothing here uses the compiled core or the solver: every move of the proof
is read, checked legal and played on ``katra._reference``, every finished
game's outcome is read from it, and every node of the defending player must
list all of its legal moves.  A proof that is cut short, altered, or proves
less than it claims is rejected with the number of the first wrong line.

The file is read twice, a line at a time: first for the lines that
references name (only their subtrees are remembered), then to walk the
trees with an explicit stack of one frame per ply of the current line, so a
proof of any depth up to MAX_PROOF_PLIES is checked without recursion and in
memory that grows with its depth and its references, not its length.
"""
from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from katra import _reference
from katra._errors import KatraError
from katra._games import GameSpec, game_by_id
from katra._limits import MAX_PROOF_PLIES, bound_text
from katra._text import action_text, parse_action

__all__ = ["ProofError", "ProofSummary", "check_proof"]

_HEADER = "katra-proof 1"
_OUTCOMES = ("win", "loss", "draw")


class ProofError(KatraError):
    """A proof file that does not prove what it claims (the message names the line)."""


@dataclass(frozen=True)
class ProofSummary:
    """What a checked proof establishes: ``outcome`` for the player to move at
    ``position`` (``"win"``, ``"loss"``, ``"draw"``) within ``plies`` plies;
    ``nodes``: the move lines checked (references included)."""

    position: str
    outcome: str
    plies: int
    nodes: int


def _is_decimal(text: str) -> bool:
    return text.isascii() and text.isdigit()


def _int(text: str, what: str, line: int) -> int:
    if not _is_decimal(text) or (len(text) > 1 and text[0] == "0"):
        raise ProofError(f"line {line}: {what} must be a decimal integer, got {text!r}")
    return int(text)


def _fail(line: int, why: str) -> ProofError:
    return ProofError(f"line {line}: {why}")


class _Lines:
    """The lines of a proof file, read one at a time (numbered from 1)."""

    def __init__(self, lines: Iterator[str]) -> None:
        self.lines = lines
        self.number = 0              # the number of the last line read
        self.ahead: str | None = None

    def peek(self) -> str | None:
        """The next line (None at the end of the file), not consumed."""
        if self.ahead is None:
            raw = next(self.lines, None)
            if raw is None:
                return None
            self.ahead = raw[:-1] if raw.endswith("\n") else raw
        return self.ahead

    def take(self) -> tuple[int, str] | None:
        """The next line and its number (None at the end of the file)."""
        text = self.peek()
        if text is None:
            return None
        self.ahead = None
        self.number += 1
        return self.number, text


class _Frame:
    """A node of the proof being checked: the moves expected below it."""

    __slots__ = ("pos", "legal", "wants", "next", "plies", "depth", "line", "height")

    def __init__(self, pos: _reference.Position, legal: list[int], wants: list[int | None],
                 plies: int, depth: int, line: int) -> None:
        self.pos = pos               # the node
        self.legal = legal           # its legal moves
        self.wants = wants           # the moves to read below it (None: the player's choice)
        self.next = 0                # how many of them were read
        self.plies = plies           # the plies left at the node
        self.depth = depth           # its depth in the tree
        self.line = line             # the line of the move that reached it
        self.height = 0              # the height of the subtrees read so far


class _Checker:
    def __init__(self, lines: _Lines, spec: GameSpec, targets: set[int]) -> None:
        self.lines = lines
        self.spec = spec
        self.targets = targets       # the lines some reference names: their subtrees are kept
        self.subtrees: dict[int, tuple[str, int, int, int]] = {}  # line -> (text, P, t, height)
        self.nodes = 0

    def open(self, pos: _reference.Position, player: int, target: int, plies: int,
             depth: int, line: int) -> _Frame | None:
        """The frame of pos (None if the game is over there, and good for player)."""
        legal = pos.legal_actions()
        if not legal:
            outcome = pos.outcome()
            winner = outcome[0] if outcome is not None else -1
            if not (winner == player or (winner == -1 and target == 0)):
                result = "a draw" if winner == -1 else f"a win for {'SN'[winner]}"
                raise _fail(line, f"the game ends here in {result}, which is not "
                                  f"{'a win' if target else 'a draw or better'} for "
                                  f"{'SN'[player]}")
            return None
        if plies == 0:
            raise _fail(line, "the ply bound is used up and the game is not over")
        wants: list[int | None] = list(legal) if pos.to_move != player else [None]
        return _Frame(pos, list(legal), wants, plies, depth, line)

    def tree(self, root: _reference.Position, player: int, target: int, plies: int,
             line: int) -> None:
        """Check the tree of (player, target) within plies below root (its header at line)."""
        top = self.open(root, player, target, plies, 0, line)
        stack = [top] if top is not None else []
        while stack:
            top = stack[-1]
            if top.next == len(top.wants):        # the node's subtree is complete
                stack.pop()
                if top.line in self.targets and stack:
                    self.subtrees[top.line] = (top.pos.text(), player, target, top.height)
                if stack:
                    stack[-1].height = max(stack[-1].height, 1 + top.height)
                continue
            want = top.wants[top.next]
            top.next += 1
            child, number, reference = self.move(top, want)
            if reference is not None:
                child_height = self.reference(child, player, target, top.plies, number,
                                              reference)
                top.height = max(top.height, 1 + child_height)
                continue
            frame = self.open(child, player, target, top.plies - 1, top.depth + 1, number)
            if frame is not None:
                stack.append(frame)
                continue
            if number in self.targets:
                self.subtrees[number] = (child.text(), player, target, 0)
            top.height = max(top.height, 1)

    def move(self, top: _Frame, want: int | None) -> tuple[_reference.Position, int, int | None]:
        """Read the next move below top: the child it reaches, its line, and the line
        its reference names (None: its subtree follows)."""
        read = self.lines.take()
        if read is None:
            raise _fail(self.lines.number + 1, f"the proof is cut short: a move at depth "
                                               f"{top.depth + 1} is missing")
        number, raw = read
        fields = raw.split(" ")
        if len(fields) not in (2, 4) or (len(fields) == 4 and fields[2] != "="):
            raise _fail(number, f"expected '<depth> <move>' or '<depth> <move> = <line>', "
                                f"got {raw!r}")
        if not _is_decimal(fields[0]) or int(fields[0]) != top.depth + 1:
            raise _fail(number, f"expected a move at depth {top.depth + 1}, got {raw!r}")
        try:
            action = parse_action(self.spec, fields[1])
        except ValueError as exc:
            raise _fail(number, str(exc)) from None
        if action not in top.legal:
            raise _fail(number, f"{fields[1]} is not legal here ({top.pos.text()})")
        if want is not None and action != want:
            raise _fail(number, f"expected {action_text(self.spec, want)}: every legal move "
                                f"of {'SN'[top.pos.to_move]} must be answered, in action order")
        self.nodes += 1
        child = top.pos.copy(stack=False)
        child.apply(action)
        reference = _int(fields[3], "a line reference", number) if len(fields) == 4 else None
        return child, number, reference

    def reference(self, child: _reference.Position, player: int, target: int, plies: int,
                  number: int, target_line: int) -> int:
        """The height of the subtree at target_line, which must prove child's question
        within plies - 1 (else ProofError naming line number)."""
        seen = self.subtrees.get(target_line)
        if seen is None:
            raise _fail(number, f"line {target_line} is not an earlier, complete subtree")
        text, p, t, height = seen
        if text != child.text() or (p, t) != (player, target):
            raise _fail(number, f"line {target_line} proves another position or claim")
        if height > plies - 1:
            raise _fail(number, f"line {target_line}'s subtree needs {height} plies, "
                                f"{plies - 1} are left")
        return height


def _referenced(path: str | Path) -> set[int]:
    """The line numbers that the lines of the file at path refer to (' = <line>')."""
    targets = set()
    with open(path, encoding="utf-8") as lines:
        for raw in lines:
            _head, sep, tail = raw.rstrip("\n").partition(" = ")
            if sep and _is_decimal(tail):
                targets.add(int(tail))
    return targets


def check_proof(path: str | Path) -> ProofSummary:
    """Check the proof in the file at ``path`` with the reference backend only.

    Returns what it proves; raises [ProofError][katra.testing.ProofError] (a ``ValueError``)
    naming the first wrong line of a malformed, cut, altered or insufficient
    proof or of a file that is not text (naming the file then), and
    ``OSError`` if the file cannot be read.
    """
    try:
        targets = _referenced(path)
        with open(path, encoding="utf-8") as stream:
            return _check(_Lines(stream), targets)
    except UnicodeDecodeError as exc:
        raise ProofError(f"{str(path)!r} is not a text file (UTF-8: {exc.reason}): "
                         f"not a katra proof") from None


def _check(lines: _Lines, targets: set[int]) -> ProofSummary:
    header = lines.take()
    if header is None or header[1] != _HEADER:
        raise ProofError(f"line 1: expected {_HEADER!r}: not a katra proof")
    position = lines.take()
    if position is None or not position[1].startswith("position "):
        raise ProofError("line 2: expected 'position <position text>'")
    try:
        root = _reference.Position.from_text(position[1][len("position "):])
    except ValueError as exc:
        raise ProofError(f"line 2: {exc}") from None
    if root.is_terminal():
        raise ProofError("line 2: the position is a finished game")
    claimed = lines.take()
    claim = [] if claimed is None else claimed[1].split(" ")
    if len(claim) != 3 or claim[0] != "claim" or claim[1] not in _OUTCOMES:
        raise ProofError("line 3: expected 'claim win|loss|draw <plies>'")
    plies = _int(claim[2], "the claimed plies", 3)
    if not 1 <= plies <= MAX_PROOF_PLIES:
        raise ProofError(f"line 3: the claimed plies must be in 1..{bound_text(MAX_PROOF_PLIES)}")
    mover, other = root.to_move, 1 - root.to_move
    needed = {"win": [(mover, 1)], "loss": [(other, 1)],
              "draw": [(mover, 0), (other, 0)]}[claim[1]]
    checker = _Checker(lines, game_by_id(root.game_id), targets)
    for player, target in needed:
        want = f"tree {'SN'[player]} {'win' if target else 'draw'} {plies}"
        read = lines.take()
        if read is None:
            raise ProofError(f"line {lines.number + 1}: the proof is cut short: "
                             f"expected {want!r}")
        number, raw = read
        if raw != want:
            raise ProofError(f"line {number}: expected {want!r}, got {raw!r}")
        checker.tree(root.copy(stack=False), player, target, plies, number)
    read = lines.take()
    if read is None:
        raise ProofError(f"line {lines.number + 1}: the proof is cut short: no 'end' line")
    number, raw = read
    if raw != "end":
        raise ProofError(f"line {number}: expected 'end' (the claim's trees are complete), "
                         f"got {raw!r}")
    if lines.peek() is not None:
        raise ProofError(f"line {number + 1}: text after 'end'")
    return ProofSummary(root.text(), claim[1], plies, checker.nodes)
