"""Perft, divide and playouts split over threads and processes (docs/scale.md).

A split run must give exactly the single call's result, whatever the split:
perft sums subtrees (docs/rules.md §1.4, transpositions counted once and
multiplied), playout tallies add up range by range (§6.2: game k starts its
generator at seed + k * 2**32).  The jobs here are small and sized by counts.
"""
import concurrent.futures as cf
import itertools
import os
import signal
import subprocess
import sys
import textwrap
import threading
import time

import pytest

import katra
from helpers import katra_in_process
from interrupt_jobs import restore_sigint, wait_for_work
from katra._games import GAME_IDS
from katra.api import load_position
from katra.api._parallel import (
    ArgumentTypeError,
    Workers,
    plan_perft,
    playout_ranges,
    run_perft,
    run_playouts,
    usable_cores,
)

#: A depth per game at which perft takes milliseconds (tens of thousands of nodes).
DEPTHS = {"katro": 6, "katro-4x6": 6, "katro-4x4": 7, "katra-mpantsaka": 4,
          "katra-mpantsaka-simplified": 3, "gore": 6, "djenon-aboure": 6}


def start_text(game_id):
    return katra.game(game_id).initial_state().text()


def start(game_id, backend="core"):
    """The start position as a backend Position (what the splitter takes)."""
    return load_position(game_id, backend)


def by_action_text(game_id, counts):
    state = katra.game(game_id).initial_state()
    return {state.action_text(action): n for action, n in counts.items()}


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_perft_split_at_every_depth_equals_one_call(game_id):
    depth = DEPTHS[game_id]
    whole = katra.divide(game_id, depth)
    with cf.ThreadPoolExecutor(2) as pool:
        for split in range(1, depth):
            for workers in (Workers(2), Workers(executor=pool)):
                counts = run_perft("core", start(game_id), depth, workers,
                                   split_depth=split)
                assert by_action_text(game_id, counts) == whole, split
    assert katra.perft(game_id, depth, jobs=2) == sum(whole.values())
    assert katra.divide(game_id, depth, jobs=2) == whole
    assert katra.perft(game_id, depth, jobs=0) == sum(whole.values())


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_reference_backend_splits_the_same_way(game_id):
    depth = min(DEPTHS[game_id], 3)
    whole = katra.divide(game_id, depth, backend="reference")
    assert katra.divide(game_id, depth, backend="reference", jobs=2) == whole
    counts = run_perft("reference", start(game_id, "reference"), depth, Workers(3),
                       split_depth=2)
    assert by_action_text(game_id, counts) == whole


def test_transpositions_are_counted_once_and_multiplied():
    # Goré: different move orders reach the same position 4 plies deep.
    text, depth = start_text("gore"), 7
    plan = plan_perft("core", load_position(text), depth, workers=1, min_task_nodes=1,
                      split_depth=4)
    leaves = []  # every line of 4 plies that does not end the game, by hand

    def walk(state, plies):
        if plies == 4:
            if state.legal_actions():
                leaves.append(state.text())
            return
        for action in state.legal_actions():
            walk(state.child(action), plies + 1)

    walk(katra.State.from_text(text), 0)
    paths = sum(sum(p.values()) for p in plan.paths)
    assert paths == len(leaves)                    # every path is kept ...
    assert sorted(p.text() for p in plan.positions) == sorted(set(leaves))
    assert len(set(leaves)) < paths
    assert sum(p for counts in plan.paths for p in counts.values() if p > 1) > 0
    counts = run_perft("core", load_position(text), depth, Workers(2), split_depth=4)
    assert sum(counts.values()) == katra.perft(text, depth)


def test_tasks_go_largest_first_and_outnumber_the_workers():
    text, depth = start_text("katra-mpantsaka"), 6
    plan = plan_perft("core", load_position(text), depth, workers=2, min_task_nodes=1)
    assert len(plan.positions) >= 32
    sizes = [katra.perft(p, 2) for p in plan.positions]
    assert sizes == sorted(sizes, reverse=True)


