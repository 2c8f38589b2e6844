"""katra's built-in players (katra.match, docs/protocol.md "katra's own engines"):
legal moves on every game, the greedy choice in positions worked by hand from
docs/rules.md, alpha-beta's win in 1, budgets, stop, determinism, and the
spec text's errors."""
from __future__ import annotations

import threading

import pytest

import katra
from helpers import KATRO_WIN
from katra._zobrist import splitmix64
from katra.match import (
    GoLimits,
    GreedyPlayer,
    Info,
    RandomPlayer,
    make_player,
    material,
)

# Budgets small enough for many moves per test, fixed so the moves repeat.
QUICK_SPECS = ("random:seed=3", "greedy:seed=5", "alphabeta:depth=3", "alphabeta:nodes=2000")


def play_game(players, game_id, plies, limits=None):
    """Players 0 (South) and 1 (North) play ``plies`` plies at most from the
    start; every choice must be legal.  The actions played."""
    state = katra.State(game_id)
    stop = threading.Event()
    limits = GoLimits() if limits is None else limits
    for player in players:
        player.new_game()
    played = []
    while not state.is_terminal() and len(played) < plies:
        choice = players[state.to_move].choose(state, limits, stop)
        assert choice.action in state.legal_actions(), (game_id, state.text(), choice)
        state.push(choice.action)
        played.append(choice.action)
    return played


@pytest.mark.parametrize("spec", QUICK_SPECS)
@pytest.mark.parametrize("game_id", katra.GAME_IDS)
def test_every_player_plays_legal_moves_on_every_game(spec, game_id):
    players = (make_player(spec), make_player("random:seed=11"))
    for seed in range(2):
        players[1].set_option("seed", str(seed))
        assert play_game(players, game_id, 24)
        assert play_game(players[::-1], game_id, 24)


@pytest.mark.parametrize("spec", QUICK_SPECS)
def test_fixed_budgets_and_seeds_repeat_the_same_moves(spec):
    games = [play_game((make_player(spec), make_player("random:seed=2")), "gore", 40)
             for _ in range(2)]
    assert games[0] == games[1]


def test_random_draws_by_splitmix64_from_the_seed():
    """rules.md §6.2: the move is A[next() % len(A)], A the legal actions ascending;
    the generator goes on from move to move."""
    player = RandomPlayer(seed=7)
    state = katra.State("katro-4x4")
    rng = 7
    for _ in range(6):
        rng, output = splitmix64(rng)
        legal = state.legal_actions()
        expected = legal[output % len(legal)]
        assert player.choose(state, GoLimits(), threading.Event()).action == expected
        state.push(expected)
    player.set_option("seed", "7")  # a seed restarts the generator
    first = player.choose(katra.State("katro-4x4"), GoLimits(), threading.Event()).action
    legal = katra.State("katro-4x4").legal_actions()
    assert first == legal[splitmix64(7)[1] % len(legal)]


def test_greedy_takes_the_goré_capture_of_rules_4_3():
    """rules.md §4.3: c1 captures 4 + 2 + 2 + 2 = 10, leaving South 3 + 24 - (5 + 16)
    = +6; b1 (captures d2, d1, c1: 8) leaves 0 + 22 - (10 + 16) = -4; d1 (captures d2:
    2) leaves 6 + 16 - (10 + 16) = -4."""
    state = katra.State.from_text("gore 5,2,3,1/0,3,3,1 S stores=14,16 owners=NNNN/SSSS")
    assert material(state.child("c1"), 0) == 6
    assert material(state.child("b1"), 0) == material(state.child("d1"), 0) == -4
    infos = []
    player = GreedyPlayer()
    player.listener = infos.append
    choice = player.choose(state, GoLimits(), threading.Event())
    assert state.action_text(choice.action) == "c1"
    assert choice.infos == tuple(infos) and infos[0].score == ("value", 6)


