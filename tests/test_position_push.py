"""The core Position's legality check (push, apply, is_legal, lap_count) against the
reference, every action of the action space on seeded positions of every game.

The core tests a sowing candidate on the mover's origin mask and sows it once, in the
child (katra._core's action_legal); the other actions (Goré's, Djenon-aboure's pass,
the illegal ones) take the node layer's path.  Each must agree with the reference's
legal actions (docs/rules.md), make the reference's child, and leave the position
untouched when it refuses an action with IllegalMoveError.
"""
import pytest

from helpers import NEVER_ENDING, random_positions
from katra import _core
from katra._errors import IllegalMoveError
from katra._games import GAME_IDS, GAMES, LAP_LIMIT
from katra._reference import Position as RefPosition

#: Djenon-aboure positions where the pass is forced (§5.3: no sowing, some hole holds 2
#: or more), found by seeded reference walks; test_djenon_aboure_pass_is_forced checks it.
DJENON_PASS = [
    "djenon-aboure 1,1,2,3,2,1/0,1,1,0,1,1 S stores=10,24",
    "djenon-aboure 1,1,2,1,1,0/0,1,1,1,0,1 S stores=20,18",
    "djenon-aboure 1,1,1,1,0,1/1,3,0,1,0,0 N stores=16,22",
]


def positions_of(game_id):
    texts = random_positions(game_id, 12, 2633, range(0, 80))
    texts += [text for text, _ in NEVER_ENDING if text.split()[0] == game_id]
    if game_id == "djenon-aboure":
        texts += DJENON_PASS
    return texts


def check_every_action(text):
    ref = RefPosition.from_text(text)
    legal = set(ref.legal_actions())
    candidates = set(ref.rules.sowing_candidates(ref))
    pos = _core.Position.from_text(text)
    start = pos.copy()
    for action in range(GAMES[ref.game_id].num_actions):
        assert pos.is_legal(action) == (action in legal), (text, action)
        if action in legal:
            child = ref.copy()
            child.apply(action)
            pos.push(action)
            assert pos.text() == child.text(), (text, action)
            assert pos.stack_depth == 1
            assert pos.pop() == action
            other = pos.copy()
            other.apply(action)
            assert other.text() == child.text()
        else:
            with pytest.raises(IllegalMoveError, match=rf"action {action}\b"):
                pos.push(action)
            with pytest.raises(IllegalMoveError, match=rf"action {action}\b"):
                pos.apply(action)
        assert pos == start and pos.text() == text, (text, action)
        assert pos.stack_depth == 0
        if action in candidates:
            assert pos.lap_count(action) == ref.lap_count(action, LAP_LIMIT), (text, action)
        else:
            with pytest.raises(IllegalMoveError, match=rf"action {action}\b"):
                pos.lap_count(action)
        assert pos == start


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_push_takes_exactly_the_legal_actions(game_id):
    for text in positions_of(game_id):
        check_every_action(text)


@pytest.mark.parametrize("text", DJENON_PASS)
def test_djenon_aboure_pass_is_forced(text):
    """The pass positions above are what they say (the fallback path is exercised)."""
    assert RefPosition.from_text(text).legal_actions() == [GAMES["djenon-aboure"].num_actions - 1]
