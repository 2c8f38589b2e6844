"""Perft, divide and playouts on a real dask cluster (the ``dask`` extra; docs/scale.md).

Everything runs on 127.0.0.1: a ``distributed.LocalCluster`` of two
one-thread worker processes started by a fixture, and a scheduler and a
worker started as ``dask scheduler`` / ``dask worker`` subprocesses.  The
``test`` extra installs dask, so a missing dask fails here.

The whole file runs in one xdist worker (one cluster for all its tests).  The
default run checks the cluster's answers; the command line on a cluster, a
killed worker, Ctrl-C and the longer solves are ``slow`` (CI runs them).
"""
import json
import os
import signal
import socket
import subprocess
import sys
import textwrap
import threading
import time

import pytest

import katra
from helpers import local_dask_client
from interrupt_jobs import restore_sigint, wait_for_work
from katra._games import GAME_IDS
from katra.api._parallel import Workers, run_perft, run_playouts

pytestmark = pytest.mark.xdist_group("dask")

DEPTHS = {"katro": 6, "katro-4x6": 6, "katro-4x4": 7, "katra-mpantsaka": 4,
          "katra-mpantsaka-simplified": 3, "gore": 6, "djenon-aboure": 6}


@pytest.fixture(scope="module")
def client():
    with local_dask_client() as client:
        yield client


def start(game_id):
    """The start position as a core Position (what the splitter takes)."""
    return katra.api.load_position(game_id)


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_local_cluster_equals_one_call(client, game_id):
    depth = DEPTHS[game_id]
    whole = katra.divide(game_id, depth)
    assert katra.divide(game_id, depth, executor=client) == whole
    assert katra.perft(game_id, depth, executor=client.get_executor()) == sum(whole.values())
    # Forced splits: tens to hundreds of tasks go through the workers.
    state = katra.game(game_id).initial_state()
    for split in (1,) if game_id == "katra-mpantsaka-simplified" else (1, 2):
        counts = run_perft("core", start(game_id), depth, Workers(executor=client),
                           split_depth=split)
        assert {state.action_text(a): n for a, n in counts.items()} == whole
    tally = katra.playouts(game_id, 200, seed=13, max_plies=300)
    assert katra.playouts(game_id, 200, seed=13, max_plies=300, executor=client) == tally
    for chunk in (7, 64):
        assert run_playouts("core", start(game_id), 200, 13, 300, 0,
                            Workers(executor=client), chunk=chunk) == tally


def test_tasks_ran_on_the_workers(client):
    before = set(client.run(os.getpid).values())
    assert os.getpid() not in before and len(before) == 2
    seen = set()
    run_perft("core", start("katro"), 7, Workers(executor=client), split_depth=3,
              progress=lambda done, tasks, nodes: seen.add(done))
    assert len(seen) > 2 * len(before)  # many more tasks than workers


@pytest.mark.slow
def test_a_killed_worker_still_gives_the_exact_count(client):
    position, depth = start("katro"), 10
    expected = katra.divide(position, depth)
    pids = client.run(os.getpid)  # worker address -> pid
    killed = []

    def kill_a_busy_worker(tasks_done, tasks, nodes):
        if not tasks_done:  # planned, not started
            return
        if killed:
            return
        busy = [address for address, keys in client.processing().items() if keys]
        assert busy, "no task left running: the job is too small for this test"
        os.kill(pids[busy[0]], signal.SIGKILL)
        killed.append(busy[0])

    counts = run_perft("core", position, depth, Workers(executor=client), split_depth=4,
                       progress=kill_a_busy_worker)
    state = katra.game("katro").initial_state()
    assert killed and {state.action_text(a): n for a, n in counts.items()} == expected
    client.wait_for_workers(2, timeout=60)  # the nanny restarts it for the next tests


def scheduler_keys(client):
    return set(client.run_on_scheduler(lambda dask_scheduler: list(dask_scheduler.tasks)))


def test_bad_input_starts_nothing_on_the_cluster(client):
    before = scheduler_keys(client)
    with pytest.raises(ValueError, match="first_game"):
        katra.playouts("gore", 10, first_game=2**62, executor=client)
    with pytest.raises(ValueError, match="jobs or executor"):
        katra.perft("gore", 5, jobs=2, executor=client)
    with pytest.raises(ValueError, match="max_plies"):
        katra.playouts("gore", 10, max_plies=10**30, executor=client)
    assert scheduler_keys(client) <= before  # no task was submitted (old ones may go)


