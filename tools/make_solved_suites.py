"""Write katra's solved-position suites, src/katra/data/solved/<game-id>.solved (docs/solved.md).

Per game id: mid-game positions from seeded random games (docs/rules.md §6.2
generator, seed SEED; for Goré, whose random games seldom end, seeded random
boards with few seeds), each solved by the compiled core within the game's
bound CAP.  From every position solved, a spread is kept: for each outcome
(win, loss, draw for the player to move) the shortest, longest and middle
distances found, plus one position with no result within the bound.  The
choice depends only on the seeds and on the solver's exact answers, so the
script writes the same files on every machine.

    python tools/make_solved_suites.py
"""
from __future__ import annotations

from pathlib import Path

import katra
from katra._reference.counting import SplitMix64
from katra.testing._solved import few_seed_gore_position

OUT = Path(__file__).resolve().parent.parent / "src" / "katra" / "data" / "solved"
SEED = 2026
GAMES_PER_ID = 30         # seeded random games to take positions from
BACK = (1, 2, 3, 4, 5, 6, 8, 10, 12, 15, 18, 22)   # plies before a game's last position
#: The largest bound searched per game id: what solves in well under a second.
CAP = {"katro": 9, "katro-4x6": 11, "katro-4x4": 15, "katra-mpantsaka": 6,
       "katra-mpantsaka-simplified": 6, "gore": 9, "djenon-aboure": 15}
PER_OUTCOME = 3


def random_line(game_id: str, game: int) -> list[str]:
    """The unfinished positions of one seeded random game (at most 400 plies)."""
    rng = SplitMix64(SEED + (game << 32))
    state = katra.game(game_id).initial_state()
    seen = []
    while state.legal_actions() and state.ply < 400:
        seen.append(state.text())
        legal = state.legal_actions()
        state.push(legal[rng.next() % len(legal)])
    return seen


def gore_board(rng: SplitMix64) -> str:
    """A seeded random Goré position with few seeds and small stores."""
    return few_seed_gore_position(lambda options: options[rng.next() % len(options)])


def candidates(game_id: str) -> list[str]:
    if game_id == "gore":
        rng = SplitMix64(SEED)
        return [gore_board(rng) for _ in range(GAMES_PER_ID * len(BACK))]
    found = []
    for game in range(GAMES_PER_ID):
        line = random_line(game_id, game)
        found += [line[-back] for back in BACK if back <= len(line)]
    return list(dict.fromkeys(found))


def spread(results: list[tuple[str, katra.SolveResult]]) -> list[tuple[str, katra.SolveResult]]:
    """Per outcome, the positions of the shortest, longest and middle distances."""
    chosen = []
    for outcome in ("win", "loss", "draw"):
        by_distance: dict[int, tuple[str, katra.SolveResult]] = {}
        for text, r in results:
            if r.outcome == outcome and r.plies is not None:
                by_distance.setdefault(r.plies, (text, r))
        distances = sorted(by_distance)
        picks = sorted({distances[0], distances[len(distances) // 2], distances[-1]}
                       if distances else set())
        chosen += [by_distance[d] for d in picks[:PER_OUTCOME]]
    unproven = [(text, r) for text, r in results if r.outcome is None]
    return chosen + unproven[:1]


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    for game_id in katra.GAME_IDS:
        results = [(text, katra.solve(text, CAP[game_id])) for text in candidates(game_id)]
        lines = [f"# katra solved positions for {game_id} (tools/make_solved_suites.py)",
                 "# solve OUTCOME PLIES BEST: the outcome for the player to move (win, loss,",
                 "# draw), its exact distance and katra's best move (docs/rules.md §6.3);",
                 "# solve none BOUND: no result within BOUND plies.  Solved by the compiled core.",
                 ""]
        chosen = spread(results)
        for text, r in chosen:
            plies = r.max_plies if r.outcome is None else r.plies
            lines += [f"id {game_id}-{r.outcome or 'none'}-{plies}", f"position {text}"]
            if r.outcome is None:
                lines.append(f"solve none {plies}")
            else:
                lines.append(f"solve {r.outcome} {plies} {r.best_move}")
            lines.append("")
        (OUT / f"{game_id}.solved").write_text("\n".join(lines), encoding="utf-8")
        print(game_id, len(results), "positions solved,", len(chosen), "kept", flush=True)


if __name__ == "__main__":
    main()
