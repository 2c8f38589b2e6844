"""Retrograde analysis: every position reachable from one, solved exactly.

[retrograde][katra.retrograde] lists the positions reachable from a position
(the core's moves, one key of bytes a position), then works back from the
finished ones, for each of the four questions of docs/rules.md §6.3 ("can P
force at least t?"), the least number of plies within which P forces it: 0 at
a finished position whose outcome answers yes; at a node of P, one more than
its best child's; at the other player's node, one more than its worst child's
once every child has one.  Positions are taken in the order of their plies
(a queue), so each gets its least bound, and a position that never gets one
does not force it at all: lines that go on for ever count for nobody, as
§6.3 says.  These are the thresholds the bounded solver computes within a
bound, here without one.
"""
from __future__ import annotations

import time as _clock
from array import array
from typing import Any, TextIO

from katra._errors import ArgumentError
from katra._games import game_by_id
from katra._limits import MAX_PROOF_PLIES, check_int
from katra._text import action_text

from ._proof import write_trees
from ._questions import DRAW, QUESTIONS, WIN, Question, Thresholds, value_of
from ._solve import SolveResult

__all__ = ["DEFAULT_POSITIONS", "MAX_POSITIONS", "RetrogradeGraph", "TooManyPositions",
           "retrograde", "write_graph_proof"]

#: The most positions [retrograde][katra.retrograde] lists when not told
#: (about 200 MB of memory for these).
DEFAULT_POSITIONS = 1_000_000

#: The largest ``positions`` accepted.
MAX_POSITIONS = 1 << 31

_UNFINISHED = -2        # RetrogradeGraph.winner of a position that is not over


class TooManyPositions(Exception):
    """More positions are reachable than the budget allows."""


class RetrogradeGraph:
    """Every position reachable from a root (index 0), with its moves and, once
    ``solve`` ran, its four thresholds."""

    def __init__(self, root: Any, limit: int) -> None:
        from ._backends import CorePosition
        self._from_key = CorePosition._from_key
        self.keys: list[bytes] = [root._key()]
        self.index: dict[bytes, int] = {self.keys[0]: 0}
        self.to_move = array("b")
        self.winner = array("b")          # -1 a draw, 0/1 the winner, _UNFINISHED
        self.first = array("q", [0])      # the moves of position v: first[v]..first[v+1]-1
        self.child = array("l")
        self.action = array("l")
        v = 0
        while v < len(self.keys):
            self._expand(self._from_key(self.keys[v]), limit)
            v += 1
        self.thresholds: list[array[int]] = []

    def _expand(self, pos: Any, limit: int) -> None:
        moves = pos._child_keys()
        self.to_move.append(pos.to_move)
        if moves:
            self.winner.append(_UNFINISHED)
        else:
            self.winner.append(pos.outcome()[0])
        for action, key in moves:
            found = self.index.get(key)
            if found is None:
                if len(self.keys) >= limit:
                    raise TooManyPositions
                found = len(self.keys)
                self.index[key] = found
                self.keys.append(key)
            self.child.append(found)
            self.action.append(action)
        self.first.append(len(self.child))

    def __len__(self) -> int:
        return len(self.keys)

    def solve(self) -> None:
        """Fill ``thresholds``: for each question of QUESTIONS order, each
        position's least bound (-1: never)."""
        n = len(self.keys)
        count = array("l", bytes(array("l").itemsize * (n + 1)))    # predecessors by edge
        for c in self.child:
            count[c + 1] += 1
        for v in range(n):
            count[v + 1] += count[v]
        preds = array("l", bytes(array("l").itemsize * len(self.child)))
        fill = array("l", count)
        first, child = self.first, self.child
        for v in range(n):
            for e in range(first[v], first[v + 1]):
                c = child[e]
                preds[fill[c]] = v
                fill[c] += 1
        self.thresholds = [self._attractor(q, count, preds) for q in QUESTIONS]

    def _attractor(self, question: Question, pred_first: array[int],
                   preds: array[int]) -> array[int]:
        player, target = question.player, question.target
        n = len(self.keys)
        rank = array("l", [-1]) * n
        left = array("l", (self.first[v + 1] - self.first[v] for v in range(n)))
        winner, to_move = self.winner, self.to_move
        queue = [v for v in range(n) if winner[v] != _UNFINISHED
                 and (winner[v] == player or (target == DRAW and winner[v] == -1))]
        for v in queue:
            rank[v] = 0
        head = 0
        while head < len(queue):
            u = queue[head]
            head += 1
            r = rank[u] + 1
            for k in range(pred_first[u], pred_first[u + 1]):
                p = preds[k]
                if rank[p] >= 0:
                    continue
                if to_move[p] == player:
                    rank[p] = r
                    queue.append(p)
                else:
                    left[p] -= 1
                    if left[p] == 0:
                        rank[p] = r
                        queue.append(p)
        return rank

    def thresholds_of(self, v: int) -> Thresholds:
        """Position v's thresholds (QUESTIONS order; None: never)."""
        return [t[v] if t[v] >= 0 else None for t in self.thresholds]

    def moves(self, v: int) -> list[tuple[int, int]]:
        """(action, child index) of position v's legal moves, ascending."""
        return [(self.action[e], self.child[e]) for e in range(self.first[v], self.first[v + 1])]

    def best(self, v: int) -> tuple[str | None, int | None, int]:
        """(outcome for the mover, distance, best action or -1) at position v (§6.3)."""
        mover = self.to_move[v]
        outcome, distance = value_of(self.thresholds_of(v), mover)
        if outcome is None or distance is None or distance == 0:
            return outcome, distance, -1
        question = {"win": Question(mover, WIN), "loss": Question(1 - mover, WIN),
                    "draw": Question(mover, DRAW)}[outcome]
        ranks = self.thresholds[question.index]
        candidates = [(action, ranks[c]) for action, c in self.moves(v) if ranks[c] >= 0]
        if outcome == "draw":
            # a move keeping the mover's draw-or-better within the fewest plies
            pick = min(candidates, key=lambda m: (m[1], m[0]))
        else:
            pick = min(m for m in candidates if m[1] == distance - 1)
        return outcome, distance, pick[0]

    def line(self, v: int, plies: int) -> list[int]:
        """Best moves from position v to the end of the game (at most plies)."""
        out: list[int] = []
        while len(out) < plies:
            _, _, action = self.best(v)
            if action < 0:
                break
            out.append(action)
            v = next(c for a, c in self.moves(v) if a == action)
        return out


