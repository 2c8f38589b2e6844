"""Observations and legal-action masks, written into caller-owned buffers."""
from __future__ import annotations

from array import array

import numpy as np
import pytest

import katra
from helpers import random_walk
from katra import State


def walk(game_id: str, plies: int, seed: int, backend: str) -> State:
    return random_walk(katra.game(game_id).initial_state(backend=backend), plies, seed)


def test_observation_by_hand_north_to_move_with_offer(backend):
    # Board as South sees it:      flat index order (a1 = 0):
    #   2 | 1n 2n 3s 4n             board  = [5, 6, 7, 8, 1, 2, 3, 4]
    #   1 | 5s 6s 7n 8s             owners = [S, S, N, S, N, N, S, N]
    # South (not to move) offers a1.  North is the mover: the view is turned a
    # half turn, so index j reads hole 7 - j.
    s = State.from_text("gore 1,2,3,4/5,6,7,8 N stores=10,8 owners=NNSN/SSNS offer=a1",
                        backend=backend)
    assert s.observation() == [
        4, 3, 2, 1, 8, 7, 6, 5,     # seeds, mover's view
        1, 0, 1, 1, 0, 1, 0, 0,     # 1 = owned by the mover (North)
        0, 0, 0, 0, 0, 0, 0, 1,     # pending offer: a1 is read at j = 7
        8, 10,                      # viewer's store, opponent's store
        1,                          # the viewer is North
        1,                          # the viewer is to move
    ]


def test_observation_by_hand_south_to_move(backend):
    s = State.from_text("katro-4x4 0,1,2,3/4,5,6,7/8,9,10,11/12,13,14,15 S", backend=backend)
    assert s.observation() == (
        [12, 13, 14, 15, 8, 9, 10, 11, 4, 5, 6, 7, 0, 1, 2, 3]
        + [1] * 8 + [0] * 8 + [0] * 16 + [0, 0, 0, 1])
    north = State.from_text(s.text().replace(" S", " N"), backend=backend)
    assert north.observation() == (
        [3, 2, 1, 0, 7, 6, 5, 4, 11, 10, 9, 8, 15, 14, 13, 12]
        + [1] * 8 + [0] * 8 + [0] * 16 + [0, 0, 1, 1])


def test_observation_is_symmetric_under_the_half_turn(backend):
    # Swapping the players and turning the board gives the same observation
    # but for the side-to-move entry.
    s = walk("djenon-aboure", 9, 2, backend)
    holes = s.game.holes
    rows = s.text().split(" ")
    board = s.board[::-1]
    stores = s.stores[::-1]
    flipped_rows = "/".join(",".join(str(c) for c in board[r * 6:(r + 1) * 6])
                            for r in range(1, -1, -1))
    flipped = State.from_text(f"djenon-aboure {flipped_rows} {'NS'['SN'.index(rows[2])]} "
                              f"stores={stores[0]},{stores[1]}", backend=backend)
    a, b = s.observation(), flipped.observation()
    assert a[:3 * holes + 2] == b[:3 * holes + 2] and a[-2] == 1 - b[-2] and a[-1] == b[-1] == 1


@pytest.mark.parametrize("game_id", katra.GAME_IDS)
def test_mask_matches_legal_actions(backend, game_id):
    for seed in range(3):
        s = walk(game_id, 5 * seed + 3, seed, backend)
        mask = s.legal_actions_mask()
        assert len(mask) == s.game.num_actions
        assert [a for a, bit in enumerate(mask) if bit] == s.legal_actions()
        buf = bytearray(s.game.num_actions)
        assert s.legal_actions_mask(buf) is buf and list(buf) == mask
        floats = array("f", [7.0]) * s.game.num_actions
        s.legal_actions_mask(floats)
        assert list(floats) == mask


