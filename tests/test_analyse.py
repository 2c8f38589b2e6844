"""katra.analyse and ``katra analyse`` (docs/engine.md, "Analysis"): every legal
move once with its exact score, proven results marked, best first; hand-worked
positions from docs/rules.md, agreement with search and with a brute-force
negamax over the reference, and bad input on every layer.
"""
import json

import pytest

import katra
from helpers import DJENON_CAPTURE, GORE_CHAIN, KATRO_WIN, child_value, random_text
from katra import _core
from katra._games import GAME_IDS
from katra._reference import Position as RefPosition
from katra.api import MATE, Analysis, Engine, MoveScore, analyse, search
from katra.cli import main

# KATRO_WIN (test_search.py, worked from docs/rules.md §2.3): a1 captures b3 and
# North has no seed left: a win in 1 ply.  b1 sows into the empty c1 and ends.
# Depth 1 after b1, North to move (docs/engine.md's evaluation): held = 2 - 2 = 0,
# North sows from row 3 (b3: 1 hole), South from row 1 (a1, c1: 2 holes), so
# North's value is 4*0 + (1 - 2) = -1 and b1 scores +1 for South.  Depth 2:
# North's only move b3 sows c3, d3 (empty: the move ends); South then holds
# a1, c1 and North c3, d3: held 0, 2 holes each: b1 scores 0.


def test_a_win_in_one_is_proven_and_first():
    for depth, b1_score in ((1, 1), (2, 0)):
        a = analyse(KATRO_WIN, depth=depth)
        assert isinstance(a, Analysis) and a.depth == depth
        assert [(m.move, m.action, m.score) for m in a] == [("a1", 0, MATE - 1),
                                                            ("b1", 1, b1_score)]
        best = a.best
        assert isinstance(best, MoveScore)
        assert best.is_win and not best.is_loss and best.plies == 1
        assert best.describe() == "wins in 1 ply" and best.pv == (0,)
        other = a.moves[1]
        assert not other.is_win and not other.is_loss and other.plies is None
        assert other.describe() == f"score {b1_score:+d}"
        assert other.pv[0] == 1 and len(a) == 2


def test_wins_and_the_other_moves_in_three_plies():
    # DJENON_CAPTURE: e1 wins in 3 (test_search.py); GORE_CHAIN: d1 wins in 3.
    for text, winner, other in ((DJENON_CAPTURE, "e1", "c1"), (GORE_CHAIN, "d1", "a1")):
        a = analyse(text, depth=6)
        assert a.best.move == winner
        assert a.best.score == MATE - 3 and a.best.describe() == "wins in 3 plies"
        assert {m.move for m in a} == {winner, other}
        # the best move's line is search's line
        assert a.best.pv == search(text, depth=6).pv


def test_a_lost_position_lists_its_only_move_as_a_loss():
    # North must pass, then South's c1 ends the game 26-22 (test_search.py).
    a = analyse("djenon-aboure 0,0,0,0,0,0/1,0,2,0,1,1 N stores=21,22", depth=5)
    assert [(m.move, m.score) for m in a] == [("pass", -(MATE - 2))]
    assert a.best.is_loss and a.best.plies == 2 and a.best.describe() == "loses in 2 plies"


def _positions():
    out = []
    for game_id in GAME_IDS:
        for plies, seed in ((0, 0), (9, 1), (30, 2)):
            text = random_text(game_id, plies, seed)
            if not RefPosition.from_text(text).is_terminal():
                out.append((game_id, text))
    return out


BRUTE_DEPTH = {"katra-mpantsaka-simplified": 1, "katro": 2, "katra-mpantsaka": 1}


@pytest.mark.parametrize("game_id,text", _positions(),
                         ids=lambda x: x if " " not in x else None)
def test_every_move_once_scored_as_brute_force(game_id, text):
    ref = RefPosition.from_text(text)
    depth = BRUTE_DEPTH.get(game_id, 2)
    a = analyse(text, depth=depth)
    assert sorted(m.action for m in a) == ref.legal_actions()   # each legal move once
    for m in a:
        assert m.score == child_value(ref, m.action, depth), m.move
        assert m.pv[0] == m.action
    keys = [(-m.score, m.action) for m in a]
    assert keys == sorted(keys)                                  # best first, ties by action


@pytest.mark.parametrize("game_id,text", _positions(),
                         ids=lambda x: x if " " not in x else None)
def test_agrees_with_search_at_the_same_depth(game_id, text):
    for depth in (3, 5):
        a = analyse(text, depth=depth)
        r = search(text, depth=depth)
        assert (a.best.action, a.best.score) == (r.best_action, r.score)
        assert a.depth == r.depth == depth
        # the smallest action among the best-scored: search's tie rule
        assert r.best_action == min(m.action for m in a if m.score == r.score)
        kept = Engine(tt_bits=16)
        assert kept.analyse(text, depth=depth) .moves == a.moves


