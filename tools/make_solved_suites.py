"""Write katra's solved-position suites, src/katra/data/solved/<game-id>.solved (docs/solved.md).

Per game id: mid-game positions from seeded random games (docs/rules.md §6.2
generator, seed SEED; for Goré, whose random games seldom end, seeded random
boards with few seeds), each solved by the compiled core within the game's
bound CAP.  From every position solved, a spread is kept: for each outcome
(win, loss, draw for the player to move) the shortest, longest and middle
distances found, plus one position with no result within the bound.  The
choice depends only on the seeds and on the solver's exact answers, so the
script writes the same files on every machine.

Then the deep positions (``prove`` lines): DEEP, the mid-games of
docs/solved.md's "df-pn at 60 s of CPU" table that df-pn settled where the
bounded solver had settled nothing within 60 s of CPU.  Each is proven by
df-pn (``katra.solve(pos, nodes=DEEP_NODES, tt_bits=DEEP_TT_BITS)``: one
thread, a node budget, no clock, so the same answer on every machine); for
the games of PROOF_GAMES its proof is written and checked on the reference
backend (``katra.testing.check_proof``); the entry records the outcome, the
proof's depth (an upper bound on the distance) and the proof's first move.

    python tools/make_solved_suites.py [--deep-only] [GAME_ID ...]

(default: every game id)

``--deep-only`` keeps the exact entries of the files as they are (the same as
the script would write again) and proves the deep entries anew.
"""
from __future__ import annotations

import io
import sys
import tempfile
from pathlib import Path

import katra
from katra._reference.counting import SplitMix64
from katra.testing import check_proof
from katra.testing._solved import few_seed_gore_position

OUT = Path(__file__).resolve().parent.parent / "src" / "katra" / "data" / "solved"
SEED = 2026
GAMES_PER_ID = 30         # seeded random games to take positions from
BACK = (1, 2, 3, 4, 5, 6, 8, 10, 12, 15, 18, 22)   # plies before a game's last position
#: The largest bound searched per game id: what solves in well under a second.
CAP = {"katro": 9, "katro-4x6": 11, "katro-4x4": 15, "katra-mpantsaka": 6,
       "katra-mpantsaka-simplified": 6, "gore": 9, "djenon-aboure": 15}
PER_OUTCOME = 3

#: Positions the bounded solver settled nothing in within 60 s of CPU and df-pn
#: settled (docs/solved.md, "Beyond the bounded solver's reach: df-pn at 60 s of CPU";
#: drawn by benchmarks/bench_dfpn.py, seeds 2029, 2030, 2031).
DEEP = {
    "katro-4x6": (
        "katro-4x6 1,6,1,2,5,6/5,0,3,0,3,1/0,0,1,0,1,0/5,6,0,0,1,1 S",
        "katro-4x6 6,1,0,2,0,2/1,3,0,3,0,0/1,4,1,5,1,0/1,3,0,1,8,5 N",
        "katro-4x6 0,2,0,7,1,0/0,1,0,1,5,0/0,3,1,4,5,0/3,3,3,3,3,3 N",
        "katro-4x6 2,0,1,7,2,1/0,0,0,0,0,0/0,3,2,4,3,0/5,4,3,8,1,2 N",
    ),
    "katro": (
        "katro 1,2,0,1,2,2/1,5,0,1,3,8/2,0,0,0,0,0/7,6,1,4,0,5/0,1,0,3,0,1/1,0,3,6,1,5 N",
        "katro 1,0,0,0,0,0/0,1,2,3,1,7/0,4,0,0,1,1/0,11,1,0,3,3/1,7,1,0,7,1/6,7,1,1,1,0 N",
        "katro 1,3,1,0,6,2/1,0,3,1,6,3/7,0,7,0,6,1/4,1,3,1,2,1/0,1,0,1,1,3/1,0,1,3,1,0 N",
        "katro 1,1,0,0,1,1/0,3,0,2,8,1/0,1,3,0,1,0/0,3,9,1,3,0/5,1,6,9,1,1/0,1,0,2,4,3 N",
    ),
    "gore": (
        "gore 0,6,1,12/25,0,1,1 N stores=2,0 owners=NSNN/SSSS",
        "gore 1,16,17,6/8,0,0,0 S stores=0,0 owners=NNNN/NSSN",
    ),
}
DEEP_NODES = 1_000_000_000     # df-pn's budget per deep position (the largest took 0.2 billion)
DEEP_TT_BITS = 24              # df-pn's table, 2**24 entries (384 MiB): it holds every node
                               # of these searches, so the proofs are written from it at once
