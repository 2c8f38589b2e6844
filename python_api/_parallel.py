"""Perft, divide and playouts on many workers: threads, processes and dask (docs/scale.md).

A job runs as one call unless a split can win: a cheap probe first
estimates its size (perft: counts of the first plies, extrapolated in
integers; playouts: the first games of the batch, which are part of the
answer), and only a job above the workers' minimum is split.  A task is
plain data, so it can run in a thread, another process or on another
machine (backend ``Position`` objects pickle as their text):

* perft: ``(position, remaining depth)``.  The tree is expanded in the
  calling thread to a split depth chosen from a node estimate, so that there
  are many more tasks than workers; identical positions reached by different
  move orders are counted once and their count multiplied by the number of
  paths to them (exact, since perft depends on the position only);
* playouts: ``(position, games, seed, ply limit, first game)``: game ``k`` of
  a batch always starts its generator from ``seed + k * 2**32``
  (docs/rules.md §6.2), so ranges of game indices add up, field by field, to
  the tally of the whole batch.

Tasks are sent largest first so that the last one does not run alone.
Results are exact whatever the split: a task that fails raises its error in
the caller, with a note naming the task's position (dask re-runs lost tasks
by itself).  Ctrl-C (or any exception) while waiting stops every worker:
threads through ``katra._core.cancel_jobs()``, process pools by terminating
their workers, dask by cancelling the futures and stopping the run's tasks
on the workers.  Arguments are checked by the caller (katra._limits) before
anything here runs.
"""
from __future__ import annotations

import concurrent.futures as cf
import importlib
import math
import queue
import sys
import threading
import time
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any, NoReturn

from katra._errors import ArgumentError, ArgumentTypeError
from katra._limits import check_jobs, usable_cores

from ._backends import JobCancelled, backend_module, cancel_jobs

#: Aim for this many tasks per worker (largest first), so that the work evens out.
TASKS_PER_WORKER = 16

#: A perft task is split further only while its subtree stays above this many
#: nodes, by kind of worker: the overhead of a task is tens of microseconds on
#: a thread, a fraction of a millisecond in a process, milliseconds on dask
#: (docs/scale.md).
MIN_TASK_NODES = {"threads": 1 << 15, "processes": 1 << 20, "dask": 1 << 22}

#: The fewest games in a playout task, by kind of worker.
MIN_TASK_GAMES = {"threads": 16, "processes": 256, "dask": 1024}

#: A job is split only if its estimated size reaches this, by kind of worker:
#: perft nodes visited (every ply's, 15 to 500 ns each on the core) and
#: playout plies (50 to 800 ns each).  Below it, splitting costs more than it
#: saves (thread pool, planning, tasks: docs/scale.md, "Small jobs").
MIN_SPLIT_NODES = {"threads": 200_000, "processes": 2_000_000, "dask": 20_000_000}
MIN_SPLIT_PLIES = {"threads": 50_000, "processes": 500_000, "dask": 5_000_000}

#: The probe that sizes a perft job counts at most this many nodes (well under
#: a millisecond on the core); a playout job is sized by its first games, until
#: they have played this many plies (they are part of the answer).
PROBE_NODES = 1024
PROBE_PLIES = 4096

#: One node or ply of the pure-Python reference costs about this many of the core's.
NODE_WEIGHT = {"core": 1, "reference": 100}

#: The longest the calling thread blocks while it waits for tasks: a Ctrl-C sent by
#: ``_thread.interrupt_main()`` is seen within this (a real SIGINT at once).
WAKE_SECONDS = 0.05

_TALLY_KEYS = ("games", "south_wins", "north_wins", "draws", "unfinished", "plies")

#: ``progress(tasks_done, tasks, amount)``: the amount (nodes or games) done so far.
Progress = Callable[[int, int, int], None]


class TaskInterrupted(Exception):
    """A task stopped by Ctrl-C or ``cancel_jobs()`` where it ran (an ``Exception``, so a
    dask worker survives it); the caller raises ``KeyboardInterrupt`` or ``JobCancelled``."""

    def __init__(self, cancelled: bool) -> None:
        super().__init__("the task was cancelled" if cancelled else "the task was interrupted")
        self.cancelled = cancelled

    def __reduce__(self) -> tuple[Any, tuple[bool]]:
        return (TaskInterrupted, (self.cancelled,))


def is_dask_client(executor: object) -> bool:
    """Whether ``executor`` is a ``dask.distributed.Client`` (without importing dask)."""
    distributed = sys.modules.get("distributed")
    return distributed is not None and isinstance(executor, distributed.Client)