@pytest.mark.parametrize("seed", range(4))
def test_greedy_breaks_the_djenon_tie_of_rules_5_2_by_its_generator(seed):
    """rules.md §5.2's worked example: c1 captures 10 of which 4 are South's own (the
    board then holds 3 South, 6 North: 3 + 23 - 6 - 16 = +4); f1 captures e2 and f2
    (4): 9 + 17 - 6 - 16 = +4 too; d1 captures f2, f1, e1 (8, 6 of them South's own):
    4 + 21 - 7 - 16 = +2.  c1 and f1 tie: the seeded generator picks one."""
    state = katra.State.from_text("djenon-aboure 2,1,0,3,1,1/1,0,2,4,1,3 S stores=13,16")
    assert {move: material(state.child(move), 0) for move in ("c1", "d1", "f1")} == \
        {"c1": 4, "d1": 2, "f1": 4}
    ties = [state.parse_move("c1"), state.parse_move("f1")]
    expected = ties[splitmix64(seed)[1] % 2]
    assert GreedyPlayer(seed=seed).choose(state, GoLimits(), threading.Event()).action == expected


@pytest.mark.parametrize("spec", ["alphabeta:depth=1", "alphabeta:depth=5", "alphabeta:nodes=50",
                                  "alphabeta:time=30"])
def test_alphabeta_finds_the_win_in_one(spec):
    """KATRO_WIN (tests/helpers.py, rules.md §2.3): a1 captures North's last seeds."""
    state = katra.State.from_text(KATRO_WIN)
    choice = make_player(spec).choose(state, GoLimits(), threading.Event())
    assert state.action_text(choice.action) == "a1"
    assert choice.infos[-1].score == ("win", 1) and choice.infos[-1].pv == ("a1",)


def test_alphabeta_reports_each_depth_and_matches_a_fresh_search():
    state = katra.State("katro-4x4")
    player = make_player("alphabeta:depth=6")
    choice = player.choose(state, GoLimits(), threading.Event())
    fresh = katra.search(state, depth=6)
    last = choice.infos[-1]
    assert choice.action == fresh.best_action
    assert (last.depth, last.score) == (6, ("value", fresh.score))
    assert last.pv[0] == fresh.best_move
    assert [info.depth for info in choice.infos] == sorted(info.depth for info in choice.infos)
    assert Info.parse(last.line()) == last


def test_go_limits_replace_the_players_own_budget():
    state = katra.State("katro-4x4")
    player = make_player("alphabeta:depth=7")
    assert player.choose(state, GoLimits(depth=2), threading.Event()).infos[-1].depth == 2
    nodes = player.choose(state, GoLimits(nodes=300), threading.Event()).infos[-1].nodes
    assert nodes is not None and nodes <= 300 + 50


def test_the_budget_rules():
    """docs/protocol.md: go's limits, then the player's own, then the mover's clock
    (a 30th of it plus the increment, at most half), then one second."""
    south, north = katra.State("gore"), katra.State("gore").child(2)
    budget = make_player("alphabeta").budget
    assert budget(south, GoLimits(stime=30000, ntime=60000, sinc=100)).seconds == 1.1
    assert budget(north, GoLimits(stime=30000, ntime=60000, ninc=0)).seconds == 2.0
    assert budget(south, GoLimits(stime=100, sinc=5000)).seconds == 0.05
    assert budget(south, GoLimits()).seconds == 1.0
    assert budget(south, GoLimits(movetime=250, stime=1)).seconds == 0.25
    assert budget(south, GoLimits(infinite=True, depth=3)).infinite
    budget9 = make_player("alphabeta:depth=9").budget(south, GoLimits(stime=10))
    assert (budget9.depth, budget9.seconds) == (9, None)


def test_stop_ends_an_infinite_search():
    """go infinite answers only after stop, and at once after it (bounded generously)."""
    state = katra.State("katro")
    player = make_player("alphabeta")
    stop = threading.Event()
    found = threading.Event()
    player.listener = lambda info: found.set()
    result = []
    thread = threading.Thread(target=lambda: result.append(
        player.choose(state, GoLimits(infinite=True), stop)))
    thread.start()
    try:
        assert found.wait(60)
        assert thread.is_alive()  # infinite: still searching (or waiting for stop)
    finally:
        stop.set()
        thread.join(60)
    assert not thread.is_alive()
    assert result[0].action in state.legal_actions()


@pytest.mark.parametrize("spec", ["random", "greedy"])
def test_infinite_random_and_greedy_wait_for_stop(spec):
    stop = threading.Event()
    result = []
    player = make_player(spec)
    thread = threading.Thread(target=lambda: result.append(
        player.choose(katra.State("gore"), GoLimits(infinite=True), stop)))
    thread.start()
    thread.join(0.2)
    assert thread.is_alive() and not result  # infinite: no answer before stop
    stop.set()
    thread.join(60)
    assert result and result[0].action in katra.State("gore").legal_actions()


