"""The solver's four questions and what their answers say (docs/rules.md §6.3).

A question names a player and a target: "can ``player`` force the game to
end with at least ``target`` for them" (``DRAW``: a draw or better,
``WIN``: a win), within a bound (the bounded solver) or within some finite
number of plies (df-pn).  A position's value is settled by a win forced for
one player, or by both players' draws-or-better.
"""
from __future__ import annotations

from dataclasses import dataclass

__all__ = ["DRAW", "WIN", "Question", "QUESTIONS", "Thresholds", "questions_for", "value_of"]

#: The two targets: a draw or better, a win.
DRAW, WIN = 0, 1

_SIDES = ("S", "N")
_TARGETS = ("draw", "win")


@dataclass(frozen=True)
class Question:
    """Can ``player`` (0 South, 1 North) force at least ``target`` (DRAW or WIN)?"""

    player: int
    target: int

    @property
    def index(self) -> int:
        """Its place in a thresholds list and in the core's tables."""
        return 2 * self.player + self.target

    @property
    def text(self) -> str:
        """As a proof file's ``tree`` line names it: ``"S win"``, ``"N draw"``."""
        return f"{_SIDES[self.player]} {_TARGETS[self.target]}"


#: The four questions in thresholds order: South draw-or-better, South win,
#: North draw-or-better, North win.
QUESTIONS = tuple(Question(player, target) for player in (0, 1) for target in (DRAW, WIN))

#: Thresholds of a position: the least bound for each question, in QUESTIONS
#: order; -1: not within the bound searched; None: never.
Thresholds = list[int | None]


def questions_for(outcome: str, mover: int) -> list[Question]:
    """The questions whose proofs settle ``outcome`` for ``mover``, in a proof file's order."""
    other = 1 - mover
    return {"win": [Question(mover, WIN)], "loss": [Question(other, WIN)],
            "draw": [Question(mover, DRAW), Question(other, DRAW)]}[outcome]


def value_of(thresholds: Thresholds, mover: int) -> tuple[str | None, int | None]:
    """(outcome for ``mover``, distance) from a position's thresholds, or (None, None)."""
    def known(question: Question) -> int | None:
        t = thresholds[question.index]
        return t if t is not None and t >= 0 else None

    for outcome in ("win", "loss", "draw"):
        found = [known(q) for q in questions_for(outcome, mover)]
        if all(t is not None for t in found):
            return outcome, max(t for t in found if t is not None)
    return None, None
