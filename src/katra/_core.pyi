"""Typing stub of the compiled core ``katra._core`` (surface: docs/backends.md).

Same names and semantics as ``katra._reference``; the extras marked below
(``zobrist``, ``push``, ``pop``, ``stack_depth``, ``__hash__``,
``__reduce__``) exist only in the core, for the API's fast paths.
"""
from typing import Any, Callable

__all__ = ["Position", "perft", "divide", "playouts"]

class Position:
    """One position of one game (mutable); the state is a C struct held by value."""

    def __init__(self, data: Any) -> None:
        """From a ``katra._text.PositionData`` (like the reference); prefer ``initial``/``from_text``."""

    @classmethod
    def initial(cls, game_id: str) -> Position:
        """The start position; ``UnknownGameError`` for a bad id."""
    @classmethod
    def from_text(cls, text: str) -> Position:
        """Read position text; ``PositionError`` on any malformed input."""
    def text(self) -> str:
        """The canonical position text."""
    @property
    def game_id(self) -> str: ...
    @property
    def board(self) -> list[int]:
        """Counts in flat index order (``a1`` = 0)."""
    @property
    def owners(self) -> list[int]:
        """0 South / 1 North per hole."""
    @property
    def stores(self) -> tuple[int, int]: ...
    @property
    def to_move(self) -> int: ...
    @property
    def pending_offer(self) -> int:
        """Goré: mask of the squares offered by the player not to move; 0 if none."""
    def copy(self) -> Position:
        """An independent copy (the push/pop stack included)."""
    def legal_actions(self) -> list[int]:
        """Legal actions, ascending, lap limit applied."""
    def is_legal(self, action: int) -> bool:
        """Never raises for an int; ``IllegalMoveError`` for a non-int."""
    def apply(self, action: int) -> None:
        """Play a legal action in place; ``IllegalMoveError`` (position untouched) otherwise."""
    def lap_count(self, action: int, limit: int = 10000) -> int | None:
        """Laps of a sowing candidate if ``<= limit``, else None (never-ending: always None)."""
    def is_terminal(self) -> bool: ...
    def outcome(self) -> tuple[int, int, int] | None:
        """None while not terminal, else ``(winner, south_score, north_score)``; winner -1 = draw."""
    def __eq__(self, other: object) -> bool: ...
    def __ne__(self, other: object) -> bool: ...
    # -- extras of the core
    def zobrist(self) -> int:
        """64-bit hash of board, owners, stores, to-move and offer; fixed keys, stable across runs."""
    def __hash__(self) -> int:
        """Consistent with ``==`` (derived from ``zobrist()``)."""
    def push(self, action: int) -> None:
        """Like ``apply`` (only that action is simulated), remembering the position for ``pop``."""
    def pop(self) -> int:
        """Undo the last ``push`` and return its action; ``IndexError`` if the stack is empty."""
    @property
    def stack_depth(self) -> int:
        """How many ``push`` calls ``pop`` can undo."""
    def __copy__(self) -> Position: ...
    def __deepcopy__(self, memo: Any) -> Position: ...
    def __reduce__(self) -> tuple[Callable[[str], Position], tuple[str]]:
        """``(Position.from_text, (text,))``: pickles compactly (the push stack is not kept)."""

def perft(pos: Position, depth: int) -> int:
    """RULES.md §1.4; ``depth`` an int >= 0 (else ``ValueError``). Runs without the GIL."""

def divide(pos: Position, depth: int) -> list[tuple[int, int]]:
    """``[(action, perft(child, depth - 1)), ...]``, ascending actions; ``depth >= 1``."""

def playouts(pos: Position, games: int, seed: int, max_plies: int,
             first_game: int = 0) -> dict[str, int]:
    """Games ``first_game .. first_game + games - 1`` of the batch seeded ``seed``
    (docs/rules.md §6.2; ``first_game + games <= 2**62``): keys games, south_wins,
    north_wins, draws, unfinished, plies."""

# -- extra of the core: the search engine (docs/engine.md)
def search(pos: Position, depth: int | None = None, time_seconds: float | None = None, *,
           tt_bits: int | None = None) -> dict[str, Any]:
    """Iterative-deepening alpha-beta with a transposition table, without the GIL.

    ``depth``: None or an int 1..64; ``time_seconds``: None or a positive number; at
    least one (else ``ValueError``); a finished game raises ``ValueError``.
    ``tt_bits``: the table holds ``2**tt_bits`` entries of 16 bytes (0 turns it off;
    None sizes it by the clock or the depth, 16..22 bits).
    Returns ``{"best_action": int, "score": int, "depth": int, "nodes": int,
    "pv": list[int], "seconds": float}``; ``score`` is from the side to move, a win
    ``plies`` plies away is ``100000 - plies``.  ``pos`` is not changed.
    """

class JobCancelled(KeyboardInterrupt):
    """A core job stopped by cancel_jobs()."""

def cancel_jobs() -> None:
    """Stop every core job running in this process (in any thread) at its next poll."""
