"""df-pn's transposition table kept in a file, so that a long solve resumes where
it stopped (docs/solve.md, "Resuming a long solve").

The file is a header line, ``katra-dfpn-table 1``, a line of JSON (the game,
``tt_bits``, this build's table fingerprint, the byte order, and the nodes
and seconds of every run so far), then the table's slots as the core holds
them.  Every entry of the table is a fact about its position (a proof, a
disproof, a disproof marked with the path it rests on) or a pair of numbers
that only steers the search, so a table saved from any solve of a game serves
any later solve of that game.  A file is read only by a build with the same
fingerprint (keys, checks, seals, slot layout) and written whole to
``FILE.part``, then renamed (katra._files: a link's target is written, the
link kept): a solve stopped at any moment leaves the previous file or the new
one, never a mix.
"""
from __future__ import annotations

import json
import os
import sys
from dataclasses import dataclass
from typing import Any

from katra._errors import ArgumentError, ArgumentTypeError, UnknownGameError
from katra._files import OutputFile
from katra._games import game_by_id
from katra._limits import MAX_SOLVE_TT_BITS, MIN_SOLVE_TT_BITS

from ._backends import DfpnTable, dfpn_fingerprint
from ._counting import load_position

__all__ = ["DfpnTableFile", "DfpnTableInfo", "dfpn_table_info"]

_MAGIC = b"katra-dfpn-table 1\n"
_HEADER_LIMIT = 4096          # the JSON line is well under this
_SLOT_BYTES = 24


@dataclass(frozen=True)
class DfpnTableInfo:
    """What a df-pn table file holds: its ``game``, ``tt_bits`` (2**tt_bits
    entries), the ``nodes`` and ``seconds`` (wall clock) of the ``runs`` saved
    into it, and its ``size`` in bytes."""

    game: str
    tt_bits: int
    nodes: int
    seconds: float
    runs: int
    size: int


def _fingerprint(game: str) -> str:
    """This build's df-pn table fingerprint for ``game`` (of its start)."""
    return f"{dfpn_fingerprint(load_position(game, 'core')):016x}"


def _path(path: object) -> str:
    if not isinstance(path, (str, os.PathLike)):
        raise ArgumentTypeError(f"dfpn_table must be None or a path, not {type(path).__name__}")
    name = os.fspath(path)
    if not isinstance(name, str):
        raise ArgumentTypeError("dfpn_table must name a file as text")
    return name


def _read_header(name: str, f: Any) -> tuple[dict[str, Any], int]:
    """The header of the open table file f and where its slots start."""
    head = f.read(len(_MAGIC) + _HEADER_LIMIT)
    if not head.startswith(_MAGIC):
        raise ArgumentError(f"{name}: not a katra df-pn table file (it must start with "
                            f"{_MAGIC.decode().strip()!r})")
    end = head.find(b"\n", len(_MAGIC))
    if end < 0:
        raise ArgumentError(f"{name}: truncated df-pn table file (no complete header)")
    try:
        header = json.loads(head[len(_MAGIC):end])
        ok = (isinstance(header, dict) and isinstance(header.get("game"), str)
              and type(header.get("tt_bits")) is int
              and isinstance(header.get("fingerprint"), str)
              and header.get("byteorder") in ("little", "big")
              and type(header.get("nodes")) is int and header["nodes"] >= 0
              and type(header.get("runs")) is int and header["runs"] >= 0
              and isinstance(header.get("seconds"), (int, float)))
    except ValueError:
        ok = False
    if not ok:
        raise ArgumentError(f"{name}: damaged df-pn table file (its header is not katra's)")
    try:
        game_by_id(header["game"])     # a named game or a variant (docs/rules.md §7)
    except UnknownGameError:
        raise ArgumentError(f"{name}: a df-pn table of an unknown game "
                            f"{header['game']!r}") from None
    if not MIN_SOLVE_TT_BITS <= header["tt_bits"] <= MAX_SOLVE_TT_BITS:
        raise ArgumentError(f"{name}: damaged df-pn table file (tt_bits {header['tt_bits']} "
                            f"outside {MIN_SOLVE_TT_BITS}..{MAX_SOLVE_TT_BITS})")
    return header, end + 1


