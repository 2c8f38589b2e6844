"""katra.match: engines that speak the play protocol (docs/protocol.md), katra's
own players behind it, and a referee for games between them (docs/match.md)."""
from ._protocol import PROTOCOL_VERSION, Choice, GoLimits, Info, Player, ProtocolError

__all__ = ["PROTOCOL_VERSION", "Choice", "GoLimits", "Info", "Player", "ProtocolError"]
