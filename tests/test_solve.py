"""katra.solve (docs/solve.md): hand-worked positions of docs/rules.md, and the
core's solver against a brute-force minimax over the reference that follows
the definition of docs/rules.md §6.3 word for word (lo_N, hi_N, the distance,
the best move)."""

import pytest

import katra
from helpers import BRUTE_PLIES, DRAW, WIN, check_against_brute, endgame_positions, forces, value
from katra import _core, _reference
from katra._games import GAME_IDS
from katra.api._parallel import ArgumentTypeError


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_solver_matches_brute_force_on_endgames(game_id):
    proven = 0
    count = 12 if game_id == "gore" else 6    # Goré endgames are seldom proven in 4 plies
    for text in endgame_positions(game_id, count, seed=GAME_IDS.index(game_id)):
        result = check_against_brute(text, BRUTE_PLIES[game_id])
        proven += result.outcome is not None
    value.cache_clear()
    assert proven >= 1, f"{game_id}: no endgame proven: the test would check little"


@pytest.mark.slow
@pytest.mark.parametrize("game_id", GAME_IDS)
def test_solver_matches_brute_force_on_many_endgames(game_id):
    for text in endgame_positions(game_id, 40, seed=1000 + GAME_IDS.index(game_id)):
        check_against_brute(text, BRUTE_PLIES[game_id])
    value.cache_clear()


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_core_thresholds_are_the_least_bounds(game_id):
    """Each threshold the core reports is the least bound at which the predicate holds."""
    for text in endgame_positions(game_id, 3, seed=50 + GAME_IDS.index(game_id)):
        bound = BRUTE_PLIES[game_id] - 1
        thresholds, searched, timed_out = _core.Solver(12).thresholds(
            _core.Position.from_text(text), bound)
        assert not timed_out and searched <= bound
        for index, threshold in enumerate(thresholds):
            player, target = divmod(index, 2)
            target = WIN if target else DRAW
            if threshold is None:        # never: not within the bound either
                assert not forces(text, player, target, bound), (text, index)
            elif threshold == -1:        # not within the bound searched
                assert not forces(text, player, target, searched), (text, index)
            else:
                assert forces(text, player, target, threshold), (text, index)
                assert not forces(text, player, target, threshold - 1), (text, index)
    value.cache_clear()


# ------------------------------------------------------------ hand-worked positions

def test_win_in_one():
    # South's only move a1 puts a seed back in a1 and one in b1 (empty: the move
    # ends); no hole holds 2 any more, so the game ends (§5.3): South 23 + 2 = 25,
    # North 23.
    r = katra.solve("djenon-aboure 0,0,0,0,0,0/2,0,0,0,0,0 S stores=23,23")
    assert (r.outcome, r.plies, r.best_move, r.pv) == ("win", 1, "a1", (0,))
    assert r.describe() == "South wins in 1 ply"


def test_draw_in_one():
    # The same move with stores 22 and 24: 24-24 (§5.3).
    r = katra.solve("djenon-aboure 0,0,0,0,0,0/2,0,0,0,0,0 S stores=22,24")
    assert (r.outcome, r.plies, r.best_move) == ("draw", 1, "a1")
    assert r.describe() == "draw in 1 ply"


def test_loss_in_two_through_a_pass():
    # §5.2: South must pass (a ply); North's only move f2 ends the game with
    # South 20 + 2 = 22 against North 24 + 2 = 26.
    r = katra.solve("djenon-aboure 0,0,0,0,0,2/1,1,0,0,0,0 S stores=20,24", exact=True)
    assert (r.outcome, r.plies, r.best_move, r.pv) == ("loss", 2, "pass", (12, 11))
    assert r.describe() == "North wins in 2 plies"


def test_gore_loss_in_two_through_a_pass():
    # §4.2: South owns no seed and passes; North sows a2 (3 seeds to a1, b1, c1),
    # every hole then holds fewer than 3 and the game ends 23-25 (§4.5).  North's
    # offers would only delay it.
    r = katra.solve("gore 3,0,0,0/0,0,0,0 S stores=20,25 owners=NNNN/SSSS", exact=True)
    assert (r.outcome, r.plies, r.best_move) == ("loss", 2, "pass")
    assert r.pv == (264, 0 + 4)  # pass, then a2 (index 4)


@pytest.mark.parametrize("text", ["djenon-aboure 0,0,0,0,0,2/1,1,0,0,0,0 S stores=20,24",
                                  "gore 3,0,0,0/0,0,0,0 S stores=20,25 owners=NNNN/SSSS"])
