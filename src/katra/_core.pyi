"""Typing stub of the compiled core ``katra._core`` (surface: docs/backends.md).

Same names and semantics as ``katra._reference`` (push/pop, the move stack and
the Zobrist hash included; tests/test_parity.py checks it); the extras below
(``search``, ``__hash__``) exist only in the core.

Long calls (``perft``, ``divide``, ``playouts``, ``search``) run without the
GIL and poll every few milliseconds: Ctrl-C (SIGINT, seen by the main thread)
makes them raise ``KeyboardInterrupt`` (or whatever the SIGINT handler
raises), ``cancel_jobs()`` makes every running one raise ``JobCancelled`` (a
``KeyboardInterrupt``) in its own thread; a stopped call frees what it
allocated and returns nothing.
"""
from collections.abc import Callable
from typing import Any, BinaryIO

__all__ = ["Position", "perft", "divide", "playouts", "search", "Searcher", "cancel_jobs",
           "JobCancelled", "VectorGame", "Solver", "SolverTable"]

class Position:
    """One position of one game (mutable); the state is a C struct held by value."""

    def __init__(self, data: Any) -> None:
        """From a ``katra._text.PositionData`` (like the reference), checked as ``from_text``
        checks a text (``katra._text.check_position``: ``PositionError`` naming the problem);
        prefer ``initial``/``from_text``."""

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
    def copy(self, stack: bool = True) -> Position:
        """An independent copy; with ``stack=False``, without the push/pop stack."""
    def legal_actions(self) -> list[int]:
        """Legal actions, ascending, lap limit applied."""
    def is_legal(self, action: int) -> bool:
        """Never raises for an int; ``IllegalMoveError`` for a non-int."""
    def apply(self, action: int) -> None:
        """Play a legal action in place; ``IllegalMoveError`` (position untouched) otherwise."""
    def lap_count(self, action: int, limit: int = 10000) -> int | None:
        """Laps of a sowing candidate if ``<= limit`` (``1..2**62``), else None
        (never-ending: always None)."""
    def is_terminal(self) -> bool: ...
    def outcome(self) -> tuple[int, int, int] | None:
        """None while not terminal, else ``(winner, south_score, north_score)``;
        winner -1 = draw."""
    def __eq__(self, other: object) -> bool: ...
    def __ne__(self, other: object) -> bool: ...
    def zobrist(self) -> int:
        """64-bit hash of board, owners, stores, to-move and offer; keys from ``katra._zobrist``."""
    def __hash__(self) -> int:
        """Consistent with ``==`` (derived from ``zobrist()``); an extra of the core."""
    def _key(self) -> bytes:
        """The position as bytes (16-bit counts): equal positions, equal keys."""
    def _child_keys(self) -> list[tuple[int, bytes]]:
        """``(action, the child's _key())`` for every legal action, ascending."""
    @staticmethod
    def _from_key(key: bytes) -> Position:
        """The position of a key ``_key`` made in this process; PositionError otherwise."""
    def push(self, action: int) -> None:
        """Like ``apply`` (only that action is simulated), remembering the position for ``pop``."""
    def pop(self) -> int:
        """Undo the last ``push`` and return its action; ``IndexError`` if the stack is empty."""
    @property
    def stack_depth(self) -> int:
        """How many ``push`` calls ``pop`` can undo."""
    @property
    def move_stack(self) -> list[int]:
        """The actions pushed and not yet popped, oldest first (a new list of ints)."""
    def __copy__(self) -> Position: ...
    def __deepcopy__(self, memo: Any) -> Position: ...
    def __reduce__(self) -> tuple[Callable[[str], Position], tuple[str]]:
        """``(Position.from_text, (text,))``: pickles compactly (the push stack is not kept)."""

def perft(pos: Position, depth: int) -> int:
    """docs/rules.md §1.4; ``depth`` an int in 0..500 (else ``ValueError``). Runs without the
    GIL; ``KeyboardInterrupt`` on Ctrl-C, ``JobCancelled`` on ``cancel_jobs()``."""

def divide(pos: Position, depth: int) -> list[tuple[int, int]]:
    """``[(action, perft(child, depth - 1)), ...]``, ascending actions; ``depth`` in 1..500.
    Stops like ``perft``."""

