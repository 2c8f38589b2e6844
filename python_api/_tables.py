"""Endgame tables: Djenon-aboure's boards of few seeds, valued once (docs/tables.md).

[build_tables][katra.api.build_tables] computes the layers 0..K of board seeds with the compiled
core (``_core._table_build_layer``, each layer from its own boards and the
smaller layers) and writes them to a file; [load_tables][katra.api.load_tables] reads a file
back into a ``_core.EndgameTables``, which ``katra.solve(..., tables=...)``
and the search engine read; [tables_info][katra.api.tables_info] describes a file.

The file: a first line ``KATRA-TABLES 1``, a second line of JSON (the game,
``max_seeds`` and per layer its boards, the bytes it takes in the file and
the CRC-32 of its uncompressed bytes), then each layer's bytes compressed by
zlib: 2 values a board (bytes) then 2 plies a board (16-bit little-endian).
A file that is missing, truncated, damaged or for another game raises
[katra.ArgumentError][] naming the problem: it is never read as a table.
"""
from __future__ import annotations

import json
import os
import sys
import time as _clock
import zlib
from array import array
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from katra._errors import ArgumentError, ArgumentTypeError
from katra._files import OutputFile

from ._backends import EndgameTables, table_boards, table_build_layer

__all__ = ["TABLE_GAMES", "MAX_TABLE_SEEDS", "LayerInfo", "TablesInfo", "build_tables",
           "load_tables", "tables_info"]

#: The games that have endgame tables (Goré's positions depend on more than the board:
#: docs/tables.md says why it has none).
TABLE_GAMES = ("djenon-aboure",)

#: The largest layer the builder makes (and a file may hold).
MAX_TABLE_SEEDS = 16

_MAGIC = b"KATRA-TABLES 1\n"
_HEADER_LIMIT = 1 << 16          # the JSON line's longest


@dataclass(frozen=True)
class LayerInfo:
    """One layer: its ``seeds``, ``boards``, the ``bytes`` it takes in the file
    (compressed), and, when just built, its build's ``sweeps`` and CPU
    ``seconds`` (None when read from a file)."""

    seeds: int
    boards: int
    bytes: int
    sweeps: int | None = None
    seconds: float | None = None


@dataclass(frozen=True)
class TablesInfo:
    """A table file: its ``game``, ``max_seeds`` and ``layers``, and its size in ``bytes``."""

    game: str
    max_seeds: int
    layers: tuple[LayerInfo, ...]
    bytes: int


def _check_game(game: object) -> str:
    if not isinstance(game, str):
        raise ArgumentTypeError(f"game must be a game id (str), not {type(game).__name__}")
    if game not in TABLE_GAMES:
        if game == "gore":
            raise ArgumentError("gore has no endgame tables: its positions depend on the "
                                "holes' owners, an offer and the stores (docs/tables.md)")
        raise ArgumentError(f"no endgame tables for {game!r}: only "
                            f"{', '.join(TABLE_GAMES)} has them")
    return game


def _check_seeds(max_seeds: object) -> int:
    if isinstance(max_seeds, bool) or not isinstance(max_seeds, int):
        raise ArgumentTypeError(f"max_seeds must be an int, not {type(max_seeds).__name__}")
    if not 0 <= max_seeds <= MAX_TABLE_SEEDS:
        raise ArgumentError(f"max_seeds must be in 0..{MAX_TABLE_SEEDS}, got {max_seeds}")
    return max_seeds


def _native(plies: bytes, to_file: bool) -> bytes:
    """16-bit plies between the core's order (native) and the file's (little-endian)."""
    if sys.byteorder == "little":
        return plies
    words = array("H", plies)
    words.byteswap()
    return words.tobytes()


#: The bytes given to zlib at a time: Ctrl-C, which Python handles between two calls,
#: waits for one (level 9 takes up to about 30 ms for 16 KiB of a layer) rather than
#: for a whole layer (up to a minute at 16 seeds).
_ZLIB_STEP = 1 << 14


def _compress(raw: bytes) -> tuple[bytes, int]:
    """``raw`` compressed by zlib (level 9) and its CRC-32, a _ZLIB_STEP at a time."""
    packer = zlib.compressobj(9)
    parts = []
    crc = 0
    view = memoryview(raw)
    for at in range(0, len(raw), _ZLIB_STEP):
        step = view[at:at + _ZLIB_STEP]
        parts.append(packer.compress(step))
        crc = zlib.crc32(step, crc)
    parts.append(packer.flush())
    return b"".join(parts), crc


