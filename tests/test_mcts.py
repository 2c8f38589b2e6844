"""katra.MCTS and katra.mcts: Monte Carlo tree search in the core (docs/mcts.md).

The algorithm is pinned by a plain-Python UCT written here over katra.State
(legal_actions, push): the same UCB1 in the same floating-point operations,
the same tie-breaking, the same expansion order, the same seeded playouts
(docs/rules.md §6.2, with its generator written out here), the same arena
accounting and the same tree reuse.  The core must give exactly its visits,
values, principal variation and playout plies, on every game, on the 16-bit
halves and the int form (more than 255 seeds) and across calls.  Then hand-worked positions, the
documented relations of tree reuse, and bad input.
"""
from __future__ import annotations

import math
import threading
import time

import pytest
from tests.helpers import DJENON_CAPTURE, GORE_CHAIN, KATRO_WIN, quick_and_slow, random_text
from tests.int_forms import NOT_INTS, same_number

import katra
from katra import _core, _limits
from katra.api import MCTS, MctsResult, mcts

MASK = (1 << 64) - 1

# ---------------------------------------------------------------- the model


def splitmix64(state):
    """docs/rules.md §6.2: (the next state, the next output)."""
    state = (state + 0x9E3779B97F4A7C15) & MASK
    z = state
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
    return state, z ^ (z >> 31)


def playout(state, rng, cap):
    """One game of §6.2 from state (changed): (winner or None for a draw, or
    "unfinished"; the plies played)."""
    plies = 0
    while True:
        actions = state.legal_actions()
        if not actions:
            return state.outcome().winner, plies
        if plies == cap:
            return "unfinished", plies
        rng, draw = splitmix64(rng)
        state.push(actions[draw % len(actions)])
        plies += 1


def points(result, player):
    """Twice a playout's result for player."""
    if result is None or result == "unfinished":
        return 1
    return 2 if result == player else 0


class Node:
    __slots__ = ("action", "mover", "parent", "children", "visits", "score2", "terminal")

    def __init__(self, action, mover, parent):
        self.action, self.mover, self.parent = action, mover, parent
        self.children = None
        self.visits = self.score2 = 0
        self.terminal = False


class ModelMcts:
    """UCT as docs/mcts.md describes it, over katra.State."""

    def __init__(self, exploration=1.4, seed=0, max_nodes=_limits.MCTS_NODES,
                 max_plies=katra.DEFAULT_MAX_PLIES):
        self.c, self.seed, self.max_nodes, self.max_plies = exploration, seed, max_nodes, max_plies
        self.root = self.root_state = None
        self.used = 0
        self.played = 0

    def select(self, node):
        for kid in node.children:
            if kid.visits == 0:
                return kid
        lg = math.log(node.visits)
        best, best_v = None, -1.0
        for kid in node.children:
            inv = 1.0 / kid.visits
            v = 0.5 * kid.score2 * inv + self.c * math.sqrt(lg * inv)
            if v > best_v:
                best, best_v = kid, v
        return best

    def simulate(self):
        state = self.root_state.copy()
        node = self.root
        while True:
            if node.visits == 0 and node is not self.root:
                break
            if node.terminal:
                break
            if node.children is None:
                actions = state.legal_actions()
                if not actions:
                    node.terminal = True
                    break
                if self.used + len(actions) > self.max_nodes:
                    break
                node.children = [Node(a, state.to_move, node) for a in actions]
                self.used += len(actions)
            node = self.select(node)
            state.push(node.action)
        result, plies = playout(state, (self.seed + (self.played << 32)) & MASK, self.max_plies)
        self.played += 1
        while node is not None:
            node.visits += 1
            node.score2 += points(result, node.mover)
            node = node.parent
        return plies

    def find(self, state):
        """The shallowest visited node within 4 plies whose position is state's,
        first in ascending action order."""
        want = state.text()

        def at(node, position, plies):
            if plies == 0:
                return node if position.text() == want else None
            for kid in node.children or ():
                if kid.visits == 0:
                    break
                position.push(kid.action)
                found = at(kid, position, plies - 1)
                position.pop()
                if found is not None:
                    return found
            return None

        for plies in range(5):
            found = at(self.root, self.root_state.copy(), plies)
            if found is not None:
                return found
        return None

    def search(self, state, simulations):
        found = self.find(state) if self.root is not None else None
        if found is None:
            self.root = Node(-1, state.to_move, None)
        elif found is not self.root:
            found.parent = None
            found.mover = state.to_move
            found.visits = sum(kid.visits for kid in found.children or ())
            found.score2 = sum(kid.score2 for kid in found.children or ())
            self.root = found
        self.used = self.count(self.root)
        self.root_state = state.copy()
        reused = self.root.visits
        plies = sum(self.simulate() for _ in range(simulations))
        return self.report(simulations, reused, plies)

    def count(self, node):
        return 1 + sum(self.count(kid) for kid in node.children) if node.children else 1

    def report(self, simulations, reused, plies):
        pv = []
        node = self.root
        while node.children:
            best = None
            for kid in node.children:
                if kid.visits > (best.visits if best else 0):
                    best = kid
            if best is None:
                break
            pv.append(best.action)
            node = best
        return {"best_action": pv[0], "simulations": simulations, "reused": reused,
                "value": self.root.score2 / (2 * self.root.visits),
                "children": tuple((kid.action, kid.visits, kid.score2 / (2 * kid.visits))
                                  for kid in self.root.children if kid.visits),
                "pv": tuple(pv), "tree_nodes": self.used, "playout_plies": plies}


