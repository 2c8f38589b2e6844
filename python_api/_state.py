"""Games and states: the objects search and learning code is written against.

Vocabulary from OpenSpiel (an immutable [Game][katra.Game] with a fixed integer
action space, a mutable [State][katra.State], ``legal_actions()`` ascending,
``returns()``) and python-chess (``push``/``pop``/``peek`` with a move stack,
``legal_moves`` as a lazy view, an [Outcome][katra.Outcome] dataclass, a ``repr``
that rebuilds the object).  See docs/api.md.
"""
from __future__ import annotations

import operator
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any, Protocol, cast

from katra._display import END_REASONS, offer_names
from katra._errors import IllegalMoveError, KatraError, UnknownGameError
from katra._games import (
    DEFAULT_MAX_PLIES,
    GAME_IDS,
    GAMES,
    GameSpec,
    find_game,
    game_by_id,
    game_with,
)
from katra._limits import MAX_START_PLY, check_int, check_perft_depth
from katra._text import action_text, check_action_range, parse_action

from . import _learning
from ._backends import CorePosition, backend_module, core_legal_actions_mask, core_observation
from ._records import Record, parse_records, write_record
from ._render import board_text
from ._svg import svg
from ._trace import MoveTrace, trace

__all__ = ["Game", "State", "Outcome", "LegalMoves", "game", "games"]


class BackendPosition(Protocol):
    """What a [State][katra.State] needs from a backend position (docs/backends.md).

    Both backends' ``Position`` classes have it all: the move stack is theirs.
    """

    @property
    def game_id(self) -> str: ...
    @property
    def board(self) -> list[int]: ...  # read only: the reference gives its own list
    @property
    def owners(self) -> list[int]: ...
    @property
    def stores(self) -> tuple[int, int]: ...
    @property
    def to_move(self) -> int: ...
    @property
    def pending_offer(self) -> int: ...
    def text(self) -> str: ...
    def legal_actions(self) -> list[int]: ...
    def is_legal(self, action: int) -> bool: ...
    def is_terminal(self) -> bool: ...
    def outcome(self) -> tuple[int, int, int] | None: ...
    def push(self, action: int) -> None: ...
    def pop(self) -> int: ...
    @property
    def stack_depth(self) -> int: ...
    @property
    def move_stack(self) -> list[int]: ...
    def copy(self, stack: bool = True) -> Any: ...
    def zobrist(self) -> int: ...


def _position_class(backend: str) -> Any:
    """The position class a State of this backend holds."""
    return backend_module(backend).Position


# ---------------------------------------------------------------- outcome

@dataclass(frozen=True)
class Outcome:
    """How a finished game ended.

    ``winner`` is 0 (South), 1 (North) or ``None`` for a draw; ``scores`` is
    ``(south, north)``: the seeds each player ends with (Katro and Katra
    Mpantsaka: seeds in their holes; Goré and Djenon-aboure: store plus the
    end sweep); ``reason`` is ``"no legal move"`` (Katro, Katra Mpantsaka:
    the player to move cannot move and loses) or ``"board exhausted"``
    (Goré, Djenon-aboure: too few seeds left to play; larger store wins).
    """

    winner: int | None
    scores: tuple[int, int]
    reason: str

    def result(self) -> str:
        """``"1-0"`` (South won), ``"0-1"`` (North won) or ``"1/2-1/2"``."""
        if self.winner is None:
            return "1/2-1/2"
        return "1-0" if self.winner == 0 else "0-1"


# ---------------------------------------------------------------- games

