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


# The core's methods the ``calls`` mode drives, by operation, as callgrind
# patterns (``--toggle-collect`` on the C function named: the method from
# Python's call on, the list included; instructions a call; see ``calls``).
CORE_FUNCTIONS = {
    "push": "__pyx_pw_5katra_5_core_8Position_*push",
    "legal_actions": "__pyx_pf_5katra_5_core_8Position_18legal_actions",
}


def core_calls(game_id: str, operation: str, calls: int) -> None:
    """``calls`` calls of one operation of the bare core ``Position`` at the mid-game
    position of ``game_id``: ``push`` (each legal action in turn, popped after each),
    ``legal_actions`` or ``observation`` (``katra.State``'s).  Counted in instructions a
    call with callgrind::

        valgrind --tool=callgrind --toggle-collect='FUNCTION' python benchmarks/bench_api.py \
            calls GAME OPERATION 20000

    (FUNCTION: CORE_FUNCTIONS[OPERATION]; the collected instructions over the calls).
    Without valgrind it prints the CPU time a call (one run: see ``--cpu``)."""
    import time

    from katra._core import Position

    text = mid_game_text(game_id)
    target = Position.from_text(text)
    if operation == "push":
        actions = target.legal_actions()
        push, pop = target.push, target.pop
        rounds, extra = divmod(calls, len(actions))
        started = time.process_time()
        for _ in range(rounds):
            for action in actions:
                push(action)
                pop()
        for action in actions[:extra]:
            push(action)
            pop()
    elif operation == "legal_actions":
        legal_actions = target.legal_actions
        started = time.process_time()
        for _ in range(calls):
            legal_actions()
    elif operation == "observation":
        observation = katra.State.from_text(text).observation
        started = time.process_time()
        for _ in range(calls):
            observation()
    else:
        raise SystemExit(f"unknown operation {operation!r}: push, legal_actions, observation")
    elapsed = time.process_time() - started
    assert target.text() == text
    print(f"{game_id} {operation} {calls} calls {elapsed / calls * 1e9:.1f} ns a call (CPU)")


def main() -> None:
    """``python benchmarks/bench_api.py``: the README's table (best of 7 timeit runs).
    ``python benchmarks/bench_api.py calls GAME OPERATION N``: core_calls."""
    import sys
    import timeit

    if sys.argv[1:2] == ["calls"]:
        core_calls(sys.argv[2], sys.argv[3], int(sys.argv[4]))
        return

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
