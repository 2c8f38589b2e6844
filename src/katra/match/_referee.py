"""One game between two seats, refereed by katra's rules (docs/match.md).

Every move is checked against [katra.State][]; the clocks are katra's
own measurements.  A game ends by the rules, by the ply limit (unfinished:
docs/rules.md §6.1), by adjudication of a proven result (``--adjudicate
proven``), or by a fault: an illegal move, a time forfeit, no reply, a crash,
an unreadable line or an ``error`` reply loses the game for the engine that
made it.
"""
from __future__ import annotations

import threading
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ._engine_process import EngineFault, Seat
from ._protocol import GoLimits

if TYPE_CHECKING:
    from katra.api import State

SIDES = ("South", "North")
#: Default seconds past the clock a move may take before it loses on time.
DEFAULT_TIME_MARGIN = 0.05
#: Default seconds a move may take when no clock says (fixed nodes or depth).
DEFAULT_MOVE_TIMEOUT = 60.0
#: Default node budget of the proof search run before each ply by ``--adjudicate proven``.
DEFAULT_ADJUDICATION_NODES = 2000

#: A game's end, besides the forfeits of _engine_process.FAULTS.
RULES, PLY_LIMIT, ADJUDICATION = "rules", "ply limit", "adjudication"


@dataclass(frozen=True)
class TimeControl:
    """What bounds each move: ``base`` seconds per player per game plus ``increment``
    per move (``--tc``), or ``movetime`` seconds per move, and/or a ``nodes`` or
    ``depth`` budget passed in ``go``.  ``margin``: seconds past the clock allowed
    before a time forfeit; ``timeout``: seconds a move may take when no clock applies."""

    base: float | None = None
    increment: float = 0.0
    movetime: float | None = None
    nodes: int | None = None
    depth: int | None = None
    margin: float = DEFAULT_TIME_MARGIN
    timeout: float = DEFAULT_MOVE_TIMEOUT

    def describe(self) -> dict[str, Any]:
        return {"tc": None if self.base is None else [self.base, self.increment],
                "movetime": self.movetime, "nodes": self.nodes, "depth": self.depth,
                "timemargin": self.margin, "timeout": self.timeout}


@dataclass(frozen=True)
class GameResult:
    """How one game ended.  ``result``: ``1-0``, ``0-1``, ``1/2-1/2`` or ``*``
    (unfinished); ``termination``: ``rules``, ``ply limit``, ``adjudication`` or a
    fault kind; ``reason`` in words; ``faulty``: the side (0 South, 1 North) that
    lost by a fault, else None; ``line``: the exact line that lost it (None if no
    line); ``state``: the final position with the game's moves on its stack;
    ``seconds``: the time each side used."""

    result: str
    termination: str
    reason: str
    faulty: int | None
    line: str | None
    state: State
    seconds: tuple[float, float]


def _win_for(side: int) -> str:
    return "1-0" if side == 0 else "0-1"


def _adjudicate(state: State, nodes: int, tables: Any) -> str | None:
    """The result a proof search within ``nodes`` settles from here, else None."""
    from katra.api import solve
    proof = solve(state, nodes=nodes, tables=tables)
    if proof.outcome is None:
        return None
    if proof.outcome == "draw":
        return "1/2-1/2"
    mover = state.to_move
    return _win_for(mover if proof.outcome == "win" else 1 - mover)


def play_game(seats: tuple[Seat, Seat], start: State, control: TimeControl, max_plies: int,
              adjudicate_nodes: int | None = None, tables: Any = None,
              stop: threading.Event | None = None) -> GameResult | None:
    """Play one game from ``start`` (not finished), ``seats[0]`` South.

    Returns None when ``stop`` is set before the game ends (the game is dropped).
    A seat's fault ends the game; the caller restarts that seat.
    """
    from katra._errors import IllegalMoveError
    state = start.copy(stack=False)
    start_text = state.text()
    moves: list[str] = []  # move texts, written only for seats that read them
    texts = any(seat.wants_move_texts for seat in seats)
    plies = 0
    used = [0.0, 0.0]
    left = [control.base, control.base]
    ms = _ms
    timed = control.base is not None or control.movetime is not None
    if control.base is None:  # the same limits every move
        fixed = (GoLimits(nodes=control.nodes, depth=control.depth) if control.movetime is None
                 else GoLimits(movetime=ms(control.movetime), nodes=control.nodes,
                               depth=control.depth))
        fixed_allowed = (control.timeout if control.movetime is None
                         else control.movetime + control.margin)
    for mover, seat in enumerate(seats):
        try:
            seat.new_game()
        except EngineFault as refused:
            return _forfeit(state, mover, refused, used)
    while True:
        if stop is not None and stop.is_set():
            return None
        outcome = state.outcome()
        if outcome is not None:
            return GameResult(outcome.result(), RULES, f"the game ended: {outcome.reason}",
                              None, None, state, (used[0], used[1]))
        if plies >= max_plies:
            return GameResult("*", PLY_LIMIT, f"unfinished at the ply limit ({max_plies})",
                              None, None, state, (used[0], used[1]))
        if adjudicate_nodes is not None:
            settled = _adjudicate(state, adjudicate_nodes, tables)
            if settled is not None:
                return GameResult(settled, ADJUDICATION, f"adjudicated {settled}: a proof "
                                  f"search of {adjudicate_nodes} nodes settled the position",
                                  None, None, state, (used[0], used[1]))
        mover = state.to_move
        clock = left[mover]
        if clock is None:
            limits, allowed = fixed, fixed_allowed
        else:
            limits = GoLimits(stime=ms(left[0] or 0.0), ntime=ms(left[1] or 0.0),
                              sinc=ms(control.increment), ninc=ms(control.increment),
                              nodes=control.nodes, depth=control.depth)
            allowed = clock + control.margin
        try:
            action, word, _, seconds = seats[mover].choose(state, start_text, moves, limits,
                                                           allowed)
        except EngineFault as raised:
            fault = raised
            if fault.kind == "no reply" and timed:
                fault = EngineFault("time forfeit", f"sent no bestmove within {allowed:g} s "
                                    f"(the time left plus the margin)", fault.line)
            used[mover] += allowed if fault.kind == "time forfeit" else 0.0
            return _forfeit(state, mover, fault, used)
        used[mover] += seconds
        if seconds > allowed and timed:
            late = EngineFault("time forfeit", f"took {seconds:.3f} s, more than the "
                               f"{allowed:g} s it had (the time left plus the margin)",
                               f"bestmove {word or action}")
            return _forfeit(state, mover, late, used)
        if clock is not None:
            left[mover] = max(0.0, clock - seconds) + control.increment
        try:
            state.push(action)  # the core checks it is legal
        except IllegalMoveError:
            illegal = EngineFault("illegal move", f"played action {action}, not a legal "
                                  f"move in {state.text()!r}", f"bestmove {word or action}")
            return _forfeit(state, mover, illegal, used)
        plies += 1
        if texts:
            moves.append(state.action_text(action))


def _ms(seconds: float) -> int:
    return max(0, int(seconds * 1000 + 0.5))


def _forfeit(state: State, side: int, fault: EngineFault, used: list[float]) -> GameResult:
    return GameResult(_win_for(1 - side), fault.kind, f"{SIDES[side]} {fault.problem}", side,
                      fault.line, state, (used[0], used[1]))
