"""Perft, divide and playouts split into tasks for threads, processes and dask (docs/scale.md).

A task is plain data, so it can run in a thread, another process or on
another machine:

* perft: ``(position text, remaining depth)``.  The tree is expanded in the
  calling thread to a split depth chosen from a node estimate, so that there
  are many more tasks than workers; identical positions reached by different
  move orders are counted once and their count multiplied by the number of
  paths to them (exact, since perft depends on the position only);
* playouts: ``(position text, games, seed, ply limit, first game)``: game
  ``k`` of a batch always starts its generator from ``seed + k * 2**32``
  (docs/rules.md §6.2), so ranges of game indices add up, field by field, to
  the tally of the whole batch.

Tasks are sent largest first so that the last one does not run alone.
Results are exact whatever the split: a task that fails raises its error in
the caller, with a note naming the task's position (dask re-runs lost tasks
by itself).  Ctrl-C (or any exception) while waiting stops every worker:
threads through ``katra._core.cancel_jobs()``, process pools by terminating
their workers, dask by cancelling the futures and stopping the run's tasks
on the workers.
"""
from __future__ import annotations

import concurrent.futures as cf
import importlib
import math
import os
import sys
import threading
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, NoReturn

from ._backends import backend_module

#: ``jobs`` may ask for at most this many threads.
MAX_JOBS = 4096

#: Aim for this many tasks per worker (largest first), so that the work evens out.
TASKS_PER_WORKER = 16

#: A perft task is split further only while its subtree stays above this many
#: nodes, by kind of worker: the overhead of a task is tens of microseconds on
#: a thread, a fraction of a millisecond in a process, milliseconds on dask
#: (docs/scale.md).
MIN_TASK_NODES = {"threads": 1 << 15, "processes": 1 << 20, "dask": 1 << 22}

#: The fewest games in a playout task, by kind of worker.
MIN_TASK_GAMES = {"threads": 16, "processes": 256, "dask": 1024}

_TALLY_KEYS = ("games", "south_wins", "north_wins", "draws", "unfinished", "plies")


class ArgumentTypeError(TypeError, ValueError):
    """An argument of the wrong type (both a ``TypeError`` and a ``ValueError``)."""


class TaskInterrupted(Exception):
    """A task stopped by Ctrl-C or ``cancel_jobs()`` where it ran (an ``Exception``, so a
    dask worker survives it); the caller raises ``KeyboardInterrupt`` or ``JobCancelled``."""

    def __init__(self, cancelled: bool) -> None:
        super().__init__("the task was cancelled" if cancelled else "the task was interrupted")
        self.cancelled = cancelled

    def __reduce__(self) -> tuple[Any, tuple[bool]]:
        return (TaskInterrupted, (self.cancelled,))


def usable_cores() -> int:
    """The cores this process may run on (``os.process_cpu_count()`` where it exists)."""
    count: Callable[[], int | None] | None = getattr(os, "process_cpu_count", None)
    if count is not None:
        n = count()
    elif hasattr(os, "sched_getaffinity"):
        n = len(os.sched_getaffinity(0))
    else:
        n = os.cpu_count()
    return max(1, n or 1)


def check_jobs(jobs: object) -> int:
    """The number of threads ``jobs`` asks for: an int 0..MAX_JOBS, 0 meaning every usable core."""
    if isinstance(jobs, bool) or not isinstance(jobs, int):
        raise ArgumentTypeError(f"jobs must be an int (0: every usable core), "
                                f"not {type(jobs).__name__}")
    if not 0 <= jobs <= MAX_JOBS:
        raise ValueError(f"jobs must be in 0..{MAX_JOBS} (0: every usable core), got {jobs}")
    return jobs or usable_cores()


def is_dask_client(executor: object) -> bool:
    """Whether ``executor`` is a ``dask.distributed.Client`` (without importing dask)."""
    distributed = sys.modules.get("distributed")
    return distributed is not None and isinstance(executor, distributed.Client)


