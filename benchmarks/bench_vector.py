"""Steps per second of batched stepping, for docs/learning.md.

    python benchmarks/bench_vector.py [--envs 1024] [--steps 200] [--repeats 5]

Three ways of stepping ``--envs`` games with uniformly random actions, each
step giving every env an observation and a legal-action mask:

* ``VectorGame``: ``vg.step(vg.random_actions())``, one call for all envs;
* a Python loop over ``katra.State``: per env ``observation(out=row)``,
  ``legal_actions_mask(row)``, a random legal action, ``push`` (a new game
  when one ends or reaches the ply cap);
* the same Python loop over OpenSpiel's own C++ ``oware`` (if installed):
  ``observation_tensor()``, ``legal_actions_mask()``, ``apply_action``.

Also: single-state ``observation(out=...)`` in microseconds, and OpenSpiel's
Python MCTS evaluators (katra.openspiel.PlayoutEvaluator, one
``katra.playouts`` call per evaluation, against OpenSpiel's
RandomRolloutEvaluator). Medians of ``--repeats`` runs, all in one process.
"""
from __future__ import annotations

import argparse
import random
import statistics
import time

import numpy as np

import katra

GAMES = ("katro", "katro-4x4", "djenon-aboure", "gore")


def median_seconds(run, repeats: int) -> float:
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        run()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def vector_rate(game_id: str, envs: int, steps: int, repeats: int) -> float:
    vg = katra.VectorGame(game_id, envs, seed=1)

    def run() -> None:
        for _ in range(steps):
            vg.step(vg.random_actions())
    return envs * steps / median_seconds(run, repeats)


def python_loop_rate(game_id: str, envs: int, steps: int, repeats: int) -> float:
    game = katra.game(game_id)
    states = [game.initial_state() for _ in range(envs)]
    obs = np.zeros((envs, game.observation_size), np.float32)
    masks = np.zeros((envs, game.num_actions), np.bool_)
    rng = random.Random(1)
    cap = game.max_game_length

    def run() -> None:
        for _ in range(steps):
            for i in range(envs):
                s = states[i]
                s.observation(out=obs[i])
                s.legal_actions_mask(masks[i])
                legal = s.legal_actions()
                if not legal or s.ply >= cap:
                    states[i] = game.initial_state()
                    continue
                s.push(rng.choice(legal))
    return envs * steps / median_seconds(run, repeats)


def openspiel_loop_rate(envs: int, steps: int, repeats: int) -> float | None:
    try:
        import pyspiel
    except ImportError:
        return None
    game = pyspiel.load_game("oware")
    states = [game.new_initial_state() for _ in range(envs)]
    rng = random.Random(1)

    def run() -> None:
        for _ in range(steps):
            for i in range(envs):
                s = states[i]
                if s.is_terminal():
                    states[i] = game.new_initial_state()
                    continue
                player = s.current_player()
                s.observation_tensor(player)
                s.legal_actions_mask(player)
                s.apply_action(rng.choice(s.legal_actions()))
    return envs * steps / median_seconds(run, repeats)


def observation_microseconds(repeats: int) -> float:
    s = katra.game("katro").initial_state()
    out = np.zeros(s.game.observation_size, np.float32)
    n = 100_000

    def run() -> None:
        for _ in range(n):
            s.observation(out=out)
    return median_seconds(run, repeats) / n * 1e6


def evaluator_rates(repeats: int) -> list[tuple[str, float, float]]:
    try:
        import pyspiel
        from open_spiel.python.algorithms import mcts
        import katra.openspiel as kos
    except ImportError:
        return []
    rows = []
    for game_id in GAMES:
        game = pyspiel.load_game(kos.short_name(game_id))
        state = game.new_initial_state()
        evaluations = 200
        ours = kos.PlayoutEvaluator(n_rollouts=1, random_state=np.random.RandomState(1))
        theirs = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=np.random.RandomState(1))
        t_ours = median_seconds(lambda: [ours.evaluate(state) for _ in range(evaluations)], repeats)
        t_theirs = median_seconds(lambda: [theirs.evaluate(state) for _ in range(evaluations)],
                                  repeats)
        rows.append((game_id, t_theirs / evaluations * 1e6, t_ours / evaluations * 1e6))
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--envs", type=int, default=1024)
    parser.add_argument("--steps", type=int, default=200)
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()
    oware = openspiel_loop_rate(args.envs, max(1, args.steps // 10), args.repeats)
    print(f"{args.envs} envs; steps per second (env-steps: one env advanced by one ply), "
          f"medians of {args.repeats} runs\n")
    print("| game | VectorGame.step | Python loop over State | OpenSpiel oware, Python loop "
          "| VectorGame / State loop | VectorGame / oware loop |")
    print("|---|---:|---:|---:|---:|---:|")
    for game_id in GAMES:
        vector = vector_rate(game_id, args.envs, args.steps, args.repeats)
        loop = python_loop_rate(game_id, args.envs, max(1, args.steps // 10), args.repeats)
        oware_text = f"{oware / 1e6:.3f} M" if oware else "-"
        ratio = f"{vector / oware:.1f}x" if oware else "-"
        print(f"| {game_id} | {vector / 1e6:.2f} M | {loop / 1e6:.3f} M | {oware_text} "
              f"| {vector / loop:.1f}x | {ratio} |")
    print(f"\nState.observation(out=float32 array) on katro: "
          f"{observation_microseconds(args.repeats):.2f} µs")
    rows = evaluator_rates(args.repeats)
    if rows:
        print("\nMCTS evaluation of the start position, one random rollout "
              "(µs per evaluate call)\n")
        print("| game | RandomRolloutEvaluator | PlayoutEvaluator | speed-up |")
        print("|---|---:|---:|---:|")
        for game_id, theirs, ours in rows:
            print(f"| {game_id} | {theirs:,.0f} | {ours:,.1f} | {theirs / ours:,.0f}x |")


if __name__ == "__main__":
    main()
