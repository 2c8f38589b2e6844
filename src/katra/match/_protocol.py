"""The play protocol's lines, read and written (docs/protocol.md).

One module for both sides: ``katra engine`` reads what a referee sends and
writes what an engine answers; ``katra match`` does the reverse.  Every
parser raises ``ProtocolError`` (a ``katra.KatraError``) naming the line.
"""
from __future__ import annotations

import threading
from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from katra._errors import KatraError

if TYPE_CHECKING:
    from katra.api import State

PROTOCOL_VERSION = 1

# go's keywords that take one integer (milliseconds for the clocks, a count
# for nodes and depth), in the order GoLimits.line() writes them.
GO_INT_FIELDS = ("stime", "ntime", "sinc", "ninc", "movetime", "nodes", "depth")
# info's keywords that take one integer; score takes two words, pv and string the rest.
INFO_INT_FIELDS = ("depth", "nodes", "time", "nps", "simulations")
SCORE_KINDS = ("value", "win", "loss", "draw")


class ProtocolError(KatraError):
    """A protocol line that does not parse (the message quotes it)."""


def _int_word(word: str, key: str, line: str, minimum: int = 0) -> int:
    try:
        value = int(word, 10)
    except ValueError:
        raise ProtocolError(f"{key} needs an integer, not {word!r}, in {line!r}") from None
    if value < minimum:
        raise ProtocolError(f"{key} must be at least {minimum}, not {value}, in {line!r}")
    return value


@dataclass(frozen=True)
class GoLimits:
    """What ``go`` says: both clocks and increments (milliseconds), a fixed time
    for this move, a node or depth budget, or ``infinite`` (until ``stop``).
    ``None``: not given."""

    stime: int | None = None
    ntime: int | None = None
    sinc: int | None = None
    ninc: int | None = None
    movetime: int | None = None
    nodes: int | None = None
    depth: int | None = None
    infinite: bool = False

    def line(self) -> str:
        words = ["go"]
        for key in GO_INT_FIELDS:
            value = getattr(self, key)
            if value is not None:
                words += [key, str(value)]
        if self.infinite:
            words.append("infinite")
        return " ".join(words)

    @classmethod
    def parse(cls, line: str) -> GoLimits:
        words = line.split()
        if not words or words[0] != "go":
            raise ProtocolError(f"not a go command: {line!r}")
        values: dict[str, int | bool] = {}
        i = 1
        while i < len(words):
            key = words[i]
            if key == "infinite":
                values["infinite"] = True
                i += 1
            elif key in GO_INT_FIELDS:
                if i + 1 == len(words):
                    raise ProtocolError(f"{key} needs a value in {line!r}")
                values[key] = _int_word(words[i + 1], key, line, 1 if key in ("nodes", "depth") else 0)
                i += 2
            else:
                raise ProtocolError(f"unknown go keyword {key!r} in {line!r}")
        return cls(**values)  # type: ignore[arg-type]

    def clock(self, player: int) -> tuple[int | None, int | None]:
        """(time left, increment) of ``player`` (0 South, 1 North), in ms."""
        return (self.stime, self.sinc) if player == 0 else (self.ntime, self.ninc)


