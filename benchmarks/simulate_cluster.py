"""Replay a recorded split df-pn solve on a model cluster of W workers (docs/solve.md,
"Splitting df-pn").

    python benchmarks/simulate_cluster.py RECORD [WORKERS...] [--latency SECONDS]

RECORD is a file written by ``benchmarks/bench_dfpn_split.py --record``: a
summary line, then one line per job with its question, the job whose result
made its leaf (``parent``), the master's CPU seconds before its dispatch
(``master``), its nodes and CPU ``seconds``.  The replay runs the same jobs on
W identical workers (default 1, 2, 10, 100, 1000):

* a job may start once the result of its parent job has reached the master
  (its leaf exists), and once the job that settled the previous question has
  (the questions are asked one after the other); among the jobs ready, the
  earliest of the recording goes first;
* the master is one thread: each dispatch costs it the job's recorded
  ``master`` seconds (selection, expansion, the update), one after the other,
  and each result reaches it ``--latency`` seconds after the job ends
  (default 0; a dask cluster's round trip is a few milliseconds);
* a job runs for its recorded CPU seconds.

It prints, for each W, the modelled wall clock, the speed-up over one worker
running the same jobs (and over df-pn in one thread, if the record's summary
has ``single_cpu``), the efficiency (the jobs' CPU seconds over W times the
wall clock), the workers' mean number busy, and what bounds the wall clock
from below: the critical path (the longest chain of jobs through their
parents, with the master's costs on it) and the master's total.  The model
replays one recorded run: a cluster of W workers would choose other leaves
(more of them searched in vain while others are busy), so the efficiency it
gives for W far above the recording's is an upper bound.
"""
from __future__ import annotations

import argparse
import heapq
import json
from dataclasses import dataclass


@dataclass
class Job:
    job: int
    question: int
    parent: int
    master: float
    seconds: float
    settles: bool


def load(path: str) -> tuple[dict[str, object], list[Job]]:
    with open(path, encoding="utf-8") as lines:
        summary = json.loads(next(lines))
        jobs = [Job(int(r["job"]), int(r["question"]), int(r["parent"]), float(r["master"]),
                    float(r["seconds"]), bool(r["settles"]))
                for r in map(json.loads, lines)]
    jobs.sort(key=lambda j: j.job)
    return summary, jobs


def critical_path(jobs: list[Job]) -> float:
    """The longest chain of (master cost + job) through parents and question order."""
    finish: dict[int, float] = {}
    settled_at: dict[int, float] = {}
    for job in jobs:     # in recorded order: a parent ends before its child starts
        start = finish.get(job.parent, 0.0)
        start = max(start, settled_at.get(job.question - 1, 0.0))
        finish[job.job] = start + job.master + job.seconds
        if job.settles:
            settled_at[job.question] = finish[job.job]
    return max(finish.values(), default=0.0)


def replay(jobs: list[Job], workers: int, latency: float) -> tuple[float, float]:
    """(wall clock, mean busy workers) of the recorded jobs on ``workers`` workers."""
    by_number = {job.job: job for job in jobs}
    children: dict[int, list[int]] = {}
    for job in jobs:
        children.setdefault(job.parent, []).append(job.job)
    questions = sorted({job.question for job in jobs})
    first_of = {q: [j.job for j in jobs if j.question == q and j.parent == -1] for q in questions}
    done_parents: set[int] = set()
    ready: list[int] = []                     # heap of recorded numbers
    for q in questions[:1]:
        for number in first_of[q]:
            heapq.heappush(ready, number)
    # also jobs whose parent is not in the record (-1 or a job of an answered question)
    pending = {j.job for j in jobs}
    events: list[tuple[float, int]] = []      # (time a result reaches the master, job)
    free, now, master_free, busy_time = workers, 0.0, 0.0, 0.0
    open_question = questions[0] if questions else 0
    while pending:
        while ready and free:
            number = heapq.heappop(ready)
            job = by_number[number]
            start = max(now, master_free) + job.master
            master_free = start
            free -= 1
            busy_time += job.seconds
            heapq.heappush(events, (start + job.seconds + latency, number))
        if not events:
            # nothing runs: release the next question's first jobs (a record cut short)
            later = [q for q in questions if q > open_question]
            if not later:
                break
            open_question = later[0]
            for n in first_of[open_question]:
                heapq.heappush(ready, n)
            continue
        now, number = heapq.heappop(events)
        free += 1
        pending.discard(number)
        done_parents.add(number)
        job = by_number[number]
        for child in children.get(number, []):
            if by_number[child].question == open_question:
                heapq.heappush(ready, child)
        if job.settles and job.question == open_question:
            later = [q for q in questions if q > open_question]
            if later:
                open_question = later[0]
                for n in first_of[open_question]:
                    heapq.heappush(ready, n)
                # a job of the new question whose parent ended already
                for j in jobs:
                    if j.question == open_question and j.parent in done_parents:
                        heapq.heappush(ready, j.job)
    wall = max(now, master_free)
    return wall, busy_time / wall if wall else 0.0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("record")
    parser.add_argument("workers", nargs="*", type=int, default=[1, 2, 10, 100, 1000])
    parser.add_argument("--latency", type=float, default=0.0)
    args = parser.parse_args()
    summary, jobs = load(args.record)
    work = sum(job.seconds for job in jobs)
    master = sum(job.master for job in jobs)
    path = critical_path(jobs)
    print(f"{summary['position']}: {summary['result']}, recorded with {summary['jobs']} "
          f"workers: {len(jobs)} jobs of {summary['job_nodes']:,} nodes at most, "
          f"{summary['nodes']:,} nodes, jobs' CPU {work:.2f} s, master {master:.2f} s")
    print(f"lower bounds on the wall clock: critical path {path:.2f} s, master {master:.2f} s")
    one, _ = replay(jobs, 1, args.latency)
    single = summary.get("single_cpu")
    print("workers  wall (s)  speed-up  vs one thread  efficiency  busy")
    for w in args.workers:
        wall, busy = replay(jobs, w, args.latency)
        versus = f"{float(str(single)) / wall:12.2f}x" if single else f"{'':13}"
        print(f"{w:7}  {wall:8.2f}  {one / wall:7.2f}x {versus}  {work / (w * wall):10.3f}"
              f"  {busy:5.1f}")


if __name__ == "__main__":
    main()
