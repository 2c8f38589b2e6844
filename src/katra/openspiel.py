"""katra's games as OpenSpiel games (extra ``katra[openspiel]``).

Importing this module registers every game id as a pyspiel Python game named
``katra_`` + the id with ``-`` turned into ``_``:

```python
import pyspiel  # type: ignore[import-not-found]
import katra.openspiel
game = pyspiel.load_game("katra_katro_4x4", {"max_game_length": 200})
```

Variants (docs/rules.md §7) are game parameters, as OpenSpiel's own ``oware``
has: every game takes ``rows``, ``cols`` and ``seeds`` (seeds per hole at the
start), the Katra Mpantsaka games ``simplified`` too, each defaulting to the
named game's value:

```python
game = pyspiel.load_game("katra_katro(rows=4,cols=5,seeds=3)")   # katro-4x5-s3
game = pyspiel.load_game("katra_gore", {"cols": 3})               # gore-2x3-s6
```

States run on the compiled core: ``legal_actions`` (ascending), ``apply_action``,
``clone``, ``returns`` (+1/-1/0), ``observation_tensor`` (the layout of
docs/learning.md, from any player's view), ``information_state_string`` (the
action history), ``serialize``/``game.deserialize_state``.  A game that reaches
``max_game_length`` plies (default 1,000, docs/rules.md §6.1) ends with returns
``[0, 0]``; ``state.is_truncated()`` tells such an end from a draw.  Goré's
answers to an offer keep the turn: ``current_player()`` follows the rules,
so one player may move twice in a row.

[PlayoutEvaluator][katra.openspiel.PlayoutEvaluator] is an evaluator for OpenSpiel's Python MCTS
(``open_spiel.python.algorithms.mcts``) whose random rollouts are one
``katra.playouts`` call each, inside the core.

What OpenSpiel's C++ algorithms cannot do with Python games: see
docs/learning.md ("OpenSpiel").
"""
from __future__ import annotations

from typing import Any

try:
    import numpy as np
    import pyspiel  # type: ignore[import-not-found]
    from open_spiel.python.algorithms import mcts  # type: ignore[import-untyped]
    from open_spiel.python.observation import IIGObserverForPublicInfoGame  # type: ignore[import-untyped]
except ImportError as exc:  # pragma: no cover - exercised without the extra
    from katra._errors import extra_hint
    raise ImportError(f"katra.openspiel needs OpenSpiel (missing: {exc.name}): "
                      f"{extra_hint('openspiel')}") from exc

from katra._games import GAME_IDS, MPANTSAKA
from katra._limits import check_int
from katra.api import DEFAULT_MAX_PLIES, Game, State, playouts
from katra.api import game as katra_game

__all__ = ["PlayoutEvaluator", "short_name", "GAME_NAMES"]

#: The longest ``max_game_length`` (OpenSpiel's GameInfo holds it in a C int).
MAX_GAME_LENGTH = 2**31 - 1


def short_name(game_id: str) -> str:
    """The pyspiel name of a katra game id: ``katra_katro_4x4`` for ``katro-4x4``."""
    return "katra_" + game_id.replace("-", "_")


#: pyspiel name -> katra game id, for every game id.
GAME_NAMES: dict[str, str] = {short_name(game_id): game_id for game_id in GAME_IDS}


def _parameters(game: Game) -> dict[str, Any]:
    """The pyspiel parameters of a registered game, with its own values as defaults."""
    params: dict[str, Any] = {"max_game_length": DEFAULT_MAX_PLIES, "rows": game.rows,
                              "cols": game.cols, "seeds": game.seeds_per_hole}
    if game.spec.family == MPANTSAKA:
        params["simplified"] = game.spec.simplified
    return params


def _game_type(game: Game) -> Any:
    return pyspiel.GameType(
        short_name=short_name(game.id),
        long_name=f"katra {game.name}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.DETERMINISTIC,
        information=pyspiel.GameType.Information.PERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=2,
        min_num_players=2,
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=_parameters(game))


