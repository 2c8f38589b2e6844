"""The reference ``Position``: one position of one game, played in place.

Game-independent bookkeeping only (text, copies, the push/pop stack, the
Zobrist hash); the rules are in one file per game family (katro.py,
mpantsaka.py, gore.py, djenon.py), each with the same functions:
``sowing_candidates``, ``sow``, ``legal_actions``, ``apply``, ``outcome``.
"""
from __future__ import annotations

from typing import NamedTuple, Protocol

from .._errors import IllegalMoveError
from .._games import DJENON, GORE, KATRO, LAP_LIMIT, MPANTSAKA, GameSpec, game_by_id
from .._limits import as_int, check_lap_limit
from .._text import (
    PositionData,
    action_text,
    check_action_range,
    check_position,
    format_position,
    initial_data,
    parse_position,
)
from .._zobrist import zobrist
from . import djenon, gore, katro, mpantsaka
from .common import LapWatcher


class Rules(Protocol):
    """What each rules file (katro.py, mpantsaka.py, gore.py, djenon.py) provides."""

    def sowing_candidates(self, pos: Position) -> list[int]: ...
    def sow(self, pos: Position, action: int, limit: int,
            watch: LapWatcher | None = None) -> int | None: ...
    def legal_actions(self, pos: Position, limit: int) -> list[int]: ...
    def apply(self, pos: Position, action: int, limit: int,
              watch: LapWatcher | None = None) -> None: ...
    def outcome(self, pos: Position) -> tuple[int, int, int]: ...


RULES: dict[str, Rules] = {KATRO: katro, MPANTSAKA: mpantsaka, GORE: gore, DJENON: djenon}


class _Pushed(NamedTuple):
    """One ``push``: the position before it and the action, on top of the earlier ones.

    Immutable, so copies of a position share their stacks: copying is O(1).
    """

    board: tuple[int, ...]
    owners: tuple[int, ...]
    store: tuple[int, int]
    to_move: int
    offer: int
    action: int
    below: _Pushed | None
    depth: int


class Position:
    """A mutable position (see docs/backends.md for the surface)."""

    __slots__ = ("spec", "board", "owners", "store", "to_move", "offer", "_pushed")

    def __init__(self, data: PositionData) -> None:
        data = check_position(data)  # as from_text checks a text
        self.spec: GameSpec = data.spec
        self.board: list[int] = list(data.board)
        self.owners: list[int] = list(data.owners)
        self.store: list[int] = list(data.stores)  # seeds captured, South and North
        self.to_move: int = data.to_move
        self.offer: int = data.offer
        self._pushed: _Pushed | None = None  # the push/pop stack

    # -- construction and text
    @classmethod
    def initial(cls, game_id: str) -> Position:
        return cls(initial_data(game_by_id(game_id)))

    @classmethod
    def from_text(cls, text: str) -> Position:
        return cls(parse_position(text))

    def text(self) -> str:
        return format_position(PositionData(self.spec, self.board, self.to_move, self.store,
                                            self.owners, self.offer))

    def __repr__(self) -> str:
        return f"Position.from_text({self.text()!r})"

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Position):
            return NotImplemented
        return self.text() == other.text()

    def __hash__(self) -> int:
        return hash(self.text())

    def copy(self, stack: bool = True) -> Position:
        """An independent copy; with ``stack=False``, without the push/pop stack."""
        clone = Position.__new__(Position)
        clone.spec, clone.to_move, clone.offer = self.spec, self.to_move, self.offer
        clone.board, clone.owners, clone.store = (list(self.board), list(self.owners),
                                                  list(self.store))
        clone._pushed = self._pushed if stack else None
        return clone

    def __copy__(self) -> Position:
        return self.copy()

    def __deepcopy__(self, memo: object) -> Position:
        return self.copy()

    def __reduce__(self) -> tuple[object, tuple[str]]:
        """Pickles as the position text (the push/pop stack is not kept)."""
        return (Position.from_text, (self.text(),))

    # -- read-only views named as in the compiled core
    @property
    def game_id(self) -> str:
        return self.spec.id

    @property
    def stores(self) -> tuple[int, int]:
        return self.store[0], self.store[1]

    @property
    def pending_offer(self) -> int:
        return self.offer

    @property
    def rules(self) -> Rules:
        return RULES[self.spec.family]

    # -- play
    def legal_actions(self) -> list[int]:
        return self.rules.legal_actions(self, LAP_LIMIT)

    def is_legal(self, action: int) -> bool:
        number = as_int(action)
        if number is None:
            raise IllegalMoveError(f"an action must be an int, not {type(action).__name__}")
        return number in self.legal_actions()

    def apply(self, action: int) -> None:
        self.apply_watched(action, None)

    def apply_watched(self, action: int, watch: LapWatcher | None) -> None:
        """``apply``, calling ``watch(lap)`` with a ``LapSeen`` for every lap of the
        sowing, in order (none for a move that sows nothing); ``watch=None`` is ``apply``.

        The reference's lap-watching hook (docs/backends.md, "Watching the laps"), which
        ``katra.explain`` reads its laps from; the core has no such hook.
        """
        action = check_action_range(self.spec, action)
        legal = self.legal_actions()
        if action not in legal:
            moves = ", ".join(action_text(self.spec, a) for a in legal) or "none"
            raise IllegalMoveError(f"{action_text(self.spec, action)} ({action}) is not legal "
                                   f"in {self.text()!r}; legal: {moves}")
        self.rules.apply(self, action, LAP_LIMIT, watch)

    # -- push/pop and the hash, for search code
    def push(self, action: int) -> None:
        """Like ``apply``, remembering the position for ``pop``."""
        before = (tuple(self.board), tuple(self.owners), (self.store[0], self.store[1]),
                  self.to_move, self.offer)
        self.apply(action)
        below = self._pushed
        self._pushed = _Pushed(*before, int(action), below, below.depth + 1 if below else 1)

    def pop(self) -> int:
        """Undo the last ``push`` and return its action; ``IndexError`` if there is none."""
        top = self._pushed
        if top is None:
            raise IndexError("pop from an empty move stack")
        self.board, self.owners, self.store = list(top.board), list(top.owners), list(top.store)
        self.to_move, self.offer, self._pushed = top.to_move, top.offer, top.below
        return top.action

    @property
    def stack_depth(self) -> int:
        """How many ``push`` calls ``pop`` can undo."""
        return self._pushed.depth if self._pushed else 0

    @property
    def move_stack(self) -> list[int]:
        """The actions pushed and not yet popped, oldest first (a new list)."""
        actions = []
        frame = self._pushed
        while frame is not None:
            actions.append(frame.action)
            frame = frame.below
        return actions[::-1]

    def zobrist(self) -> int:
        """The 64-bit Zobrist hash, equal to the core's for the same position."""
        return zobrist(self.spec.id, self.board, self.owners, self.store, self.to_move,
                       self.offer)

    def lap_count(self, action: int, limit: int = LAP_LIMIT) -> int | None:
        check_action_range(self.spec, action)
        check_lap_limit(limit)
        if action not in self.rules.sowing_candidates(self):
            raise IllegalMoveError(f"{action_text(self.spec, action)} ({action}) does not start "
                                   f"a sowing in {self.text()!r}")
        return self.rules.sow(self.copy(), action, limit)

    def is_terminal(self) -> bool:
        return not self.legal_actions()

    def outcome(self) -> tuple[int, int, int] | None:
        if not self.is_terminal():
            return None
        return self.rules.outcome(self)
