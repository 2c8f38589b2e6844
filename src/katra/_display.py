"""Names for people: players, squares, offers, why a game ended.

One place for the words and square sets that the text board (``str(state)``),
the SVG drawing and the command line all show, so that they always agree.
Nothing here plays the games or imports the API.
"""
from __future__ import annotations

from functools import cache

from ._games import (
    DJENON,
    GORE,
    GORE_OFFER_BASE,
    GORE_PASS,
    KATRO,
    MPANTSAKA,
    GameSpec,
)
from ._text import offer_squares, square_name

#: Player 0 and player 1.
PLAYERS = ("South", "North")

#: ``Outcome.reason``: why a game ended, per rules family (docs/rules.md §2.4,
#: §3.4, §4.5, §5.3).
END_REASONS = {
    KATRO: "no legal move",
    MPANTSAKA: "no legal move",
    GORE: "board exhausted",
    DJENON: "board exhausted",
}

#: The same, as a sentence; ``{loser}`` is the player who cannot move.
END_SENTENCES = {
    KATRO: "{loser} has no legal move",
    MPANTSAKA: "{loser} has no legal move",
    GORE: "no hole holds 3 or more seeds, so the game is over and the holes are swept "
          "into their owners' stores",
    DJENON: "no hole holds 2 or more seeds, so the game is over and each row is swept "
            "into its owner's store",
}


@cache
def square_names(spec: GameSpec) -> tuple[str, ...]:
    """Every square's name in flat index order (``a1`` = 0)."""
    return tuple(square_name(spec, i) for i in range(spec.holes))


def offer_names(spec: GameSpec, mask: int) -> tuple[str, ...]:
    """The squares of a Goré offer mask, in index order; ``()`` for no offer."""
    names = square_names(spec)
    return tuple(names[i] for i in offer_squares(mask))


def move_squares(spec: GameSpec, action: int) -> list[int]:
    """The holes an action starts from (a Goré offer: the offered holes; a pass or an
    answer to an offer: none)."""
    if spec.family == MPANTSAKA:
        return [action // 2]
    if spec.family == DJENON:
        return [] if action == spec.pass_action else [action]
    if spec.family == GORE and action >= GORE_OFFER_BASE:
        return offer_squares(action - GORE_OFFER_BASE) if action < GORE_PASS else []
    return [action]