def _is_client_executor(executor: object) -> bool:
    distributed = sys.modules.get("distributed.cfexecutor")
    return distributed is not None and isinstance(executor, distributed.ClientExecutor)


def check_executor(executor: object, jobs: object) -> None:
    """``executor`` is None, a ``concurrent.futures.Executor`` or a dask ``Client``."""
    if executor is None:
        return
    if not (isinstance(executor, cf.Executor) or is_dask_client(executor)):
        raise ArgumentTypeError(f"executor must be a concurrent.futures.Executor or a "
                                f"dask.distributed.Client, not {type(executor).__name__}")
    if jobs != 1:
        raise ValueError("give jobs or executor, not both (the executor has its own workers)")


# ----------------------------------------------------------------- the tasks themselves

def perft_task(backend: str, text: str, depth: int) -> int:
    """perft(position text, depth) on the backend: one task."""
    module = backend_module(backend)
    return int(module.perft(module.Position.from_text(text), depth))


def playouts_task(backend: str, text: str, games: int, seed: int, max_plies: int,
                  first_game: int) -> dict[str, int]:
    """Games ``first_game .. first_game + games - 1`` of the batch seeded ``seed``: one task."""
    module = backend_module(backend)
    return dict(module.playouts(module.Position.from_text(text), games, seed, max_plies,
                                first_game))


_TASKS: dict[str, Callable[..., Any]] = {"perft": perft_task, "playouts": playouts_task}


def register_task(kind: str, task: Callable[..., Any]) -> None:
    """Make ``task`` runnable as ``kind`` by the workers.  A module that defines
    tasks registers them when imported, and importing katra imports it, so
    every worker process knows them (katra.api._solve: ``solve``)."""
    _TASKS[kind] = task


# Runs with tasks in this process (threads of a dask worker): run id -> tasks running.
_running_runs: dict[str, int] = {}
_running_lock = threading.Lock()


def run_task(run_id: str, kind: str, args: tuple[Any, ...]) -> Any:
    """Run one task where it was sent; Ctrl-C or ``cancel_jobs()`` there raise TaskInterrupted."""
    with _running_lock:
        _running_runs[run_id] = _running_runs.get(run_id, 0) + 1
    try:
        return _TASKS[kind](*args)
    except KeyboardInterrupt as exc:
        from katra._core import JobCancelled
        raise TaskInterrupted(isinstance(exc, JobCancelled)) from None
    finally:
        with _running_lock:
            _running_runs[run_id] -= 1
            if not _running_runs[run_id]:
                del _running_runs[run_id]


def stop_run(run_id: str) -> bool:
    """Stop the core jobs of this process if some task of ``run_id`` runs here (on a dask worker).

    ``cancel_jobs()`` stops every core job of the process: give katra's dask
    workers one thread each (``--nthreads 1``) so that no other run shares it.
    """
    with _running_lock:
        running = run_id in _running_runs
    if running:
        from katra._core import cancel_jobs
        cancel_jobs()
    return running


# ----------------------------------------------------------------- the workers