def _is_client_executor(executor: object) -> bool:
    distributed = sys.modules.get("distributed.cfexecutor")
    return distributed is not None and isinstance(executor, distributed.ClientExecutor)


def workers_for(jobs: object, executor: object) -> Workers | None:
    """The workers ``jobs`` and ``executor`` ask for, checked; None for one call in this
    thread (``jobs=1`` or one usable core, no executor)."""
    threads = check_jobs(jobs) or usable_cores()
    if executor is None:
        return None if threads == 1 else Workers(threads)
    if not (isinstance(executor, cf.Executor) or is_dask_client(executor)):
        raise ArgumentTypeError(f"executor must be a concurrent.futures.Executor or a "
                                f"dask.distributed.Client, not {type(executor).__name__}")
    if jobs != 1:
        raise ArgumentError("give jobs or executor, not both (the executor has its own workers)")
    return Workers(executor=executor)


# ----------------------------------------------------------------- the tasks themselves

def perft_task(backend: str, position: Any, depth: int) -> int:
    """perft(position, depth) on the backend: one task."""
    return int(backend_module(backend).perft(position, depth))


def playouts_task(backend: str, position: Any, games: int, seed: int, max_plies: int,
                  first_game: int) -> dict[str, int]:
    """Games ``first_game .. first_game + games - 1`` of the batch seeded ``seed``: one task."""
    return dict(backend_module(backend).playouts(position, games, seed, max_plies, first_game))


_TASKS: dict[str, Callable[..., Any]] = {"perft": perft_task, "playouts": playouts_task}


def register_task(kind: str, task: Callable[..., Any]) -> None:
    """Make ``task`` runnable as ``kind`` by the workers.  A module that defines
    tasks registers them when imported, and importing katra imports it, so
    every worker process knows them (katra.api._solve_pool: ``solve``)."""
    _TASKS[kind] = task


# Runs with tasks in this process (threads of a dask worker): run id -> tasks running.
_running_runs: dict[str, int] = {}
# Runs stopped in this process (thread pools): a task of theirs that starts late returns.
_stopped_runs: set[str] = set()
_running_lock = threading.Lock()


def run_task(run_id: str, kind: str, args: tuple[Any, ...]) -> Any:
    """Run one task where it was sent; Ctrl-C or ``cancel_jobs()`` there raise TaskInterrupted."""
    with _running_lock:
        if run_id in _stopped_runs:     # a task of a run stopped before it could start
            raise TaskInterrupted(True)
        _running_runs[run_id] = _running_runs.get(run_id, 0) + 1
    try:
        return _TASKS[kind](*args)
    except KeyboardInterrupt as exc:
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

    @property
    def inline(self) -> bool:
        """The tasks run one after the other in the calling thread."""
        return self.executor is None and self.jobs == 1

    def run(self, kind: str, tasks: list[tuple[Any, ...]],
            on_result: Callable[[int, Any], None], describe: Callable[[int], str]) -> None:
        """Run ``_TASKS[kind](*tasks[i])`` for every i; ``on_result(i, value)`` as each ends.

        ``tasks`` are in the order they should start (largest first).  On an
        error or Ctrl-C every worker is stopped before the exception leaves.
        """
        run_id = uuid.uuid4().hex
        if self.kind == "dask" and not _is_client_executor(self.executor):
            _run_on_dask(self.executor, run_id, kind, tasks, on_result, describe)
        elif self.inline:
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
        for future in _as_completed(list(futures)):
            i = futures[future]
            exc = future.exception()
            if exc is not None:
                _raise_for(exc, describe(i))
            on_result(i, future.result())
    except BaseException:
        _stop_executor(executor, list(futures), own, run_id)
        raise


def _as_completed(futures: list[cf.Future[Any]]) -> Iterator[cf.Future[Any]]:
    """The futures as they end, like ``cf.as_completed``, waiting at most
    ``WAKE_SECONDS`` at a time: a Ctrl-C delivered without a signal
    (``_thread.interrupt_main()``: IDLE, a front end that runs Python code in a
    thread of its own) is raised only when the main thread runs Python code,
    never while it blocks on a lock."""
    done: queue.SimpleQueue[cf.Future[Any]] = queue.SimpleQueue()
    for future in futures:
        future.add_done_callback(done.put)
    for _ in futures:
        while True:
            try:
                yield done.get(timeout=WAKE_SECONDS)
                break
            except queue.Empty:
                pass


