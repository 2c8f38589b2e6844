"""katra.retrograde and ``katra solve --retrograde``: every position reachable, solved.

The thresholds are checked against the definition of docs/rules.md §6.3 computed
naively (the sets of positions forcing each question within N plies, for N = 0, 1,
2, ... until they stop growing), on a graph listed again on the reference backend;
against the bounded solver at random positions; the results against the table of
solved variants (df-pn and the bounded solver); and the proofs through the
reference's checker.
"""
import io
import random

import pytest

import katra
from helpers import katra_in_process
from katra import _core
from katra.api import DEFAULT_POSITIONS, MAX_POSITIONS
from katra.api._backends import Solver
from katra.api._questions import DRAW, QUESTIONS
from katra.api._retrograde import RetrogradeGraph
from katra.testing import check_proof, solved_variants

# Small starts of every family, with their graphs' sizes
SMALL = ["katro-4x2-s1", "katra-mpantsaka-4x2-s1", "gore-2x2-s3", "djenon-aboure-2x4-s3",
         "djenon-aboure-2x3-s4",
         pytest.param("katra-mpantsaka-simplified-4x2-s1", marks=pytest.mark.slow)]


def graph_of(game_id):
    graph = RetrogradeGraph(_core.Position.initial(game_id), 10 ** 6)
    graph.solve()
    return graph


def reference_graph(game_id):
    """The texts reachable from game_id's start and each one's moves (action, child
    text), listed on the reference backend."""
    start = katra.State(game_id, backend="reference")
    moves, todo = {start.text(): None}, [start]
    while todo:
        state = todo.pop()
        out = []
        for action in state.legal_actions():
            child = state.child(action)
            out.append((action, child.text()))
            if child.text() not in moves:
                moves[child.text()] = None
                todo.append(child)
        moves[state.text()] = (int(state.to_move), out, state.outcome())
    return moves


def forces(outcome, question):
    """Does a finished game's outcome answer question yes?"""
    return outcome.winner == question.player or (
        question.target == DRAW and outcome.winner is None)


def naive_thresholds(moves):
    """§6.3 from its definition: for each question, the least N within which the
    player forces it at each position (the set forcing it within N, grown N by N
    until it stops)."""
    out = {}
    for question in QUESTIONS:
        least = {text: 0 for text, (_, kids, outcome) in moves.items()
                 if not kids and forces(outcome, question)}
        n = 0
        while True:
            n += 1
            grown = {}
            for text, (mover, kids, _) in moves.items():
                if text in least or not kids:
                    continue
                within = [child in least for _, child in kids]
                if any(within) if mover == question.player else all(within):
                    grown[text] = n
            if not grown:
                break
            least.update(grown)
        out[question] = least
    return out


@pytest.mark.parametrize("game_id", SMALL)
def test_thresholds_are_the_definitions(game_id):
    graph = graph_of(game_id)
    moves = reference_graph(game_id)
    texts = [_core.Position._from_key(key).text() for key in graph.keys]
    assert sorted(texts) == sorted(moves)
    naive = naive_thresholds(moves)
    for v, text in enumerate(texts):
        for question, rank in zip(QUESTIONS, graph.thresholds_of(v)):
            assert rank == naive[question].get(text), (text, question)
        _, kids, _ = moves[text]
        assert [(a, texts[c]) for a, c in graph.moves(v)] == kids


def test_thresholds_agree_with_the_bounded_solver():
    rng = random.Random(7)
    solver = Solver(16)
    for game_id in ["katro-4x3-s1", "gore-2x2-s4", "katra-mpantsaka-4x2-s1"]:
        graph = graph_of(game_id)
        for v in rng.sample(range(len(graph)), 12):
            pos = _core.Position._from_key(graph.keys[v])
            if pos.is_terminal():
                continue
            for question, rank in zip(QUESTIONS, graph.thresholds_of(v)):
                if rank is None:       # never: not within a generous bound either
                    assert not solver.forces(pos, question.player, question.target, 40)
                else:                  # exactly rank: within it, not one ply less
                    assert solver.forces(pos, question.player, question.target, rank)
                    assert not solver.forces(pos, question.player, question.target, rank - 1)


@pytest.mark.parametrize("budget, least", [
    (20_000, 30), pytest.param(400_000, 45, marks=pytest.mark.slow)])
def test_results_agree_with_the_table_of_solved_variants(budget, least):
    checked = 0
    for row in solved_variants():
        if row.status not in ("settled", "no-result") or row.nodes > 2_000_000:
            continue
        result = katra.retrograde(row.id, positions=budget)
        if result.max_nodes is not None:          # too many positions for this test
            continue
        checked += 1
        if row.status == "no-result":
            assert result.outcome is None and result.describe() == "no forced result"
            continue
        assert result.outcome == row.outcome, row.id
        if row.exact:
            assert (result.plies, result.best_move) == (row.plies, row.best_move), row.id
        else:
            assert result.plies <= row.plies, row.id
    assert checked >= least


