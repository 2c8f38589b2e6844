"""katra's Pythonic API (installed as ``katra.api``; re-exported by ``katra``)."""
from .jobs import DEFAULT_MAX_PLIES, divide, load_position, perft, playouts

__all__ = ["perft", "divide", "playouts", "load_position", "DEFAULT_MAX_PLIES"]
