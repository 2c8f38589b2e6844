"""Solving without a bound (docs/solve.md, "Without a bound"): df-pn against the
bounded solver and the brute force of tests/test_solve.py on seeded positions of
every game id (endgames, few-seed Goré, Djenon-aboure passes, positions whose
lines repeat), every proof it writes checked by the reference checker, the
start positions it settles, and bad input and stopping as the other solvers'."""
import io
import random
import threading

import pytest

import katra
from helpers import (
    BRUTE_PLIES,
    SANITIZED,
    SMALL_STACK,
    brute_solve,
    endgame_positions,
    position_text,
    quick_and_slow,
    random_positions,
    run_python,
    value,
)
from interrupt_jobs import DFPN_CALLS, interrupt_main_dfpn
from katra import _core, _reference
from katra._games import GAME_IDS, GAMES
from katra.api._questions import DRAW, QUESTIONS, WIN, Question, questions_for
from katra.testing import check_proof
from katra.testing._solved import few_seed_gore_position

#: df-pn's node budget per position in these tests (most settle in far fewer).
BUDGET = 200_000

#: Seconds from Ctrl-C to KeyboardInterrupt: tests/test_interrupt.py's generous bound.
INTERRUPT_BOUND = 30.0

#: Bounds the bounded solver gets through quickly on these positions.
BOUNDED = {"katro": 8, "katro-4x6": 9, "katro-4x4": 12, "katra-mpantsaka": 7,
           "katra-mpantsaka-simplified": 7, "gore": 12, "djenon-aboure": 14}


def check_dfpn(text, bound, tmp_path=None):
    """df-pn's result on text against the bounded solver's within bound: the same
    value where both settle, df-pn's plies never below the distance, each of its
    proven questions confirmed by the bounded solver at the proof's depth (when
    that depth is within reach), and (tmp_path) its proof passing the checker.
    The df-pn result."""
    pos = _core.Position.from_text(text)
    r = katra.solve(text, nodes=BUDGET)
    exact = katra.solve(text, bound)
    if r.outcome is not None and exact.outcome is not None:
        assert r.outcome == exact.outcome, text
        assert r.plies >= exact.plies, text
    if r.outcome is not None:
        assert not r.exact or r.plies == 1
        assert 1 <= len(r.pv) <= r.plies and r.pv[0] == r.best_action, text
        assert r.best_action in pos.legal_actions()
        solver = _core.Solver(16)
        if r.plies <= bound:
            for q in questions_for(r.outcome, int(pos.to_move)):
                assert solver.forces(pos, q.player, q.target, r.plies), (text, q)
        if tmp_path is not None:
            path = tmp_path / "p.proof"
            with open(path, "w", encoding="utf-8") as out:
                again = katra.solve(text, nodes=BUDGET, proof=out)
            assert (again.outcome, again.plies) == (r.outcome, r.plies)
            summary = check_proof(path)
            assert (summary.outcome, summary.plies) == (r.outcome, r.plies), text
    return r, exact


@pytest.mark.parametrize("count", quick_and_slow(6, 40))
@pytest.mark.parametrize("game_id", GAME_IDS)
def test_dfpn_matches_the_bounded_solver_on_endgames(tmp_path, game_id, count):
    """Seeded endgames of every game id (Goré: few-seed boards with offers): the
    same value where both settle, and df-pn settles most of what the bounded
    solver settles."""
    settled = both = 0
    for text in endgame_positions(game_id, count, seed=GAME_IDS.index(game_id)):
        r, exact = check_dfpn(text, BOUNDED[game_id], tmp_path)
        settled += r.outcome is not None
        both += exact.outcome is not None
    assert settled >= 1, f"{game_id}: df-pn settled nothing: the test would check little"
    assert settled >= both // 2, (game_id, settled, both)


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_dfpn_matches_the_brute_force(game_id):
    """Where the brute force of tests/test_solve.py (the rulebook's definition
    word for word) settles a value within its small bound, df-pn settles the same
    value within no fewer plies."""
    compared = 0
    for text in endgame_positions(game_id, 6, seed=GAME_IDS.index(game_id)):
        outcome, plies = brute_solve(text, BRUTE_PLIES[game_id])
        r = katra.solve(text, nodes=BUDGET)
        if outcome is not None and r.outcome is not None:
            assert (r.outcome, r.plies >= plies) == (outcome, True), text
            compared += 1
    value.cache_clear()
    assert compared >= 1, game_id


