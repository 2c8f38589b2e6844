"""The search engine (docs/engine.md): forced wins found by hand from docs/rules.md,
argument checks, no mutation, legal principal variations, determinism, the clock,
and the engine's scores against a brute-force negamax over the reference that
reimplements the documented evaluation.
"""
import dataclasses
import math
import time

import pytest

import katra
from helpers import (
    BACKENDS,
    DJENON_CAPTURE,
    GORE_CHAIN,
    KATRO_WIN,
    child_value,
    negamax,
    random_text,
)
from katra import _core
from katra._games import GAME_IDS
from katra._reference import Position as RefPosition
from katra.api import MATE, SearchResult, search


def brute_positions():
    """(game id, text, depth): start and mid-game positions small enough for brute force."""
    depth = {"katra-mpantsaka-simplified": 2, "katro": 2, "katra-mpantsaka": 2}
    out = []
    for game_id in GAME_IDS:
        for plies, seed in ((0, 0), (9, 1), (30, 2), (60, 3)):
            text = random_text(game_id, plies, seed)
            if RefPosition.from_text(text).is_terminal():
                continue
            out.append((game_id, text, depth.get(game_id, 3)))
    return out


@pytest.mark.parametrize("game_id,text,max_depth", brute_positions(),
                         ids=lambda x: x if isinstance(x, str) and " " not in x else None)
def test_scores_equal_brute_force(game_id, text, max_depth):
    ref = RefPosition.from_text(text)
    pos = _core.Position.from_text(text)
    for depth in range(1, max_depth + 1):
        expected = negamax(ref, depth)
        for tt_bits in (20, 0):
            got = _core.search(pos, depth, tt_bits=tt_bits)
            assert got["score"] == expected, (depth, tt_bits)
            assert got["depth"] == depth
            # the best action reaches that score
            assert child_value(ref, got["best_action"], depth) == expected


# ---------------------------------------------------------------- positions solved by hand

def test_katro_capture_everything_wins():
    pos = _core.Position.from_text(KATRO_WIN)
    assert pos.legal_actions() == [0, 1]
    for depth in (1, 2, 5):
        r = _core.search(pos, depth)
        assert r["best_action"] == 0
        assert r["score"] == MATE - 1
        assert r["pv"] == [0]
    child = pos.copy()
    child.apply(0)
    assert child.outcome() == (0, 4, 0)


@pytest.mark.parametrize("text, legal, best, pv, stores, board", [
    (DJENON_CAPTURE, [2, 4], 4, [4, 12, 2], (21, 22), [1, 0, 2, 0, 1, 1] + [0] * 6),
    (GORE_CHAIN, [0, 3], 3, [3, 264, 0], (10, 0), [3, 0, 0, 0, 0, 0, 0, 0]),
], ids=["djenon capture four and two", "gore capture chain"])
def test_a_capture_that_wins_in_three_plies(text, legal, best, pv, stores, board):
    pos = _core.Position.from_text(text)
    assert pos.legal_actions() == legal
    for depth in (1, 2):
        assert _core.search(pos, depth)["best_action"] == best
    r = _core.search(pos, 6)
    assert r["best_action"] == best
    assert r["score"] == MATE - 3
    assert r["pv"] == pv
    child = pos.copy()
    child.apply(best)
    assert child.stores == stores
    assert child.board == board


def test_api_result_for_a_win():
    r = search(KATRO_WIN, depth=3)
    assert isinstance(r, SearchResult)
    assert (r.best_action, r.best_move, r.pv, r.score) == (0, "a1", (0,), MATE - 1)
    assert r.is_win and not r.is_loss
    with pytest.raises(dataclasses.FrozenInstanceError):
        r.score = 0


def test_mirrored_position():
    # KATRO_WIN turned half round, North to move: the same win (docs/rules.md §1.1).
    pos = _core.Position.from_text("katro-4x4 0,0,1,1/0,0,0,0/0,0,2,0/0,0,0,0 N")
    r = _core.search(pos, 4)
    assert r["score"] == MATE - 1
    assert r["best_action"] == 15


