"""df-pn split over worker threads against df-pn in one thread (docs/solve.md, "Splitting df-pn").

    python benchmarks/bench_dfpn_split.py [PAIRS] [--position TEXT] [--jobs N] [--job-nodes N]
                                          [--tt-bits B] [--one split] [--speculate on|off]
    python benchmarks/bench_dfpn_split.py --record FILE [--position TEXT] [--jobs N] [--job-nodes N]

The first form runs one worker and N workers (``--jobs``, default 2) in turn,
PAIRS times (default 3), each run in a fresh process, the order alternating
(1, N, N, 1, ...): one worker is ``katra.solve(POSITION)``, df-pn in one
thread (``--one split``: the split on a thread pool of one worker instead,
to tell the split's own cost from the workers'); N workers are the split over
N threads sharing one table (``--speculate off``: idle workers wait instead of
taking runner-ups).  It prints each run's result, nodes, CPU
seconds (all the process's threads), wall clock and, for a split, its jobs
and nodes per job; then the medians and their ratios (N workers over one).

The second runs one split solve and writes each job's record
(``katra.api._dfpn_jobs.JobRecord``: its question, the job that made its
leaf, the master's CPU seconds before it, its nodes and CPU seconds) and a
summary line (with the nodes and CPU seconds of df-pn in one thread on the
same position, run first) to FILE, one JSON object a line, for
``benchmarks/simulate_cluster.py``.

The position defaults to :data:`MINUTE`, a Katro 4x6 mid-game that df-pn settles
in about 12 s of one core (100 million nodes).  The measurement of the target (two
workers at least 1.7x one on a solve of a minute), on an idle machine of at
least two cores, is the wall clock of

    nice -n 0 python benchmarks/bench_dfpn_split.py 5 --jobs 2

(5 pairs, about 3 minutes): its last line's "speed-up (wall 1 / wall 2)"
of the medians.  On a shared machine the wall clock means little: read the
nodes and CPU ratios instead (the CPU over 2 bounds the speed-up on two free
cores: 2 / (CPU 2/1)), and the 2-worker runs' CPU/wall (2.0: both cores busy).
"""
from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
from dataclasses import asdict

#: A Katro 4x6 mid-game (South to move wins) that df-pn settles in about 12 s of
#: one core, 100 million nodes (docs/solve.md, "Splitting df-pn").
MINUTE = "katro-4x6 1,3,3,0,2,5/1,5,0,0,0,0/0,5,2,1,1,3/5,5,0,1,4,1 S"

_CHILD = """\
import concurrent.futures as cf, json, sys, time
import katra
from katra import _core
from katra.api._dfpn_jobs import SplitDfpn
from katra.api._parallel import Workers
from katra.api._solve import solve_unbounded
text, jobs, job_nodes, split, tt_bits = (sys.argv[1], int(sys.argv[2]), int(sys.argv[3]),
                                         sys.argv[4] == "split", int(sys.argv[5]) or None)
speculate = None if sys.argv[6] == "auto" else sys.argv[6] == "on"
wall, cpu = time.monotonic(), time.process_time()
records = []
if jobs == 1 and not split:
    r = katra.solve(text, tt_bits=tt_bits)
else:
    pool = cf.ThreadPoolExecutor(1) if jobs == 1 else None
    workers = Workers(executor=pool) if pool else Workers(jobs)
    search = SplitDfpn(workers, tt_bits, job_nodes=job_nodes or None, record=records,
                       speculate=speculate)
    r = solve_unbounded(_core.Position.from_text(text), None, None, tt_bits, False,
                        search=search, workers=workers)
    if pool:
        pool.shutdown()
print(json.dumps({"jobs": jobs, "result": r.describe(), "nodes": r.nodes,
                  "cpu": time.process_time() - cpu, "wall": time.monotonic() - wall,
                  "job_count": len(records),
                  "job_nodes": sum(j.nodes for j in records) / max(1, len(records)),
                  "master_nodes": r.nodes - sum(j.nodes for j in records)}))
"""


def run(text: str, jobs: int, job_nodes: int, one: str, tt_bits: int,
        speculate: str) -> dict[str, object]:
    done = subprocess.run([sys.executable, "-c", _CHILD, text, str(jobs), str(job_nodes), one,
                           str(tt_bits), speculate], capture_output=True, text=True, check=True)
    return dict(json.loads(done.stdout))