@pytest.mark.parametrize("count", quick_and_slow(25, 200))
def test_few_seed_gore_positions(tmp_path, count):
    """Goré with offers (lines that repeat: an offer refused and made again)."""
    rng = random.Random(2029)
    settled = 0
    for _ in range(count):
        text = few_seed_gore_position(rng.choice)
        r, _ = check_dfpn(text, BOUNDED["gore"], tmp_path)
        settled += r.outcome is not None
    assert settled >= count // 4


def test_djenon_aboure_passes(tmp_path):
    """Djenon-aboure positions where a player must pass (§5.2)."""
    seen = 0
    for text in endgame_positions("djenon-aboure", 60, seed=77):
        pos = _core.Position.from_text(text)
        if 12 not in pos.legal_actions():     # DJENON pass: action 12
            continue
        check_dfpn(text, BOUNDED["djenon-aboure"], tmp_path)
        seen += 1
    assert seen >= 3, seen


def test_repeating_lines_are_never_a_result():
    """Lone seeds in Katro move for ever (§2), and a Goré board where no seed can
    leave never ends (§4.5): no player forces anything, and df-pn says so, or
    runs out of its budget; it never reports a value."""
    lone = "katro 1,0,0,0,0,0/0,0,0,0,0,0/0,0,0,0,0,0/0,0,0,0,0,0/0,0,0,0,0,0/1,0,0,0,0,0 S"
    never = "gore 10,10,10,10/10,10,10,10 S stores=0,0 owners=SSSS/SSSS"
    solver = _core.DfpnSolver(12)
    for q in QUESTIONS:
        assert solver.prove(_core.Position.from_text(lone), q.player, q.target) == (0, 0)
    r = katra.solve(lone)
    assert (r.outcome, r.plies, r.best_action, r.pv) == (None, None, -1, ())
    assert r.describe() == "no result"
    r = katra.solve(never, nodes=20_000)
    assert r.outcome is None and r.describe() == "no result within 20000 nodes"


# ------------------------------------------------- lines that never end, on every path

def closure(text, limit):
    """Every position reachable from text on the reference, with its children's
    texts: ({text: position}, {text: [child texts]}), or None past limit positions."""
    start = _reference.Position.from_text(text)
    seen, edges, todo = {start.text(): start}, {}, [start]
    while todo:
        pos = todo.pop()
        kids = []
        for action in pos.legal_actions():
            child = pos.copy(stack=False)
            child.apply(action)
            kids.append(child.text())
            if kids[-1] not in seen:
                if len(seen) == limit:
                    return None
                seen[kids[-1]] = child
                todo.append(child)
        edges[pos.text()] = kids
    return seen, edges


def unbounded_answers(seen, edges, question):
    """{text: the least plies within which question.player forces question.target}
    for every position of the closure where they do (docs/rules.md §6.3 without a
    bound: the least fixed point, grown a ply at a time); the others never."""
    known = {}
    for text, pos in seen.items():
        if pos.is_terminal():
            winner = pos.outcome()[0]
            if winner == question.player or (winner == -1 and question.target == DRAW):
                known[text] = 0
    plies = 0
    while True:
        plies += 1
        grown = [text for text, pos in seen.items() if text not in known and edges[text] and (
            any if pos.to_move == question.player else all)(k in known for k in edges[text])]
        if not grown:
            return known
        known.update(dict.fromkeys(grown, plies))


