"""Whole jobs: perft, divide and seeded random playouts, on either backend.

Each runs as one call into the backend (inside the compiled core, with the GIL
released, when ``backend="core"``), or split into tasks for ``jobs`` threads,
a process pool or a dask cluster (``executor=``; docs/scale.md), with the
same result.  A position is given as a game id, a position text, a
:class:`katra.State` or anything with a ``text()`` method.

On the core, Ctrl-C stops a job within milliseconds with ``KeyboardInterrupt``
(main thread) and ``katra.cancel_jobs()`` with ``katra.JobCancelled`` (any
thread); a stopped job returns nothing (docs/api.md, "Stopping long calls").
"""
from __future__ import annotations

from typing import Any

from katra._errors import UnknownGameError
from katra._games import DEFAULT_MAX_PLIES, GAMES, MAX_PERFT_DEPTH, find_game
from katra._text import action_text

from ._backends import backend_module
from ._parallel import ArgumentTypeError, Workers, check_executor, check_jobs
from ._state import State

__all__ = ["DEFAULT_MAX_PLIES", "divide", "load_position", "perft", "playouts"]

#: Playouts: ``max_plies`` is in 0..MAX_PLIES, ``games`` in 0..MAX_GAMES and the
#: games played, ``first_game .. first_game + games - 1``, within 0..MAX_GAMES - 1
#: (the core counts them in 64 bits; a larger value is refused, never capped).
MAX_PLIES = 2**62
MAX_GAMES = 2**62


def _check_int(name: str, value: object, low: int, high: int) -> int:
    """An int in low..high: ArgumentTypeError (a TypeError and ValueError) or ValueError."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise ArgumentTypeError(f"{name} must be an int, not {type(value).__name__}")
    if not low <= value <= high:
        raise ValueError(f"{name} must be in {low}..{high}, got {value}")
    return value


def check_playout_options(games: object, seed: object, max_plies: object,
                          first_game: object) -> None:
    """The documented ranges of :func:`playouts` (ValueError / ArgumentTypeError naming one)."""
    n = _check_int("games", games, 0, MAX_GAMES)
    _check_int("seed", seed, 0, 2**64 - 1)
    _check_int("max_plies", max_plies, 0, MAX_PLIES)
    _check_int("first_game", first_game, 0, MAX_GAMES - n)


def _workers(jobs: object, executor: object) -> Workers | None:
    """The workers asked for, or None for one call in this thread (jobs=1, no executor)."""
    threads = check_jobs(jobs)
    check_executor(executor, jobs)
    if executor is None and threads == 1:
        return None
    return Workers(threads, executor)


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
        return position._pos.copy(stack=False)
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
    raise ValueError(f"position must be a game id, a position text or a state, "
                     f"not {type(position).__name__}")


def perft(position: Any, depth: int, *, backend: str | None = None, jobs: int = 1,
          executor: Any = None) -> int:
    """Count the leaf nodes of the game tree ``depth`` plies deep (docs/rules.md §1.4).

    ``jobs=N`` counts on N threads of this process (0: every usable core);
    ``executor=`` sends the work to a ``concurrent.futures.Executor`` (e.g. a
    ``ProcessPoolExecutor``) or a ``dask.distributed.Client`` instead.  The
    count is the same either way (docs/scale.md).

    >>> perft("katro", 3)
    168
    >>> perft("katro", 6, jobs=2)
    13778
    """
    return sum(_divide_counts(position, depth, backend, jobs, executor, whole=True).values())


def divide(position: Any, depth: int, *, backend: str | None = None, jobs: int = 1,
           executor: Any = None) -> dict[str, int]:
    """``perft(child, depth - 1)`` for each legal move, keyed by move text, in action order.

    ``jobs`` and ``executor`` as for :func:`perft`.

    >>> divide("katro-4x4", 2)
    {'a1': 4, 'b1': 4, 'c1': 4, 'd1': 4}
    """
    counts = _divide_counts(position, depth, backend, jobs, executor, whole=False)
    spec = GAMES[_game_id_of(position, backend)]
    return {action_text(spec, action): count for action, count in counts.items()}


def _game_id_of(position: Any, backend: str | None) -> str:
    return str(load_position(position, _backend_of(position, backend)).game_id)


def _divide_counts(position: Any, depth: Any, backend: str | None, jobs: Any, executor: Any,
                   whole: bool) -> dict[int, int]:
    """Counts per root action; ``whole``: perft (depth 0 allowed, one entry)."""
    backend = _backend_of(position, backend)
    module = backend_module(backend)
    pos = load_position(position, backend)
    _check_int("depth", depth, 0 if whole else 1, MAX_PERFT_DEPTH)
    workers = _workers(jobs, executor)
    if workers is None or depth < 2:
        if whole:
            return {0: int(module.perft(pos, depth))}
        return {action: int(count) for action, count in module.divide(pos, depth)}
    from ._parallel import run_perft
    return run_perft(backend, pos.text(), depth, workers)


def playouts(position: Any, games: int, *, seed: int = 0, max_plies: int = DEFAULT_MAX_PLIES,
             first_game: int = 0, backend: str | None = None, jobs: int = 1,
             executor: Any = None) -> dict[str, int]:
    """Play seeded random games (docs/rules.md §6.2) and tally the results.

    Plays games ``first_game .. first_game + games - 1`` of the batch seeded
    ``seed`` (game ``k`` starts its generator at ``seed + k * 2**32``), so
    tallies of consecutive ranges add up, field by field, to the tally of
    the whole batch.  Returns ``{"games", "south_wins", "north_wins",
    "draws", "unfinished", "plies"}``; the same seed gives the same tallies
    on every backend and machine, and for any ``jobs`` or ``executor`` (as
    for :func:`perft`).

    Ranges: ``games`` 0..MAX_GAMES, ``seed`` 0..2**64-1, ``max_plies``
    0..MAX_PLIES, ``first_game + games <= MAX_GAMES``; anything else raises a
    ``ValueError`` (a wrong type: :class:`ArgumentTypeError`, also a ``TypeError``)
    before any game is played.
    """
    backend = _backend_of(position, backend)
    pos = load_position(position, backend)
    check_playout_options(games, seed, max_plies, first_game)
    workers = _workers(jobs, executor)
    if workers is None or games < 2:
        return dict(backend_module(backend).playouts(pos, games, seed, max_plies, first_game))
    from ._parallel import run_playouts
    return run_playouts(backend, pos.text(), games, seed, max_plies, first_game, workers)