def test_bounds_past_a_table_byte(text):
    """The table keeps each bound in a byte (docs/solve.md: up to 253 exactly): a
    fact found at a deeper bound is kept weaker or not at all, never wrongly.
    North wins in 2 plies in both positions (above); South never draws."""
    pos = _core.Position.from_text(text)
    solver = _core.Solver(10)
    for deep in (253, 254, 255, 256, 257, 258, 300, 500):
        assert solver.forces(pos, 1, 1, deep) and not solver.forces(pos, 0, 0, deep)
        for k in range(4):
            assert solver.forces(pos, 1, 1, k) == (k >= 2), (deep, k)
            assert solver.forces(pos, 1, 0, k) == (k >= 2), (deep, k)
            assert not solver.forces(pos, 0, 0, k) and not solver.forces(pos, 0, 1, k)
    assert solver.thresholds(pos, 500) == ([None, None, 2, 2], 2, False)


def test_nothing_proven_within_a_small_bound():
    # The katro-4x4 start is a win in 17 (docs/solve.md): within 5 plies nothing is proven.
    r = katra.solve("katro-4x4", 5)
    assert (r.outcome, r.plies, r.best_action, r.pv, r.max_plies) == (None, None, -1, (), 5)
    assert r.describe() == "no result within 5 plies"


def test_known_starts():
    """The two results the search engine found (docs/solve.md)."""
    r = katra.solve("katro-4x4", 500)
    assert (r.outcome, r.plies, r.best_move, len(r.pv), r.max_plies) == ("win", 17, "b1", 17, 17)
    r = katra.solve("djenon-aboure", 500)
    assert (r.outcome, r.plies, r.best_move, len(r.pv)) == ("win", 18, "f1", 18)


def test_line_ends_the_game_as_claimed():
    """The line, played on the reference, ends in South's win after exactly 18 plies."""
    r = katra.solve("djenon-aboure", 500)
    pos = _reference.Position.initial("djenon-aboure")
    for action in r.pv:
        assert not pos.is_terminal()
        pos.apply(action)
    assert pos.outcome()[0] == 0


# ------------------------------------------------------------ splits and bad input

@pytest.mark.parametrize("text", [
    "katro-4x4",
    "djenon-aboure 0,0,0,0,0,2/1,1,0,0,0,0 S stores=20,24",
    "gore 3,0,0,0/0,0,0,0 S stores=20,25 owners=NNNN/SSSS",
])
def test_split_equals_single(text):
    one = katra.solve(text, 20)
    two = katra.solve(text, 20, jobs=2)
    fields = ("outcome", "plies", "best_action", "best_move", "pv", "max_plies")
    assert [getattr(two, f) for f in fields] == [getattr(one, f) for f in fields]


def test_split_equals_single_on_endgames():
    fields = ("outcome", "plies", "best_action", "pv", "max_plies")
    for game_id in ("katro-4x4", "djenon-aboure", "gore", "katra-mpantsaka-simplified"):
        for text in endgame_positions(game_id, 3, seed=7):
            one = katra.solve(text, 8)
            two = katra.solve(text, 8, jobs=2)
            assert [getattr(two, f) for f in fields] == [getattr(one, f) for f in fields], text


def test_process_pool_equals_single():
    import concurrent.futures as cf
    one = katra.solve("katro-4x4", 20)
    with cf.ProcessPoolExecutor(2) as pool:
        split = katra.solve("katro-4x4", 20, executor=pool)
    assert (split.outcome, split.plies, split.best_action, split.pv) == (
        one.outcome, one.plies, one.best_action, one.pv)


def test_tt_bits_do_not_change_the_answer():
    small = katra.solve("djenon-aboure", 20, tt_bits=10)
    large = katra.solve("djenon-aboure", 20, tt_bits=18)
    assert (small.outcome, small.plies, small.pv) == (large.outcome, large.plies, large.pv)
    # df-pn: a smaller table may find other proofs (other depths), never another value
    small = katra.solve("djenon-aboure", tt_bits=10, exact=True)
    assert (small.outcome, small.plies, small.pv) == (large.outcome, large.plies, large.pv)


@pytest.mark.parametrize("kwargs, words", [
    ({"max_plies": 0}, "max_plies"),
    ({"max_plies": 501}, "max_plies"),
    ({"max_plies": -3}, "max_plies"),
    ({"max_plies": 2.5}, "max_plies"),
    ({"max_plies": True}, "max_plies"),
    ({"time": 0}, "time"),
    ({"time": "1"}, "time"),
    ({"tt_bits": 3}, "tt_bits"),
    ({"tt_bits": 1.0}, "tt_bits"),
    ({"jobs": -1}, "jobs"),
    ({"jobs": "2"}, "jobs"),
    ({"nodes": 0}, "nodes"),
    ({"nodes": 1.5}, "nodes"),
    ({"exact": 1}, "exact"),
    ({"max_plies": 5, "nodes": 10}, "nodes"),
    ({"proof": 3}, "proof"),
])
def test_bad_arguments(kwargs, words):
    with pytest.raises(ValueError, match=words):
        katra.solve("katro-4x4", **kwargs)


def test_bad_positions():
    with pytest.raises(ValueError, match="finished"):
        katra.solve("katro-4x4 0,0,1,1/1,2,0,0/0,0,0,1/12,0,0,0 S")
    with pytest.raises(katra.UnknownGameError):
        katra.solve("chess")
    with pytest.raises(katra.PositionError):
        katra.solve("katro-4x4 2,2/2 S")
    with pytest.raises(ValueError, match="position"):
        katra.solve(42)


