# cython: language_level=3
"""katra._core: the compiled core (same surface as katra._reference, docs/backends.md).

Assembled from parts: _common.pxi (state, tables, sowing, cycle detection,
dispatch), _stop.pxi (stopping long jobs), one file per game family, _position.pxi (Position), _jobs.pxi
(perft, divide, playouts).
"""

from katra import _games, _text, _zobrist
from katra._errors import IllegalMoveError, PositionError, UnknownGameError
from katra._games import LAP_LIMIT, MAX_TOTAL_SEEDS

include "_common.pxi"
include "_stop.pxi"
include "_katro.pxi"
include "_mpantsaka.pxi"
include "_gore.pxi"
include "_djenon.pxi"
include "_position.pxi"
include "_jobs.pxi"
include "_search.pxi"
include "_vector.pxi"   # observations, masks, VectorGame (learning)

_build_tables()

__all__ = ["Position", "perft", "divide", "playouts", "cancel_jobs", "JobCancelled", "VectorGame"]