def test_a_lost_position_scores_a_loss():
    # DJENON_CAPTURE after e1: North must pass, South's c1 ends the game, 26-22.
    r = search("djenon-aboure 0,0,0,0,0,0/1,0,2,0,1,1 N stores=21,22", depth=5)
    assert (r.best_move, r.score, r.pv) == ("pass", -(MATE - 2), (12, 2))
    assert r.is_loss


# ---------------------------------------------------------------- the contract

def _check_line(text, pv):
    pos = RefPosition.from_text(text)
    for action in pv:
        assert pos.is_legal(action), (text, pv, action)
        pos.apply(action)


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_best_action_legal_and_pv_a_legal_line(game_id):
    for plies, seed in ((0, 0), (12, 5), (40, 6)):
        text = random_text(game_id, plies, seed)
        if RefPosition.from_text(text).is_terminal():
            continue
        r = _core.search(_core.Position.from_text(text), 5)
        assert r["pv"] and r["pv"][0] == r["best_action"]
        assert len(r["pv"]) <= 5
        assert r["best_action"] in RefPosition.from_text(text).legal_actions()
        _check_line(text, r["pv"])
        assert r["nodes"] > 0 and r["seconds"] >= 0


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_never_mutates(game_id):
    for backend in BACKENDS:
        state = katra.game(game_id).initial_state(backend=backend)
        state.push(state.legal_actions()[0])
        before = (state.text(), state.move_stack, state.ply)
        search(state, depth=4)
        search(state, time=0.01)
        assert (state.text(), state.move_stack, state.ply) == before
    pos = _core.Position.initial(game_id)
    pos.push(pos.legal_actions()[-1])
    text, depth = pos.text(), pos.stack_depth
    _core.search(pos, 4)
    assert (pos.text(), pos.stack_depth) == (text, depth)


def test_inputs_accepted():
    text = random_text("gore", 10, 3)
    a = search(text, depth=3)
    b = search(katra.State.from_text(text), depth=3)
    c = search(katra.State.from_text(text, backend="reference"), depth=3)
    assert a.pv == b.pv == c.pv and a.score == b.score == c.score
    assert search("Goré", depth=2).depth == 2


@pytest.mark.parametrize("bad", [0, 65, -1, 2.0, True, "3", None])
def test_bad_depth(bad):
    pos = _core.Position.initial("katro")
    with pytest.raises(ValueError):
        if bad is None:
            _core.search(pos, None, None)
        else:
            _core.search(pos, bad)
    with pytest.raises(ValueError):
        search("katro", depth=bad) if bad is not None else search("katro")


@pytest.mark.parametrize("bad", [0, 0.0, -1.0, math.nan, math.inf, True, "1"])
def test_bad_time(bad):
    pos = _core.Position.initial("katro")
    with pytest.raises(ValueError):
        _core.search(pos, None, bad)
    with pytest.raises(ValueError):
        search("katro", depth=3, time=bad)


def test_bad_position_and_table():
    with pytest.raises(ValueError):
        _core.search("katro", 3)
    with pytest.raises(ValueError):
        _core.search(RefPosition.initial("katro"), 3)
    for bits in (-1, 29, 2.0, True):
        with pytest.raises(ValueError):
            _core.search(_core.Position.initial("katro"), 2, tt_bits=bits)


def test_terminal_raises():
    pos = _core.Position.from_text(KATRO_WIN)
    pos.apply(0)
    assert pos.is_terminal()
    with pytest.raises(ValueError, match="finished"):
        _core.search(pos, 3)
    with pytest.raises(ValueError):
        search(pos.text(), time=0.1)


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_deterministic_at_fixed_depth(game_id):
    pos = _core.Position.from_text(random_text(game_id, 6, 9))
    results = []
    for _ in range(3):
        r = _core.search(pos, 6)
        del r["seconds"]
        results.append(r)
    assert results[0] == results[1] == results[2]


