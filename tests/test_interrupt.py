"""Every long call stops on Ctrl-C (SIGINT) and on katra._core.cancel_jobs().

The calls are sized by counts to run for hours or for ever, so one that
ignores the signal (and is stopped only when it returns, or never) fails the
bound below.  The bound is about stopping, not speed: a core call polls every
few milliseconds (benchmarks/bench_interrupt.py measures the latency,
docs/api.md "Stopping long calls" reports it), and the bound leaves room for a
loaded machine and a sanitizer build.  Each signal is sent once the child
reports that its call runs (interrupt_jobs.py), never after a fixed sleep.
"""
import hashlib
import signal
import sys
import threading
import time

import pexpect
import pytest

import katra
from helpers import SANITIZED
from interrupt_jobs import (
    CALLS,
    CLI_CALLS,
    NEVER_ENDING_GORE,
    REPORT_RUNNING,
    SPLIT_CALLS,
    interrupt_call,
    interrupt_cli,
    interrupt_main_call,
    interrupt_main_rounds,
    restore_sigint,
)
from katra import _core
from katra.api import build_tables

#: Seconds from SIGINT to KeyboardInterrupt: generous (the calls would run for hours).
BOUND = 30.0


@pytest.mark.parametrize("name", list(CALLS))
def test_sigint_stops_the_call(name):
    stopped = interrupt_call(name)
    assert stopped.returncode == 0, (stopped.stdout, stopped.stderr)
    assert stopped.stdout.split()[:2] == ["stopped", "KeyboardInterrupt"], stopped.stdout
    assert stopped.latency < BOUND, f"{name}: stopped {stopped.latency:.3f} s after SIGINT"
    assert stopped.left == []            # the tables build: neither its file nor its .part


def test_sigint_stops_the_call_when_the_parent_ignores_sigint():
    """A test run started where SIGINT is ignored (a background job, nohup) still
    gives its children Python's KeyboardInterrupt handler (restore_sigint)."""
    ignored = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        stopped = interrupt_call("core perft")
    finally:
        signal.signal(signal.SIGINT, ignored)
    assert stopped.returncode == 0, (stopped.stdout, stopped.stderr)
    assert stopped.stdout.split()[:2] == ["stopped", "KeyboardInterrupt"], stopped.stdout
    assert stopped.latency < BOUND


@pytest.mark.parametrize("name", list(SPLIT_CALLS))
def test_interrupt_main_stops_a_split_job(name):
    """Ctrl-C without a signal (``_thread.interrupt_main()``, as IDLE sends it) stops a
    job split over worker threads: the caller waits in short steps, so it sees the
    interrupt, and stops every worker before KeyboardInterrupt leaves; the workers'
    threads are gone and the next split job counts as one thread does."""
    stopped = interrupt_main_call(name)
    assert stopped.latency < BOUND, f"{name}: stopped {stopped.latency:.3f} s after the interrupt"
    assert stopped.threads == 1
    assert stopped.perft_after == stopped.perft_expected


@pytest.mark.parametrize("name", list(CLI_CALLS))
def test_sigint_stops_the_cli_with_stderr_piped(name):
    stopped = interrupt_cli(name)
    assert stopped.returncode == 130, (stopped.stdout, stopped.stderr)
    assert stopped.stderr == "katra: interrupted\n"
    assert stopped.stdout == ""          # nothing counted is printed
    assert stopped.exit_latency < BOUND, f"{name}: exited {stopped.exit_latency:.3f} s after SIGINT"
    assert stopped.left == []


def test_interrupt_main_stops_a_tables_build_and_frees_it(tmp_path):
    """Ctrl-C without a signal (``_thread.interrupt_main()``) stops a build of the largest
    tables four times over (tests/interrupt_jobs.py, ROUND_CALLS): no thread and no file
    (neither the table nor its .part) is left, the memory of each stopped build is given
    back, and the next build writes the same file as one in a fresh process."""
    stopped = interrupt_main_rounds("tables build")
    assert stopped.latency < BOUND, stopped
    assert stopped.threads == 1
    assert stopped.left == 0
    assert stopped.peak > 4 << 20, stopped            # layers were built (layer 10 needs 14 MB) ...
    if not SANITIZED:   # AddressSanitizer quarantines what is freed (its own leak checks apply)
        assert stopped.growth < 8 << 20, stopped      # ... and freed after each stop
    build_tables("djenon-aboure", 8, tmp_path / "t")
    data = (tmp_path / "t").read_bytes()
    assert stopped.after == [str(len(data)), hashlib.sha256(data).hexdigest()]


# ---------------------------------------------------------------- on a terminal

