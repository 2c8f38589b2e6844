"""Counting whole trees and batches: perft, divide and seeded random playouts.

Each runs as one call into the backend (inside the compiled core, with the GIL
released, when ``backend="core"``), or, given ``jobs`` threads, a process pool
or a dask cluster (``executor=``; docs/scale.md), split into tasks when the
job is large enough for a split to pay, with the same result.  A position is
given as a game id, a position text, a [katra.State][] or anything with
a ``text()`` method; it is read once, and travels as a backend ``Position``.

Every argument is checked here (katra._limits) before any work starts.  On
the core, Ctrl-C stops a job within milliseconds with ``KeyboardInterrupt``
(main thread) and ``katra.cancel_jobs()`` with ``katra.JobCancelled`` (any
thread); a stopped job returns nothing (docs/api.md, "Stopping long calls").
"""
from __future__ import annotations

from typing import Any

from katra._errors import ArgumentTypeError, UnknownGameError
from katra._games import DEFAULT_MAX_PLIES, GAMES, find_game, game_by_id
from katra._limits import check_perft_depth, check_playout_args
from katra._text import action_text

from ._backends import backend_module
from ._parallel import Progress, count_divide, count_playouts, workers_for
from ._state import State

__all__ = ["DEFAULT_MAX_PLIES", "divide", "load_position", "perft", "playouts"]


def _backend_of(position: Any, backend: str | None) -> str:
    """The backend asked for, else a State's own, else the core."""
    if backend is not None:
        return backend
    if isinstance(position, State):
        return position.backend
    return "core"


def load_position(position: Any, backend: str | None = None) -> Any:
    """A backend ``Position`` from a game name, a position text, a State or an object
    with ``text()``.

    A string is a game id, name or alias (``"Goré"``, ``"Katra Mpantsaka"``),
    else a position text; a single word that is no game raises
    ``UnknownGameError``, which lists the known ones.

    ``backend=None`` means the State's own backend (the core for anything else).
    The result is a fresh position: jobs never change the state passed in.
    """
    backend = _backend_of(position, backend)
    module = backend_module(backend)
    if isinstance(position, State) and position.backend == backend:
        return position._position_copy()
    if isinstance(position, module.Position):
        return position.copy(stack=False)
    if isinstance(position, str):
        if position in GAMES:
            return module.Position.initial(position)
        try:
            game_id = find_game(position).id
        except UnknownGameError:
            if " " not in position.strip():
                raise
            return module.Position.from_text(position)
        return module.Position.initial(game_id)
    text = getattr(position, "text", None)
    if callable(text):
        return module.Position.from_text(text())
    raise ArgumentTypeError(f"position must be a game id, a position text or a state, "
                            f"not {type(position).__name__}")


def perft(position: Any, depth: int, *, backend: str | None = None, jobs: int = 1,
          executor: Any = None, progress: Progress | None = None) -> int:
    """Count the leaf nodes of the game tree ``depth`` plies deep (docs/rules.md §1.4).

    ``jobs=N`` counts on N threads of this process (0: every usable core);
    ``executor=`` sends the work to a ``concurrent.futures.Executor`` (e.g. a
    ``ProcessPoolExecutor``) or a ``dask.distributed.Client`` instead.  A job
    too small to gain from a split runs as one call.  The count is the same
    either way (docs/scale.md).  ``progress(tasks_done, tasks, nodes)``, if
    given, is called in this thread as the work advances.

    ```pycon
    >>> perft("katro", 3)
    168
    >>> perft("katro", 6, jobs=2)
    13778

    ```
    """
    backend = _backend_of(position, backend)
    pos = load_position(position, backend)
    return sum(_counts(pos, depth, backend, jobs, executor, progress, whole=True).values())


def divide(position: Any, depth: int, *, backend: str | None = None, jobs: int = 1,
           executor: Any = None, progress: Progress | None = None) -> dict[str, int]:
    """``perft(child, depth - 1)`` for each legal move, keyed by move text, in action order.

    ``jobs``, ``executor`` and ``progress`` as for [perft][katra.perft].

    ```pycon
    >>> divide("katro-4x4", 2)
    {'a1': 4, 'b1': 4, 'c1': 4, 'd1': 4}

    ```
    """
    backend = _backend_of(position, backend)
    pos = load_position(position, backend)
    counts = _counts(pos, depth, backend, jobs, executor, progress, whole=False)
    spec = game_by_id(pos.game_id)
    return {action_text(spec, action): count for action, count in counts.items()}


def _counts(pos: Any, depth: Any, backend: str, jobs: Any, executor: Any,
            progress: Progress | None, whole: bool) -> dict[int, int]:
    """Counts per root action of the backend Position ``pos``; ``whole``: perft (depth 0
    allowed, one entry)."""
    depth = check_perft_depth(depth, 0 if whole else 1)
    workers = workers_for(jobs, executor)
    if depth == 0:
        if progress is not None:
            progress(1, 1, 1)
        return {0: 1}
    return count_divide(backend, pos, depth, workers, progress)


def playouts(position: Any, games: int, *, seed: int = 0, max_plies: int = DEFAULT_MAX_PLIES,
             first_game: int = 0, backend: str | None = None, jobs: int = 1,
             executor: Any = None, progress: Progress | None = None) -> dict[str, int]:
    """Play seeded random games (docs/rules.md §6.2) and tally the results.

    Plays games ``first_game .. first_game + games - 1`` of the batch seeded
    ``seed`` (game ``k`` starts its generator at ``seed + k * 2**32``), so
    tallies of consecutive ranges add up, field by field, to the tally of
    the whole batch.  Returns ``{"games", "south_wins", "north_wins",
    "draws", "unfinished", "plies"}``; the same seed gives the same tallies
    on every backend and machine, and for any ``jobs`` or ``executor`` (as
    for [perft][katra.perft]; ``progress(tasks_done, tasks, games)``).

    Ranges: ``games`` 0..MAX_GAMES (2**62), ``seed`` 0..2**64-1, ``max_plies``
    0..MAX_PLIES (2**62), ``first_game + games <= MAX_GAMES``; a value out of
    range raises ``katra.ArgumentError``, a wrong type ``katra.ArgumentTypeError``
    (both ``ValueError``\\ s), before any game is played.
    """
    backend = _backend_of(position, backend)
    pos = load_position(position, backend)
    games, seed, max_plies, first_game = check_playout_args(games, seed, max_plies, first_game)
    workers = workers_for(jobs, executor)
    return count_playouts(backend, pos, games, seed, max_plies, first_game, workers, progress)
