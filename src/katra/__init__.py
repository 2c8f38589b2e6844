"""katra: exact and fast play of four mancala games.

Katro (and its 4x6 and 4x4 sizes), Katra Mpantsaka (and its simplified
variant), Goré and Djenon-aboure, with a compiled core (``katra._core``) and a
pure-Python reference (``katra._reference``) of the same rules.
"""
import os as _os

from katra import _core  # noqa: F401  (a broken build fails loudly here)
from katra._errors import (
    ArgumentError,
    ArgumentTypeError,
    BufferItemError,
    IllegalMoveError,
    KatraError,
    PositionError,
    UnknownGameError,
)
from katra._games import GAME_IDS, LAP_LIMIT, MAX_TOTAL_SEEDS
from katra._version import __version__ as __version__  # explicit re-export (mypy --strict)
from katra.api import (
    DEFAULT_MAX_PLIES,
    MCTS,
    Analysis,
    Engine,
    Game,
    JobCancelled,
    Lap,
    LegalMoves,
    MctsResult,
    MoveScore,
    MoveTrace,
    Outcome,
    SearchResult,
    SolveResult,
    State,
    VectorGame,
    analyse,
    cancel_jobs,
    divide,
    explain,
    game,
    games,
    legal_actions_masks,
    mcts,
    observations,
    perft,
    playouts,
    read_records,
    retrograde,
    search,
    solve,
    write_records,
)

__all__ = [
    "GAME_IDS", "LAP_LIMIT", "MAX_TOTAL_SEEDS", "DEFAULT_MAX_PLIES",
    "KatraError", "IllegalMoveError", "PositionError", "UnknownGameError",
    "ArgumentError", "ArgumentTypeError",
    "perft", "divide", "playouts",
    "Game", "State", "Outcome", "LegalMoves", "game", "games",
    "observations", "legal_actions_masks", "read_records", "write_records",
    "search", "SearchResult", "solve", "SolveResult", "retrograde",
    "Engine", "analyse", "Analysis", "MoveScore",
    "MCTS", "mcts", "MctsResult",
    "VectorGame", "BufferItemError",
    "cancel_jobs", "JobCancelled",
    "explain", "MoveTrace", "Lap",
    "get_include",
]


def get_include() -> str:
    """The folder to put on Cython's include path to ``cimport katra.capi``, the
    C-level API for search written in Cython (docs/cython.md), as
    ``numpy.get_include()`` is for NumPy's headers."""
    return _os.path.join(_os.path.dirname(__file__), "include")
