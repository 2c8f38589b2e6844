"""katra.MCTS's playouts against katra.playouts: plies a second, one thread.

    python benchmarks/bench_mcts.py [ROUNDS] [SIMULATIONS]

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
weighs more in games of short playouts.
"""
from __future__ import annotations

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


def table(rounds: int = 5, simulations: int = 20_000) -> str:
    rows = ["| game | plies/sim | MCTS plies/s | playouts plies/s | ratio |",
            "|---|---:|---:|---:|---:|"]
    for game_id in katra.GAME_IDS:
        # a batch of about the plies the MCTS plays (its length from a first search)
        _, plies = mcts_round(game_id, simulations, 0)
        game_plies = katra.playouts(game_id, 200, seed=0)["plies"] / 200
        games = max(200, round(plies / game_plies))
        mcts_rates, playout_rates = [], []
        for r in range(rounds):
            seconds, plies = mcts_round(game_id, simulations, r + 1)
            mcts_rates.append(plies / seconds)
            seconds, batch_plies = playouts_round(game_id, games, r + 1)
            playout_rates.append(batch_plies / seconds)
        mcts_rate = statistics.median(mcts_rates)
        playout_rate = statistics.median(playout_rates)
        rows.append(f"| {game_id} | {plies / simulations:.1f} | {mcts_rate / 1e6:.2f} M "
                    f"| {playout_rate / 1e6:.2f} M | {mcts_rate / playout_rate:.2f} |")
    return "\n".join(rows)


if __name__ == "__main__":
    args = [int(a) for a in sys.argv[1:]]
    print(table(*args), flush=True)
