"""df-pn split into jobs over workers (docs/solve.md, "Splitting df-pn"): the same
outcome as df-pn in one thread on seeded positions of every game id, with tiny
jobs so that the master's tree grows; threads, a process pool and a dask
LocalCluster on 127.0.0.1; proofs that the reference checker accepts; node
budgets; bad arguments; Ctrl-C and cancel_jobs.  Everything is driven by node
counts, never by the clock."""
import concurrent.futures as cf
import random
import threading
import time

import pytest

import katra
from helpers import (
    endgame_positions,
    katra_in_process,
    local_dask_client,
    position_text,
    quick_and_slow,
    random_positions,
)
from interrupt_jobs import SPLIT_CALLS, interrupt_main_call
from katra import _core, _reference
from katra._games import GAME_IDS
from katra.api._dfpn_jobs import INF, JOB_EPSILON, WIDE_JOBS, SplitDfpn
from katra.api._parallel import Workers
from katra.api._solve import solve_unbounded
from katra.testing import check_proof

#: df-pn's node budget in one thread: what it does not settle within it is skipped.
BUDGET = 60_000

#: The split's budget: its tiny jobs search again what their tables lost.
SPLIT_BUDGET = 40 * BUDGET

#: A Katro 4x6 position that df-pn settles only after millions of nodes: a
#: split solve of it runs for minutes (stopped in the tests below).
LONG = "katro-4x6"


def mid_games(game_id, count, seed):
    """Positions 4 to 79 random plies from the start (unfinished), from the reference."""
    return random_positions(game_id, count, seed, range(4, 80))


def split_solve(text, workers, job_nodes, record=None, proof=False, tt_bits=12):
    """solve() without a bound, split over workers with jobs of job_nodes nodes
    (small tables by default: what they lose is searched again)."""
    pos = _core.Position.from_text(text)
    search = SplitDfpn(workers, tt_bits, SPLIT_BUDGET, job_nodes=job_nodes, record=record,
                       proof=proof)
    return solve_unbounded(pos, SPLIT_BUDGET, None, tt_bits, False, search=search,
                           workers=workers), search


def check_line(text, r):
    """The line is legal, at most r.plies long, and (a win or a loss) ends the game
    as claimed when it ends it."""
    pos = _reference.Position.from_text(text)
    assert 1 <= len(r.pv) <= r.plies and r.pv[0] == r.best_action, text
    for action in r.pv:
        assert action in pos.legal_actions(), (text, r.pv)
        pos.apply(action)
    if pos.is_terminal() and r.outcome != "draw":
        winner = r.to_move if r.outcome == "win" else 1 - r.to_move
        assert pos.outcome()[0] == winner, (text, r.pv)


def compare(texts, workers, job_nodes):
    """Each position: the split settles what one thread settles, the same outcome.
    Returns how many were settled and how many jobs ran."""
    settled = jobs = 0
    for text in texts:
        one = katra.solve(text, nodes=BUDGET)
        if one.outcome is None:
            continue
        record = []
        split, search = split_solve(text, workers, job_nodes, record)
        assert split.outcome == one.outcome, (text, one, split)
        assert (split.plies >= 1 and not split.exact) or split.plies == 1
        check_line(text, split)
        assert split.nodes == sum(job.nodes for job in record) + search.local.nodes
        settled += 1
        jobs += len(record)
    return settled, jobs


@pytest.mark.parametrize("count", quick_and_slow(6, 30))
@pytest.mark.parametrize("game_id", GAME_IDS)
def test_threads_settle_what_one_thread_settles(game_id, count):
    """Endgames and mid-games of every game id, two and three threads on one
    table, jobs of 64 to 4,096 nodes (hundreds of jobs, a master tree many plies
    deep): the same outcome."""
    seed = GAME_IDS.index(game_id)
    texts = endgame_positions(game_id, count, seed=seed)
    if game_id not in ("katra-mpantsaka", "katra-mpantsaka-simplified"):
        texts += mid_games(game_id, count, seed=seed)   # Mpantsaka's settle rarely
    settled = jobs = 0
    for threads, job_nodes in ((2, 64), (3, 4096)):
        s, j = compare(texts, Workers(threads), job_nodes)
        settled, jobs = settled + s, jobs + j
    assert settled >= 2, f"{game_id}: too few positions settled to compare"
    assert jobs > settled, "the jobs never split a position"