@dataclass(frozen=True)
class Game:
    """One game's static facts (immutable); ``katra.game(name)`` returns it.

    ``num_actions`` is the size of the integer action space of docs/rules.md §1.5:
    every action of every position is an int in ``range(num_actions)``.
    """

    id: str
    name: str
    rows: int
    cols: int
    num_actions: int
    seeds_per_hole: int
    has_stores: bool
    aliases: tuple[str, ...] = ()

    @property
    def spec(self) -> GameSpec:
        """The shared game-table entry (``katra._games.GameSpec``)."""
        return game_by_id(self.id)

    @property
    def holes(self) -> int:
        """``rows * cols``."""
        return self.rows * self.cols

    @property
    def observation_size(self) -> int:
        """Length of [State.observation][katra.State.observation]: ``3 * holes + 4``
        (docs/learning.md)."""
        return 3 * self.holes + 4

    @property
    def observation_shape(self) -> tuple[int]:
        """Shape of [State.observation][katra.State.observation]: ``(observation_size,)``
        (docs/learning.md)."""
        return (self.observation_size,)

    @property
    def num_players(self) -> int:
        """2: South (0) and North (1)."""
        return 2

    @property
    def max_game_length(self) -> int:
        """The default ply cap of tools that play games out (docs/rules.md §6.1): 1,000.

        A game stopped by it is *truncated* (unfinished), never won, lost or drawn.
        """
        return DEFAULT_MAX_PLIES

    def initial_state(self, backend: str = "core") -> State:
        """The start position (South to move), on the chosen backend."""
        return State._wrap(_position_class(backend).initial(self.id), self, backend, 0)

    new_initial_state = initial_state  # OpenSpiel's name

    def action_text(self, action: int) -> str:
        """The move text of an action number (range checked, not legality)."""
        return action_text(self.spec, action)

    def parse_action(self, text: str) -> int:
        """The action number of a move text (form checked, not legality)."""
        return parse_action(self.spec, text)

    def __repr__(self) -> str:
        return f"katra.game({self.id!r})"


def _game_of(spec: GameSpec) -> Game:
    found = _GAMES.get(spec.id)
    if found is None:
        found = Game(spec.id, spec.name, spec.rows, spec.cols, spec.num_actions,
                     spec.seeds_per_hole, spec.has_stores, spec.aliases)
        _GAMES[spec.id] = found
    return found


_GAMES: dict[str, Game] = {}   # every Game made so far: one object per id
for _spec in GAMES.values():
    _game_of(_spec)


def game(name: str, *, rows: int | None = None, cols: int | None = None,
         seeds: int | None = None, simplified: bool | None = None) -> Game:
    """The game with this id, display name or alias, or a variant (docs/rules.md §7).

    A variant is named by its id (``"katro-4x5-s3"``) or built by keywords
    from a game of its family: ``rows`` and ``cols`` are the whole board's,
    ``seeds`` the seeds per hole at the start, ``simplified`` Katra
    Mpantsaka's start rule; a keyword left out keeps the named game's value.
    ``UnknownGameError`` lists the known names; ``ArgumentError`` names a
    parameter out of its range.

    ```pycon
    >>> game("Goré").id
    'gore'
    >>> game("katro", rows=4, cols=5, seeds=3).id
    'katro-4x5-s3'
    >>> game("katro", rows=4, cols=6) is game("katro-4x6")
    True

    ```
    """
    if rows is None and cols is None and seeds is None and simplified is None:
        return _game_of(find_game(name))
    return _game_of(game_with(name, rows=rows, cols=cols, seeds=seeds, simplified=simplified))


_lookup_game = game


def games() -> tuple[Game, ...]:
    """Every game, in the order of docs/rules.md §1.6."""
    return tuple(_GAMES[game_id] for game_id in GAME_IDS)


# ---------------------------------------------------------------- legal moves

class LegalMoves:
    """A lazy view of a state's legal moves as text (python-chess's ``legal_moves``).

    Computed when used, from the state as it is then: ``count()``/``len()``,
    ``in`` (a move text or an action number), iteration in action order.
    """

    __slots__ = ("_state",)

    def __init__(self, state: State) -> None:
        self._state = state

    def __iter__(self) -> Iterator[str]:
        spec = self._state._game.spec
        return iter([action_text(spec, a) for a in self._state._pos.legal_actions()])

    def __contains__(self, move: object) -> bool:
        try:
            action = self._state._action_of(move)
        except IllegalMoveError:
            return False
        return action in self._state._pos.legal_actions()

    def count(self) -> int:
        """How many legal moves there are."""
        return len(self._state._pos.legal_actions())

    __len__ = count

    def __bool__(self) -> bool:
        return bool(self._state._pos.legal_actions())

    def __repr__(self) -> str:
        return f"<LegalMoves ({', '.join(self)})>"