def _info(name: str, f: Any) -> tuple[DfpnTableInfo, dict[str, Any], int]:
    header, at = _read_header(name, f)
    size = os.fstat(f.fileno()).st_size
    want = at + (_SLOT_BYTES << header["tt_bits"])
    if size != want:
        raise ArgumentError(f"{name}: {'truncated' if size < want else 'damaged'} df-pn table "
                            f"file ({size} bytes, its header says {want})")
    info = DfpnTableInfo(header["game"], header["tt_bits"], header["nodes"],
                         float(header["seconds"]), header["runs"], size)
    return info, header, at


def _open(name: str) -> Any:
    try:
        return open(name, "rb")
    except OSError as exc:
        raise ArgumentError(f"{name}: cannot read the df-pn table file "
                            f"({exc.strerror or exc})") from None


def dfpn_table_info(path: str | os.PathLike[str]) -> DfpnTableInfo:
    """What the df-pn table file at ``path`` holds (its header, checked against
    its size); a file that is missing, truncated or not one:
    [katra.ArgumentError][]."""
    name = _path(path)
    with _open(name) as f:
        return _info(name, f)[0]


class DfpnTableFile:
    """A solve's df-pn table kept at ``path`` for ``game``: ``load`` reads it
    if the file exists (checked: a df-pn table file, of this game, this build's
    layout, ``tt_bits`` if given, its full size), else makes a new table;
    ``save`` writes it back (to ``path.part``, then renamed)."""

    def __init__(self, path: object, game: str, tt_bits: int | None) -> None:
        self.path = _path(path)
        self.game = game
        self.tt_bits = tt_bits
        self.nodes, self.seconds, self.runs = 0, 0.0, 0
        self.table: Any = None
        if os.path.isdir(self.path):
            raise ArgumentError(f"{self.path}: a directory, not a df-pn table file")
        if os.path.exists(self.path) and not os.path.isfile(self.path):
            raise ArgumentError(f"{self.path}: not a regular file (a df-pn table file is "
                                f"read back, so no FIFO or device)")
        # a link is written through (katra._files): the folder that matters is its target's
        directory = os.path.dirname(os.path.realpath(self.path))
        if not os.access(directory, os.W_OK):
            raise ArgumentError(f"{self.path}: cannot write the df-pn table file there")

    def load(self) -> Any:
        """The table: the file's if it exists, else a new one (``tt_bits``)."""
        if not os.path.exists(self.path):
            self.table = DfpnTable(self.tt_bits)
            return self.table
        with _open(self.path) as f:
            info, header, at = _info(self.path, f)
            if info.game != self.game:
                raise ArgumentError(f"{self.path}: a df-pn table of {info.game}, "
                                    f"not {self.game}")
            if (header["fingerprint"], header["byteorder"]) != (_fingerprint(self.game),
                                                                sys.byteorder):
                raise ArgumentError(f"{self.path}: a df-pn table of another katra build "
                                    f"(its keys or layout differ from this one's)")
            if self.tt_bits is not None and self.tt_bits != info.tt_bits:
                raise ArgumentError(f"{self.path}: holds 2**{info.tt_bits} entries, not "
                                    f"2**{self.tt_bits} (leave tt_bits out to use the file's)")
            table = DfpnTable(info.tt_bits)
            f.seek(at)
            try:
                table.read_from(f)
            except OSError as exc:
                raise ArgumentError(f"{self.path}: cannot read the df-pn table file "
                                    f"({exc.strerror or exc})") from None
        self.nodes, self.seconds, self.runs = info.nodes, info.seconds, info.runs
        self.table = table
        return table

    def save(self, nodes: int, seconds: float) -> None:
        """Write the table with this run's ``nodes`` and ``seconds`` added to the
        file's; the previous file stays until the new one is whole."""
        header = {"game": self.game, "tt_bits": int(self.table.tt_bits),
                  "fingerprint": _fingerprint(self.game), "byteorder": sys.byteorder,
                  "nodes": self.nodes + int(nodes), "seconds": round(self.seconds + seconds, 3),
                  "runs": self.runs + 1}
        try:
            with OutputFile(self.path, binary=True) as f:
                f.write(_MAGIC + json.dumps(header).encode() + b"\n")
                self.table.write_to(f)
        except OSError as exc:
            raise ArgumentError(f"{self.path}: cannot write the df-pn table file "
                                f"({exc.strerror or exc})") from None