def pinned(result: MctsResult):
    """What the model predicts of a result: all but the clock."""
    return {"best_action": result.best_action, "simulations": result.simulations,
            "reused": result.reused, "value": result.value, "children": result.children,
            "pv": result.pv, "tree_nodes": result.tree_nodes,
            "playout_plies": result.playout_plies}


# more than 255 seeds: the core plays them on the 16-bit halves (Katro 4x4) and the int form
HALVES16 = "katro-4x4 20,20,20,20/20,20,20,20/20,20,20,20/20,20,20,20 S"
INT_FORM = "katro " + "/".join(["8,8,8,8,8,8"] * 6) + " S"

POSITIONS = [*katra.GAME_IDS, *(random_text(g, 8, 3) for g in katra.GAME_IDS), HALVES16, INT_FORM]


@pytest.mark.parametrize("simulations", quick_and_slow(150, 2000))
@pytest.mark.parametrize("text", POSITIONS)
def test_the_core_grows_the_models_tree(text, simulations):
    state = katra.State.from_text(text) if " " in text else katra.game(text).initial_state()
    player = MCTS(seed=11)
    model = ModelMcts(seed=11)
    assert pinned(player.search(state, simulations=simulations)) == model.search(
        state, simulations)


@pytest.mark.parametrize("game_id", ["katro-4x4", "gore", "djenon-aboure", "katra-mpantsaka"])
def test_settings_cut_playouts_fill_the_tree_and_wrap_the_seed(game_id):
    """Short playouts (unfinished: 1/2), a full arena (simulations go on without
    expanding), another exploration constant, a seed near 2**64 (the playouts'
    generator starts wrap around)."""
    state = katra.game(game_id).initial_state()
    settings = {"exploration": 0.5, "seed": MASK - (3 << 32), "max_nodes": 256, "max_plies": 7}
    player = MCTS(**settings)
    model = ModelMcts(**settings)
    result = player.search(state, simulations=300)
    assert pinned(result) == model.search(state, 300)
    assert result.tree_nodes <= 256


def test_the_model_agrees_across_calls_and_reuse():
    """The same tree across calls: the same position again, then two plies down
    (re-rooted), then a position outside the tree (afresh)."""
    state = katra.game("djenon-aboure").initial_state()
    player, model = MCTS(seed=5), ModelMcts(seed=5)
    for simulations in (100, 60):
        assert pinned(player.search(state, simulations=simulations)) == model.search(
            state, simulations)
    first = player.search(state, simulations=1)
    model.search(state, 1)
    state.push(first.pv[0])
    state.push(state.legal_actions()[-1])
    again = player.search(state, simulations=80)
    assert again.reused > 0
    assert pinned(again) == model.search(state, 80)
    elsewhere = katra.State.from_text(random_text("djenon-aboure", 10, 1))
    fresh = player.search(elsewhere, simulations=50)
    assert fresh.reused == 0
    assert pinned(fresh) == model.search(elsewhere, 50)


def test_both_working_forms_grow_the_same_tree():
    for game_id in ("katro", "gore"):
        previous = _core._set_lanes(False)
        try:
            plain = pinned(mcts(game_id, simulations=120, seed=2))
        finally:
            _core._set_lanes(previous)
        assert pinned(mcts(game_id, simulations=120, seed=2)) == plain


# ---------------------------------------------------------------- hand-worked positions


@pytest.mark.parametrize(("text", "move"), [
    (KATRO_WIN, "a1"),         # a1 captures North's last seeds: North cannot move (§2.4)
    (DJENON_CAPTURE, "e1"),    # e1 captures 6; North passes; South ends the game 26-22
    (GORE_CHAIN, "d1"),        # d1's chain takes 10; North passes; South wins 13-0
])
def test_finds_the_winning_move(text, move):
    result = mcts(text, simulations=300)
    assert result.best_move == move
    assert result.pv[0] == result.best_action
    assert {a: v for a, _, v in result.children}[result.best_action] > 0.9


