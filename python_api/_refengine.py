"""The reference ``Position`` given the compiled core's search surface.

``katra._reference.Position`` has the rules; the core's ``Position`` adds, for
search, ``push``/``pop`` with an internal stack and a 64-bit Zobrist hash.
:class:`ReferenceEngine` adds the same to the reference, in plain Python, so
that :class:`katra.State` runs unchanged over either backend:

* ``push`` keeps a stack of copies of the whole position (the core keeps a
  stack of struct copies: the same idea);
* ``zobrist()`` computes the core's hash from scratch, with the core's keys
  (splitmix64 from the seed ``0x4B41545241``, "KATRA"), so **both backends
  give equal hashes for equal positions** (checked by the test suite).
"""
from __future__ import annotations

from katra._games import GAME_IDS
from katra._reference import Position

MASK64 = (1 << 64) - 1
_MAX_HOLES = 36


def _splitmix64(state: int) -> tuple[int, int]:
    """``(new_state, output)`` of splitmix64 (RULES.md §6.2)."""
    state = (state + 0x9E3779B97F4A7C15) & MASK64
    z = state
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
    return state, z ^ (z >> 31)


def mix64(z: int) -> int:
    """The splitmix64 finaliser (the core's ``mix64``)."""
    z &= MASK64
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
    return z ^ (z >> 31)


def _keys() -> dict[str, list[int]]:
    """The core's key tables, drawn in the core's order (``_build_tables``)."""
    rng = 0x4B41545241
    hole, owner = [], []
    for _ in range(_MAX_HOLES):
        rng, _additive = _splitmix64(rng)  # HOLE_KEY: the core's lap-start hash, unused here
        rng, key = _splitmix64(rng)
        hole.append(key)
        rng, key = _splitmix64(rng)
        owner.append(key)
    rest = []
    for _ in range(2 + 2 + 1 + 1 + len(GAME_IDS)):  # KEY_POS, KEY_HAND, stores, move, offer, games
        rng, key = _splitmix64(rng)
        rest.append(key)
    return {"hole": hole, "owner": owner, "store": rest[2:4], "move": [rest[4]],
            "offer": [rest[5]], "game": rest[6:]}


_KEYS = _keys()
_GAME_INDEX = {game_id: k for k, game_id in enumerate(GAME_IDS)}


def zobrist(pos: Position) -> int:
    """The core's 64-bit Zobrist hash of a reference position."""
    keys = _KEYS
    z = keys["game"][_GAME_INDEX[pos.game_id]]
    hole, owner = keys["hole"], keys["owner"]
    for i, count in enumerate(pos.board):
        z ^= mix64(hole[i] + count)
        if pos.owners[i]:
            z ^= owner[i]
    z ^= mix64(keys["store"][0] + pos.stores[0])
    z ^= mix64(keys["store"][1] + pos.stores[1])
    if pos.to_move:
        z ^= keys["move"][0]
    if pos.offer:
        z ^= mix64(keys["offer"][0] + pos.offer)
    return z


class ReferenceEngine:
    """A reference ``Position`` with ``push``/``pop`` (a stack of copies) and ``zobrist()``.

    Everything else is forwarded to the wrapped position, which the reference
    jobs (perft, divide, playouts) take as ``engine.position``.
    """

    __slots__ = ("position", "_undo")

    def __init__(self, position: Position) -> None:
        self.position = position
        self._undo: list[Position] = []

    @classmethod
    def initial(cls, game_id: str) -> ReferenceEngine:
        return cls(Position.initial(game_id))

    @classmethod
    def from_text(cls, text: str) -> ReferenceEngine:
        return cls(Position.from_text(text))

    # -- the backend surface, forwarded
    def text(self) -> str:
        return self.position.text()

    @property
    def game_id(self) -> str:
        return self.position.game_id

    @property
    def board(self) -> list[int]:
        return list(self.position.board)

    @property
    def owners(self) -> list[int]:
        return list(self.position.owners)

    @property
    def stores(self) -> tuple[int, int]:
        south, north = self.position.stores
        return (south, north)

    @property
    def to_move(self) -> int:
        return self.position.to_move

    @property
    def pending_offer(self) -> int:
        return self.position.offer

    def legal_actions(self) -> list[int]:
        return self.position.legal_actions()

    def is_legal(self, action: int) -> bool:
        return self.position.is_legal(action)

    def apply(self, action: int) -> None:
        self.position.apply(action)

    def is_terminal(self) -> bool:
        return self.position.is_terminal()

    def outcome(self) -> tuple[int, int, int] | None:
        return self.position.outcome()

    # -- the search surface
    def push(self, action: int) -> None:
        """Play ``action`` (``IllegalMoveError``, position untouched, if it is not legal)."""
        saved = self.position.copy()
        self.position.apply(action)
        self._undo.append(saved)

    def pop(self) -> None:
        """Undo the last ``push`` (``IndexError`` if there is none)."""
        if not self._undo:
            raise IndexError("pop from an empty move stack")
        self.position = self._undo.pop()

    def copy(self) -> ReferenceEngine:
        """An independent copy of the position and of the undo stack."""
        clone = ReferenceEngine(self.position.copy())
        clone._undo = list(self._undo)  # the saved positions are never mutated
        return clone

    def zobrist(self) -> int:
        return zobrist(self.position)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, ReferenceEngine):
            return NotImplemented
        return bool(self.position == other.position)

    def __hash__(self) -> int:
        return hash(self.zobrist())