# ---------------------------------------------------------------- the command line

def free_port():
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def katra_cli(*args, timeout=180):
    return subprocess.run([sys.executable, "-m", "katra", *args], capture_output=True,
                          text=True, timeout=timeout)


def without_seconds(record):
    return {key: value for key, value in record.items() if key != "seconds"}


@pytest.fixture(scope="module")
def scheduler_address():
    """A scheduler and one worker, started as the dask command does on a real cluster."""
    port = free_port()
    address = f"tcp://127.0.0.1:{port}"
    dask = [sys.executable, "-m", "distributed.cli.dask_scheduler"]
    scheduler = subprocess.Popen([*dask, "--host", "127.0.0.1", "--port", str(port),
                                  "--no-dashboard"], stderr=subprocess.DEVNULL,
                                 preexec_fn=restore_sigint)  # stopped by SIGINT below
    worker = subprocess.Popen([sys.executable, "-m", "distributed.cli.dask_worker", address,
                               "--nthreads", "1", "--nworkers", "2", "--host", "127.0.0.1",
                               "--no-dashboard"], stderr=subprocess.DEVNULL,
                              preexec_fn=restore_sigint)
    try:
        import distributed
        with distributed.Client(address, timeout=60, set_as_default=False) as probe:
            probe.wait_for_workers(2, timeout=60)
        yield address
    finally:
        for process in (worker, scheduler):
            process.send_signal(signal.SIGINT)
        for process in (worker, scheduler):
            try:
                process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                process.kill()


@pytest.mark.slow
def test_cli_scheduler_address(scheduler_address):
    single = json.loads(katra_cli("perft", "katra-mpantsaka", "5", "--divide", "--json",
                                  "--jobs", "1").stdout)
    result = katra_cli("perft", "katra-mpantsaka", "5", "--divide", "--json",
                       "--scheduler", scheduler_address)
    assert result.returncode == 0, result.stderr
    assert without_seconds(json.loads(result.stdout)) == without_seconds(single)
    args = ["playouts", "djenon-aboure", "3000", "--seed", "21", "--json"]
    result = katra_cli(*args, "--scheduler", scheduler_address)
    assert result.returncode == 0, result.stderr
    assert without_seconds(json.loads(result.stdout)) == without_seconds(
        json.loads(katra_cli(*args, "--jobs", "1").stdout))


@pytest.mark.slow
def test_cli_scheduler_local():
    args = ["playouts", "gore", "500", "--seed", "3", "--json"]
    result = katra_cli(*args, "--scheduler", "local", "--jobs", "2")
    assert result.returncode == 0, result.stderr
    assert without_seconds(json.loads(result.stdout)) == without_seconds(
        json.loads(katra_cli(*args, "--jobs", "1").stdout))


def test_cli_unreachable_scheduler_is_one_line_and_status_2():
    address = f"tcp://127.0.0.1:{free_port()}"  # nobody listens there
    result = katra_cli("perft", "katro", "5", "--scheduler", address, timeout=60)
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr.startswith(f"katra: cannot reach the dask scheduler at {address}")
    assert len(result.stderr.strip().splitlines()) == 1


INTERRUPTED_SCRIPT = textwrap.dedent("""
    import logging, os, sys, time, distributed, katra
    from katra.api._parallel import Workers, run_perft
    cluster = distributed.LocalCluster(n_workers=2, threads_per_worker=1, host="127.0.0.1",
                                       dashboard_address=None, silence_logs=logging.ERROR)
    client = distributed.Client(cluster, set_as_default=False)
    print(*client.run(os.getpid).values(), flush=True)
    position = katra.api.load_position("katro")
    try:
        run_perft("core", position, 16, Workers(executor=client),
                  progress=lambda done, tasks, nodes: done or print("started", flush=True))
    except KeyboardInterrupt:
        from katra.api import _parallel
        for _ in range(50):  # our tasks stopped on the workers, not only the futures
            if not any(client.run(lambda: len(_parallel._running_runs)).values()):
                break
            time.sleep(0.1)
        else:
            sys.exit("tasks still run on the workers")
        client.close()
        cluster.close()
        print("interrupted", flush=True)
        sys.exit(130)
""")


