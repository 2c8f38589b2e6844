"""katra's games as PettingZoo AEC environments (extra ``katra[pettingzoo]``).

```pycon
>>> from katra.pettingzoo import env            # doctest: +SKIP
>>> e = env("katro", max_plies=1000, render_mode="ansi")
>>> e.reset(seed=0)
>>> obs, reward, terminated, truncated, info = e.last()

```

Agents are ``"player_0"`` (South) and ``"player_1"`` (North); ``agent_selection`` is the player to
move (Goré's answers to an offer keep the turn, so an agent may act twice in a
row).  Observations are dicts ``{"observation", "action_mask"}`` from the
observing agent's own point of view (layout: docs/learning.md); the mask is
all zeros for the agent not to move.  Rewards are +1/-1 (0 for a draw) at the
end of the game; a game stopped by ``max_plies`` is *truncated* with rewards 0.
An illegal action raises ``katra.IllegalMoveError`` and changes nothing.
``render_mode="ansi"`` returns the board as text, ``"rgb_array"`` an image
(``numpy.uint8``, height x width x 3) drawn without any graphics library.
Variants (docs/rules.md §7): a variant id as ``game`` (``env("gore-2x3-s6")``),
or the keywords ``rows``, ``cols``, ``seeds`` and ``simplified`` of
[katra.game][katra.game]: ``env("katro", rows=4, cols=5, seeds=3)``.
"""
from __future__ import annotations

from typing import Any

try:
    import numpy as np
    from gymnasium import spaces
    from pettingzoo import AECEnv  # type: ignore[import-untyped]
    from pettingzoo.utils import wrappers  # type: ignore[import-untyped]
except ImportError as exc:  # pragma: no cover - exercised without the extra
    from katra._errors import extra_hint
    raise ImportError(f"katra.pettingzoo needs PettingZoo (missing: {exc.name}): "
                      f"{extra_hint('pettingzoo')}") from exc

from katra._games import MAX_TOTAL_SEEDS
from katra._limits import MAX_PLIES, check_int
from katra.api import DEFAULT_MAX_PLIES, Game, State
from katra.api import game as katra_game

__all__ = ["env", "raw_env", "AGENTS"]

#: Agent names, indexed by player (0 South, 1 North).
AGENTS = ("player_0", "player_1")

_CELL = 24                                  # pixels per hole in rgb_array renders
_OWNER_RGB = ((222, 184, 135), (160, 120, 80))
_SEED_RGB = (40, 40, 40)


def env(game: str | Game, max_plies: int = DEFAULT_MAX_PLIES,
        render_mode: str | None = None, *, rows: int | None = None, cols: int | None = None,
        seeds: int | None = None, simplified: bool | None = None) -> AECEnv:
    """The AEC environment of one game, with PettingZoo's order-enforcing wrapper."""
    return wrappers.OrderEnforcingWrapper(raw_env(game, max_plies, render_mode, rows=rows,
                                                  cols=cols, seeds=seeds, simplified=simplified))


class raw_env(AECEnv):  # type: ignore[misc]  # PettingZoo's naming convention
    """One katra game as an AEC environment (see the module docs)."""

    # RUF012: PettingZoo declares metadata a plain class attribute, not a ClassVar
    metadata = {"render_modes": ["ansi", "rgb_array"], "name": "katra",  # noqa: RUF012
                "is_parallelizable": False, "render_fps": 2}

    def __init__(self, game: str | Game, max_plies: int = DEFAULT_MAX_PLIES,
                 render_mode: str | None = None, *, rows: int | None = None,
                 cols: int | None = None, seeds: int | None = None,
                 simplified: bool | None = None) -> None:
        super().__init__()
        variant: dict[str, Any] = {"rows": rows, "cols": cols, "seeds": seeds,
                                   "simplified": simplified}
        if isinstance(game, Game) and all(value is None for value in variant.values()):
            self.game = game
        else:
            self.game = katra_game(game.id if isinstance(game, Game) else game, **variant)
        max_plies = check_int(max_plies, "max_plies", 1, MAX_PLIES)
        if render_mode not in (None, "ansi", "rgb_array"):
            raise ValueError(f"render_mode must be None, 'ansi' or 'rgb_array', "
                             f"not {render_mode!r}")
        self.max_plies = max_plies
        self.render_mode = render_mode
        self.metadata = dict(self.metadata, name=f"katra_{self.game.id.replace('-', '_')}")
        self.possible_agents = list(AGENTS)
        self.agents = list(AGENTS)
        space = spaces.Dict({
            "observation": spaces.Box(0, MAX_TOTAL_SEEDS, shape=self.game.observation_shape,
                                      dtype=np.float32),
            "action_mask": spaces.Box(0, 1, shape=(self.game.num_actions,), dtype=np.int8),
        })
        self.observation_spaces = dict.fromkeys(AGENTS, space)
        self.action_spaces = {agent: spaces.Discrete(self.game.num_actions) for agent in AGENTS}
        self.state_: State = self.game.initial_state()
        self._start()

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    def _start(self) -> None:
        self.state_ = self.game.initial_state()
        self.agents = list(AGENTS)
        self.rewards = dict.fromkeys(AGENTS, 0.0)
        self._cumulative_rewards = dict.fromkeys(AGENTS, 0.0)
        self.terminations = dict.fromkeys(AGENTS, False)
        self.truncations = dict.fromkeys(AGENTS, False)
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in AGENTS}
        self.agent_selection = AGENTS[self.state_.to_move]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Back to the start position (the games have no randomness: ``seed`` is unused)."""
        self._start()

    def observe(self, agent: str) -> dict[str, Any]:
        player = AGENTS.index(agent)
        observation = np.zeros(self.game.observation_size, np.float32)
        self.state_.observation(player, observation)
        mask = np.zeros(self.game.num_actions, np.int8)
        if agent == self.agent_selection and not self.terminations[agent] \
                and not self.truncations[agent]:
            self.state_.legal_actions_mask(mask)
        return {"observation": observation, "action_mask": mask}

    def step(self, action: int) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self.state_.push(action)  # any int (a NumPy integer too); a bool or a float raises
        self._cumulative_rewards[agent] = 0.0
        self.rewards = dict.fromkeys(AGENTS, 0.0)
        if self.state_.is_terminal():
            south, north = self.state_.returns()
            self.rewards = {AGENTS[0]: south, AGENTS[1]: north}
            self.terminations = dict.fromkeys(AGENTS, True)
        elif self.state_.ply >= self.max_plies:
            self.truncations = dict.fromkeys(AGENTS, True)
        self.agent_selection = AGENTS[self.state_.to_move]
        self._accumulate_rewards()

    def render(self) -> Any:
        if self.render_mode == "ansi":
            return str(self.state_)
        if self.render_mode == "rgb_array":
            return _draw(self.state_)
        return None

    def close(self) -> None:
        pass


def _draw(state: State) -> Any:
    """The board as an RGB image, North's rows at the top: one cell per hole, tinted by
    owner, with one dot per seed (up to 16 shown)."""
    g = state.game
    image = np.full((g.rows * _CELL, g.cols * _CELL, 3), 255, np.uint8)
    for i, (count, owner) in enumerate(zip(state.board, state.owners)):
        row, col = g.rows - 1 - i // g.cols, i % g.cols
        top, left = row * _CELL, col * _CELL
        image[top + 1:top + _CELL - 1, left + 1:left + _CELL - 1] = _OWNER_RGB[owner]
        for k in range(min(count, 16)):
            y, x = top + 3 + 5 * (k // 4), left + 3 + 5 * (k % 4)
            image[y:y + 3, x:x + 3] = _SEED_RGB
    return image