def check_unbounded(seen, edges, texts, budget):
    """df-pn's four answers on each of texts, with one table for all (so that
    marked disproofs and traps meet other searches' paths), against the
    closure's exact answers: a proof only where the player forces it, of a depth
    no less than the least; a disproof only where they do not.  The answers
    settled, by question."""
    solver = _core.DfpnSolver(14)
    settled = {}
    for question in QUESTIONS:
        truth = unbounded_answers(seen, edges, question)
        settled[question.text] = 0
        for text in texts:
            status, depth = solver.prove(_core.Position.from_text(text), question.player,
                                         question.target, max_nodes=budget)
            if status == 1:
                assert text in truth and depth >= truth[text], (text, question)
            elif status == 0:
                assert text not in truth, (text, question)
            settled[question.text] += status != -1
    return settled


def lone_seeds(game_id, south, north, rng):
    """A Katro or Katra Mpantsaka position (unfinished) with south and north seeds
    on random holes of each player's two rows."""
    spec = GAMES[game_id]
    half = spec.holes // 2
    while True:
        board = [0] * spec.holes
        for side, seeds in ((0, south), (1, north)):
            for _ in range(seeds):
                board[half * side + rng.randrange(half)] += 1
        rows = [board[i * spec.cols:(i + 1) * spec.cols] for i in range(spec.rows)][::-1]
        text = (f"{game_id} {'/'.join(','.join(map(str, row)) for row in rows)} "
                f"{rng.choice('SN')}")
        if not _reference.Position.from_text(text).is_terminal():
            return text


def test_katro_lone_seeds():
    """Two seeds against one on the Katro 4x4 board: lone seeds move for ever
    unless a capture ends the game (§2), and df-pn settles every question of
    every one of the 412 unfinished positions of the closure, as the closure's
    exact unbounded answers say."""
    for south, north in ((2, 1), (1, 2)):
        seen, edges = closure(lone_seeds("katro-4x4", south, north, random.Random(3)), 1_000)
        texts = [t for t in seen if not seen[t].is_terminal()]
        assert len(texts) == 412
        assert check_unbounded(seen, edges, texts, 100_000) == dict.fromkeys(
            [q.text for q in QUESTIONS], len(texts))


@pytest.mark.parametrize("game_id", ["katra-mpantsaka", "katra-mpantsaka-simplified"])
def test_mpantsaka_never_ending_lines(game_id):
    """A seed or two a side in Katra Mpantsaka: a seed sows round its player's 16
    holes for ever unless a capture ends the game (§3.3, §3.4), so most lines
    never end and most of df-pn's disproofs rest on repetitions.  Positions of
    the closure (all 256 with one seed a side, 40 of the 3,852 with two and
    one) against its exact unbounded answers.  df-pn settles every question
    with one seed a side, and North's (one seed, which South's two cannot be
    kept from) with two and one; South's there need disproofs along cycles
    longer than df-pn's 1,000-ply paths, and run out of budget (docs/solve.md)."""
    rng = random.Random(GAME_IDS.index(game_id))
    seen, edges = closure(lone_seeds(game_id, 1, 1, rng), 300)
    assert len(seen) == 256
    texts = [t for t in seen if not seen[t].is_terminal()]
    assert check_unbounded(seen, edges, texts, 100_000) == dict.fromkeys(
        [q.text for q in QUESTIONS], len(texts))
    seen, edges = closure(lone_seeds(game_id, 2, 1, rng), 5_000)
    texts = [t for t in seen if not seen[t].is_terminal()]
    sample = random.Random(1).sample(texts, 40)
    settled = check_unbounded(seen, edges, sample, 20_000)
    assert settled["N draw"] == settled["N win"] == len(sample), settled
    for text in sample[:4]:
        check_dfpn(text, BOUNDED[game_id])


