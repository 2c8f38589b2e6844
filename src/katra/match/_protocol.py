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
# option's types: spin an integer in [min, max], check true/false, string any text.
OPTION_TYPES = ("spin", "check", "string")


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
                minimum = 1 if key in ("nodes", "depth") else 0
                values[key] = _int_word(words[i + 1], key, line, minimum)
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


def _command(line: str, keyword: str) -> str:
    """The rest of ``line`` after its first word, which must be ``keyword``."""
    word, _, rest = line.strip().partition(" ")
    if word != keyword:
        raise ProtocolError(f"not a {keyword} line: {line!r}")
    return rest.strip()


def protocol_line(version: int = PROTOCOL_VERSION) -> str:
    return f"protocol {version}"


def parse_protocol(line: str) -> int:
    """The version asked for by ``protocol N``."""
    return _int_word(_command(line, "protocol"), "protocol", line)


def protocolok_line(version: int = PROTOCOL_VERSION) -> str:
    return f"protocolok {version}"


def parse_protocolok(line: str) -> int:
    """The version an engine speaks, from ``protocolok N``."""
    return _int_word(_command(line, "protocolok"), "protocolok", line)


def id_line(key: str, value: str) -> str:
    """``id name NAME`` or ``id author TEXT``."""
    if key not in ("name", "author"):
        raise ProtocolError(f"id is name or author, not {key!r}")
    return f"id {key} {value}"


def parse_id(line: str) -> tuple[str, str]:
    """``(key, text)`` of an ``id name ...`` or ``id author ...`` line."""
    key, _, value = _command(line, "id").partition(" ")
    if key not in ("name", "author") or not value.strip():
        raise ProtocolError(f"expected 'id name NAME' or 'id author TEXT', not {line!r}")
    return key, " ".join(value.split())


def games_line(game_ids: tuple[str, ...] | list[str]) -> str:
    return " ".join(["games", *game_ids])


#: A ``games`` word ending so names every board of a family (docs/rules.md §7):
#: ``katro-*`` is Katro of any size and seed count, its named ids included.
FAMILY_WILDCARD = "-*"


def family_wildcards() -> tuple[str, ...]:
    """``katro-*``, ``katra-mpantsaka-*``, ...: one ``games`` word per variant family."""
    from katra._games import GAMES
    return tuple(dict.fromkeys(spec.variant_family + FAMILY_WILDCARD for spec in GAMES.values()))


def plays_game(games: tuple[str, ...] | list[str], game_id: str) -> bool:
    """Does a ``games`` line's list cover ``game_id``: the id itself, or its
    family's wildcard (``katro-*`` covers ``katro-4x5-s3`` and ``katro-4x4``)."""
    if game_id in games:
        return True
    from katra._games import game_by_id
    try:
        spec = game_by_id(game_id)
    except ValueError:
        return False
    return spec.variant_family + FAMILY_WILDCARD in games


def parse_games(line: str) -> tuple[str, ...]:
    """The game ids of a ``games ID ...`` line (at least one)."""
    ids = tuple(_command(line, "games").split())
    if not ids:
        raise ProtocolError(f"games needs at least one game id in {line!r}")
    return ids


@dataclass(frozen=True)
class Option:
    """One ``option`` line of the handshake: a setting ``setoption`` can change.
    ``kind`` is spin (an integer from ``minimum`` to ``maximum``), check (``true``
    or ``false``) or string (one word, or several separated by single spaces)."""

    name: str
    kind: str
    default: str
    minimum: int | None = None
    maximum: int | None = None

    def line(self) -> str:
        words = ["option", "name", self.name, "type", self.kind, "default", self.default]
        if self.minimum is not None and self.maximum is not None:
            words += ["min", str(self.minimum), "max", str(self.maximum)]
        return " ".join(words)

    @classmethod
    def parse(cls, line: str) -> Option:
        words = line.split()
        if (len(words) < 6 or words[0] != "option" or words[1] != "name" or words[3] != "type"
                or words[5] != "default"):
            raise ProtocolError("expected 'option name NAME type TYPE default VALUE "
                                f"[min A max B]', not {line!r}")
        name, kind, rest = words[2], words[4], words[6:]
        if kind not in OPTION_TYPES:
            raise ProtocolError(f"option type is one of {', '.join(OPTION_TYPES)}, "
                                f"not {kind!r}, in {line!r}")
        minimum = maximum = None
        if kind == "spin":
            if len(rest) != 5 or rest[1] != "min" or rest[3] != "max":
                raise ProtocolError(f"a spin option needs 'default N min A max B' in {line!r}")
            default = str(_int_word(rest[0], "default", line, -2**63))
            minimum = _int_word(rest[2], "min", line, -2**63)
            maximum = _int_word(rest[4], "max", line, minimum)
            if not minimum <= int(default) <= maximum:
                raise ProtocolError(f"default {default} is not within min and max in {line!r}")
        elif kind == "check":
            if rest not in (["true"], ["false"]):
                raise ProtocolError(f"a check option's default is true or false in {line!r}")
            default = rest[0]
        else:
            default = " ".join(rest)
        return cls(name, kind, default, minimum, maximum)