@dataclass
class Workers:
    """Where the tasks run: ``jobs`` threads of this process, an executor or a dask client."""

    jobs: int = 1
    executor: Any = None
    kind: str = field(init=False)
    count: int = field(init=False)

    def __post_init__(self) -> None:
        executor = self.executor
        if executor is None:
            self.kind, self.count = "threads", self.jobs
        elif is_dask_client(executor):
            self.kind, self.count = "dask", _dask_threads(executor)
        elif _is_client_executor(executor):
            self.kind, self.count = "dask", _dask_threads(executor._client)
        elif isinstance(executor, cf.ThreadPoolExecutor):
            self.kind, self.count = "threads", executor._max_workers
        elif isinstance(executor, cf.ProcessPoolExecutor):
            self.kind, self.count = "processes", getattr(executor, "_max_workers", 1)
        else:
            self.kind, self.count = "processes", usable_cores()
        self.count = max(1, self.count)

    def run(self, kind: str, tasks: list[tuple[Any, ...]],
            on_result: Callable[[int, Any], None], describe: Callable[[int], str]) -> None:
        """Run ``_TASKS[kind](*tasks[i])`` for every i; ``on_result(i, value)`` as each ends.

        ``tasks`` are in the order they should start (largest first).  On an
        error or Ctrl-C every worker is stopped before the exception leaves.
        """
        run_id = uuid.uuid4().hex
        if self.kind == "dask" and not _is_client_executor(self.executor):
            _run_on_dask(self.executor, run_id, kind, tasks, on_result, describe)
        elif self.executor is None and self.jobs == 1:
            _run_inline(kind, tasks, on_result, describe)
        elif self.executor is None:
            with cf.ThreadPoolExecutor(self.jobs, thread_name_prefix="katra") as pool:
                _run_on_executor(pool, run_id, kind, tasks, on_result, describe, own=True)
        else:
            _run_on_executor(self.executor, run_id, kind, tasks, on_result, describe,
                             own=False)


def _dask_threads(client: Any) -> int:
    return sum(client.nthreads().values())


def _raise_for(exc: BaseException, task: str) -> NoReturn:
    """Raise a task's error in the caller, with a note naming the task."""
    if isinstance(exc, TaskInterrupted):
        if exc.cancelled:
            from katra._core import JobCancelled
            raise JobCancelled(f"{task} was cancelled by katra._core.cancel_jobs()") from None
        raise KeyboardInterrupt() from None
    note = f"katra: while running {task}"
    if hasattr(exc, "add_note"):
        exc.add_note(note)
    else:  # Python 3.10: the same attribute, read by tools that know PEP 678
        # setattr: __notes__ is typed only on 3.11+
        setattr(exc, "__notes__", [*getattr(exc, "__notes__", []), note])  # noqa: B010
    raise exc


def _run_inline(kind: str, tasks: list[tuple[Any, ...]], on_result: Callable[[int, Any], None],
                describe: Callable[[int], str]) -> None:
    """One task after the other in the calling thread (Ctrl-C reaches them directly)."""
    for i, args in enumerate(tasks):
        try:
            value = _TASKS[kind](*args)
        except Exception as exc:
            _raise_for(exc, describe(i))
        on_result(i, value)


def _run_on_executor(executor: cf.Executor, run_id: str, kind: str,
                     tasks: list[tuple[Any, ...]], on_result: Callable[[int, Any], None],
                     describe: Callable[[int], str], own: bool) -> None:
    futures: dict[cf.Future[Any], int] = {}
    try:
        for i, args in enumerate(tasks):
            futures[executor.submit(run_task, run_id, kind, args)] = i
        for future in cf.as_completed(futures):
            i = futures[future]
            exc = future.exception()
            if exc is not None:
                _raise_for(exc, describe(i))
            on_result(i, future.result())
    except BaseException:
        _stop_executor(executor, list(futures), own, run_id)
        raise


def _stop_executor(executor: cf.Executor, futures: list[cf.Future[Any]], own: bool,
                   run_id: str) -> None:
    """Cancel what has not started and stop what runs (within milliseconds for threads)."""
    for future in futures:
        future.cancel()
    if isinstance(executor, cf.ThreadPoolExecutor):
        if own:
            executor.shutdown(wait=False, cancel_futures=True)
        from katra._core import cancel_jobs
        # A worker may have taken a task just before the cancel: cancel until all are
        # done (a cancelled future is done(), though cf.wait does not count it).
        while running := [f for f in futures if not f.done()]:
            cancel_jobs()
            cf.wait(running, timeout=0.02)
    elif isinstance(executor, cf.ProcessPoolExecutor):
        if any(not f.done() for f in futures):  # tasks run: stop the workers
            terminate = getattr(executor, "terminate_workers", None)  # Python 3.14
            if terminate is not None:
                terminate()
            else:  # before shutdown, which forgets them
                processes = list((getattr(executor, "_processes", None) or {}).values())
                executor.shutdown(wait=False, cancel_futures=True)
                for process in processes:
                    process.terminate()
    elif _is_client_executor(executor):
        _stop_dask_run(executor._client, run_id)  # type: ignore[attr-defined]


