"""The solver's shared transposition table (_core.SolverTable, docs/solve.md):
threads searching at once over one table get exactly the single-thread
answers, the table's memory outlives neither side's use, bad arguments are
refused by name, and split solves (which share one table per process) equal
single ones.  Everything is driven by counts of positions and threads."""
from __future__ import annotations

import concurrent.futures as cf
import gc
import random
import threading

import pytest

import katra
from helpers import endgame_positions
from katra import _core
from katra._errors import ArgumentError, ArgumentTypeError
from katra.api import _solve_pool

# (game id, seeded plies from the start, bound): mid-game positions whose
# solves take a few thousand nodes each, so that threads overwrite each
# other's entries all the time in a small table.
MIDGAMES = [("katro-4x4", 6, 9), ("katro", 8, 7), ("katro-4x6", 8, 7),
            ("katra-mpantsaka-simplified", 4, 5), ("gore", 6, 10),
            ("djenon-aboure", 6, 10)]


def midgame_positions(game_id: str, plies: int, count: int, seed: int) -> list[str]:
    """Unfinished positions after up to ``plies`` seeded random plies."""
    rng = random.Random(seed)
    found: list[str] = []
    while len(found) < count:
        pos = _core.Position.initial(game_id)
        for _ in range(rng.randint(plies // 2, plies)):
            actions = pos.legal_actions()
            if not actions:
                break
            pos.apply(rng.choice(actions))
        if not pos.is_terminal():
            found.append(pos.text())
    return found


def cases() -> list[tuple[str, int]]:
    """(position text, bound): seeded mid-game and endgame positions of every family."""
    found = []
    for game_id, plies, bound in MIDGAMES:
        found += [(text, bound) for text in midgame_positions(game_id, plies, 5, seed=18)]
    for game_id in ("katro-4x4", "gore", "djenon-aboure", "katra-mpantsaka-simplified"):
        found += [(text, 8) for text in endgame_positions(game_id, 3, seed=24)]
    return found


def single(text: str, bound: int) -> tuple[list[int | None], int, int]:
    """thresholds, bound and best action from a fresh Solver with its own table."""
    solver = _core.Solver()
    pos = _core.Position.from_text(text)
    thresholds, searched, _ = solver.thresholds(pos, bound)
    return thresholds, searched, solver.best_action(pos, thresholds)


def test_threads_sharing_a_table_get_the_single_thread_answers():
    """Four threads, each with its own Solver over one small table (2**10
    entries: they overwrite each other's slots constantly), work through every
    case in a different order, twice, and ask F at each bound as well; every
    answer equals the one of a Solver alone."""
    work = cases()
    expected = {text: single(text, bound) for text, bound in work}
    truth = {(text, p, t, k): _core.Solver().forces(_core.Position.from_text(text), p, t, k)
             for text, bound in work[::4]
             for p in (0, 1) for t in (0, 1) for k in (bound - 2, bound)}
    table = _core.SolverTable(10)
    wrong: list[str] = []
    ready = threading.Barrier(4)

    def hammer(seed: int) -> None:
        solver = _core.Solver(table=table)
        order = work * 2
        random.Random(seed).shuffle(order)
        ready.wait()
        for text, bound in order:
            pos = _core.Position.from_text(text)
            thresholds, searched, _ = solver.thresholds(pos, bound)
            got = (thresholds, searched, solver.best_action(pos, thresholds))
            if got != expected[text]:
                wrong.append(f"{text} at {bound}: {got} != {expected[text]}")
        for (text, p, t, k), holds in truth.items():
            if solver.forces(_core.Position.from_text(text), p, t, k) != holds:
                wrong.append(f"F({text}, {p}, {t}, {k}) != {holds}")

    threads = [threading.Thread(target=hammer, args=(seed,)) for seed in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(work) == 42 and not wrong, wrong[:5]


def test_a_second_solver_reads_what_the_first_proved():
    """Solvers over one table share its facts: the same solve again, by another
    Solver, is answered almost from the table; over separate tables it is not."""
    pos = _core.Position.initial("djenon-aboure")
    table = _core.SolverTable(16)
    first, second = _core.Solver(table=table), _core.Solver(table=table)
    answer = first.thresholds(pos, 18)
    assert second.thresholds(pos, 18) == answer
    alone = _core.Solver(16)
    assert alone.thresholds(pos, 18) == answer
    assert second.nodes * 20 < first.nodes and alone.nodes == first.nodes


def test_table_size_and_the_solvers_own_tables():
    assert _core.SolverTable().tt_bits == 20
    assert _core.SolverTable(12).tt_bits == 12
    # a fixed table answers as a growing one, whatever its size
    pos = _core.Position.initial("katro-4x4")
    answers = {str(_core.Solver(table=_core.SolverTable(bits)).thresholds(pos, 17))
               for bits in (10, 14, 18)}
    assert answers == {str(_core.Solver().thresholds(pos, 17))}


def test_solver_deleted_first():
    table = _core.SolverTable(10)
    pos = _core.Position.initial("katro-4x4")
    solver = _core.Solver(table=table)
    answer = solver.thresholds(pos, 12)
    del solver
    gc.collect()
    assert _core.Solver(table=table).thresholds(pos, 12) == answer
    del table
    gc.collect()


def test_table_deleted_first():
    """The Solvers keep their table alive: dropping every other reference to
    it, then using them, is safe; the memory goes with the last of them."""
    pos = _core.Position.initial("djenon-aboure")
    table = _core.SolverTable(12)
    solvers = [_core.Solver(table=table) for _ in range(3)]
    del table
    gc.collect()
    answers = [solver.thresholds(pos, 14) for solver in solvers]
    assert answers[0] == answers[1] == answers[2] == _core.Solver().thresholds(pos, 14)
    del solvers[:2]
    gc.collect()
    assert solvers[0].thresholds(pos, 14) == answers[0]
    del solvers
    gc.collect()


@pytest.mark.parametrize("make, error, words", [
    (lambda: _core.Solver(table="table"), ArgumentTypeError, "table must be None or a SolverTable"),
    (lambda: _core.Solver(table=_core.Solver()), ArgumentTypeError, "not Solver"),
    (lambda: _core.Solver(table=12), ArgumentTypeError, "table"),
    (lambda: _core.Solver(12, table=_core.SolverTable(10)), ArgumentError,
     "tt_bits or table, not both"),
    (lambda: _core.SolverTable(40), ArgumentError, "tt_bits"),
    (lambda: _core.SolverTable(9), ArgumentError, "tt_bits"),
    (lambda: _core.SolverTable(1.5), ArgumentTypeError, "tt_bits"),
    (lambda: _core.SolverTable(True), ArgumentTypeError, "tt_bits"),
    (lambda: _core.SolverTable("20"), ArgumentTypeError, "tt_bits"),
    (lambda: _core.Solver(29), ArgumentError, "tt_bits"),
    (lambda: _core.Solver(12.0), ArgumentTypeError, "tt_bits"),
])
def test_bad_arguments_are_named(make, error, words):
    with pytest.raises(error, match=words):
        make()


FIELDS = ("outcome", "plies", "best_action", "best_move", "pv", "max_plies")


@pytest.mark.parametrize("jobs", [2, 3])
@pytest.mark.parametrize("tt_bits", [None, 10])
def test_split_with_a_shared_table_equals_single(jobs, tt_bits):
    """Thread splits share one table (a small one too): same outcome, distance,
    best move and line as one thread, and the split solve's table is dropped."""
    work = [("katro-4x4", 17), ("djenon-aboure", 18),
            ("gore 3,0,0,0/0,0,0,0 S stores=20,25 owners=NNNN/SSSS", 20)]
    work += [(text, 14) for text in endgame_positions("katro", 2, seed=5)
             + endgame_positions("gore", 2, seed=5)
             + midgame_positions("djenon-aboure", 6, 2, seed=5)]
    for text, bound in work:
        one = katra.solve(text, bound, tt_bits=tt_bits)
        split = katra.solve(text, bound, jobs=jobs, tt_bits=tt_bits)
        assert [getattr(split, f) for f in FIELDS] == [getattr(one, f) for f in FIELDS], text
    assert _solve_pool.POOL.table is None and _solve_pool.POOL.session is None


def test_thread_pool_executor_shares_one_table(monkeypatch):
    """A thread pool's tasks take their Solvers from one pool with one table."""
    made: list[object] = []
    real = _core.SolverTable

    def counted(tt_bits=None):
        made.append(tt_bits)
        return real(tt_bits)

    monkeypatch.setattr(_solve_pool.POOL, "new_table", counted)
    one = katra.solve("djenon-aboure", 500)
    with cf.ThreadPoolExecutor(3) as pool:
        split = katra.solve("djenon-aboure", 500, executor=pool, tt_bits=14)
    assert [getattr(split, f) for f in FIELDS] == [getattr(one, f) for f in FIELDS]
    assert made == [14]
