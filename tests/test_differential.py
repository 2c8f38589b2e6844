"""The compiled core against the reference, move by move.

* seeded random games walked side by side in both backends, comparing legal
  actions, position text and outcome at every ply (the move history is printed
  at the first difference);
* Hypothesis-generated positions (counts, owners, stores, pending offers),
  compared on every action of the action space;
* perft, divide and seeded playout batches compared between backends.

Each check runs a few cases by default and many more under the ``slow`` marker
(``python -m pytest -m slow``, which CI runs): the slow random games take the
seeds after the quick ones', the slow generated positions are ten times as many.
"""
import random

import pytest
from hypothesis import strategies as st

from helpers import check_examples, quick_and_slow
from katra import _core, _reference
from katra._errors import IllegalMoveError
from katra._games import GAME_IDS, GAMES, GORE, GORE_OFFER_BASE, GORE_PASS
from katra._text import PositionData, action_text, format_position

# Random play in Goré and Katra Mpantsaka can go on for ever (docs/rules.md §6.1).
MAX_PLIES = 250

#: Seeded random games per game id: seeds 0..QUICK_GAMES-1 by default, the rest
#: up to MANY_GAMES under the slow marker.
QUICK_GAMES, MANY_GAMES = 12, 1000


def assert_same(core, ref, history, where=""):
    """Compare everything observable; return the reference's legal actions."""
    spec = GAMES[ref.game_id]
    moves = " ".join(action_text(spec, a) for a in history)
    context = f"{where}after moves [{moves}]"
    assert core.text() == ref.text(), context
    legal = ref.legal_actions()
    assert core.legal_actions() == legal, f"legal actions differ {context}"
    assert core.is_terminal() == (not legal), context
    # outcome() is None exactly when legal actions exist; compare it when terminal.
    expected_outcome = None if legal else ref.outcome()
    assert core.outcome() == expected_outcome, f"outcome differs {context}"
    assert (core.board, core.owners, tuple(core.stores), core.to_move, core.pending_offer) == (
        ref.board, ref.owners, tuple(ref.stores), ref.to_move, ref.pending_offer), context
    return legal


def walk(game_id, seed, start=None, max_plies=MAX_PLIES):
    """Play one seeded random game in both backends, comparing at every ply."""
    text = start or _reference.Position.initial(game_id).text()
    core, ref = _core.Position.from_text(text), _reference.Position.from_text(text)
    rng = random.Random(seed)
    history = []
    where = f"{game_id} seed {seed} from {text!r}: "
    while True:
        actions = assert_same(core, ref, history, where)
        if not actions or len(history) == max_plies:
            return len(history)
        action = rng.choice(actions)
        history.append(action)
        core.apply(action)
        ref.apply(action)


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


def compare_everywhere(text):
    ref, core = _reference.Position.from_text(text), _core.Position.from_text(text)
    assert_same(core, ref, [], f"{text!r}: ")
    spec = GAMES[ref.game_id]
    legal = ref.legal_actions()
    for action in range(spec.num_actions):
        if spec.family == GORE and GORE_OFFER_BASE <= action < GORE_PASS and action not in legal:
            continue  # 256 offer masks: the legal ones are checked, the rest by is_legal below
        assert core.is_legal(action) == (action in legal), (text, action)
        try:
            expected = ref.lap_count(action, 3)
        except IllegalMoveError:
            with pytest.raises(IllegalMoveError):
                core.lap_count(action, 3)
        else:
            assert core.lap_count(action, 3) == expected, (text, action)
        if action in legal:
            ref_child, core_child = ref.copy(), core.copy()
            ref_child.apply(action)
            core_child.apply(action)
            assert_same(core_child, ref_child, [action], f"{text!r}: ")
        else:
            with pytest.raises(IllegalMoveError):
                core.apply(action)
            assert core.text() == text


@pytest.mark.parametrize("game_id", GAME_IDS)
@pytest.mark.parametrize("examples", quick_and_slow(30, 500))
def test_generated_positions_agree(game_id, examples):
    check_examples(compare_everywhere, examples, positions(game_id))


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
