"""Perft and playouts for the command line, split into pieces for a progress display.

The core runs a whole job in one call.  When stderr is a terminal the CLI
splits the job so that a progress bar can move, and the split never changes
the answer:

* perft at depth ``d >= 3`` is the sum of ``perft(grandchild, d - 2)`` over
  every grandchild (RULES.md §1.4: a child with no legal action contributes
  0 at any depth >= 1, and has no grandchildren);
* playouts run in chunks of consecutive games: game ``k`` of a batch with
  seed ``s`` plays from generator state ``s + k * 2**32`` (RULES.md §6.2), so
  a chunk starting at game ``k0`` with seed ``s + k0 * 2**32`` plays exactly
  games ``k0, k0 + 1, ...`` of the whole batch.
"""
from __future__ import annotations

from typing import Callable

from katra.api import State, divide, perft, playouts

#: Perft is split only from this depth on (shallower runs are instant).
SPLIT_DEPTH = 3

_TALLY_KEYS = ("games", "south_wins", "north_wins", "draws", "unfinished", "plies")


def perft_tasks(root: State, depth: int) -> tuple[dict[str, int], list[tuple[str, State, int]]]:
    """The root moves (counts at 0) and the subtrees ``(root move, state, depth)`` to count."""
    counts: dict[str, int] = {}
    tasks: list[tuple[str, State, int]] = []
    for action in root.legal_actions():
        move = root.action_text(action)
        counts[move] = 0
        child = root.child(action)
        if depth >= SPLIT_DEPTH:
            tasks += [(move, child.child(b), depth - 2) for b in child.legal_actions()]
        else:
            tasks.append((move, child, depth - 1))
    return counts, tasks


def split_perft(root: State, depth: int,
                step: Callable[[int], None] | None = None) -> tuple[int, dict[str, int]]:
    """``(perft(root, depth), divide(root, depth))``, counted subtree by subtree.

    ``step(nodes)`` is called after each subtree; ``depth`` must be >= 1.
    """
    counts, tasks = perft_tasks(root, depth)
    for move, state, d in tasks:
        nodes = state.perft(d)
        counts[move] += nodes
        if step is not None:
            step(nodes)
    return sum(counts.values()), counts


def run_perft(text: str, depth: int, backend: str, want_divide: bool,
              show_progress: bool) -> tuple[int, dict[str, int] | None]:
    """The node count and (if asked) the per-move counts; progress on stderr if asked."""
    if not show_progress or depth < SPLIT_DEPTH:
        if want_divide:
            counts = divide(text, depth, backend=backend)
            return sum(counts.values()), counts
        return perft(text, depth, backend=backend), None
    from .term import progress
    root = State.from_text(text, backend=backend)
    total_tasks = len(perft_tasks(root, depth)[1])
    done = {"nodes": 0}
    with progress(f"perft {root.game.id} depth {depth}", total_tasks, "subtrees",
                  "{task.fields[nodes]:,} nodes", nodes=0) as bar:
        def step(nodes: int) -> None:
            done["nodes"] += nodes
            bar.advance(1, nodes=done["nodes"])
        nodes, counts = split_perft(root, depth, step)
    return nodes, counts if want_divide else None


def chunk_seed(seed: int, first_game: int) -> int:
    """The batch seed under which game 0 is game ``first_game`` of a batch seeded ``seed``."""
    return (seed + first_game * 2**32) % 2**64


def chunked_playouts(text: str, games: int, seed: int, max_plies: int, backend: str,
                     chunk: int, step: Callable[[int], None] | None = None) -> dict[str, int]:
    """The same tally as one ``playouts`` call, played ``chunk`` games at a time."""
    tally = dict.fromkeys(_TALLY_KEYS, 0)
    first = 0
    while first < games:
        n = min(chunk, games - first)
        part = playouts(text, n, seed=chunk_seed(seed, first), max_plies=max_plies,
                        backend=backend)
        for key in _TALLY_KEYS:
            tally[key] += part[key]
        first += n
        if step is not None:
            step(n)
    return tally


def run_playouts(text: str, games: int, seed: int, max_plies: int, backend: str,
                 show_progress: bool) -> dict[str, int]:
    """A playout tally, with a progress bar on stderr if asked (same result either way)."""
    if not show_progress or games < 2:
        return playouts(text, games, seed=seed, max_plies=max_plies, backend=backend)
    from .term import progress
    chunk = max(1, -(-games // 200))
    with progress(f"playouts {text.split(' ')[0]}", games, "games") as bar:
        return chunked_playouts(text, games, seed, max_plies, backend, chunk,
                                lambda n: bar.advance(n))