def test_finished_positions_at_the_split_count_zero():
    # Djenon-aboure near its end: some lines finish before the split depth.
    text = "djenon-aboure 1,1,0,0,0,0/1,0,2,0,0,0 S stores=20,23"
    for depth in range(2, 7):
        whole = katra.divide(text, depth)
        for split in range(1, depth):
            counts = run_perft("core", load_position(text), depth, Workers(2),
                               split_depth=split)
            assert sum(counts.values()) == sum(whole.values()), (depth, split)
        assert katra.divide(text, depth, jobs=2) == whole


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_playouts_split_any_way_give_the_same_tally(game_id):
    games, seed, max_plies = 37, 2**64 - 5 if game_id == "gore" else 11, 200
    whole = katra.playouts(game_id, games, seed=seed, max_plies=max_plies)
    position = start(game_id)
    for chunk in (1, 2, 3, 5, 8, 36, 37, 100):
        for workers in (Workers(1), Workers(2), Workers(3)):
            seen = []
            tally = run_playouts("core", position, games, seed, max_plies, 0, workers,
                                 chunk=chunk, progress=lambda *p, seen=seen: seen.append(p))
            assert tally == whole, (chunk, workers.count)
            ranges = -(-games // chunk)  # progress: once planned, then after every task
            assert seen[0] == (0, ranges, 0) and seen[-1] == (ranges, ranges, games)
            assert [t for t, _, _ in seen] == list(range(ranges + 1))
    assert katra.playouts(game_id, games, seed=seed, max_plies=max_plies, jobs=2) == whole
    assert katra.playouts(game_id, games, seed=seed, max_plies=max_plies, jobs=0) == whole


@pytest.mark.parametrize("backend", ["core", "reference"])
def test_first_game_plays_the_later_games_of_the_batch(backend):
    for game_id in GAME_IDS:
        whole = katra.playouts(game_id, 6, seed=5, max_plies=80, backend=backend)
        head = katra.playouts(game_id, 4, seed=5, max_plies=80, backend=backend)
        tail = katra.playouts(game_id, 2, seed=5, max_plies=80, first_game=4, backend=backend)
        assert {k: head[k] + tail[k] for k in whole} == whole
        # Game k of the batch is game 0 of the batch seeded seed + k * 2**32.
        assert katra.playouts(game_id, 1, seed=5, max_plies=80, first_game=3,
                              backend=backend) == katra.playouts(
            game_id, 1, seed=5 + 3 * 2**32, max_plies=80, backend=backend)


def test_first_game_is_the_same_on_both_backends():
    for game_id in GAME_IDS:
        args = dict(seed=2**64 - 1, max_plies=120, first_game=2**40)
        assert (katra.playouts(game_id, 6, backend="core", **args)
                == katra.playouts(game_id, 6, backend="reference", **args))


def test_playout_ranges_cover_the_batch_once():
    workers = Workers(4)
    for games, first in [(0, 0), (1, 9), (1000, 0), (1001, 5), (10**6, 2**40)]:
        ranges = playout_ranges(games, first, workers)
        covered = [k for start, n in ranges for k in (start, start + n - 1)]
        assert sum(n for _, n in ranges) == games
        assert all(n > 0 for _, n in ranges)
        if games:
            assert covered[0] == first and covered[-1] == first + games - 1
            assert all(a + n == b for (a, n), (b, _) in itertools.pairwise(ranges))


def test_process_pool_gives_the_same_results():
    with cf.ProcessPoolExecutor(2) as pool:
        assert katra.divide("katra-mpantsaka", 4, executor=pool) == katra.divide(
            "katra-mpantsaka", 4)
        assert katra.playouts("djenon-aboure", 700, seed=4, executor=pool) == katra.playouts(
            "djenon-aboure", 700, seed=4)
        counts = run_perft("core", start("gore"), 6, Workers(executor=pool),
                           split_depth=3)
        assert by_action_text("gore", counts) == katra.divide("gore", 6)


def test_a_lost_process_raises_its_error_naming_the_position():
    text, depth = start_text("katro"), 9
    with cf.ProcessPoolExecutor(2) as pool:
        workers = Workers(executor=pool)
        killed = []

        def kill_a_worker(tasks_done, tasks, nodes):
            if tasks_done and not killed:  # after the first task, not at the plan
                pid = next(iter(pool._processes))
                os.kill(pid, signal.SIGKILL)
                killed.append(pid)

        with pytest.raises(cf.process.BrokenProcessPool) as failure:
            run_perft("core", load_position(text), depth, workers, split_depth=3,
                      progress=kill_a_worker)
    assert killed
    notes = "\n".join(getattr(failure.value, "__notes__", []))
    assert "while running perft depth 6 of the position 'katro " in notes


def test_any_other_executor_is_used_through_submit():
    class Inline(cf.Executor):
        """Runs each task at once in the caller (an executor katra knows nothing of)."""

        def __init__(self):
            self.calls = 0

        def submit(self, fn, /, *args, **kwargs):
            self.calls += 1
            future = cf.Future()
            future.set_result(fn(*args, **kwargs))
            return future

    inline = Inline()
    # Jobs above the smallest size worth splitting on processes (MIN_SPLIT_NODES and
    # MIN_SPLIT_PLIES): a smaller one runs as one call (tests/test_boundary.py).
    assert katra.perft("katro", 10, executor=inline) == katra.perft("katro", 10)
    assert inline.calls > 1
    calls = inline.calls
    assert katra.playouts("gore", 2000, seed=1, executor=inline) == katra.playouts(
        "gore", 2000, seed=1)
    assert inline.calls > calls + 1


# ---------------------------------------------------------------- bad input

@pytest.mark.parametrize("jobs", [-1, 10**6, 1.5, "2", True, None])
def test_bad_jobs_are_refused(jobs):
    error = ArgumentTypeError if not isinstance(jobs, int) or isinstance(jobs, bool) \
        else ValueError
    for call in (lambda: katra.perft("katro", 5, jobs=jobs),
                 lambda: katra.divide("katro", 5, jobs=jobs),
                 lambda: katra.playouts("katro", 5, jobs=jobs)):
        with pytest.raises(error, match="jobs"):
            call()
    assert issubclass(ArgumentTypeError, TypeError) and issubclass(ArgumentTypeError,
                                                                   ValueError)


def test_bad_executors_are_refused():
    for executor in (object(), "tcp://127.0.0.1:8786", cf.ThreadPoolExecutor):
        with pytest.raises(TypeError, match="executor must be"):
            katra.perft("katro", 5, executor=executor)
    with cf.ThreadPoolExecutor(2) as pool:
        with pytest.raises(ValueError, match="jobs or executor"):
            katra.playouts("katro", 5, jobs=2, executor=pool)


@pytest.mark.parametrize("kwargs,fragment", [
    (dict(max_plies=10**30), r"max_plies must be in 0\.\.2\*\*62"),
    (dict(max_plies=-1), "max_plies"),
    (dict(max_plies=2.0), "max_plies must be an int"),
    (dict(first_game=-1), "first_game"),
    (dict(first_game=2**62), r"first_game \+ games must be <= 2\*\*62"),
    (dict(first_game="3"), "first_game must be an int"),
    (dict(seed=2**64), "seed"),
    (dict(seed=-1), "seed"),
])
def test_bad_playout_options_start_nothing(kwargs, fragment):
    with cf.ThreadPoolExecutor(2) as pool:
        for extra in ({}, {"jobs": 2}, {"executor": pool}):
            before = threading.active_count()
            with pytest.raises(ValueError, match=fragment):
                katra.playouts("gore", 10, **kwargs, **extra)
            assert threading.active_count() == before
        assert not pool._threads  # no task was ever submitted


@pytest.mark.parametrize("games", [-1, 2**62 + 1, 10**30, 3.0, "10"])
def test_bad_game_counts_are_refused(games):
    with pytest.raises(ValueError, match="games"):
        katra.playouts("katro", games, jobs=2)


def test_the_core_refuses_games_past_the_batch():
    core = katra._core
    position = core.Position.initial("katro")
    with pytest.raises(ValueError, match="first_game"):
        core.playouts(position, 5, 0, 10, 2**62 - 4)
    with pytest.raises(ValueError, match="first_game"):
        core.playouts(position, 0, 0, 10, 10**30)
    assert core.playouts(position, 4, 0, 10, 2**62 - 4)["games"] == 4


def test_usable_cores_is_what_jobs_0_means():
    assert 1 <= usable_cores() <= (os.cpu_count() or 1)
    assert Workers(usable_cores()).count == usable_cores()


# ---------------------------------------------------------------- Ctrl-C

# A job that would take hours: it can only end early because it was interrupted.
LONG_PERFT = ("katro", 16)

INTERRUPTED_SCRIPT = textwrap.dedent("""
    import concurrent.futures as cf, sys, katra
    from katra.api._parallel import Workers, run_perft
    kind = sys.argv[1]
    workers = Workers(2) if kind == "threads" else Workers(executor=cf.ProcessPoolExecutor(2))
    position = katra.api.load_position("katro")
    def started(done, tasks, nodes):
        if not done:
            print("started", flush=True)
    try:
        run_perft("core", position, 16, workers, progress=started)
    except KeyboardInterrupt:
        print("interrupted", flush=True)
        sys.exit(130)
""")


def interrupt(process, wait_line=None, work=0.5, bound=30.0):
    """SIGINT once the job runs (after ``wait_line``, its processes have spent ``work``
    more CPU seconds: the workers run their tasks); the seconds it took to end (fails
    past ``bound``: generous, the jobs would take hours)."""
    if wait_line is not None:
        assert process.stdout.readline().strip() == wait_line
    wait_for_work(process, work)
    assert process.poll() is None, "the job ended before it was interrupted"
    sent = time.monotonic()
    process.send_signal(signal.SIGINT)
    try:
        process.wait(timeout=bound)
    except subprocess.TimeoutExpired:
        process.kill()
        pytest.fail(f"still running {bound} s after SIGINT")
    return time.monotonic() - sent


@pytest.mark.parametrize("kind", ["threads", "processes"])
def test_ctrl_c_stops_every_worker(kind):
    process = subprocess.Popen([sys.executable, "-c", INTERRUPTED_SCRIPT, kind],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                               preexec_fn=restore_sigint)
    interrupt(process, "started")
    assert process.returncode == 130, process.stderr.read()
    assert process.stdout.read().strip() == "interrupted"


@pytest.mark.parametrize("args", [["perft", *map(str, LONG_PERFT), "--jobs", "2"],
                                  ["perft", "katro", "400"],  # the planner once overflowed
                                  ["playouts", "gore", str(10**12), "--jobs", "2"]])
def test_ctrl_c_in_the_cli_exits_130(args):
    process = subprocess.Popen([sys.executable, "-m", "katra", *args],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                               preexec_fn=restore_sigint)
    interrupt(process, work=1.0)  # the start-up (imports) takes well under 1 s of it
    assert process.returncode == 130
    assert process.stderr.read().strip() == "katra: interrupted"


def test_cancel_jobs_from_another_thread_raises_job_cancelled():
    started, finished = threading.Event(), threading.Event()

    def cancel_until_finished():
        started.wait()
        while not finished.is_set():  # the tasks may start a little after the plan
            katra._core.cancel_jobs()
            finished.wait(0.05)

    canceller = threading.Thread(target=cancel_until_finished)
    canceller.start()
    try:
        with pytest.raises(katra._core.JobCancelled):
            run_perft("core", start("katro"), 16, Workers(2),
                      progress=lambda done, tasks, nodes: started.set())
    finally:
        started.set()
        finished.set()
        canceller.join()


# ---------------------------------------------------------------- the command line

def run_cli(*args):
    """``katra ARGS`` in this process (Ctrl-C, below, needs a program of its own)."""
    return katra_in_process(*args)


def test_cli_jobs_give_the_same_answers():
    import json
    single = json.loads(run_cli("perft", "katra-mpantsaka", "4", "--divide", "--json",
                                "--jobs", "1").stdout)
    for jobs in ("2", "0", "3"):
        split = json.loads(run_cli("perft", "katra-mpantsaka", "4", "--divide", "--json",
                                   "--jobs", jobs).stdout)
        assert split["divide"] == single["divide"] and split["nodes"] == 25764
    one = json.loads(run_cli("playouts", "katro", "300", "--seed", "8", "--json",
                             "--jobs", "1").stdout)
    two = json.loads(run_cli("playouts", "katro", "300", "--seed", "8", "--json").stdout)
    assert {k: one[k] for k in one if k != "seconds"} == {k: two[k] for k in two
                                                          if k != "seconds"}


def test_cli_first_game_plays_the_rest_of_the_batch():
    import json
    parts = [json.loads(run_cli("playouts", "djenon-aboure", *args, "--seed", "4",
                                "--json").stdout)
             for args in (["25"], ["9"], ["16", "--first-game", "9", "--jobs", "2"])]
    keys = ("games", "south_wins", "north_wins", "draws", "unfinished", "plies")
    assert all(parts[0][k] == parts[1][k] + parts[2][k] for k in keys)


@pytest.mark.parametrize("args,fragment", [
    (["perft", "katro", "5", "--jobs", "-1"], "--jobs"),
    (["perft", "katro", "5", "--jobs", "two"], "--jobs"),
    (["playouts", "katro", "5", "--jobs", "5000"], "--jobs"),
    (["playouts", "gore", "5", "--max-plies", str(10**30)], "--max-plies"),
    (["playouts", "gore", str(2**62 + 1)], "games"),
    (["playouts", "gore", "10", "--first-game", str(2**62 - 9)], "first_game"),
    (["playouts", "gore", "10", "--first-game", "-1"], "--first-game"),
    (["perft", "katro", "5", "--scheduler", "somewhere"], "--scheduler"),
    (["perft", "katro", "5", "--scheduler", "tcp://127.0.0.1:8786", "--jobs", "2"],
     "--scheduler local only"),
])
def test_cli_bad_worker_options(args, fragment):
    result = run_cli(*args)
    assert result.returncode == 2 and result.stdout == ""
    assert fragment in result.stderr and len(result.stderr.strip().splitlines()) == 1
