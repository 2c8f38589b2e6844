"""Tensors for learning code, written into any writable buffer (no NumPy needed).

Observation layout (``game.observation_size = 3 * H + 4`` numbers, ``H`` =
``rows * cols``; ``game.observation_shape`` is ``(3 * H + 4,)``), all **from
the point of view of one player** (``player``; by default the player to
move): the board is turned a half turn for North (hole ``i`` is read at
``H - 1 - i``), so index 0 is always the viewer's outer-left hole and the
viewer's rows come first.  The first ``3 * H`` numbers are three planes of
``rows x cols`` in that orientation:

========================  ===============================================
``[0, H)``                seeds in each hole
``[H, 2H)``               1 if the viewer owns the hole, else 0
``[2H, 3H)``              1 if the hole is in a pending Goré offer, else 0
``3H``                    the viewer's store
``3H + 1``                the opponent's store
``3H + 2``                the viewer: 0 South, 1 North
``3H + 3``                1 if the viewer is to move, else 0
========================  ===============================================

Counts are raw seed counts (scale them as you like).  The legal-actions mask
has ``game.num_actions`` entries, 1 for a legal action.

On the compiled core both are filled in C (``katra._core.observation``...);
the functions below are the plain-Python version used for the reference
backend, and the core is tested against them.
"""
from __future__ import annotations

import sys
from array import array
from typing import TYPE_CHECKING, Any

from katra._errors import ArgumentError, ArgumentTypeError, BufferItemError
from katra._limits import as_int

from ._backends import bad_player_message

if TYPE_CHECKING:
    from ._state import State

__all__ = ["observation", "legal_actions_mask", "fill_rows", "player_arg", "observation_values",
           "mask_values"]

_INT_CODES = "bBhHiIlLqQnN"
_FLOAT_CODES = "fd"


def _flat(out: Any, size: int, what: str) -> tuple[memoryview, str]:
    """A writable 1-D memoryview over ``out`` holding exactly ``size`` items, and its
    typecode (the core's checks, _buffers.pxi's acquire, with its messages)."""
    try:
        view = memoryview(out)
    except TypeError:
        raise ArgumentTypeError(f"{what}: out must be a writable buffer (bytearray, "
                                f"array.array, NumPy array...), not {type(out).__name__}") from None
    if view.readonly:
        raise ArgumentError(f"{what}: out is read-only")
    if not view.c_contiguous:
        raise ArgumentError(f"{what}: out must be C-contiguous")
    code = view.format
    native = "<" if sys.byteorder == "little" else ">"
    if len(code) == 2 and (code[0] in "@=" or code[0] == native):
        code = code[1:]
    if code not in _INT_CODES + _FLOAT_CODES + "?":
        raise ArgumentTypeError(f"{what}: out has items of format {view.format!r}; use an "
                                "integer, bool, float32 or float64 buffer")
    if view.ndim != 1 or view.format != code:
        view = view.cast("B").cast(code)  # type: ignore[call-overload]
    if len(view) != size:
        raise ArgumentError(f"{what}: out holds {len(view)} items, expected {size}")
    return view, code


def _limit(code: str, itemsize: int) -> int:
    """The largest value an item of this typecode holds (values written are >= 0)."""
    if code == "?":
        return 1
    if code in _FLOAT_CODES or itemsize >= 4:
        return 2**31 - 1
    bits: int = 8 * itemsize - (1 if code.islower() else 0)
    return (1 << bits) - 1


def _write(out: Any, values: list[int], counts: bool, what: str) -> Any:
    """Write ``values`` into the caller's buffer (checked first: nothing written on error)."""
    view, code = _flat(out, len(values), what)
    if counts and code == "?":
        raise BufferItemError(f"{what}: a bool buffer cannot hold seed counts; use an "
                              "integer or float buffer")
    top = max(values, default=0)
    if top > _limit(code, view.itemsize):
        raise BufferItemError(f"{what}: the buffer's item type ({view.itemsize}-byte "
                              f"{'signed' if code.islower() else 'unsigned'} integers) cannot "
                              f"hold the value {top}; use a wider item type")
    if code == "?":
        view = view.cast("B")
        code = "B"
    view[:] = array(code, values if code not in _FLOAT_CODES else [float(v) for v in values])
    return out


def player_arg(player: object) -> int | None:
    """``player`` of an observation as 0, 1 or None (the player to move), on both backends:
    an int by katra's rule (``katra._limits.as_int``), else ``ValueError``."""
    if player is None:
        return None
    number = as_int(player)
    if number not in (0, 1):
        raise ValueError(bad_player_message(player))
    return number


def _viewer(state: State, player: object) -> int:
    viewer = player_arg(player)
    return state.to_move if viewer is None else viewer


def observation_values(state: State, player: object) -> list[int]:
    """The observation of docs/learning.md as a list, in Python (the reference's path)."""
    viewer = _viewer(state, player)
    board = state.board  # fresh lists (the reference's own are its state): reversed below
    owners = state.owners
    offer = state._offer_mask
    stores = state.stores
    holes = len(board)
    if viewer:
        board.reverse()
        owners.reverse()
    values = board
    values += [1 if o == viewer else 0 for o in owners]
    values += [(offer >> (holes - 1 - j if viewer else j)) & 1 for j in range(holes)]
    values += [stores[viewer], stores[1 - viewer], viewer, 1 if state.to_move == viewer else 0]
    return values


def mask_values(state: State) -> list[int]:
    """The legal-actions mask as a list, in Python (the reference's path)."""
    mask = [0] * state.game.num_actions
    for action in state.legal_actions():
        mask[action] = 1
    return mask


def observation(state: State, player: object = None, out: Any = None) -> Any:
    """``state.observation(player, out)`` in Python (the reference backend's path)."""
    values = observation_values(state, player)
    return values if out is None else _write(out, values, True, "observation")


def legal_actions_mask(state: State, out: Any = None) -> Any:
    """``state.legal_actions_mask(out)`` in Python (the reference backend's path)."""
    values = mask_values(state)
    return values if out is None else _write(out, values, False, "legal_actions_mask")


def fill_rows(rows: list[list[int]], out: Any, counts: bool, what: str) -> Any:
    """Rows of values (one per state) as they are, or written one after another into ``out``
    (``counts``: the values are seed counts, which a bool buffer cannot hold)."""
    if out is None:
        return rows
    return _write(out, [v for row in rows for v in row], counts, what)
