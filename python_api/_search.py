"""Game-tree search: one call into the compiled core's alpha-beta engine.

The engine (``katra._core.search``) is negamax alpha-beta with iterative
deepening, a transposition table and move ordering, running in C with the GIL
released; docs/engine.md describes the algorithm and the evaluation per game.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from katra import _core
from katra._games import GAMES
from katra._limits import (
    MATE,
    MATE_BOUND,
    MAX_SEARCH_DEPTH,
    MAX_SEARCH_TIME,
    check_int,
    check_seconds,
)
from katra._text import action_text

from ._counting import load_position

__all__ = ["SearchResult", "search", "MATE"]

#: MATE: a won position scores ``MATE - plies`` (plies until the win, from the
#: searched position); a lost one ``-(MATE - plies)``.  MAX_TIME: the longest
#: ``time`` :func:`search` accepts, in seconds (about 11.6 days).
MAX_TIME = MAX_SEARCH_TIME


@dataclass(frozen=True)
class SearchResult:
    """What :func:`search` found.

    ``score`` is from the point of view of the player to move in the searched
    position: evaluation units (docs/engine.md) or, for a proven result,
    ``MATE - plies`` (a win ``plies`` plies away) or ``-(MATE - plies)``.
    ``depth`` is the depth of the last completed iteration, ``nodes`` the
    positions visited, ``pv`` the principal variation (actions, starting with
    ``best_action``), ``best_move`` the text of ``best_action``.
    """

    best_action: int
    score: int
    depth: int
    nodes: int
    pv: tuple[int, ...]
    best_move: str
    seconds: float

    @property
    def is_win(self) -> bool:
        """The player to move has a proven win."""
        return self.score > MATE_BOUND

    @property
    def is_loss(self) -> bool:
        """The player to move has a proven loss (against best play)."""
        return self.score < -MATE_BOUND

    @property
    def nodes_per_second(self) -> float:
        return self.nodes / self.seconds if self.seconds > 0 else float("inf")


def _check_time(time: object) -> float | None:
    """``time`` as a float in ``(0, MAX_TIME]``, or None (katra._limits.check_seconds)."""
    return None if time is None else check_seconds(time, "time", MAX_TIME)


def search(state: Any, depth: int | None = None, time: float | None = None) -> SearchResult:
    """Search ``state`` and return the best action found.

    ``state`` is a :class:`katra.State` (of either backend), a game id or name
    (its start position) or a position text.  ``depth``: ``None`` or an int
    ``1..64`` (plies); ``time``: ``None`` or a real number of seconds with
    ``0 < time <= MAX_TIME`` (10**6); give at least one.  Anything else raises
    ``ValueError`` naming the argument.  With only ``time`` the search deepens until the clock
    runs out (or the result is proven) and keeps the last completed
    iteration.  A finished game raises ``ValueError``.  The state passed in
    is never changed: the engine works on a copy.

    Ctrl-C stops the search within milliseconds with ``KeyboardInterrupt``
    (in the main thread), and :func:`katra.cancel_jobs` with
    :class:`katra.JobCancelled` (in any thread); nothing is returned then
    (docs/api.md, "Stopping long calls").

    >>> r = search("katro-4x4", depth=4)
    >>> r.best_move, r.depth, r.pv[0] == r.best_action
    ('b1', 4, True)
    """
    position = load_position(state, "core")
    if depth is not None:
        check_int(depth, "depth", 1, MAX_SEARCH_DEPTH)
    raw = _core.search(position, depth, _check_time(time))
    spec = GAMES[position.game_id]
    return SearchResult(
        best_action=int(raw["best_action"]),
        score=int(raw["score"]),
        depth=int(raw["depth"]),
        nodes=int(raw["nodes"]),
        pv=tuple(int(a) for a in raw["pv"]),
        best_move=action_text(spec, int(raw["best_action"])),
        seconds=float(raw["seconds"]),
    )