def compare(text: str, pairs: int, jobs: int, job_nodes: int, one: str, tt_bits: int,
            speculate: str) -> None:
    runs: dict[int, list[dict[str, object]]] = {1: [], jobs: []}
    for i in range(pairs):
        for workers in ((1, jobs) if i % 2 == 0 else (jobs, 1)):
            r = run(text, workers, job_nodes, one, tt_bits, speculate)
            runs[workers].append(r)
            split = (f", {r['job_count']} jobs of {float(str(r['job_nodes'])):,.0f} nodes, "
                     f"{r['master_nodes']:,} on the master (the line)" if r["job_count"] else "")
            busy = float(str(r["cpu"])) / float(str(r["wall"]))
            print(f"jobs={workers}: {r['result']}, {r['nodes']:,} nodes, "
                  f"CPU {r['cpu']:.2f} s, wall {r['wall']:.2f} s (CPU/wall {busy:.2f}){split}",
                  flush=True)
    med = {w: {k: statistics.median(float(str(r[k])) for r in rs) for k in ("nodes", "cpu", "wall")}
           for w, rs in runs.items()}
    for w in (1, jobs):
        busy = statistics.median(float(str(r["cpu"])) / float(str(r["wall"])) for r in runs[w])
        print(f"median jobs={w}: {med[w]['nodes']:,.0f} nodes, CPU {med[w]['cpu']:.2f} s, "
              f"wall {med[w]['wall']:.2f} s, CPU/wall {busy:.2f}")
    print(f"nodes {jobs}/1: {med[jobs]['nodes'] / med[1]['nodes']:.3f}, "
          f"CPU {jobs}/1: {med[jobs]['cpu'] / med[1]['cpu']:.3f}, "
          f"speed-up (wall 1 / wall {jobs}): {med[1]['wall'] / med[jobs]['wall']:.2f}x")


def record(text: str, path: str, jobs: int, job_nodes: int) -> None:
    import time

    import katra
    from katra import _core
    from katra.api._dfpn_jobs import JobRecord, SplitDfpn
    from katra.api._parallel import Workers
    from katra.api._solve import solve_unbounded

    single_cpu = time.thread_time()
    single = katra.solve(text)
    single_cpu = time.thread_time() - single_cpu
    records: list[JobRecord] = []
    workers = Workers(jobs)
    search = SplitDfpn(workers, None, job_nodes=job_nodes or None, record=records)
    wall, cpu = time.monotonic(), time.process_time()
    r = solve_unbounded(_core.Position.from_text(text), None, None, None, False, search=search,
                        workers=workers)
    wall, cpu = time.monotonic() - wall, time.process_time() - cpu
    with open(path, "w", encoding="utf-8") as out:
        out.write(json.dumps({"position": text, "jobs": jobs, "job_nodes": search.job_nodes,
                              "result": r.describe(), "nodes": r.nodes, "cpu": cpu,
                              "wall": wall, "single_nodes": single.nodes,
                              "single_cpu": single_cpu}) + "\n")
        for job in records:
            out.write(json.dumps(asdict(job)) + "\n")
    print(f"{r.describe()}: {len(records)} jobs, {r.nodes:,} nodes, CPU {cpu:.2f} s, "
          f"wall {wall:.2f} s -> {path}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("pairs", nargs="?", type=int, default=3)
    parser.add_argument("--position", default=MINUTE)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--job-nodes", type=int, default=0, help="nodes per job (0: default)")
    parser.add_argument("--tt-bits", type=int, default=0, help="the table's bits (0: default)")
    parser.add_argument("--one", choices=("thread", "split"), default="thread",
                        help="one worker: df-pn in one thread, or the split on one worker")
    parser.add_argument("--speculate", choices=("auto", "on", "off"), default="auto",
                        help="idle workers take runner-ups (auto: for jobs of 2**16 nodes or more)")
    parser.add_argument("--record", metavar="FILE")
    args = parser.parse_args()
    if args.record:
        record(args.position, args.record, args.jobs, args.job_nodes)
    else:
        compare(args.position, args.pairs, args.jobs, args.job_nodes, args.one, args.tt_bits,
                args.speculate)


if __name__ == "__main__":
    main()