# ---------------------------------------------------------------- states

def _state_from_text(text: str, backend: str, ply: int) -> State:
    """Unpickling helper (``State.__reduce__``)."""
    return State.from_text(text, backend=backend, ply=ply)


class State:
    """A position of one game, with a move stack; mutable, cheap to copy.

    Build one with ``katra.game(name).initial_state()``, ``State(name)`` or
    ``State.from_text(text)``.  ``backend="reference"`` runs the same class
    over the pure-Python reference (for tests); the default is the compiled
    core.

    ``ply`` counts plies from the start of the game as far as the state knows:
    the ``ply`` it was created with (0 for a start position or, unless given,
    a position read from text) plus the moves on the move stack.  The move
    stack is the backend position's own: the actions pushed since the state
    was created (``copy()`` keeps it, ``copy(stack=False)`` drops it), which
    ``pop()`` undoes one by one.

    A state is mutable, so it is not hashable (as in python-chess): key
    tables by ``state.hash`` (the 64-bit Zobrist hash) or ``state.text()``.
    """

    __slots__ = ("_pos", "_game", "_ply0", "_backend")

    _pos: BackendPosition
    _game: Game
    _ply0: int
    _backend: str

    def __init__(self, game: Game | str, backend: str = "core") -> None:
        """The start position of a game (a [Game][katra.Game], or its id, name or alias)."""
        if isinstance(game, Game):
            game_obj = game
        else:
            try:
                game_obj = _lookup_game(game)
            except UnknownGameError as exc:
                if isinstance(game, str) and " " in game.strip():
                    raise UnknownGameError(
                        f"State(game) takes a game id or name, and {game!r} is none; "
                        "to read a position text use katra.State.from_text(text)") from None
                raise exc from None
        self._init(_position_class(backend).initial(game_obj.id), game_obj, backend, 0)

    def _init(self, pos: BackendPosition, game_obj: Game, backend: str, ply: int) -> None:
        self._pos = pos
        self._game = game_obj
        self._ply0 = ply
        self._backend = backend

    @classmethod
    def _wrap(cls, pos: BackendPosition, game_obj: Game, backend: str, ply: int) -> State:
        state = cls.__new__(cls)
        state._init(pos, game_obj, backend, ply)
        return state

    @classmethod
    def from_text(cls, text: str, backend: str = "core", ply: int = 0) -> State:
        """Read a position text (docs/rules.md §1.5); ``PositionError`` names what is wrong.

        ``ply`` (0..2**62) is the ply of the position in its game.
        """
        ply = check_int(ply, "ply", 0, MAX_START_PLY)
        pos = _position_class(backend).from_text(text)
        return cls._wrap(pos, _game_of(game_by_id(pos.game_id)), backend, ply)

    # -- text forms
    def text(self) -> str:
        """The canonical position text (docs/rules.md §1.5)."""
        return self._pos.text()

    def __repr__(self) -> str:
        extra = "" if self._backend == "core" else f", backend={self._backend!r}"
        if self.ply:
            extra += f", ply={self.ply}"
        return f"katra.State.from_text({self.text()!r}{extra})"

    def __str__(self) -> str:
        return board_text(self)

    def _repr_svg_(self) -> str:
        return svg(self)

    def svg(self, size: int = 48, *, lastmove: bool = True) -> str:
        """An SVG drawing of the board (``size``: pixels per hole, an int in 8..1024)."""
        return svg(self, size=size, lastmove=lastmove)

    # -- what the position is
    @property
    def game(self) -> Game:
        return self._game

    @property
    def backend(self) -> str:
        """``"core"`` or ``"reference"``."""
        return self._backend

    @property
    def to_move(self) -> int:
        """0 (South) or 1 (North)."""
        return self._pos.to_move

    def current_player(self) -> int:
        """The player to move, or -4 once the game is over (OpenSpiel's ``kTerminalPlayerId``)."""
        return -4 if self._pos.is_terminal() else self._pos.to_move

    @property
    def board(self) -> list[int]:
        """Seed counts in flat index order (``a1`` = 0; docs/rules.md §1.1); a fresh list."""
        return list(self._pos.board)  # the reference's is its own list

    @property
    def owners(self) -> list[int]:
        """0 (South) or 1 (North) per hole; only Goré's change during a game."""
        return list(self._pos.owners)

    @property
    def stores(self) -> tuple[int, int]:
        """Seeds captured by ``(South, North)``; ``(0, 0)`` in games without stores."""
        return self._pos.stores

    @property
    def pending_offer(self) -> tuple[str, ...]:
        """Goré: the squares of an offer awaiting an answer (made by the player not to
        move), in index order; ``()`` if none."""
        return offer_names(self._game.spec, self._pos.pending_offer)

    @property
    def ply(self) -> int:
        """Plies from the start of the game (see the class docs)."""
        return self._ply0 + self._pos.stack_depth

    @property
    def move_stack(self) -> list[int]:
        """The actions pushed since the state was created, oldest first, as ints (a new list)."""
        return self._pos.move_stack

    @property
    def hash(self) -> int:
        """64-bit Zobrist hash of the position (the move stack and ply are not hashed).

        Equal positions have equal hashes, however they were reached, and on
        either backend (both read their keys from ``katra._zobrist``).  Use it
        to key tables: a state itself is not hashable.
        """
        return self._pos.zobrist()

    #: Mutable, so unhashable (python-chess's ``Board`` too): use ``state.hash``.
    __hash__ = None  # type: ignore[assignment]

    def __eq__(self, other: object) -> bool:
        """Same position (game, board, owners, stores, to move, offer); history is ignored."""
        if not isinstance(other, State):
            return NotImplemented
        if self._backend == other._backend:
            return bool(self._pos == other._pos)
        return self._pos.text() == other._pos.text()

    # -- moves
    def legal_actions(self) -> list[int]:
        """The legal actions, ascending (docs/rules.md §1.5); ``[]`` once the game is over."""
        return self._pos.legal_actions()

    @property
    def legal_moves(self) -> LegalMoves:
        """The legal moves as text, a lazy view (``count()``, ``in``, iteration)."""
        return LegalMoves(self)

    def is_legal(self, move: object) -> bool:
        """Is this action number or move text legal here?

        Never raises: ``False`` for anything that is not a legal move (a
        float, ``None``, a bool, a NumPy array, an over-long string...).
        """
        return move in LegalMoves(self)

    def action_text(self, action: int) -> str:
        """The text of an action number (``c1``, ``c2+``, ``offer:a1,c1``, ``pass``...)."""
        return action_text(self._game.spec, action)

    def parse_move(self, move: int | str) -> int:
        """The action of a move text or number if it is legal here, else ``IllegalMoveError``."""
        action = self._action_of(move)
        if not self._pos.is_legal(action):
            raise self._illegal(move, "is not legal here")
        return action

    def _action_of(self, move: object) -> int:
        """An action number in range, from an int(-like) or a move text; no legality check.

        Raises only ``IllegalMoveError``, whatever ``move`` is.
        """
        spec = self._game.spec
        try:
            if isinstance(move, str):
                return parse_action(spec, move)
            if isinstance(move, bool) or not hasattr(type(move), "__index__"):
                raise IllegalMoveError(f"a move is an int action or a move text, "
                                       f"not {type(move).__name__}")
            try:
                action = operator.index(move)  # type: ignore[arg-type]
            except (TypeError, ValueError, ArithmeticError):  # e.g. a NumPy array
                raise IllegalMoveError(f"a {type(move).__name__} is not an action number") \
                    from None
            return check_action_range(spec, action)
        except IllegalMoveError as exc:
            raise self._illegal(move, str(exc)) from None

    def _illegal(self, move: object, why: str) -> IllegalMoveError:
        legal = self._pos.legal_actions()
        spec = self._game.spec
        listed = (", ".join(f"{action_text(spec, a)} ({a})" for a in legal)
                  or "none, the game is over")
        return IllegalMoveError(f"illegal move {move!r} in {self._pos.text()!r}: {why}; "
                                f"legal moves: {listed}")

    def push(self, move: int | str) -> None:
        """Play a legal action number or move text, keeping it on the move stack.

        ``IllegalMoveError`` (the state unchanged) names the move and lists the
        legal ones.
        """
        # Fast path: an exact int goes straight to the backend, which checks it
        # and keeps it on its stack; move texts, int-likes (IntEnum members,
        # NumPy integers) and errors take the slow path, which pushes a plain int.
        if type(move) is int:
            try:
                self._pos.push(move)
                return
            except IllegalMoveError:
                pass
        action = self._action_of(move)  # raises for malformed or out-of-range moves
        try:
            self._pos.push(action)
        except IllegalMoveError:
            raise self._illegal(move, "is not legal here") from None

    def pop(self) -> int:
        """Undo the last pushed move and return its action; ``IndexError`` if none."""
        return self._pos.pop()

    def peek(self) -> int:
        """The last pushed action; ``IndexError`` if none."""
        if not self._pos.stack_depth:
            raise IndexError("peek at an empty move stack")
        return self._pos.move_stack[-1]

    def explain(self, move: int | str, *, max_laps: int | None = None) -> MoveTrace:
        """``move`` played from here lap by lap (``katra.explain``; docs/explain.md);
        this state is unchanged."""
        return trace(self, move, max_laps)

    def copy(self, *, stack: bool = True) -> State:
        """An independent copy; ``stack=False`` drops the move stack (the ply is kept)."""
        ply = self._ply0 if stack else self.ply
        return State._wrap(self._pos.copy(stack=stack), self._game, self._backend, ply)

    __copy__ = copy

    def __deepcopy__(self, memo: dict[int, Any]) -> State:
        return self.copy()

    def child(self, move: int | str) -> State:
        """A copy with ``move`` played (OpenSpiel's ``child``); this state is unchanged."""
        clone = self.copy()
        clone.push(move)
        return clone

    # -- end of the game
    def is_terminal(self) -> bool:
        """No legal action: the game is over (docs/rules.md §1.4)."""
        return self._pos.is_terminal()

    def result(self) -> str:
        """python-chess's ``result()``: ``"1-0"``, ``"0-1"``, ``"1/2-1/2"``, or ``"*"``
        while the game goes on."""
        outcome = self.outcome()
        return outcome.result() if outcome is not None else "*"

    def outcome(self) -> Outcome | None:
        """``None`` while the game goes on, else the [Outcome][katra.Outcome]."""
        result = self._pos.outcome()
        if result is None:
            return None
        winner, south, north = result
        return Outcome(None if winner == -1 else winner, (south, north),
                       END_REASONS[self._game.spec.family])

    def returns(self) -> list[float]:
        """OpenSpiel-style returns ``[south, north]``: +1 win, -1 loss, 0 draw or unfinished."""
        result = self._pos.outcome()
        if result is None or result[0] == -1:
            return [0.0, 0.0]
        return [1.0, -1.0] if result[0] == 0 else [-1.0, 1.0]

    # -- other libraries' names for the methods above: aliases, one implementation each
    #: OpenSpiel's name for [push][katra.State.push] (which also takes move text).
    apply_action = push
    #: OpenSpiel's name for [copy][katra.State.copy].
    clone = copy
    #: python-chess's name for [is_terminal][katra.State.is_terminal].
    is_game_over = is_terminal

    # -- learning
    def legal_actions_mask(self, out: Any = None) -> Any:
        """1 for each legal action, 0 elsewhere, ``game.num_actions`` long.

        Writes into ``out`` (any writable buffer: ``bytearray``, ``array``,
        a NumPy array; any item type, bool included) and returns it, or returns
        a new list.  Filled in C on the core.
        """
        if self._backend == "core":
            return core_legal_actions_mask(self._core_position(), out)
        return _learning.legal_actions_mask(self, out)

    def observation(self, player: int | None = None, out: Any = None) -> Any:
        """The planar encoding of docs/learning.md (``game.observation_size`` numbers)
        from ``player``'s point of view (0 South, 1 North; default: the player to move).

        Writes into ``out`` (any writable buffer: ``bytearray``, ``array``, a
        NumPy array of an integer or float dtype) and returns it, or returns a
        new list.  ``katra.BufferItemError`` (a ``ValueError``) if the buffer's
        item type cannot hold the values (a count above 255 in ``uint8``; any
        bool buffer); nothing is written then.  Filled in C on the core.
        """
        if self._backend == "core":
            return core_observation(self._core_position(), _learning.player_arg(player), out)
        return _learning.observation(self, player, out)

    def history(self) -> list[int]:
        """The actions played since the start, oldest first (OpenSpiel's ``history()``).

        That is the move stack of a state built with ``initial_state()``; a
        state read from text knows only the moves pushed since (``ply`` says
        how many plies came before).
        """
        return self._pos.move_stack

    # -- jobs
    def perft(self, depth: int) -> int:
        """Leaf nodes ``depth`` plies deep (docs/rules.md §1.4), one call into the backend
        (``depth`` checked as [katra.perft][] checks it)."""
        return int(backend_module(self._backend).perft(self._pos, check_perft_depth(depth)))

    def divide(self, depth: int) -> dict[str, int]:
        """``perft(child, depth - 1)`` per legal move text, in action order."""
        spec = self._game.spec
        depth = check_perft_depth(depth, 1)
        return {action_text(spec, a): int(n)
                for a, n in backend_module(self._backend).divide(self._pos, depth)}

    # -- for katra.api's helper modules (internal, not part of the API): what they
    # need of the backend position, which stays this class's own
    @property
    def _offer_mask(self) -> int:
        """The pending offer as the backend holds it: bit ``j`` set if hole ``j`` is
        offered (rendering and observations draw and encode it hole by hole)."""
        return self._pos.pending_offer

    def _position_copy(self) -> BackendPosition:
        """A fresh backend position equal to this one, without the move stack
        (jobs run on it and never change the state they were given)."""
        return cast(BackendPosition, self._pos.copy(stack=False))

    def _core_position(self) -> CorePosition:
        """The core position, for the core's calls that fill buffers in C: for a state
        whose ``backend`` is ``"core"`` (the caller checks)."""
        return cast(CorePosition, self._pos)

    @staticmethod
    def _core_positions(states: list[State]) -> list[CorePosition]:
        """``_core_position()`` of each state, for the core's batch calls (a list made
        without a call per state)."""
        return cast("list[CorePosition]", [state._pos for state in states])

    # -- interchange
    def __reduce__(self) -> tuple[Any, tuple[str, str, int]]:
        """Pickles as the position text (plus backend and ply), never the history."""
        return (_state_from_text, (self._pos.text(), self._backend, self.ply))

    def record(self, tags: dict[str, str] | None = None) -> str:
        """This game as a record: start position and moves (docs/api.md, "Game records"),
        then ``tags`` (``event``, ``south``, ``north``, ``decision``, ``reason``: the
        tags of a refereed game, each value one line)."""
        return write_record(self, tags)

    @classmethod
    def from_record(cls, text: str, backend: str = "core") -> State:
        """The state at the end of one game record, its moves on the move stack."""
        records = parse_records(text)
        if len(records) != 1:
            raise KatraError(f"expected one game record, found {len(records)}")
        return cls._replay(records[0], backend)

    @classmethod
    def _replay(cls, record: Record, backend: str) -> State:
        """The state at the end of a parsed record; every move and the result checked."""
        state = cls.from_text(record.start, backend=backend, ply=record.ply)
        for number, move in enumerate(record.moves, start=1):
            try:
                state.push(move)
            except IllegalMoveError as exc:
                raise IllegalMoveError(f"{record.where}: move {number}: {exc}") from None
        if record.result is not None:
            outcome = state.outcome()
            actual = outcome.result() if outcome else "*"
            if record.result != actual:
                raise KatraError(f"{record.where}: the record says result {record.result!r} "
                                 f"but its moves give {actual!r}")
        return state

    def root(self) -> State:
        """A copy at the start of the move stack (every pushed move undone)."""
        clone = self.copy()
        while clone._pos.stack_depth:
            clone.pop()
        return clone
