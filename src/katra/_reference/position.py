"""The reference ``Position``: one position of one game, played in place.

Game-independent bookkeeping only; the rules are in one file per game family
(katro.py, mpantsaka.py, gore.py, djenon.py), each with the same functions:
``sowing_candidates``, ``sow``, ``legal_actions``, ``apply``, ``outcome``.
"""
from __future__ import annotations

from .._errors import IllegalMoveError
from .._games import DJENON, GORE, KATRO, LAP_LIMIT, MPANTSAKA, GameSpec, game_by_id
from .._text import (PositionData, action_text, check_action_range, check_position,
                     format_position, initial_data, parse_position)
from . import djenon, gore, katro, mpantsaka

RULES = {KATRO: katro, MPANTSAKA: mpantsaka, GORE: gore, DJENON: djenon}


class Position:
    """A mutable position (see docs/backends.md for the surface)."""

    __slots__ = ("spec", "board", "owners", "store", "to_move", "offer")

    def __init__(self, data: PositionData) -> None:
        data = check_position(data)  # as from_text checks a text
        self.spec: GameSpec = data.spec
        self.board: list[int] = list(data.board)
        self.owners: list[int] = list(data.owners)
        self.store: list[int] = list(data.stores)  # seeds captured, South and North
        self.to_move: int = data.to_move
        self.offer: int = data.offer

    # -- construction and text
    @classmethod
    def initial(cls, game_id: str) -> "Position":
        return cls(initial_data(game_by_id(game_id)))

    @classmethod
    def from_text(cls, text: str) -> "Position":
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

    def copy(self) -> "Position":
        clone = Position.__new__(Position)
        clone.spec, clone.to_move, clone.offer = self.spec, self.to_move, self.offer
        clone.board, clone.owners, clone.store = (list(self.board), list(self.owners),
                                                  list(self.store))
        return clone

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
    def rules(self):
        return RULES[self.spec.family]

    # -- play
    def legal_actions(self) -> list[int]:
        return self.rules.legal_actions(self, LAP_LIMIT)

    def is_legal(self, action: int) -> bool:
        if isinstance(action, bool) or not isinstance(action, int):
            raise IllegalMoveError(f"an action must be an int, not {type(action).__name__}")
        return action in self.legal_actions()

    def apply(self, action: int) -> None:
        check_action_range(self.spec, action)
        legal = self.legal_actions()
        if action not in legal:
            moves = ", ".join(action_text(self.spec, a) for a in legal) or "none"
            raise IllegalMoveError(f"{action_text(self.spec, action)} ({action}) is not legal "
                                   f"in {self.text()!r}; legal: {moves}")
        self.rules.apply(self, action, LAP_LIMIT)

    def lap_count(self, action: int, limit: int = LAP_LIMIT) -> int | None:
        check_action_range(self.spec, action)
        if isinstance(limit, bool) or not isinstance(limit, int) or limit < 1:
            raise ValueError(f"limit must be an int >= 1, got {limit!r}")
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
