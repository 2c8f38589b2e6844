"""What the lap limit (docs/rules.md §1.3) costs: positions with never-ending candidates.

    python -m pytest benchmarks/bench_lap_limit.py --benchmark-group-by=group

The core stops a never-ending sowing when Brent's cycle detector sees a
lap-start state again; the reference counts all 10,000 laps.  Each group
shows both, on positions whose candidate moves include one that never ends.
"""
import pytest

from katra._games import GAMES
from katra._text import parse_action

# (position, a move that never ends in it); from tests/test_rules_*.py.
NEVER_ENDING = [
    ("katro-4x4 2,7,5,10/3,0,3,1/0,0,0,1/0,0,0,0 N", "c4"),
    ("katro-4x4 0,0,1,1/1,2,0,0/0,0,0,1/12,0,0,0 S", "a1"),
    ("katra-mpantsaka 0,1,4,4,1,3,3,0/1,3,0,0,0,1,3,3/1,5,0,1,2,2,3,5/1,0,4,1,4,1,2,5 S",
     "g2+"),
]
IDS = ["katro-4x4-c4", "katro-4x4-a1", "mpantsaka-g2+"]


@pytest.mark.parametrize("text,move", NEVER_ENDING, ids=IDS)
def test_legal_actions_with_a_never_ending_candidate(benchmark, impl, text, move):
    benchmark.group = f"legal_actions, never-ending {move} in {text.split()[0]}"
    position = impl.Position.from_text(text)
    action = parse_action(GAMES[position.game_id], move)
    legal = benchmark(position.legal_actions)
    assert action not in legal


@pytest.mark.parametrize("text,move", NEVER_ENDING, ids=IDS)
def test_lap_count_of_a_never_ending_move(benchmark, impl, text, move):
    benchmark.group = f"lap_count, never-ending {move} in {text.split()[0]}"
    position = impl.Position.from_text(text)
    action = parse_action(GAMES[position.game_id], move)
    assert benchmark(position.lap_count, action) is None


@pytest.mark.parametrize("depth", [7])
def test_perft_katro_4x4_core_only(benchmark, depth):
    """katro-4x4 is where never-ending candidates are most common (1 in 1,100)."""
    from katra import _core

    benchmark.group = f"perft katro-4x4 d{depth} (core)"
    nodes = benchmark(_core.perft, _core.Position.initial("katro-4x4"), depth)
    assert nodes > 0
