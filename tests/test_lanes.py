"""The packed working form of the core's jobs (cython_core/_lanes.pxi).

perft, divide and playouts run on 8-bit lanes in path order when a position
holds at most 255 seeds, and otherwise on 16-bit lanes (a Katro or Katra
Mpantsaka board of at most 12 holes a player: tests/test_lanes16.py) or on
the int form (one int a hole).
These tests aim at what the lanes are most likely to get wrong: the 255/256
boundary, holes of 255, 256 and 300 seeds, a position of 1,000 seeds, laps
whose whole rounds fill a lane to 255, and the word boundaries (the 9th and
17th hole of a path), on both backends and on every form of the core
(``_core._set_lanes(False)`` runs every job on the int form).
"""
import random

import pytest
from hypothesis import strategies as st

from helpers import check_examples, on_every_form, position_text, quick_and_slow
from katra import _core, _reference
from katra._games import (
    GAME_IDS,
    GAMES,
    GORE,
    GORE_OFFER_BASE,
    GORE_PASS,
    KATRO,
    MAX_TOTAL_SEEDS,
    MPANTSAKA,
)
from katra._reference import katro as ref_katro
from katra._reference import mpantsaka as ref_mpantsaka

LANE_MAX = 255  # the lanes hold a byte; a position with more seeds runs on 16-bit lanes or ints


def check_jobs(text, depth=2, games=4, max_plies=60):
    """perft and divide to depth and a playout batch: core (every form) == reference."""
    core, ref = _core.Position.from_text(text), _reference.Position.from_text(text)
    for d in range(1, depth + 1):
        assert on_every_form(_core.perft, core, d) == _reference.perft(ref, d), (text, d)
    assert on_every_form(_core.divide, core, depth) == _reference.divide(ref, depth), text
    assert (on_every_form(_core.playouts, core, games, 3, max_plies)
            == _reference.playouts(ref, games, 3, max_plies)), text


def spread(total, holes, rng):
    """total seeds over holes at random."""
    board = [0] * holes
    for _ in range(total):
        board[rng.randrange(holes)] += 1
    return board


def test_the_switch_is_a_test_hook_that_restores():
    assert _core._set_lanes(False) is True
    assert _core._set_lanes(True) is False


# ---------------------------------------------------------------- around 255 seeds

@pytest.mark.parametrize("game_id", GAME_IDS)
@pytest.mark.parametrize("total", [LANE_MAX - 1, LANE_MAX, LANE_MAX + 1, 300])
def test_totals_around_a_byte(game_id, total):
    """Just under, at and just over what a lane holds: same counts everywhere."""
    spec = GAMES[game_id]
    rng = random.Random(f"{game_id}/{total}")
    stores = (0, 0)
    on_board = total
    if spec.has_stores:
        stores = (7, 5)  # stores count: the lanes are chosen by board + stores
        on_board -= 12
    board = spread(on_board, spec.holes, rng)
    check_jobs(position_text(game_id, board, stores=stores))


@pytest.mark.parametrize("game_id", GAME_IDS)
@pytest.mark.parametrize("seeds", [LANE_MAX, LANE_MAX + 1, 300])
def test_one_hole_holds_them_all_but_a_few(game_id, seeds):
    """A hole of 255, 256 or 300 seeds: the first lap adds whole rounds to every
    lane (255: up to 255 // holes each, no lane may carry into the next)."""
    spec = GAMES[game_id]
    board = [0] * spec.holes
    origin = 0 if spec.family != KATRO else 1   # South's outer row holds the candidates
    board[origin] = seeds - 4
    board[origin + 1] += 2
    board[-1] = 2
    check_jobs(position_text(game_id, board), depth=2, games=2, max_plies=20)


@pytest.mark.parametrize("game_id", ["katro-4x4", "djenon-aboure", "gore", "katra-mpantsaka"])
def test_a_thousand_seeds(game_id):
    """The most a position may hold runs on the 16-bit halves (Katro 4x4) or the
    int form (the others), exactly."""
    spec = GAMES[game_id]
    rng = random.Random(game_id)
    board = spread(MAX_TOTAL_SEEDS, spec.holes, rng)
    check_jobs(position_text(game_id, board), depth=2, games=2, max_plies=10)


@pytest.mark.parametrize("game_id", ["katro-4x4", "katro-4x6", "djenon-aboure"])
def test_whole_rounds_fill_a_lane_to_255(game_id):
    """A lap of many whole rounds onto a lane already near 255: the position
    holds exactly 255 seeds, so the fullest lane reaches 255 and no more."""
    spec = GAMES[game_id]
    board = [0] * spec.holes
    if spec.family == KATRO:
        south = ref_katro.paths(spec)[0]
        board[south[0]] = LANE_MAX - 15           # sown: 240 seeds, whole rounds
        board[south[-1]] = 15                     # the hole the last rounds fill up
    else:
        board[0] = 240
        board[5] = 15
    check_jobs(position_text(game_id, board), depth=3, games=3, max_plies=30)


# ---------------------------------------------------------------- word boundaries