def _run_on_dask(client: Any, run_id: str, kind: str, tasks: list[tuple[Any, ...]],
                 on_result: Callable[[int, Any], None], describe: Callable[[int], str]) -> None:
    as_completed: Any = importlib.import_module("distributed").as_completed
    futures = []
    try:
        # Unique keys (a run id); the scheduler starts tasks of equal priority in the
        # order they were submitted, largest first.  retries re-runs a task that another
        # run's cancellation stopped; lost workers are handled by the scheduler itself.
        futures = client.map(run_task, [run_id] * len(tasks), [kind] * len(tasks), tasks,
                             key=[f"katra-{kind}-{run_id}-{i}" for i in range(len(tasks))],
                             pure=False, retries=2)
        index = {future.key: i for i, future in enumerate(futures)}
        # Finished futures in batches, one gather each: a round trip per result costs
        # milliseconds.
        for batch in as_completed(futures, loop=client.loop).batches():
            for future in batch:
                if future.status == "error":
                    _raise_for(future.exception(), describe(index[future.key]))
            for future, value in zip(batch, client.gather(batch)):
                on_result(index[future.key], value)
    except BaseException:
        _stop_dask(client, futures, run_id)
        raise


def _stop_dask(client: Any, futures: list[Any], run_id: str) -> None:
    if futures:
        client.cancel(futures, force=True)
    _stop_dask_run(client, run_id)


def _stop_dask_run(client: Any, run_id: str) -> None:
    """Stop the tasks of ``run_id`` that workers are running (cancelling does not)."""
    try:
        client.run(stop_run, run_id, on_error="ignore")
    except Exception:  # the scheduler is gone: nothing runs any more
        pass


# ----------------------------------------------------------------- perft and divide

@dataclass
class PerftPlan:
    """The tree cut at ``split_depth``: distinct positions and their paths per root action."""

    root_actions: list[int]
    depth: int                                  # remaining depth of every task
    positions: list[str]                        # largest first
    paths: list[dict[int, int]]                 # root action -> paths to the position


def _expand(module: Any, frontier: dict[str, dict[int, int]]) -> dict[str, dict[int, int]]:
    """The distinct children of every position, paths merged per root action."""
    children: dict[str, dict[int, int]] = {}
    for text, paths in frontier.items():
        position = module.Position.from_text(text)
        for action in position.legal_actions():
            child = position.copy()
            child.apply(action)
            merged = children.setdefault(child.text(), {})
            for root_action, count in paths.items():
                merged[root_action] = merged.get(root_action, 0) + count
    return children