def _stop_executor(executor: cf.Executor, futures: list[cf.Future[Any]], own: bool,
                   run_id: str) -> None:
    """Cancel what has not started and stop what runs (within milliseconds for threads)."""
    for future in futures:
        future.cancel()
    if isinstance(executor, cf.ThreadPoolExecutor):
        # Tasks of this run that start from now on return at once.  Ctrl-C may land
        # between submit() and the bookkeeping of its future, so some task may run
        # untracked: the run's count of running tasks (run_task) covers it too.
        with _running_lock:
            _stopped_runs.add(run_id)
        if own:
            executor.shutdown(wait=False, cancel_futures=True)
        # A worker may have taken a task just before the cancel: cancel until all are
        # done (a cancelled future is done(), though cf.wait does not count it).
        while True:
            running = [f for f in futures if not f.done()]
            with _running_lock:
                untracked = _running_runs.get(run_id, 0)
            if not running and not untracked:
                break
            cancel_jobs()
            if running:
                cf.wait(running, timeout=0.02)
            else:
                time.sleep(0.02)
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


class TaskStream:
    """Tasks of one ``kind`` submitted one at a time to ``workers`` and collected as
    they end (split df-pn: katra.api._dfpn_jobs): ``submit(tag, args, describe)``,
    ``next()`` (a task's tag and value, or None after WAKE_SECONDS), ``stop()`` on
    an error or Ctrl-C (as ``Workers.run`` stops its tasks), ``close()``."""

    def __init__(self, workers: Workers, kind: str) -> None:
        self.kind = kind
        self.workers = workers
        self.run_id = uuid.uuid4().hex
        self.dask = workers.kind == "dask" and not _is_client_executor(workers.executor)
        self.own = workers.executor is None
        self.executor: Any = (cf.ThreadPoolExecutor(workers.jobs, thread_name_prefix="katra")
                              if self.own else workers.executor)
        self.done: queue.SimpleQueue[Any] = queue.SimpleQueue()
        self.running: dict[Any, tuple[Any, str]] = {}
        self.count = 0

    def submit(self, tag: Any, args: tuple[Any, ...], describe: str) -> None:
        if self.dask:
            future = self.executor.submit(run_task, self.run_id, self.kind, args, pure=False,
                                          key=f"katra-{self.kind}-{self.run_id}-{self.count}",
                                          retries=2)
        else:
            future = self.executor.submit(run_task, self.run_id, self.kind, args)
        self.count += 1
        self.running[future] = (tag, describe)
        future.add_done_callback(self.done.put)

    def next(self) -> tuple[Any, Any] | None:
        """The next task to end (its tag and value), waiting at most WAKE_SECONDS."""
        try:
            future = self.done.get(timeout=WAKE_SECONDS)
        except queue.Empty:
            return None
        tag, describe = self.running.pop(future)
        if self.dask:
            if future.status == "error":
                _raise_for(future.exception(), describe)
        else:
            exc = future.exception()
            if exc is not None:
                _raise_for(exc, describe)
        return tag, future.result()

    def stop(self) -> None:
        """Cancel what has not started and stop what runs."""
        futures = list(self.running)
        if self.dask:
            _stop_dask(self.executor, futures, self.run_id)
        else:
            _stop_executor(self.executor, futures, self.own, self.run_id)

    def close(self) -> None:
        if self.own:
            self.executor.shutdown(wait=True)


# ----------------------------------------------------------------- perft and divide

def _grow(level: int, num: int, den: int, steps: int, cap: int) -> int:
    """``level * (num / den) ** k`` summed over k = 1..steps, in integers, capped at ``cap``."""
    total = 0
    for _ in range(steps):
        level = level * num // den
        total += level
        if total >= cap or not level:
            break
    return min(total, cap)


def perft_size(module: Any, root: Any, depth: int, budget: int,
               cap: int) -> tuple[int, list[tuple[int, int]] | None]:
    """The nodes a perft of ``root`` to ``depth`` visits, estimated (capped at ``cap``).

    Counts depth 1, 2, ... in one call each while the next count is predicted
    to visit at most ``budget`` nodes, then extrapolates from the branching of
    the last two plies.  Returns the estimate and, when the probe reached
    ``depth``, the divide it counted there (the answer itself).
    """
    levels = [1, len(root.legal_actions())]     # perft(root, k) for k = 0, 1, ...
    counted: list[tuple[int, int]] | None = None
    while len(levels) <= depth and levels[-1]:
        if sum(levels) + _grow(levels[-1], levels[-1], levels[-2], 1, cap) > budget:
            break
        counted = [(int(a), int(n)) for a, n in module.divide(root, len(levels))]
        levels.append(sum(n for _, n in counted))
    known = len(levels) - 1
    estimate = min(sum(levels) + _grow(levels[-1], levels[-1], max(levels[-2], 1),
                                       depth - known, cap), cap)
    if known == depth and counted is not None:
        return estimate, counted
    if not levels[-1]:  # the tree ends before depth: every deeper count is 0
        return estimate, [(int(a), 0) for a in root.legal_actions()]
    return estimate, None


