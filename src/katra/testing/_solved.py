"""Solved-position suites (docs/solved.md): ``id``, ``position``, ``solve``, ``prove`` lines.

An ``id NAME`` line starts an entry, a ``position TEXT`` line gives its
position and a ``solve`` or ``prove`` line its value for the player to move
(docs/rules.md §6.3):

* ``solve win|loss|draw PLIES BEST``: the bounded solver's answer, with the
  exact distance and katra's best move (the one ``katra.solve(pos, bound)``
  returns), or ``solve none BOUND``: no result within ``BOUND`` plies;
* ``prove win|loss|draw WITHIN BEST``: a value settled without a bound, by
  proof-number search (df-pn, ``katra.solve(pos)``): the outcome holds within
  ``WITHIN`` plies, the depth of katra's proof, an **upper bound** on the
  distance, not the distance; ``BEST`` is the first move of that proof's line
  (it keeps the outcome, but need not be the quickest).

Blank lines and lines starting with ``#`` are comments.  katra ships one
suite per game id in ``katra/data/solved/<game-id>.solved``.
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from importlib import resources
from typing import Protocol, TypeVar

from katra._errors import PositionError
from katra._limits import MAX_PROOF_PLIES
from katra.api import State

from ._suites import read_entries, shipped_game_id

_T = TypeVar("_T")

#: The largest distance or bound a ``solve`` line may give (katra.solve's largest bound).
MAX_SOLVED_PLIES = 500

_OUTCOMES = ("win", "loss", "draw")


@dataclass(frozen=True)
class SolvedEntry:
    """One solved position: ``outcome`` (``"win"``, ``"loss"``, ``"draw"`` for the
    player to move, or None: no result within ``plies``), ``plies`` and
    ``best_move`` (``""`` with no result).

    ``exact`` True (a ``solve`` line): ``plies`` is the exact distance, or the
    bound searched when ``outcome`` is None, and ``best_move`` katra's best
    move.  ``exact`` False (a ``prove`` line, never without an outcome):
    ``plies`` is only an upper bound on the distance (the depth of df-pn's
    proof) and ``best_move`` a move that keeps the outcome."""

    id: str
    position: str
    outcome: str | None
    plies: int
    best_move: str
    exact: bool = True


def _solved_entry(ident: str, position: str, key_words: list[str], where: str) -> SolvedEntry:
    key, words = key_words[0], key_words[1:]
    if key == "prove":
        if len(words) != 3 or words[0] not in _OUTCOMES or not words[1].isdigit():
            raise ValueError(f"{where}: expected 'prove win|loss|draw WITHIN MOVE', got "
                             f"{' '.join(key_words)!r}")
        within = int(words[1])
        if not 1 <= within <= MAX_PROOF_PLIES:
            raise ValueError(f"{where}: {within} plies is outside 1..{MAX_PROOF_PLIES}")
        return SolvedEntry(ident, position, words[0], within, words[2], exact=False)
    if len(words) == 3 and words[0] in _OUTCOMES and words[1].isdigit():
        outcome, plies, best = words[0], int(words[1]), words[2]
    elif len(words) == 2 and words[0] == "none" and words[1].isdigit():
        outcome, plies, best = None, int(words[1]), ""
    else:
        raise ValueError(f"{where}: expected 'solve win|loss|draw PLIES MOVE' or "
                         f"'solve none BOUND', got {' '.join(key_words)!r}")
    if not 1 <= plies <= MAX_SOLVED_PLIES:
        raise ValueError(f"{where}: {plies} plies is outside 1..{MAX_SOLVED_PLIES}")
    return SolvedEntry(ident, position, outcome, plies, best)


def read_solved(text: str, name: str = "suite") -> list[SolvedEntry]:
    """The entries of a solved-positions file's text, ``solve`` and ``prove``
    lines alike (``exact`` tells them apart); ``ValueError`` names the first bad line."""
    return read_entries(text, name, ("solve", "prove"), "solve' or 'prove", _solved_entry,
                        one_per_position=True)


def _suite(game: str) -> list[SolvedEntry]:
    game_id = shipped_game_id(game, "solved suite")
    text = (resources.files("katra") / "data" / "solved" / f"{game_id}.solved").read_text(
        encoding="utf-8")
    return read_solved(text, f"katra's {game_id} solved suite")


def solved_suite(game: str) -> list[SolvedEntry]:
    """katra's solved positions for ``game`` (a name, id or alias): mid-game
    positions of every outcome with their exact distances and best moves,
    proven by katra's bounded solver (the ``solve`` lines; see
    [deep_suite][katra.testing.deep_suite] for the deeper ones); for testing another solver:

    ```python
    @pytest.mark.parametrize("entry", katra.testing.solved_suite("katro-4x4"))
    def test_solve(entry):
        assert my_solve(entry.position) == (entry.outcome, entry.plies)
    ```
    """
    return [entry for entry in _suite(game) if entry.exact]


def deep_suite(game: str) -> list[SolvedEntry]:
    """katra's deep positions for ``game`` (a name, id or alias; an empty list
    for a game that has none): values settled by proof-number search where
    the bounded solver settled nothing in a minute (the ``prove`` lines,
    ``exact`` False): ``plies`` is an upper bound on the distance, so test
    the outcome:

    ```python
    @pytest.mark.parametrize("entry", katra.testing.deep_suite("gore"))
    def test_prove(entry):
        assert my_prove(entry.position) == entry.outcome
    ```
    """
    return [entry for entry in _suite(game) if not entry.exact]


class Pick(Protocol):
    """``pick(options)``: one of ``options`` (``random.Random().choice``, say)."""

    def __call__(self, options: Sequence[_T], /) -> _T: ...


#: Seeds a hole of ``few_seed_gore_position`` may hold, and stores it may give.
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
