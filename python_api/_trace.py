"""A move lap by lap: [MoveTrace][katra.MoveTrace] and [Lap][katra.Lap] (docs/explain.md).

The laps come from the pure-Python reference, which reads like the rulebook
(its lap-watching hook ``Position.apply_watched`` tells a watcher about every
lap as its rules files play it: docs/backends.md),
and are checked against the compiled core: the core's position after the
move must equal the trace's, and its lap count the trace's, or
[TraceMismatchError][katra.api.TraceMismatchError] (a bug in katra, never the caller's fault).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from katra._display import PLAYERS, square_names
from katra._games import GameSpec
from katra._limits import as_int
from katra._reference import CAPTURE, END, RELAY, LapSeen
from katra._reference import Position as ReferencePosition
from katra._text import plural

from ._backends import CorePosition

if TYPE_CHECKING:
    from ._state import State

__all__ = ["Lap", "MoveTrace", "TraceMismatchError", "trace", "DECISIONS"]

#: What a landing decides, in the rulebook's words (docs/rules.md §2.3, §3.3, §4.3, §5.2).
DECISIONS = (END, RELAY, CAPTURE)


class TraceMismatchError(RuntimeError):
    """The reference's trace of a move does not end where the core's move does (a bug)."""


@dataclass(frozen=True)
class Lap:
    """One lap of a move (docs/rules.md §1.2); squares by name, as in move text."""

    #: 1 for the lap that starts the move, then one more per relay or capture.
    number: int
    #: The square whose seeds were lifted.
    start: str
    #: The seeds in hand (a capture's seeds included).
    seeds: int
    #: The squares sown, in order; the last one is the landing square.
    sown: tuple[str, ...]
    #: The square that received the lap's last seed.
    landing: str
    #: What the landing square held before that last seed.
    landing_before: int
    #: ``"end"``, ``"relay"`` or ``"capture"``.
    decision: str
    #: The squares a capture took, in the order taken (``()`` unless a capture):
    #: Katro and Katra Mpantsaka: the opponent's hole whose seeds join the hand;
    #: Goré and Djenon-aboure: the whole chain that goes to the mover's store.
    captured: tuple[str, ...]
    #: The seeds of the captured squares.
    captured_seeds: int
    #: Seed counts in flat index order once this lap's seeds are sown, before the
    #: landing's decision acts (the seeds of the next lap are still on the board).
    board: tuple[int, ...]

    def text(self, *, sown: bool = False) -> str:
        """One line in words: ``lap 3: 5 seeds from c2, lands on a3, which held 2: relay``
        (``sown=True``: the squares sown too)."""
        held = "was empty" if self.landing_before == 0 else f"held {self.landing_before}"
        line = (f"lap {self.number}: {plural(self.seeds, 'seed')} from {self.start}, "
                f"lands on {self.landing}, which {held}: {self.decision}")
        if self.decision == CAPTURE:
            line += f" {', '.join(self.captured)} ({plural(self.captured_seeds, 'seed')})"
        if sown:
            line += f"; sows {' '.join(self.sown)}"
        return line


def _lap(spec: GameSpec, number: int, seen: LapSeen) -> Lap:
    names = square_names(spec)
    return Lap(number, names[seen.start], seen.seeds, tuple(names[h] for h in seen.sown),
               names[seen.landing], seen.landing_before, seen.decision,
               tuple(names[h] for h, _ in seen.captured), sum(n for _, n in seen.captured),
               seen.board)


@dataclass(frozen=True, eq=False)
class MoveTrace:
    """A move lap by lap: what [explain][katra.explain] returns.

    ``before`` and ``after`` are the positions before and after the move (new
    states; ``after`` has the move on its stack); ``laps`` the laps kept, in
    order (all of them unless ``max_laps`` was given); ``total_laps`` how many
    the move has in all (0 for a move that sows nothing: a pass, a Goré offer
    or answer).
    """

    before: State
    after: State
    #: The move as text and as an action number.
    move: str
    action: int
    laps: tuple[Lap, ...]
    total_laps: int

    @property
    def mover(self) -> int:
        """0 (South) or 1 (North): who played the move."""
        return self.before.to_move

    @property
    def complete(self) -> bool:
        """Are all the move's laps in ``laps``?"""
        return len(self.laps) == self.total_laps

    def headline(self) -> str:
        """``South plays c1: 3 laps`` and the like."""
        if not self.total_laps:
            return f"{PLAYERS[self.mover]} plays {self.move}: no sowing"
        direction = ""
        if self.before.game.spec.family == "mpantsaka":
            direction = " (counter-clockwise)" if self.action % 2 == 0 else " (clockwise)"
        return (f"{PLAYERS[self.mover]} plays {self.move}{direction}: "
                f"{plural(self.total_laps, 'lap')}")

    def summary(self) -> str:
        """What the laps not in ``laps`` did, in one line ('' if all are there)."""
        missing = self.total_laps - len(self.laps)
        if missing <= 0:
            return ""
        return (f"... {plural(missing, 'more lap')} not traced (max_laps={len(self.laps)}); "
                f"the move ends on lap {self.total_laps}")

    def text(self) -> str:
        """The move in words: a headline, one line per lap, the position after it."""
        lines = [self.headline(), *(lap.text(sown=True) for lap in self.laps)]
        if self.summary():
            lines.append(self.summary())
        lines.append(f"after: {self.after.text()}")
        return "\n".join(lines)

    def __str__(self) -> str:
        return self.text()

    def __repr__(self) -> str:
        return (f"<MoveTrace {self.before.game.id} {self.move}: {len(self.laps)} of "
                f"{plural(self.total_laps, 'lap')}>")

    def svg(self, lap: int | None = None, size: int = 48) -> str:
        """The move drawn: the board before it with every lap's path as numbered arrows
        and captures marked; ``lap=k``: one frame, the board once lap ``k`` is sown."""
        from ._svg import trace_svg
        return trace_svg(self, lap=lap, size=size)

    def _repr_svg_(self) -> str:
        return self.svg()


def _check_max_laps(max_laps: object) -> int | None:
    if max_laps is None:
        return None
    number = as_int(max_laps)
    if number is None or number < 0:
        raise ValueError(f"max_laps must be None or an int >= 0, got {max_laps!r}")
    return number


def trace(state: State, move: int | str, max_laps: int | None = None) -> MoveTrace:
    """``state.explain(move)``: see [katra.explain][]."""
    keep = _check_max_laps(max_laps)
    action = state.parse_move(move)  # IllegalMoveError, with the legal moves listed
    before = state.copy(stack=False)
    after = before.child(action)
    spec = before.game.spec
    text = before.text()

    laps: list[Lap] = []
    count = 0

    def watch(seen: LapSeen) -> None:
        nonlocal count
        count += 1
        if keep is None or count <= keep:
            laps.append(_lap(spec, count, seen))

    reference = ReferencePosition.from_text(text)
    reference.apply_watched(action, watch)
    core = CorePosition.from_text(text)
    core_laps = core.lap_count(action) if count else 0
    core.apply(action)
    if reference.text() != core.text() or count != core_laps:
        core_end = ("within no lap limit" if core_laps is None
                    else f"after {plural(core_laps, 'lap')}")
        raise TraceMismatchError(
            f"internal error: in {text!r} the move {after.action_text(action)} ends in "
            f"{reference.text()!r} after {plural(count, 'lap')} on the reference but in "
            f"{core.text()!r} {core_end} on the core")
    return MoveTrace(before, after, after.action_text(action), action, tuple(laps), count)
