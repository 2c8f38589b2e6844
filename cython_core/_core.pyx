# cython: language_level=3
"""katra._core: the compiled core (same surface as katra._reference, docs/backends.md).

Assembled from parts: _common.pxi (the int form, tables, the relay engine with its
cycle detection, dispatch, the legal-children iterator), _stop.pxi (stopping
long jobs), one file per game family with the functions of the matching file
of katra/_reference in the same order, _position.pxi (Position), _node.pxi
(the node layer: one protocol over every working form, on which every job
below is written once; each job's dispatcher on the working form of its root
is in _dispatch.pxi, which setup.py writes from the template _dispatch.pxi.in), _counting.pxi
(perft, divide, playouts), _search.pxi (search), _mcts.pxi (Monte Carlo tree
search), _solve_table.pxi, _solve.pxi, _solve_root.pxi and _solver.pxi (the solver),
_buffers.pxi, _observations.pxi and _vector.pxi (tensors for learning code).
What the parts share is declared in katra/_core.pxd (Cython reads it before
this file: it looks for the .pxd of katra._core there, on the include path).
"""

from katra import _games, _limits, _text, _zobrist
from katra._errors import (ArgumentError, ArgumentTypeError, IllegalMoveError, PositionError,
                           UnknownGameError)
from katra._games import LAP_LIMIT, MAX_TOTAL_SEEDS

include "_common.pxi"
include "_lanes.pxi"     # the packed working form of the hot loops
include "_stop.pxi"
include "_katro.pxi"
include "_mpantsaka.pxi"
include "_gore.pxi"
include "_djenon.pxi"
include "_position.pxi"
include "_node.pxi"      # the node layer: one protocol over every working form
include "_counting.pxi"
include "_tables.pxi"           # Djenon-aboure's endgame tables (docs/tables.md)
include "_search.pxi"
include "_mcts.pxi"             # Monte Carlo tree search (katra.MCTS)
include "_solve_table.pxi"     # the solver's transposition table
include "_solve.pxi"           # the exact solver's AND/OR search (docs/solve.md)
include "_solve_root.pxi"      # ... its thresholds by iterative deepening, the best action
include "_solver.pxi"          # ... and the Solver class
include "_dfpn.pxi"            # proof-number search without a bound (docs/solve.md)
include "_buffers.pxi"         # callers' buffers (the buffer protocol)
include "_observations.pxi"    # observations and legal-action masks (learning)
include "_vector.pxi"          # VectorGame (learning)

_build_tables()
_node_check_shapes()
_node_zobrist_shares()
_gore_offers()

# The core's copies of the limits declared in katra._limits (one source, one
# name: each is katra._limits' name).
_require(_limits.MATE == MATE and _limits.MATE_BOUND == MATE_BOUND
         and _limits.MAX_SEARCH_DEPTH == MAX_SEARCH_DEPTH
         and _limits.MAX_SEARCH_TIME == MAX_SEARCH_TIME
         and _limits.MAX_SEARCH_NODES == MAX_SEARCH_NODES and _limits.MAX_TT_BITS == MAX_TT_BITS
         and _limits.ENGINE_TT_BITS == ENGINE_TT_BITS
         and _limits.MAX_GAMES == _limits.MAX_PLIES == _limits.MAX_LAPS == MAX_COUNT,
         "the search's and the jobs' limits differ from katra._limits")
_require(_limits.MAX_SOLVE_PLIES == MAX_SOLVE_PLIES
         and _limits.MIN_SOLVE_TT_BITS == MIN_SOLVE_TT_BITS
         and _limits.MAX_SOLVE_TT_BITS == MAX_SOLVE_TT_BITS
         and _limits.DFPN_MAX_PATH == DFPN_MAX_PATH,
         "the solvers' limits differ from katra._limits")
_require(_limits.MAX_MCTS_SIMULATIONS == MAX_MCTS_SIMULATIONS
         and _limits.MIN_MCTS_NODES == MIN_MCTS_NODES and _limits.MAX_MCTS_NODES == MAX_MCTS_NODES
         and _limits.MCTS_NODES == MCTS_NODES,
         "the MCTS's limits differ from katra._limits")
# The table's move is ordered first (and, searched before the others are made,
# skipped by negamax_node's loop): no seeds gained may key a move above it.
_require(<long long>ORDER_GAIN * MAX_TOTAL_SEEDS < ORDER_TABLE,
         "a move's gain can outrank the table's move in the search's ordering")
DFPN_MAX_PATH_OF_CORE = DFPN_MAX_PATH   # df-pn's longest path, as compiled (tests)

__all__ = ["Position", "perft", "divide", "playouts", "cancel_jobs", "JobCancelled", "VectorGame",
           "Solver", "SolverTable", "DfpnSolver", "EndgameTables", "Mcts"]
include "_capi.pxi"       # the C-level API for search written in Cython (docs/cython.md)
include "_dispatch.pxi"   # every job's dispatcher on node_root's form (from _dispatch.pxi.in)
