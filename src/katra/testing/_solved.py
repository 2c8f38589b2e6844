"""Solved-position suites: files of ``id``, ``position`` and ``solve`` lines (docs/solved.md).

An ``id NAME`` line starts an entry, a ``position TEXT`` line gives its
position and a ``solve`` line its value for the player to move
(docs/rules.md §6.3): ``solve win|loss|draw PLIES BEST`` (the exact distance
and katra's best move, the one ``katra.solve`` returns) or ``solve none
BOUND`` (no result within ``BOUND`` plies).  Blank lines and lines starting
with ``#`` are comments.  katra ships one suite per game id in
``katra/data/solved/<game-id>.solved``.
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from importlib import resources
from typing import Protocol, TypeVar

from katra._errors import PositionError
from katra._games import find_game
from katra.api import State

from ._suites import read_entries

_T = TypeVar("_T")

#: The largest distance or bound a ``solve`` line may give (katra.solve's largest bound).
MAX_SOLVED_PLIES = 500


@dataclass(frozen=True)
class SolvedEntry:
    """One solved position: ``outcome`` (``"win"``, ``"loss"``, ``"draw"`` for the
    player to move, or None: no result within ``plies``), ``plies`` (the exact
    distance, or the bound searched) and ``best_move`` (``""`` with no result)."""

    id: str
    position: str
    outcome: str | None
    plies: int
    best_move: str


def _solved_entry(ident: str, position: str, words: list[str], where: str) -> SolvedEntry:
    if len(words) == 3 and words[0] in ("win", "loss", "draw") and words[1].isdigit():
        outcome, plies, best = words[0], int(words[1]), words[2]
    elif len(words) == 2 and words[0] == "none" and words[1].isdigit():
        outcome, plies, best = None, int(words[1]), ""
    else:
        raise ValueError(f"{where}: expected 'solve win|loss|draw PLIES MOVE' or "
                         f"'solve none BOUND', got {' '.join(['solve', *words])!r}")
    if not 1 <= plies <= MAX_SOLVED_PLIES:
        raise ValueError(f"{where}: {plies} plies is outside 1..{MAX_SOLVED_PLIES}")
    return SolvedEntry(ident, position, outcome, plies, best)


def read_solved(text: str, name: str = "suite") -> list[SolvedEntry]:
    """The entries of a solved-positions file's text; ``ValueError`` names the first bad line."""
    return read_entries(text, name, "solve", "solve", _solved_entry, one_per_position=True)


def solved_suite(game: str) -> list[SolvedEntry]:
    """katra's solved positions for ``game`` (a name, id or alias): mid-game
    positions of every outcome with their exact distances and best moves,
    proven by katra's solver; for testing another solver::

        @pytest.mark.parametrize("entry", katra.testing.solved_suite("katro-4x4"))
        def test_solve(entry):
            assert my_solve(entry.position) == (entry.outcome, entry.plies)
    """
    game_id = find_game(game).id
    text = (resources.files("katra") / "data" / "solved" / f"{game_id}.solved").read_text(
        encoding="utf-8")
    return read_solved(text, f"katra's {game_id} solved suite")


class Pick(Protocol):
    """``pick(options)``: one of ``options`` (``random.Random().choice``, say)."""

    def __call__(self, options: Sequence[_T], /) -> _T: ...


#: Seeds a hole of :func:`few_seed_gore_position` may hold, and stores it may give.
GORE_HOLE_SEEDS = (0, 0, 1, 1, 2, 2, 3, 4, 5)
GORE_STORES = (0, 1, 2, 3, 4, 5, 6, 12, 20)


def few_seed_gore_position(pick: Pick, stores: Sequence[int] = GORE_STORES,
                           backend: str = "core") -> str:
    """A random unfinished Goré position with few seeds on the board and small
    stores, drawn with ``pick(options)`` (one of ``options``; a seeded generator's).

    Random Goré games seldom end (docs/rules.md §4.5), and offers need stores and
    can prolong any game, so the solver's tests and suites take such boards
    instead.  Draws, in order: the 8 holes (``a1``..``d1``, then ``a2``..``d2``),
    their 8 owners, South's and North's stores, the side to move; a draw that is
    no position (§1.5) or a finished one is drawn again.  The canonical text.
    """
    while True:
        board = [pick(GORE_HOLE_SEEDS) for _ in range(8)]
        owners = "".join(pick("SN") for _ in range(8))
        south_store, north_store = pick(stores), pick(stores)
        text = (f"gore {','.join(map(str, board[4:]))}/{','.join(map(str, board[:4]))} "
                f"{pick('SN')} stores={south_store},{north_store} "
                f"owners={owners[4:]}/{owners[:4]}")
        try:
            position = State.from_text(text, backend=backend)
        except PositionError:
            continue
        if not position.is_terminal():
            return str(position.text())