@pytest.mark.slow
def test_ctrl_c_stops_the_cluster_tasks():
    process = subprocess.Popen([sys.executable, "-c", INTERRUPTED_SCRIPT],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                               preexec_fn=restore_sigint)
    try:
        worker_pids = [int(pid) for pid in process.stdout.readline().split()]
        assert process.stdout.readline().strip() == "started"
        wait_for_work(process, 1.0)  # the workers run their tasks
        assert process.poll() is None, "the job ended before it was interrupted"
        process.send_signal(signal.SIGINT)
        process.wait(timeout=10)  # cancelling is quick; closing the cluster takes a moment
    finally:
        if process.poll() is None:
            process.kill()
    assert process.returncode == 130, process.stderr.read()[-2000:]
    assert process.stdout.read().strip() == "interrupted"
    for pid in worker_pids:  # the worker processes are gone with the cluster
        for _ in range(100):
            try:
                os.kill(pid, 0)
            except ProcessLookupError:
                break
            threading.Event().wait(0.1)
        else:
            pytest.fail(f"worker process {pid} still runs")


def children(pid):
    """The pids of a process's children (Linux /proc)."""
    found = []
    for task in os.listdir(f"/proc/{pid}/task"):
        with open(f"/proc/{pid}/task/{task}/children") as listing:
            found += [int(child) for child in listing.read().split()]
    return found


@pytest.mark.slow
def test_ctrl_c_in_the_cli_with_a_local_cluster_exits_130():
    process, workers = start_perft_on_a_local_cluster(restore_sigint)
    try:
        wait_for_work(process, 3.0)  # they start their tasks (an earlier Ctrl-C works too)
        assert process.poll() is None, process.stderr.read()
        process.send_signal(signal.SIGINT)
        process.wait(timeout=10)
    finally:
        if process.poll() is None:
            process.kill()
    assert process.returncode == 130, process.stderr.read()[-2000:]
    assert process.stderr.read().strip().endswith("katra: interrupted")
    assert_gone(workers)


def start_perft_on_a_local_cluster(preexec_fn):
    """``katra perft katro 16 --scheduler local --jobs 2`` started (for hours): the
    process and its children once its two worker processes are up (a minute at most)."""
    process = subprocess.Popen([sys.executable, "-m", "katra", "perft", "katro", "16",
                                "--scheduler", "local", "--jobs", "2"],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                               preexec_fn=preexec_fn)
    for _ in range(600):
        if process.poll() is not None or len(children(process.pid)) >= 2:
            break
        time.sleep(0.1)
    return process, children(process.pid)


def assert_gone(pids):
    """Each process of ``pids`` is gone, or dying (a zombie), within a few seconds."""
    for pid in pids:
        for _ in range(100):
            if gone(pid):
                break
            time.sleep(0.05)
        else:
            pytest.fail(f"process {pid} still runs: {open(f'/proc/{pid}/cmdline').read()!r}")


def gone(pid):
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0] in ("Z", "X")
    except FileNotFoundError:
        return True


@pytest.mark.parametrize("position", [
    "katro-4x4",
    pytest.param("djenon-aboure", marks=pytest.mark.slow),
    pytest.param("gore 3,0,0,0/0,0,0,0 S stores=20,25 owners=NNNN/SSSS", marks=pytest.mark.slow)])
def test_solve_on_the_cluster_equals_one_call(client, position):
    one = katra.solve(position, 20)
    fields = ("outcome", "plies", "best_action", "pv", "max_plies")
    for executor in (client, client.get_executor()):
        split = katra.solve(position, 20, executor=executor)
        assert [getattr(split, f) for f in fields] == [getattr(one, f) for f in fields]


# ---------------------------------------------------------------- Ctrl-C on a terminal

