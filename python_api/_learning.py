"""Tensors for learning code, written into any writable buffer (no NumPy needed).

Observation layout (``game.observation_size = 3 * H + 3`` numbers, ``H`` =
``rows * cols``), all **from the point of view of the player to move**: the
board is turned a half turn when North is to move (hole ``i`` is read at
``H - 1 - i``), so index 0 is always the mover's outer-left hole (``a1`` for
South, the top-right hole as South sees it, ``a1`` rotated, for North) and the
mover's rows come first:

========================  ===============================================
``[0, H)``                seeds in each hole
``[H, 2H)``               1 if the mover owns the hole, else 0
``[2H, 3H)``              1 if the hole is in a pending Goré offer, else 0
``3H``                    the mover's store
``3H + 1``                the opponent's store
``3H + 2``                side to move: 0 South, 1 North
========================  ===============================================

Counts are raw seed counts (scale them as you like).  The legal-actions mask
has ``game.num_actions`` entries, 1 for a legal action.
"""
from __future__ import annotations

import sys
from array import array
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ._state import State

__all__ = ["observation", "legal_actions_mask", "fill_rows"]

_INT_CODES = "bBhHiIlLqQ"
_FLOAT_CODES = "fd"


def _flat(out: Any, size: int, what: str) -> tuple[memoryview, str]:
    """A writable 1-D memoryview over ``out`` holding exactly ``size`` items, and its typecode."""
    try:
        view = memoryview(out)
    except TypeError:
        raise TypeError(f"{what}: out must be a writable buffer (bytearray, array.array, "
                        f"NumPy array...), not {type(out).__name__}") from None
    if view.readonly:
        raise ValueError(f"{what}: out is read-only")
    if not view.c_contiguous:
        raise ValueError(f"{what}: out must be C-contiguous")
    code = view.format
    if len(code) == 2 and (code[0] in "@=" or code[0] == ("<" if sys.byteorder == "little" else ">")):
        code = code[1:]
    if code not in _INT_CODES + _FLOAT_CODES + "?":
        raise TypeError(f"{what}: unsupported item format {view.format!r} "
                        "(use an integer, bool, float32 or float64 buffer)")
    if view.ndim != 1 or view.format != code:
        view = view.cast("B").cast(code)  # type: ignore[call-overload]
    if len(view) != size:
        raise ValueError(f"{what}: out holds {len(view)} items, expected {size}")
    if code == "?":
        view, code = view.cast("B"), "B"
    return view, code


def _write(view: memoryview, code: str, start: int, values: list[int]) -> None:
    view[start:start + len(values)] = array(code, values if code not in _FLOAT_CODES
                                            else [float(v) for v in values])


def _observation_values(state: State) -> list[int]:
    pos = state._pos
    mover = pos.to_move
    board = state.board  # fresh lists: reversed in place below
    owners = state.owners
    offer = pos.pending_offer
    stores = pos.stores
    if mover:
        board.reverse()
        owners.reverse()
    holes = len(board)
    values = board
    values += [1 if o == mover else 0 for o in owners]
    if offer:
        values += [(offer >> (holes - 1 - j if mover else j)) & 1 for j in range(holes)]
    else:
        values += [0] * holes
    values += [stores[mover], stores[1 - mover], mover]
    return values


def _mask_values(state: State) -> list[int]:
    mask = [0] * state._game.num_actions
    for action in state._pos.legal_actions():
        mask[action] = 1
    return mask


def _fill(values: list[int], out: Any, what: str) -> Any:
    """``values`` as a list, or written into the caller's buffer ``out`` (returned)."""
    if out is None:
        return values
    view, code = _flat(out, len(values), what)
    _write(view, code, 0, values)
    return out


def observation(state: State, out: Any = None) -> Any:
    """``state.observation(out)``: see the module docs for the layout."""
    return _fill(_observation_values(state), out, "observation")


def legal_actions_mask(state: State, out: Any = None) -> Any:
    """``state.legal_actions_mask(out)``: 1 per legal action, ``game.num_actions`` long."""
    return _fill(_mask_values(state), out, "legal_actions_mask")


def fill_rows(batch: list[State], out: Any, width: int, values_of: Any, what: str) -> Any:
    """Row ``k`` of ``out`` (``len(batch) * width`` items) from ``batch[k]``, or a list of rows."""
    if out is None:
        return [values_of(s) for s in batch]
    view, code = _flat(out, len(batch) * width, what)
    for k, s in enumerate(batch):
        _write(view, code, k * width, values_of(s))
    return out

