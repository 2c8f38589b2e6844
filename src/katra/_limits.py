"""The limits on arguments, each declared once, and the checks that enforce them.

Every Python layer checks its arguments with these functions: the API
(``katra.perft`` and friends, ``State.perft``, ``katra.search``), the command
line's argument types, the pure-Python reference, the adapters and
``katra.testing``.  The compiled core refuses the same values with the same
exceptions.  One exception per kind of mistake (docs/api.md, "Errors"):

* a wrong type: ``ArgumentTypeError`` (both a ``TypeError``
  and a ``ValueError``);
* a value outside its range, or arguments that do not go together:
  ``ArgumentError`` (a ``ValueError``).

Nothing is ever clamped.  The rules' own numbers (``LAP_LIMIT``,
``MAX_TOTAL_SEEDS``, ``GORE_SEEDS_PER_TRADED_HOLE``) and the two limits the
core reads from the game table (``MAX_PERFT_DEPTH``, ``DEFAULT_MAX_PLIES``)
live in ``katra._games``; the others are here.
"""
from __future__ import annotations

import math
import operator
import os
from collections.abc import Callable
from numbers import Real

from ._errors import ArgumentError, ArgumentTypeError
from ._games import DEFAULT_MAX_PLIES, MAX_PERFT_DEPTH

__all__ = ["MAX_PERFT_DEPTH", "DEFAULT_MAX_PLIES", "MAX_GAMES", "MAX_PLIES", "MAX_START_PLY",
           "MAX_SEED",
           "MAX_LAPS", "MAX_JOBS", "MAX_SEARCH_DEPTH", "MAX_SEARCH_TIME", "MAX_SEARCH_NODES",
           "MAX_TT_BITS", "ENGINE_TT_BITS", "MATE", "MATE_BOUND", "check_search_limits",
           "MAX_SOLVE_PLIES", "MIN_SOLVE_TT_BITS", "MAX_SOLVE_TT_BITS", "MAX_PROOF_PLIES",
           "DFPN_MAX_PATH", "MAX_MCTS_SIMULATIONS", "MIN_MCTS_NODES", "MAX_MCTS_NODES",
           "MCTS_NODES", "MAX_EXPLORATION", "check_exploration",
           "as_int", "check_int", "check_seconds", "check_perft_depth", "check_playout_args",
           "check_lap_limit", "check_jobs", "usable_cores", "bound_text"]

#: Playouts: at most this many games per call, and the games of a batch are
#: numbered 0..MAX_GAMES - 1 (the core counts them in 64 bits).
MAX_GAMES = 1 << 62

#: Playouts and ``VectorGame``: the largest ply limit (refused above, never capped).
MAX_PLIES = 1 << 62

#: ``State.from_text(..., ply=)`` and a game record's ``ply:``: the ply a state starts
#: from is 0..MAX_START_PLY (pushing moves may take ``state.ply`` beyond it).
MAX_START_PLY = 1 << 62

#: ``Position.lap_count``: the largest lap limit (refused above, never capped).
MAX_LAPS = 1 << 62

#: Seeds of playout batches are 0..MAX_SEED (docs/rules.md §6.2: 64-bit arithmetic).
MAX_SEED = (1 << 64) - 1

#: ``jobs=`` asks for at most this many threads.
MAX_JOBS = 4096

#: The deepest search (plies) and the longest search time (seconds, about 11.6 days).
MAX_SEARCH_DEPTH = 64
MAX_SEARCH_TIME = 10**6

#: The largest ply bound katra.solve searches (and its default); the core's Solver agrees.
MAX_SOLVE_PLIES = 500

#: The deepest proof file (docs/solve.md, "Proof files"): a claim of 1..MAX_PROOF_PLIES plies.
#: The writer and the checker walk a proof with an explicit stack, a frame per ply of
#: the current line (no recursion), so this bounds their memory, not Python's stack.
MAX_PROOF_PLIES = 1 << 20