@pytest.mark.parametrize("game_id, words", [
    ("katro-4x2-s1", "South wins in 7 plies"),
    ("djenon-aboure-2x3-s4", "North wins in 8 plies"),
    ("djenon-aboure-2x4-s3", "draw in 6 plies"),
    ("katra-mpantsaka-4x2-s1", "no forced result"),
])
def test_proofs_check_on_the_reference(game_id, words, tmp_path):
    out = io.StringIO()
    result = katra.retrograde(game_id, proof=out)
    assert result.describe() == words and result.exact
    if result.outcome is None:
        assert out.getvalue() == ""
        return
    path = tmp_path / "p.proof"
    path.write_text(out.getvalue(), encoding="utf-8")
    summary = check_proof(path)
    assert (summary.outcome, summary.plies) == (result.outcome, result.plies)
    # the line of best moves ends the game in exactly the distance
    state = katra.State(game_id)
    for action in result.pv:
        state.push(action)
    assert len(result.pv) == result.plies and state.is_terminal()


def test_a_mid_game_position_and_a_state():
    state = katra.State("gore-2x2-s4")        # South wins in 26 (the table of variants)
    state.push("a1")
    result = katra.retrograde(state)
    assert result.to_move == 1 and result.outcome == "loss" and result.plies == 25
    assert katra.retrograde(state.text()).plies == 25


def test_the_budget():
    result = katra.retrograde("katro-4x3-s1", positions=1000)
    assert result.outcome is None and result.max_nodes == 1000 and result.nodes == 1000
    assert result.describe() == "no result within 1000 positions"
    assert DEFAULT_POSITIONS == 1_000_000 and MAX_POSITIONS == 2 ** 31


@pytest.mark.parametrize("kwargs, error", [
    ({"positions": 0}, katra.ArgumentError),
    ({"positions": MAX_POSITIONS + 1}, katra.ArgumentError),
    ({"positions": "many"}, katra.ArgumentTypeError),
    ({"positions": 2.5}, katra.ArgumentTypeError),
])
def test_bad_arguments(kwargs, error):
    with pytest.raises(error, match="positions"):
        katra.retrograde("katro-4x2-s1", **kwargs)


def test_a_finished_position_is_refused():
    with pytest.raises(katra.ArgumentError, match="finished"):
        katra.retrograde("katro-4x2-s1 1,0/0,0/0,0/0,0 S")


def test_keys_round_trip_and_refuse_garbage():
    for text in ["gore 1,2,3,4/5,6,7,8 N stores=10,8 owners=NNSN/SSNS offer=a1",
                 "katro 2,2,2,2,2,2/2,2,2,2,2,2/2,0,2,2,2,2/3,0,3,3,3,3/3,0,3,3,1,4/0,3,1,0,1,4 N",
                 "djenon-aboure 300,0,0,0,0,0/0,0,0,0,0,1 S stores=3,0"]:
        pos = _core.Position.from_text(text)
        back = _core.Position._from_key(pos._key())
        assert back == pos and back.text() == pos.text()
        assert pos._child_keys() == [(a, _played(pos, a)._key()) for a in pos.legal_actions()]
    for bad in [b"", b"\xff\xff" * 14, _core.Position.initial("gore")._key()[:-2], "text"]:
        with pytest.raises(katra.PositionError):
            _core.Position._from_key(bad)


def _played(pos, action):
    child = pos.copy(stack=False)
    child.apply(action)
    return child


def test_the_command(tmp_path):
    proof = tmp_path / "k.proof"
    done = katra_in_process("solve", "katro-4x2-s1", "--retrograde", "--proof", proof)
    assert done.returncode == 0, done.stderr
    assert "South wins in 7 plies" in done.stdout
    assert "retrograde analysis (every position reachable)" in done.stdout
    assert katra_in_process("solve", "--check", proof).returncode == 0
    done = katra_in_process("solve", "katra-mpantsaka-4x2-s1", "--retrograde", "--json")
    assert '"outcome": null' in done.stdout and '"complete": true' in done.stdout
    for args, words in [
        (["katro-4x2-s1", "--positions", "5"], "--positions is --retrograde's budget"),
        (["katro-4x2-s1", "--retrograde", "--nodes", "5"], "--retrograde takes no --nodes"),
        (["katro-4x2-s1", "--retrograde", "--max-plies", "5"], "not allowed with"),
        (["katro-4x2-s1", "--retrograde", "--positions", "0"], "--positions"),
        (["katra-mpantsaka-4x2-s1", "--retrograde", "--proof", tmp_path / "x"],
         "no forced result: there is no proof to write"),
    ]:
        done = katra_in_process("solve", *args)
        assert done.returncode == 2 and words in done.stderr, done.stderr
        assert len(done.stderr.strip().splitlines()) == 1
    assert not (tmp_path / "x").exists()
