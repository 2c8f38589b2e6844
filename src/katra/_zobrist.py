"""splitmix64 and the hash keys: defined once, read by both backends.

The compiled core copies these tables into C arrays when it is imported
(``_build_tables`` in cython_core/_common.pxi) and the reference hashes with
them directly, so equal positions have equal 64-bit Zobrist hashes on either
backend.  The keys are drawn from splitmix64 (docs/rules.md §6.2) seeded with
``0x4B41545241`` ("KATRA"), in a fixed order: changing it changes every hash.
"""
from __future__ import annotations

from collections.abc import Sequence

from ._games import GAME_IDS

MASK64 = (1 << 64) - 1

#: The most holes of any board (Katro 6x6); the key tables are this long.
MAX_HOLES = 36

KEY_SEED = 0x4B41545241


def splitmix64(state: int) -> tuple[int, int]:
    """``(new_state, output)``: one step of splitmix64 (docs/rules.md §6.2), modulo 2**64."""
    state = (state + 0x9E3779B97F4A7C15) & MASK64
    return state, mix64(state)


def mix64(z: int) -> int:
    """The splitmix64 finaliser: derives a key from a key plus a small value."""
    z &= MASK64
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
    return z ^ (z >> 31)


def _draw() -> tuple[list[int], list[int], list[int]]:
    """Every key in drawing order: per hole (a retired key, Zobrist, owner), then
    two retired keys and the rest.  The retired keys (once the core's lap-start
    hash) are still drawn, so that every hash stays what it was."""
    rng = KEY_SEED
    retired: list[int] = []
    hole: list[int] = []
    owner: list[int] = []
    for _ in range(MAX_HOLES):
        for table in (retired, hole, owner):
            rng, key = splitmix64(rng)
            table.append(key)
    rest = []
    for _ in range(2 + 2 + 1 + 1 + len(GAME_IDS)):
        rng, key = splitmix64(rng)
        rest.append(key)
    return hole, owner, rest[2:]


_HOLE, _OWNER, _REST = _draw()

#: Zobrist keys: per hole (mixed with its count), per hole owned by North,
#: per store (mixed with its count), North to move, a pending offer (mixed
#: with its mask), and per game (index in ``GAME_IDS``).
HOLE_KEYS: tuple[int, ...] = tuple(_HOLE)
OWNER_KEYS: tuple[int, ...] = tuple(_OWNER)
STORE_KEYS: tuple[int, int] = (_REST[0], _REST[1])
MOVE_KEY: int = _REST[2]
OFFER_KEY: int = _REST[3]
GAME_KEYS: tuple[int, ...] = tuple(_REST[4:])

del _HOLE, _OWNER, _REST


_GAME_INDEX = {game_id: k for k, game_id in enumerate(GAME_IDS)}


def game_key(game_id: str) -> int:
    """The Zobrist key of a game: a named game's drawn key (``GAME_KEYS``), a
    variant's its id's bytes folded through mix64 from ``KEY_SEED``."""
    index = _GAME_INDEX.get(game_id)
    if index is not None:
        return GAME_KEYS[index]
    z = mix64(KEY_SEED + len(game_id))
    for byte in game_id.encode("ascii"):
        z = mix64(z + byte)
    return z


def zobrist(game_id: str, board: Sequence[int], owners: Sequence[int],
            stores: Sequence[int], to_move: int, offer: int) -> int:
    """The 64-bit Zobrist hash of a position (the core's ``zobrist_c``)."""
    z = game_key(game_id)
    for i, count in enumerate(board):
        z ^= mix64(HOLE_KEYS[i] + count)
        if owners[i]:
            z ^= OWNER_KEYS[i]
    z ^= mix64(STORE_KEYS[0] + stores[0])
    z ^= mix64(STORE_KEYS[1] + stores[1])
    if to_move:
        z ^= MOVE_KEY
    if offer:
        z ^= mix64(OFFER_KEY + offer)
    return z