#: df-pn's longest path (plies below the position asked): a child deeper than that
#: counts as a disproof resting on the path.  The core's DfpnSolver agrees
#: (DFPN_MAX_PATH in cython_core/_dfpn.pxi; checked when katra._core loads).  Its
#: proofs may be deeper than its paths: a proof's depth adds up the depths of table
#: entries proven on other paths.
DFPN_MAX_PATH = 1000

#: The solvers' transposition tables (``katra.solve(tt_bits=)``, bounded and df-pn, ``Solver``,
#: ``SolverTable``, ``DfpnSolver``): ``tt_bits`` in MIN_SOLVE_TT_BITS..MAX_SOLVE_TT_BITS
#: (2**tt_bits entries of 16 bytes, the bounded solver's; 24, df-pn's).
MIN_SOLVE_TT_BITS = 10
MAX_SOLVE_TT_BITS = 28

#: ``nodes=`` of a search: a node budget of 1..MAX_SEARCH_NODES.
MAX_SEARCH_NODES = 1 << 62

#: The search's transposition table: ``tt_bits`` in 0..MAX_TT_BITS (2**tt_bits
#: entries of 16 bytes; 0: no table); a kept table (katra.Engine) has
#: ENGINE_TT_BITS when none is asked (16 MiB).
MAX_TT_BITS = 28
ENGINE_TT_BITS = 20

#: Search scores: a won position scores ``MATE - plies`` (plies until the win), a
#: lost one ``-(MATE - plies)``; a score beyond ``MATE_BOUND`` is a proven result.
MATE = 100_000
MATE_BOUND = 99_000

#: ``katra.MCTS``: at most this many simulations per call; its tree holds at most
#: ``MIN_MCTS_NODES..MAX_MCTS_NODES`` nodes (``MCTS_NODES`` when none are asked;
#: docs/mcts.md); the exploration constant is a real in ``0..MAX_EXPLORATION``.
MAX_MCTS_SIMULATIONS = 1 << 40
MIN_MCTS_NODES = 256
MAX_MCTS_NODES = (1 << 31) - 1
MCTS_NODES = 1 << 22
MAX_EXPLORATION = 1000.0


def bound_text(n: int) -> str:
    """A bound as the docs write it: ``2**62``, ``2**64-1``, else the number."""
    if n >= 1 << 20 and n & (n - 1) == 0:
        return f"2**{n.bit_length() - 1}"
    if n >= 1 << 20 and n & (n + 1) == 0:
        return f"2**{n.bit_length()}-1"
    return str(n)


def as_int(value: object) -> int | None:
    """``value`` as a plain int if katra takes it as an int, else None.

    The one rule of every layer (docs/api.md, "Errors"): anything with
    ``__index__`` that is not a bool is an int (an ``int`` subclass such as an
    ``IntEnum`` member, a NumPy integer, a 0-d integer array); a bool (Python's
    or NumPy's), a float, a str or anything else is not.
    """
    if type(value) is int:
        return value
    if isinstance(value, bool) or not hasattr(type(value), "__index__"):
        return None
    try:
        return operator.index(value)  # type: ignore[arg-type]
    except (TypeError, ValueError, ArithmeticError):  # e.g. a NumPy array of many items
        return None


def check_int(value: object, name: str, minimum: int, maximum: int) -> int:
    """``value`` as a plain int if it is an int (``as_int``) in ``minimum..maximum``.

    A bool, float, str or anything else that is not an int raises
    ArgumentTypeError; an int out of range raises ArgumentError.  Both name
    the argument.
    """
    number = as_int(value)
    if number is None:
        raise ArgumentTypeError(f"{name} must be an int, not {type(value).__name__}")
    value = number
    if not minimum <= value <= maximum:
        raise ArgumentError(f"{name} must be in {bound_text(minimum)}..{bound_text(maximum)}, "
                            f"got {value}")
    return value


