"""The node budget (``nodes=``) and the kept table (katra.Engine) of the search
engine (docs/engine.md): exactly where a budget stops, what a stopped search
returns, and that a table kept across a game never changes a fixed-depth
result; bad arguments on every layer raise katra.ArgumentError /
ArgumentTypeError.
"""
import threading

import pytest

import katra
from helpers import KATRO_WIN, child_value, random_text
from katra import _core, _limits
from katra._games import GAME_IDS
from katra._reference import Position as RefPosition
from katra.api import Engine, search

# ---------------------------------------------------------------- nodes=


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_a_budget_stops_at_exactly_its_count(game_id):
    deep = search(game_id, depth=6)          # enough nodes for a few budgets
    first = search(game_id, depth=1)
    for budget in (first.nodes + 1, deep.nodes // 2, deep.nodes - 1):
        if budget <= first.nodes:
            continue
        r = search(game_id, nodes=budget)
        assert r.nodes == budget, budget
        # the result is the last iteration completed within the budget: the same
        # as a fixed-depth search to that depth
        fixed = search(game_id, depth=r.depth)
        assert (r.best_action, r.score, r.pv) == (fixed.best_action, fixed.score, fixed.pv)
        assert fixed.nodes <= budget      # that iteration (and those before) fitted


def test_a_budget_smaller_than_depth_one_returns_depth_one():
    first = search("katra-mpantsaka", depth=1)
    assert first.nodes > 2
    for budget in (1, first.nodes - 1, first.nodes):
        r = search("katra-mpantsaka", nodes=budget)
        assert (r.depth, r.nodes, r.best_action) == (1, first.nodes, first.best_action)


def test_a_budget_larger_than_the_search_changes_nothing():
    fixed = search("katro-4x6", depth=5)
    r = search("katro-4x6", depth=5, nodes=fixed.nodes + 1)
    assert (r.best_action, r.score, r.pv, r.nodes) == (fixed.best_action, fixed.score,
                                                      fixed.pv, fixed.nodes)


def test_depth_and_budget_whichever_comes_first():
    fixed = search("gore", depth=7)
    assert search("gore", depth=7, nodes=10**9).depth == 7
    r = search("gore", depth=7, nodes=fixed.nodes - 1)
    assert r.depth == 6 and r.nodes == fixed.nodes - 1


def test_a_budget_stops_once_proven():
    # KATRO_WIN: a win in 1 (test_search.py): proven at depth 1, so the search
    # deepens no further however large the budget.
    r = search(KATRO_WIN, nodes=10**6)
    assert (r.depth, r.best_move, r.score) == (1, "a1", katra.api.MATE - 1)
    assert r.nodes < 10


def test_core_budget_and_table_off():
    pos = _core.Position.initial("djenon-aboure")
    for tt_bits in (0, 16):
        r = _core.search(pos, None, None, nodes=2000, tt_bits=tt_bits)
        assert r["nodes"] == 2000


# ---------------------------------------------------------------- the kept table

def _engine_game(game_id, depth, plies, engine):
    """(text, result) for each position of a game the engine plays against itself."""
    pos = RefPosition.initial(game_id)
    out = []
    for _ in range(plies):
        if pos.is_terminal():
            break
        r = engine.search(pos.text(), depth=depth)
        out.append((pos.text(), r))
        pos.apply(r.best_action)
    return out


DEPTH = {"katra-mpantsaka": 5, "katra-mpantsaka-simplified": 4, "katro": 6}


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_a_kept_table_gives_a_fresh_search_s_result(game_id):
    # a game played move by move with one engine: every move's best action,
    # score and depth are a fresh search's (the line may differ past its first
    # move among equal scores), and the kept table saves nodes
    depth = DEPTH.get(game_id, 8)
    kept_nodes = fresh_nodes = 0
    game = _engine_game(game_id, depth, 12, Engine(tt_bits=18))
    assert len(game) >= 6
    for text, kept in game:
        fresh = search(text, depth=depth)
        assert (kept.best_action, kept.score, kept.depth) == (
            fresh.best_action, fresh.score, fresh.depth), text
        assert kept.pv[0] == kept.best_action
        kept_nodes += kept.nodes
        fresh_nodes += fresh.nodes
    assert kept_nodes < fresh_nodes      # the table pays (benchmarks/bench_engine.py)


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_any_table_gives_the_brute_force_score(game_id):
    # an engine that has searched other positions (deeper, of this game and of
    # another) still returns the plain negamax value and the smallest best action
    depth = {"katro": 2, "katra-mpantsaka": 2, "katra-mpantsaka-simplified": 2}.get(game_id, 3)
    engine = Engine(tt_bits=12)          # small: many slots shared
    engine.search("gore", depth=9)
    for plies in (0, 5, 10, 15):
        text = random_text(game_id, plies, 3)
        ref = RefPosition.from_text(text)
        if ref.is_terminal():
            continue
        engine.search(text, depth=depth + 3)
        values = {a: child_value(ref, a, depth) for a in ref.legal_actions()}
        expected = max(values.values())      # negamax(ref, depth), its children once
        r = engine.search(text, depth=depth)
        assert r.score == expected
        assert r.best_action == min(a for a, value in values.items() if value == expected)



def test_a_table_move_never_hides_a_move_that_banks_more_seeds():
    # Katro 4x4 with 1,000 seeds: after North's d4 (parent -> position),
    # South's b1 takes the 964 of d3 (966 seeds banked), a1 banks one, and a
    # depth-3 search of the position prefers a1.  A kept table naming a1 there
    # (as a game played with one Engine leaves) must not change the parent's
    # depth-3 value: the table's move is ordered above every gain (a gain of
    # 954 seeds or more once outranked it, and negamax, which searches the
    # table's move before the others, then skipped the move that outranked it
    # and searched the table's move twice).
    parent = "katro-4x4 0,0,1,4/0,1,1,964/4,1,1,4/1,3,0,0 N"
    position = "katro-4x4 1,1,2,0/1,1,1,964/4,1,1,4/1,3,0,0 S"
    ref = RefPosition.from_text(position)

    def south_seeds(pos):
        return sum(seeds for seeds, owner in zip(pos.board, pos.owners) if owner == 0)

    gains = {}
    for action in ref.legal_actions():
        child = ref.copy()
        child.apply(action)
        gains[action] = south_seeds(child) - south_seeds(ref)
    table_move = search(position, depth=3).best_action
    assert any(gain >= 954 for a, gain in gains.items() if a != table_move)
    engine = Engine(tt_bits=16)
    engine.search(position, depth=3)
    root = RefPosition.from_text(parent)
    expected = max(child_value(root, a, 3) for a in root.legal_actions())
    assert engine.search(parent, depth=3).score == expected == search(parent, depth=3).score

def test_clear_and_tt_bits():
    engine = Engine(tt_bits=16)
    assert engine.tt_bits == 16 and Engine().tt_bits == _limits.ENGINE_TT_BITS
    first = engine.search("katro", depth=6)
    second = engine.search("katro", depth=6)
    assert second.nodes < first.nodes
    engine.clear()              # as new: the same search, node for node
    again = engine.search("katro", depth=6)
    assert (again.nodes, again.best_action, again.score, again.pv) == (
        first.nodes, first.best_action, first.score, first.pv)
    off = Engine(tt_bits=0)
    r = off.search("katro", depth=4)
    fresh = search("katro", depth=4)
    assert (r.best_action, r.score) == (fresh.best_action, fresh.score)


def test_one_thread_at_a_time():
    # a search with no limit but its budget (2**62 nodes) runs until cancelled;
    # meanwhile another thread's call on the same engine is refused
    engine = Engine(tt_bits=16)
    outcome = []

    def endless():
        try:
            engine.search("katra-mpantsaka", nodes=_limits.MAX_SEARCH_NODES)
        except katra.JobCancelled as exc:
            outcome.append(exc)

    thread = threading.Thread(target=endless)
    thread.start()
    try:
        refused = None
        while refused is None:
            try:
                engine.search("katro", depth=1)   # before the thread's search starts
            except RuntimeError as exc:
                refused = exc
        assert "one thread at a time" in str(refused)
    finally:
        katra.cancel_jobs()
        thread.join()
    assert len(outcome) == 1
    assert engine.search("katro", depth=2).depth == 2   # usable again afterwards


def test_the_state_is_never_changed():
    for backend in ("core", "reference"):
        state = katra.game("gore").initial_state(backend=backend)
        Engine().search(state, depth=3)
        assert state.ply == 0 and state.text() == katra.game("gore").initial_state().text()


# ---------------------------------------------------------------- bad input, every layer

BAD = [
    ({}, katra.ArgumentError),
    ({"depth": 0}, katra.ArgumentError),
    ({"depth": 65}, katra.ArgumentError),
    ({"depth": "3"}, katra.ArgumentTypeError),
    ({"time": -1}, katra.ArgumentError),
    ({"time": 10**7}, katra.ArgumentError),
    ({"time": True}, katra.ArgumentTypeError),
    ({"nodes": 0}, katra.ArgumentError),
    ({"nodes": -5}, katra.ArgumentError),
    ({"nodes": 2**62 + 1}, katra.ArgumentError),
    ({"nodes": 1.0}, katra.ArgumentTypeError),
    ({"nodes": "100"}, katra.ArgumentTypeError),
]


@pytest.mark.parametrize("kwargs,error", BAD, ids=str)
def test_bad_limits_api(kwargs, error):
    for call in (search, Engine(tt_bits=10).search):
        with pytest.raises(error):
            call("katro", **kwargs)


@pytest.mark.parametrize("kwargs,error", BAD, ids=str)
def test_bad_limits_core(kwargs, error):
    core_kwargs = dict(kwargs)
    if "time" in core_kwargs:
        core_kwargs["time_seconds"] = core_kwargs.pop("time")
    pos = _core.Position.initial("katro")
    for call in (_core.search, _core.Searcher(10).search):
        with pytest.raises(error):
            call(pos, **core_kwargs)


@pytest.mark.parametrize("bits,error", [(-1, katra.ArgumentError), (29, katra.ArgumentError),
                                        (2.0, katra.ArgumentTypeError),
                                        (True, katra.ArgumentTypeError)])
def test_bad_table_size(bits, error):
    with pytest.raises(error):
        Engine(tt_bits=bits)
    with pytest.raises(error):
        _core.Searcher(bits)
    with pytest.raises(error):
        _core.search(_core.Position.initial("katro"), 2, tt_bits=bits)


def test_bad_positions():
    finished = "katro-4x4 0,0,0,0/0,0,0,0/0,2,0,0/1,1,0,0 N"
    engine = Engine(tt_bits=10)
    for call in (search, engine.search):
        with pytest.raises(katra.ArgumentError, match="finished"):
            call(finished, depth=2)
        with pytest.raises(katra.ArgumentTypeError):
            call(3.5, depth=2)
    with pytest.raises(katra.ArgumentTypeError):
        _core.Searcher(10).search("katro", 2)
    with pytest.raises(katra.ArgumentError):
        _core.search(_core.Position.from_text(finished), 2)
    # the engine is usable after every refusal
    assert engine.search("katro", depth=2).depth == 2


def test_limits_declared_once():
    assert _limits.MAX_SEARCH_NODES == 2**62 and _limits.MAX_TT_BITS == 28
    r = search("katro", depth=1, nodes=_limits.MAX_SEARCH_NODES)
    assert r.depth == 1


@pytest.mark.parametrize("game_id", ["katro-4x4", "djenon-aboure", "katro-4x6"])
def test_proven_entries_reused_at_other_depths_change_nothing(game_id):
    # Late positions, where wins and losses are proven within the depth: one
    # engine searches each position at several depths, deepest first, so its
    # table is full of proven entries of other depths (used at any depth that
    # sees the whole win, docs/engine.md); each result must equal a search with
    # no table at all (plain alpha-beta: the depth's negamax value, the smallest
    # best action).
    engine = Engine(tt_bits=14)
    proven = 0
    for seed in range(6):
        for plies in (8, 14, 20):
            text = random_text(game_id, plies, 100 + seed)
            pos = _core.Position.from_text(text)
            if pos.is_terminal():
                continue
            for depth in (9, 7, 5, 3):
                kept = engine.search(text, depth=depth)
                plain = _core.search(pos, depth, tt_bits=0)
                assert (kept.best_action, kept.score) == (
                    plain["best_action"], plain["score"]), (text, depth)
                proven += kept.is_win or kept.is_loss
    assert proven >= 5      # the case this test is about did occur


def test_play_uses_one_engine_per_game(monkeypatch, capsys):
    # katra play: the engine's moves and the hints search with the same Engine
    import io

    from katra.cli import main
    from katra.cli import play as play_module

    made, searched_by = [], []

    class Recording(Engine):
        def search(self, *args, **kwargs):
            searched_by.append(self)
            return super().search(*args, **kwargs)

    def new_engine():
        made.append(Recording(tt_bits=16))
        return made[-1]

    monkeypatch.setattr(play_module, "_new_engine", new_engine)
    monkeypatch.setattr("sys.stdin", io.StringIO("hint\na1\nhint\nquit\n"))
    assert main(["play", "katro", "--depth", "3"]) == 0
    out = capsys.readouterr().out
    assert out.count("Hint: ") == 2 and "North plays " in out
    assert len(made) == 1
    assert len(searched_by) == 3 and all(engine is made[0] for engine in searched_by)


def test_play_with_a_node_budget_hint_leaves_the_same_table_proven_or_not(
        monkeypatch, capsys):
    # katra play --nodes: a hint searches the shared table even when the solver's timed
    # try proves the position, so the engine's next move does not depend on how fast
    # the machine solved.  Here the hint's search changes that move (f2 -> c2).
    import io

    from katra.cli import main
    from katra.cli import play as play_module

    position = "djenon-aboure 0,1,8,0,8,1/7,7,1,0,0,1 S stores=4,10"

    def engine_reply(commands):
        monkeypatch.setattr("sys.stdin", io.StringIO(commands))
        assert main(["play", position, "--nodes", "300"]) == 0
        out = capsys.readouterr().out
        return out, next(line.split()[2] for line in out.splitlines()
                         if line.startswith("North plays"))

    assert engine_reply("b1\nquit\n")[1] == "f2"                # no hint
    monkeypatch.setattr(play_module, "HINT_SOLVE_SECONDS", 60.0)  # the solver proves it
    out, reply = engine_reply("hint\nb1\nquit\n")
    assert "(proven: wins in 13 plies" in out and reply == "c2"
    monkeypatch.setattr(play_module, "_solve_briefly", lambda state: None)  # it did not
    out, reply = engine_reply("hint\nb1\nquit\n")
    assert "proven" not in out and reply == "c2"
