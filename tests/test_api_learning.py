"""Observations and legal-action masks, written into caller-owned buffers."""
from __future__ import annotations

from array import array

import pytest

import katra
from katra import State

from helpers import random_walk



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
        8, 10,                      # mover's store, opponent's store
        1,                          # North to move
    ]


def test_observation_by_hand_south_to_move(backend):
    s = State.from_text("katro-4x4 0,1,2,3/4,5,6,7/8,9,10,11/12,13,14,15 S", backend=backend)
    assert s.observation() == (
        [12, 13, 14, 15, 8, 9, 10, 11, 4, 5, 6, 7, 0, 1, 2, 3]
        + [1] * 8 + [0] * 8 + [0] * 16 + [0, 0, 0])
    north = State.from_text(s.text().replace(" S", " N"), backend=backend)
    assert north.observation() == (
        [3, 2, 1, 0, 7, 6, 5, 4, 11, 10, 9, 8, 15, 14, 13, 12]
        + [1] * 8 + [0] * 8 + [0] * 16 + [0, 0, 1])


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
    assert a[:3 * holes + 2] == b[:3 * holes + 2] and a[-1] == 1 - b[-1]


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
    np = pytest.importorskip("numpy")
    s = walk("gore", 6, 1, backend)
    expected = s.observation()
    size = s.game.observation_size
    for dtype in (np.float32, np.float64, np.int8, np.int64, np.uint8, np.int32):
        out = np.full(size, 99, dtype=dtype)
        assert s.observation(out) is out
        assert out.tolist() == expected
    mask = np.zeros(s.game.num_actions, dtype=bool)
    s.legal_actions_mask(mask)
    assert np.flatnonzero(mask).tolist() == s.legal_actions()
    shaped = np.zeros((3, size // 3), dtype=np.float32)  # any shape with the right size
    s.observation(shaped)
    assert shaped.ravel().tolist() == expected
    ints = array("q", [0]) * size
    s.observation(ints)
    assert list(ints) == expected


def test_bad_buffers(backend):
    s = katra.game("katro").initial_state(backend=backend)
    with pytest.raises(ValueError, match="read-only"):
        s.observation(bytes(s.game.observation_size))
    with pytest.raises(ValueError, match="expected 111"):
        s.observation(bytearray(110))
    with pytest.raises(TypeError, match="writable buffer"):
        s.observation([0] * 111)
    np = pytest.importorskip("numpy")
    with pytest.raises(TypeError, match="unsupported"):
        s.legal_actions_mask(np.zeros(36, dtype=np.float16))
    with pytest.raises(ValueError, match="contiguous"):
        s.observation(np.zeros((111, 2))[:, 0])


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
    np = pytest.importorskip("numpy")
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
    with pytest.raises(ValueError, match="expected 222"):
        katra.observations([katro, katro], bytearray(111))
    with pytest.raises(TypeError, match="katra.State"):
        katra.observations([katro, "katro"])
    assert katra.observations([]) == []