def _spawn_katra(*args):
    import os

    env = dict(os.environ, TERM="xterm-256color", COLUMNS="160", LINES="50",
               KATRA_PROGRESS_DELAY="0")
    return pexpect.spawn(sys.executable, ["-m", "katra", *args], encoding="utf-8",
                         timeout=120, dimensions=(50, 160), env=env, preexec_fn=restore_sigint)


@pytest.mark.parametrize("args,shown", [
    (["perft", "katro", "20"], "perft katro depth 20"),
    (["playouts", NEVER_ENDING_GORE, "1000000", "--max-plies", "1000000000"], "playouts gore"),
    (["play", "katro", "--as", "N", "--time", "100000"], "thinking"),
], ids=["perft", "playouts", "play while the engine thinks"])
def test_ctrl_c_on_a_terminal(args, shown):
    child = _spawn_katra(*args)
    try:
        child.expect_exact(shown)           # the progress line: the job runs
        child.sendintr()
        sent = time.monotonic()
        child.expect_exact("katra: interrupted")
        child.expect(pexpect.EOF)
        exited = time.monotonic() - sent
    finally:
        child.close(force=True)
    assert child.exitstatus == 130
    assert exited < BOUND


# ---------------------------------------------------------------- threads

THREAD_CALLS = {
    "perft": lambda: _core.perft(_core.Position.initial("katro"), 20),
    "divide": lambda: katra.divide("katro", 20),
    "playouts": lambda: katra.playouts(NEVER_ENDING_GORE, 10**6, max_plies=10**9),
    "search": lambda: katra.search("katro", depth=40),
    "mcts": lambda: katra.MCTS(max_nodes=1 << 16).search("katro", simulations=1 << 40),
}


def _run_in_thread(call):
    """Start call in a daemon thread; (thread, started event, list of what it raised)."""
    started, raised = threading.Event(), []

    def work():
        started.set()
        try:
            call()
        except BaseException as exc:  # the test inspects it
            raised.append(exc)

    thread = threading.Thread(target=work, daemon=True)
    thread.start()
    started.wait()
    return thread, raised


@pytest.mark.parametrize("name", list(THREAD_CALLS))
def test_cancel_jobs_stops_a_worker_thread(name):
    thread, raised = _run_in_thread(THREAD_CALLS[name])
    first = time.monotonic()
    # A job notices cancel_jobs() calls made while it runs: repeat until the thread,
    # which may not have entered the core yet, has stopped.
    while thread.is_alive() and time.monotonic() - first < 60:
        _core.cancel_jobs()
        thread.join(0.05)
    assert not thread.is_alive()
    assert len(raised) == 1 and isinstance(raised[0], _core.JobCancelled), raised
    assert isinstance(raised[0], KeyboardInterrupt)
    assert time.monotonic() - first < BOUND


def test_jobs_started_after_cancel_jobs_run_normally():
    _core.cancel_jobs()
    assert katra.perft("katro", 3) == 168
    assert katra.search("katro-4x4", depth=3).depth == 3


def test_cancel_jobs_stops_every_running_job():
    threads = [_run_in_thread(THREAD_CALLS[name]) for name in ("perft", "search")]
    first = time.monotonic()
    while any(t.is_alive() for t, _ in threads) and time.monotonic() - first < 60:
        _core.cancel_jobs()
        for t, _ in threads:
            t.join(0.05)
    for thread, raised in threads:
        assert not thread.is_alive()
        assert [type(exc) for exc in raised] == [_core.JobCancelled]


_JOIN_CHILD = f"""\
import sys, threading, time
from katra import _core
caught, done = [], threading.Event()
def work():
    try:
        _core.perft(_core.Position.initial("katro"), 20)
    except KeyboardInterrupt as exc:
        caught.append(type(exc).__name__)
    finally:
        done.set()
worker = threading.Thread(target=work)
worker.start()
{REPORT_RUNNING}
try:
    worker.join()
except KeyboardInterrupt:
    _core.cancel_jobs()         # the worker's job stops
    # (after an interrupted join, CPython 3.11's join() returns at once: wait on done)
    done.wait()
    print("stopped", caught[0], repr(time.monotonic()), flush=True)
    sys.exit(0)
sys.exit(1)
"""


def test_ctrl_c_while_the_main_thread_joins_a_worker():
    """SIGINT reaches the main thread (blocked in join); it cancels the worker's job."""
    from interrupt_jobs import interrupt

    stopped = interrupt([sys.executable, "-c", _JOIN_CHILD])
    assert stopped.returncode == 0, (stopped.stdout, stopped.stderr)
    assert stopped.stdout.split()[:2] == ["stopped", "JobCancelled"]
    assert stopped.latency < BOUND
