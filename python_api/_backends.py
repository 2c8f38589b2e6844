"""The backends katra.api runs on, and its one link to the compiled core.

A backend is chosen by name: ``"core"`` (``katra._core``, compiled, the
default) or ``"reference"`` (``katra._reference``, pure Python).

This is the only module of katra.api that imports ``katra._core``
(tests/test_import_graph.py holds it to that): every other module takes the
core's objects from the names below, so they are all katra.api asks of the
core beyond the backend interface of docs/backends.md (``src/katra/_core.pyi``
describes each).  A ``core_`` or ``Core`` prefix marks a core name that
katra.api also gives to its own wrapper (``core_search`` under ``katra.search``).
"""
from __future__ import annotations

import importlib
from types import ModuleType

from katra import _core
from katra._core import (
    DfpnSolver,
    DfpnTable,
    EndgameTables,
    JobCancelled,
    Mcts,
    Searcher,
    Solver,
    SolverTable,
    bad_player_message,
    cancel_jobs,
)
from katra._core import Position as CorePosition
from katra._core import VectorGame as CoreVectorGame
from katra._core import legal_actions_mask as core_legal_actions_mask
from katra._core import legal_actions_masks as core_legal_actions_masks
from katra._core import observation as core_observation
from katra._core import observations as core_observations
from katra._core import search as core_search
from katra._errors import ArgumentError

__all__ = ["BACKENDS", "backend_module", "CorePosition", "CoreVectorGame", "DfpnSolver",
           "DfpnTable", "EndgameTables", "JobCancelled", "Mcts", "Searcher", "Solver",
           "SolverTable", "bad_player_message", "cancel_jobs", "core_legal_actions_mask",
           "core_legal_actions_masks", "core_observation", "core_observations", "core_search",
           "dfpn_fingerprint", "table_boards", "table_build_layer"]

BACKENDS = ("core", "reference")
_MODULES = {"core": "katra._core", "reference": "katra._reference"}

#: The core's helpers whose names are private to it: the df-pn table file's
#: fingerprint of a start position, and the endgame tables' layer builder.
dfpn_fingerprint = _core._dfpn_fingerprint
table_boards = _core._table_boards
table_build_layer = _core._table_build_layer


def backend_module(backend: object) -> ModuleType:
    """The backend module; ``katra.ArgumentError`` (a ``ValueError``) for an unknown name.

    The compiled core is imported with katra.api: if it is missing, the
    ImportError surfaces (there is no silent fallback to the reference).
    """
    if not isinstance(backend, str) or backend not in _MODULES:
        raise ArgumentError(f"unknown backend {backend!r}; choose one of {', '.join(BACKENDS)}")
    return importlib.import_module(_MODULES[backend])
