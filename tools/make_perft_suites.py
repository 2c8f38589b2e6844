"""Write katra's perft suites, src/katra/data/perft/<game-id>.perft (docs/diff.md).

Per game id: the start position and mid-game positions reached by seeded
random play (docs/rules.md §6.2 generator), plus for Goré a position with a
pending offer and for Djenon-aboure one where the player to move must pass.
Each position gets every depth whose count stays under MAX_NODES (up to the
first 0: the game is over by then).  Counts
come from the compiled core; every count up to REFERENCE_NODES is checked
against the pure-Python reference too (the file says which).

    python tools/make_perft_suites.py
"""
from __future__ import annotations

import sys
from pathlib import Path

import katra
from katra._reference.counting import SplitMix64

OUT = Path(__file__).resolve().parent.parent / "src" / "katra" / "data" / "perft"
MAX_NODES = 1_000_000
REFERENCE_NODES = 200_000
MAX_DEPTH = 14
SEED = 2026


def random_line(game_id: str, game: int = 0):
    """The states of one seeded random game (game ``game`` of a batch seeded SEED)."""
    rng = SplitMix64(SEED + (game << 32))
    state = katra.game(game_id).initial_state()
    while True:
        yield state.copy()
        legal = state.legal_actions()
        if not legal or state.ply >= 300:
            return
        state.push(legal[rng.next() % len(legal)])


def positions(game_id: str) -> list[tuple[str, str]]:
    """``(id, position text)`` for the suite of one game."""
    start = katra.game(game_id).initial_state()
    chosen = [(f"{game_id}-start", start.text())]
    for ply in (8, 20):  # the first seeded game still going at that ply
        for game in range(50):
            line = [s for s in random_line(game_id, game) if s.legal_actions()]
            if len(line) > ply:
                chosen.append((f"{game_id}-ply{ply}", line[ply].text()))
                break
    for game in range(50):
        special = {"gore": lambda s: bool(s.pending_offer),
                   "djenon-aboure": lambda s: s.legal_actions() == [12]}.get(game_id)
        if special is None:
            break
        found = [s for s in random_line(game_id, game) if special(s)]
        if found:
            kind = "offer" if game_id == "gore" else "pass"
            chosen.append((f"{game_id}-{kind}", found[0].text()))
            break
    return chosen


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    for game_id in katra.GAME_IDS:
        lines = [f"# katra perft suite for {game_id} (tools/make_perft_suites.py)",
                 "# counts by the compiled core; those up to "
                 f"{REFERENCE_NODES:,} also checked against the pure-Python reference", ""]
        for ident, text in positions(game_id):
            lines += [f"id {ident}", f"position {text}"]
            for depth in range(1, MAX_DEPTH + 1):
                nodes = katra.perft(text, depth)
                if nodes > MAX_NODES:
                    break
                if nodes <= REFERENCE_NODES:
                    ref = katra.perft(text, depth, backend="reference")
                    if ref != nodes:
                        sys.exit(f"{ident} depth {depth}: core {nodes}, reference {ref}")
                lines.append(f"perft {depth} {nodes}")
                if nodes == 0:  # the game is over by then: deeper counts are 0 too
                    break
            lines.append("")
        (OUT / f"{game_id}.perft").write_text("\n".join(lines), encoding="utf-8")
        print(game_id, "done", flush=True)


if __name__ == "__main__":
    main()
