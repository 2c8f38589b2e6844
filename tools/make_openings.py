"""Write katra's opening suites, src/katra/data/openings/<game-id>.openings (docs/match.md).

Per game id: seeded random lines from the start position (the generator of
docs/rules.md §6.2, seeded SEED + line number), PLIES_MIN..PLIES_MAX plies
long (the length drawn from the same generator); a line's end position is
kept when the game is not over, no earlier kept opening is the same position,
and katra.search with a budget of NODES nodes scores it, from South's side,
within MARGIN evaluation units (docs/engine.md) of what the same search
scores the start position, with no proven result: as balanced as the game's
own start.  COUNT openings per game (fewer, at least MIN_COUNT, if MAX_LINES
lines hold no more); the header of each file says how it was made.

    python tools/make_openings.py            # every game id
    python tools/make_openings.py katro      # one
"""
from __future__ import annotations

import sys
from pathlib import Path

import katra
from katra._reference.counting import SplitMix64

OUT = Path(__file__).resolve().parent.parent / "src" / "katra" / "data" / "openings"
SEED = 2026
COUNT = 50
MIN_COUNT = 20
PLIES_MIN, PLIES_MAX = 2, 8
NODES = 10_000
MARGIN = 20
MAX_LINES = 5_000


def south_score(state: katra.State) -> int | None:
    """The search's score from South's side, None for a proven result."""
    result = katra.search(state, nodes=NODES)
    if result.plies is not None:
        return None
    return result.score if state.to_move == 0 else -result.score


def openings(game_id: str) -> list[str]:
    """The suite's position texts, in the order found."""
    found: list[str] = []
    seen: set[str] = set()
    even = south_score(katra.game(game_id).initial_state())
    assert even is not None
    for line in range(MAX_LINES):
        rng = SplitMix64(SEED + line)
        state = katra.game(game_id).initial_state()
        plies = PLIES_MIN + rng.next() % (PLIES_MAX - PLIES_MIN + 1)
        for _ in range(plies):
            legal = state.legal_actions()
            if not legal:
                break
            state.push(legal[rng.next() % len(legal)])
        text = state.text()
        if state.is_terminal() or text in seen:
            continue
        score = south_score(state)
        if score is None or abs(score - even) > MARGIN:
            continue
        seen.add(text)
        found.append(text)
        if len(found) == COUNT:
            return found
    if len(found) < MIN_COUNT:
        raise SystemExit(f"{game_id}: only {len(found)} balanced openings in {MAX_LINES} lines")
    return found


def main(game_ids: list[str]) -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    for game_id in game_ids or list(katra.GAME_IDS):
        texts = openings(game_id)
        header = (f"# {game_id}: {len(texts)} openings for katra match (docs/match.md).\n"
                  f"# Made by tools/make_openings.py: seeded random lines of {PLIES_MIN}.."
                  f"{PLIES_MAX} plies\n# (SplitMix64 seed {SEED} + line), kept when "
                  f"katra.search with {NODES} nodes scores them within {MARGIN}\n# of the "
                  f"start position's score, from South's side.\n")
        (OUT / f"{game_id}.openings").write_text(header + "\n".join(texts) + "\n",
                                                 encoding="utf-8")
        print(f"{game_id}: {len(texts)} openings")


if __name__ == "__main__":
    main(sys.argv[1:])
