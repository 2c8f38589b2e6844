"""Perft and playouts for the command line: ``--jobs``, ``--scheduler`` and progress.

``--jobs N`` counts on N threads (default: every usable core; ``--jobs 1``
for one call in this thread), ``--scheduler ADDRESS`` sends the tasks to a
running dask scheduler and ``--scheduler local`` starts a
``distributed.LocalCluster`` for the run (docs/scale.md).  The work is split
by ``katra.api._parallel`` whenever it runs on workers or shows progress, and
the split never changes the answer.  Progress on a terminal counts finished
tasks and the nodes (or games) they add up to, across all workers.
"""
from __future__ import annotations

import argparse
import importlib
import logging
import os
import re
import signal
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from katra.api import divide, perft, playouts
from katra.api._parallel import MAX_JOBS, Workers, usable_cores
from katra.api._parallel import run_perft as split_perft
from katra.api._parallel import run_playouts as split_playouts
from katra.api.jobs import MAX_GAMES, MAX_PLIES, check_playout_options

#: Seconds to wait for a dask scheduler before giving up with a one-line error.
CONNECT_TIMEOUT = 3

_ADDRESS = re.compile(r"^(?:(tcp|tls|ws|wss|inproc|ucx)://)?[\w.\-\[\]:]+:\d{1,5}$")


def _whole(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None


def jobs_arg(text: str) -> int:
    """``--jobs``: 0..MAX_JOBS (0: every usable core)."""
    value = _whole(text)
    if not 0 <= value <= MAX_JOBS:
        raise argparse.ArgumentTypeError(f"expected 0..{MAX_JOBS} threads (0: every core), "
                                         f"got {value}")
    return value


def games_arg(text: str) -> int:
    """The number of playouts: 0..MAX_GAMES."""
    value = _whole(text)
    if not 0 <= value <= MAX_GAMES:
        raise argparse.ArgumentTypeError(f"expected 0..2**62 games, got {value}")
    return value


def max_plies_arg(text: str) -> int:
    """``--max-plies``: 0..MAX_PLIES, refused (never capped) above."""
    value = _whole(text)
    if not 0 <= value <= MAX_PLIES:
        raise argparse.ArgumentTypeError(f"expected a ply limit in 0..2**62, got {value}")
    return value


def first_game_arg(text: str) -> int:
    """``--first-game``: 0..MAX_GAMES - 1 (with the games, checked once both are known)."""
    value = _whole(text)
    if not 0 <= value < MAX_GAMES:
        raise argparse.ArgumentTypeError(f"expected a game number in 0..2**62-1, got {value}")
    return value


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
                             "'local' to start a dask LocalCluster (needs katra[dask])")


@contextmanager
def workers_for(args: argparse.Namespace) -> Iterator[Workers | None]:
    """The workers the options ask for (None: one call in this thread)."""
    from .common import UsageError
    if args.scheduler is None:
        # The pure-Python reference gains nothing from threads (the GIL): one by default.
        every_core = 1 if args.backend == "reference" and args.jobs is None else usable_cores()
        jobs = every_core if args.jobs in (None, 0) else args.jobs
        yield None if jobs == 1 else Workers(jobs)
        return
    if args.scheduler != "local" and args.jobs is not None:
        raise UsageError("katra: --jobs goes with --scheduler local only (a running "
                         "scheduler has its own workers)")
    with dask_client(args.scheduler, args.jobs) as client:
        yield Workers(executor=client)


@contextmanager
def dask_client(scheduler: str, jobs: int | None) -> Iterator[Any]:
    """A dask client on the scheduler, or on a LocalCluster of ``jobs`` one-thread workers."""
    from .common import CommandFailed, UsageError
    try:
        distributed: Any = importlib.import_module("distributed")
    except ImportError:
        raise CommandFailed("katra: --scheduler needs dask: pip install 'katra[dask]'") from None
    cluster = None
    # Ctrl-C while the cluster starts or the client connects (seconds at most) is held
    # back until both exist: interrupted half-way, dask leaves them hanging at exit.
    interrupted: list[int] = []
    previous = signal.signal(signal.SIGINT, lambda signum, frame: interrupted.append(signum))
    try:
        if scheduler == "local":
            cluster = distributed.LocalCluster(
                n_workers=jobs or usable_cores(), threads_per_worker=1, processes=True,
                host="127.0.0.1", dashboard_address=None, silence_logs=logging.ERROR)
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
    finally:
        signal.signal(signal.SIGINT, previous)
    try:
        if interrupted:  # Ctrl-C while the cluster started
            raise KeyboardInterrupt
        yield client
    except BaseException:
        if cluster is not None:  # Ctrl-C or an error: our workers have nothing left to do
            _kill_workers(cluster)
        raise
    finally:
        client.close()
        if cluster is not None:
            cluster.close()


def _kill_workers(cluster: Any) -> None:
    """Kill a LocalCluster's worker processes: closing it then takes milliseconds, not a second."""
    for nanny in list(getattr(cluster, "workers", {}).values()):
        pid = getattr(getattr(getattr(nanny, "process", None), "process", None), "pid", None)
        if pid is not None:
            try:
                os.kill(pid, signal.SIGKILL)
            except OSError:  # already gone
                pass


def run_perft(text: str, depth: int, backend: str, want_divide: bool, show_progress: bool,
              args: argparse.Namespace) -> tuple[int, dict[str, int] | None]:
    """The node count and (if asked) the per-move counts; progress on stderr if asked."""
    with workers_for(args) as workers:
        if depth < 2 or (workers is None and not show_progress):
            if want_divide:
                counts = divide(text, depth, backend=backend)
                return sum(counts.values()), counts
            return perft(text, depth, backend=backend), None
        from katra.api import State

        from .term import progress
        root = State.from_text(text, backend=backend)
        done = {"nodes": 0}
        with progress(f"perft {root.game.id} depth {depth}", 0, "tasks",
                      "{task.fields[nodes]:,} nodes", nodes=0) as bar:
            def step(tasks: int, nodes: int) -> None:
                done["nodes"] += nodes
                bar.advance(1, nodes=done["nodes"])
            by_action = split_perft(backend, text, depth, workers or Workers(1),
                                    on_start=lambda n: bar.update(total=n), on_nodes=step)
        counts = {root.action_text(action): n for action, n in by_action.items()}
        return sum(counts.values()), counts if want_divide else None


def run_playouts(text: str, games: int, seed: int, max_plies: int, backend: str,
                 show_progress: bool, args: argparse.Namespace) -> dict[str, int]:
    """A playout tally, with a progress bar on stderr if asked (same result either way)."""
    first_game = args.first_game
    check_playout_options(games, seed, max_plies, first_game)  # before any worker starts
    with workers_for(args) as workers:
        if games < 2 or (workers is None and not show_progress):
            return playouts(text, games, seed=seed, max_plies=max_plies,
                            first_game=first_game, backend=backend)
        from .term import progress
        with progress(f"playouts {text.split(' ')[0]}", games, "games") as bar:
            return split_playouts(backend, text, games, seed, max_plies, first_game,
                                  workers or Workers(1),
                                  on_games=lambda tasks, n: bar.advance(n))