def playouts(pos: Position, games: int, seed: int, max_plies: int,
             first_game: int = 0) -> dict[str, int]:
    """Games ``first_game .. first_game + games - 1`` of the batch seeded ``seed``
    (docs/rules.md §6.2; ``first_game + games <= 2**62``, ``max_plies`` in ``0..2**62``,
    refused beyond as by the API): keys games, south_wins, north_wins, draws,
    unfinished, plies.  Stops like ``perft``."""

# -- extra of the core: the search engine (docs/engine.md)
def search(pos: Position, depth: int | None = None, time_seconds: float | None = None, *,
           tt_bits: int | None = None, nodes: int | None = None,
           every_move: bool = False) -> dict[str, Any]:
    """Iterative-deepening alpha-beta with a fresh transposition table, without the GIL.

    ``depth``: None or an int 1..64; ``time_seconds``: None or a number in
    ``(0, 10**6]``; ``nodes``: None or an int 1..2**62 (a node budget); at least
    one (else ``ArgumentError``), the first reached stops; a finished game raises
    ``ArgumentError``.  Stops like ``perft`` (Ctrl-C, ``cancel_jobs()``).
    ``tt_bits``: the table holds ``2**tt_bits`` entries of 16 bytes (0 turns it off;
    None sizes it by the clock or the depth, 16..22 bits, at most the node budget's).
    Returns ``{"best_action": int, "score": int, "depth": int, "nodes": int,
    "pv": list[int], "seconds": float}``; ``score`` is from the side to move, a win
    ``plies`` plies away is ``100000 - plies``.  ``every_move`` adds ``"moves":
    [(action, score, pv), ...]``, every legal action with its exact score.
    ``pos`` is not changed.
    """

class Searcher:
    """The search engine with a transposition table kept between calls
    (katra.Engine).  ``tt_bits``: 0..28 (None: 20).  One thread at a time."""

    def __init__(self, tt_bits: int | None = None,
                 tables: EndgameTables | None = None) -> None: ...
    @property
    def tt_bits(self) -> int: ...
    def clear(self) -> None:
        """Empty the table."""
    def search(self, pos: Position, depth: int | None = None,
               time_seconds: float | None = None, nodes: int | None = None, *,
               every_move: bool = False) -> dict[str, Any]:
        """``search()`` with this table."""

class Mcts:
    """Monte Carlo tree search with its tree kept between calls (katra.MCTS,
    docs/mcts.md).  One thread at a time."""

    def __init__(self, exploration: float = 1.4, seed: int = 0, max_nodes: int | None = None,
                 max_plies: int | None = None) -> None: ...
    @property
    def exploration(self) -> float: ...
    @property
    def seed(self) -> int: ...
    @property
    def max_nodes(self) -> int: ...
    @property
    def max_plies(self) -> int: ...
    @property
    def tree_nodes(self) -> int: ...
    def clear(self) -> None:
        """Drop the tree and restart the playouts' count."""
    def search(self, pos: Position, simulations: int | None = None,
               time_seconds: float | None = None) -> dict[str, Any]:
        """Simulations from pos, re-rooting the kept tree when it holds pos."""

class SolverTable:
    """A transposition table that the Solvers of several threads may share
    (``Solver(table=...)``; lockless, docs/solve.md): ``2**tt_bits`` entries of
    16 bytes, 10..28 (None: 20, 16 MiB), allocated at once and never grown.
    Freed when the table and every Solver using it are gone."""

    def __init__(self, tt_bits: int | None = None) -> None: ...
    @property
    def tt_bits(self) -> int: ...

class Solver:
    """The exact solver's state: a transposition table kept between calls
    (docs/solve.md).  ``tt_bits``: its own table of ``2**tt_bits`` entries of
    16 bytes, 10..28 (None: 2**16, grown between bounds up to 2**20);
    ``table``: a ``SolverTable`` shared with other threads' Solvers
    instead (``tt_bits`` then None).  One thread at a time per Solver; every
    method runs without the GIL and stops like ``perft`` (Ctrl-C, ``cancel_jobs()``)."""

    def __init__(self, tt_bits: int | None = None, table: SolverTable | None = None,
                 tables: EndgameTables | None = None) -> None: ...
    @property
    def nodes(self) -> int:
        """Positions visited by every call so far."""
    def thresholds(self, pos: Position, max_bound: int, time_seconds: float | None = None,
                   known: tuple[list[int | None], int] | None = None,
                   players: tuple[int, ...] = (0, 1)) -> tuple[list[int | None], int, bool]:
        """``(thresholds, bound, timed_out)``: the least bounds within which South
        forces a draw or better, South a win, North a draw or better, North a win
        (-1: not within ``bound``, None: never), by iterative deepening on the
        bound up to ``max_bound`` (1..500) until the value is known.  ``known``:
        ``(thresholds, bound)`` of an earlier call on ``pos``: resume at ``bound + 1``;
        ``players``: whose questions to ask (the others' stay as known)."""
    def forces(self, pos: Position, player: int, target: int, plies: int) -> bool:
        """Can ``player`` force the end within ``plies`` plies with a draw or better
        (``target`` 0) or a win (1)?"""
    def best_action(self, pos: Position, thresholds: list[int | None]) -> int:
        """The best action given resolved ``thresholds`` (-1 if they are not)."""