@pytest.mark.parametrize("lane", [6, 7, 8, 9, 14, 15, 16, 17])
def test_katro_lanes_at_the_word_boundaries(lane):
    """Katro 6x6: 18 lanes a side in three words; seeds around the 9th and 17th
    hole of South's path (lanes 8 and 16), both sides to move."""
    spec = GAMES["katro"]
    south, north = ref_katro.paths(spec)
    for to_move, path in ((0, south), (1, north)):
        board = [0] * spec.holes
        for x in (lane - 1, lane, lane + 1):
            if 0 <= x < len(path):
                board[path[x]] = 3 + x % 4
        for x in range(spec.cols):        # an outer row to move from, and a reply
            board[south[x]] += 1
            board[north[x]] += 1
        check_jobs(position_text("katro", board, to_move=to_move), depth=3)


@pytest.mark.parametrize("game_id", ["katra-mpantsaka", "katra-mpantsaka-simplified"])
@pytest.mark.parametrize("lane", [7, 8, 15])
def test_mpantsaka_lanes_at_the_word_boundary(game_id, lane):
    """Katra Mpantsaka: 16 lanes a side in two words, sown both ways round."""
    spec = GAMES[game_id]
    loops = ref_mpantsaka.paths(spec)
    board = [1] * spec.holes
    for player in range(2):
        ccw = loops[player][0]
        board[ccw[lane]] = 9
        board[ccw[(lane + 1) % len(ccw)]] = 0
    check_jobs(position_text(game_id, board), depth=2)


# ---------------------------------------------------------------- generated positions

@st.composite
def packed_positions(draw, game_id):
    """Positions with few or many seeds a hole, under and over a lane's byte."""
    spec = GAMES[game_id]
    high = draw(st.sampled_from([3, 6, 15, 40, 80]))
    board = draw(st.lists(st.integers(0, high), min_size=spec.holes, max_size=spec.holes))
    owners = (draw(st.lists(st.integers(0, 1), min_size=8, max_size=8))
              if spec.family == GORE else spec.initial_owners())
    stores = (draw(st.lists(st.integers(0, 30), min_size=2, max_size=2))
              if spec.has_stores else [0, 0])
    while sum(board) + sum(stores) > MAX_TOTAL_SEEDS:
        board[board.index(max(board))] //= 2
    text = position_text(game_id, board, draw(st.integers(0, 1)), stores, owners)
    if spec.family == GORE and draw(st.booleans()):     # an offer waiting for its answer
        ref = _reference.Position.from_text(text)
        offers = [a for a in ref.legal_actions() if GORE_OFFER_BASE <= a < GORE_PASS]
        if offers:
            ref.apply(draw(st.sampled_from(offers)))
            text = ref.text()
    return text


@pytest.mark.parametrize("game_id", GAME_IDS)
@pytest.mark.parametrize("examples", quick_and_slow(8, 60))
def test_generated_positions_on_every_form(game_id, examples):
    depth = 1 if GAMES[game_id].family == MPANTSAKA else 2

    def check(text):
        check_jobs(text, depth=depth, games=3, max_plies=40)

    check_examples(check, examples, packed_positions(game_id))


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_long_playout_batches_on_every_form(game_id):
    """Whole games from the start, many plies: the lanes' tallies are the int form's."""
    pos = _core.Position.initial(game_id)
    tally = on_every_form(_core.playouts, pos, 40, 2024, 400)
    assert tally["plies"] > 40 and tally["games"] == 40


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_deeper_perft_on_every_form(game_id):
    """Trees of tens of thousands of leaves: subtree by subtree, lanes == int form."""
    depth = {"katro": 5, "katro-4x6": 5, "katro-4x4": 7, "katra-mpantsaka": 4,
             "katra-mpantsaka-simplified": 3, "gore": 8, "djenon-aboure": 7}[game_id]
    ref = _reference.Position.initial(game_id)
    rng = random.Random(game_id)
    for _ in range(6):                         # a few moves in
        ref.apply(rng.choice(ref.legal_actions()))
    core = _core.Position.from_text(ref.text())
    split = on_every_form(_core.divide, core, depth)     # the forms agree on every subtree
    assert [a for a, _ in split] == ref.legal_actions()
    assert sum(n for _, n in split) == on_every_form(_core.perft, core, depth)


# ---------------------------------------------------------------- the draw's remainder

def test_the_playout_remainder_is_exact_for_every_divisor():
    """Playouts draw actions[next() % len(actions)] (docs/rules.md §6.2); the core
    computes the remainder by multiplications.  Exact for every divisor it can
    meet (1..128) on the edges of the 64-bit range and a large random sample."""
    rng = random.Random(20261201)
    top = 2**64 - 1
    for n in range(1, 129):
        edges = {0, 1, n - 1, n, n + 1, top, top - 1, top - n, 2**63, 2**63 - 1, 2**32, 2**32 - 1}
        edges |= {k * n + r for k in (2**57, (top // n), (top // n) - 1) for r in (0, n - 1)
                  if k * n + r <= top}
        sample = list(edges) + [rng.getrandbits(64) for _ in range(3000)]
        for x in sample:
            assert _core._mod_small(x, n) == x % n, (x, n)
    with pytest.raises(ValueError):
        _core._mod_small(5, 0)