@pytest.mark.parametrize("game_id", ["katro", "katra-mpantsaka", "gore"])
def test_time_limit_is_kept(game_id):
    pos = _core.Position.initial(game_id)
    start = time.perf_counter()
    r = _core.search(pos, None, 0.3)
    elapsed = time.perf_counter() - start
    # The lower bound is the clock's (the same on any machine); the upper one only
    # catches a clock that is ignored, with room for a loaded machine.
    assert 0.2 <= elapsed < 30, elapsed
    assert r["depth"] >= 2 and r["pv"][0] == r["best_action"]
    # a depth cap stops the search first
    r = _core.search(pos, 3, 10.0)
    assert r["depth"] == 3 and r["seconds"] < 10  # stopped by depth, not by the clock


def test_time_mode_stops_when_proven():
    start = time.perf_counter()
    r = _core.search(_core.Position.from_text(KATRO_WIN), None, 30.0)
    assert time.perf_counter() - start < 30.0  # stopped by the proof, not by the clock
    assert r["score"] == MATE - 1


def test_runs_without_the_gil():
    """Python code keeps running while a search runs in another thread."""
    import threading
    pos = _core.Position.initial("katra-mpantsaka")
    thread = threading.Thread(target=_core.search, args=(pos, None, 0.5))
    thread.start()
    time.sleep(0.05)                    # the search is under way
    ticks = 0
    start = time.perf_counter()
    while thread.is_alive():
        ticks += 1
    elapsed = time.perf_counter() - start
    thread.join()
    # holding the GIL, the search would block this loop until it ended
    assert elapsed > 0.2 and ticks > 10_000, (elapsed, ticks)


def test_doc_examples():
    """docs/engine.md and the katra.api._search docstrings run as doctests."""
    import doctest
    import importlib
    from pathlib import Path

    module = importlib.import_module("katra.api._search")

    path = Path(__file__).resolve().parent.parent / "docs" / "engine.md"
    result = doctest.testfile(str(path), module_relative=False,
                              optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert result.attempted >= 5 and result.failed == 0
    result = doctest.testmod(module)
    assert result.attempted >= 1 and result.failed == 0


def test_automatic_table_size_gives_the_same_scores():
    for game_id in GAME_IDS:
        pos = _core.Position.from_text(random_text(game_id, 5, 11))
        auto = _core.search(pos, 5)
        assert _core.search(pos, 5, tt_bits=22)["score"] == auto["score"]
        assert _core.search(pos, 5, tt_bits=0)["score"] == auto["score"]


@pytest.mark.parametrize("game_id,plies", [("katro-4x4", 17), ("djenon-aboure", 18)])
def test_first_player_wins_proven(game_id, plies):
    """docs/engine.md: the engine proves these start positions won for South."""
    pos = _core.Position.initial(game_id)
    r = _core.search(pos, plies)
    assert r["score"] == MATE - plies
    assert len(r["pv"]) == plies
    ref = RefPosition.initial(game_id)
    for action in r["pv"]:
        ref.apply(action)
    assert ref.outcome()[0] == 0
    assert _core.search(pos, plies - 1)["score"] < MATE - plies   # no faster win


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_a_search_after_others_is_as_from_an_empty_table(game_id):
    # katra.search reuses the previous call's table when of the same size, its
    # entries made unreadable (a new salt): every result, node counts included,
    # is that of a Searcher with a zeroed table of that size
    start = _core.Position.initial(game_id)
    later = _core.Position.initial(game_id)
    later.push(later.legal_actions()[-1])
    bits = 16
    fresh = [_core.Searcher(bits).search(p, 5) for p in (start, later, start)]
    reused = [_core.search(p, 5, tt_bits=bits) for p in (start, later, start)]
    for a, b in zip(fresh, reused):
        del a["seconds"], b["seconds"]
        assert a == b
    assert reused[0]["nodes"] == reused[2]["nodes"]