@dataclass
class PerftPlan:
    """The tree cut at ``split_depth``: distinct positions and their paths per root action."""

    root_actions: list[int]
    depth: int                                  # remaining depth of every task
    positions: list[Any]                        # backend Positions, largest first
    paths: list[dict[int, int]]                 # root action -> paths to the position


def _expand(frontier: dict[Any, dict[int, int]]) -> dict[Any, dict[int, int]]:
    """The distinct children of every position, paths merged per root action."""
    children: dict[Any, dict[int, int]] = {}
    for position, paths in frontier.items():
        for action in position.legal_actions():
            child = position.copy(stack=False)
            child.apply(action)
            merged = children.setdefault(child, {})
            for root_action, count in paths.items():
                merged[root_action] = merged.get(root_action, 0) + count
    return children


def plan_perft(backend: str, root: Any, depth: int, workers: int, min_task_nodes: int,
               split_depth: int | None = None) -> PerftPlan:
    """Cut the tree of the backend Position ``root`` (``depth >= 2``) into tasks of depth
    ``depth - split``.

    The split depth is ``split_depth`` if given (1..depth-1), else the first
    depth at which there are ``TASKS_PER_WORKER * workers`` distinct positions,
    or past which tasks would fall under ``min_task_nodes`` (estimated in
    integers from the branching factor so far).  Positions are dictionary
    keys: equal positions compare equal on both backends.
    """
    module = backend_module(backend)
    root_actions = [int(a) for a in root.legal_actions()]
    frontier: dict[Any, dict[int, int]] = {}
    for action in root_actions:
        child = root.copy(stack=False)
        child.apply(action)
        merged = frontier.setdefault(child, {})
        merged[action] = merged.get(action, 0) + 1
    level, paths_before, paths_now = 1, 1, len(root_actions)
    target = TASKS_PER_WORKER * workers
    while frontier and level < depth - 1:
        if split_depth is not None:
            if level >= split_depth:
                break
        else:
            # nodes per task one ply further: paths * branching ** (depth - level - 1) / tasks
            enough = min_task_nodes * len(frontier)
            below = _grow(paths_now, paths_now, max(paths_before, 1), depth - level - 1,
                          enough) < enough
            if len(frontier) >= target or below:
                break
        frontier = _expand(frontier)
        level += 1
        paths_before, paths_now = paths_now, sum(sum(p.values()) for p in frontier.values())
    remaining = depth - level
    # Largest first, by the size of the task's first plies (finished positions count 0).
    first_plies = min(2 if backend == "core" else 1, remaining)
    sizes = {position: int(module.perft(position, first_plies)) for position in frontier}
    order = sorted((p for p in frontier if sizes[p]), key=lambda p: -sizes[p])
    return PerftPlan(root_actions, remaining, order, [frontier[p] for p in order])