class DfpnTable:
    """A df-pn transposition table of ``2**tt_bits`` entries of 24 bytes
    (10..28; None: 2**20) that the DfpnSolvers of several threads may share
    (``DfpnSolver(table=...)``), without locks: what one proves, the others read."""

    def __init__(self, tt_bits: int | None = None) -> None: ...
    @property
    def tt_bits(self) -> int:
        """The table holds ``2**tt_bits`` entries."""
    def used(self) -> int:
        """How many of its slots hold an entry."""
    def write_to(self, stream: BinaryIO) -> None:
        """Write the slots (24 bytes each, this machine's byte order) to ``stream``."""
    def read_from(self, stream: BinaryIO) -> None:
        """Fill the slots from ``stream``; a short or wrong read leaves the table
        empty and raises ArgumentError."""

def _dfpn_fingerprint(pos: Position) -> int:
    """df-pn's table layout in this build, for ``pos``'s key (a saved table is read
    only by a build that agrees)."""

class DfpnSolver:
    """Depth-first proof-number search without a ply bound (docs/solve.md),
    with its transposition table of ``2**tt_bits`` entries of 24 bytes
    (10..28; None: 2**20), kept between calls and shared by the four
    questions; ``table``: a ``DfpnTable`` shared with other threads'
    DfpnSolvers instead (``tt_bits`` then None).  One thread at a time per
    DfpnSolver; every search runs without the GIL and stops like ``perft``
    (Ctrl-C, ``cancel_jobs()``)."""

    def __init__(self, tt_bits: int | None = None, tables: EndgameTables | None = None,
                 table: DfpnTable | None = None) -> None: ...
    @property
    def nodes(self) -> int:
        """Positions made by every call so far."""
    @property
    def tt_bits(self) -> int:
        """The table holds ``2**tt_bits`` entries."""
    @property
    def table(self) -> DfpnTable:
        """Its table (its own, or the one given)."""
    def prove(self, pos: Position, player: int, target: int,
              max_nodes: int | None = None) -> tuple[int, int]:
        """``(status, depth)``: can ``player`` force a draw or better (``target``
        0) or a win (1) within some finite number of plies?  status 1: proven,
        ``depth`` the proof's depth (an upper bound on the plies); 0: disproven
        (resting on no repetition above ``pos``); -1: neither (the budget
        ``max_nodes``, 1..2**62, ran out, or the disproof rests on a repetition)."""
    def lookup(self, pos: Position, player: int, target: int) -> tuple[int, int]:
        """``(status, depth)`` as ``prove`` from the endgame tables (if given)
        and the transposition table alone (-1: not known)."""
    def numbers(self, pos: Position, player: int, target: int) -> tuple[int, int, int] | None:
        """``(pn, dn, depth)`` of the question at ``pos`` from the table alone
        (None: no entry): the proof and disproof numbers (0 and 2**30 - 1 once
        proven, the reverse once disproven) and a proven node's proof depth."""
    def search(self, pos: Position, player: int, target: int, pn_limit: int, dn_limit: int,
               max_nodes: int) -> tuple[int, int, tuple[int, int] | None]:
        """df-pn at ``pos`` until its proof number reaches ``pn_limit`` or its
        disproof number ``dn_limit`` (2..2**30 - 1), it is settled, or
        ``max_nodes`` nodes are spent: ``(status, depth, numbers)``, status and
        depth as ``prove``'s, numbers its ``(pn, dn)`` on leaving (None: the
        budget stopped it)."""
    def children_numbers(self, pos: Position, player: int, target: int
                         ) -> tuple[tuple[int, int, int] | None, ...]:
        """``numbers`` of each child of ``pos``, in legal-action order, in
        one call (``()`` for a finished game)."""

class JobCancelled(KeyboardInterrupt):
    """A core job stopped by cancel_jobs()."""