def test_master_tree_grows_and_jobs_follow_their_parents():
    """A position that needs many jobs: the master expands leaves below the root's
    children, and each job's parent is a job that ran before it."""
    text = next(t for t in mid_games("katro-4x6", 80, seed=3)
                if 20_000 < katra.solve(t, nodes=BUDGET).nodes < BUDGET)
    record = []
    split, search = split_solve(text, Workers(2), 256, record)
    assert split.outcome == katra.solve(text, nodes=BUDGET).outcome
    assert len(record) > 20
    numbers = {job.job for job in record}
    assert all(job.parent == -1 or job.parent in numbers for job in record)
    assert sum(job.settles for job in record) >= 1
    deepest, stack = 0, [(tree.root, 0) for tree in search.trees.values()]
    while stack:
        node, depth = stack.pop()
        deepest = max(deepest, depth)
        stack.extend((kid, depth + 1) for kid in node.children)
    assert deepest >= 2


def test_wide_jobs_settle_what_one_thread_settles():
    """Jobs of WIDE_JOBS nodes, as the default budgets are (the master's wider
    epsilon; an idle worker speculates on the runner-up, or not when told),
    on mid-games that one
    thread settles in 150,000 to 1.5 million nodes: the same outcome, a legal
    line, the tree split into jobs."""
    checked = 0
    for text in mid_games("katro", 30, seed=11):
        one = katra.solve(text, nodes=1_500_000)
        if one.outcome is None or one.nodes < 150_000:
            continue
        record = []
        pos = _core.Position.from_text(text)
        workers = Workers(2)
        speculate = None if checked != 1 else False      # None: on, for jobs this large
        search = SplitDfpn(workers, 16, 20 * one.nodes, job_nodes=WIDE_JOBS, record=record,
                           speculate=speculate)
        assert search.wide and search.epsilon == JOB_EPSILON
        assert search.speculate == (speculate is None)
        split = solve_unbounded(pos, 20 * one.nodes, None, 16, False, search=search,
                                workers=workers)
        assert split.outcome == one.outcome, (text, one, split)
        check_line(text, split)
        assert len(record) > 1 and split.nodes >= sum(job.nodes for job in record)
        checked += 1
        if checked == 3:
            break
    assert checked == 3


def test_proof_files_pass_the_checker(tmp_path):
    """A split solve's proof (its proofs searched again on the master) passes the
    reference checker, with the result's outcome and plies."""
    checked = 0
    for game_id in ("katro", "katro-4x6", "katro-4x4", "gore", "djenon-aboure"):
        for text in mid_games(game_id, 4, seed=21):
            one = katra.solve(text, nodes=BUDGET)
            if one.outcome is None or one.plies > 400:
                continue
            path = tmp_path / "split.proof"
            with open(path, "w", encoding="utf-8") as out:
                r = katra.solve(text, jobs=2, proof=out)
            summary = check_proof(path)
            assert (summary.outcome, summary.plies) == (r.outcome, r.plies) and \
                r.outcome == one.outcome, text
            check_line(text, r)
            checked += 1
    assert checked >= 5


def test_proof_of_a_tree_of_many_jobs(tmp_path):
    text = next(t for t in mid_games("katro-4x6", 80, seed=3)
                if 20_000 < katra.solve(t, nodes=BUDGET).nodes < BUDGET)
    record = []
    r, search = split_solve(text, Workers(2), 512, record, proof=True, tt_bits=16)
    assert len(record) > 10 and search.local is not None
    path = tmp_path / "tree.proof"
    with open(path, "w", encoding="utf-8") as out:
        katra.api.write_proof(out, text, r, search=search.local)
    summary = check_proof(path)
    assert (summary.outcome, summary.plies) == (r.outcome, r.plies)
    check_line(text, r)


def test_repeated_split_solves_race_alike(tmp_path):
    """Three threads on one table, tiny jobs, the same position three times (the
    jobs' order, and so who stores what first, changes with the threads'
    timing): always the outcome of one thread, and a proof the checker accepts.
    (A table of 2**16 entries: in one of 2**12, the proof file's writer lost
    the proofs and searched them again, failing children to the end, for
    minutes.)"""
    text = next(t for t in mid_games("katro-4x6", 80, seed=3)
                if 20_000 < katra.solve(t, nodes=BUDGET).nodes < BUDGET)
    one = katra.solve(text, nodes=BUDGET)
    for run in range(3):
        record = []
        r, search = split_solve(text, Workers(3), 128, record, proof=True, tt_bits=16)
        assert r.outcome == one.outcome and len(record) > 20, (run, r)
        path = tmp_path / f"race{run}.proof"
        with open(path, "w", encoding="utf-8") as out:
            katra.api.write_proof(out, text, r, search=search.local)
        summary = check_proof(path)
        assert (summary.outcome, summary.plies) == (r.outcome, r.plies)
        check_line(text, r)


