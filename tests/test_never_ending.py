"""The lap limit (docs/rules.md §1.3): real never-ending moves, one or more per relay
game where random play finds one, excluded from the legal moves on both backends;
long moves that end are legal, and cut by a limit one lap shorter.

The positions were found by random play (1 candidate in about 1,100 never ends
in katro-4x4, 1 in 10,000 in Katra Mpantsaka).  The reference counts laps
plainly, so its verdict is the rule itself: the sowing needs more than 10,000
laps.  The core must agree, whatever its cycle detector sees.
(tests/test_rules_katro.py and test_rules_mpantsaka.py show the Katro 4x4 and
Katra Mpantsaka cases by hand, including a cycle seen by an independent loop.)
"""
import pytest

from helpers import NEVER_ENDING
from katra._errors import IllegalMoveError
from katra._games import GAMES, LAP_LIMIT
from katra._reference import Position
from katra._text import parse_action


@pytest.mark.parametrize("text,move", NEVER_ENDING, ids=[f"{t.split()[0]}-{m}"
                                                          for t, m in NEVER_ENDING])
def test_never_ending_move_is_not_legal(impl, text, move):
    position = impl.Position.from_text(text)
    action = parse_action(GAMES[position.game_id], move)
    assert position.lap_count(action) is None             # a sowing candidate ...
    assert position.lap_count(action, LAP_LIMIT) is None  # ... past the lap limit
    assert action not in position.legal_actions()
    assert not position.is_legal(action)
    with pytest.raises(IllegalMoveError):
        position.apply(action)
    assert position.text() == text
    # Every other candidate that ends is still legal: only the endless one is dropped.
    for other in position.legal_actions():
        assert position.lap_count(other) is not None


#: Long moves that end, found by random play: (position, move, its exact lap count).
#: Each is legal under katra.LAP_LIMIT (and would not be under a limit below its count).
LONG_MOVES = [
    ("katra-mpantsaka 1,2,5,2,9,1,0,4/0,3,2,1,3,2,3,2/0,0,0,1,0,0,0,0/0,9,1,9,0,3,0,1 N",
     "c3+", 940),
    ("katra-mpantsaka-simplified 1,11,7,2,5,8,1,5/4,3,2,1,0,1,3,9/0,0,0,0,0,0,0,0/"
     "1,0,0,0,0,0,0,0 N", "g3+", 526),
    ("katro-4x4 1,0,2,0/1,0,3,0/3,0,10,0/1,4,3,4 S", "d1", 133),
]


@pytest.mark.parametrize("text,move,laps", LONG_MOVES, ids=[f"{t.split()[0]}-{m}"
                                                            for t, m, _ in LONG_MOVES])
def test_a_long_move_is_cut_by_a_limit_one_lap_shorter(impl, text, move, laps):
    """Both backends count the laps exactly: the move ends within ``laps`` laps, not
    within ``laps - 1`` (lap_count's limit is the only limit a caller can lower)."""
    position = impl.Position.from_text(text)
    action = parse_action(GAMES[position.game_id], move)
    assert position.lap_count(action) == laps
    assert position.lap_count(action, laps) == laps
    assert position.lap_count(action, laps - 1) is None
    assert position.is_legal(action)       # under katra.LAP_LIMIT
    position.apply(action)
    assert position.text() != text


@pytest.mark.parametrize("text,move,laps", LONG_MOVES, ids=[f"{t.split()[0]}-{m}"
                                                            for t, m, _ in LONG_MOVES])
def test_the_reference_lists_a_long_move_only_under_a_limit_it_fits(text, move, laps):
    """The reference's rules take the limit as an argument (the core compiles in
    katra.LAP_LIMIT, so there only lap_count can be given a lower one)."""
    position = Position.from_text(text)
    action = parse_action(GAMES[position.game_id], move)
    assert action in position.rules.legal_actions(position, laps)
    assert action not in position.rules.legal_actions(position, laps - 1)
    assert position.rules.legal_actions(position, LAP_LIMIT) == position.legal_actions()
