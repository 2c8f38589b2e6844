"""df-pn split over workers: job-level proof-number search (docs/solve.md, "Splitting df-pn").

For each question, this thread (the master) keeps the top of the proof tree
as a proof-number tree of Python objects; the workers (threads, a process
pool, a dask client: ``katra.api._parallel.Workers``) run df-pn jobs on
its leaves (Wu, Lin et al., job-level proof-number search).  The master
selects the most-proving leaf no job searches, from the root: at a node of
the question's player the child of least proof number, at the other's the
child of least disproof number, a leaf that a job searches counting as
proven (the "virtual win" of job-level search: a second job never goes
below a node of the question's player that one job already works for, but
the other children of the opponent's nodes, which a proof needs as well, are
searched at once).  With jobs of WIDE_JOBS nodes or more, when the virtual
win leaves a worker nothing, the worker speculates: the walk follows the
true numbers over the leaves no job searches (the runner-up of a node that a
job already works for), rather than leave the worker idle.  It gives the
job df-pn's thresholds down that path (1 + epsilon over the next child's
number; for those jobs a wider epsilon than the core's) and a node budget.  A job runs the
core's ``DfpnSolver.search`` on the leaf and sends back what it settled (a
proof and its depth, or a path-free disproof), or the leaf's numbers once
past its thresholds (the leaf stays a leaf: the master chooses again), or,
when the budget ran out, the numbers of the leaf's children from its table
(``DfpnSolver.children_numbers``, one call):
the master then expands the leaf, so the tree grows where the work is.  A
value is settled from proofs only, as in one thread
(``katra.api._dfpn.Settler``), so the outcome is the one df-pn
settles in one thread; the depth and the line follow the split's proofs.

The jobs that one process runs share one transposition table for the whole
solve (``_core.DfpnTable``, lockless): with threads, every worker reads what
the others stored, as one thread's df-pn reads its own; a process (pool or
dask) keeps a table of its own, shared by the jobs it runs at once (no
memory is shared between processes).  A proof file is written from the master:
the leaves of the proof tree are searched again in a table of its own, then
the tree above them, and the file is written from that table as in one
thread; the line alone is read from the jobs' table when they were threads.
"""
from __future__ import annotations

import time as _clock
import uuid
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from katra._errors import ArgumentError

from ._backends import DfpnSolver, DfpnTable
from ._dfpn import Dfpn, Settled, Settler
from ._parallel import TaskStream, Workers, register_task
from ._questions import Question, questions_for
from ._solve_pool import Progress, SolveProgress, SolverPool

__all__ = ["JOB_NODES", "JobResult", "JobRecord", "SplitDfpn"]

#: The core's "proven" / "disproven" proof number (DFPN_INF), and the loop ply of
#: a disproof that rests on no repetition above its node (DFPN_FREE) or on the
#: path's length (DFPN_CUT).
INF = (1 << 30) - 1
FREE = 1 << 30
CUT = -1

#: Nodes per job, by kind of worker: a job costs the master about a millisecond
#: (selection, expansion, the update), a thread a few microseconds more, a process
#: pool a fraction of a millisecond, dask a few milliseconds (docs/scale.md).
JOB_NODES = {"threads": 1 << 18, "processes": 1 << 20, "dask": 1 << 21}

#: The master's thresholds: the leaf's number up to the next leaf's times 1 + this
#: (df-pn's 1 + epsilon trick, Pawlewicz & Lew 2007), for jobs of WIDE_JOBS nodes
#: or more.  Wider than the core's 1/4 (CORE_EPSILON): a switch between siblings
#: costs the core nothing (their numbers are in its frame) but the master a job,
#: started again from the table; with 1/4, most jobs of 2**18 nodes stopped after
#: a few hundred, at children of the question's player's nodes, and the workers
#: waited on the master (docs/solve.md, "Splitting df-pn").
JOB_EPSILON = 1.0
CORE_EPSILON = 0.25

#: Jobs of at least this many nodes get JOB_EPSILON, and an idle worker
#: speculates (``_Tree.select``); smaller ones keep df-pn's own epsilon and
#: the virtual win alone.  With jobs of a few hundred nodes the master's tree does
#: most of the work, and wider thresholds or speculation only make it expand more
#: (a tree without the table's transpositions, which in Goré's cycles grew past
#: use); there a job's trip costs more than its nodes anyway.
WIDE_JOBS = 1 << 16