def test_thread_jobs_share_one_table():
    """The jobs one process runs at once share its table for the session: a job
    finds at once what another job (on another solver) proved, and the master
    reads the proofs from it after the solve; a new session starts empty."""
    from katra.api._dfpn_jobs import DFPN_POOL, dfpn_job
    pos = _core.Position.initial("katro-4x4")
    text = pos.text()
    held = DFPN_POOL.acquire("s1", 14)        # a job still running: the next gets a new solver
    try:
        first = dfpn_job("core", pos, 0, 1, (INF, INF), 1 << 30, 14, "s1")
        assert first.status == 1 and first.nodes > 1000
        second = DFPN_POOL.acquire("s1", 14)
        assert second is not held and second.table is held.table
        assert second.lookup(pos, 0, 1) == (1, first.depth)
        DFPN_POOL.release("s1", second)
        again = dfpn_job("core", pos, 0, 1, (INF, INF), 1 << 30, 14, "s1")
        assert (again.status, again.depth) == (1, first.depth)
        assert again.nodes <= len(pos.legal_actions())    # the root's children, read
        fresh = dfpn_job("core", pos, 0, 1, (INF, INF), 1 << 30, 14, "s2")
        assert fresh.nodes == first.nodes
    finally:
        DFPN_POOL.close("s2")
    r = katra.solve("katro-4x4", jobs=2)
    assert r.outcome == "win" and DFPN_POOL.session is None
    record = []
    split, search = split_solve(text, Workers(2), 256, record)
    assert search.table is not None and search.local.solver.table is search.table
    assert split.nodes < sum(job.nodes for job in record) + 100   # the line: mostly read


def test_public_call_threads_and_start_positions():
    for game_id in ("katro-4x4", "djenon-aboure"):
        one, two = katra.solve(game_id), katra.solve(game_id, jobs=2)
        assert (two.outcome, two.to_move) == (one.outcome, one.to_move) == ("win", 0)
        check_line(katra.api.load_position(game_id).text(), two)
    e = katra.solve("katro-4x4", jobs=2, exact=True)
    assert (e.describe(), e.best_move, len(e.pv)) == ("South wins in 17 plies", "b1", 17)


def test_node_budget_and_progress():
    seen = []
    r = katra.solve(LONG, jobs=2, nodes=3 * (1 << 18) + 5, progress=seen.append)
    assert r.outcome is None and r.describe() == f"no result within {3 * (1 << 18) + 5} nodes"
    assert r.nodes >= 3 * (1 << 18) + 5
    assert seen and all(p.bound == 0 and p.question for p in seen)
    assert [p.nodes for p in seen] == sorted(p.nodes for p in seen)
    assert max(p.subtrees for p in seen) == len(katra.api.load_position(LONG).legal_actions())


def test_executor_thread_pool_with_one_worker():
    """A user's thread pool of one thread: one job at a time, the same outcome."""
    text = mid_games("katro", 30, seed=4)
    with cf.ThreadPoolExecutor(1) as pool:
        settled, jobs = compare(text[:12], Workers(executor=pool), 128)
    assert settled >= 2 and jobs > settled


@pytest.mark.slow
def test_process_pool():
    texts = mid_games("katro-4x4", 10, seed=8) + mid_games("djenon-aboure", 10, seed=8)
    with cf.ProcessPoolExecutor(2) as pool:
        settled, jobs = compare(texts, Workers(executor=pool), 256)
        one = katra.solve("djenon-aboure")
        two = katra.solve("djenon-aboure", executor=pool)
    assert settled >= 5 and jobs > settled
    assert two.outcome == one.outcome


# ---------------------------------------------------------------- the master's numbers

