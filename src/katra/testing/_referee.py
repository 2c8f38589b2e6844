"""katra as the referee of another implementation of the rules (docs/diff.md).

Two ways to find the first position where another implementation goes wrong,
both independent of how that implementation is reached (a subprocess, see
``_programs.py``, or a Python object, see ``compare``):

* [drill_down][katra.testing.drill_down]: compare divide counts with katra's, descend into the
  first move (in action order) whose count differs, and stop at the first
  position, along that path, where the two disagree about the legal moves;
* [walk][katra.testing.walk]: play seeded random games (the playout generator of
  docs/rules.md §6.2) on both sides, comparing the legal moves and the
  position text after every ply.

katra's side is always the compiled core.
"""
from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from katra._display import square_names
from katra._errors import IllegalMoveError
from katra._games import GameSpec, game_by_id
from katra._limits import as_int
from katra._reference.counting import SplitMix64
from katra._text import (
    action_text,
    check_action_range,
    format_position,
    parse_action,
    parse_position,
    plural,
)
from katra.api import State, TraceMismatchError, divide

#: The other side's divide: ``(depth, moves from the start) -> {action: count}``.
DivideFn = Callable[[int, Sequence[str]], dict[int, int]]


class ProgramError(ValueError):
    """The other program failed or answered something unreadable (CLI: one line, status 2)."""


@dataclass
class ProgramFailed(Exception):
    """Raised by a program adapter; the referee adds the position and re-raises a ProgramError."""

    command: str
    problem: str
    output: str = ""
    reproduce: str = ""

    def at(self, position: str, path: Sequence[str]) -> ProgramError:
        after = f" after {' '.join(path)}" if path else ""
        called = f"; called as: {self.reproduce}" if self.reproduce else ""
        printed = f"; it printed: {self.output}" if self.output else ""
        message = (f"the command {self.command!r} {self.problem} at position {position!r}"
                   f"{after}{called}{printed}")
        return ProgramError(message.replace("\n", "\\n"))  # one line, whatever the command


def read_move(spec: GameSpec, token: object) -> int:
    """The action of a move given as move text, an int or a string of digits."""
    if isinstance(token, str) and token.strip().isdigit():
        token = int(token.strip())
    if isinstance(token, str):
        return parse_action(spec, token)
    if as_int(token) is None:
        raise IllegalMoveError(f"a move is a move text or an int action, not "
                               f"{type(token).__name__} {token!r}")
    return check_action_range(spec, token)


def canonical_text(text: str) -> str:
    """A position text written canonically, or the text itself if it does not read."""
    try:
        return format_position(parse_position(text))
    except ValueError:
        return text.strip()


@dataclass(frozen=True)
class Difference:
    """The first place where katra and the other implementation disagree.

    ``kind`` is ``"legal"`` (the legal moves differ at ``position``), ``"text"``
    (after ``move`` is played in ``position`` the two position texts differ) or
    ``"counts"`` (the other side's counts contradict themselves at ``position``).
    ``katra`` and ``other`` are what each side says: the legal moves (kinds
    ``legal``, ``counts``) or the position text after ``move`` (kind ``text``).
    """

    kind: str
    start: str
    path: tuple[str, ...]
    position: str
    katra: tuple[str, ...] | str
    other: tuple[str, ...] | str
    move: str | None = None
    game: int | None = None
    note: str = ""
    #: Kind ``text``: katra's laps of ``move``, one line each (docs/explain.md), the first
    #: lap that touches a square where the two positions differ marked.
    laps: tuple[str, ...] = ()

    @property
    def missing(self) -> tuple[str, ...]:
        """Moves katra lists and the other side does not."""
        if isinstance(self.katra, str) or isinstance(self.other, str):
            return ()
        return tuple(m for m in self.katra if m not in self.other)

    @property
    def extra(self) -> tuple[str, ...]:
        """Moves the other side lists and katra does not."""
        if isinstance(self.katra, str) or isinstance(self.other, str):
            return ()
        return tuple(m for m in self.other if m not in self.katra)

    def headline(self, other_name: str = "the other side") -> str:
        where = f"game {self.game}, " if self.game is not None else ""
        where += f"ply {len(self.path)} from the start"
        if self.kind == "legal":
            return f"katra and {other_name} disagree about the legal moves ({where})"
        if self.kind == "text" and self.move is None:
            return f"{other_name} reads the start position differently ({where})"
        if self.kind == "text":
            return (f"katra and {other_name} disagree about the position after "
                    f"{self.move} ({where})")
        return f"{other_name} contradicts its own counts ({where})"

    def lines(self, other_name: str = "other") -> list[str]:
        """The report, one ``label value`` line each (no board drawing)."""
        width = max(len(other_name), len("reproduce"))

        def row(label: str, value: str) -> str:
            return f"{label.ljust(width)}  {value}"

        def moves(value: tuple[str, ...] | str) -> str:
            if isinstance(value, str):
                return value
            return " ".join(value) if value else "(none: the game is over)"

        out = [row("position", self.position)]
        if self.path or self.game is not None:
            out.insert(0, row("start", self.start))
        path = " ".join(self.path) if self.path else "(none)"
        out.append(row("path", f"{path}   ({plural(len(self.path), 'move')} from the start)"))
        if self.kind == "text" and self.move is not None:
            out.append(row("move", f"{self.move}, played in this position"))
        out += [row("katra", moves(self.katra)), row(other_name, moves(self.other))]
        if self.kind == "legal":
            out.append(row("missing", (" ".join(self.missing) or "-")
                           + f"   (katra has it, {other_name} does not)"))
            out.append(row("extra", (" ".join(self.extra) or "-")
                           + f"   ({other_name} has it, katra does not)"))
        if self.laps:
            out.append(row("laps", f"katra plays {self.move} in {len(self.laps)} "
                                   f"lap{'s' if len(self.laps) > 1 else ''}:"))
            out += [row("", lap) for lap in self.laps]
        if self.note:
            out.append(row("note", self.note))
        return out

    def describe(self, other_name: str = "other") -> str:
        return "\n".join([self.headline(other_name), *self.lines(other_name)])

    def record(self) -> dict[str, Any]:
        """The JSON fields of the difference (``katra diff --json``)."""
        def value(v: tuple[str, ...] | str) -> list[str] | str:
            return v if isinstance(v, str) else list(v)
        return {"kind": self.kind, "position": self.position, "path": list(self.path),
                "katra": value(self.katra), "command": value(self.other),
                "missing": list(self.missing), "extra": list(self.extra), "move": self.move,
                "game": self.game, "start": self.start, "note": self.note or None,
                "laps": list(self.laps)}