def test_new_game_clears_alphabetas_table():
    state = katra.State("katro-4x4")
    player = make_player("alphabeta:depth=8")
    first = player.choose(state, GoLimits(), threading.Event()).infos[-1].nodes
    again = player.choose(state, GoLimits(), threading.Event()).infos[-1].nodes
    player.new_game()
    cleared = player.choose(state, GoLimits(), threading.Event()).infos[-1].nodes
    assert again < first and cleared == first


def test_spec_names_and_options():
    assert make_player("alphabeta").name == "alphabeta"
    player = make_player("alphabeta: depth=6 ,tt_bits=12")
    assert player.name == "alphabeta:depth=6,tt_bits=12"
    assert [o.line() for o in player.options()] == [  # its own values as the defaults
        "option name depth type spin default 6 min 0 max 64",
        "option name nodes type spin default 0 min 0 max 4611686018427387904",
        "option name time type string default 0",
        "option name tt_bits type spin default 12 min 0 max 28"]
    player.set_option("depth", "0")  # 0: no budget of its own
    assert player.name == "alphabeta:tt_bits=12"
    assert make_player("greedy:seed=4").name == "greedy:seed=4"
    assert make_player("random:seed=0").name == "random"


@pytest.mark.parametrize("spec, fragment", [
    ("minimax", "unknown player 'minimax' in 'minimax'; the players: random, greedy, "
                "alphabeta, mcts"),
    ("", "unknown player ''"),
    ("alphabeta:speed=3", "alphabeta has no setting 'speed'; its settings: depth, nodes, time, "
                          "tt_bits"),
    ("random:depth=3", "random has no setting 'depth'; its settings: seed"),
    ("alphabeta:depth", "expected KEY=VALUE, not 'depth', in 'alphabeta:depth'; alphabeta's "
                        "keys: depth, nodes, time, tt_bits"),
    ("alphabeta:", "expected KEY=VALUE, not ''"),
    ("alphabeta:depth=65", "depth must be in 1..64 (0: none), not '65'"),
    ("alphabeta:depth=x", "depth must be a whole number in 1..64 (0: none), not 'x'"),
    ("alphabeta:depth=-1", "depth must be in 1..64"),
    ("alphabeta:time=nan", "time must be in 0.001..1e+06 (0: none), not 'nan'"),
    ("alphabeta:tt_bits=29", "tt_bits must be in 0..28, not '29'"),
    ("greedy:seed=1,seed=2", "seed is given twice"),
    ("mcts:exploration=-1", "exploration must be in 0..1000, not '-1'"),
])
def test_bad_specs_name_the_problem(spec, fragment):
    with pytest.raises(katra.ArgumentError) as error:
        make_player(spec)
    assert fragment in str(error.value)


def test_bad_option_changes_nothing():
    player = make_player("alphabeta:depth=4")
    for key, value in (("depth", "99"), ("speed", "1"), ("tt_bits", "x")):
        with pytest.raises(katra.ArgumentError):
            player.set_option(key, value)
    assert player.name == "alphabeta:depth=4"


def test_another_threads_cancel_does_not_end_a_search():
    """stop cancels the core's running jobs, in every thread (katra._core.cancel_jobs):
    a search whose own stop is not set searches again, so its answer is still the
    fixed depth's (the cancels may land anywhere, or nowhere: the answer is the same)."""
    from katra._core import cancel_jobs
    state = katra.State("katro")
    player = make_player("alphabeta:depth=11")
    started = threading.Event()
    player.listener = lambda info: started.set()
    result = []
    thread = threading.Thread(target=lambda: result.append(
        player.choose(state, GoLimits(), threading.Event())))
    thread.start()
    try:
        assert started.wait(60)
        for _ in range(3):
            cancel_jobs()
            thread.join(0.02)
    finally:
        thread.join(120)
    fresh = katra.search(state, depth=11)
    assert result[0].action == fresh.best_action
    assert result[0].infos[-1].depth == 11 and result[0].infos[-1].score == ("value", fresh.score)
