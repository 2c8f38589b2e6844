"""katra.gymnasium: single-agent environments against an opponent policy."""
from __future__ import annotations

import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import katra
import katra.gymnasium as kgym


@pytest.mark.parametrize("game_id", katra.GAME_IDS)
@pytest.mark.parametrize("agent", [0, 1])
def test_gymnasium_env_checker(game_id, agent):
    check_env(kgym.KatraEnv(game_id, agent=agent, max_plies=200), skip_render_check=True)


def test_env_checker_with_the_engine_opponent():
    check_env(kgym.KatraEnv("djenon-aboure", opponent="engine", depth=2, agent=1))


def replay_engine_replies(state, agent, depth):
    while not state.is_terminal() and state.to_move != agent:
        state.push(katra.search(state, depth=depth).best_action)


@pytest.mark.parametrize("game_id", ["katro-4x4", "gore", "djenon-aboure"])
def test_engine_opponent_plays_the_engines_moves(game_id):
    env = kgym.KatraEnv(game_id, agent=1, opponent="engine", depth=3)
    obs, info = env.reset()
    mirror = katra.game(game_id).initial_state()
    replay_engine_replies(mirror, 1, 3)                # North: the engine opens
    rng = np.random.RandomState(5)
    for _ in range(30):
        assert obs.tolist() == mirror.observation(1)
        assert np.flatnonzero(info["action_mask"]).tolist() == mirror.legal_actions()
        action = int(rng.choice(mirror.legal_actions()))
        obs, reward, terminated, _truncated, info = env.step(action)
        mirror.push(action)
        replay_engine_replies(mirror, 1, 3)
        if terminated:
            assert mirror.is_terminal() and reward == mirror.returns()[1]
            break
        assert reward == 0 and mirror.to_move == 1


@pytest.mark.parametrize("action", [True, np.True_, 0.0, "a1"])
def test_an_action_that_is_no_int_is_illegal(action):
    env = kgym.KatraEnv("katro")
    env.reset(seed=0)
    assert env.action_masks()[1] and env.action_masks()[0]     # 0 and 1 (True) are legal
    _obs, reward, terminated, _truncated, info = env.step(action)
    assert (reward, terminated, info["illegal_action"]) == (-1.0, True, True)


def test_a_numpy_integer_is_an_action():
    env, twin = kgym.KatraEnv("katro"), kgym.KatraEnv("katro")
    env.reset(seed=0)
    twin.reset(seed=0)
    assert np.array_equal(env.step(np.int64(1))[0], twin.step(1)[0])


def test_illegal_action_loses_in_the_single_env():
    env = kgym.KatraEnv("katro")
    env.reset(seed=1)
    _obs, reward, terminated, truncated, info = env.step(35)
    assert (reward, terminated, truncated, info["illegal_action"]) == (-1.0, True, False, True)


@pytest.mark.parametrize("game_id", katra.GAME_IDS)
def test_vector_env_against_random(game_id):
    n = 8
    env = kgym.KatraVectorEnv(game_id, n, agent=1, seed=3, max_plies=120)
    obs, info = env.reset(seed=3)
    assert obs.shape == (n, katra.game(game_id).observation_size) and obs.dtype == np.float32
    assert env.observation_space.contains(obs)
    rng = np.random.RandomState(0)
    finished = 0
    done_before = np.zeros(n, bool)
    for _ in range(200):
        masks = info["action_mask"]
        actions = np.array([rng.choice(np.flatnonzero(m)) if m.any() else 0 for m in masks])
        obs, rewards, terminated, truncated, info = env.step(actions)
        vg = env._match.vg
        for i in range(n):
            state = vg.position(i)
            assert obs[i].tolist() == state.observation(1)
            if terminated[i]:
                assert state.is_terminal() and rewards[i] == state.returns()[1]
            elif truncated[i]:
                assert not state.is_terminal() and vg.plies[i] >= 120 and rewards[i] == 0
            else:
                assert rewards[i] == 0 and state.to_move == 1    # the agent is to move
                assert np.flatnonzero(info["action_mask"][i]).tolist() == state.legal_actions()
            if done_before[i]:                                  # next-step autoreset
                assert not (terminated[i] or truncated[i]) and vg.plies[i] <= 2
        done_before = terminated | truncated
        finished += int(done_before.sum())
    assert finished >= n


def test_vector_env_illegal_action_names_the_env():
    env = kgym.KatraVectorEnv("katro", 3)
    env.reset()
    before = env._match.vg.observations.copy()
    with pytest.raises(katra.IllegalMoveError, match="env 1"):
        env.step(np.array([0, 35, 0]))
    assert (env._match.vg.observations == before).all()


def test_bad_arguments():
    for kwargs, message in [({"agent": 2}, "agent"), ({"opponent": "minimax"}, "opponent"),
                            ({"depth": 0}, "depth")]:
        with pytest.raises(ValueError, match=message):
            kgym.KatraVectorEnv("katro", 2, **kwargs)


def test_ansi_render_draws_the_board():
    env = kgym.KatraEnv("gore", render_mode="ansi")
    env.reset(seed=0)
    assert env.render() == str(katra.game("gore").initial_state())
    assert kgym.KatraEnv("gore").render() is None
