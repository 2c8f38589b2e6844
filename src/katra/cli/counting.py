"""The perft and playouts commands' workers: ``--jobs``, ``--scheduler`` and progress.

``--jobs N`` counts on N threads (default: every usable core on the core, one
on the reference; ``--jobs 1`` for one call in this thread), ``--scheduler
ADDRESS`` sends the tasks to a running dask scheduler and ``--scheduler
local`` starts a ``distributed.LocalCluster`` for the run (docs/scale.md).
The jobs run through the public API (``katra.perft``, ``divide``,
``playouts``), which decides whether a split pays and never changes the
answer.  Progress on a terminal counts finished tasks and the nodes (or
games) they add up to, across all workers.
"""
from __future__ import annotations

import argparse
import importlib
import logging
import os
import re
import signal
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from katra._limits import (
    MAX_GAMES,
    MAX_JOBS,
    MAX_PERFT_DEPTH,
    MAX_PLIES,
    check_perft_depth,
    check_playout_args,
    usable_cores,
)
from katra.api import divide, perft, playouts

from .common import UsageError, int_arg

#: Seconds to wait for a dask scheduler before giving up with a one-line error.
CONNECT_TIMEOUT = 3

_ADDRESS = re.compile(r"^(?:(tcp|tls|ws|wss|inproc|ucx)://)?[\w.\-\[\]:]+:\d{1,5}$")

depth_arg = int_arg("depth", 0, MAX_PERFT_DEPTH)           # perft DEPTH
jobs_arg = int_arg("jobs", 0, MAX_JOBS)                    # 0: every usable core
games_arg = int_arg("games", 0, MAX_GAMES)
max_plies_arg = int_arg("max_plies", 0, MAX_PLIES)         # refused, never capped, above
first_game_arg = int_arg("first_game", 0, MAX_GAMES - 1)   # with the games: by the API


def scheduler_arg(text: str) -> str:
    """``--scheduler``: ``local`` or a dask scheduler address (``tcp://host:8786``)."""
    if text != "local" and not _ADDRESS.match(text):
        raise argparse.ArgumentTypeError(f"expected 'local' or a scheduler address such as "
                                         f"tcp://host:8786, got {text!r}")
    return text


def add_worker_options(parser: argparse.ArgumentParser) -> None:
    """``--jobs`` and ``--scheduler`` (perft and playouts)."""
    parser.add_argument("--jobs", "-j", type=jobs_arg, metavar="N",
                        help="threads to count on (default: every usable core; 1: one)")
    parser.add_argument("--scheduler", type=scheduler_arg, metavar="ADDRESS",
                        help="send the tasks to a dask scheduler (tcp://host:8786), or "
                             "'local' to start a dask LocalCluster (needs the dask extra)")


@contextmanager
def worker_options(args: argparse.Namespace) -> Iterator[dict[str, Any]]:
    """The API's ``jobs`` or ``executor`` the options ask for (a dask client while open)."""
    if args.scheduler is None:
        # The pure-Python reference gains nothing from threads (the GIL): one by default.
        yield {"jobs": (1 if args.backend == "reference" else 0) if args.jobs is None
               else args.jobs}
        return
    if args.scheduler != "local" and args.jobs is not None:
        raise UsageError("katra: --jobs goes with --scheduler local only (a running "
                         "scheduler has its own workers)")
    with dask_client(args.scheduler, args.jobs) as client:
        yield {"executor": client}


@contextmanager
def dask_client(scheduler: str, jobs: int | None) -> Iterator[Any]:
    """A dask client on the scheduler, or on a LocalCluster of ``jobs`` one-thread workers.

    On Ctrl-C (or an error) only katra's own line is printed: the cluster's
    workers never see a terminal's Ctrl-C (which reaches every process of the
    foreground group), katra stops their tasks and kills them, and dask's
    shutdown is not logged (``quiet_dask``).
    """
    try:
        distributed: Any = importlib.import_module("distributed")
    except ImportError:
        from katra._errors import extra_hint
        raise UsageError(f"katra: --scheduler needs dask: {extra_hint('dask')}") from None
    cluster = None
    # Ctrl-C while the cluster starts or the client connects (seconds at most) is held
    # back until both exist: interrupted half-way, dask leaves them hanging at exit.  The
    # signal is blocked meanwhile, and every process and thread the start creates keeps
    # it blocked: the workers ignore the terminal's Ctrl-C (dying of it half-way through
    # a broadcast, they made the scheduler log CommClosedError), and this process gets
    # it when the block is lifted.
    release = hold_sigint()
    try:
        try:
            if scheduler == "local":
                cluster = distributed.LocalCluster(
                    n_workers=jobs or usable_cores(), threads_per_worker=1, processes=True,
                    host="127.0.0.1", dashboard_address=None, silence_logs=logging.ERROR,
                    # the scheduler's HTTP server on a free port: on 8787 (its default),
                    # taken by any other cluster, it warns
                    scheduler_kwargs={"dashboard_address": "127.0.0.1:0"})
                client = distributed.Client(cluster, set_as_default=False)
            else:
                client = distributed.Client(scheduler, timeout=CONNECT_TIMEOUT,
                                            set_as_default=False)
        except (OSError, TimeoutError) as exc:
            if cluster is not None:
                cluster.close()
            reason = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
            raise UsageError(f"katra: cannot reach the dask scheduler at {scheduler}: "
                             f"{reason}") from None
    except BaseException:
        release()
        raise
    try:
        release()  # a Ctrl-C held back is raised here, the cluster up
        yield client
    except BaseException:
        quiet_dask()
        if cluster is not None:  # Ctrl-C or an error: our workers have nothing left to do
            _kill_workers(cluster)
        raise
    finally:
        client.close()
        if cluster is not None:
            cluster.close()


