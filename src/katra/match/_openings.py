"""Opening suites: the positions a match's games start from (docs/match.md, "Openings").

A suite is a text file, one opening per line: a position text (docs/rules.md
§1.5), optionally followed by ``moves MOVE ...`` played from it; blank lines
and lines starting with ``#`` are skipped.  katra ships one suite per game id
(``katra/data/openings/<id>.openings``, made by ``tools/make_openings.py``);
a variant's (docs/rules.md §7) is every position one move from its start.
Each opening is played twice, colours swapped: games ``2j`` and ``2j+1``.
"""
from __future__ import annotations

import random
from importlib import resources
from typing import TYPE_CHECKING

from katra._errors import KatraError

if TYPE_CHECKING:
    from katra.api import State

ORDERS = ("sequential", "random")


def parse_opening(line: str, game_id: str) -> str:
    """The position text of one suite line (its moves played); KatraError if it does not
    parse, is not of ``game_id`` or is already finished."""
    from katra.api import State
    text, _, moves = line.partition(" moves ")
    state: State = State.from_text(text.strip())
    if state.game.id != game_id:
        raise KatraError(f"a position of {state.game.id}, not of {game_id}")
    for move in moves.split():
        state.push(move)
    if state.is_terminal():
        raise KatraError("the game is already over in this position")
    return state.text()


def read_suite(text: str, game_id: str, where: str) -> list[str]:
    """The openings of a suite's text (position texts); KatraError naming ``where`` and the
    line that does not parse, or an empty suite."""
    openings = []
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip() or line.startswith("#"):
            continue
        try:
            openings.append(parse_opening(line, game_id))
        except ValueError as exc:
            raise KatraError(f"{where} line {number}: {exc}") from None
    if not openings:
        raise KatraError(f"{where} holds no opening")
    return openings


def builtin_suite(game_id: str) -> list[str]:
    """katra's suite for ``game_id``: the shipped file of a named game, or a variant's
    positions one move from the start (the start itself when every move ends the game)."""
    from katra._games import GAMES
    if game_id not in GAMES:
        from katra.api import State
        start = State(game_id)
        openings = []
        for action in start.legal_actions():
            start.push(action)
            if not start.is_terminal():
                openings.append(start.text())
            start.pop()
        return openings or [start.text()]
    path = resources.files("katra") / "data" / "openings" / f"{game_id}.openings"
    return read_suite(path.read_text(encoding="utf-8"), game_id, f"{game_id}.openings")


def load_suite(path: str | None, game_id: str) -> list[str]:
    """A user's suite file (``--openings``), or katra's for the game when ``path`` is None."""
    if path is None:
        return builtin_suite(game_id)
    try:
        with open(path, encoding="utf-8") as file:
            text = file.read()
    except (OSError, UnicodeDecodeError) as exc:
        raise KatraError(f"cannot read the openings file {path!r}: "
                         f"{getattr(exc, 'strerror', None) or exc}") from None
    return read_suite(text, game_id, path)


def opening_order(count: int, order: str, seed: int) -> list[int]:
    """The suite's indices in the order the pairs take them (they cycle past the end)."""
    indices = list(range(count))
    if order == "random":
        random.Random(seed).shuffle(indices)
    return indices
