"""The ``katra`` command line (docs/cli.md): ``katra.cli.main`` is the entry point.

``main`` parses and dispatches; ``common`` holds the exit statuses, errors,
argument types and loaders every part shares; one module per concern:
``jobs`` (perft, playouts), ``board`` (drawing), ``play`` (play, replay),
``rules``, ``bench``, ``diff``, ``solve``, ``analyse`` (every move scored), and
``term`` (consoles, colours, progress).
"""
from .main import main

__all__ = ["main"]