def test_a_won_position_is_worth_one():
    # KATRO_WIN's a1 ends the game at once: every simulation through it is a win
    result = mcts(KATRO_WIN, simulations=200)
    win = katra.State.from_text(KATRO_WIN).parse_move("a1")
    assert [v for a, _, v in result.children if a == win] == [1.0]


def test_visits_add_up():
    player = MCTS()
    first = player.search("katro", simulations=250)
    assert sum(n for _, n, _ in first.children) == first.simulations == 250
    assert first.reused == 0 and first.visits == 250
    again = player.search("katro", simulations=50)
    assert again.reused == 250
    assert sum(n for _, n, _ in again.children) == 300
    assert 0 <= again.value <= 1 and all(0 <= v <= 1 for _, _, v in again.children)


def test_a_seed_decides_everything():
    first = mcts("katra-mpantsaka", simulations=200, seed=9)
    assert pinned(mcts("katra-mpantsaka", simulations=200, seed=9)) == pinned(first)
    assert pinned(mcts("katra-mpantsaka", simulations=200, seed=10)) != pinned(first)


def test_calls_on_the_same_position_continue_one_tree():
    """n calls of k simulations grow the tree one call of n * k grows."""
    player = MCTS(seed=4)
    for _ in range(4):
        step = player.search("gore", simulations=50)
    whole = MCTS(seed=4).search("gore", simulations=200)
    assert (step.children, step.value, step.pv, step.tree_nodes) == (
        whole.children, whole.value, whole.pv, whole.tree_nodes)
    assert (step.simulations, step.reused, whole.reused) == (50, 150, 0)


def test_a_move_and_its_reply_keep_their_subtree():
    state = katra.game("katro-4x6").initial_state()
    player = MCTS(seed=3)
    first = player.search(state, simulations=400)
    state.push(first.pv[0])
    state.push(first.pv[1])
    again = player.search(state, simulations=100)
    # the kept root counts its children's visits (not its own playout's)
    assert 0 < again.reused < first.simulations
    assert sum(n for _, n, _ in again.children) == again.reused + 100
    model = ModelMcts(seed=3)
    model.search(katra.game("katro-4x6").initial_state(), 400)
    assert pinned(again) == model.search(state, 100)


def test_clear_makes_the_player_new():
    player = MCTS(seed=6)
    player.search("djenon-aboure", simulations=100)
    assert player.tree_nodes > 1
    player.clear()
    assert player.tree_nodes == 0
    assert pinned(player.search("djenon-aboure", simulations=100)) == pinned(
        MCTS(seed=6).search("djenon-aboure", simulations=100))


def test_a_time_limit_stops_it():
    result = MCTS().search("katro", time=0.05)
    assert result.simulations >= 1 and result.visits == result.simulations
    both = MCTS().search("katro", simulations=20, time=100)
    assert both.simulations == 20


def test_the_state_is_never_changed():
    for backend in ("core", "reference"):
        state = katra.game("gore").initial_state(backend=backend)
        state.push(state.legal_actions()[0])
        before = (state.text(), state.ply)
        MCTS().search(state, simulations=50)
        assert (state.text(), state.ply) == before


def test_the_settings_are_kept():
    player = MCTS(exploration=2, seed=7, max_nodes=1000, max_plies=50)
    assert (player.exploration, player.seed, player.max_nodes, player.max_plies) == (
        2.0, 7, 1000, 50)
    assert MCTS().max_nodes == _limits.MCTS_NODES
    assert katra.MCTS is MCTS and katra.mcts is mcts and katra.MctsResult is MctsResult


# ---------------------------------------------------------------- bad input


@pytest.mark.parametrize(("kwargs", "error", "name"), [
    ({}, katra.ArgumentError, "simulations"),
    ({"simulations": 0}, katra.ArgumentError, "simulations"),
    ({"simulations": 2**40 + 1}, katra.ArgumentError, "simulations"),
    ({"simulations": 1.0}, katra.ArgumentTypeError, "simulations"),
    ({"simulations": True}, katra.ArgumentTypeError, "simulations"),
    ({"time": 0}, katra.ArgumentError, "time"),
    ({"time": -1}, katra.ArgumentError, "time"),
    ({"time": 10**7}, katra.ArgumentError, "time"),
    ({"time": "1"}, katra.ArgumentTypeError, "time"),
    ({"time": float("nan")}, katra.ArgumentError, "time"),
    ({"time": 10**400}, katra.ArgumentError, "time"),
])
def test_bad_limits(kwargs, error, name):
    player = MCTS()
    player.search("katro-4x4", simulations=30)
    nodes = player.tree_nodes
    with pytest.raises(error, match=name):
        player.search("katro-4x4", **kwargs)
    with pytest.raises(error, match=name):
        mcts("katro-4x4", **kwargs)
    assert player.tree_nodes == nodes