def twin_of(game_id, question):
    """The question a disproof of question with no repetition proves: the other
    player forces what it excludes (docs/solve.md, "Twins")."""
    if not GAMES[game_id].has_stores:          # no draws: a draw or better is a win
        return Question(1 - question.player, WIN)
    return Question(1 - question.player, 1 - question.target)


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_answers_and_twin_proofs_match_the_bounded_solver(game_id):
    """df-pn's answers to all four questions on seeded endgames of every game id
    (its leaves start at numbers from their mobility, and a disproof with no
    repetition is stored as its twin's proof): every proof is confirmed by the
    bounded solver at its depth, no disproof is contradicted within the bounded
    solver's reach, and every twin proof found in the table without a search
    (a table only the disproven question searched) is confirmed at its depth."""
    bounded, bound = _core.Solver(16), BOUNDED[game_id]
    answers = {1: 0, 0: 0, -1: 0}
    twins = 0
    for text in endgame_positions(game_id, 20, seed=100 + GAME_IDS.index(game_id)):
        pos = _core.Position.from_text(text)
        for question in QUESTIONS:
            solver = _core.DfpnSolver(14)
            status, depth = solver.prove(pos, question.player, question.target,
                                         max_nodes=BUDGET)
            answers[status] += 1
            if status == 1 and depth <= bound:
                assert bounded.forces(pos, question.player, question.target, depth), text
            elif status == 0:
                assert not bounded.forces(pos, question.player, question.target, bound), text
                twin = twin_of(game_id, question)
                found, plies = solver.lookup(pos, twin.player, twin.target)
                if found == 1 and plies <= bound:
                    assert bounded.forces(pos, twin.player, twin.target, plies), (text, twin)
                    twins += 1
    assert answers[1] >= 5 and answers[0] >= 5, answers
    assert twins >= 5, (game_id, twins)


def offer_cycle(text):
    """The four plies offer, decline, offer back, decline from text (the player to
    move and then the other each offer their first legal offer), or None if
    either has no offer."""
    pos = _reference.Position.from_text(text)
    cycle = []
    for _ in range(2):
        offers = [a for a in pos.legal_actions() if 8 <= a < 264]
        if not offers:
            return None
        for action in (offers[0], 266):          # 266: decline (§4.4)
            pos.apply(action)
            cycle.append(action)
    assert pos.text() == text                     # the same position, four plies on
    return cycle


def repeating_offers_position(rng):
    """A few-seed Goré position (helpers') where both stores hold 6 or 7 (an offer
    is of one hole) and both players may offer: an offer declined, one made back
    and declined, and the same position comes back four plies later (§4.2, §4.4)."""
    while True:
        text = few_seed_gore_position(rng.choice, stores=(6, 7))
        if offer_cycle(text) is not None:
            return text


@pytest.mark.parametrize("count", quick_and_slow(12, 80))
def test_repeating_gore_offers(tmp_path, count):
    """Goré positions whose offers repeat: the bounded solver's and the brute
    force's values where they settle, every df-pn proof checked, and the four
    answers of one shared table confirmed by the bounded solver (a proof at its
    depth, a disproof by no forced result within the bound)."""
    rng = random.Random(31)
    texts = [repeating_offers_position(rng) for _ in range(count)]
    settled = 0
    for text in texts:
        r, _ = check_dfpn(text, BOUNDED["gore"], tmp_path)
        settled += r.outcome is not None
        outcome, plies = brute_solve(text, BRUTE_PLIES["gore"])
        if outcome is not None and r.outcome is not None:
            assert (r.outcome, r.plies >= plies) == (outcome, True), text
    value.cache_clear()
    assert settled >= 1
    solver, bounded = _core.DfpnSolver(12), _core.Solver(16)
    answers = {1: 0, 0: 0, -1: 0}
    for question in QUESTIONS:
        for text in texts:
            pos = _core.Position.from_text(text)
            status, depth = solver.prove(pos, question.player, question.target,
                                         max_nodes=BUDGET)
            if status == 1 and depth <= BOUNDED["gore"]:
                assert bounded.forces(pos, question.player, question.target, depth), text
            elif status == 0:
                assert not bounded.forces(pos, question.player, question.target,
                                          BOUNDED["gore"]), text
            answers[status] += 1
    assert answers[1] >= 1 and answers[0] >= count // 2, answers


def test_mpantsaka_mid_games(tmp_path):
    """Katra Mpantsaka mid-game positions (relay sowings, lines that come back)."""
    for game_id in ("katra-mpantsaka", "katra-mpantsaka-simplified"):
        for text in random_positions(game_id, 4, seed=11, plies=30):
            check_dfpn(text, BOUNDED[game_id], tmp_path)