def count_divide(backend: str, root: Any, depth: int, workers: Workers | None,
                 progress: Progress | None = None) -> dict[int, int]:
    """``divide`` of the backend Position ``root`` as ``{root action: count}`` (depth >= 1):
    one call, unless ``workers`` are given and the job's estimated size makes a split pay."""
    module = backend_module(backend)
    if workers is not None or progress is not None:
        workers = workers or Workers(1)
        weight = NODE_WEIGHT[backend]
        # Inline tasks (one thread) only show progress: worth it for long jobs only.
        enough = MIN_SPLIT_NODES["dask" if workers.inline else workers.kind]
        size, counted = perft_size(module, root, depth, PROBE_NODES // weight,
                                   -(-enough // weight))
        if counted is None and size * weight >= enough:
            return run_perft(backend, root, depth, workers, progress=progress)
        if counted is not None:
            result = dict(counted)
            if progress is not None:
                progress(1, 1, sum(result.values()))
            return result
    result = {int(a): int(n) for a, n in module.divide(root, depth)}
    if progress is not None:
        progress(1, 1, sum(result.values()))
    return result


def run_perft(backend: str, root: Any, depth: int, workers: Workers, *,
              progress: Progress | None = None, split_depth: int | None = None,
              min_task_nodes: int | None = None) -> dict[int, int]:
    """``divide`` of the backend Position ``root`` (``depth >= 2``) as ``{root action:
    count}``, always split into tasks (``count_divide`` decides whether to).

    ``progress(tasks_done, tasks, nodes)`` once the tree is cut and after each
    task.  Returns counts for every legal root action, in action order.
    """
    if min_task_nodes is None:
        min_task_nodes = MIN_TASK_NODES[workers.kind]
    plan = plan_perft(backend, root, depth, workers.count, min_task_nodes, split_depth)
    tasks_total = len(plan.positions)
    if progress is not None:
        progress(0, tasks_total, 0)
    counts = dict.fromkeys(plan.root_actions, 0)
    done = [0, 0]  # tasks, nodes

    def add(i: int, nodes: int) -> None:
        for action, paths in plan.paths[i].items():
            counts[action] += nodes * paths
        done[0] += 1
        done[1] += nodes * sum(plan.paths[i].values())
        if progress is not None:
            progress(done[0], tasks_total, done[1])

    tasks = [(backend, position, plan.depth) for position in plan.positions]
    workers.run("perft", tasks, add,
                lambda i: f"perft depth {plan.depth} of the position {plan.positions[i].text()!r}")
    return counts


# ----------------------------------------------------------------- playouts

def _add_tally(tally: dict[str, int], part: Any) -> None:
    for key in _TALLY_KEYS:
        tally[key] += int(part[key])


def count_playouts(backend: str, root: Any, games: int, seed: int, max_plies: int,
                   first_game: int, workers: Workers | None,
                   progress: Progress | None = None) -> dict[str, int]:
    """The tally of games ``first_game .. first_game + games - 1`` from the backend
    Position ``root``: one call, unless ``workers`` are given and the first games
    (1, 2, 4, ... of them, part of the answer) show that a split of the rest pays."""
    module = backend_module(backend)
    if workers is None and progress is None:
        return dict(module.playouts(root, games, seed, max_plies, first_game))
    workers = workers or Workers(1)
    weight = NODE_WEIGHT[backend]
    enough = MIN_SPLIT_PLIES["dask" if workers.inline else workers.kind]
    tally = dict.fromkeys(_TALLY_KEYS, 0)
    batch = 1
    while tally["games"] < games and tally["plies"] * weight < PROBE_PLIES:
        n = min(batch, games - tally["games"])
        _add_tally(tally, module.playouts(root, n, seed, max_plies, first_game + tally["games"]))
        batch *= 2
    done, rest = tally["games"], games - tally["games"]
    if rest and tally["plies"] * rest // done * weight >= enough:
        part = run_playouts(backend, root, rest, seed, max_plies, first_game + done, workers,
                            progress=None if progress is None else (
                                lambda t, n, g: progress(t, n, done + g)))
    else:
        part = dict(module.playouts(root, rest, seed, max_plies, first_game + done))
        if progress is not None:
            progress(1, 1, games)
    _add_tally(tally, part)
    return tally


def playout_ranges(games: int, first_game: int, workers: Workers,
                   chunk: int | None = None) -> list[tuple[int, int]]:
    """``(first game, games)`` ranges covering ``first_game .. first_game + games - 1``."""
    if chunk is None:
        chunk = max(MIN_TASK_GAMES[workers.kind],
                    math.ceil(games / (TASKS_PER_WORKER * workers.count)))
    return [(start, min(chunk, first_game + games - start))
            for start in range(first_game, first_game + games, chunk)]


def run_playouts(backend: str, root: Any, games: int, seed: int, max_plies: int,
                 first_game: int, workers: Workers, *, progress: Progress | None = None,
                 chunk: int | None = None) -> dict[str, int]:
    """The tally of one ``playouts`` call from the backend Position ``root``, always
    computed range by range on the workers; ``progress(tasks_done, tasks, games)``."""
    ranges = playout_ranges(games, first_game, workers, chunk)
    tally = dict.fromkeys(_TALLY_KEYS, 0)
    done = [0]

    def add(i: int, part: dict[str, int]) -> None:
        _add_tally(tally, part)
        done[0] += 1
        if progress is not None:
            progress(done[0], len(ranges), tally["games"])

    if progress is not None:
        progress(0, len(ranges), 0)
    tasks = [(backend, root, n, seed, max_plies, start) for start, n in ranges]
    workers.run("playouts", tasks, add,
                lambda i: (f"playouts of games {ranges[i][0]}..{sum(ranges[i]) - 1} "
                           f"(seed {seed}) from the position {root.text()!r}"))
    return tally
