"""Single-agent Gymnasium environments over katra.VectorGame (extra ``katra[gymnasium]``).

The agent plays one side (``agent=0`` South, ``1`` North) against an opponent
policy inside the environment: ``opponent="random"`` (uniform over the legal
actions, drawn with each game's docs/rules.md §6.2 generator) or
``opponent="engine"`` (katra's alpha-beta search at ``depth`` plies).  After
the agent's action the opponent plays until the agent is to move again or the
game ends (Goré's answers keep the turn, so that can be several moves).

* [KatraVectorEnv][katra.gymnasium.KatraVectorEnv] (``gymnasium.vector.VectorEnv``):
  ``num_envs`` games stepped in the core, Gymnasium's next-step autoreset (the step after a
  game ends resets it and ignores its action).  Observations ``(num_envs,
  observation_size)`` float32 from the agent's point of view (docs/learning.md);
  ``infos["action_mask"]`` ``(num_envs, num_actions)`` bool, also
  [KatraVectorEnv.action_masks][katra.gymnasium.KatraVectorEnv.action_masks].  An
  illegal action raises ``katra.IllegalMoveError`` naming the env, and no env changes.
* [KatraEnv][katra.gymnasium.KatraEnv] (``gymnasium.Env``): one game; an illegal action ends the
  episode with reward -1 (``info["illegal_action"]``), so that any action of
  the action space is accepted (Gymnasium's env checker samples them).

Rewards (for the agent): +1 win, -1 loss, 0 draw, at the end; a game stopped
at ``max_plies`` plies (both sides counted) is *truncated* with reward 0.

Importing this module registers one Gymnasium id per game, ``katra/<Name>-v0``
([ENV_IDS][katra.gymnasium.ENV_IDS]: ``katra/Katro-v0``, ``katra/KatraMpantsaka-v0``,
``katra/Gore-v0``, ``katra/DjenonAboure-v0``...): ``gymnasium.make(id, **kwargs)``
builds a [KatraEnv][katra.gymnasium.KatraEnv] and ``gymnasium.make_vec(id, num_envs,
vectorization_mode="vector_entry_point")`` a [KatraVectorEnv][katra.gymnasium.KatraVectorEnv] (the
keywords are theirs).  ``gymnasium.make("katra.gymnasium:katra/Katro-v0")``
imports the module itself.

Variants (docs/rules.md §7): a variant id as ``game`` (``KatraEnv("katro-4x5-s3")``),
or the keywords ``rows``, ``cols``, ``seeds`` and ``simplified`` of
[katra.game][katra.game], which also go through ``gymnasium.make``:
``gymnasium.make("katra/Katro-v0", rows=4, cols=5, seeds=3)``.
"""
from __future__ import annotations

from typing import Any

try:
    import gymnasium as gym
    import numpy as np
    from gymnasium import spaces
    from gymnasium.vector import AutoresetMode, VectorEnv
except ImportError as exc:  # pragma: no cover - exercised without the extra
    from katra._errors import extra_hint
    raise ImportError(f"katra.gymnasium needs Gymnasium (missing: {exc.name}): "
                      f"{extra_hint('gymnasium')}") from exc

from katra._games import MAX_TOTAL_SEEDS
from katra._limits import MAX_SEARCH_DEPTH, as_int, check_int
from katra.api import DEFAULT_MAX_PLIES, Game, VectorGame, games, search
from katra.api import game as katra_game

__all__ = ["KatraVectorEnv", "KatraEnv", "ENV_IDS", "env_id"]


class _Match:
    """An agent against an opponent policy on a VectorGame (the agent's view)."""

    def __init__(self, game: str | Game, num_envs: int, agent: int, opponent: str,
                 depth: int, seed: int, max_plies: int, variant: dict[str, Any]) -> None:
        agent_number = as_int(agent)
        if agent_number is None or agent_number not in (0, 1):
            raise ValueError(f"agent must be 0 (South) or 1 (North), not {agent!r}")
        if opponent not in ("random", "engine"):
            raise ValueError(f"opponent must be 'random' or 'engine', not {opponent!r}")
        depth = check_int(depth, "depth", 1, MAX_SEARCH_DEPTH)
        self.game = _game(game, variant)
        self.agent = agent_number
        self.opponent = opponent
        self.depth = depth
        self.vg = VectorGame(self.game.id, num_envs, seed=seed, max_plies=max_plies, view=agent)

    def opponent_moves(self) -> None:
        """Let the opponent play wherever it is to move in a game still going on."""
        vg = self.vg
        while True:
            waiting = ~(vg.terminated | vg.truncated) & (vg.to_move != self.agent)
            if not waiting.any():
                return
            if self.opponent == "random":
                actions = vg.random_actions()
            else:
                actions = np.zeros(vg.num_envs, np.int64)
                for i in np.flatnonzero(waiting):
                    actions[i] = search(vg.position(int(i)), depth=self.depth).best_action
            actions[~waiting] = VectorGame.SKIP
            vg.step(actions)

    def reset(self, seed: int | None) -> None:
        self.vg.reset(seed=seed)
        self.opponent_moves()

    def step(self, actions: Any) -> None:
        self.vg.step(actions)
        self.opponent_moves()


def _game(game: str | Game, variant: dict[str, Any]) -> Game:
    """``game``, or its variant when a keyword of [katra.game][katra.game] is given."""
    if isinstance(game, Game) and all(value is None for value in variant.values()):
        return game
    return katra_game(game.id if isinstance(game, Game) else game, **variant)