def test_master_tree_numbers_follow_the_core():
    """The master's tree combines the numbers as the core does (OR: min / sum, AND:
    sum / min, the proofs' depths); a leaf a job searches counts as proven for the
    selection (virtual win): an OR node is then left alone, an AND node's other
    children are searched."""
    from katra.api._dfpn_jobs import JobResult, _Tree
    from katra.api._questions import Question
    pos = _core.Position.initial("katro-4x4")          # South to move
    n = len(pos.legal_actions())
    numbers = tuple((3 + i, 2 + i, 0) for i in range(n))
    result = JobResult(-1, 0, None, numbers, 0, 0.0)
    mine = _Tree(pos, Question(0, 1))                   # an OR root
    mine.expand(mine.root, result, 0)
    mine.update(mine.root)
    assert (mine.root.pn, mine.root.dn) == (3, sum(2 + i for i in range(n)))
    leaf, thpn, thdn = mine.select()
    assert leaf is mine.root.children[0] and thpn == 4 + 4 // 4 + 1 and thdn == INF
    assert mine.select(JOB_EPSILON) == (leaf, 4 + int(4 * JOB_EPSILON) + 1, INF)
    leaf.busy = True
    mine.update(leaf)
    assert mine.select() is None                        # virtually proven: nothing to add
    # an idle worker speculates: the runner-up, under the next one's number
    assert mine.select(JOB_EPSILON, speculate=True) == (mine.root.children[1],
                                                        5 + int(5 * JOB_EPSILON) + 1, INF)
    for kid in mine.root.children:
        kid.busy = True
        mine.update(kid)
    assert mine.select() is None and mine.select(speculate=True) is None
    theirs = _Tree(pos, Question(1, 1))                 # an AND root
    theirs.expand(theirs.root, result, 0)
    theirs.update(theirs.root)
    assert (theirs.root.pn, theirs.root.dn) == (sum(3 + i for i in range(n)), 2)
    kids = theirs.root.children
    assert theirs.select()[0] is kids[0]
    kids[0].busy = True
    theirs.update(kids[0])
    assert theirs.select()[0] is kids[1]                # the next child still needs a proof
    assert theirs.select(speculate=True)[0] is kids[1]
    for depth, kid in enumerate(kids):
        kid.busy, kid.pn, kid.dn, kid.depth = False, 0, INF, depth + 3
        theirs.update(kid)
    assert theirs.root.pn == 0 and theirs.root.depth == n + 3 and theirs.root.free == 0


# ---------------------------------------------------------------- bad input, stopping

@pytest.mark.parametrize("kwargs, error, words", [
    ({"jobs": 2, "nodes": 0}, katra.ArgumentError, "nodes"),
    ({"jobs": -1}, katra.ArgumentError, "jobs"),
    ({"jobs": "2"}, katra.ArgumentTypeError, "jobs"),
    ({"executor": "pool"}, katra.ArgumentTypeError, "executor"),
    ({"jobs": 2, "proof": "x.proof"}, katra.ArgumentTypeError, "proof"),
    ({"jobs": 2, "time": 0}, katra.ArgumentError, "time"),
    ({"jobs": 2, "tt_bits": 9}, katra.ArgumentError, "tt_bits"),
])
def test_bad_arguments(kwargs, error, words):
    with pytest.raises(error, match=words):
        katra.solve("katro-4x4", **kwargs)
    with cf.ThreadPoolExecutor(1) as pool, pytest.raises(katra.ArgumentError, match="not both"):
        katra.solve("katro-4x4", jobs=2, executor=pool)
    with pytest.raises(katra.ArgumentError, match="finished"):
        katra.solve("katro-4x4 0,0,1,1/1,2,0,0/0,0,0,1/12,0,0,0 S", jobs=2)


def test_cli_jobs_with_dfpn(tmp_path):
    one = katra_in_process("solve", "katro-4x4", "--json")
    two = katra_in_process("solve", "katro-4x4", "--json", "--jobs", "2", "--proof",
                           str(tmp_path / "k.proof"))
    assert one.returncode == two.returncode == 0, two.stderr
    assert '"outcome": "win"' in two.stdout and '"outcome": "win"' in one.stdout
    assert check_proof(tmp_path / "k.proof").outcome == "win"
    bad = katra_in_process("solve", "katro-4x4", "--jobs", "-1")
    assert bad.returncode == 2 and bad.stderr.count("\n") == 1 and "--jobs" in bad.stderr