def hold_sigint() -> Callable[[], None]:
    """Block SIGINT in this thread (and in the threads and processes it starts) until
    the returned function is called; a Ctrl-C that came meanwhile is raised then.
    Where signals cannot be blocked (Windows), Ctrl-C is recorded and raised the same."""
    if hasattr(signal, "pthread_sigmask"):
        # multiprocessing's resource tracker, started by the first process spawned,
        # unblocks SIGINT in the thread that starts it: started first, it is left alone.
        resource_tracker: Any = importlib.import_module("multiprocessing.resource_tracker")
        resource_tracker.ensure_running()
        previous_mask = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})

        def release() -> None:
            signal.pthread_sigmask(signal.SIG_SETMASK, previous_mask)
            # (a pending SIGINT is delivered as the mask is lifted; its handler's
            # KeyboardInterrupt is raised at the next bytecode, in this frame)
        return release
    interrupted: list[int] = []
    previous = signal.signal(signal.SIGINT, lambda signum, frame: interrupted.append(signum))

    def restore() -> None:
        signal.signal(signal.SIGINT, previous)
        if interrupted:
            raise KeyboardInterrupt
    return restore


def quiet_dask() -> None:
    """Log nothing more in this process (dask's scheduler, nanny and comms, tornado and
    asyncio report the workers katra kills and the connections it drops) and drop
    unraisable exceptions at exit: the command ends with its own one line."""
    logging.disable(logging.CRITICAL)
    sys.unraisablehook = lambda unraisable: None


def _kill_workers(cluster: Any) -> None:
    """Kill a LocalCluster's worker processes: closing it then takes milliseconds, not a second."""
    for nanny in list(getattr(cluster, "workers", {}).values()):
        pid = getattr(getattr(getattr(nanny, "process", None), "process", None), "pid", None)
        if pid is not None:
            try:
                os.kill(pid, signal.SIGKILL)
            except OSError:  # already gone
                pass


@contextmanager
def _progress_bar(show: bool, title: str, amount: str) -> Iterator[Any]:
    """``progress=`` for the API: a bar of tasks on stderr (None when not shown)."""
    if not show:
        yield None
        return
    from .term import progress
    with progress(title, 0, "tasks", f"{{task.fields[amount]:,}} {amount}", amount=0) as bar:
        yield lambda done, tasks, value: bar.update(total=tasks, completed=done, amount=value)


def run_perft(position: Any, depth: int, backend: str, want_divide: bool, show_progress: bool,
              args: argparse.Namespace) -> tuple[int, dict[str, int] | None, float]:
    """The node count, the per-move counts (if asked) and the seconds the count took;
    progress on stderr if asked.  ``position`` is a backend Position."""
    check_perft_depth(depth, 1 if want_divide else 0)  # before any worker starts
    with worker_options(args) as workers, _progress_bar(
            show_progress, f"perft {position.game_id} depth {depth}", "nodes") as bar:
        start = time.perf_counter()
        if want_divide:
            counts = divide(position, depth, backend=backend, progress=bar, **workers)
            nodes = sum(counts.values())
        else:
            counts, nodes = None, perft(position, depth, backend=backend, progress=bar,
                                        **workers)
        return nodes, counts, time.perf_counter() - start


def run_playouts(position: Any, games: int, seed: int, max_plies: int, backend: str,
                 show_progress: bool, args: argparse.Namespace) -> tuple[dict[str, int], float]:
    """A playout tally and the seconds it took, with a progress bar on stderr if asked."""
    check_playout_args(games, seed, max_plies, args.first_game)  # before any worker starts
    with worker_options(args) as workers, _progress_bar(
            show_progress, f"playouts {position.game_id}", "games") as bar:
        start = time.perf_counter()
        tally = playouts(position, games, seed=seed, max_plies=max_plies,
                         first_game=args.first_game, backend=backend, progress=bar, **workers)
        return tally, time.perf_counter() - start