def build_layers(game: str, max_seeds: int,
                 progress: Callable[[LayerInfo], None] | None = None
                 ) -> tuple[list[bytes], list[bytes], list[LayerInfo]]:
    """The layers 0..max_seeds of ``game`` (checked arguments): values, plies
    (native order) and each layer's [LayerInfo][katra.api.LayerInfo] (``bytes`` 0: not written)."""
    values: list[bytes] = []
    plies: list[bytes] = []
    infos: list[LayerInfo] = []
    for seeds in range(max_seeds + 1):
        start = _clock.process_time()
        v, p, sweeps = table_build_layer(seeds, values, plies)
        info = LayerInfo(seeds, len(v) // 2, 0, sweeps, _clock.process_time() - start)
        values.append(v)
        plies.append(p)
        infos.append(info)
        if progress is not None:
            progress(info)
    return values, plies, infos


def build_tables(game: str, max_seeds: int, path: str | os.PathLike[str],
                 progress: Callable[[LayerInfo], None] | None = None) -> TablesInfo:
    """Build ``game``'s endgame tables of every board of at most ``max_seeds``
    seeds (0..16) and write them to ``path`` (docs/tables.md); ``progress``:
    None or a callable given each layer's [LayerInfo][katra.api.LayerInfo] as it is built.
    The file is written to ``path + ".part"`` (opened before the build, so a
    path that cannot be written is an ArgumentError at once) and renamed when
    complete (katra._files: a link's target is written, a FIFO directly); a
    build that fails or is interrupted (Ctrl-C) removes it and leaves no
    table behind."""
    game = _check_game(game)
    seeds = _check_seeds(max_seeds)
    if progress is not None and not callable(progress):
        raise ArgumentTypeError(f"progress must be None or a callable, "
                                f"not {type(progress).__name__}")
    if not isinstance(path, (str, os.PathLike)) or not isinstance(os.fspath(path), str):
        raise ArgumentTypeError(f"path must be a str or a path, not {type(path).__name__}")
    path = os.fspath(path)
    try:                            # a path that cannot be written fails before the build
        out = OutputFile(path, binary=True)
    except OSError as exc:
        raise ArgumentError(f"{path}: cannot write the table file ({exc.strerror})") from None
    try:
        with out as stream:
            values, plies, built = build_layers(game, seeds, progress)
            packed = [_compress(v + _native(p, True)) for v, p in zip(values, plies)]
            blobs = [blob for blob, _ in packed]
            header = {"game": game, "max_seeds": seeds,
                      "layers": [{"seeds": k, "boards": len(v) // 2, "bytes": len(blob),
                                  "crc32": crc}
                                 for k, (v, (blob, crc)) in enumerate(zip(values, packed))]}
            head = _MAGIC + json.dumps(header, separators=(",", ":")).encode() + b"\n"
            stream.write(head)
            for blob in blobs:
                stream.write(blob)
    except OSError as exc:
        raise ArgumentError(f"{path}: cannot write the table file ({exc.strerror})") from None
    layers = tuple(LayerInfo(b.seeds, b.boards, len(blob), b.sweeps, b.seconds)
                   for b, blob in zip(built, blobs))
    return TablesInfo(game, seeds, layers, len(head) + sum(len(blob) for blob in blobs))


def _read_header(path: str, data: bytes) -> tuple[dict[str, Any], int]:
    """The header of a table file's bytes and where its layers start."""
    if not data.startswith(_MAGIC):
        raise ArgumentError(f"{path}: not a katra table file (it must start with "
                            f"{_MAGIC.decode().strip()!r})")
    end = data.find(b"\n", len(_MAGIC), len(_MAGIC) + _HEADER_LIMIT)
    if end < 0:
        raise ArgumentError(f"{path}: truncated table file (no complete header)")
    try:
        header = json.loads(data[len(_MAGIC):end])
        game, seeds, layers = header["game"], header["max_seeds"], header["layers"]
        ok = (isinstance(game, str) and type(seeds) is int and isinstance(layers, list)
              and len(layers) == seeds + 1
              and all(isinstance(x, dict) and x.get("seeds") == k
                      and all(type(x.get(f)) is int for f in ("boards", "bytes", "crc32"))
                      for k, x in enumerate(layers)))
    except (ValueError, KeyError, TypeError):
        ok = False
    if not ok:
        raise ArgumentError(f"{path}: damaged table file (its header is not katra's)")
    if game not in TABLE_GAMES:
        raise ArgumentError(f"{path}: a table file for {game!r}, which has no endgame tables")
    if not 0 <= seeds <= MAX_TABLE_SEEDS:
        raise ArgumentError(f"{path}: damaged table file (max_seeds {seeds} "
                            f"outside 0..{MAX_TABLE_SEEDS})")
    for k, layer in enumerate(layers):
        if layer["boards"] != table_boards(k):
            raise ArgumentError(f"{path}: damaged table file (layer {k} lists "
                                f"{layer['boards']} boards, not {table_boards(k)})")
    return header, end + 1


def _read(path: object) -> tuple[str, bytes]:
    if not isinstance(path, (str, os.PathLike)):
        raise ArgumentTypeError(f"path must be a str or a path, not {type(path).__name__}")
    name = os.fspath(path)
    if not isinstance(name, str):
        raise ArgumentTypeError("path must name a file as text")
    try:
        with open(name, "rb") as f:
            return name, f.read()
    except FileNotFoundError:
        raise ArgumentError(f"{name}: no such table file (make one with "
                            f"'katra tables build')") from None
    except OSError as exc:
        raise ArgumentError(f"{name}: cannot read the table file ({exc.strerror})") from None


def tables_info(path: str | os.PathLike[str]) -> TablesInfo:
    """What the table file at ``path`` holds (its header, checked against its size)."""
    name, data = _read(path)
    header, at = _read_header(name, data)
    size = at + sum(layer["bytes"] for layer in header["layers"])
    if len(data) != size:
        raise ArgumentError(f"{name}: {'truncated' if len(data) < size else 'damaged'} "
                            f"table file ({len(data)} bytes, its header says {size})")
    layers = tuple(LayerInfo(x["seeds"], x["boards"], x["bytes"]) for x in header["layers"])
    return TablesInfo(header["game"], header["max_seeds"], layers, len(data))


def load_tables(path: str | os.PathLike[str], game: str | None = None) -> Any:
    """The endgame tables of the file at ``path`` (a ``_core.EndgameTables``),
    every layer checked (size, CRC-32); ``game``: None or the game they must be
    for.  Missing, truncated, damaged or another game's: [katra.ArgumentError][]."""
    info = tables_info(path)
    name = os.fspath(path)
    if game is not None and not isinstance(game, str):
        raise ArgumentTypeError(f"game must be None or a game id, not {type(game).__name__}")
    if game is not None and game != info.game:
        raise ArgumentError(f"{name}: a table file for {info.game}, not {game}")
    data = _read(path)[1]
    _, at = _read_header(name, data)
    header = json.loads(data[len(_MAGIC):at - 1])
    values: list[bytes] = []
    plies: list[bytes] = []
    for k, layer in enumerate(header["layers"]):
        blob = data[at:at + layer["bytes"]]
        at += layer["bytes"]
        try:
            raw = zlib.decompress(blob)
        except zlib.error:
            raise ArgumentError(f"{name}: damaged table file (layer {k} "
                                f"does not decompress)") from None
        n = layer["boards"]
        if len(raw) != 6 * n or zlib.crc32(raw) != layer["crc32"]:
            raise ArgumentError(f"{name}: damaged table file (layer {k} fails its check)")
        values.append(raw[:2 * n])
        plies.append(_native(raw[2 * n:], False))
    return EndgameTables(values, plies)


def check_tables(tables: object, game_id: str, alone: bool) -> None:
    """A ``tables=`` argument: None or endgame tables for ``game_id``'s positions;
    ``alone``: a proof file or workers were asked for, which the tables exclude
    (a table's answer has no proof tree, and workers would not have the tables)."""
    if tables is None:
        return
    if not isinstance(tables, EndgameTables):
        raise ArgumentTypeError(f"tables must be None or endgame tables (load_tables), "
                                f"not {type(tables).__name__}")
    if game_id != tables.game_id:
        raise ArgumentError(f"tables: these are {tables.game_id}'s endgame tables, "
                            f"not {game_id}'s")
    if alone:
        raise ArgumentError("tables: a proof file and jobs/executor go without endgame tables "
                            "(a table's answer has no proof tree)")
