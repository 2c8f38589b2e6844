"""The pure-Python reference of katra's rules.

Written to be read beside the rulebook (docs/rules.md); used to check the
compiled core (``katra._core``) move by move, and by ``katra.explain`` for its
laps (``Position.apply_watched``, the lap-watching hook).  It is never used as a
fallback for the core.  Surface (the core's, push/pop and the Zobrist hash included):
docs/backends.md.
"""
from .common import CAPTURE, END, RELAY, LapSeen, LapWatcher
from .counting import divide, perft, playouts
from .position import Position

__all__ = ["Position", "perft", "divide", "playouts",
           "LapSeen", "LapWatcher", "END", "RELAY", "CAPTURE"]