class KatraGame(pyspiel.Game):  # type: ignore[misc]
    """One katra game as a pyspiel game (one subclass per game id, see ``_register``);
    ``rows``, ``cols``, ``seeds`` and ``simplified`` make a variant of it."""

    katra_game: Game

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        params = dict(params or {})
        length = params.get("max_game_length", DEFAULT_MAX_PLIES)
        length = check_int(length, "max_game_length", 1, MAX_GAME_LENGTH)
        named = type(self).katra_game
        game = katra_game(named.id, rows=params.get("rows", named.rows),
                          cols=params.get("cols", named.cols),
                          seeds=params.get("seeds", named.seeds_per_hole),
                          simplified=params.get("simplified", named.spec.simplified))
        self.katra_game = game
        info = pyspiel.GameInfo(
            num_distinct_actions=game.num_actions, max_chance_outcomes=0, num_players=2,
            min_utility=-1.0, max_utility=1.0, utility_sum=0.0, max_game_length=length)
        super().__init__(_game_type(named), info, params)
        self.max_plies = length

    def new_initial_state(self) -> KatraState:
        return KatraState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> Any:
        if iig_obs_type is None or (iig_obs_type.public_info and not iig_obs_type.perfect_recall):
            return BoardObserver(self.katra_game, params)
        return IIGObserverForPublicInfoGame(iig_obs_type, params)


class KatraState(pyspiel.State):  # type: ignore[misc]
    """A katra state (on the core) behind OpenSpiel's State interface."""

    def __init__(self, game: KatraGame) -> None:
        super().__init__(game)
        self.katra_state: State = game.katra_game.initial_state()
        self._max_plies = game.max_plies

    # -- OpenSpiel's perfect-information interface
    def current_player(self) -> int:
        if self.is_terminal():
            return int(pyspiel.PlayerId.TERMINAL)
        return self.katra_state.to_move

    def _legal_actions(self, player: int) -> list[int]:
        if self.is_terminal() or player != self.katra_state.to_move:
            return []
        return self.katra_state.legal_actions()

    def _apply_action(self, action: int) -> None:
        self.katra_state.push(action)

    def _action_to_string(self, player: int, action: int) -> str:
        return self.katra_state.action_text(action)

    def is_terminal(self) -> bool:
        return self.katra_state.ply >= self._max_plies or self.katra_state.is_terminal()

    def is_truncated(self) -> bool:
        """Stopped by ``max_game_length`` (returns ``[0, 0]``: no result, not a draw)."""
        return self.katra_state.ply >= self._max_plies and not self.katra_state.is_terminal()

    def returns(self) -> list[float]:
        return self.katra_state.returns()

    def __str__(self) -> str:
        return self.katra_state.text()


class BoardObserver:
    """OpenSpiel's PyObserver: the observation of docs/learning.md, from ``player``'s view."""

    def __init__(self, game: Game, params: Any) -> None:
        if params:
            raise ValueError(f"observation parameters are not supported; passed {params}")
        self.tensor = np.zeros(game.observation_size, np.float32)
        planes = 3 * game.holes
        self.dict = {"board": self.tensor[:planes].reshape(3, game.rows, game.cols),
                     "stores": self.tensor[planes:planes + 2],
                     "viewer": self.tensor[planes + 2:planes + 3],
                     "viewer_to_move": self.tensor[planes + 3:]}

    def set_from(self, state: KatraState, player: int) -> None:
        state.katra_state.observation(player, self.tensor)

    def string_from(self, state: KatraState, player: int) -> str:
        return f"{'SN'[player]} sees {state.katra_state.text()}"


class PlayoutEvaluator(mcts.Evaluator):  # type: ignore[misc]
    """MCTS evaluator: ``n_rollouts`` seeded random games in one ``katra.playouts`` call.

    Rollouts stop at the game's ``max_game_length``; an unfinished rollout counts 0.
    ``prior`` is uniform over the legal actions.  Seeds are drawn from ``random_state``
    (a ``numpy.random.RandomState``), so a seeded bot replays the same search.
    """

    def __init__(self, n_rollouts: int = 1, random_state: Any = None) -> None:
        self.n_rollouts = n_rollouts
        self._random_state = random_state or np.random.RandomState()

    def evaluate(self, state: KatraState) -> Any:
        s = state.katra_state
        if state.is_terminal():
            return np.array(state.returns())
        seed = int(self._random_state.randint(0, 2**63 - 1))
        tally = playouts(s, self.n_rollouts, seed=seed,
                         max_plies=max(0, state._max_plies - s.ply))
        south = (tally["south_wins"] - tally["north_wins"]) / self.n_rollouts
        return np.array([south, -south])

    def prior(self, state: KatraState) -> list[tuple[int, float]]:
        legal = state.legal_actions()
        return [(action, 1.0 / len(legal)) for action in legal]


def _register() -> None:
    registered = set(pyspiel.registered_names())
    for game_id in GAME_IDS:
        name = short_name(game_id)
        if name in registered:
            continue
        cls = type(f"KatraGame_{name}", (KatraGame,), {"katra_game": katra_game(game_id)})
        pyspiel.register_game(_game_type(katra_game(game_id)), cls)


_register()
