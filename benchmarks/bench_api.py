"""The Python API from Python loops: push/pop pairs, copy, legal_actions, hash.

    python -m pytest benchmarks/bench_api.py --benchmark-group-by=group

Each group is one game and operation; its rows are ``katra.State`` over the
compiled core, over the reference, the bare core ``Position`` (the floor a
Python wrapper can reach) and, where installed, OpenSpiel's ``pyspiel``
clone + apply_action on its own mancala games as a yardstick.  The
``pairs_per_second`` extra column is what the README quotes.
"""
from __future__ import annotations

import random
from functools import partial

import pytest

import katra
from positions import mid_game_text

GAMES = ["katro", "katra-mpantsaka", "gore", "djenon-aboure"]
PAIRS = 1000


def mid_game_state(game_id: str, backend: str) -> katra.State:
    return katra.State.from_text(mid_game_text(game_id), backend=backend)


def pair_loop(push, pop, actions, rounds):
    """``rounds`` times: push and pop each action in turn."""
    for _ in range(rounds):
        for action in actions:
            push(action)
            pop()


def clone_apply(state, actions):
    """About 2,000 OpenSpiel clone-and-apply steps: each action of ``state`` in turn."""
    for _ in range(2000 // len(actions)):
        for action in actions:
            state.clone().apply_action(action)


def python_perft(state: katra.State, depth: int) -> int:
    """Perft driven from Python with push/pop (the shape of a search)."""
    if depth == 0:
        return 1
    nodes = 0
    push, pop = state.push, state.pop
    for action in state.legal_actions():
        push(action)
        nodes += python_perft(state, depth - 1)
        pop()
    return nodes


def record_rate(benchmark, pairs: int) -> None:
    benchmark.extra_info["pairs"] = pairs
    benchmark.extra_info["pairs_per_second"] = round(pairs / benchmark.stats.stats.mean)


@pytest.fixture(params=["core", "reference", "core-raw"])
def flavour(request):
    return request.param


@pytest.mark.parametrize("game_id", GAMES)
def test_push_pop_pairs(benchmark, flavour, game_id):
    benchmark.group = f"push/pop pairs {game_id}"
    if flavour == "core-raw":
        from katra._core import Position
        target = Position.from_text(mid_game_text(game_id))
    else:
        target = mid_game_state(game_id, flavour)
    actions = target.legal_actions()
    rounds = max(1, PAIRS // len(actions)) if flavour != "reference" else 1
    benchmark(pair_loop, target.push, target.pop, actions, rounds)
    record_rate(benchmark, rounds * len(actions))
    assert target.text() == mid_game_text(game_id)


@pytest.mark.parametrize("game_id", ["katro", "gore", "djenon-aboure"])
@pytest.mark.parametrize("backend", ["core", "reference"])
def test_python_perft(benchmark, backend, game_id):
    """A depth-3 tree walk from Python: every node is one push/pop pair."""
    benchmark.group = f"python perft d3 {game_id}"
    state = mid_game_state(game_id, backend)
    nodes = benchmark(python_perft, state, 3)
    assert nodes == state.perft(3)
    inner = sum(python_perft(state, d) for d in (1, 2, 3))
    record_rate(benchmark, inner)


@pytest.mark.parametrize("game_id", GAMES)
@pytest.mark.parametrize("backend", ["core", "reference"])
@pytest.mark.parametrize("operation", ["copy", "legal_actions", "hash", "observation", "child"])
def test_state_operations(benchmark, backend, game_id, operation):
    benchmark.group = f"{operation} {game_id}"
    state = mid_game_state(game_id, backend)
    action = state.legal_actions()[0]
    calls = {
        "copy": state.copy,
        "legal_actions": state.legal_actions,
        "hash": lambda: state.hash,
        "observation": state.observation,
        "child": lambda: state.child(action),
    }
    benchmark(calls[operation])


@pytest.mark.parametrize("game_name", ["mancala", "oware"])
def test_pyspiel_clone_apply_pairs(benchmark, game_name):
    """OpenSpiel's way to try a move (no undo): clone, then apply_action."""
    pyspiel = pytest.importorskip("pyspiel")
    benchmark.group = f"pyspiel clone+apply {game_name}"
    game = pyspiel.load_game(game_name)
    state = game.new_initial_state()
    rng = random.Random(1)
    for _ in range(10):
        state.apply_action(rng.choice(state.legal_actions()))
    actions = state.legal_actions()
    rounds = max(1, PAIRS // len(actions))

    def clone_apply():
        for _ in range(rounds):
            for action in actions:
                child = state.clone()
                child.apply_action(action)

    benchmark(clone_apply)
    record_rate(benchmark, rounds * len(actions))


def main() -> None:
    """``python benchmarks/bench_api.py``: the README's table (best of 7 timeit runs)."""
    import timeit

    from katra._core import Position

    print(f"{'game':18s} {'State(core)':>12s} {'Position(core)':>15s} {'State(reference)':>17s}"
          "   push/pop pairs per second, mid-game position, every legal action in turn")
    for game_id in GAMES:
        rates = []
        for flavour in ("core", "core-raw", "reference"):
            if flavour == "core-raw":
                target = Position.from_text(mid_game_text(game_id))
            else:
                target = mid_game_state(game_id, flavour)
            actions = target.legal_actions()
            rounds = 1 if flavour == "reference" else max(1, 20 * PAIRS // len(actions))
            best = min(timeit.repeat(partial(pair_loop, target.push, target.pop, actions, rounds),
                                     number=1, repeat=7))
            rates.append(rounds * len(actions) / best)
        print(f"{game_id:18s} {rates[0] / 1e6:9.2f} M {rates[1] / 1e6:12.2f} M "
              f"{rates[2] / 1e3:13.1f} k")
    try:
        import pyspiel
    except ImportError:
        return
    for name in ("mancala", "oware"):
        state = pyspiel.load_game(name).new_initial_state()
        rng = random.Random(1)
        for _ in range(10):
            state.apply_action(rng.choice(state.legal_actions()))
        actions = state.legal_actions()
        best = min(timeit.repeat(partial(clone_apply, state, actions), number=1, repeat=7))
        rate = 2000 // len(actions) * len(actions) / best
        print(f"pyspiel {name:10s} clone+apply {rate / 1e6:.2f} M per second")


if __name__ == "__main__":
    main()
