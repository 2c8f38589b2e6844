"""Game-tree search: the compiled core's alpha-beta engine, one-shot or kept.

The engine (``katra._core.Searcher``) is negamax alpha-beta with iterative
deepening, a transposition table and move ordering, running in C with the GIL
released; docs/engine.md describes the algorithm and the evaluation per game.
[search][katra.search] and [analyse][katra.analyse] make a fresh engine per call; an
[Engine][katra.Engine] keeps its table between calls (a game searched move by move).
"""
from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from katra._games import game_by_id
from katra._limits import (
    MATE,
    MATE_BOUND,
    MAX_TT_BITS,
    check_int,
    check_search_limits,
)
from katra._text import action_text

from ._backends import Searcher, core_search
from ._counting import load_position

__all__ = ["SearchResult", "search", "MATE", "Engine", "analyse", "Analysis", "MoveScore"]

#: MATE: a won position scores ``MATE - plies`` (plies until the win, from the
#: searched position); a lost one ``-(MATE - plies)``.  The longest ``time``
#: [search][katra.search] accepts is katra._limits.MAX_SEARCH_TIME seconds
#: (about 11.6 days).


class _Scored:
    """What a score says, for a search's result and an analysed move: ``score``
    is from the player to move (before the move), ``MATE - plies`` for a win
    ``plies`` plies away, ``-(MATE - plies)`` for a loss."""

    score: int

    @property
    def is_win(self) -> bool:
        """A proven win for the player to move (within the depth searched)."""
        return self.score > MATE_BOUND

    @property
    def is_loss(self) -> bool:
        """A proven loss for the player to move, against best play."""
        return self.score < -MATE_BOUND

    @property
    def plies(self) -> int | None:
        """For a proven win or loss, the plies until the game ends (docs/rules.md
        §6.3's distance, when the depth reached it); else None."""
        return MATE - abs(self.score) if abs(self.score) > MATE_BOUND else None

    def describe(self) -> str:
        """``wins in 17 plies``, ``loses in 1 ply`` or ``score +12``."""
        plies = self.plies
        if plies is None:
            return f"score {self.score:+d}"
        verb = "wins" if self.score > 0 else "loses"
        return f"{verb} in {plies} {'ply' if plies == 1 else 'plies'}"