def test_buffers_of_every_kind(backend):
    s = walk("gore", 6, 1, backend)
    expected = s.observation()
    size = s.game.observation_size
    for dtype in (np.float32, np.float64, np.int8, np.int64, np.uint8, np.int32):
        out = np.full(size, 99, dtype=dtype)
        assert s.observation(out=out) is out
        assert out.tolist() == expected
    mask = np.zeros(s.game.num_actions, dtype=bool)
    s.legal_actions_mask(mask)
    assert np.flatnonzero(mask).tolist() == s.legal_actions()
    shaped = np.zeros((4, size // 4), dtype=np.float32)  # any shape with the right size
    s.observation(out=shaped)
    assert shaped.ravel().tolist() == expected
    ints = array("q", [0]) * size
    s.observation(out=ints)
    assert list(ints) == expected


def test_bad_buffers(backend):
    s = katra.game("katro").initial_state(backend=backend)
    with pytest.raises(katra.ArgumentError, match=r"^observation: out is read-only$"):
        s.observation(out=bytes(s.game.observation_size))
    with pytest.raises(katra.ArgumentError, match="expected 112"):
        s.observation(out=bytearray(111))
    with pytest.raises(katra.ArgumentTypeError, match="writable buffer"):
        s.observation(out=[0] * 112)
    with pytest.raises(katra.ArgumentTypeError, match=r"^legal_actions_mask: out has items of "
                       r"format 'e'; use an integer, bool, float32 or float64 buffer$"):
        s.legal_actions_mask(np.zeros(36, dtype=np.float16))
    with pytest.raises(katra.ArgumentError, match="contiguous"):
        s.observation(out=np.zeros((112, 2))[:, 0])


@pytest.mark.parametrize("game_id", ["katro", "gore", "katra-mpantsaka"])
def test_batches_fill_flat_buffers(backend, game_id):
    states = [walk(game_id, k, k, backend) for k in range(6)]
    g = katra.game(game_id)
    obs = array("d", [-1.0]) * (6 * g.observation_size)
    masks = bytearray(6 * g.num_actions)
    assert katra.observations(states, obs) is obs
    assert katra.legal_actions_masks(states, masks) is masks
    for k, s in enumerate(states):
        assert list(obs[k * g.observation_size:(k + 1) * g.observation_size]) == s.observation()
        assert list(masks[k * g.num_actions:(k + 1) * g.num_actions]) == s.legal_actions_mask()
    assert katra.observations(states) == [s.observation() for s in states]
    assert katra.legal_actions_masks(iter(states)) == [s.legal_actions_mask() for s in states]


@pytest.mark.parametrize("game_id", ["katro", "gore"])
def test_batches_fill_two_dimensional_numpy_arrays(backend, game_id):
    states = [walk(game_id, k, k, backend) for k in range(6)]
    g = katra.game(game_id)
    obs = np.full((6, g.observation_size), -1.0, dtype=np.float32)
    masks = np.zeros((6, g.num_actions), dtype=np.uint8)
    assert katra.observations(states, obs) is obs
    assert katra.legal_actions_masks(states, masks) is masks
    for k, s in enumerate(states):
        assert obs[k].tolist() == s.observation()
        assert masks[k].tolist() == s.legal_actions_mask()


def test_batch_errors():
    katro = katra.game("katro").initial_state()
    gore = katra.game("gore").initial_state()
    with pytest.raises(ValueError, match="one game"):
        katra.observations([katro, gore])
    with pytest.raises(ValueError, match="expected 224"):
        katra.observations([katro, katro], bytearray(112))
    with pytest.raises(TypeError, match=r"katra\.State"):
        katra.observations([katro, "katro"])
    assert katra.observations([]) == []


# ---------------------------------------------------------------- views, core vs reference

@pytest.mark.parametrize("game_id", katra.GAME_IDS)
def test_core_fills_what_the_reference_computes_from_every_view(game_id):
    for seed in range(4):
        core = walk(game_id, 7 * seed + 2, seed, "core")
        ref = State.from_text(core.text(), backend="reference")
        for player in (None, 0, 1):
            assert core.observation(player) == ref.observation(player)
            out_core = array("d", [-1.0]) * core.game.observation_size
            out_ref = array("d", [-1.0]) * core.game.observation_size
            core.observation(player, out_core)
            ref.observation(player, out_ref)
            assert out_core == out_ref
        assert core.legal_actions_mask() == ref.legal_actions_mask()
    states = [walk(game_id, k, k, "core") for k in range(5)]
    refs = [State.from_text(s.text(), backend="reference") for s in states]
    for player in (None, 0, 1):
        assert katra.observations(states, player=player) == katra.observations(refs, player=player)


def test_the_two_views_of_one_position():
    # katro-4x4, South to move: South sees the board as is, North turned.
    s = State.from_text("katro-4x4 0,1,2,3/4,5,6,7/8,9,10,11/12,13,14,15 S")
    south, north = s.observation(0), s.observation(1)
    assert south == s.observation()
    assert north[:16] == s.board[::-1]
    assert south[:16] == s.board
    assert north[16:32] == [1] * 8 + [0] * 8 and south[16:32] == [1] * 8 + [0] * 8
    assert south[-2:] == [0, 1] and north[-2:] == [1, 0]


def test_goré_answer_keeps_the_turn_and_the_view_says_so():
    s = State.from_text("gore 1,2,3,4/5,6,7,8 N stores=10,8 owners=NNSN/SSNS offer=a1")
    s.push("decline")
    assert s.to_move == 1 and s.observation(1)[-1] == 1 and s.observation(0)[-1] == 0


def test_game_learning_facts():
    for g in katra.games():
        assert g.observation_shape == (g.observation_size,) == (3 * g.holes + 4,)
        assert g.num_players == 2 and g.max_game_length == 1000
        assert len(g.initial_state().observation()) == g.observation_size


def test_history_is_the_actions_from_the_start():
    s = katra.game("djenon-aboure").initial_state()
    s.push(2)
    s.push("b2")
    assert s.history() == [2, s.move_stack[1]] == s.move_stack
    s.pop()
    assert s.history() == [2]


def test_bad_player(backend):
    s = katra.game("katro").initial_state(backend=backend)
    for player in (2, -1, True, "N", 0.0):
        with pytest.raises(ValueError, match="player must be"):
            s.observation(player)
    with pytest.raises(ValueError, match="not bytearray; a buffer goes in out="):
        s.observation(bytearray(112))


# ---------------------------------------------------------- buffers too small for the values

BIG = "katro-4x4 300,0,0,0/0,0,0,0/0,0,0,0/0,0,0,1 S"


def test_counts_above_255_in_a_byte_buffer_raise_buffer_item_error(backend):
    s = State.from_text(BIG, backend=backend)
    out = bytearray(b"\x07") * s.game.observation_size
    with pytest.raises(katra.BufferItemError, match="cannot hold the value 300"):
        s.observation(out=out)
    assert out == bytearray(b"\x07") * s.game.observation_size      # nothing written
    signed = array("b", [7]) * s.game.observation_size
    with pytest.raises(ValueError, match="1-byte signed integers"):
        s.observation(out=signed)
    with pytest.raises(katra.BufferItemError):
        katra.observations([s, s], bytearray(2 * s.game.observation_size))
    wide = array("h", [0]) * s.game.observation_size                 # 16 bits hold it
    assert max(s.observation(out=wide)) == 300
    assert issubclass(katra.BufferItemError, ValueError)


def test_observation_lists_hold_counts_past_the_action_numbers(backend):
    # The core makes its lists from ints kept for 0..266 (Goré's last action)
    # and makes the others: counts on both sides of that edge, by hand.
    text = "katro-4x4 266,267,1,0/0,0,0,0/0,0,0,0/0,0,0,465 S"
    s = State.from_text(text, backend=backend)
    got = s.observation()
    assert type(got) is list and all(type(v) is int for v in got)
    # the text's rows top down (row 4 first); South sees a1..d1, a2.., a4..d4
    # (docs/learning.md), then its owners, no offers, the stores, itself, moving
    assert got[:16] == [0, 0, 0, 465] + [0] * 8 + [266, 267, 1, 0]
    assert got[16:32] == [1] * 8 + [0] * 8
    assert got[32:48] == [0] * 16
    assert got[48:] == [0, 0, 0, 1]
    north = s.observation(1)        # the board turned a half turn
    assert north[:16] == [0, 1, 267, 266] + [0] * 8 + [465, 0, 0, 0]
    assert north[48:] == [0, 0, 1, 0]
    assert katra.observations([s, s]) == [got, got]
    assert s.legal_actions_mask() == [1 if a in s.legal_actions() else 0
                                      for a in range(s.game.num_actions)]


def test_bool_buffers_hold_masks_but_not_observations(backend):
    s = walk("katro", 3, 1, backend)
    out = np.zeros(s.game.observation_size, dtype=bool)
    with pytest.raises(katra.BufferItemError, match="bool buffer cannot hold seed counts"):
        s.observation(out=out)
    assert not out.any()
    with pytest.raises(katra.BufferItemError):
        katra.observations([s], np.zeros((1, s.game.observation_size), dtype=bool))
    mask = np.zeros(s.game.num_actions, dtype=bool)
    s.legal_actions_mask(mask)
    assert np.flatnonzero(mask).tolist() == s.legal_actions()