@pytest.mark.parametrize("game_id, plies, best", [("katro-4x4", 17, "b1"),
                                                  ("djenon-aboure", 18, "f1")])
def test_start_positions(tmp_path, game_id, plies, best):
    """South wins both (docs/solved.md); exact=True gives the distance, and the
    df-pn proof passes the checker."""
    r = katra.solve(game_id)
    assert r.outcome == "win" and r.plies >= plies and not r.exact
    assert r.describe() == f"South wins within {r.plies} plies"
    e = katra.solve(game_id, exact=True)
    assert (e.outcome, e.plies, e.exact, e.best_move, len(e.pv)) == ("win", plies, True,
                                                                     best, plies)
    assert e.describe() == f"South wins in {plies} plies"
    path = tmp_path / "start.proof"
    with open(path, "w", encoding="utf-8") as out:
        katra.solve(game_id, proof=out)
    assert check_proof(path).plies == r.plies


def test_line_plays_to_the_claimed_end():
    """df-pn's line, played on the reference, ends the game in the claimed outcome
    within the claimed plies."""
    r = katra.solve("djenon-aboure")
    pos = _reference.Position.initial("djenon-aboure")
    for action in r.pv:
        assert not pos.is_terminal()
        pos.apply(action)
    assert pos.is_terminal() and pos.outcome()[0] == 0 and len(r.pv) <= r.plies


def test_the_questions():
    assert [q.index for q in QUESTIONS] == [0, 1, 2, 3]
    assert Question(1, WIN).text == "N win" and Question(0, DRAW).text == "S draw"
    assert questions_for("draw", 1) == [Question(1, DRAW), Question(0, DRAW)]
    assert questions_for("loss", 0) == [Question(1, WIN)]


def test_node_budget_and_counts():
    """The budget stops df-pn (no result) a few nodes past it at most (a node's
    children are counted together); the same call twice counts the same nodes."""
    r = katra.solve("katro", nodes=5_000)
    assert r.outcome is None and 5_000 <= r.nodes < 5_000 + 200
    again = katra.solve("katro", nodes=5_000)
    assert again.nodes == r.nodes
    assert katra.solve("katro-4x4").nodes == katra.solve("katro-4x4").nodes


def test_progress_reports_each_question():
    seen = []
    r = katra.solve("djenon-aboure", progress=seen.append)
    assert r.outcome == "win" and seen and all(p.bound == 0 for p in seen)
    assert {p.question for p in seen} >= {"S draw", "S win"}
    nodes = [p.nodes for p in seen]
    assert nodes == sorted(nodes)


def test_proof_stream_for_a_bounded_solve():
    out = io.StringIO()
    r = katra.solve("djenon-aboure 0,0,0,0,0,2/1,1,0,0,0,0 S stores=20,24", 5, proof=out)
    assert r.outcome == "loss"
    assert out.getvalue().splitlines()[2:] == ["claim loss 2", "tree N win 2", "1 pass", "2 f2",
                                               "end"]


# ------------------------------------------------------------ bad input, stopping

@pytest.mark.parametrize("kwargs, error, words", [
    ({"nodes": 0}, katra.ArgumentError, "nodes"),
    ({"nodes": 2**62 + 1}, katra.ArgumentError, "nodes"),
    ({"nodes": "5"}, katra.ArgumentTypeError, "nodes"),
    ({"exact": "yes"}, katra.ArgumentTypeError, "exact"),
    ({"max_plies": 5, "nodes": 10}, katra.ArgumentError, "nodes"),
    ({"proof": "file.proof"}, katra.ArgumentTypeError, "proof"),
    ({"tt_bits": 9}, katra.ArgumentError, "tt_bits"),
    ({"time": 0}, katra.ArgumentError, "time"),
])
def test_bad_arguments(kwargs, error, words):
    with pytest.raises(error, match=words):
        katra.solve("katro-4x4", **kwargs)


