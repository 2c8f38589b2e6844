"""Perft suites: files of ``id``, ``position`` and ``perft DEPTH COUNT`` lines.

The format is python-chess's ``.perft`` format (as in the repository's
``tests/data/perft/``): an ``id NAME`` line starts a vector, a ``position
TEXT`` line gives its position and each ``perft DEPTH COUNT`` line one count;
blank lines and lines starting with ``#`` are comments.  katra ships one suite
per game id in ``katra/data/perft/<game-id>.perft``.
"""
from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import TypeVar

from katra._errors import ArgumentError
from katra._games import GAME_IDS, MAX_PERFT_DEPTH, find_game
from katra._text import format_position, parse_position

_Entry = TypeVar("_Entry")


@dataclass(frozen=True)
class SuiteEntry:
    """One count of a suite: ``perft(position, depth) == nodes``."""

    id: str
    position: str
    depth: int
    nodes: int


def read_entries(text: str, name: str, keys: tuple[str, ...], expected: str, entry: Callable[
        [str, str, list[str], str], _Entry], one_per_position: bool = False) -> list[_Entry]:
    """The entries of a suite-like file: ``id``, ``position`` and value lines,
    each starting with one of ``keys`` (blank lines and ``#`` comments
    skipped); ``entry(id, position, words, where)`` makes the entry of each
    value line from its words, the key first (``ValueError`` naming ``where``
    if they are bad).  ``expected``: the value line's form, for the message
    when there is none.  ``one_per_position``: a position holds one value line
    (then the id is forgotten too)."""
    entries: list[_Entry] = []
    ident = position = None
    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        word, _, value = line.partition(" ")
        where = f"{name}, line {number}"
        if word == "id":
            ident, position = value.strip(), None
        elif word == "position":
            try:
                position = format_position(parse_position(value.strip()))
            except ValueError as exc:
                raise ValueError(f"{where}: {exc}") from None
        elif word in keys:
            if position is None:
                raise ValueError(f"{where}: a '{word}' line needs a 'position' line before it")
            entries.append(entry(ident or position, position, [word, *value.split()], where))
            if one_per_position:
                ident = position = None
        else:
            raise ValueError(f"{where}: unknown line {line!r} "
                             f"(expected id, position or {' or '.join(keys)})")
    if not entries:
        raise ValueError(f"{name}: no '{expected}' line")
    return entries


def read_suite(text: str, name: str = "suite") -> list[SuiteEntry]:
    """The entries of a suite file's text; ``ValueError`` names the first bad line."""
    def perft_entry(ident: str, position: str, key_words: list[str], where: str) -> SuiteEntry:
        words = key_words[1:]
        if len(words) != 2 or not all(w.isdigit() for w in words):
            raise ValueError(f"{where}: expected 'perft DEPTH COUNT', got "
                             f"{' '.join(['perft', *words])!r}")
        depth, nodes = int(words[0]), int(words[1])
        if not 1 <= depth <= MAX_PERFT_DEPTH:
            raise ValueError(f"{where}: depth {depth} is outside 1..{MAX_PERFT_DEPTH}")
        return SuiteEntry(ident, position, depth, nodes)

    return read_entries(text, name, ("perft",), "perft DEPTH COUNT", perft_entry)


def shipped_game_id(game: str, what: str) -> str:
    """The id of ``game`` (a name, id or alias) when katra ships ``what`` for it;
    ArgumentError for a variant (docs/rules.md §7): only the named games have them."""
    spec = find_game(game)
    if not spec.named:
        raise ArgumentError(f"katra ships no {what} for the variant {spec.id}: only for "
                            f"{', '.join(GAME_IDS)}")
    return spec.id


def suite_text(game: str) -> str:
    """The text of the suite katra ships for a game (name, id or alias)."""
    game_id = shipped_game_id(game, "perft suite")
    return (resources.files("katra") / "data" / "perft" / f"{game_id}.perft").read_text(
        encoding="utf-8")


def load_suite(file_or_game: str) -> tuple[str, list[SuiteEntry]]:
    """``(name, entries)`` from a suite file, or katra's suite for a game name."""
    path = Path(file_or_game)
    if path.is_file():
        try:
            text = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            raise ValueError(f"cannot read the suite {file_or_game!r}: {exc}") from None
        return file_or_game, read_suite(text, file_or_game)
    try:
        text = suite_text(file_or_game)
    except ArgumentError:
        raise
    except ValueError:
        raise ValueError(f"{file_or_game!r} is neither a suite file nor a game name") from None
    return f"katra's {find_game(file_or_game).id} suite", read_suite(text, file_or_game)


def perft_suite(game: str) -> Iterator[tuple[str, int, int]]:
    """``(position_text, depth, count)`` for every count of katra's suite for ``game``.

    Start and mid-game positions at several depths, counted by the compiled
    core and (for the smaller counts) checked against the pure-Python
    reference; for parametrising a test of another implementation:

    ```python
    @pytest.mark.parametrize("text, depth, count", katra.testing.perft_suite("gore"))
    def test_perft(text, depth, count):
        assert my_perft(text, depth) == count
    ```
    """
    for entry in read_suite(suite_text(game), game):
        yield entry.position, entry.depth, entry.nodes