def check_seconds(value: object, name: str, maximum: float) -> float:
    """``value`` as a float of seconds in ``(0, maximum]`` (NaN and infinities refused)."""
    if isinstance(value, bool) or not isinstance(value, Real):
        raise ArgumentTypeError(f"{name} must be a number of seconds, not {type(value).__name__}")
    try:
        seconds = float(value)
    except OverflowError:  # an int too large for a float
        seconds = math.inf
    if not 0 < seconds <= maximum:  # also refuses NaN
        shown = "a number too large for a float" if seconds == math.inf else repr(value)
        raise ArgumentError(f"{name} must be a number of seconds in (0, {maximum}], got {shown}")
    return seconds


def check_exploration(value: object) -> float:
    """UCB1's exploration constant: a real number in ``0..MAX_EXPLORATION``."""
    if isinstance(value, bool) or not isinstance(value, Real):
        raise ArgumentTypeError(f"exploration must be a real number, not {type(value).__name__}")
    try:
        c = float(value)
    except OverflowError:  # an int too large for a float
        c = math.inf
    if not 0 <= c <= MAX_EXPLORATION:  # also refuses NaN
        shown = ("a number too large for a float" if c == math.inf
                 and not isinstance(value, float) else repr(value))
        raise ArgumentError(f"exploration must be in 0..{MAX_EXPLORATION:g}, got {shown}")
    return c


def check_search_limits(depth: object, time: object,
                        nodes: object) -> tuple[int | None, float | None, int | None]:
    """A search's limits (``depth`` 1..MAX_SEARCH_DEPTH plies, ``time`` seconds in
    ``(0, MAX_SEARCH_TIME]``, ``nodes`` 1..MAX_SEARCH_NODES), each None or checked;
    at least one must be given (else ArgumentError)."""
    if depth is None and time is None and nodes is None:
        raise ArgumentError("a search needs a depth, a time or a node limit (one or more)")
    return (None if depth is None else check_int(depth, "depth", 1, MAX_SEARCH_DEPTH),
            None if time is None else check_seconds(time, "time", MAX_SEARCH_TIME),
            None if nodes is None else check_int(nodes, "nodes", 1, MAX_SEARCH_NODES))


def check_perft_depth(depth: object, minimum: int = 0) -> int:
    """A perft depth (``minimum`` 0) or divide depth (``minimum`` 1), at most MAX_PERFT_DEPTH."""
    return check_int(depth, "depth", minimum, MAX_PERFT_DEPTH)


def check_playout_args(games: object, seed: object, max_plies: object,
                       first_game: object) -> tuple[int, int, int, int]:
    """The ranges of ``playouts``: games 0..MAX_GAMES, seed 0..MAX_SEED, max_plies
    0..MAX_PLIES, and games ``first_game .. first_game + games - 1`` within the batch;
    returns ``(games, seed, max_plies, first_game)`` as plain ints."""
    n = check_int(games, "games", 0, MAX_GAMES)
    seed_value = check_int(seed, "seed", 0, MAX_SEED)
    plies = check_int(max_plies, "max_plies", 0, MAX_PLIES)
    first = check_int(first_game, "first_game", 0, MAX_GAMES)
    if first > MAX_GAMES - n:
        raise ArgumentError(f"first_game + games must be <= {bound_text(MAX_GAMES)}, "
                            f"got {first_game} + {games}")
    return n, seed_value, plies, first


def check_lap_limit(limit: object) -> int:
    """``Position.lap_count``'s ``limit``: 1..MAX_LAPS laps."""
    return check_int(limit, "limit", 1, MAX_LAPS)


def check_jobs(jobs: object) -> int:
    """``jobs``: threads, 0..MAX_JOBS (0: every usable core)."""
    return check_int(jobs, "jobs (0: every usable core)", 0, MAX_JOBS)


def usable_cores() -> int:
    """What ``jobs=0`` means: the cores this process may run on
    (``os.process_cpu_count()`` where it exists, else the CPU affinity mask)."""
    count: Callable[[], int | None] | None = getattr(os, "process_cpu_count", None)
    if count is not None:
        n = count()
    elif hasattr(os, "sched_getaffinity"):
        n = len(os.sched_getaffinity(0))
    else:
        n = os.cpu_count()
    return max(1, n or 1)
