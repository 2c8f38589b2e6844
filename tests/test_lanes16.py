"""The 16-bit halves (cython_core/_lanes.pxi): positions of more than 255 seeds.

A Katro or Katra Mpantsaka position of more than 255 seeds does not fit the
8-bit lanes.  On a board of at most 12 holes a player (Katro 4x2 to 4x6 and
6x2 to 6x4, Katra Mpantsaka 4x2 to 4x6) it runs on the same halves with
16-bit lanes, four a word; on a larger board, on the int form.  These tests
aim at what 16-bit lanes are most likely to get wrong: the word boundaries
(the 5th and 9th hole of a player's path), a lane that holds almost every
seed of a position of 1,000, the choice of the form, and positions drawn
over the whole range from 256 to 1,000 seeds, against the reference and on
every form (the tests' switch ``_core._set_halves16(True)`` also runs the
positions of 255 seeds or fewer on them, in ``on_every_form``).
"""
import random

import pytest
from hypothesis import strategies as st

from helpers import check_examples, on_every_form, position_text, quick_and_slow
from katra import _core, _reference
from katra._games import KATRO, MAX_TOTAL_SEEDS, MPANTSAKA, game_by_id
from katra._reference import katro as ref_katro
from katra._reference import mpantsaka as ref_mpantsaka

LANE_MAX = 255      # an 8-bit lane's most

#: Katro and Katra Mpantsaka sizes of at most 12 holes a player: the 16-bit halves'.
FITTING = ["katro-4x4", "katro-4x6", "katro-4x2-s2", "katro-6x4-s3", "katro-6x2-s1",
           "katra-mpantsaka-4x2-s3", "katra-mpantsaka-4x6-s2",
           "katra-mpantsaka-simplified-4x4-s3"]
#: Sizes of more holes a player: the int form above 255 seeds.
TOO_LARGE = ["katro", "katro-6x5-s2", "katra-mpantsaka", "katra-mpantsaka-simplified-4x7-s2"]


def check_jobs(text, depth=2, games=3, max_plies=30):
    """perft and divide to depth and a playout batch: core (every form) == reference."""
    core, ref = _core.Position.from_text(text), _reference.Position.from_text(text)
    assert core.legal_actions() == ref.legal_actions(), text
    for d in range(1, depth + 1):
        assert on_every_form(_core.perft, core, d) == _reference.perft(ref, d), (text, d)
    assert on_every_form(_core.divide, core, depth) == _reference.divide(ref, depth), text
    assert (on_every_form(_core.playouts, core, games, 5, max_plies)
            == _reference.playouts(ref, games, 5, max_plies)), text


def loops(game_id):
    """(South's, North's) sowing loop of a Katro or Katra Mpantsaka game (the
    counter-clockwise one in Katra Mpantsaka), as board holes in path order:
    lane x of a player is its loop's x-th hole."""
    spec = game_by_id(game_id)
    if spec.family == KATRO:
        return ref_katro.paths(spec)
    return tuple(ccw for ccw, _ in ref_mpantsaka.paths(spec))


def with_seeds(board, total, rng, holes=None):
    """board with seeds added at random to holes (default: every hole) up to total."""
    holes = range(len(board)) if holes is None else holes
    holes = list(holes)
    while sum(board) < total:
        board[rng.choice(holes)] += 1
    return board


# ---------------------------------------------------------------- the form

@pytest.mark.parametrize("game_id", FITTING + TOO_LARGE)
def test_the_form_of_more_than_255_seeds(game_id):
    """255 seeds: the game's own 8-bit lanes; 256 and 1,000: the 16-bit halves
    when a player has at most 12 holes, else the int form."""
    spec = game_by_id(game_id)
    rng = random.Random(game_id)
    fits = spec.holes // 2 <= 12
    for total in (LANE_MAX, LANE_MAX + 1, MAX_TOTAL_SEEDS):
        text = position_text(game_id, with_seeds([0] * spec.holes, total, rng))
        form = _core._working_form(_core.Position.from_text(text))
        if total == LANE_MAX:
            assert form not in ("halves16", "int_pos"), (game_id, form)
        else:
            assert form == ("halves16" if fits else "int_pos"), (game_id, total, form)


def test_the_switch_moves_small_positions_onto_the_16_bit_halves():
    previous = _core._set_halves16(True)
    try:
        assert _core._working_form(_core.Position.initial("katro-4x4")) == "halves16"
        assert _core._working_form(_core.Position.initial("katro")) == "katro"   # 18 holes a player
        assert _core._working_form(_core.Position.initial("gore")) == "gore"
    finally:
        assert _core._set_halves16(previous) is True
    assert _core._working_form(_core.Position.initial("katro-4x4")) == "katro_4x4"


# ---------------------------------------------------------------- word boundaries

@pytest.mark.parametrize("game_id", ["katro-4x6", "katro-6x4-s3", "katra-mpantsaka-4x6-s2"])
@pytest.mark.parametrize("lane", [3, 4, 8, 11])
@pytest.mark.parametrize("to_move", [0, 1])
def test_lanes_at_the_16_bit_word_boundaries(game_id, lane, to_move):
    """12 lanes a side in three words of four: seeds around the 4th/5th and
    8th/9th hole of the mover's loop, and 300 seeds held far from them."""
    mover, other = loops(game_id)[to_move], loops(game_id)[1 - to_move]
    board = [0] * game_by_id(game_id).holes
    for x in (lane - 1, lane, lane + 1):
        if 0 <= x < len(mover):
            board[mover[x]] = 3 + x % 4
            board[other[x]] = 1 + x % 3
    board[mover[(lane + 6) % len(mover)]] += 300       # beyond a byte: the 16-bit lanes
    check_jobs(position_text(game_id, board, to_move=to_move), depth=2, games=2, max_plies=12)


# ---------------------------------------------------------------- a full lane

@pytest.mark.parametrize("game_id", FITTING)
def test_one_lane_holds_almost_every_seed(game_id):
    """A hole of 996 seeds in a position of 1,000: the first lap adds whole
    rounds (996 // the loop's holes) to every lane of the mover's words."""
    spec = game_by_id(game_id)
    south, north = loops(game_id)
    board = [0] * spec.holes
    origin = south[0] if spec.family == MPANTSAKA else south[spec.cols]   # an outer row's hole
    board[origin] = MAX_TOTAL_SEEDS - 4
    board[south[-1]] += 2
    board[north[1]] += 2
    check_jobs(position_text(game_id, board), depth=2, games=2, max_plies=12)


# ---------------------------------------------------------------- drawn positions

@st.composite
def many_seeded(draw, game_id):
    """Positions of 256 to 1,000 seeds: one to all holes of the board seeded."""
    spec = game_by_id(game_id)
    total = draw(st.integers(LANE_MAX + 1, MAX_TOTAL_SEEDS))
    rng = random.Random(draw(st.integers(0, 2**32)))
    holes = rng.sample(range(spec.holes), draw(st.integers(1, spec.holes)))
    board = with_seeds([0] * spec.holes, total, rng, holes)
    return position_text(game_id, board, draw(st.integers(0, 1)))


@pytest.mark.parametrize("game_id", FITTING)
@pytest.mark.parametrize("examples", quick_and_slow(2, 40))
def test_drawn_positions_of_many_seeds(game_id, examples):
    depth = 1 if game_by_id(game_id).family == MPANTSAKA else 2

    def check(text):
        check_jobs(text, depth=depth, games=2, max_plies=20)

    check_examples(check, examples, many_seeded(game_id))