def _observation_space(game: Game, *shape: int) -> spaces.Box:
    return spaces.Box(0, MAX_TOTAL_SEEDS, shape=(*shape, game.observation_size), dtype=np.float32)


class KatraVectorEnv(VectorEnv):
    """``num_envs`` games of one game id against an opponent policy (module docs)."""

    # RUF012: Gymnasium declares metadata a plain class attribute, not a ClassVar
    metadata = {"autoreset_mode": AutoresetMode.NEXT_STEP, "render_modes": []}  # noqa: RUF012

    def __init__(self, game: str | Game, num_envs: int, *, agent: int = 0,
                 opponent: str = "random", depth: int = 2, seed: int = 0,
                 max_plies: int = DEFAULT_MAX_PLIES, rows: int | None = None,
                 cols: int | None = None, seeds: int | None = None,
                 simplified: bool | None = None) -> None:
        variant = {"rows": rows, "cols": cols, "seeds": seeds, "simplified": simplified}
        self._match = _Match(game, num_envs, agent, opponent, depth, seed, max_plies, variant)
        game_obj = self._match.game
        self.num_envs = num_envs
        self.single_observation_space = _observation_space(game_obj)
        self.single_action_space = spaces.Discrete(game_obj.num_actions)
        self.observation_space = _observation_space(game_obj, num_envs)
        self.action_space = spaces.MultiDiscrete([game_obj.num_actions] * num_envs)

    def action_masks(self) -> Any:
        """``(num_envs, num_actions)`` bool: the agent's legal actions (a copy)."""
        return self._match.vg.action_masks.copy()

    def reset(self, *, seed: int | None = None,
              options: dict[str, Any] | None = None) -> tuple[Any, dict[str, Any]]:
        self._match.reset(seed)
        return self._match.vg.observations.copy(), {"action_mask": self.action_masks()}

    def step(self, actions: Any) -> tuple[Any, Any, Any, Any, dict[str, Any]]:
        self._match.step(np.asarray(actions))
        vg = self._match.vg
        return (vg.observations.copy(), vg.rewards[:, self._match.agent].copy(),
                vg.terminated.copy(), vg.truncated.copy(), {"action_mask": self.action_masks()})


class KatraEnv(gym.Env):
    """One game against an opponent policy (module docs); ``render_mode="ansi"`` draws it."""

    metadata = {"render_modes": ["ansi"]}  # noqa: RUF012  (as above)

    def __init__(self, game: str | Game, *, agent: int = 0, opponent: str = "random",
                 depth: int = 2, seed: int = 0, max_plies: int = DEFAULT_MAX_PLIES,
                 render_mode: str | None = None, rows: int | None = None,
                 cols: int | None = None, seeds: int | None = None,
                 simplified: bool | None = None) -> None:
        if render_mode not in (None, "ansi"):
            raise ValueError(f"render_mode must be None or 'ansi', not {render_mode!r}")
        variant = {"rows": rows, "cols": cols, "seeds": seeds, "simplified": simplified}
        self._match = _Match(game, 1, agent, opponent, depth, seed, max_plies, variant)
        self.render_mode = render_mode
        self.observation_space = _observation_space(self._match.game)
        self.action_space = spaces.Discrete(self._match.game.num_actions)

    def action_masks(self) -> Any:
        """``(num_actions,)`` bool: the agent's legal actions (a copy)."""
        return self._match.vg.action_masks[0].copy()

    def _info(self, **extra: Any) -> dict[str, Any]:
        return {"action_mask": self.action_masks(), **extra}

    def reset(self, *, seed: int | None = None,
              options: dict[str, Any] | None = None) -> tuple[Any, dict[str, Any]]:
        super().reset(seed=seed)
        self._match.reset(seed)
        return self._match.vg.observations[0].copy(), self._info()

    def step(self, action: Any) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        vg = self._match.vg
        number = as_int(action)  # a NumPy integer is an action; a bool or a float is not
        if number is None or not (0 <= number < vg.num_actions and vg.action_masks[0, number]):
            return vg.observations[0].copy(), -1.0, True, False, self._info(illegal_action=True)
        self._match.step([number])
        return (vg.observations[0].copy(), float(vg.rewards[0, self._match.agent]),
                bool(vg.terminated[0]), bool(vg.truncated[0]), self._info())

    def render(self) -> str | None:
        if self.render_mode == "ansi":
            return str(self._match.vg.position(0))
        return None


# ---------------------------------------------------------------- registration

def env_id(game: str | Game) -> str:
    """The Gymnasium id of a game: ``katra/`` + its id in CamelCase + ``-v0``.

    ```pycon
    >>> env_id("katra-mpantsaka-simplified")
    'katra/KatraMpantsakaSimplified-v0'

    ```
    """
    game_id = game.id if isinstance(game, Game) else katra_game(game).id
    return "katra/" + "".join(part.capitalize() for part in game_id.split("-")) + "-v0"


#: The registered id of every game, by game id, in the order of ``katra.games()``.
ENV_IDS: dict[str, str] = {g.id: env_id(g) for g in games()}

for _game_id, _env_id in ENV_IDS.items():
    if _env_id not in gym.registry:  # a re-import (importlib.reload) registers nothing twice
        gym.register(id=_env_id, entry_point=f"{__name__}:KatraEnv",
                     vector_entry_point=f"{__name__}:KatraVectorEnv",
                     kwargs={"game": _game_id})