def setoption_line(name: str, value: str) -> str:
    return f"setoption name {name} value {value}"


def parse_setoption(line: str) -> tuple[str, str]:
    """``(name, value)`` of ``setoption name NAME value VALUE`` (the value may be
    empty for a string option, or several words)."""
    words = line.split()
    if len(words) < 4 or words[0] != "setoption" or words[1] != "name" or words[3] != "value":
        raise ProtocolError(f"expected 'setoption name NAME value VALUE', not {line!r}")
    return words[2], " ".join(words[4:])


def position_line(text: str, moves: tuple[str, ...] | list[str] = ()) -> str:
    """``position TEXT [moves MOVE ...]``."""
    return " ".join(["position", *text.split(), *(["moves", *moves] if moves else [])])


def parse_position(line: str) -> tuple[str, tuple[str, ...]]:
    """``(position text, moves)`` of ``position TEXT [moves MOVE ...]`` (a position
    text never holds the word ``moves``).  The text is not checked here."""
    words = _command(line, "position").split()
    if "moves" in words:
        cut = words.index("moves")
        text, moves = words[:cut], tuple(words[cut + 1:])
    else:
        text, moves = words, ()
    if not text:
        raise ProtocolError(f"position needs a position text in {line!r}")
    return " ".join(text), moves


def bestmove_line(move: str) -> str:
    return f"bestmove {move}"


def parse_bestmove(line: str) -> str:
    """The move of ``bestmove MOVE`` (move text or an integer action, one word)."""
    words = _command(line, "bestmove").split()
    if len(words) != 1:
        raise ProtocolError(f"expected 'bestmove MOVE', not {line!r}")
    return words[0]


def parse_error(line: str) -> str | None:
    """The message of an ``error ...`` reply, or None if ``line`` is not one."""
    word, _, rest = line.strip().partition(" ")
    return rest.strip() if word == "error" else None


@dataclass(frozen=True)
class Handshake:
    """What an engine answers to ``protocol 1``: its name, author, games and
    options, and the version it speaks (the lines up to ``protocolok``)."""

    name: str
    games: tuple[str, ...]
    author: str | None = None
    options: tuple[Option, ...] = ()
    version: int = PROTOCOL_VERSION

    def lines(self) -> list[str]:
        lines = [id_line("name", self.name)]
        if self.author is not None:
            lines.append(id_line("author", self.author))
        lines.append(games_line(self.games))
        lines += [option.line() for option in self.options]
        lines.append(protocolok_line(self.version))
        return lines

    @classmethod
    def parse(cls, lines: list[str] | tuple[str, ...]) -> Handshake:
        """Read the reply lines to ``protocol 1``, the last one ``protocolok N``
        (blank lines are skipped; an ``error`` line raises ProtocolError)."""
        name: str | None = None
        author: str | None = None
        games: tuple[str, ...] | None = None
        options: list[Option] = []
        version: int | None = None
        for line in lines:
            word = line.split(" ", 1)[0].strip()
            if not word:
                continue
            if version is not None:
                raise ProtocolError(f"a line after protocolok: {line!r}")
            if word == "id":
                key, value = parse_id(line)
                if key == "name":
                    name = value
                else:
                    author = value
            elif word == "games":
                if games is not None:
                    raise ProtocolError(f"a second games line: {line!r}")
                games = parse_games(line)
            elif word == "option":
                options.append(Option.parse(line))
            elif word == "protocolok":
                version = parse_protocolok(line)
            elif word == "error":
                raise ProtocolError(f"the engine answered {line.strip()!r}")
            else:
                raise ProtocolError(f"unexpected line in the handshake: {line!r}")
        if version is None:
            raise ProtocolError("the handshake ends without 'protocolok'")
        if name is None:
            raise ProtocolError("the handshake has no 'id name' line")
        if games is None:
            raise ProtocolError("the handshake has no 'games' line")
        return cls(name, games, author, tuple(options), version)


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

    def new_game(self) -> None:  # noqa: B027  (a hook: most players keep nothing)
        """Forget the previous game (``newgame``)."""

    @abstractmethod
    def choose(self, state: State, limits: GoLimits, stop: threading.Event) -> Choice:
        """The move to play in ``state`` (not finished) within ``limits``; returns
        promptly once ``stop`` is set."""

    def close(self) -> None:  # noqa: B027  (a hook: most players hold nothing)
        """Free what the player holds."""
