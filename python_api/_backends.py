"""Choosing a backend by name: ``"core"`` (compiled, default) or ``"reference"``."""
from __future__ import annotations

import importlib
from types import ModuleType

from katra._errors import ArgumentError

BACKENDS = ("core", "reference")
_MODULES = {"core": "katra._core", "reference": "katra._reference"}


def backend_module(backend: object) -> ModuleType:
    """The backend module; ``katra.ArgumentError`` (a ``ValueError``) for an unknown name.

    The compiled core is imported as is: if it is missing, the ImportError
    surfaces (there is no silent fallback to the reference).
    """
    if not isinstance(backend, str) or backend not in _MODULES:
        raise ArgumentError(f"unknown backend {backend!r}; choose one of {', '.join(BACKENDS)}")
    return importlib.import_module(_MODULES[backend])