HOLD_SCRIPT = textwrap.dedent("""
    import multiprocessing, os, signal, threading, time
    from katra.cli.counting import hold_sigint
    def sigint_blocked(pid):  # in the process's main thread (Linux /proc)
        with open(f"/proc/{pid}/status") as status:
            mask = next(line for line in status if line.startswith("SigBlk:")).split()[1]
        return bool(int(mask, 16) >> (signal.SIGINT - 1) & 1)
    release = hold_sigint()
    started = []
    def spawn():  # from a thread of its own, as dask's event loop starts its workers
        process = multiprocessing.get_context("spawn").Process(target=time.sleep, args=(60,))
        process.start()
        started.append(process)
    thread = threading.Thread(target=spawn)
    thread.start()
    thread.join()
    os.kill(os.getpid(), signal.SIGINT)   # a Ctrl-C while the cluster starts: held back
    print("held", flush=True)
    try:
        release()
        time.sleep(5)
        print("not raised", flush=True)
    except KeyboardInterrupt:
        print("raised", sigint_blocked(started[0].pid), sigint_blocked(os.getpid()), flush=True)
    finally:
        started[0].kill()
""")


def test_workers_started_while_sigint_is_held_never_see_it():
    """The local cluster's workers start with SIGINT blocked (a terminal's Ctrl-C, sent to
    the whole process group, does not kill them under dask's feet), and a Ctrl-C that
    came while they started is raised once the cluster is up."""
    result = subprocess.run([sys.executable, "-c", HOLD_SCRIPT],
                            capture_output=True, text=True, timeout=120,
                            preexec_fn=restore_sigint)
    assert result.stdout.split() == ["held", "raised", "True", "False"], result.stderr


@pytest.mark.slow
def test_ctrl_c_on_a_terminal_with_a_local_cluster_prints_one_line():
    """Ctrl-C on a terminal reaches the whole foreground process group, the cluster's
    workers included: katra's one line is all that is printed, whether the cluster is
    starting or running (dask logged CommClosedError, or a traceback, before it)."""
    for cpu_seconds in (0.0, 4.0):   # while the cluster starts; while the tasks run
        process, workers = start_perft_on_a_local_cluster(
            lambda: (restore_sigint(), os.setpgrp()))
        try:
            if cpu_seconds:
                wait_for_work(process, cpu_seconds)
            assert process.poll() is None, process.stderr.read()
            os.killpg(process.pid, signal.SIGINT)   # as a terminal sends it
            _, err = process.communicate(timeout=30)
        finally:
            if process.poll() is None:
                process.kill()
        assert (process.returncode, err) == (130, "katra: interrupted\n")
        assert_gone(workers)


def test_match_on_the_cluster_plays_the_same_games(client):
    """katra match's games on the cluster (one task per pair) are the games played on
    one thread: fixed-node engines, a protocol program and a built-in player."""
    import shlex
    from pathlib import Path

    from katra.match import EngineSpec, MatchConfig, TimeControl, load_suite, run_match
    program = shlex.join([sys.executable, str(Path(__file__).parent / "engines"
                                              / "well_behaved.py")])
    config = MatchConfig("katro-4x4", (EngineSpec(program, "program", (("Seed", "1"),)),
                                       EngineSpec("katra:alphabeta")),
                         4, TimeControl(nodes=300), 1000, tuple(load_suite(None, "katro-4x4")),
                         "katra:katro-4x4")

    def games(run):
        return sorted((e["game"], e["south"], e["moves"], e["result"], e["termination"])
                      for e in run.standings.entries)

    here = run_match(config, concurrency=1)
    there = run_match(config, executor=client)
    assert games(here) == games(there) and len(games(there)) == 4
    assert {e["termination"] for e in there.standings.entries} == {"rules"}


@pytest.mark.slow
def test_match_command_line_on_a_local_cluster(tmp_path):
    """``katra match --scheduler local``: the results file written from the cluster's
    tasks equals the one of one thread (fixed-node engines)."""
    from pathlib import Path

    from helpers import katra_program
    program = f"{sys.executable} {Path(__file__).parent / 'engines' / 'well_behaved.py'}"
    runs = []
    for where in (["--concurrency", "1"], ["--scheduler", "local"]):
        path = tmp_path / f"{where[0][2:]}.jsonl"
        done = katra_program("match", "katro-4x4", "--engine", "katra:alphabeta",
                             "--engine", program, "--nodes", "300", "--games", "4",
                             "--results", path, *where)
        assert done.returncode == 0, done.stderr
        lines = path.read_text().splitlines()[1:]
        runs.append(sorted((g["game"], g["moves"], g["result"])
                           for g in map(json.loads, lines)))
    assert runs[0] == runs[1] and len(runs[0]) == 4