@dataclass(frozen=True)
class JobResult:
    """What a job found at its leaf: ``status`` 1 proven (``depth``: the
    proof's), 0 disproven (resting on no repetition above the leaf), -1
    neither: then ``numbers``, the leaf's ``(pn, dn)`` once they reached the
    thresholds, or (the budget stopped the job: None) ``children``, the
    ``(pn, dn, depth)`` of each child (in legal-action order) from the job's
    table; the ``nodes`` searched and the CPU ``seconds`` of the job's
    thread."""

    status: int
    depth: int
    numbers: tuple[int, int] | None
    children: tuple[tuple[int, int, int], ...]
    nodes: int
    seconds: float


#: The df-pn jobs' pool: one solver per job running at once, on one ``DfpnTable``.
DFPN_POOL = SolverPool(DfpnTable, lambda table: DfpnSolver(table=table))


def dfpn_job(backend: str, pos: Any, player: int, target: int, thresholds: tuple[int, int],
             max_nodes: int, tt_bits: int | None, session: str) -> JobResult:
    """One job: df-pn on the core Position ``pos`` (read, never changed: a
    thread pool gets the master's own, a process pool or dask a copy through
    its pickle, its text) until its numbers reach ``thresholds`` (pn, dn), or
    for at most ``max_nodes`` nodes, on this process's table for the split solve."""
    if backend != "core":
        raise ArgumentError("solve runs on the core only")
    solver = DFPN_POOL.acquire(session, tt_bits)
    try:
        before, cpu = int(solver.nodes), _clock.thread_time()
        status, depth, numbers = solver.search(pos, player, target, *thresholds, max_nodes)
        children: tuple[tuple[int, int, int], ...] = ()
        if numbers is None:
            children = tuple((1, 1, 0) if known is None else known
                             for known in solver.children_numbers(pos, player, target))
        return JobResult(int(status), int(depth), numbers, children,
                         int(solver.nodes) - before, _clock.thread_time() - cpu)
    finally:
        DFPN_POOL.release(session, solver)


register_task("dfpn", dfpn_job)


# ----------------------------------------------------------------- the master's tree

def _add(a: int, b: int) -> int:
    """a + b for proof numbers, as the core adds them."""
    if a >= INF or b >= INF:
        return INF
    return min(a + b, INF - 1)


def _combine(or_node: bool, numbers: Iterable[tuple[int, int]]) -> tuple[int, int]:
    """A node's (pn, dn) from its children's, as the core combines them: at a
    node of the question's player the least proof number and the sum of the
    disproof numbers, at the other's the sum of the proof numbers and the least
    disproof number."""
    least, total = INF, 0
    for pn, dn in numbers:
        mine, theirs = (pn, dn) if or_node else (dn, pn)
        least = min(least, mine)
        total = _add(total, theirs)
    return (least, total) if or_node else (total, least)


class _Node:
    """A position of the master's tree for one question."""

    __slots__ = ("pos", "parent", "action", "ply", "or_node", "children", "pn", "dn",
                 "depth", "loop", "free", "busy", "job", "vpn", "vdn")

    def __init__(self, pos: Any, parent: _Node | None, action: int, player: int) -> None:
        self.pos = pos
        self.parent = parent
        self.action = action
        self.ply: int = 0 if parent is None else parent.ply + 1
        self.or_node = int(pos.to_move) == player
        self.children: list[_Node] = []
        self.pn = self.dn = 1
        self.vpn = self.vdn = 1   # for the selection: a leaf a job searches counts as proven
        self.depth = 0            # proven: the proof's depth
        self.loop = FREE          # disproven: the shallowest ply of the path it rests on
        self.free = 1             # leaves below that are open and searched by no job
        self.busy = False         # a job searches it
        self.job = -1             # the job that expanded or settled it (-1: none)

    @property
    def settled(self) -> bool:
        return self.pn == 0 or self.dn == 0


