"""The lanes' packing (halves_pack, cython_core/_lanes.pxi): a Katro or Katra
Mpantsaka position is read a row at a time into the mover's and the opponent's
lanes, each player's loop through its rows there and back, North's the board
turned round.  A hole read into the wrong lane changes the play, so on
positions whose holes hold varied counts (few alike) the core's legal actions
(listed on the lanes), divide and playout tallies equal the reference's, South
and North to move; divide and the playouts on the int form too.  The word
boundaries of the lanes have their own tests (tests/test_lanes.py).
"""
import random

import pytest

from helpers import on_every_form, position_text
from katra import _core, _reference
from katra._games import GAME_IDS, GAMES, KATRO, MPANTSAKA

LANE_GAMES = [game_id for game_id in GAME_IDS if GAMES[game_id].family in (KATRO, MPANTSAKA)]


def varied_board(holes, rng, most=255):
    """holes counts of 0..15 at random, at most most seeds in all (the lanes')."""
    board = [rng.randrange(16) for _ in range(holes)]
    while sum(board) > most:
        board[rng.randrange(holes)] //= 2
    return board


@pytest.mark.parametrize("game_id", LANE_GAMES)
@pytest.mark.parametrize("to_move", [0, 1])
@pytest.mark.parametrize("seed", range(4))
def test_every_hole_is_read_into_its_lane(game_id, to_move, seed):
    spec = GAMES[game_id]
    rng = random.Random(f"{game_id} {to_move} {seed}")
    text = position_text(game_id, varied_board(spec.rows * spec.cols, rng), to_move=to_move)
    core, ref = _core.Position.from_text(text), _reference.Position.from_text(text)
    assert core.legal_actions() == ref.legal_actions(), text
    assert on_every_form(_core.divide, core, 2) == _reference.divide(ref, 2), text
    assert (on_every_form(_core.playouts, core, 3, seed, 40)
            == _reference.playouts(ref, 3, seed, 40)), text


@pytest.mark.parametrize("game_id", LANE_GAMES)
def test_a_lone_seed_in_each_hole(game_id):
    """One seed in one hole, two in another: every pair of holes, each player to
    move, moves exactly as the reference's (a lane read from the wrong hole
    or row, or a row read the wrong way round, shows)."""
    spec = GAMES[game_id]
    holes = spec.rows * spec.cols
    for one in range(holes):
        two = (one * 7 + 3) % holes
        if two == one:
            continue
        board = [0] * holes
        board[one], board[two] = 1, 2
        for to_move in (0, 1):
            text = position_text(game_id, board, to_move=to_move)
            core, ref = _core.Position.from_text(text), _reference.Position.from_text(text)
            assert core.legal_actions() == ref.legal_actions(), text
            assert _core.divide(core, 2) == _reference.divide(ref, 2), text
