"""katra.pettingzoo: an AEC environment per game id, checked with PettingZoo's api_test."""
from __future__ import annotations

import numpy as np
import pytest
from pettingzoo.test import api_test

import katra
import katra.pettingzoo as kpz


@pytest.mark.parametrize("game_id", katra.GAME_IDS)
def test_pettingzoo_api_test(game_id):
    api_test(kpz.env(game_id, max_plies=300), num_cycles=300, verbose_progress=False)


def play(e, seed):
    rng = np.random.RandomState(seed)
    e.reset(seed=seed)
    for _agent in e.agent_iter():
        obs, _reward, terminated, truncated, _info = e.last()
        if terminated or truncated:
            e.step(None)
            continue
        e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))


@pytest.mark.parametrize("game_id", katra.GAME_IDS)
def test_observations_follow_katra_from_the_agents_view(game_id):
    e = kpz.env(game_id, max_plies=60)
    e.reset()
    rng = np.random.RandomState(1)
    mirror = katra.game(game_id).initial_state()
    for _ in range(40):
        agent = e.agent_selection
        if e.terminations[agent] or e.truncations[agent]:
            break
        assert agent == kpz.AGENTS[mirror.to_move]
        for player, who in enumerate(kpz.AGENTS):
            obs = e.observe(who)
            assert obs["observation"].tolist() == mirror.observation(player)
            if who == agent:
                assert obs["action_mask"].tolist() == mirror.legal_actions_mask()
            else:
                assert not obs["action_mask"].any()
        action = int(rng.choice(mirror.legal_actions()))
        e.step(action)
        mirror.push(action)


def test_rewards_at_the_end():
    e = kpz.env("katro-4x4")
    play(e, 3)
    raw = e.unwrapped
    south, north = raw.state_.returns()
    assert raw.state_.is_terminal() and sorted([south, north]) == [-1.0, 1.0]
    assert e.agents == []


def test_truncation_at_the_ply_cap_is_no_result():
    e = kpz.env("gore", max_plies=8)
    e.reset()
    rng = np.random.RandomState(0)
    for _ in range(8):
        obs, *_ = e.last()
        e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    assert all(e.truncations.values()) and not any(e.terminations.values())
    assert all(r == 0 for r in e.rewards.values())
    assert e.unwrapped.state_.ply == 8


def test_gore_answers_keep_the_turn():
    e = kpz.env("gore")
    e.reset()
    raw = e.unwrapped
    rng = np.random.RandomState(2)
    answered = 0
    while answered < 3:
        obs, *_ = e.last()
        legal = np.flatnonzero(obs["action_mask"])
        offers = [a for a in legal if 8 <= a < 264]
        if offers:
            offerer = e.agent_selection
            e.step(int(offers[0]))
            answerer = e.agent_selection
            assert answerer != offerer
            e.step(266)                              # decline
            assert e.agent_selection == answerer     # the answerer moves again
            answered += 1
        else:
            e.step(int(rng.choice(legal)))
    assert raw.state_.ply > 0


def test_renders_and_bad_arguments():
    e = kpz.env("djenon-aboure", render_mode="ansi")
    e.reset()
    assert e.render() == str(katra.game("djenon-aboure").initial_state())
    assert e.render().endswith("South to move")
    e = kpz.env("katro-4x4", render_mode="rgb_array")
    e.reset()
    image = e.render()
    assert image.shape == (4 * 24, 4 * 24, 3) and image.dtype == np.uint8
    assert (image == kpz._SEED_RGB).all(axis=2).sum() == 32 * 9   # 32 seeds of 3x3 pixels
    with pytest.raises(ValueError, match="render_mode"):
        kpz.env("katro", render_mode="human")
    with pytest.raises(ValueError, match="max_plies"):
        kpz.env("katro", max_plies=0)
    e = kpz.env("katro")
    e.reset()
    with pytest.raises(katra.IllegalMoveError):
        e.step(35)                                   # North's hole, South to move
    assert e.unwrapped.state_.ply == 0


def test_an_action_is_any_int_but_never_a_bool_or_a_float():
    env, twin = kpz.env("katro"), kpz.env("katro")
    env.reset(seed=0)
    twin.reset(seed=0)
    env.step(np.int64(1))
    twin.step(1)
    assert env.state_ == twin.state_ and env.state_.move_stack == [1]
    for bad in (True, np.True_, 1.0):
        with pytest.raises(katra.IllegalMoveError):
            env.step(bad)
    assert env.state_ == twin.state_
