"""Whole jobs: perft, divide and seeded random playouts, on either backend.

Each runs as one call into the backend (inside the compiled core, with the GIL
released, when ``backend="core"``).  A position is given as a game id, a
position text, a :class:`katra.State` or anything with a ``text()`` method.

On the core, Ctrl-C stops a job within milliseconds with ``KeyboardInterrupt``
(main thread) and ``katra.cancel_jobs()`` with ``katra.JobCancelled`` (any
thread); a stopped job returns nothing (docs/api.md, "Stopping long calls").
"""
from __future__ import annotations

from typing import Any

from katra._errors import UnknownGameError
from katra._games import DEFAULT_MAX_PLIES, GAMES, find_game
from katra._text import action_text

from ._backends import backend_module
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


def perft(position: Any, depth: int, *, backend: str | None = None) -> int:
    """Count the leaf nodes of the game tree ``depth`` plies deep (docs/rules.md §1.4).

    >>> perft("katro", 3)
    168
    """
    backend = _backend_of(position, backend)
    return int(backend_module(backend).perft(load_position(position, backend), depth))


def divide(position: Any, depth: int, *, backend: str | None = None) -> dict[str, int]:
    """``perft(child, depth - 1)`` for each legal move, keyed by move text, in action order.

    >>> divide("katro-4x4", 2)
    {'a1': 4, 'b1': 4, 'c1': 4, 'd1': 4}
    """
    backend = _backend_of(position, backend)
    pos = load_position(position, backend)
    spec = GAMES[pos.game_id]
    return {action_text(spec, action): int(count)
            for action, count in backend_module(backend).divide(pos, depth)}


def playouts(position: Any, games: int, *, seed: int = 0, max_plies: int = DEFAULT_MAX_PLIES,
             backend: str | None = None) -> dict[str, int]:
    """Play ``games`` seeded random games (docs/rules.md §6.2) and tally the results.

    Returns ``{"games", "south_wins", "north_wins", "draws", "unfinished", "plies"}``;
    the same seed gives the same tallies on every backend and machine.
    """
    backend = _backend_of(position, backend)
    pos = load_position(position, backend)
    return dict(backend_module(backend).playouts(pos, games, seed, max_plies))
