"""The compiled core against the reference, move by move.

* seeded random games walked side by side in both backends, comparing legal
  actions, position text and outcome at every ply (the move history is printed
  at the first difference);
* Hypothesis-generated positions (counts, owners, stores, pending offers),
  compared on every action of the action space (every Goré offer of 1 to 3
  holes);
* perft, divide and seeded playout batches compared between backends.

Each check runs a few cases by default and many more under the ``slow`` marker
(``python -m pytest -m slow``, which CI runs): the slow random games take the
seeds after the quick ones', the slow generated positions are ten times as many.
"""
import random

import pytest
from hypothesis import strategies as st

from helpers import check_examples, compare_on_every_action, quick_and_slow, walk_both
from katra import _core, _reference
from katra._games import GAME_IDS, GAMES, GORE, GORE_OFFER_BASE, GORE_PASS
from katra._text import PositionData, format_position

# Random play in Goré and Katra Mpantsaka can go on for ever (docs/rules.md §6.1).
MAX_PLIES = 250

#: Seeded random games per game id: seeds 0..QUICK_GAMES-1 by default, the rest
#: up to MANY_GAMES under the slow marker.
QUICK_GAMES, MANY_GAMES = 12, 1000


def walk(game_id, seed, start=None, max_plies=MAX_PLIES):
    """Play one seeded random game in both backends, comparing at every ply."""
    text = start or _reference.Position.initial(game_id).text()
    return walk_both(text, seed, max_plies, f"{game_id} ")


@pytest.mark.parametrize("game_id", GAME_IDS)
@pytest.mark.parametrize("seeds", quick_and_slow(range(QUICK_GAMES),
                                                 range(QUICK_GAMES, MANY_GAMES)))
def test_random_games_agree(game_id, seeds):
    plies = sum(walk(game_id, seed) for seed in seeds)
    assert plies > len(seeds)  # games really were played


# ---------------------------------------------------------------- generated positions

@st.composite
def positions(draw, game_id):
    """Any readable position of ``game_id``: random counts, owners, stores, offers."""
    spec = GAMES[game_id]
    high = draw(st.sampled_from([2, 4, 7, 12]))
    board = draw(st.lists(st.integers(0, high), min_size=spec.holes, max_size=spec.holes))
    owners = spec.initial_owners()
    stores = [0, 0]
    if spec.family == GORE:
        owners = draw(st.lists(st.integers(0, 1), min_size=8, max_size=8))
    if spec.has_stores:
        stores = draw(st.lists(st.integers(0, 30), min_size=2, max_size=2))
    data = PositionData(spec, board, draw(st.integers(0, 1)), stores, owners, 0)
    ref = _reference.Position.from_text(format_position(data))
    if spec.family == GORE and draw(st.booleans()):
        offers = [a for a in ref.legal_actions() if GORE_OFFER_BASE <= a < GORE_PASS]
        if offers:
            ref.apply(draw(st.sampled_from(offers)))
    return ref.text()


@pytest.mark.parametrize("game_id", GAME_IDS)
@pytest.mark.parametrize("examples", quick_and_slow(30, 500))
def test_generated_positions_agree(game_id, examples):
    check_examples(compare_on_every_action, examples, positions(game_id))


@pytest.mark.parametrize("game_id", GAME_IDS)
@pytest.mark.parametrize("examples", quick_and_slow(8, 150))
def test_random_walks_from_generated_positions(game_id, examples):
    def walk_from(text, seed):
        walk(game_id, seed, start=text, max_plies=120)

    check_examples(walk_from, examples, positions(game_id), st.integers(0, 2**32))


# ---------------------------------------------------------------- whole jobs

@pytest.mark.parametrize("game_id", GAME_IDS)
def test_perft_and_divide_agree_mid_game(game_id):
    ref = _reference.Position.initial(game_id)
    rng = random.Random(game_id)
    for _ in range(12):  # a position a few moves in
        actions = ref.legal_actions()
        if not actions:
            break
        ref.apply(rng.choice(actions))
    core = _core.Position.from_text(ref.text())
    assert _core.divide(core, 3) == _reference.divide(ref, 3)
    assert _core.perft(core, 3) == _reference.perft(ref, 3)


@pytest.mark.parametrize("game_id", GAME_IDS)
@pytest.mark.parametrize("seed", [0, 12345, 2**64 - 1])
@pytest.mark.parametrize("games", quick_and_slow(4, 100))
def test_playout_batches_agree(game_id, seed, games):
    text = _reference.Position.initial(game_id).text()
    ref = _reference.playouts(_reference.Position.from_text(text), games, seed, 300)
    core = _core.playouts(_core.Position.from_text(text), games, seed, 300)
    assert core == ref
    assert ref["games"] == games and ref["plies"] > 0
    assert ref["south_wins"] + ref["north_wins"] + ref["draws"] + ref["unfinished"] == games