class _Tree:
    """The master's proof-number tree of one question, rooted at the position solved."""

    def __init__(self, pos: Any, question: Question) -> None:
        self.question = question
        self.root = _Node(pos.copy(stack=False), None, -1, question.player)

    def expand(self, node: _Node, result: JobResult, job: int) -> None:
        """The children of node, with the numbers a job's table gave them; a child
        that repeats a position of the path is disproven for this path."""
        path = []
        above: _Node | None = node
        while above is not None:
            path.append(above)
            above = above.parent
        for i, action in enumerate(node.pos.legal_actions()):
            child = node.pos.copy(stack=False)
            child.apply(action)
            kid = _Node(child, node, int(action), self.question.player)
            kid.job = job
            at = next((p.ply for p in path if p.pos == child), -1)
            if at >= 0:
                kid.pn, kid.dn, kid.loop = INF, 0, at
            else:
                kid.pn, kid.dn, kid.depth = result.children[i]
            kid.free = 0 if kid.settled else 1
            kid.vpn, kid.vdn = kid.pn, kid.dn
            node.children.append(kid)
        node.job = job

    def update(self, node: _Node) -> None:
        """Node's numbers from its children, and every ancestor's, up to the root."""
        at: _Node | None = node
        while at is not None:
            kids = at.children
            if kids and not at.settled:
                at.pn, at.dn = _combine(at.or_node, ((kid.pn, kid.dn) for kid in kids))
                if at.pn == 0:      # OR: the shallowest proven child; AND: the deepest
                    depths = [kid.depth for kid in kids if kid.pn == 0]
                    at.depth = 1 + (min(depths) if at.or_node else max(depths))
                elif at.dn == 0:    # on what part of the path does the disproof rest?
                    loops = [kid.loop for kid in kids if kid.dn == 0]
                    loop = min(loops) if at.or_node else max([CUT, *loops])
                    at.loop = FREE if loop >= at.ply else loop
            if at.settled:
                at.free = 0
            elif kids:
                at.free = sum(kid.free for kid in kids)
            else:
                at.free = 0 if at.busy else 1
            if kids:
                at.vpn, at.vdn = _combine(at.or_node, ((kid.vpn, kid.vdn) for kid in kids))
            else:
                at.vpn, at.vdn = (0, INF) if at.busy else (at.pn, at.dn)
            at = at.parent

    def select(self, epsilon: float = CORE_EPSILON,
               speculate: bool = False) -> tuple[_Node, int, int] | None:
        """The most-proving open leaf that no job searches and its thresholds, or
        None.  The thresholds are df-pn's, from (INF, INF) at the root, over the
        children no job is busy with: at the node of the question's player, the
        child's proof number up to the next child's times 1 + ``epsilon`` and
        its disproof number up to what the node's leaves it; at the other's, the
        same with the numbers' roles exchanged.  Each at least one above the
        leaf's number (a job always searches).  A leaf that a job searches
        counts as proven (the virtual win), unless ``speculate``: then the
        walk follows the true numbers over the leaves no job searches, so an
        idle worker takes the next alternative of a node of the question's
        player that a job already works for (the runner-up df-pn would search
        next if that job fails)."""
        node = self.root
        if node.free == 0 or (node.vpn == 0 and not speculate):
            return None
        thpn = thdn = INF
        while node.children:
            best: _Node | None = None
            best_key = second = INF
            for kid in node.children:
                if kid.free and (speculate or kid.vpn):
                    if speculate:
                        key = kid.pn if node.or_node else kid.dn
                    else:
                        key = kid.vpn if node.or_node else kid.vdn
                    if best is None or key < best_key:
                        if best is not None:
                            second = best_key
                        best, best_key = kid, key
                    elif key < second:
                        second = key
            if best is None:
                return None
            narrow = INF if second >= INF else min(INF, second + int(second * epsilon) + 1)
            if node.or_node:
                thpn = min(thpn, narrow)
                thdn = INF if thdn >= INF else thdn - (node.dn - best.dn)
            else:
                thdn = min(thdn, narrow)
                thpn = INF if thpn >= INF else thpn - (node.pn - best.pn)
            node = best
        return node, min(INF, max(thpn, node.pn + 1, 2)), min(INF, max(thdn, node.dn + 1, 2))

    def line(self, plies: int) -> tuple[list[int], _Node]:
        """Moves down the proven root's proof tree (the question's player takes a
        child of least depth, the other a child of greatest) to a leaf: the moves
        and the leaf."""
        line: list[int] = []
        node = self.root
        while node.children and len(line) < plies:
            proven = [kid for kid in node.children if kid.pn == 0]
            if not proven:
                break
            pick = min(proven, key=lambda kid: kid.depth) if node.or_node else \
                max(proven, key=lambda kid: kid.depth)
            line.append(pick.action)
            node = pick
        return line, node

    def proof_nodes(self) -> list[_Node]:
        """The nodes of the root's proof tree, children before their parents."""
        order: list[_Node] = []
        stack: list[tuple[_Node, bool]] = [(self.root, False)]
        while stack:
            node, seen = stack.pop()
            if seen or not node.children:
                order.append(node)
                continue
            stack.append((node, True))
            proven = [kid for kid in node.children if kid.pn == 0]
            if node.or_node:
                proven = [min(proven, key=lambda kid: kid.depth)]
            stack.extend((kid, False) for kid in proven)
        return order


# ----------------------------------------------------------------- the jobs in flight