def differing_squares(ours: str, theirs: str) -> set[str]:
    """The squares whose seed counts differ between two position texts of one game
    (none if the other text does not read, or is of another game)."""
    try:
        mine, other = parse_position(ours), parse_position(theirs)
    except ValueError:
        return set()
    if mine.spec != other.spec:
        return set()
    names = square_names(mine.spec)
    return {names[i] for i, (a, b) in enumerate(zip(mine.board, other.board, strict=True))
            if a != b}


#: How many laps a report lists at most (a Katra Mpantsaka move can run hundreds).
REPORTED_LAPS = 60


def lap_lines(before: str, action: int, theirs: str) -> tuple[str, ...]:
    """katra's laps of ``action`` from ``before``, one line each; the first lap that lifts,
    sows or captures a square where ``theirs`` differs from katra's result is marked: the
    likeliest place where the other implementation went its own way."""
    try:
        trace = State.from_text(before).explain(action, max_laps=REPORTED_LAPS)
    except (TraceMismatchError, TypeError):
        # katra.testing.compare on a changed reference (the planted-mistake tests patch
        # its rules in-process): the trace cannot be trusted, or not even played.
        return ()
    differ = differing_squares(trace.after.text(), theirs)
    lines: list[str] = []
    for lap in trace.laps:
        touched = sorted({lap.start, *lap.sown, *lap.captured} & differ)
        line = lap.text(sown=True)
        if touched and not any("<-" in earlier for earlier in lines):
            line += f"   <- the first lap that touches {', '.join(touched)}, where the " \
                    "positions differ"
        lines.append(line)
    if trace.total_laps > len(trace.laps):
        lines.append(f"... {trace.total_laps - len(trace.laps)} more laps")
    return tuple(lines)


def _katra_divide(state: State, depth: int) -> dict[int, int]:
    spec = state.game.spec
    return {parse_action(spec, move): count for move, count in divide(state, depth).items()}


def _texts(spec: GameSpec, actions: Iterable[int]) -> tuple[str, ...]:
    return tuple(action_text(spec, a) for a in sorted(actions))


# ---------------------------------------------------------------- divide drill-down

@dataclass
class DrillResult:
    """What [drill_down][katra.testing.drill_down] found."""

    start: str
    depth: int
    katra_nodes: int
    other_nodes: int
    calls: int
    difference: Difference | None
    #: The depth of the other side's call that showed the difference.
    final_depth: int = 0

    @property
    def agree(self) -> bool:
        return self.difference is None