@pytest.mark.parametrize(("kwargs", "error", "name"), [
    ({"exploration": -0.1}, katra.ArgumentError, "exploration"),
    ({"exploration": float("nan")}, katra.ArgumentError, "exploration"),
    ({"exploration": float("inf")}, katra.ArgumentError, "exploration"),
    ({"exploration": "1"}, katra.ArgumentTypeError, "exploration"),
    ({"exploration": True}, katra.ArgumentTypeError, "exploration"),
    ({"exploration": 10**400}, katra.ArgumentError, "exploration"),
    ({"exploration": 1j}, katra.ArgumentTypeError, "exploration"),
    ({"seed": -1}, katra.ArgumentError, "seed"),
    ({"seed": 2**64}, katra.ArgumentError, "seed"),
    ({"seed": 1.0}, katra.ArgumentTypeError, "seed"),
    ({"max_nodes": 255}, katra.ArgumentError, "max_nodes"),
    ({"max_nodes": 2**31}, katra.ArgumentError, "max_nodes"),
    ({"max_plies": -1}, katra.ArgumentError, "max_plies"),
    ({"max_plies": 2**62 + 1}, katra.ArgumentError, "max_plies"),
])
def test_bad_settings(kwargs, error, name):
    with pytest.raises(error, match=name):
        MCTS(**kwargs)


@pytest.mark.parametrize("bad", NOT_INTS)
def test_ints_are_ints(bad):
    with pytest.raises(katra.ArgumentTypeError, match="simulations"):
        mcts("katro-4x4", simulations=bad)
    for form in same_number(3):
        assert mcts("katro-4x4", simulations=form).simulations == 3


def test_the_core_refuses_what_the_api_refuses():
    pos = _core.Position.initial("gore")
    with pytest.raises(katra.ArgumentError, match="simulations"):
        _core.Mcts().search(pos, 0)
    with pytest.raises(katra.ArgumentError, match="simulations or a time"):
        _core.Mcts().search(pos)
    with pytest.raises(katra.ArgumentTypeError, match="Position"):
        _core.Mcts().search("gore", 10)
    with pytest.raises(katra.ArgumentError, match="max_nodes"):
        _core.Mcts(max_nodes=10)


def test_a_finished_game_is_refused():
    finished = katra.State.from_text(KATRO_WIN)
    finished.push("a1")
    assert finished.is_terminal()
    with pytest.raises(katra.ArgumentError, match="finished"):
        MCTS().search(finished, simulations=10)
    with pytest.raises(katra.ArgumentTypeError):
        mcts(3.5, simulations=10)


# ---------------------------------------------------------------- stopping, threads


def test_cancel_jobs_stops_it_and_one_thread_at_a_time():
    player = MCTS(max_nodes=1 << 16)
    outcome = []

    def endless():
        try:
            player.search("katra-mpantsaka", simulations=_limits.MAX_MCTS_SIMULATIONS)
        except katra.JobCancelled as exc:
            outcome.append(exc)

    thread = threading.Thread(target=endless)
    thread.start()
    try:
        refused = None
        while refused is None:
            try:
                player.search("katro", simulations=1)   # before the thread's search starts
            except RuntimeError as exc:
                refused = exc
        assert "one thread at a time" in str(refused)
    finally:
        first = time.monotonic()
        while thread.is_alive() and time.monotonic() - first < 60:
            katra.cancel_jobs()
            thread.join(0.05)
    assert not thread.is_alive()
    assert len(outcome) == 1
    # the tree kept every simulation completed before the stop: searching on continues it
    again = player.search("katra-mpantsaka", simulations=10)
    assert sum(n for _, n, _ in again.children) == again.visits == again.reused + 10


def test_doc_examples():
    """docs/mcts.md and the katra.api._mcts docstrings run as doctests."""
    import doctest
    import importlib
    from pathlib import Path

    path = Path(__file__).resolve().parent.parent / "docs" / "mcts.md"
    result = doctest.testfile(str(path), module_relative=False,
                              optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert result.attempted >= 5 and result.failed == 0
    result = doctest.testmod(importlib.import_module("katra.api._mcts"))
    assert result.attempted >= 4 and result.failed == 0