class _Ranks:
    """The proof writer's oracle over a solved graph's thresholds."""

    def __init__(self, graph: RetrogradeGraph) -> None:
        self.graph = graph

    def rank(self, pos: Any, question: Question) -> int:
        v = self.graph.index.get(pos._key())
        return -1 if v is None else self.graph.thresholds[question.index][v]

    def holds(self, pos: Any, question: Question, plies: int) -> bool:
        return 0 <= self.rank(pos, question) <= plies

    def choose(self, children: list[tuple[int, Any]], question: Question, plies: int) -> int:
        ranks = [self.rank(child, question) for _, child in children]
        held = [(r, i) for i, r in enumerate(ranks) if 0 <= r <= plies]
        return min(held)[1] if held else -1


def retrograde(position: Any, *, positions: int | None = None,
               proof: TextIO | None = None) -> SolveResult:
    """Solve ``position`` exactly by retrograde analysis of every position reachable from it.

    ``position``: a [katra.State][], a game id or name (its start) or a
    position text; it must not be finished.  Every position reachable from it
    is listed and solved (the module's docstring says how), so the result is
    exact (``exact`` True) and also settles games whose lines may go on for
    ever: ``outcome`` None then means that neither player can force anything
    (docs/rules.md §6.3), unless ``positions`` (1..2**31, None:
    [DEFAULT_POSITIONS][katra.api.DEFAULT_POSITIONS]) ran out first: then
    ``max_nodes`` is that budget and [describe][katra.SolveResult.describe]
    says so.  ``nodes`` is the number of positions listed.  ``proof``: None or
    a text stream for the proof of a settled result (docs/solve.md, "Proof
    files"), written from the graph.  For small boards: the positions are
    kept in memory, about 200 bytes each.
    """
    from ._counting import load_position
    limit = DEFAULT_POSITIONS if positions is None else check_int(
        positions, "positions", 1, MAX_POSITIONS)
    pos = load_position(position, "core")
    if pos.is_terminal():
        raise ArgumentError(f"cannot solve a finished game: {pos.text()}")
    start = _clock.process_time()
    mover = int(pos.to_move)
    try:
        graph = RetrogradeGraph(pos, limit)
    except TooManyPositions:
        return SolveResult(None, None, -1, "", (), limit, _clock.process_time() - start,
                           None, mover, False, exact=True, max_nodes=limit)
    graph.solve()
    outcome, distance, best = graph.best(0)
    pv = graph.line(0, distance) if distance is not None else []
    result = SolveResult(outcome, distance, best,
                         action_text(game_by_id(pos.game_id), best) if best >= 0 else "",
                         tuple(pv),
                         len(graph), _clock.process_time() - start, None, mover, False,
                         exact=True)
    if proof is not None and outcome is not None and distance is not None:
        write_graph_proof(proof, graph, pos, outcome, distance)
    return result


def write_graph_proof(out: TextIO, graph: RetrogradeGraph, pos: Any, outcome: str,
                      plies: int) -> int:
    """The proof of ``outcome`` within ``plies`` at the graph's root ``pos``; lines written."""
    if plies > MAX_PROOF_PLIES:
        raise ArgumentError(f"the proof is {plies} plies deep: a proof file holds at most "
                            f"{MAX_PROOF_PLIES} plies")
    return write_trees(out, _Ranks(graph), pos, outcome, plies)
