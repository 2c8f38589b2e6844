"""Monte Carlo tree search: UCT with seeded random playouts, in the compiled core.

[katra.MCTS][] is a player that keeps its tree between calls (as
[katra.Engine][] keeps its table); [katra.mcts][] is the same player made
for one call.  The whole search runs inside one call into the core with the
GIL released (``katra._core.Mcts``); docs/mcts.md describes the algorithm,
the tree's reuse and its memory.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from katra._errors import ArgumentError
from katra._games import DEFAULT_MAX_PLIES, game_by_id
from katra._limits import (
    MAX_MCTS_NODES,
    MAX_MCTS_SIMULATIONS,
    MAX_PLIES,
    MAX_SEARCH_TIME,
    MAX_SEED,
    MIN_MCTS_NODES,
    check_exploration,
    check_int,
    check_seconds,
)
from katra._text import action_text

from ._backends import Mcts
from ._counting import load_position

__all__ = ["MCTS", "MctsResult", "mcts"]


@dataclass(frozen=True)
class MctsResult:
    """What an MCTS search found.

    ``best_action`` is the root's most visited child (among equally visited
    ones, the smaller action) and ``best_move`` its text; ``pv`` the line of
    most visited children from the root (starting with ``best_action``).
    ``simulations`` counts this call's simulations, ``reused`` the root's
    visits kept from earlier calls (tree reuse), so the root's children hold
    ``simulations + reused`` visits in all.  ``value`` is the root's mean
    result for the player to move (win 1, draw or unfinished playout 1/2,
    loss 0); ``children`` holds ``(action, visits, value)`` for every visited
    child of the root, ascending by action, ``value`` being the mean result
    for the player who chose it (the player to move at the root).
    ``tree_nodes`` is the nodes the tree holds (every child of an expanded
    node counts, visited or not), ``playout_plies`` the plies played by this
    call's playouts and ``seconds`` the call's time.
    """

    best_action: int
    best_move: str
    simulations: int
    reused: int
    value: float
    children: tuple[tuple[int, int, float], ...]
    pv: tuple[int, ...]
    tree_nodes: int
    playout_plies: int
    seconds: float

    @property
    def visits(self) -> int:
        """The root's visits: ``simulations + reused``."""
        return self.simulations + self.reused

    @property
    def playout_plies_per_second(self) -> float:
        return self.playout_plies / self.seconds if self.seconds > 0 else float("inf")


def _result(position: Any, raw: dict[str, Any]) -> MctsResult:
    spec = game_by_id(position.game_id)
    pv = tuple(int(a) for a in raw["pv"])
    visits = int(raw["visits"])
    return MctsResult(
        best_action=pv[0],
        best_move=action_text(spec, pv[0]),
        simulations=int(raw["simulations"]),
        reused=int(raw["reused"]),
        value=int(raw["score2"]) / (2 * visits),
        children=tuple((int(a), int(n), int(score2) / (2 * int(n)))
                       for a, n, score2 in raw["children"]),
        pv=pv,
        tree_nodes=int(raw["tree_nodes"]),
        playout_plies=int(raw["plies"]),
        seconds=float(raw["seconds"]),
    )


def _check_budget(simulations: object, time: object) -> tuple[int | None, float | None]:
    """``simulations`` (1..MAX_MCTS_SIMULATIONS) and ``time`` (seconds in ``(0,
    MAX_SEARCH_TIME]``), each None or checked; at least one must be given."""
    if simulations is None and time is None:
        raise ArgumentError("an MCTS search needs simulations or a time limit (one or both)")
    return (None if simulations is None
            else check_int(simulations, "simulations", 1, MAX_MCTS_SIMULATIONS),
            None if time is None else check_seconds(time, "time", MAX_SEARCH_TIME))


