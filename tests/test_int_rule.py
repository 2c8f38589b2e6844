"""One rule for integers on every layer (docs/api.md, "Errors"): anything with
``__index__`` that is not a bool is an int; a bool, a float, a str is not.

Each argument below is given the same number as a plain int, a NumPy integer,
an IntEnum member and a 0-d NumPy array: the call must give the plain int's
result. Given a bool (Python's or NumPy's), a float or an array of several
items, it must raise the exception it raises for any other non-int.
"""
from __future__ import annotations

import numpy as np
import pytest

import katra
import katra.pettingzoo
import katra.testing
from int_forms import NOT_INTS, Three, same_number
from katra import _core, _reference
from katra._limits import as_int

KATRO = katra.game("katro").initial_state().text()
GORE = katra.game("gore").initial_state().text()


def state(backend="core"):
    return katra.State("katro", backend=backend)


def explain_laps(n):
    return len(katra.explain(KATRO, "a1", max_laps=n).laps)


# (the call, the plain int it is tried with, the exception a non-int gives)
CALLS = {
    "perft depth": (lambda n: katra.perft("katro", n), 3, katra.ArgumentTypeError),
    "divide depth": (lambda n: katra.divide("katro", n), 2, katra.ArgumentTypeError),
    "perft jobs": (lambda n: katra.perft("katro-4x4", 3, jobs=n), 2, katra.ArgumentTypeError),
    "playouts games": (lambda n: katra.playouts(GORE, n, seed=1), 3, katra.ArgumentTypeError),
    "playouts seed": (lambda n: katra.playouts(GORE, 2, seed=n), 3, katra.ArgumentTypeError),
    "playouts max_plies": (lambda n: katra.playouts(GORE, 2, max_plies=n), 3,
                           katra.ArgumentTypeError),
    "playouts first_game": (lambda n: katra.playouts(GORE, 2, first_game=n), 3,
                            katra.ArgumentTypeError),
    "reference perft": (lambda n: _reference.perft(_reference.Position.initial("katro"), n), 2,
                        katra.ArgumentTypeError),
    "core perft": (lambda n: _core.perft(_core.Position.initial("katro"), n), 2,
                   katra.ArgumentTypeError),
    "State.perft": (lambda n: state().perft(n), 3, katra.ArgumentTypeError),
    "State.divide": (lambda n: state("reference").divide(n), 2, katra.ArgumentTypeError),
    "search depth": (lambda n: katra.search("katro", depth=n).best_action, 3,
                     katra.ArgumentTypeError),
    "search nodes": (lambda n: katra.search("katro", nodes=n).nodes, 300,
                     katra.ArgumentTypeError),
    "Engine tt_bits": (lambda n: katra.Engine(tt_bits=n).tt_bits, 10, katra.ArgumentTypeError),
    "MCTS simulations": (lambda n: katra.MCTS().search(GORE, simulations=n).children, 3,
                         katra.ArgumentTypeError),
    "MCTS seed": (lambda n: katra.MCTS(seed=n).search(GORE, simulations=20).children, 3,
                  katra.ArgumentTypeError),
    "MCTS max_nodes": (lambda n: katra.MCTS(max_nodes=n).max_nodes, 300, katra.ArgumentTypeError),
    "MCTS max_plies": (lambda n: katra.MCTS(max_plies=n).search(GORE, simulations=9).value, 3,
                       katra.ArgumentTypeError),
    "core Mcts seed": (lambda n: _core.Mcts(seed=n).search(_core.Position.initial("gore"), 9)[
        "children"], 3, katra.ArgumentTypeError),
    "solve max_plies": (lambda n: katra.solve(GORE, max_plies=n).outcome, 3,
                        katra.ArgumentTypeError),
    "from_text ply": (lambda n: katra.State.from_text(KATRO, ply=n).ply, 3,
                      katra.ArgumentTypeError),
    "push": (lambda n: state().child(n).text(), 3, katra.IllegalMoveError),
    "reference push": (lambda n: state("reference").child(n).text(), 3, katra.IllegalMoveError),
    "action_text": (lambda n: state().action_text(n), 3, katra.IllegalMoveError),
    "Game.action_text": (lambda n: katra.game("gore").action_text(n), 3, katra.IllegalMoveError),
    "observation player": (lambda n: state().observation(n), 1, ValueError),
    "reference observation player": (lambda n: state("reference").observation(n), 1,
                                     ValueError),
    "observations player": (lambda n: katra.observations([state()], player=n), 1,
                            ValueError),
    "explain max_laps": (explain_laps, 3, ValueError),
    "svg size": (lambda n: state().svg(n), 30, ValueError),
    "MoveTrace.svg lap": (lambda n: katra.explain(KATRO, "a1").svg(lap=n), 1, ValueError),
    "VectorGame num_envs": (lambda n: katra.VectorGame("katro", n).num_envs, 3,
                            katra.ArgumentTypeError),
    "VectorGame seed": (lambda n: katra.VectorGame("katro", 2, seed=n).random_actions().tolist(),
                        3, katra.ArgumentTypeError),
    "VectorGame position": (lambda n: katra.VectorGame("katro", 4).position(n).text(), 3,
                            katra.ArgumentTypeError),
    "VectorGame step": (lambda n: step_once(n), 3, katra.ArgumentTypeError),
    "lap_count limit": (lambda n: _core.Position.initial("katro").lap_count(0, limit=n), 3,
                        katra.ArgumentTypeError),
    "reference lap_count limit": (
        lambda n: _reference.Position.initial("katro").lap_count(0, limit=n), 3,
        katra.ArgumentTypeError),
    "testing.compare games": (lambda n: compare(n), 3, katra.ArgumentTypeError),
    "PettingZoo max_plies": (lambda n: katra.pettingzoo.env("katro", max_plies=n).max_plies, 3,
                             katra.ArgumentTypeError),
}


