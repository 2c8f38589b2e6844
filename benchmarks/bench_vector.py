"""Steps per second of batched stepping, for docs/learning.md.

    python benchmarks/bench_vector.py [--envs 1024] [--steps 200] [--repeats 5]
    python benchmarks/bench_vector.py --versus-playouts [--repeats 5] [--only GAME ...]

(``--versus-playouts``: VectorGame's env-steps per second over katra.playouts'
plies per second, every game id, stepping ``vg.step(vg.random_actions())`` and
``vg.step_random()``, the same steps in one call.)

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
RandomRolloutEvaluator). Medians of ``--repeats`` runs, all in one process,
timed in CPU seconds of the running thread (so that other jobs on the machine
do not skew the ratios), except the threaded VectorGame column: wall clock,
meaningful only on an otherwise idle machine.
"""
from __future__ import annotations

import argparse
import random
import statistics
import time
from functools import partial

import numpy as np

import katra

GAMES = ("katro", "katro-4x4", "djenon-aboure", "gore")


def seconds(run, clock=time.thread_time) -> float:
    """CPU seconds of this thread by default: a machine shared with other jobs slows
    the wall clock, not the CPU time a single-threaded run needs."""
    start = clock()
    run()
    return clock() - start


def vector_stepper(game_id: str, envs: int, steps: int, threads: int = 1, fused: bool = False):
    """A function running steps steps of envs envs with VectorGame: step(random_actions()),
    or step_random() (fused), the same steps in one call."""
    vg = katra.VectorGame(game_id, envs, seed=1, num_threads=threads)

    def run() -> None:
        for _ in range(steps):
            vg.step(vg.random_actions())

    def run_fused() -> None:
        for _ in range(steps):
            vg.step_random()
    return run_fused if fused else run


def state_stepper(game_id: str, envs: int, steps: int):
    """The same work as a Python loop over katra.State."""
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
    return run


def oware_stepper(envs: int, steps: int):
    """The same Python loop over OpenSpiel's C++ oware (None without OpenSpiel)."""
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
    return run


def rates(game_id: str, envs: int, steps: int, repeats: int, threads: int) -> dict[str, float]:
    """Median env-steps per second of each stepper and median ratios, the steppers
    run in turn within each repeat (so that a busy machine slows them alike)."""
    slow_steps = max(1, steps // 10)
    runners = {"vector": (vector_stepper(game_id, envs, steps), steps),
               "threads": (vector_stepper(game_id, envs, steps, threads), steps),
               "state": (state_stepper(game_id, envs, slow_steps), slow_steps)}
    oware = oware_stepper(envs, slow_steps)
    if oware is not None:
        runners["oware"] = (oware, slow_steps)
    samples: dict[str, list[float]] = {name: [] for name in runners}
    for _ in range(repeats):
        for name, (run, n) in runners.items():
            # several threads: wall clock (their CPU times add up, the elapsed time does not)
            clock = time.perf_counter if name == "threads" else time.thread_time
            samples[name].append(envs * n / seconds(run, clock))
    result = {name: statistics.median(values) for name, values in samples.items()}
    for fast in ("vector", "threads"):
        for name in ("state", "oware"):
            if name in samples:
                result[f"{fast}/{name}"] = statistics.median(
                    v / o for v, o in zip(samples[fast], samples[name]))
    return result


def evaluate_many(evaluator, state, count: int) -> None:
    for _ in range(count):
        evaluator.evaluate(state)


def observation_microseconds(repeats: int) -> float:
    s = katra.game("katro").initial_state()
    out = np.zeros(s.game.observation_size, np.float32)
    n = 100_000

    def run() -> None:
        for _ in range(n):
            s.observation(out=out)
    return statistics.median(seconds(run) for _ in range(repeats)) / n * 1e6


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
        t_ours = statistics.median(seconds(partial(evaluate_many, ours, state, evaluations))
                                   for _ in range(repeats))
        t_theirs = statistics.median(seconds(partial(evaluate_many, theirs, state, evaluations))
                                     for _ in range(repeats))
        rows.append((game_id, t_theirs / evaluations * 1e6, t_ours / evaluations * 1e6))
    return rows


def versus_playouts(repeats: int, envs: int = 1024, steps: int = 100,
                    games: list[str] | None = None) -> str:
    """VectorGame(game, envs, num_threads=1) stepping random_actions() (observations
    and masks included) in env-steps per CPU second, over katra.playouts(game, n,
    jobs=1)'s plies per CPU second, and the same with step_random(): medians of
    repeats runs, the three in turn; every game id, or those of games."""
    rows = ["| game | VectorGame steps/s | step_random steps/s | playouts plies/s | ratio "
            "| step_random ratio |", "|---|---:|---:|---:|---:|---:|"]
    for game_id in games or katra.GAME_IDS:
        run = vector_stepper(game_id, envs, steps)
        run_fused = vector_stepper(game_id, envs, steps, fused=True)
        vector, fused, playout = [], [], []
        for _ in range(repeats):
            vector.append(envs * steps / seconds(run))
            fused.append(envs * steps / seconds(run_fused))
            start = time.thread_time()
            plies = katra.playouts(game_id, 300, seed=1, jobs=1)["plies"]
            playout.append(plies / (time.thread_time() - start))
        v, f, p = (statistics.median(x) for x in (vector, fused, playout))
        rows.append(f"| {game_id} | {v / 1e6:.2f} M | {f / 1e6:.2f} M | {p / 1e6:.2f} M "
                    f"| {v / p:.2f} | {f / p:.2f} |")
    return "\n".join(rows)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--envs", type=int, default=1024)
    parser.add_argument("--steps", type=int, default=200)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--threads", type=int, default=2,
                        help="num_threads of the second VectorGame column")
    parser.add_argument("--versus-playouts", action="store_true",
                        help="only VectorGame's steps/s over katra.playouts' plies/s, "
                             "every game id")
    parser.add_argument("--only", action="append", choices=katra.GAME_IDS, metavar="GAME",
                        help="with --versus-playouts: this game id only (repeatable)")
    args = parser.parse_args()
    if args.versus_playouts:
        print(versus_playouts(args.repeats, args.envs, games=args.only))
        return
    print(f"{args.envs} envs; env-steps per second (one env advanced by one ply, with its "
          f"observation and mask); medians of {args.repeats} runs, ratios taken run by run\n")
    t = args.threads
    print(f"| game | VectorGame.step | same, {t} threads | Python loop over State "
          f"| OpenSpiel oware, Python loop | VectorGame / State loop | VectorGame / oware loop "
          f"| {t} threads / State loop | {t} threads / oware loop |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    for game_id in GAMES:
        r = rates(game_id, args.envs, args.steps, args.repeats, t)
        oware = f"{r['oware'] / 1e6:.3f} M" if "oware" in r else "-"
        versus_oware = [f"{r[k]:.1f}x" if k in r else "-"
                        for k in ("vector/oware", "threads/oware")]
        print(f"| {game_id} | {r['vector'] / 1e6:.2f} M | {r['threads'] / 1e6:.2f} M "
              f"| {r['state'] / 1e6:.3f} M | {oware} | {r['vector/state']:.1f}x "
              f"| {versus_oware[0]} | {r['threads/state']:.1f}x | {versus_oware[1]} |")
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
