"""katra.openspiel: every game id as a pyspiel game, checked with OpenSpiel's own tests."""
from __future__ import annotations

import numpy as np
import pyspiel  # the test extra brings OpenSpiel (pip install ".[test]")
import pytest
from open_spiel.python.algorithms import mcts

import katra
import katra.openspiel as kos

NAMES = {game_id: kos.short_name(game_id) for game_id in katra.GAME_IDS}


def random_walk(state, plies, seed):
    rng = np.random.RandomState(seed)
    for _ in range(plies):
        if state.is_terminal():
            break
        state.apply_action(int(rng.choice(state.legal_actions())))
    return state


@pytest.mark.parametrize("game_id", katra.GAME_IDS)
def test_openspiel_random_sim_test(game_id):
    game = pyspiel.load_game(NAMES[game_id], {"max_game_length": 300})
    pyspiel.random_sim_test(game, num_sims=3, serialize=True, verbose=False)
    assert game.max_game_length() == 300 and game.num_players() == 2
    assert game.num_distinct_actions() == katra.game(game_id).num_actions
    assert game.observation_tensor_shape() == [katra.game(game_id).observation_size]


def test_names_and_default_cap():
    assert NAMES["katro-4x4"] == "katra_katro_4x4"
    assert NAMES["djenon-aboure"] == "katra_djenon_aboure"
    assert set(NAMES.values()) <= set(pyspiel.registered_names())
    assert pyspiel.load_game("katra_katro").max_game_length() == 1000
    with pytest.raises(ValueError, match="max_game_length"):
        pyspiel.load_game("katra_gore", {"max_game_length": 0})


@pytest.mark.parametrize("game_id", katra.GAME_IDS)
def test_states_follow_katra(game_id):
    game = pyspiel.load_game(NAMES[game_id])
    for seed in range(3):
        state = random_walk(game.new_initial_state(), 4 + 5 * seed, seed)
        mirror = katra.game(game_id).initial_state()
        for action in state.history():
            mirror.push(action)
        assert str(state) == mirror.text()
        assert state.legal_actions() == mirror.legal_actions()
        assert state.current_player() == (pyspiel.PlayerId.TERMINAL if mirror.is_terminal()
                                          else mirror.to_move)
        for player in (0, 1):
            assert state.observation_tensor(player) == pytest.approx(mirror.observation(player))
        if not state.is_terminal():
            assert state.legal_actions_mask(state.current_player()) == mirror.legal_actions_mask()
        clone = state.clone()
        assert str(clone) == str(state) and clone.history() == state.history()
        if not clone.is_terminal():
            clone.apply_action(clone.legal_actions()[0])
            assert str(clone) != str(state) or clone.history() != state.history()
            assert str(state) == mirror.text()     # the clone is independent


@pytest.mark.parametrize("game_id", katra.GAME_IDS)
def test_serialisation_round_trips(game_id):
    game = pyspiel.load_game(NAMES[game_id], {"max_game_length": 500})
    for seed in range(3):
        state = random_walk(game.new_initial_state(), 3 + 7 * seed, seed)
        back = game.deserialize_state(state.serialize())
        assert str(back) == str(state) and back.legal_actions() == state.legal_actions()
        assert back.current_player() == state.current_player()
        assert back.observation_tensor(0) == state.observation_tensor(0)
        game2, state2 = pyspiel.deserialize_game_and_state(
            pyspiel.serialize_game_and_state(game, state))
        assert str(game2) == str(game) and str(state2) == str(state)
        assert state.information_state_string(0) == back.information_state_string(0)


def test_gore_answers_keep_the_turn():
    game = pyspiel.load_game("katra_gore")
    state = game.new_initial_state()
    rng = np.random.RandomState(0)
    offers = 0
    while not state.is_terminal() and offers < 5:
        legal = state.legal_actions()
        offer = [a for a in legal if 8 <= a < 264]
        if offer:
            mover = state.current_player()
            state.apply_action(offer[0])
            assert state.current_player() == 1 - mover
            assert state.legal_actions() == [265, 266]
            state.apply_action(265 if offers % 2 else 266)   # accept or decline
            assert state.current_player() == 1 - mover       # the answerer moves again
            offers += 1
        else:
            state.apply_action(int(rng.choice(legal)))
    assert offers == 5


def test_truncation_is_terminal_with_no_result():
    game = pyspiel.load_game("katra_gore", {"max_game_length": 6})
    state = random_walk(game.new_initial_state(), 100, 3)
    assert state.is_terminal() and state.is_truncated() and len(state.history()) == 6
    assert state.returns() == [0.0, 0.0] and state.current_player() == pyspiel.PlayerId.TERMINAL
    end = pyspiel.load_game("katra_katro_4x4").new_initial_state()
    end = random_walk(end, 1000, 1)
    assert end.is_terminal() and not end.is_truncated() and sorted(end.returns()) == [-1.0, 1.0]


def test_playout_evaluator_is_one_playouts_call():
    game = pyspiel.load_game("katra_djenon_aboure")
    state = random_walk(game.new_initial_state(), 3, 0)
    evaluator = kos.PlayoutEvaluator(n_rollouts=50, random_state=np.random.RandomState(7))
    value = evaluator.evaluate(state)
    seed = int(np.random.RandomState(7).randint(0, 2**63 - 1))
    tally = katra.playouts(state.katra_state, 50, seed=seed, max_plies=1000 - 3)
    assert value.tolist() == [(tally["south_wins"] - tally["north_wins"]) / 50,
                              (tally["north_wins"] - tally["south_wins"]) / 50]
    assert [a for a, _ in evaluator.prior(state)] == state.legal_actions()
    assert sum(p for _, p in evaluator.prior(state)) == pytest.approx(1.0)


@pytest.mark.parametrize("game_id", ["katro-4x4", "djenon-aboure"])
def test_mcts_beats_uniform_random(game_id):
    game = pyspiel.load_game(NAMES[game_id])
    rng = np.random.RandomState(2024)
    wins = 0
    for k in range(20):
        bot = mcts.MCTSBot(game, uct_c=2.0, max_simulations=60,
                           evaluator=kos.PlayoutEvaluator(n_rollouts=4, random_state=rng),
                           random_state=rng)
        me = k % 2                                   # colours alternate
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.current_player() == me:
                state.apply_action(bot.step(state))
            else:
                state.apply_action(int(rng.choice(state.legal_actions())))
        wins += state.returns()[me] > 0
    assert wins >= 18, f"MCTS won {wins} of 20"