@dataclass(frozen=True)
class SearchResult(_Scored):
    """What [search][katra.search] found.

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
    def nodes_per_second(self) -> float:
        return self.nodes / self.seconds if self.seconds > 0 else float("inf")


@dataclass(frozen=True)
class MoveScore(_Scored):
    """One legal move of an [Analysis][katra.Analysis] and its exact score at the depth searched.

    ``score`` is from the point of view of the player to move *before* the move,
    like [SearchResult.score][katra.SearchResult.score]: ``MATE - plies`` when this move wins
    ``plies`` plies from the analysed position (the move itself is ply 1),
    ``-(MATE - plies)`` when it loses then against best play, else evaluation
    units.  ``pv`` is the line found, starting with ``action``.
    """

    action: int
    move: str
    score: int
    pv: tuple[int, ...]



@dataclass(frozen=True)
class Analysis:
    """What [analyse][katra.analyse] found: every legal move with its score, best first.

    ``moves`` holds each legal action once, sorted by score (best first) and,
    among equal scores, by action number, so ``moves[0]`` is the move
    [search][katra.search] plays at the same depth, with the same score.  ``depth``,
    ``nodes`` and ``seconds`` are as in [SearchResult][katra.SearchResult] (every move's
    score is from the last completed iteration).  Iterating an Analysis gives
    its moves.
    """

    moves: tuple[MoveScore, ...]
    depth: int
    nodes: int
    seconds: float

    @property
    def best(self) -> MoveScore:
        """The best move (the first)."""
        return self.moves[0]

    def __iter__(self) -> Iterator[MoveScore]:
        return iter(self.moves)

    def __len__(self) -> int:
        return len(self.moves)


def _result(position: Any, raw: dict[str, Any]) -> SearchResult:
    spec = game_by_id(position.game_id)
    return SearchResult(
        best_action=int(raw["best_action"]),
        score=int(raw["score"]),
        depth=int(raw["depth"]),
        nodes=int(raw["nodes"]),
        pv=tuple(int(a) for a in raw["pv"]),
        best_move=action_text(spec, int(raw["best_action"])),
        seconds=float(raw["seconds"]),
    )


def _analysis(position: Any, raw: dict[str, Any]) -> Analysis:
    spec = game_by_id(position.game_id)
    moves = sorted((MoveScore(action=int(a), move=action_text(spec, int(a)), score=int(score),
                              pv=tuple(int(x) for x in pv))
                    for a, score, pv in raw["moves"]),
                   key=lambda m: (-m.score, m.action))
    return Analysis(moves=tuple(moves), depth=int(raw["depth"]), nodes=int(raw["nodes"]),
                    seconds=float(raw["seconds"]))


class Engine:
    """A search engine that keeps its transposition table between calls.

    A game searched move by move (``katra play``, a match between engines)
    finds in the table what the searches of earlier moves stored, so each
    search costs fewer nodes than a fresh one; [search][katra.search] and
    [analyse][katra.analyse] are the same engine made for one call.  The table never
    changes a result at a fixed depth: the score, and the best move (the
    smallest action among the best-scored), are those of a fresh search
    (docs/engine.md, "Keeping the table").

    ``tt_bits``: the table holds ``2**tt_bits`` entries of 16 bytes, ``0..28``
    (``0``: none; ``None``: 20, 16 MiB), allocated once here.  One engine can
    search positions of any game (the table's keys tell the games apart); use
    one per thread (a second thread's call while one runs raises
    ``RuntimeError``).  [clear][katra.Engine.clear] empties the table (as between games).

    ```pycon
    >>> engine = Engine()
    >>> first = engine.search("gore", depth=8)
    >>> again = engine.search("gore", depth=8)     # the table holds the first tree
    >>> (again.best_move, again.score) == (first.best_move, first.score)
    True
    >>> again.nodes < first.nodes
    True

    ```
    """

    def __init__(self, *, tt_bits: int | None = None, tables: Any = None) -> None:
        if tt_bits is not None:
            tt_bits = check_int(tt_bits, "tt_bits", 0, MAX_TT_BITS)
        # tables: None or Djenon-aboure's endgame tables (katra.api.load_tables,
        # docs/tables.md): a value they settle scores as a finished game's
        self._searcher = Searcher(tt_bits, tables)

    @property
    def tt_bits(self) -> int:
        """The table's size: ``2**tt_bits`` entries (0: no table)."""
        return int(self._searcher.tt_bits)

    def clear(self) -> None:
        """Empty the table (nothing else is kept between calls)."""
        self._searcher.clear()

    def search(self, position: Any, depth: int | None = None, time: float | None = None,
               nodes: int | None = None) -> SearchResult:
        """[search][katra.search] with this engine's table (same arguments, same result)."""
        pos, limits = _checked(position, depth, time, nodes)
        return _result(pos, self._searcher.search(pos, *limits))

    def analyse(self, position: Any, *, depth: int | None = None, time: float | None = None,
                nodes: int | None = None) -> Analysis:
        """[analyse][katra.analyse] with this engine's table (same arguments, same result)."""
        pos, limits = _checked(position, depth, time, nodes)
        return _analysis(pos, self._searcher.search(pos, *limits, every_move=True))


def _checked(position: Any, depth: object, time: object,
             nodes: object) -> tuple[Any, tuple[int | None, float | None, int | None]]:
    """The core position of ``position`` and the checked limits (katra._limits)."""
    return load_position(position, "core"), check_search_limits(depth, time, nodes)


def search(position: Any, depth: int | None = None, time: float | None = None,
           nodes: int | None = None) -> SearchResult:
    """Search ``position`` and return the best action found.

    ``position`` is a [katra.State][] (of either backend), a game id or name
    (its start position) or a position text.  ``depth``: ``None`` or an int
    ``1..64`` (plies); ``time``: ``None`` or a real number of seconds with
    ``0 < time <= MAX_SEARCH_TIME`` (10**6); ``nodes``: ``None`` or an int
    ``1..2**62`` (a node budget).  Give at least one; with several, the first
    limit reached stops the search.  A wrong type raises
    [katra.ArgumentTypeError][], a value out of range (or no limit)
    [katra.ArgumentError][], both naming the argument; a finished game
    raises [katra.ArgumentError][].

    With ``time`` or ``nodes`` the search deepens until the limit is reached
    (or the result is proven) and returns the last completed iteration: an
    iteration cut short by the clock or the budget is thrown away (the first,
    depth 1, always completes).  A search stopped by ``nodes`` has visited
    exactly ``nodes`` nodes (``result.nodes == nodes``), unless depth 1 alone
    took more (then ``result.nodes`` is depth 1's count); one that ended
    otherwise visited fewer.  At a fixed depth the result does not depend on
    the machine, the table or the clock: the score is the depth's negamax
    value and the best move the smallest action with that score.  The position
    passed in is never changed: the engine works on a copy.

    Ctrl-C stops the search within milliseconds with ``KeyboardInterrupt``
    (in the main thread), and [katra.cancel_jobs][] with
    [katra.JobCancelled][] (in any thread); nothing is returned then
    (docs/api.md, "Stopping long calls").

    ```pycon
    >>> r = search("katro-4x4", depth=4)
    >>> r.best_move, r.depth, r.pv[0] == r.best_action
    ('b1', 4, True)

    ```
    """
    pos, (d, t, n) = _checked(position, depth, time, nodes)
    return _result(pos, core_search(pos, d, t, nodes=n))


def analyse(position: Any, *, depth: int | None = None, time: float | None = None,
            nodes: int | None = None) -> Analysis:
    """Every legal move of ``position`` with its score, best first.

    The arguments and the limits are [search][katra.search]'s.  Each move is searched
    with the full window, so each score is exact at the depth reached (not
    just "worse than the best"); a proven result reads ``wins in N`` /
    ``loses in N`` ([MoveScore.describe][katra.MoveScore.describe]), ``N`` counted in plies from
    ``position`` with the move itself as the first, as katra.solve counts
    (docs/rules.md §6.3).  ``analysis.moves[0]`` is [search][katra.search]'s best move
    at the same depth, with the same score.  An analysis costs more nodes than
    a search (no move is cut off at the root).

    ```pycon
    >>> a = analyse("katro-4x4 0,0,0,0/0,2,0,0/0,0,0,0/1,1,0,0 S", depth=3)
    >>> for m in a:
    ...     print(m.move, m.describe())
    a1 wins in 1 ply
    b1 score +0

    ```
    """
    pos, (d, t, n) = _checked(position, depth, time, nodes)
    return _analysis(pos, core_search(pos, d, t, nodes=n, every_move=True))
