"""Many states at once: learning batches, [VectorGame][katra.VectorGame] and files of game records.

They check that what they are given are [katra.State][] objects (or
give [katra.State][] objects back), so they sit above ``_state`` (which
imports the per-state helpers ``_learning`` and ``_records``, and is imported
by nothing it imports).
"""
from __future__ import annotations

from collections.abc import Iterable
from typing import Any, cast

from katra._errors import ArgumentError, ArgumentTypeError
from katra._limits import as_int

from ._backends import CoreVectorGame, core_legal_actions_masks, core_observations
from ._learning import fill_rows, mask_values, observation_values, player_arg
from ._records import parse_records, write_record
from ._state import State, game

__all__ = ["observations", "legal_actions_masks", "read_records", "read_record_tags",
           "write_records",
           "VectorGame"]


def batch_states(states: Iterable[State], what: str) -> list[State]:
    """The states as a list; ``katra.ArgumentTypeError`` names anything that is not a
    State."""
    if isinstance(states, (str, bytes)) or not hasattr(states, "__iter__"):
        raise ArgumentTypeError(f"{what}: expected an iterable of katra.State objects, "
                                f"not {type(states).__name__}")
    result = list(states)
    for k, s in enumerate(result):
        if not isinstance(s, State):
            raise ArgumentTypeError(f"{what}: item {k} is a {type(s).__name__}, "
                                    f"not a katra.State")
    return result


def _one_game(batch: list[State], what: str) -> None:
    game = batch[0].game
    for s in batch:
        if s.game is not game:
            raise ArgumentError(f"{what}: every state must be of one game "
                             f"({game.id} and {s.game.id} given)")


def observations(states: Iterable[State], out: Any = None, *, player: int | None = None) -> Any:
    """Observations of many states of one game, row ``k`` for ``states[k]``.

    ``out`` is any writable C-contiguous buffer of ``len(states) *
    game.observation_size`` items (e.g. a NumPy array of shape
    ``(len(states), game.observation_size)``); without it, a list of lists.
    ``player``: every row from this player's point of view (default: each
    state's player to move).  On the core the rows are filled in one call.
    """
    batch = batch_states(states, "observations")
    if not batch:
        return [] if out is None else out
    _one_game(batch, "observations")
    if all(s.backend == "core" for s in batch):
        return core_observations(State._core_positions(batch), player_arg(player), out)
    return fill_rows([observation_values(s, player) for s in batch], out, True, "observations")


def legal_actions_masks(states: Iterable[State], out: Any = None) -> Any:
    """Legal-action masks of many states of one game, ``len(states) x game.num_actions``."""
    batch = batch_states(states, "legal_actions_masks")
    if not batch:
        return [] if out is None else out
    _one_game(batch, "legal_actions_masks")
    if all(s.backend == "core" for s in batch):
        return core_legal_actions_masks(State._core_positions(batch), out)
    return fill_rows([mask_values(s) for s in batch], out, False, "legal_actions_masks")


def write_records(states: Iterable[State]) -> str:
    """Many records (``State.record()``), separated by blank lines."""
    return "\n".join(write_record(s) for s in batch_states(states, "write_records"))


def read_records(text: str, backend: str = "core") -> list[State]:
    """Every record in ``text`` (a str: a file's contents), each as the state at its end
    (moves on the move stack)."""
    return [State._replay(record, backend) for record in parse_records(text)]


def read_record_tags(text: str) -> list[dict[str, str]]:
    """The tags of every record in ``text`` (``event``, ``south``, ``north``, ``decision``,
    ``reason``: a refereed game's, docs/match.md), in order; ``{}`` for a record without
    any.  The records are checked for form, not replayed (``read_records`` does that)."""
    return [dict(record.tags) for record in parse_records(text)]


class VectorGame(CoreVectorGame):
    """Many games of one game id in one C array, stepped together without the GIL.

    See docs/learning.md.  Results land in arrays the caller can read (NumPy
    arrays when NumPy is installed, else array.array/bytearray, flat):
    ``observations`` (num_envs x observation size, float32), ``action_masks``
    (num_envs x num_actions, bool/uint8), ``rewards`` (num_envs x 2, float32,
    South then North), ``terminated``, ``truncated`` (bool/uint8), ``to_move``
    (int8) and ``plies`` (int32: plies of the current game).  ``position(i)``
    is env ``i``'s game as a [katra.State][].
    """

    __slots__ = ()

    SKIP: int = CoreVectorGame.SKIP
    """The action that leaves an env as it is in a step (-1)."""

    def __reduce__(self) -> Any:
        raise TypeError("a katra.VectorGame cannot be pickled (its games live in C arrays); "
                        "pickle vg.position(i) for each env instead")

    def position(self, i: int) -> State:  # type: ignore[override]
        """A copy of env ``i``'s position as a [katra.State][] on the core (``ply``: the
        plies of its current game; an empty move stack): equal to the state reached by
        the same moves.  ``katra.ArgumentError`` unless ``0 <= i < num_envs``."""
        pos = super().position(i)
        return State._wrap(pos, game(pos.game_id), "core", int(self.plies[cast(int, as_int(i))]))

    def step(self, actions: Any) -> None:
        """Play ``actions[i]`` in env ``i`` (docs/learning.md); a list's items may be any
        ints (``katra._limits.as_int``: NumPy integers too), never bools."""
        try:
            super().step(actions)
        except ArgumentTypeError:
            # the core takes exact ints from a list: read the others by katra's rule
            # (the core changed nothing before raising, and names the first non-int left)
            if not isinstance(actions, (list, tuple)):
                raise
            super().step([a if (n := as_int(a)) is None else n for a in actions])