def test_cancel_jobs_stops_a_split_solve():
    raised = []

    def work():
        try:
            katra.solve(LONG, jobs=2)
        except BaseException as exc:  # the test inspects it
            raised.append(exc)

    thread = threading.Thread(target=work, daemon=True)
    before = time.process_time()
    thread.start()
    while time.process_time() - before < 0.3 and thread.is_alive():
        thread.join(0.01)         # its jobs run: they used CPU time
    first = time.monotonic()
    while thread.is_alive() and time.monotonic() - first < 60:
        _core.cancel_jobs()
        thread.join(0.05)
    assert not thread.is_alive()
    assert [type(exc) for exc in raised] == [_core.JobCancelled]
    assert katra.solve("katro-4x4", jobs=2).outcome == "win"   # the next one runs


def test_interrupt_main_stops_a_split_solve(monkeypatch):
    monkeypatch.setitem(SPLIT_CALLS, "dfpn jobs=2", f"katra.solve({LONG!r}, jobs=2)")
    stopped = interrupt_main_call("dfpn jobs=2")
    assert stopped.latency < 30
    assert stopped.threads == 1
    assert stopped.perft_after == stopped.perft_expected


# ---------------------------------------------------------------- a dask cluster

@pytest.fixture(scope="module")
def client():
    with local_dask_client() as client:
        yield client


@pytest.mark.xdist_group("dfpn-dask")
def test_dask_local_cluster(client):
    texts = mid_games("katro-4x4", 6, seed=5) + mid_games("djenon-aboure", 6, seed=5)
    settled, jobs = compare(texts, Workers(executor=client), 256)
    assert settled >= 3 and jobs > settled
    sessions = client.run(worker_session)     # the jobs ran there, with solvers kept
    assert any(sessions.values())


def worker_session():
    from katra.api._dfpn_jobs import DFPN_POOL
    return DFPN_POOL.session


@pytest.mark.slow
@pytest.mark.xdist_group("dfpn-dask")
def test_dask_local_cluster_longer(client, tmp_path):
    texts = (endgame_positions("katro", 8, seed=5) + endgame_positions("gore", 8, seed=5)
             + mid_games("katro-4x6", 10, seed=5))
    settled, jobs = compare(texts, Workers(executor=client), 256)
    assert settled >= 4 and jobs > settled
    path = tmp_path / "dask.proof"
    with open(path, "w", encoding="utf-8") as out:
        r = katra.solve("djenon-aboure", executor=client, proof=out)
    assert r.outcome == "win" and check_proof(path).plies == r.plies
    r = katra.solve(LONG, executor=client, nodes=1 << 22)
    assert r.outcome is None and r.nodes >= 1 << 22



# ---------------------------------------------------------------- the core's methods for the jobs

def test_core_search_and_numbers():
    """DfpnSolver.search with open thresholds is prove(); with small ones it stops
    once a number reaches its threshold (and stores the node, which numbers()
    reads); the budget stop gives no numbers."""
    for text in endgame_positions("katro-4x6", 4, seed=1) + mid_games("djenon-aboure", 4, seed=1):
        pos = _core.Position.from_text(text)
        for player, target in ((0, 1), (1, 1), (0, 0)):
            status, depth = _core.DfpnSolver(14).prove(pos, player, target)
            solver = _core.DfpnSolver(14)
            found = solver.search(pos, player, target, INF, INF, 1 << 40)
            assert found[:2] == (status, depth)
            assert status != -1 and found[2] == ((0, INF) if status == 1 else (INF, 0))
            if status == 1:
                assert solver.numbers(pos, player, target) == (0, INF, depth)
    pos = _core.Position.initial("katro-4x6")
    solver = _core.DfpnSolver(14)
    status, depth, numbers = solver.search(pos, 0, 1, 3, 3, 1 << 40)
    assert status == -1 and (numbers[0] >= 3 or numbers[1] >= 3)
    assert solver.numbers(pos, 0, 1) == (*numbers, 0)
    assert solver.search(pos, 0, 1, INF, INF, 100) == (-1, 0, None)
    assert solver.numbers(_core.Position.initial("djenon-aboure"), 0, 1) is None