#: The games whose deep entries' proofs are written and checked: all of them.  (With
#: the default table of 2**20 entries, the writer must search again for what the
#: table lost, which on the first Katro deep position ran for minutes.)  Two
#: positions of the 60-second table (a Katro 4x6 win within 77 plies, a Katro one
#: within 72, 137 and 160 million nodes at 60 s) are not among them: their solves and
#: proofs take minutes of CPU (docs/solved.md), too long for each CI run.
PROOF_GAMES = {"katro-4x6", "katro", "gore"}


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


def prove(text: str, proofs: bool) -> tuple[katra.SolveResult, int | None]:
    """df-pn's value of ``text`` with (if ``proofs``) its proof checked on the
    reference: (the result, the proof's lines or None)."""
    proof = io.StringIO() if proofs else None
    r = katra.solve(text, nodes=DEEP_NODES, tt_bits=DEEP_TT_BITS, proof=proof)
    if r.outcome is None or r.plies is None:
        raise SystemExit(f"df-pn settled nothing within {DEEP_NODES} nodes: {text}")
    if proof is None:
        return r, None
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "proof.txt"
        path.write_text(proof.getvalue(), encoding="utf-8")
        summary = check_proof(path)
    if (summary.outcome, summary.plies) != (r.outcome, r.plies):
        raise SystemExit(f"the proof says {summary.outcome} within {summary.plies}, df-pn "
                         f"{r.outcome} within {r.plies}: {text}")
    return r, proof.getvalue().count("\n")


DEEP_HEADER = "# prove OUTCOME WITHIN BEST: a value settled without a bound by df-pn"


def deep_lines(game_id: str) -> list[str]:
    """The ``prove`` entries of ``game_id``'s deep positions (none for most games)."""
    if game_id not in DEEP:
        return []
    lines = [DEEP_HEADER,
             "# (katra.solve(pos), docs/solve.md) where the bounded solver settled nothing",
             "# within 60 s of CPU: the outcome for the player to move, the plies within",
             "# which df-pn's proof forces it (an upper bound on the distance, not the",
             "# distance) and the first move of that proof.  A proof's length below means",
             "# it was written and checked on the reference backend when this file was made.",
             ""]
    for number, text in enumerate(DEEP[game_id], 1):
        r, proof_lines = prove(text, game_id in PROOF_GAMES)
        checked = ("proof not written" if proof_lines is None
                   else f"proof {proof_lines:,} lines, checked")
        lines += [f"id {game_id}-deep-{number}",    # not by outcome and plies: two may agree
                  f"# df-pn: {r.nodes:,} nodes, table 2**{DEEP_TT_BITS}; {checked}",
                  f"position {text}", f"prove {r.outcome} {r.plies} {r.best_move}", ""]
        print(game_id, text, r.describe(), f"{r.nodes:,} nodes", flush=True)
    return lines


def exact_lines(game_id: str) -> list[str]:
    """The header and ``solve`` entries of ``game_id``'s file."""
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
    print(game_id, len(results), "positions solved,", len(chosen), "kept", flush=True)
    return lines


def kept_exact_lines(game_id: str) -> list[str]:
    """The header and ``solve`` entries of ``game_id``'s file as it is."""
    text = (OUT / f"{game_id}.solved").read_text(encoding="utf-8")
    return [*text.split(DEEP_HEADER)[0].rstrip("\n").split("\n"), ""]


def main(args: list[str]) -> None:
    deep_only = "--deep-only" in args
    game_ids = [a for a in args if a != "--deep-only"] or list(katra.GAME_IDS)
    unknown = sorted(set(game_ids) - set(katra.GAME_IDS))
    if unknown:
        raise SystemExit(f"unknown game ids: {', '.join(unknown)}")
    OUT.mkdir(parents=True, exist_ok=True)
    for game_id in game_ids:
        lines = kept_exact_lines(game_id) if deep_only else exact_lines(game_id)
        lines += deep_lines(game_id)
        (OUT / f"{game_id}.solved").write_text("\n".join(lines), encoding="utf-8")


if __name__ == "__main__":
    main(sys.argv[1:])
