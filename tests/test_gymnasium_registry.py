"""``import katra.gymnasium`` registers one Gymnasium id per game (docs/learning.md)."""
import subprocess
import sys

import gymnasium
import numpy as np
import pytest

import katra
from katra.gymnasium import ENV_IDS, KatraEnv, KatraVectorEnv, env_id

EXPECTED_IDS = {
    "katro": "katra/Katro-v0",
    "katro-4x6": "katra/Katro4x6-v0",
    "katro-4x4": "katra/Katro4x4-v0",
    "katra-mpantsaka": "katra/KatraMpantsaka-v0",
    "katra-mpantsaka-simplified": "katra/KatraMpantsakaSimplified-v0",
    "gore": "katra/Gore-v0",
    "djenon-aboure": "katra/DjenonAboure-v0",
}


def test_every_game_has_an_id():
    assert ENV_IDS == EXPECTED_IDS
    assert list(ENV_IDS) == [g.id for g in katra.games()]
    assert env_id(katra.game("Goré")) == env_id("gore") == "katra/Gore-v0"
    assert set(ENV_IDS.values()) <= set(gymnasium.registry)


@pytest.mark.parametrize("game_id", list(EXPECTED_IDS))
def test_make_builds_the_game(game_id):
    game = katra.game(game_id)
    env = gymnasium.make(EXPECTED_IDS[game_id])
    assert isinstance(env.unwrapped, KatraEnv)
    assert env.spec.id == EXPECTED_IDS[game_id]
    assert env.action_space.n == game.num_actions
    obs, info = env.reset(seed=3)
    start = game.initial_state()
    assert obs.tolist() == [float(x) for x in start.observation(player=0)]
    assert info["action_mask"].tolist() == [bool(x) for x in start.legal_actions_mask()]
    action = start.legal_actions()[0]
    obs, _, _, truncated, info = env.step(action)          # a legal action is played
    assert "illegal_action" not in info and not truncated
    assert obs.shape == (game.observation_size,)
    env.close()


def test_make_passes_keywords():
    """agent=1: the random opponent (South) moves first; the agent sees North's view."""
    env = gymnasium.make("katra/DjenonAboure-v0", agent=1, seed=5)
    obs, _ = env.reset(seed=5)
    game = katra.game("djenon-aboure")
    h = game.holes
    assert obs[3 * h + 2] == 1.0 and obs[3 * h + 3] == 1.0      # viewer North, to move
    assert obs[:h].sum() + obs[3 * h] + obs[3 * h + 1] == game.seeds_per_hole * h
    with pytest.raises(ValueError, match="agent must be 0"):
        gymnasium.make("katra/Katro-v0", agent=2)


def test_make_vec_builds_the_vector_env():
    envs = gymnasium.make_vec("katra/Gore-v0", num_envs=4, vectorization_mode="vector_entry_point")
    assert isinstance(envs, KatraVectorEnv) and envs.num_envs == 4
    obs, info = envs.reset(seed=1)
    assert obs.shape == (4, katra.game("gore").observation_size)
    mask = info["action_mask"]
    actions = np.argmax(mask, axis=1)                 # the lowest legal action of each env
    _, rewards, terminated, truncated, _ = envs.step(actions)
    assert rewards.shape == terminated.shape == truncated.shape == (4,)
    envs.close()


def test_module_colon_id_imports_the_module():
    """``gymnasium.make("katra.gymnasium:katra/Katro-v0")`` in a fresh interpreter."""
    code = ("import gymnasium, sys\n"
            "assert 'katra.gymnasium' not in sys.modules\n"
            "env = gymnasium.make('katra.gymnasium:katra/Katro-v0')\n"
            "print(env.spec.id, env.action_space.n)\n")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                            timeout=120)
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["katra/Katro-v0", "36"]