def test_wrong_types_are_type_errors_too():
    with pytest.raises(ArgumentTypeError):
        katra.solve("katro-4x4", "5")
    with pytest.raises(ArgumentTypeError, match="progress"):
        katra.solve("katro-4x4", 5, progress=3)


def test_bad_arguments_are_argument_errors():
    for kwargs in ({"max_plies": 0}, {"tt_bits": 40}, {"time": -1.0}):
        with pytest.raises(katra.ArgumentError):
            katra.solve("katro-4x4", **kwargs)
    with pytest.raises(katra.ArgumentError, match="finished"):
        katra.solve("katro-4x4 0,0,1,1/1,2,0,0/0,0,0,1/12,0,0,0 S")


@pytest.mark.parametrize("jobs", [1, 2])
def test_progress_reports_every_bound(jobs):
    """progress: called before each bound (and as split tasks end), nodes never
    decreasing; the result is the one without progress."""
    seen = []
    r = katra.solve("katro-4x4", 500, jobs=jobs, progress=seen.append)
    assert (r.outcome, r.plies, r.pv) == (katra.solve("katro-4x4", 500).outcome, 17,
                                          katra.solve("katro-4x4", 500).pv)
    bounds = [p.bound for p in seen]
    assert bounds == sorted(bounds) and set(bounds) == set(range(1, 18))
    nodes = [p.nodes for p in seen]
    assert nodes == sorted(nodes) and nodes[-1] <= r.nodes
    assert all(p.subtrees == (4 if jobs == 2 else 0) for p in seen)
    if jobs == 2:
        assert seen[-1].proven >= 1 and all(p.proven <= p.subtrees for p in seen)


def test_core_solver_bad_input():
    solver = _core.Solver(10)
    pos = _core.Position.initial("katro-4x4")
    for bad in (0, 501, None, 1.0):
        with pytest.raises(ValueError, match="max_bound"):
            solver.thresholds(pos, bad)
    with pytest.raises(katra.ArgumentError, match="tt_bits"):
        _core.Solver(40)
    with pytest.raises(ValueError, match="player"):
        solver.forces(pos, 2, 0, 3)
    with pytest.raises(ValueError, match="plies"):
        solver.forces(pos, 0, 1, -1)
    with pytest.raises(ValueError, match="thresholds"):
        solver.best_action(pos, [1, 2])
    with pytest.raises(ArgumentTypeError, match="pos"):
        solver.thresholds("katro-4x4", 3)
    # a finished position: every threshold is 0 or never, and no best move
    done = _core.Position.from_text("katro-4x4 0,0,1,1/1,2,0,0/0,0,0,1/12,0,0,0 S")
    assert solver.thresholds(done, 4) == ([None, None, 0, 0], 4, False)
    assert solver.best_action(done, [None, None, 0, 0]) == -1


def test_clock_gives_the_last_bound_completed():
    r = katra.solve("katra-mpantsaka", 500, time=0.2)
    assert r.timed_out and r.outcome is None and r.max_plies < 500


def test_deep_bounds_in_a_small_thread_stop_instead_of_crashing():
    """A bound deeper than a 32 KiB thread stack holds raises RecursionError (the
    first line of Goré's offers and refusals never ends, so the search goes 500
    plies down at once); shallow solves in the same thread run normally."""
    from helpers import SMALL_STACK, run_python
    rc, out, err = run_python(f"""
        import threading, katra
        from katra import _core
        threading.stack_size({SMALL_STACK})
        results = []
        def work():
            try:
                _core.Solver(10).forces(_core.Position.initial("gore"), 0, 0, 500)
                results.append("no error")
            except RecursionError:
                results.append("RecursionError")
            results.append(katra.solve("djenon-aboure", 500).describe())
        thread = threading.Thread(target=work)
        thread.start()
        thread.join()
        print(results[0])
        print(results[1])
    """)
    assert rc == 0, err[-2000:]
    first, second = out.splitlines()
    assert second == "South wins in 18 plies"
    assert first == "RecursionError"


def test_exact_goes_without_max_plies():
    """docs/solve.md: exact asks df-pn's proof for its distance; the bounded solver's
    distance (max_plies) is exact already, so the pair is refused, before any work."""
    with pytest.raises(katra.ArgumentError, match=r"exact .* give it without max_plies"):
        katra.solve("katro-4x4", 5, exact=True)
    with pytest.raises(katra.ArgumentError, match="without max_plies"):
        katra.solve("katro-4x4", max_plies=5, exact=True, jobs=2)
    keyword = katra.solve(position="katro-4x4 0,0,0,0/0,2,0,0/0,0,0,0/1,1,0,0 S", max_plies=3)
    assert (keyword.outcome, keyword.exact) == ("win", True)