def drill_down(start: str, depth: int, other_divide: DivideFn) -> DrillResult:
    """Compare ``other_divide`` with katra's divide from ``start`` (canonical text).

    Descends into the first move whose count differs, one ply at a time,
    until the legal moves differ (or the other side's counts contradict
    themselves); ``depth >= 1``.
    """
    if depth < 1:
        raise ValueError(f"the depth must be at least 1, got {depth}")
    state = State.from_text(start)
    spec = state.game.spec
    path: list[str] = []
    expected: int | None = None  # the other side's count for this node, one level up
    totals: tuple[int, int] | None = None
    calls = 0
    d = depth
    while True:
        ours = _katra_divide(state, d)
        try:
            theirs = other_divide(d, tuple(path))
        except ProgramFailed as failed:
            raise failed.at(state.text(), path) from None
        calls += 1
        if totals is None:
            totals = (sum(ours.values()), sum(theirs.values()))

        # B023: result() reads this iteration's values; it is only called in a return below
        def result(kind: str, note: str = "") -> DrillResult:
            assert totals is not None  # noqa: B023
            return DrillResult(start, depth, totals[0], totals[1], calls, Difference(  # noqa: B023
                kind, start, tuple(path), state.text(), _texts(spec, ours),  # noqa: B023
                _texts(spec, theirs), note=note), d)  # noqa: B023

        if set(ours) != set(theirs):
            return result("legal")
        wrong = [a for a in sorted(ours) if ours[a] != theirs[a]]
        if expected is not None and sum(theirs.values()) != expected:
            return result("counts", f"one ply up it counted {expected} for {path[-1]} at depth "
                          f"{d + 1}; here its counts at depth {d} add up to "
                          f"{sum(theirs.values())}")
        if not wrong:
            return DrillResult(start, depth, totals[0], totals[1], calls, None, d)
        action = wrong[0]
        if d == 1:  # depth 1 counts each legal move once
            return result("counts", f"at depth 1 it counted {theirs[action]} for "
                          f"{action_text(spec, action)}; a legal move counts 1")
        expected = theirs[action]
        path.append(action_text(spec, action))
        state.push(action)
        d -= 1


# ---------------------------------------------------------------- seeded walks

class WalkSide(Protocol):
    """The other side of a walk: plays from a position text, one move at a time."""

    def start(self, text: str) -> None: ...
    def legal(self) -> list[int]: ...
    def play(self, action: int) -> None: ...
    def text(self) -> str: ...


@dataclass
class WalkResult:
    """What [walk][katra.testing.walk] found; the tallies count the games compared so far."""

    start: str
    games: int
    seed: int
    max_plies: int
    plies: int = 0
    finished: int = 0
    unfinished: int = 0
    difference: Difference | None = None
    moves: list[str] = field(default_factory=list)  # the differing game's moves so far

    @property
    def agree(self) -> bool:
        return self.difference is None


def walk(side: WalkSide, start: str, games: int, seed: int, max_plies: int) -> WalkResult:
    """Play ``games`` seeded random games from ``start`` on katra and on ``side``.

    Game ``k`` draws its moves exactly as game ``k`` of ``katra.playouts(start,
    games, seed=seed, max_plies=max_plies)`` does (docs/rules.md §6.2), so the
    plies of an agreeing walk equal that batch's.  Stops at the first
    difference in the legal moves (which includes one side ending the game
    and not the other) or in the position text after a move.
    """
    result = WalkResult(start, games, seed, max_plies)
    spec = game_by_id(start.split(" ")[0])
    for game in range(games):
        rng = SplitMix64(seed + (game << 32))
        state = State.from_text(start)
        path: list[str] = []

        # B023: differ() reads this game's path; it is only called in a return below
        def differ(kind: str, ours: tuple[str, ...] | str, theirs: tuple[str, ...] | str,
                   position: str, move: str | None = None, laps: tuple[str, ...] = ()
                   ) -> WalkResult:
            result.difference = Difference(kind, start, tuple(path), position, ours,  # noqa: B023
                                           theirs, move=move, game=game,  # noqa: B023
                                           laps=laps)
            result.moves = list(path)  # noqa: B023
            return result

        try:
            side.start(start)
            theirs_text = canonical_text(side.text())
            if theirs_text != start:
                return differ("text", start, theirs_text, start)
            while True:
                legal = state.legal_actions()
                theirs = side.legal()
                if set(legal) != set(theirs):
                    return differ("legal", _texts(spec, legal), _texts(spec, theirs),
                                  state.text())
                if not legal:
                    result.finished += 1
                    break
                if len(path) == max_plies:
                    result.unfinished += 1
                    break
                action = legal[rng.next() % len(legal)]
                before = state.text()
                move = action_text(spec, action)
                state.push(action)
                side.play(action)
                result.plies += 1
                theirs_text = canonical_text(side.text())
                if theirs_text != state.text():
                    return differ("text", state.text(), theirs_text, before, move,
                                  lap_lines(before, action, theirs_text))
                path.append(move)
        except ProgramFailed as failed:
            raise failed.at(state.text(), path) from None
    return result