@dataclass(frozen=True)
class Info:
    """One ``info`` line: what an engine reports while it thinks.  ``score``
    is ``(kind, n)``: ``("value", n)`` an evaluation from the side to move,
    ``("win", n)``/``("loss", n)``/``("draw", n)`` a result proven within n plies."""

    depth: int | None = None
    score: tuple[str, int] | None = None
    nodes: int | None = None
    time: int | None = None
    nps: int | None = None
    simulations: int | None = None
    pv: tuple[str, ...] = ()
    string: str | None = None

    def line(self) -> str:
        words = ["info"]
        for key in INFO_INT_FIELDS:
            value = getattr(self, key)
            if value is not None:
                words += [key, str(value)]
            if key == "depth" and self.score is not None:
                words += ["score", self.score[0], str(self.score[1])]
        if self.pv:
            words += ["pv", *self.pv]
        elif self.string is not None:
            words += ["string", self.string]
        return " ".join(words)

    @classmethod
    def parse(cls, line: str) -> Info:
        words = line.split()
        if not words or words[0] != "info":
            raise ProtocolError(f"not an info line: {line!r}")
        values: dict[str, object] = {}
        i = 1
        while i < len(words):
            key = words[i]
            if key in INFO_INT_FIELDS:
                if i + 1 == len(words):
                    raise ProtocolError(f"{key} needs a value in {line!r}")
                values[key] = _int_word(words[i + 1], key, line)
                i += 2
            elif key == "score":
                if i + 2 >= len(words) or words[i + 1] not in SCORE_KINDS:
                    raise ProtocolError(f"score needs one of {', '.join(SCORE_KINDS)} and a number "
                                        f"in {line!r}")
                try:
                    n = int(words[i + 2], 10)
                except ValueError:
                    raise ProtocolError(f"score needs a number, not {words[i + 2]!r}, "
                                        f"in {line!r}") from None
                values["score"] = (words[i + 1], n)
                i += 3
            elif key == "pv":
                values["pv"] = tuple(words[i + 1:])
                break
            elif key == "string":
                values["string"] = line.split("string", 1)[1].strip()
                break
            else:
                raise ProtocolError(f"unknown info keyword {key!r} in {line!r}")
        return cls(**values)  # type: ignore[arg-type]


@dataclass(frozen=True)
class Choice:
    """A player's answer to ``go``: the action and what it reported on the way."""

    action: int
    infos: tuple[Info, ...] = field(default_factory=tuple)


class Player(ABC):
    """A player inside katra's process: the built-in ones (``katra engine`` serves
    them over the protocol; ``katra match`` plays them in-process as
    ``katra:NAME:...``).  One game at a time; ``choose`` never changes ``state``."""

    name: str

    def new_game(self) -> None:
        """Forget the previous game (``newgame``)."""

    @abstractmethod
    def choose(self, state: State, limits: GoLimits, stop: threading.Event) -> Choice:
        """The move to play in ``state`` (not finished) within ``limits``; returns
        promptly once ``stop`` is set."""

    def close(self) -> None:
        """Free what the player holds."""


# ---------------------------------------------------------------- the referee's readers

#: ``option`` line types (docs/protocol.md).
OPTION_TYPES = ("spin", "check", "string")


@dataclass(frozen=True)
class EngineOption:
    """One ``option name NAME type TYPE default VALUE [min A max B]`` line of the handshake."""

    name: str
    type: str
    default: str
    min: int | None = None
    max: int | None = None

    @classmethod
    def parse(cls, line: str) -> EngineOption:
        words = line.split()
        if (len(words) < 7 or words[:2] != ["option", "name"] or words[3] != "type"
                or words[5] != "default"):
            raise ProtocolError(f"not an 'option name NAME type TYPE default VALUE' line: "
                                f"{line!r}")
        if words[4] not in OPTION_TYPES:
            raise ProtocolError(f"option type must be one of {', '.join(OPTION_TYPES)}, "
                                f"not {words[4]!r}, in {line!r}")
        bounds: dict[str, int] = {}
        rest = words[7:]
        while rest:
            if len(rest) < 2 or rest[0] not in ("min", "max"):
                raise ProtocolError(f"unexpected {' '.join(rest)!r} in {line!r}")
            bounds[rest[0]] = _int_word(rest[1], rest[0], line, -2**63)
            rest = rest[2:]
        return cls(words[2], words[4], words[6], bounds.get("min"), bounds.get("max"))


def parse_bestmove(line: str) -> str:
    """The move word of a ``bestmove MOVE`` line (move text or an integer action)."""
    words = line.split()
    if len(words) != 2 or words[0] != "bestmove":
        raise ProtocolError(f"not a 'bestmove MOVE' line: {line!r}")
    return words[1]