@pytest.mark.parametrize("args, error, words", [
    ((0, 1, 1, 10, 10), katra.ArgumentError, "pn_limit"),
    ((0, 1, 10, INF + 1, 10), katra.ArgumentError, "dn_limit"),
    ((0, 1, 10.0, 10, 10), katra.ArgumentTypeError, "pn_limit"),
    ((0, 1, 10, 10, 0), katra.ArgumentError, "max_nodes"),
    ((0, 1, 10, 10, None), katra.ArgumentTypeError, "max_nodes"),
    ((2, 1, 10, 10, 10), katra.ArgumentError, "player"),
    ((0, 5, 10, 10, 10), katra.ArgumentError, "target"),
])
def test_core_search_bad_input(args, error, words):
    solver = _core.DfpnSolver(10)
    with pytest.raises(error, match=words):
        solver.search(_core.Position.initial("katro-4x4"), *args)
    with pytest.raises(katra.ArgumentError, match="player"):
        solver.numbers(_core.Position.initial("katro-4x4"), 3, 1)
    assert solver.nodes == 0


def children_by_loop(solver, pos, player, target):
    """numbers() of each child of pos, one call per child, in legal-action order."""
    found = []
    for action in pos.legal_actions():
        child = pos.copy(stack=False)
        child.apply(action)
        found.append(solver.numbers(child, player, target))
    return tuple(found)


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_core_children_numbers_are_the_per_child_numbers(game_id):
    """DfpnSolver.children_numbers (one call) gives what numbers() gives child by
    child, on mid-games and endgames of every game id, for both players and
    both targets, after searches small and large have filled the table with
    numbers, proofs, disproofs (and finished children); a finished position
    has no children."""
    seed = GAME_IDS.index(game_id) + 40
    texts = endgame_positions(game_id, 4, seed=seed) + mid_games(game_id, 4, seed=seed)
    kinds = set()
    for text in texts:
        pos = _core.Position.from_text(text)
        solver = _core.DfpnSolver(12)
        for player in (0, 1):
            for target in (0, 1):
                assert solver.children_numbers(pos, player, target) == \
                    children_by_loop(solver, pos, player, target)
                for budget in (50, 5_000):
                    solver.search(pos, player, target, INF, INF, budget)
                    got = solver.children_numbers(pos, player, target)
                    assert len(got) == len(pos.legal_actions())
                    assert got == children_by_loop(solver, pos, player, target), (text, budget)
                    kinds.update("none" if n is None else "proven" if n[0] == 0 else
                                 "disproven" if n[1] == 0 else "open" for n in got)
    assert {"none", "open"} <= kinds and kinds & {"proven", "disproven"}
    finished = _core.Position.from_text("katro-4x4 0,0,1,1/1,2,0,0/0,0,0,1/12,0,0,0 S")
    assert _core.DfpnSolver(10).children_numbers(finished, 0, 1) == ()


def test_core_children_numbers_with_endgame_tables():
    """With Djenon-aboure's endgame tables (5 seeds on the board), the children
    the tables settle read as proven or disproven, as numbers() reads them,
    without a search."""
    from katra.api import _tables
    values, plies, _ = _tables.build_layers("djenon-aboure", 5)
    tables = _core.EndgameTables(values, plies)
    solver = _core.DfpnSolver(12, tables)
    rng = random.Random(41)
    seen = settled = 0
    while seen < 12:
        board = [0] * 12
        for _ in range(rng.randint(3, 6)):
            board[rng.randrange(12)] += 1
        south = rng.randint(0, 48 - sum(board))
        pos = _core.Position.from_text(position_text(
            "djenon-aboure", board, rng.randint(0, 1), (south, 48 - sum(board) - south)))
        if pos.is_terminal():
            continue
        seen += 1
        for player, target in ((0, 0), (0, 1), (1, 0), (1, 1)):
            got = solver.children_numbers(pos, player, target)
            assert got == children_by_loop(solver, pos, player, target), pos.text()
            settled += sum(n is not None and (n[0] == 0 or n[1] == 0) for n in got)
    assert settled > 0 and solver.nodes == 0


@pytest.mark.parametrize("args, error, words", [
    (("katro-4x4", 2, 1), katra.ArgumentError, "player"),
    (("katro-4x4", 0, 2), katra.ArgumentError, "target"),
    (("katro-4x4", 0, 1.0), katra.ArgumentTypeError, "target"),
])
def test_core_children_numbers_bad_input(args, error, words):
    solver = _core.DfpnSolver(10)
    with pytest.raises(error, match=words):
        solver.children_numbers(_core.Position.initial(args[0]), *args[1:])
    with pytest.raises(katra.ArgumentTypeError):
        solver.children_numbers("katro-4x4", 0, 1)