class MCTS:
    """A Monte Carlo tree search player that keeps its tree between calls.

    Each simulation walks down the tree by UCB1 (``Q + exploration *
    sqrt(ln N_parent / N_child)``, unvisited children first, in ascending
    action order), adds one node, plays a seeded random game from it exactly
    as [katra.playouts][] does (docs/rules.md §6.2: simulation ``k`` of
    this player's life plays game ``k`` of the batch of ``seed``, cut off
    after ``max_plies`` plies as unfinished, which scores 1/2), and adds the
    result to every node of its path for the player who moved into it.

    The tree is kept between calls: ``search`` of a position found in the
    tree within 4 plies of its root (a game played on) continues from that
    node's subtree, whose visits it reports as ``reused``; any other position
    starts a fresh tree.  Searching the same position again continues the
    same tree and the same playouts, so ``n`` calls of ``k`` simulations build
    exactly the tree one call of ``n * k`` simulations builds (the result
    differs only in ``simulations``, ``reused``, ``playout_plies`` and
    ``seconds``).  ``clear`` makes the player as new.

    ``exploration``: UCB1's constant, a real in ``0..1000``; ``seed``: the
    playouts' seed, ``0..2**64-1``; ``max_nodes``: the tree's largest size in
    nodes, ``256..2**31-1`` (``None``: ``2**22``; 36 bytes a node and a position
    per expanded node, taken as the tree grows: docs/mcts.md): once full,
    simulations go on without adding nodes; ``max_plies``: a playout's ply
    limit, ``0..2**62``.
    One player serves one thread at a time (a second thread's call while one
    runs raises ``RuntimeError``).

    >>> player = MCTS(seed=1)
    >>> first = player.search("katro-4x4", simulations=400)
    >>> first.simulations, first.reused, sum(n for _, n, _ in first.children)
    (400, 0, 400)
    >>> again = player.search("katro-4x4", simulations=100)   # the same tree, grown
    >>> again.reused, again.visits
    (400, 500)
    """

    def __init__(self, *, exploration: float = 1.4, seed: int = 0, max_nodes: int | None = None,
                 max_plies: int = DEFAULT_MAX_PLIES) -> None:
        c = check_exploration(exploration)
        seed = check_int(seed, "seed", 0, MAX_SEED)
        if max_nodes is not None:
            max_nodes = check_int(max_nodes, "max_nodes", MIN_MCTS_NODES, MAX_MCTS_NODES)
        max_plies = check_int(max_plies, "max_plies", 0, MAX_PLIES)
        self._tree = Mcts(c, seed, max_nodes, max_plies)

    @property
    def exploration(self) -> float:
        return float(self._tree.exploration)

    @property
    def seed(self) -> int:
        return int(self._tree.seed)

    @property
    def max_nodes(self) -> int:
        return int(self._tree.max_nodes)

    @property
    def max_plies(self) -> int:
        return int(self._tree.max_plies)

    @property
    def tree_nodes(self) -> int:
        """The nodes the tree holds now (0 before the first search and after ``clear``)."""
        return int(self._tree.tree_nodes)

    def clear(self) -> None:
        """Drop the tree and restart the playouts' count: the player is as new."""
        self._tree.clear()

    def search(self, position: Any, *, simulations: int | None = None,
               time: float | None = None) -> MctsResult:
        """Search ``position`` (a [katra.State][] of either backend, a game id or
        name, or a position text; never changed) for ``simulations`` simulations
        (an int ``1..2**40``) or ``time`` seconds (``0 < time <= 10**6``, the clock
        read every 16 simulations), whichever comes first; give at least one.  A
        wrong type raises [katra.ArgumentTypeError][], a value out of range
        [katra.ArgumentError][] (naming the argument), a finished game
        [katra.ArgumentError][].  Ctrl-C stops the search within milliseconds
        with ``KeyboardInterrupt`` (main thread), [katra.cancel_jobs][] with
        [katra.JobCancelled][] (any thread); the tree keeps every simulation
        completed before."""
        limits = _check_budget(simulations, time)
        pos = load_position(position, "core")
        return _result(pos, self._tree.search(pos, *limits))


def mcts(position: Any, *, simulations: int | None = None, time: float | None = None,
         exploration: float = 1.4, seed: int = 0) -> MctsResult:
    """One search by a fresh [katra.MCTS][] player (its arguments and
    [MCTS.search][katra.MCTS.search]'s).

    >>> r = mcts("katro-4x4 0,0,0,0/0,2,0,0/0,0,0,0/1,1,0,0 S", simulations=200)
    >>> r.best_move, r.value
    ('a1', 0.95)
    """
    limits = _check_budget(simulations, time)
    return MCTS(exploration=exploration, seed=seed).search(position, simulations=limits[0],
                                                           time=limits[1])
