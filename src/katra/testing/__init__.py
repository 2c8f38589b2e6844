"""katra as the referee for other implementations of the rules (docs/diff.md).

* [compare][katra.testing.compare]: walk seeded random games on your implementation and on
  katra side by side; ``AssertionError`` at the first difference, so it drops
  into a pytest suite;
* [perft_suite][katra.testing.perft_suite]: katra's perft vectors for a game, ``(position_text,
  depth, count)``;
* [solved_suite][katra.testing.solved_suite]: katra's solved positions for a game, each with its
  proven outcome, distance and best move (docs/solved.md), and
  [deep_suite][katra.testing.deep_suite]: its deep positions, settled by proof-number search, whose
  distance is only bounded;
* [solved_variants][katra.testing.solved_variants]: the start positions of the smaller
  boards of each family (docs/rules.md §7) with their values, or where a node budget left
  them open (docs/solved.md, "Variants");
* the machinery behind ``katra diff`` (docs/diff.md) and ``katra perft
  --suite``: [PerftProgram][katra.testing.PerftProgram] and
  [WalkProgram][katra.testing.WalkProgram] run another program through the two
  protocols (failing with [ProgramFailed][katra.testing.ProgramFailed]), its
  command line split by [split_command][katra.testing.split_command] (as
  ``katra match`` splits an engine's); [drill_down][katra.testing.drill_down] and
  [walk][katra.testing.walk] compare it with katra.

``python -m katra.testing.example`` is a complete program speaking both
``katra diff`` protocols, over katra's pure-Python reference.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from katra._games import find_game
from katra._limits import check_playout_args
from katra._text import action_text, plural
from katra.api import DEFAULT_MAX_PLIES

from ._programs import PerftProgram, WalkProgram, split_command
from ._proof import ProofError, ProofSummary, check_proof
from ._referee import (
    Difference,
    DrillResult,
    ProgramError,
    ProgramFailed,
    WalkResult,
    drill_down,
    read_move,
    walk,
)
from ._solved import SolvedEntry, deep_suite, read_solved, solved_suite
from ._solved_variants import SolvedVariant, solved_variants
from ._suites import SuiteEntry, load_suite, perft_suite, read_suite

__all__ = ["compare", "perft_suite", "read_suite", "load_suite", "SuiteEntry", "Difference",
           "WalkResult", "DrillResult", "ProgramError", "ProgramFailed", "drill_down", "walk",
           "PerftProgram", "WalkProgram", "split_command",
           "check_proof", "ProofError", "ProofSummary", "solved_suite", "deep_suite", "read_solved",
           "SolvedEntry", "solved_variants", "SolvedVariant"]


class _ObjectSide:
    """An object from ``factory(text)`` as the other side of a walk.

    The object's ``legal_actions()`` may list int actions or move texts; a
    move is played with ``apply``, ``push`` or ``apply_action`` (the first it
    has), given in the form the object listed it.
    """

    def __init__(self, factory: Callable[[str], Any], game_id: str) -> None:
        self.factory = factory
        self.spec = find_game(game_id)
        self.obj: Any = None
        self.listed: dict[int, Any] = {}

    def start(self, text: str) -> None:
        self.obj = self.factory(text)

    def legal(self) -> list[int]:
        self.listed = {}
        for item in self.obj.legal_actions():
            action = read_move(self.spec, item if isinstance(item, str) else int(item))
            if action in self.listed:
                raise ValueError(f"legal_actions() listed {action_text(self.spec, action)} twice")
            self.listed[action] = item
        return list(self.listed)

    def play(self, action: int) -> None:
        for name in ("apply", "push", "apply_action"):
            method = getattr(self.obj, name, None)
            if callable(method):
                method(self.listed.get(action, action))
                return
        raise TypeError(f"{type(self.obj).__name__} has no apply(), push() or apply_action()")

    def text(self) -> str:
        return str(self.obj.text())


def compare(factory: Callable[[str], Any], game: str, games: int = 100, seed: int = 0,
            max_plies: int = DEFAULT_MAX_PLIES) -> WalkResult:
    """Walk ``games`` seeded random games on ``factory(text)`` and on katra, ply by ply.

    ``factory(position_text)`` returns an object with ``legal_actions()``,
    ``apply(action)`` (or ``push``, or ``apply_action``) and ``text()``.  Game
    ``k`` plays the moves of game ``k`` of ``katra.playouts(game, games,
    seed=seed, max_plies=max_plies)`` (docs/rules.md §6.2) as long as both
    sides agree.  ``game`` is a game name or a position text.

    Returns the [WalkResult][katra.testing.WalkResult] (games finished, unfinished, plies) when
    every ply agrees; raises ``AssertionError`` whose message names the first
    position where the legal moves, the position text after a move, or the
    end of the game differ, with the game's moves so far.
    """
    from katra.api import load_position

    games, seed, max_plies, _ = check_playout_args(games, seed, max_plies, 0)  # playouts' ranges
    start = load_position(game).text()
    side = _ObjectSide(factory, start.split(" ")[0])
    result = walk(side, start, games, seed, max_plies)
    if result.difference is not None:
        raise AssertionError(f"{result.difference.describe('yours')}\n(katra.testing.compare: "
                             f"{plural(games, 'game')}, seed {seed}, max_plies {max_plies})")
    return result