@dataclass
class JobRecord:
    """One job of a split solve, for ``benchmarks/simulate_cluster.py``: its
    number, the ``question`` (0, 1, ... in the order asked), the job whose result
    made its leaf (``parent``, -1: none), the master's CPU seconds between the
    previous job's result and its dispatch (``master``), its ``nodes`` and CPU
    ``seconds``, and whether its result settled the question (``settles``)."""

    job: int
    question: int
    parent: int
    master: float
    nodes: int = 0
    seconds: float = 0.0
    settles: bool = False
    status: int = -1


@dataclass
class _Job:
    tree: _Tree
    node: _Node
    budget: int
    record: JobRecord


class SplitDfpn(Settler):
    """df-pn split into jobs over ``workers``: the questions of
    ``Settler.settle``, each by its own master tree.  ``max_nodes`` and
    ``time`` bound the whole solve (the clock is read as jobs end); ``proof``:
    find the proofs again in this thread afterwards (``local``), for the
    proof file and the line; ``job_nodes``: each job's budget (None: by kind
    of worker, ``JOB_NODES``); ``record``: a list to which each job's
    ``JobRecord`` is appended; ``speculate``: whether an idle worker
    takes a runner-up when the virtual win leaves it nothing (None: for jobs
    of ``WIDE_JOBS`` nodes or more)."""

    def __init__(self, workers: Workers, tt_bits: int | None, max_nodes: int | None = None,
                 time: float | None = None, progress: Progress | None = None, *,
                 proof: bool = False, job_nodes: int | None = None,
                 record: list[JobRecord] | None = None, speculate: bool | None = None) -> None:
        self.workers = workers
        self.tt_bits = tt_bits
        self.max_nodes = max_nodes
        self.start = _clock.monotonic()
        self.deadline = None if time is None else self.start + time
        self.progress = progress
        self.job_nodes = JOB_NODES[workers.kind] if job_nodes is None else job_nodes
        self.wide = self.job_nodes >= WIDE_JOBS
        self.epsilon = JOB_EPSILON if self.wide else CORE_EPSILON
        self.speculate = self.wide if speculate is None else speculate
        self.record = record
        self.want_proof = proof
        self.local: Dfpn | None = None
        self.table: Any = None      # the jobs' table, when they ran in this process
        self.session = uuid.uuid4().hex
        self.capacity = workers.count
        self.out_of_nodes = self.timed_out = False
        self.done_nodes = 0
        self.in_flight: dict[int, _Job] = {}
        self.trees: dict[Question, _Tree] = {}
        self.asked = -1
        self.jobs: TaskStream | None = None
        self.master_cpu = _clock.thread_time()

    @property
    def nodes(self) -> int:
        """Nodes searched by the jobs that ended, and by this thread's re-search."""
        return self.done_nodes + (0 if self.local is None else self.local.nodes)

    # ------------------------------------------------------------ one question

    def prove(self, pos: Any, question: Question) -> int | None:
        """The depth of a proof of ``question`` at ``pos`` found by the workers, or None."""
        assert self.jobs is not None
        self.asked += 1
        tree = self.trees[question] = _Tree(pos, question)
        self._report(tree)
        while not tree.root.settled:
            if not self._dispatch(tree):
                return None
            ended = self.jobs.next()
            if ended is not None:
                self._receive(*ended)
                self._report(tree)
        return tree.root.depth if tree.root.pn == 0 else None

    def _left(self) -> int | None:
        """The nodes the budget leaves to new jobs (None: no budget)."""
        if self.max_nodes is None:
            return None
        return self.max_nodes - self.done_nodes - sum(j.budget for j in self.in_flight.values())

    def _dispatch(self, tree: _Tree) -> bool:
        """Send jobs to the idle workers; False when nothing runs and nothing can."""
        assert self.jobs is not None
        if self.deadline is not None and _clock.monotonic() >= self.deadline:
            self.timed_out = True
        while not self.timed_out and len(self.in_flight) < self.capacity:
            left = self._left()
            if left is not None and left <= 0:
                break
            chosen = tree.select(self.epsilon) or (
                tree.select(self.epsilon, speculate=True) if self.speculate else None)
            if chosen is None:
                break
            leaf, thpn, thdn = chosen
            budget = self.job_nodes if left is None else min(self.job_nodes, left)
            leaf.busy = True
            tree.update(leaf)
            now = _clock.thread_time()
            record = JobRecord(self.jobs.count, self.asked, leaf.job, now - self.master_cpu)
            self.master_cpu = now
            job = _Job(tree, leaf, budget, record)
            self.in_flight[record.job] = job
            q = tree.question
            self.jobs.submit(record.job, ("core", leaf.pos, q.player, q.target, (thpn, thdn),
                                          budget, self.tt_bits, self.session),
                             f"df-pn {q.text} for {budget} nodes on the position {leaf.pos!r}")
        if self.in_flight:
            return True
        left = self._left()
        if left is not None and left <= 0:
            self.out_of_nodes = True
        return False

    def _receive(self, number: int, result: JobResult) -> None:
        job = self.in_flight.pop(number)
        node, tree = job.node, job.tree
        node.busy = False
        self.done_nodes += result.nodes
        record = job.record
        record.nodes, record.seconds, record.status = result.nodes, result.seconds, result.status
        if self.record is not None:
            self.record.append(record)
        if tree is not self.trees.get(tree.question) or tree.root.settled:
            return       # a job of a question already answered
        if result.status == 1:
            node.pn, node.dn, node.depth = 0, INF, result.depth
        elif result.status == 0:
            node.pn, node.dn, node.loop = INF, 0, FREE
        elif result.numbers is not None:      # past its thresholds: the master chooses again
            node.pn, node.dn = result.numbers
            if node.dn == 0:                  # a disproof resting on the path's length
                node.pn, node.loop = INF, CUT
        else:                                 # the budget ran out: a large subtree, split it
            tree.expand(node, result, number)
        node.job = number
        tree.update(node)
        record.settles = tree.root.settled

    def _report(self, tree: _Tree) -> None:
        if self.progress is not None:
            kids = tree.root.children
            self.progress(SolveProgress(0, self.nodes, _clock.monotonic() - self.start,
                                        len(kids), sum(kid.pn == 0 for kid in kids),
                                        tree.question.text))

    # ------------------------------------------------------------ the whole solve

    @contextmanager
    def _running(self) -> Iterator[None]:
        """The jobs' executor while the questions are asked: stopped on any
        exception (Ctrl-C too), else left once the jobs still running have ended."""
        self.jobs = TaskStream(self.workers, "dfpn")
        try:
            yield
            while self.in_flight:        # jobs of answered questions: let them end
                ended = self.jobs.next()
                if ended is not None:
                    self._receive(*ended)
        except BaseException:
            self.jobs.stop()
            raise
        finally:
            self.jobs.close()
            self.jobs = None
            self.table = DFPN_POOL.close(self.session)   # the threads' jobs ran here

    def settle(self, pos: Any) -> Settled:
        with self._running():
            settled = super().settle(pos)
        if self.want_proof and settled.outcome is not None:
            settled = self._search_again(pos, settled)
        return settled

    def _local(self) -> Dfpn:
        """df-pn in this thread for the line and the proofs: for the line alone, on
        the jobs' table when they ran in this process (threads: what they proved
        is found at once); else on a table of its own, where the proofs searched
        again agree: in the jobs' table a node's proof may have been built on a
        child's that another job has replaced since by a deeper one, and a proof
        file needs each child's depth below its parent's."""
        if self.table is None or self.want_proof:
            return Dfpn(self.tt_bits)
        return Dfpn(None, solver=DfpnSolver(table=self.table))

    def _search_again(self, pos: Any, settled: Settled) -> Settled:
        """Find the proofs again in this thread's table (``local``), the proof
        tree's leaves first, then the nodes above them: the settled value with the
        depth of those proofs."""
        assert settled.outcome is not None
        self.local = self._local()
        plies = 0
        for question in questions_for(settled.outcome, int(pos.to_move)):
            depth = None
            for node in self.trees[question].proof_nodes():
                depth = self.local.prove(node.pos, question)
                if depth is None:
                    raise RuntimeError(f"df-pn does not find again the proof of "
                                       f"{question.text} at {node.pos.text()}")
            assert depth is not None
            plies = max(plies, depth)
        return Settled(settled.outcome, plies, settled.out_of_nodes, settled.timed_out)

    def line(self, pos: Any, outcome: str, plies: int) -> list[int]:
        """Best moves along the proofs: as in one thread from ``local`` once the
        proofs were searched again; else down the master's tree of the deciding
        question (a draw: the mover's), then along the proof of the leaf reached,
        searched again in ``local``."""
        if self.local is not None and self.want_proof:
            return self.local.line(pos, outcome, plies)
        question = questions_for(outcome, int(pos.to_move))[0]
        line, leaf = self.trees[question].line(plies)
        if self.local is None:
            self.local = self._local()
        depth = self.local.prove(leaf.pos, question)
        if depth is not None and len(line) < plies:
            line += self.local.proof_line(leaf.pos, question, depth)
        return line[:plies]