def plan_perft(backend: str, text: str, depth: int, workers: int, min_task_nodes: int,
               split_depth: int | None = None) -> PerftPlan:
    """Cut the tree of ``text`` (``depth >= 2``) into tasks of depth ``depth - split``.

    The split depth is ``split_depth`` if given (1..depth-1), else the first
    depth at which there are ``TASKS_PER_WORKER * workers`` distinct positions,
    or past which tasks would fall under ``min_task_nodes`` (estimated from the
    branching factor so far).
    """
    module = backend_module(backend)
    root = module.Position.from_text(text)
    root_actions = root.legal_actions()
    frontier: dict[str, dict[int, int]] = {}
    for action in root_actions:
        child = root.copy()
        child.apply(action)
        merged = frontier.setdefault(child.text(), {})
        merged[action] = merged.get(action, 0) + 1
    level, paths_before, paths_now = 1, 1, len(root_actions)
    target = TASKS_PER_WORKER * workers
    while frontier and level < depth - 1:
        if split_depth is not None:
            if level >= split_depth:
                break
        else:
            branching = max(paths_now / paths_before, 1.0)
            total = paths_now * branching ** (depth - level)
            if len(frontier) >= target or total / (len(frontier) * branching) < min_task_nodes:
                break
        frontier = _expand(module, frontier)
        level += 1
        paths_before, paths_now = paths_now, sum(sum(p.values()) for p in frontier.values())
    remaining = depth - level
    # Largest first, by the size of the task's first plies (finished positions count 0).
    sizes = {}
    for position_text in frontier:
        position = module.Position.from_text(position_text)
        sizes[position_text] = int(module.perft(position, min(2 if backend == "core" else 1,
                                                              remaining)))
    order = sorted((t for t in frontier if sizes[t]), key=lambda t: -sizes[t])
    return PerftPlan(root_actions, remaining, order, [frontier[t] for t in order])


def run_perft(backend: str, text: str, depth: int, workers: Workers, *,
              on_start: Callable[[int], None] | None = None,
              on_nodes: Callable[[int, int], None] | None = None,
              split_depth: int | None = None,
              min_task_nodes: int | None = None) -> dict[int, int]:
    """``divide`` of ``text`` (``depth >= 2``) as ``{root action: count}``, by tasks.

    ``on_start(tasks)`` once the tree is cut, ``on_nodes(tasks_done, nodes)``
    after each task (its nodes times the paths to it).  Returns counts for
    every legal root action, in action order.
    """
    if min_task_nodes is None:
        min_task_nodes = MIN_TASK_NODES[workers.kind]
    plan = plan_perft(backend, text, depth, workers.count, min_task_nodes, split_depth)
    if on_start is not None:
        on_start(len(plan.positions))
    counts = dict.fromkeys(plan.root_actions, 0)
    done = [0]

    def add(i: int, nodes: int) -> None:
        for action, paths in plan.paths[i].items():
            counts[action] += nodes * paths
        done[0] += 1
        if on_nodes is not None:
            on_nodes(done[0], nodes * sum(plan.paths[i].values()))

    tasks = [(backend, position, plan.depth) for position in plan.positions]
    workers.run("perft", tasks, add,
                lambda i: f"perft depth {plan.depth} of the position {plan.positions[i]!r}")
    return counts


# ----------------------------------------------------------------- playouts

def playout_ranges(games: int, first_game: int, workers: Workers,
                   chunk: int | None = None) -> list[tuple[int, int]]:
    """``(first game, games)`` ranges covering ``first_game .. first_game + games - 1``."""
    if chunk is None:
        chunk = max(MIN_TASK_GAMES[workers.kind],
                    math.ceil(games / (TASKS_PER_WORKER * workers.count)))
    return [(start, min(chunk, first_game + games - start))
            for start in range(first_game, first_game + games, chunk)]


def run_playouts(backend: str, text: str, games: int, seed: int, max_plies: int,
                 first_game: int, workers: Workers, *,
                 on_games: Callable[[int, int], None] | None = None,
                 chunk: int | None = None) -> dict[str, int]:
    """The tally of one ``playouts`` call, computed range by range on the workers."""
    ranges = playout_ranges(games, first_game, workers, chunk)
    tally = dict.fromkeys(_TALLY_KEYS, 0)
    done = [0]

    def add(i: int, part: dict[str, int]) -> None:
        for key in _TALLY_KEYS:
            tally[key] += part[key]
        done[0] += 1
        if on_games is not None:
            on_games(done[0], part["games"])

    tasks = [(backend, text, n, seed, max_plies, start) for start, n in ranges]
    workers.run("playouts", tasks, add,
                lambda i: (f"playouts of games {ranges[i][0]}..{sum(ranges[i]) - 1} "
                           f"(seed {seed}) from the position {text!r}"))
    return tally
