"""katra.MCTS's playouts against katra.playouts: plies a second, one thread.

    python benchmarks/bench_mcts.py [ROUNDS] [SIMULATIONS] [GAME_ID ...]
    python benchmarks/bench_mcts.py --by-depth

Per game id, from its start position, in the same run: ``katra.MCTS(seed=r)``
runs SIMULATIONS simulations (default 20,000) in a fresh tree, and
``katra.playouts`` plays a batch of about as many plies (from the same
start).  Each is timed in CPU time (``time.process_time``: other work on a
shared machine is left out), ROUNDS times (default 5) interleaved, and the
table gives the medians: the MCTS's playout plies per second (the plies its
playouts played over the whole call's time, so selection, expansion and
backpropagation count as cost), katra.playouts' plies per second, and their
ratio.  ``plies/sim`` is the mean playout length inside the MCTS: its
playouts start at the tree's leaves, deeper than the start, so they are
shorter than katra.playouts' games, and the tree's work per simulation
weighs more in games of short playouts.  ``--by-depth`` prints katra.playouts'
plies per second from positions 0, 4 and 8 random plies into each game: how
a ply's cost changes along a game.
"""
from __future__ import annotations

import random
import statistics
import sys
import time

import katra


def mcts_round(game_id: str, simulations: int, seed: int) -> tuple[float, int]:
    """(CPU seconds, playout plies) of one fresh search."""
    player = katra.MCTS(seed=seed)
    start = time.process_time()
    result = player.search(game_id, simulations=simulations)
    return time.process_time() - start, result.playout_plies


def playouts_round(game_id: str, games: int, seed: int) -> tuple[float, int]:
    """(CPU seconds, plies) of one batch."""
    start = time.process_time()
    tally = katra.playouts(game_id, games, seed=seed)
    return time.process_time() - start, tally["plies"]


def table(rounds: int = 5, simulations: int = 20_000,
          game_ids: tuple[str, ...] = katra.GAME_IDS) -> str:
    rows = ["| game | plies/sim | MCTS plies/s | playouts plies/s | ratio |",
            "|---|---:|---:|---:|---:|"]
    for game_id in game_ids:
        # a batch of about the plies the MCTS plays (its length from a first search)
        _, plies = mcts_round(game_id, simulations, 0)
        game_plies = katra.playouts(game_id, 200, seed=0)["plies"] / 200
        games = max(200, round(plies / game_plies))
        mcts_rates, playout_rates, lengths = [], [], []
        for r in range(rounds):
            seconds, plies = mcts_round(game_id, simulations, r + 1)
            mcts_rates.append(plies / seconds)
            lengths.append(plies / simulations)
            seconds, batch_plies = playouts_round(game_id, games, r + 1)
            playout_rates.append(batch_plies / seconds)
        mcts_rate = statistics.median(mcts_rates)
        playout_rate = statistics.median(playout_rates)
        rows.append(f"| {game_id} | {statistics.mean(lengths):.1f} | {mcts_rate / 1e6:.2f} M "
                    f"| {playout_rate / 1e6:.2f} M | {mcts_rate / playout_rate:.2f} |")
    return "\n".join(rows)


def by_depth(depths: tuple[int, ...] = (0, 4, 8), starts: int = 20, games: int = 5000) -> str:
    """katra.playouts' plies per second from positions ``depth`` random plies
    into the game (``starts`` of them a depth, seeds 0.., the finished ones
    left out; ``games`` games each): the positions the MCTS's playouts start
    from lie deeper than the start, and a ply's cost changes along a game."""
    rows = ["| game | " + " | ".join(f"{d} plies in" for d in depths) + " |",
            "|---|" + "---:|" * len(depths)]
    for game_id in katra.GAME_IDS:
        cells = []
        for depth in depths:
            plies, seconds = 0, 0.0
            for seed in range(starts):
                state = katra.game(game_id).initial_state()
                rng = random.Random(seed)
                for _ in range(depth):
                    if state.is_terminal():
                        break
                    state.push(rng.choice(state.legal_actions()))
                if state.is_terminal():
                    continue
                spent, played = playouts_round(state.text(), games, seed)
                plies, seconds = plies + played, seconds + spent
            cells.append(f"{plies / seconds / 1e6:.2f} M")
        rows.append(f"| {game_id} | " + " | ".join(cells) + " |")
    return "\n".join(rows)


if __name__ == "__main__":
    if sys.argv[1:] == ["--by-depth"]:
        print(by_depth(), flush=True)
        sys.exit()
    counts = [int(a) for a in sys.argv[1:3]]
    print(table(*counts, *([tuple(sys.argv[3:])] if sys.argv[3:] else [])), flush=True)
