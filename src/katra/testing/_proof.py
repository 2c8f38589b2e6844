"""Checking proof certificates with the reference backend only (format: docs/solve.md).

Nothing here uses the compiled core or the solver: every move of the proof
is read, checked legal and played on ``katra._reference``, every finished
game's outcome is read from it, and every node of the defending player must
list all of its legal moves.  A proof that is cut short, altered, or proves
less than it claims is rejected with the number of the first wrong line.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from katra import _reference
from katra._errors import KatraError
from katra._games import GAMES
from katra._recursion import recursion_room
from katra._text import action_text, parse_action

__all__ = ["ProofError", "ProofSummary", "check_proof"]

_HEADER = "katra-proof 1"
_SIDES = {"S": 0, "N": 1}
_TARGETS = {"draw": 0, "win": 1}
_OUTCOMES = ("win", "loss", "draw")
_MAX_PLIES = 500


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


def _int(text: str, what: str, line: int) -> int:
    if not text.isdigit() or (len(text) > 1 and text[0] == "0"):
        raise ProofError(f"line {line}: {what} must be a decimal integer, got {text!r}")
    return int(text)


class _Checker:
    def __init__(self, lines: list[str], game_id: str, offset: int) -> None:
        self.lines = lines           # the lines after the header, the first at file line offset + 1
        self.offset = offset
        self.spec = GAMES[game_id]
        self.at = 0                  # index of the next unread line
        self.targets: set[int] = set()
        for raw in lines:            # lines some reference names: remember their subtrees
            _head, sep, tail = raw.partition(" = ")
            if sep and tail.isdigit():
                self.targets.add(int(tail))
        self.subtrees: dict[int, tuple[str, int, int, int]] = {}  # line -> (text, P, t, height)
        self.nodes = 0

    def fail(self, line: int, why: str) -> ProofError:
        return ProofError(f"line {line}: {why}")

    def node(self, pos: _reference.Position, player: int, target: int, plies: int,
             depth: int, line: int) -> int:
        """Check the subtree below pos (read from the next lines); its height."""
        legal = pos.legal_actions()
        if not legal:
            outcome = pos.outcome()
            winner = outcome[0] if outcome is not None else -1
            if not (winner == player or (winner == -1 and target == 0)):
                result = "a draw" if winner == -1 else f"a win for {'SN'[winner]}"
                raise self.fail(line, f"the game ends here in {result}, which is not "
                                      f"{'a win' if target else 'a draw or better'} for "
                                      f"{'SN'[player]}")
            return 0
        if plies == 0:
            raise self.fail(line, "the ply bound is used up and the game is not over")
        mover = pos.to_move
        expected: list[int | None] = list(legal) if mover != player else [None]
        height = 0
        for want in expected:
            if self.at >= len(self.lines):
                raise self.fail(len(self.lines) + 1, f"the proof is cut short: a move at "
                                                     f"depth {depth + 1} is missing")
            raw = self.lines[self.at]
            number = self.at + 1 + self.offset
            fields = raw.split(" ")
            if len(fields) not in (2, 4) or (len(fields) == 4 and fields[2] != "="):
                raise self.fail(number, f"expected '<depth> <move>' or "
                                        f"'<depth> <move> = <line>', got {raw!r}")
            if not fields[0].isdigit() or int(fields[0]) != depth + 1:
                raise self.fail(number, f"expected a move at depth {depth + 1}, got {raw!r}")
            try:
                action = parse_action(self.spec, fields[1])
            except ValueError as exc:
                raise self.fail(number, str(exc)) from None
            if action not in legal:
                raise self.fail(number, f"{fields[1]} is not legal here ({pos.text()})")
            if want is not None and action != want:
                name = action_text(self.spec, want)
                raise self.fail(number, f"expected {name}: every legal move of "
                                        f"{'SN'[mover]} must be answered, in action order")
            self.at += 1
            self.nodes += 1
            child = pos.copy(stack=False)
            child.apply(action)
            if len(fields) == 4:
                target_line = _int(fields[3], "a line reference", number)
                seen = self.subtrees.get(target_line)
                if seen is None:
                    raise self.fail(number, f"line {target_line} is not an earlier, complete "
                                            f"subtree")
                text, p, t, child_height = seen
                if text != child.text() or (p, t) != (player, target):
                    raise self.fail(number, f"line {target_line} proves another position or "
                                            f"claim")
                if child_height > plies - 1:
                    raise self.fail(number, f"line {target_line}'s subtree needs "
                                            f"{child_height} plies, {plies - 1} are left")
            else:
                child_height = self.node(child, player, target, plies - 1, depth + 1, number)
                if number in self.targets:
                    self.subtrees[number] = (child.text(), player, target, child_height)
            height = max(height, 1 + child_height)
        return height


def check_proof(path: str | Path) -> ProofSummary:
    """Check the proof in the file at ``path`` with the reference backend only.

    Returns what it proves; raises :class:`ProofError` (a ``ValueError``)
    naming the first wrong line of a malformed, cut, altered or insufficient
    proof, and ``OSError`` if the file cannot be read.
    """
    text = Path(path).read_text(encoding="utf-8")
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    if not lines or lines[0] != _HEADER:
        raise ProofError(f"line 1: expected {_HEADER!r}: not a katra proof")
    if len(lines) < 3 or not lines[1].startswith("position "):
        raise ProofError("line 2: expected 'position <position text>'")
    try:
        root = _reference.Position.from_text(lines[1][len("position "):])
    except ValueError as exc:
        raise ProofError(f"line 2: {exc}") from None
    if root.is_terminal():
        raise ProofError("line 2: the position is a finished game")
    claim = lines[2].split(" ")
    if len(claim) != 3 or claim[0] != "claim" or claim[1] not in _OUTCOMES:
        raise ProofError("line 3: expected 'claim win|loss|draw <plies>'")
    plies = _int(claim[2], "the claimed plies", 3)
    if not 1 <= plies <= _MAX_PLIES:
        raise ProofError(f"line 3: the claimed plies must be in 1..{_MAX_PLIES}")
    mover, other = root.to_move, 1 - root.to_move
    needed = {"win": [(mover, 1)], "loss": [(other, 1)],
              "draw": [(mover, 0), (other, 0)]}[claim[1]]
    checker = _Checker(lines[3:], root.game_id, 3)
    with recursion_room(plies):
        for player, target in needed:
            number = checker.at + 4
            want = f"tree {'SN'[player]} {'win' if target else 'draw'} {plies}"
            if checker.at >= len(checker.lines):
                raise ProofError(f"line {number}: the proof is cut short: expected {want!r}")
            if checker.lines[checker.at] != want:
                raise ProofError(f"line {number}: expected {want!r}, got "
                                 f"{checker.lines[checker.at]!r}")
            checker.at += 1
            checker.node(root.copy(stack=False), player, target, plies, 0, number)
    number = checker.at + 4
    if checker.at >= len(checker.lines):
        raise ProofError(f"line {number}: the proof is cut short: no 'end' line")
    if checker.lines[checker.at] != "end":
        raise ProofError(f"line {number}: expected 'end' (the claim's trees are complete), "
                         f"got {checker.lines[checker.at]!r}")
    if checker.at + 1 != len(checker.lines):
        raise ProofError(f"line {number + 1}: text after 'end'")
    return ProofSummary(root.text(), claim[1], plies, checker.nodes)