def test_core_dfpn_bad_input():
    solver = _core.DfpnSolver(10)
    pos = _core.Position.initial("katro-4x4")
    with pytest.raises(katra.ArgumentError, match="player"):
        solver.prove(pos, 2, 0)
    with pytest.raises(katra.ArgumentError, match="target"):
        solver.lookup(pos, 0, 3)
    with pytest.raises(katra.ArgumentTypeError, match="max_nodes"):
        solver.prove(pos, 0, 1, max_nodes=1.5)
    with pytest.raises(katra.ArgumentError, match="max_nodes"):
        solver.prove(pos, 0, 1, max_nodes=0)
    with pytest.raises(katra.ArgumentError, match="tt_bits"):
        _core.DfpnSolver(29)
    with pytest.raises(ValueError, match="pos"):
        solver.prove("katro-4x4", 0, 1)
    assert solver.nodes == 0 and solver.tt_bits == 10
    done = _core.Position.from_text("katro-4x4 0,0,1,1/1,2,0,0/0,0,0,1/12,0,0,0 S")
    assert [solver.prove(done, q.player, q.target) for q in QUESTIONS] == [
        (0, 0), (0, 0), (1, 0), (1, 0)]


def test_cancel_jobs_stops_it_and_one_thread_at_a_time():
    """A df-pn search of the never-ending Goré board runs until cancelled (no
    budget); meanwhile another thread's call on the same solver is refused."""
    solver = _core.DfpnSolver(16)
    never = _core.Position.from_text("gore 10,10,10,10/10,10,10,10 S stores=0,0 "
                                     "owners=SSSS/SSSS")
    outcome = []

    def endless():
        try:
            solver.prove(never, 0, WIN)
        except katra.JobCancelled as exc:
            outcome.append(exc)

    thread = threading.Thread(target=endless)
    thread.start()
    try:
        refused = None
        while refused is None and thread.is_alive():
            try:
                solver.prove(never, 0, WIN, max_nodes=1)
            except RuntimeError as exc:
                refused = exc
        assert "one thread at a time" in str(refused)
    finally:
        katra.cancel_jobs()
        thread.join()
    assert len(outcome) == 1
    assert solver.prove(_core.Position.initial("katro-4x4"), 0, WIN)[0] == 1  # usable again


@pytest.mark.parametrize("name", list(DFPN_CALLS))
def test_interrupt_main_stops_it_frees_it_and_leaves_it_usable(name):
    """Ctrl-C without a signal (``_thread.interrupt_main()``, as IDLE sends it) stops a
    df-pn solve of the Katro start (hours) within the bound of tests/test_interrupt.py,
    four times over: no thread is left, the memory of each stopped solve is given
    back (its table of 24 MiB was in use: the peak shows it; none is kept from one
    round to the next), and the next solves,
    new or on the interrupted DfpnSolver, give what they give in a fresh process."""
    stopped = interrupt_main_dfpn(name)
    assert stopped.latency < INTERRUPT_BOUND, stopped
    assert stopped.threads == 1
    assert stopped.peak > 16 << 20, stopped           # the table was touched ...
    if not SANITIZED:   # AddressSanitizer quarantines what is freed (its own leak checks apply)
        assert stopped.growth < 8 << 20, stopped      # ... and freed after each stop
                                                      # (a leak: 2 x 24 MiB)
    fresh = katra.solve("katro-4x4")
    assert stopped.after == (fresh.outcome, fresh.plies, fresh.nodes)
    assert stopped.status == 1


def test_small_thread_stack_stops_instead_of_crashing():
    """Paths deeper than a 32 KiB thread stack holds raise RecursionError (the
    never-ending Goré board's paths go down to df-pn's 1,000 plies)."""
    rc, out, err = run_python(f"""
        import threading
        from katra import _core
        threading.stack_size({SMALL_STACK})
        results = []
        def work():
            pos = _core.Position.from_text("gore 10,10,10,10/10,10,10,10 S stores=0,0 "
                                           "owners=SSSS/SSSS")
            try:
                _core.DfpnSolver(10).prove(pos, 0, 1, max_nodes=10**6)
                results.append("no error")
            except RecursionError:
                results.append("RecursionError")
        thread = threading.Thread(target=work)
        thread.start()
        thread.join()
        print(results[0])
    """)
    assert rc == 0, err[-2000:]
    assert out.strip() == "RecursionError"