def test_nodes_and_time_limits():
    a = analyse("katro", nodes=5000)
    assert a.nodes == 5000 and a.depth >= 1 and len(a) == 6
    b = analyse("katro", depth=a.depth)
    assert [(m.action, m.score) for m in a] == [(m.action, m.score) for m in b]
    t = analyse("gore", time=0.05)
    assert t.depth >= 1 and len(t) == len(katra.game("gore").initial_state().legal_actions())


def test_state_unchanged_and_backends():
    for backend in ("core", "reference"):
        state = katra.game("djenon-aboure").initial_state(backend=backend)
        before = state.text()
        a = analyse(state, depth=3)
        assert state.text() == before
        assert sorted(m.action for m in a) == state.legal_actions()


BAD_ARGUMENTS = [
    ({}, katra.ArgumentError),                       # no limit
    ({"depth": 0}, katra.ArgumentError),
    ({"depth": 65}, katra.ArgumentError),
    ({"depth": 2.0}, katra.ArgumentTypeError),
    ({"depth": True}, katra.ArgumentTypeError),
    ({"time": 0}, katra.ArgumentError),
    ({"time": float("nan")}, katra.ArgumentError),
    ({"time": "1"}, katra.ArgumentTypeError),
    ({"nodes": 0}, katra.ArgumentError),
    ({"nodes": 2**62 + 1}, katra.ArgumentError),
    ({"nodes": 10.0}, katra.ArgumentTypeError),
    ({"nodes": False}, katra.ArgumentTypeError),
]


@pytest.mark.parametrize("kwargs,error", BAD_ARGUMENTS, ids=str)
def test_bad_arguments(kwargs, error):
    for call in (analyse, Engine().analyse):
        with pytest.raises(error):
            call("katro", **kwargs)


def test_bad_positions():
    with pytest.raises(katra.UnknownGameError):
        analyse("chess", depth=1)
    with pytest.raises(katra.ArgumentTypeError):
        analyse(42, depth=1)
    with pytest.raises(katra.ArgumentError, match="finished"):
        analyse("katro-4x4 0,0,0,0/0,0,0,0/0,2,0,0/1,1,0,0 N", depth=1)
    with pytest.raises(TypeError):
        analyse("katro", 3)          # the limits are keyword-only


def test_core_every_move_lists_each_child():
    pos = _core.Position.from_text(KATRO_WIN)
    raw = _core.search(pos, 2, every_move=True)
    assert sorted(a for a, _, _ in raw["moves"]) == [0, 1]
    assert {a: s for a, s, _ in raw["moves"]} == {0: MATE - 1, 1: 0}
    assert "moves" not in _core.search(pos, 2)


# ---------------------------------------------------------------- the command line

def test_cli_text(capsys):
    assert main(["analyse", KATRO_WIN, "--depth", "2"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == f"position {KATRO_WIN}"
    assert lines[1].startswith("depth    2   (")
    assert lines[2].split() == ["move", "score", "line"]
    assert lines[3].split() == ["a1", "wins", "in", "1", "ply", "a1"]
    assert lines[4].split()[:2] == ["b1", "+0"]
    assert len(lines) == 5


def test_cli_json(capsys):
    assert main(["analyse", DJENON_CAPTURE, "--depth", "6", "--json"]) == 0
    record = json.loads(capsys.readouterr().out)
    assert record["position"] == DJENON_CAPTURE and record["to_move"] == "S"
    assert record["depth"] == 6
    first, second = record["moves"]
    assert first == {"move": "e1", "action": 4, "score": MATE - 3, "result": "win", "plies": 3,
                     "pv": ["e1", "pass", "c1"]}
    assert second["move"] == "c1" and second["action"] == 2


def test_cli_nodes(capsys):
    assert main(["analyse", "katro", "--nodes", "3000", "--json"]) == 0
    record = json.loads(capsys.readouterr().out)
    assert record["nodes"] == 3000 and len(record["moves"]) == 6


@pytest.mark.parametrize("argv", [
    ["analyse", "katro", "--depth", "0"],
    ["analyse", "katro", "--depth", "65"],
    ["analyse", "katro", "--depth", "x"],
    ["analyse", "katro", "--time", "0"],
    ["analyse", "katro", "--time", "nan"],
    ["analyse", "katro", "--nodes", "0"],
    ["analyse", "katro", "--nodes", "1.5"],
    ["analyse", "katro", "--nodes", str(2**62 + 1)],
    ["analyse", "chess"],
    ["analyse", "katro-4x4 0,0,0,0/0,0,0,0/0,2,0,0/1,1,0,0 N", "--depth", "2"],
    ["analyse", "katro 1,2,3 S"],
    ["analyse"],
])
def test_cli_bad_input_one_line_exit_2(argv, capsys):
    assert main(argv) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert len(captured.err.strip().splitlines()) == 1
