"""The hash keys are defined once (katra._zobrist) and both backends hash with them."""
import pytest

import katra
from helpers import random_walk
from katra import _core, _reference, _zobrist
from katra._games import GAME_IDS

# The start positions' hashes: fixed keys, so fixed values on every machine and
# in every release that keeps the key order of katra._zobrist.
START_HASHES = {
    "katro": 11351894409180751041,
    "katro-4x6": 1768044592100062424,
    "katro-4x4": 11898841423744295511,
    "katra-mpantsaka": 8682553776541013261,
    "katra-mpantsaka-simplified": 5904278556997728817,
    "gore": 17398854572495753100,
    "djenon-aboure": 914556757132015489,
}


def test_splitmix64_matches_the_published_first_outputs():
    # splitmix64 seeded with 0: the reference outputs of Vigna's splitmix64.c
    state, first = _zobrist.splitmix64(0)
    state, second = _zobrist.splitmix64(state)
    assert (first, second) == (0xE220A8397B1DCDAF, 0x6E789E6AA1B965F4)


def test_key_tables():
    assert len(_zobrist.HOLE_KEYS) == len(_zobrist.OWNER_KEYS) == _zobrist.MAX_HOLES
    assert len(_zobrist.GAME_KEYS) == len(GAME_IDS)
    every = (_zobrist.HOLE_KEYS + _zobrist.OWNER_KEYS + _zobrist.STORE_KEYS
             + _zobrist.GAME_KEYS + (_zobrist.MOVE_KEY, _zobrist.OFFER_KEY))
    assert len(set(every)) == len(every) and all(0 < k < 2**64 for k in every)


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_start_hashes_are_fixed(impl, game_id):
    assert impl.Position.initial(game_id).zobrist() == START_HASHES[game_id]


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_the_core_hashes_with_the_shared_keys(game_id):
    # katra._zobrist.zobrist is the reference's hash; the core copied its keys
    # into C at import: equal along random games means equal tables.
    for seed in range(8):
        pos = random_walk(_core.Position.initial(game_id), 10 + 7 * seed, seed)
        ref = _reference.Position.from_text(pos.text())
        assert pos.zobrist() == ref.zobrist() == _zobrist.zobrist(
            game_id, pos.board, pos.owners, pos.stores, pos.to_move, pos.pending_offer)


def test_the_hash_ignores_the_move_stack_and_follows_the_position():
    s = katra.game("gore").initial_state()
    s.push("a1")
    t = katra.State.from_text(s.text())
    assert s.hash == t.hash != START_HASHES["gore"]
    s.pop()
    assert s.hash == START_HASHES["gore"]