# ---------------------------------------------------------------- a table shared by threads

#: The budget per question in one thread for the shared-table tests, and the
#: threads' (what one thread settles, each of three threads settles too).
SHARED_BUDGET = 50_000


def shared_positions():
    """Endgames and mid-games of every game id: (text, the statuses and depths of
    the four questions in one thread within SHARED_BUDGET nodes each), those with
    a question settled."""
    found = []
    for game_id in GAME_IDS:
        seed = 31 + GAME_IDS.index(game_id)
        if game_id in ("katra-mpantsaka", "katra-mpantsaka-simplified"):   # lines never end
            rng = random.Random(seed)
            texts = [lone_seeds(game_id, 1 + i % 2, 1, rng) for i in range(4)]
        else:
            texts = endgame_positions(game_id, 3, seed=seed) + random_positions(game_id, 1, seed,
                                                                                30)
        for text in texts:
            pos = _core.Position.from_text(text)
            solver = _core.DfpnSolver(16)
            answers = [solver.prove(pos, q.player, q.target, max_nodes=SHARED_BUDGET)
                       for q in QUESTIONS]
            if any(status != -1 for status, _ in answers):
                found.append((text, answers))
    return found


@pytest.mark.parametrize("size", quick_and_slow((1, 1), (3, None)))
def test_threads_on_one_table_answer_as_one_thread(size):
    """Three threads, each with its own DfpnSolver on one DfpnTable, ask every
    question of every position at once (each thread in another order, each
    round on a fresh table: races): what one thread settles, each settles the
    same way, and each proof's depth is one the bounded solver confirms.
    ``size``: (rounds, the positions of each game id asked, None: all)."""
    rounds, per_game = size
    cases = shared_positions()
    assert {text.split()[0] for text, _ in cases} == set(GAME_IDS)
    if per_game is not None:
        cases = [case for game_id in GAME_IDS
                 for case in [c for c in cases if c[0].split()[0] == game_id][:per_game]]
    exact = _core.Solver(16)
    for _ in range(rounds):
        table = _core.DfpnTable(16)
        answers = {}
        errors = []

        def ask(order, answers=answers, errors=errors, table=table):
            solver = _core.DfpnSolver(table=table)
            try:
                for text, _ in order:
                    pos = _core.Position.from_text(text)
                    for q in QUESTIONS:
                        answers.setdefault((text, q), []).append(
                            solver.prove(pos, q.player, q.target, max_nodes=4 * SHARED_BUDGET))
            except BaseException as exc:   # reported below
                errors.append(exc)

        orders = [cases, cases[::-1], cases[len(cases) // 2:] + cases[:len(cases) // 2]]
        threads = [threading.Thread(target=ask, args=(order,)) for order in orders]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert not errors, errors
        for text, alone in cases:
            pos = _core.Position.from_text(text)
            for q, (status, _) in zip(QUESTIONS, alone, strict=True):
                found = answers[(text, q)]
                if status != -1:
                    assert [s for s, _ in found] == [status] * 3, (text, q, found)
                for s, depth in found:
                    if s == 1 and depth <= 12:
                        assert exact.forces(pos, q.player, q.target, depth), (text, q, depth)


def test_a_shared_table_is_shared():
    """What one DfpnSolver proves, another on the same DfpnTable reads (lookup,
    numbers) without a search, and proves again at once; one on a table of its
    own does not."""
    table = _core.DfpnTable(14)
    first, second = _core.DfpnSolver(table=table), _core.DfpnSolver(table=table)
    assert first.table is table and second.table is table and second.tt_bits == 14
    pos = _core.Position.initial("katro-4x4")
    status, depth = first.prove(pos, 0, WIN)
    assert status == 1 and first.nodes > 0
    assert second.lookup(pos, 0, WIN) == (1, depth)
    assert second.numbers(pos, 0, WIN) == (0, (1 << 30) - 1, depth)
    assert second.prove(pos, 0, WIN) == (1, depth) and second.nodes < first.nodes // 10
    assert _core.DfpnSolver(14).lookup(pos, 0, WIN) == (-1, 0)
    with pytest.raises(katra.ArgumentError, match="not both"):
        _core.DfpnSolver(14, table=table)
    with pytest.raises(katra.ArgumentTypeError, match="DfpnTable"):
        _core.DfpnSolver(table=_core.SolverTable(14))
    with pytest.raises(katra.ArgumentError, match="tt_bits"):
        _core.DfpnTable(9)


def test_the_core_takes_any_int():
    """The one int rule (tests/test_int_rule.py): a NumPy int, an IntEnum, a 0-d
    array are ints for player, target, max_nodes and the limits; a bool, a float
    or a str is not (ArgumentTypeError)."""
    from int_forms import NOT_INTS, same_number
    pos = _core.Position.initial("katro-4x4")
    inf = (1 << 30) - 1
    calls = {
        "prove player": (lambda n: _core.DfpnSolver(12).prove(pos, n, WIN), 0),
        "prove target": (lambda n: _core.DfpnSolver(12).prove(pos, 0, n), 1),
        "prove max_nodes": (lambda n: _core.DfpnSolver(12).prove(pos, 0, WIN, max_nodes=n), 300),
        "lookup player": (lambda n: _core.DfpnSolver(12).lookup(pos, n, WIN), 1),
        "numbers target": (lambda n: _core.DfpnSolver(12).numbers(pos, 0, n), 0),
        "search pn_limit": (lambda n: _core.DfpnSolver(12).search(pos, 0, WIN, n, inf, 10**6), 3),
        "search dn_limit": (lambda n: _core.DfpnSolver(12).search(pos, 0, WIN, inf, n, 10**6), 3),
        "search max_nodes": (lambda n: _core.DfpnSolver(12).search(pos, 0, WIN, inf, inf, n), 300),
        "DfpnTable tt_bits": (lambda n: _core.DfpnTable(n).tt_bits, 12),
    }
    for name, (call, n) in calls.items():
        expected = call(n)
        for form in same_number(n):
            assert call(form) == expected, (name, type(form).__name__)
        for bad in NOT_INTS:
            with pytest.raises(katra.ArgumentTypeError):
                call(bad)


def test_lookup_reads_the_endgame_tables():
    """With endgame tables, lookup (and numbers) answer a held board as the
    tables do, without a search; so the line of a solve spends no nodes on
    children the tables settle."""
    from katra.api import _tables
    from katra.api._dfpn import Dfpn
    values, plies, _ = _tables.build_layers("djenon-aboure", 5)
    tables = _core.EndgameTables(values, plies)
    rng = random.Random(37)
    seen = 0
    while seen < 20:
        board = [0] * 12
        for _ in range(rng.randint(2, 5)):
            board[rng.randrange(12)] += 1
        south = rng.randint(0, 48 - sum(board))
        text = position_text("djenon-aboure", board, rng.randint(0, 1),
                             (south, 48 - sum(board) - south))
        pos = _core.Position.from_text(text)
        if pos.is_terminal():
            continue
        seen += 1
        solver = _core.DfpnSolver(12, tables)
        for q in QUESTIONS:
            held = tables.probe(pos, q.player, q.target)
            assert held[0] in (0, 1)
            assert solver.lookup(pos, q.player, q.target) == held, text
            assert _core.DfpnSolver(12).lookup(pos, q.player, q.target) == (-1, 0)
            assert solver.numbers(pos, q.player, q.target)[0] == (0 if held[0] else (1 << 30) - 1)
        assert solver.nodes == 0
        search = Dfpn(12, tables=tables)
        settled = search.settle(pos)
        if settled.outcome is not None:
            before = search.nodes
            line = search.line(pos, settled.outcome, settled.plies)
            assert line and search.nodes == before, text
