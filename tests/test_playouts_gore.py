"""Goré playouts in the core draw each ply's action without listing the legal
actions (it counts them, then makes only the drawn one): the seeded games must
still be exactly the reference's (docs/rules.md §6.2).  Near-terminal positions
with stores large enough for offers make the games end, so a different draw
would change who wins and after how many plies."""
import random

import katra._core as core
import katra._reference as reference
from katra.testing._solved import few_seed_gore_position


def near_terminal_gore_texts(count, seed):
    """Unfinished Goré positions with few seeds and stores of 0..24 (offers made)."""
    rng = random.Random(seed)
    return [few_seed_gore_position(rng.choice, stores=range(25)) for _ in range(count)]


def test_gore_playouts_match_the_reference_on_games_that_end():
    finished = 0
    for k, text in enumerate(near_terminal_gore_texts(120, seed=5)):
        got = core.playouts(core.Position.from_text(text), 8, k, 60)
        want = reference.playouts(reference.Position.from_text(text), 8, k, 60)
        assert got == want, text
        finished += got["games"] - got["unfinished"]
    assert finished >= 50     # the games really end, so the draws are checked


def test_few_seed_gore_positions_are_unfinished_small_and_the_same_on_both_backends():
    # katra.testing's generator behind these games, the solver's tests and the Goré
    # solved suite (tools/make_solved_suites.py)
    from katra.testing._solved import GORE_HOLE_SEEDS, GORE_STORES
    core_rng, reference_rng = random.Random(11), random.Random(11)
    for _ in range(60):
        text = few_seed_gore_position(core_rng.choice)
        assert text == few_seed_gore_position(reference_rng.choice, backend="reference")
        position = reference.Position.from_text(text)
        assert position.text() == text and not position.is_terminal()
        assert max(position.board) <= max(GORE_HOLE_SEEDS)
        assert set(position.stores) <= set(GORE_STORES)