def cancel_jobs() -> None:
    """Stop every core job running in this process (in any thread) at its next poll:
    each raises ``JobCancelled`` within milliseconds.  Jobs started later run normally."""

# -- extras of the core: tensors for learning code (docs/learning.md)
def observation(pos: Position, player: int | None = None, out: Any = None) -> Any:
    """The observation (``3 * holes + 4`` numbers) from ``player``'s view (None: the player
    to move), a list or written into the writable buffer ``out`` (returned)."""
def bad_player_message(player: object) -> str:
    """The ValueError message for a ``player`` that is not 0, 1 or None."""
def legal_actions_mask(pos: Position, out: Any = None) -> Any:
    """1 per legal action, ``num_actions`` long; a list or written into ``out``."""
def observations(positions: list[Position], player: int | None = None, out: Any = None) -> Any:
    """Rows of observations of positions of one game; a list of lists or into ``out``."""
def legal_actions_masks(positions: list[Position], out: Any = None) -> Any:
    """Rows of masks of positions of one game; a list of lists or into ``out``."""

class VectorGame:
    """Many games of one game id in one C array, stepped together without the GIL."""

    SKIP: int
    @property
    def observations(self) -> Any:
        """``num_envs x observation_size`` float32 (NumPy array, or a flat ``array('f')``)."""
    @property
    def action_masks(self) -> Any:
        """``num_envs x num_actions`` bool (NumPy) or a flat ``bytearray``."""
    @property
    def rewards(self) -> Any:
        """``num_envs x 2`` float32: South's and North's reward of the last step."""
    @property
    def terminated(self) -> Any: ...
    @property
    def truncated(self) -> Any: ...
    @property
    def to_move(self) -> Any: ...
    @property
    def plies(self) -> Any: ...
    @property
    def num_envs(self) -> int: ...
    @property
    def game_id(self) -> str: ...
    @property
    def observation_size(self) -> int: ...
    @property
    def num_actions(self) -> int: ...
    @property
    def max_plies(self) -> int: ...
    @property
    def num_threads(self) -> int: ...
    def __init__(self, game: Any, num_envs: int, seed: int = 0, max_plies: int = 1000,
                 view: int | None = None, num_threads: int = 1) -> None:
        """Bad arguments raise ``ArgumentTypeError`` / ``ArgumentError`` naming them."""
    def reset(self, seed: int | None = None) -> Any:
        """Every env to the start; returns ``observations``."""
    def step(self, actions: Any) -> None:
        """One action per env (any integer buffer or a list); ``SKIP`` (-1) leaves an env alone."""
    def random_actions(self) -> Any:
        """One action per env from its docs/rules.md §6.2 generator (int64 array)."""
    def step_random(self) -> Any:
        """``step(random_actions())`` in one call; returns the actions played."""
    def position(self, i: int) -> Position:
        """A copy of env ``i``'s position."""

#: The C API for Cython extensions: a PyCapsule of its function table (katra/capi.pxd,
#: docs/cython.md); import_katra() reads it.
_C_API: object
#: df-pn's longest path as compiled; katra._limits.DFPN_MAX_PATH (checked at load).
DFPN_MAX_PATH_OF_CORE: int

class EndgameTables:
    """Djenon-aboure's endgame tables in memory (docs/tables.md): the layers
    ``0..max_seeds`` of board seeds, 2 values (bytes) and 2 plies (16-bit,
    native order) a board; read-only, shared by any number of threads."""

    def __init__(self, values: list[bytes], plies: list[bytes]) -> None: ...
    @property
    def game_id(self) -> str: ...
    @property
    def max_seeds(self) -> int:
        """The largest layer held."""
    def values(self, pos: Position) -> tuple[int | None, int | None, int, int] | None:
        """``(a, b, a's plies, b's plies)``: the most of the board's seeds the
        player to move (a) and the opponent (b) can force (None: they cannot
        force the game to end); None if the board is not held."""
    def probe(self, pos: Position, player: int, target: int) -> tuple[int, int]:
        """``(status, plies)`` as ``DfpnSolver.prove`` answers, from the
        table (-1: the board is not held)."""

def _table_boards(k: int) -> int:
    """The boards of ``k`` seeds (0..16) on Djenon-aboure's 12 holes."""

def _table_build_layer(k: int, values: list[bytes],
                       plies: list[bytes]) -> tuple[bytes, bytes, int]:
    """Layer ``k`` of Djenon-aboure's tables from the layers below: values, plies, sweeps."""
