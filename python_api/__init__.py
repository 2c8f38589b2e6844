"""katra's Pythonic API (installed as ``katra.api``; re-exported by ``katra``).

See docs/api.md.
"""
# Stopping long calls from another thread (docs/api.md, "Stopping long calls").
from ._backends import JobCancelled, cancel_jobs
from ._batch import (
    VectorGame,
    legal_actions_masks,
    observations,
    read_record_tags,
    read_records,
    write_records,
)
from ._counting import DEFAULT_MAX_PLIES, divide, load_position, perft, playouts
from ._dfpn_file import DfpnTableInfo, dfpn_table_info
from ._explain import explain
from ._mcts import MCTS, MctsResult, mcts
from ._proof import ProofWriteError, write_proof
from ._retrograde import DEFAULT_POSITIONS, MAX_POSITIONS, retrograde
from ._search import MATE, Analysis, Engine, MoveScore, SearchResult, analyse, search
from ._solve import MAX_SOLVE_PLIES, SolveProgress, SolveResult, solve
from ._state import Game, LegalMoves, Outcome, State, game, games
from ._tables import MAX_TABLE_SEEDS, LayerInfo, TablesInfo, build_tables, load_tables, tables_info
from ._trace import Lap, MoveTrace, TraceMismatchError

__all__ = [
    "Game", "State", "Outcome", "LegalMoves", "game", "games",
    "observations", "legal_actions_masks", "read_records", "read_record_tags",
    "write_records", "VectorGame",
    "perft", "divide", "playouts", "load_position", "DEFAULT_MAX_PLIES",
    "search", "SearchResult", "MATE", "Engine", "analyse", "Analysis", "MoveScore",
    "MCTS", "mcts", "MctsResult",
    "solve", "SolveResult", "SolveProgress", "MAX_SOLVE_PLIES", "write_proof",
    "ProofWriteError", "dfpn_table_info", "DfpnTableInfo",
    "retrograde", "DEFAULT_POSITIONS", "MAX_POSITIONS",
    "cancel_jobs", "JobCancelled",
    "explain", "MoveTrace", "Lap", "TraceMismatchError",
    "build_tables", "load_tables", "tables_info", "TablesInfo", "LayerInfo",
    "MAX_TABLE_SEEDS",
]