def step_once(n):
    vg = katra.VectorGame("katro", 2)
    vg.step([n, 3])
    return vg.position(0).text()


def compare(n):
    result = katra.testing.compare(_reference.Position.from_text, GORE, games=n, max_plies=10)
    return result.plies


def test_as_int_is_the_rule():
    assert [as_int(v) for v in (3, Three.THREE, np.int64(3), np.array(3))] == [3] * 4
    assert all(type(as_int(v)) is int for v in (Three.THREE, np.int64(3), np.array(3)))
    assert [as_int(v) for v in NOT_INTS] == [None] * len(NOT_INTS)


@pytest.mark.parametrize("name", CALLS)
def test_every_int_argument_takes_any_int_and_no_bool(name):
    check_int_rule(name, *CALLS[name])


def check_int_rule(name, call, n, error):
    """``call`` gives the same answer for every form of the int ``n`` (same_number)
    and raises ``error`` for each of NOT_INTS."""
    expected = call(n)
    for form in same_number(n):
        assert call(form) == expected, (name, type(form).__name__)
    for bad in NOT_INTS:
        with pytest.raises(error):
            call(bad)


# The compiled core's own argument checks (katra._core, below the API) follow
# the same rule: (the call, the plain int it is tried with, the exception a
# non-int gives).
def solve_gore(solver=None, **kwargs):
    return (solver or _core.Solver()).thresholds(_core.Position.from_text(GORE), **kwargs)


def solver_nodes(**kwargs):
    solver = _core.Solver(**kwargs)
    solve_gore(solver, max_bound=3)
    return solver.nodes


def forces(player, target, plies):
    return _core.Solver().forces(_core.Position.from_text(GORE), player, target, plies)


def core_step_once(n):
    vg = _core.VectorGame("katro", 2)
    vg.step([n, 3])
    return vg.position(0).text()


CORE_CALLS = {
    "Position.is_legal": (lambda n: _core.Position.initial("katro").is_legal(n), 3,
                          katra.IllegalMoveError),
    "Solver tt_bits": (lambda n: solver_nodes(tt_bits=n), 12, katra.ArgumentTypeError),
    "SolverTable tt_bits": (lambda n: _core.SolverTable(tt_bits=n).tt_bits, 12,
                            katra.ArgumentTypeError),
    "Solver.thresholds max_bound": (lambda n: solve_gore(max_bound=n), 3,
                                    katra.ArgumentTypeError),
    "Solver.thresholds players": (lambda n: solve_gore(max_bound=3, players=(n,)), 1,
                                  katra.ArgumentError),
    "Solver.thresholds known threshold": (
        lambda n: solve_gore(max_bound=4, known=([None, -1, -1, n], 3)), 3,
        katra.ArgumentTypeError),
    "Solver.thresholds known bound": (
        lambda n: solve_gore(max_bound=4, known=([-1, -1, -1, -1], n)), 3,
        katra.ArgumentTypeError),
    "Solver.forces player": (lambda n: forces(n, 0, 4), 1, katra.ArgumentTypeError),
    "Solver.forces target": (lambda n: forces(1, n, 4), 1, katra.ArgumentTypeError),
    "Solver.forces plies": (lambda n: forces(0, 0, n), 3, katra.ArgumentTypeError),
    "VectorGame.step item": (core_step_once, 3, katra.ArgumentTypeError),
    "observation player": (lambda n: _core.observation(_core.Position.initial("katro"), n), 1,
                           ValueError),
}


@pytest.mark.parametrize("name", CORE_CALLS)
def test_the_cores_own_checks_take_any_int_and_no_bool(name):
    check_int_rule(name, *CORE_CALLS[name])


def test_the_cores_time_seconds_takes_any_real():
    # seconds are a number, not an int (katra._limits.check_seconds): a NumPy int is one
    for seconds in (3, 3.0, np.int64(3), np.float64(3.0)):
        assert solve_gore(max_bound=2, time_seconds=seconds)[1] == 2
    for bad in (True, "3", 0, -1.0, float("nan")):
        with pytest.raises(ValueError):
            solve_gore(max_bound=2, time_seconds=bad)


def test_the_search_time_seconds_takes_any_real():
    # the core's search checks its clock as the solver does (katra._limits.check_seconds)
    position = _core.Position.from_text(KATRO)
    expected = _core.search(position, 2)
    for seconds in (3, 3.0, np.int64(3), np.int32(3), np.float32(3.0), Three.THREE):
        result = _core.search(position, 2, time_seconds=seconds)
        assert (result["best_action"], result["score"], result["depth"], result["nodes"]) == (
            expected["best_action"], expected["score"], expected["depth"], expected["nodes"])
        kept = _core.Searcher(16).search(position, 2, time_seconds=seconds)
        assert kept["best_action"] == expected["best_action"]
    for bad in (True, np.True_, "3", [3], object()):
        with pytest.raises(katra.ArgumentTypeError):
            _core.search(position, 2, time_seconds=bad)
    for bad in (0, -1.0, np.int64(0), np.float64("nan"), float("inf"), 10**7, 10**400):
        with pytest.raises(katra.ArgumentError):
            _core.search(position, 2, time_seconds=bad)
