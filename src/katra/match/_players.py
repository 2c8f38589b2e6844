"""katra's built-in players (docs/protocol.md, "katra's own engines").

Each is a ``Player`` named by a spec text ``NAME[:KEY=VALUE[,KEY=VALUE...]]``
(``make_player``): ``random``, ``greedy``, ``alphabeta`` (``katra.Engine``) and
``mcts`` (``katra.MCTS``).  Their settings are the spec's keys and, over the
protocol, the options ``setoption`` changes.

Budget of one move, first rule that applies: ``go infinite`` searches until
``stop``; ``go``'s ``nodes``/``depth``/``movetime`` replace the player's own
budget; the player's own budget (its depth/nodes/time/simulations settings);
the mover's clock: ``time left / 30 + increment``, at most ``time left / 2``;
else ``DEFAULT_SECONDS``.  ``stop`` is answered within milliseconds: it cancels
the running search (``_StopWatch``).  With fixed budgets
(depth/nodes/simulations) and seeds, a player's moves are a function of the
positions it was asked about since it was made.
"""
from __future__ import annotations

import dataclasses
import math
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

from katra._core import JobCancelled, cancel_jobs
from katra._errors import ArgumentError
from katra._games import GAME_IDS
from katra._limits import (
    MAX_EXPLORATION,
    MAX_MCTS_SIMULATIONS,
    MAX_SEARCH_DEPTH,
    MAX_SEARCH_NODES,
    MAX_SEARCH_TIME,
    MAX_SEED,
    MAX_TT_BITS,
    bound_text,
)
from katra._zobrist import MASK64, splitmix64

from ._protocol import Choice, GoLimits, Info, Option, Player, family_wildcards

if TYPE_CHECKING:
    from katra.api import MCTS, Engine, State

#: The time per move of a player that has no budget, no clock and no limit from ``go``.
DEFAULT_SECONDS = 1.0
#: A clock gives a move about (time left) / CLOCK_MOVES + increment.
CLOCK_MOVES = 30
#: How often (seconds) a search watches its stop event.
STOP_POLL = 0.005
#: MCTS's first call, in simulations (doubled at each call of the same move).
MCTS_SLICE = 200


@dataclass(frozen=True)
class Setting:
    """One setting of a player: a spec key and a protocol option.  ``kind`` int
    (an option of type spin) or float (type string); ``default`` None means
    "not set", written 0 (a budget of 0 is no budget)."""

    name: str
    kind: type
    minimum: float
    maximum: float
    default: float | None
    help: str

    def parse(self, text: str) -> float | None:
        """The value of ``text``, else ArgumentError naming the setting and its range."""
        word = text.strip()
        try:
            value: float = int(word, 10) if self.kind is int else float(word)
        except ValueError:
            kind = "a whole number" if self.kind is int else "a number"
            raise ArgumentError(f"{self.name} must be {kind} in {self.range_text()}, "
                                f"not {text!r}") from None
        if self.default is None and value == 0:
            return None
        if not (math.isfinite(value) and self.minimum <= value <= self.maximum):
            raise ArgumentError(f"{self.name} must be in {self.range_text()}, not {text!r}")
        return value

    def range_text(self) -> str:
        low, high = (bound_text(int(v)) if self.kind is int or v >= 10**5 else f"{v:g}"
                     for v in (self.minimum, self.maximum))
        zero = " (0: none)" if self.default is None else ""
        return f"{low}..{high}{zero}"

    def text(self, value: float | None) -> str:
        if value is None:
            return "0"
        return str(int(value)) if self.kind is int else f"{value:g}"

    def option(self, value: float | None) -> Option:
        """The option line of this setting, ``value`` its default (the player's own)."""
        if self.kind is int:
            return Option(self.name, "spin", self.text(value),
                          0 if self.default is None else int(self.minimum), int(self.maximum))
        return Option(self.name, "string", self.text(value))


SEED = Setting("seed", int, 0, MAX_SEED, 0, "the seed of its random choices")


@dataclass(frozen=True)
class Budget:
    """One move's limits: any of depth, nodes (simulations for MCTS), seconds;
    none of them and ``infinite``: until stop."""

    depth: int | None = None
    nodes: int | None = None
    seconds: float | None = None
    infinite: bool = False


class BuiltinPlayer(Player):
    """A built-in player: its settings (``SETTINGS``), the spec text naming it,
    and the reports it streams while it thinks (``listener``)."""

    KIND: ClassVar[str]
    SETTINGS: ClassVar[tuple[Setting, ...]]
    HELP: ClassVar[str]
    #: chooses in microseconds whatever the limits (no search): an engine
    #: serving it may answer go without a thread of its own, but for go infinite
    INSTANT: ClassVar[bool] = False

    def __init__(self, **values: float | None) -> None:
        self.values: dict[str, float | None] = {s.name: s.default for s in self.SETTINGS}
        for key, value in values.items():
            self._setting(key)
            self.values[key] = value
        #: called with each Info as it is found (``katra engine`` prints it at once)
        self.listener: Callable[[Info], None] | None = None
        self.name = self.spec()
        self._configure()

    @classmethod
    def _setting(cls, key: str) -> Setting:
        for setting in cls.SETTINGS:
            if setting.name == key:
                return setting
        raise ArgumentError(f"{cls.KIND} has no setting {key!r}; its settings: "
                            f"{', '.join(s.name for s in cls.SETTINGS) or 'none'}")

    def spec(self) -> str:
        """The spec text of this player: its kind and the settings that differ
        from their defaults (``alphabeta:depth=6``)."""
        changed = [f"{s.name}={s.text(self.values[s.name])}" for s in self.SETTINGS
                   if self.values[s.name] != s.default]
        return self.KIND + (":" + ",".join(changed) if changed else "")

    def options(self) -> tuple[Option, ...]:
        """The handshake's options: every setting, its current value as the default."""
        return tuple(s.option(self.values[s.name]) for s in self.SETTINGS)

    def set_option(self, key: str, text: str) -> None:
        """``setoption name KEY value TEXT``: ArgumentError (nothing changed) for an
        unknown key or a bad value."""
        self.values[key] = self._setting(key).parse(text)
        self.name = self.spec()
        self._configure()

    def _configure(self) -> None:
        """Apply the settings (make the engine, seed the generator)."""

    def _report(self, infos: list[Info], info: Info) -> None:
        infos.append(info)
        if self.listener is not None:
            self.listener(info)

    def own_budget(self) -> Budget:
        """The budget of the player's own settings (none: ``Budget()``)."""
        return Budget()

    def budget(self, state: State, limits: GoLimits) -> Budget:
        """This move's budget (module docs)."""
        if limits.infinite:
            return Budget(infinite=True)
        if limits.nodes is not None or limits.depth is not None or limits.movetime is not None:
            seconds = None if limits.movetime is None else max(limits.movetime, 1) / 1000
            return Budget(limits.depth, limits.nodes, seconds)
        own = self.own_budget()
        if own.depth is not None or own.nodes is not None or own.seconds is not None:
            return own
        left, increment = limits.clock(state.to_move)
        if left is not None:
            share = min(left / CLOCK_MOVES + (increment or 0), left / 2)
            return Budget(seconds=max(share, 1) / 1000)
        return Budget(seconds=DEFAULT_SECONDS)


class _Generator:
    """splitmix64 (docs/rules.md §6.2): ``pick`` draws ``items[next() % len(items)]``."""

    def __init__(self, seed: int) -> None:
        self.state = seed & MASK64

    def pick(self, items: list[int]) -> int:
        self.state, output = splitmix64(self.state)
        return items[output % len(items)]


class _StopWatch:
    """While the block runs, a thread watches ``stop``; once it is set, it cancels
    the core's running jobs (``katra._core.cancel_jobs``: the search in the block
    raises JobCancelled within milliseconds).  cancel_jobs reaches every thread's
    core job: a search that catches JobCancelled without its own stop set was
    cancelled by another's, and searches again."""

    def __init__(self, stop: threading.Event) -> None:
        self.stop = stop
        self.done = threading.Event()
        self.thread = threading.Thread(target=self._watch, name="katra stop watch", daemon=True)

    def _watch(self) -> None:
        while not self.done.is_set():
            if self.stop.wait(STOP_POLL):
                if not self.done.is_set():
                    cancel_jobs()
                return

    def __enter__(self) -> _StopWatch:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.done.set()  # the thread ends at its next poll (not waited for)


def _wait_if_infinite(limits: GoLimits, stop: threading.Event) -> None:
    """``go infinite``: the answer waits for ``stop``."""
    if limits.infinite:
        stop.wait()


class RandomPlayer(BuiltinPlayer):
    """Uniform among the legal actions, by a seeded splitmix64 kept across moves
    and games (a new seed restarts it)."""

    KIND = "random"
    SETTINGS = (SEED,)
    INSTANT = True
    HELP = "a uniformly random legal move"

    def _configure(self) -> None:
        self._generator = _Generator(int(self.values["seed"] or 0))

    def choose(self, state: State, limits: GoLimits, stop: threading.Event) -> Choice:
        action = self._generator.pick(state.legal_actions())
        _wait_if_infinite(limits, stop)
        return Choice(action)


def material(state: State, player: int) -> int:
    """Seeds in ``player``'s holes and store less the opponent's."""
    own = sum(seeds if owner == player else -seeds
              for seeds, owner in zip(state.board, state.owners))
    stores = state.stores
    return own + stores[player] - stores[1 - player]


class GreedyPlayer(BuiltinPlayer):
    """The move that leaves the mover the most material right after it
    (``material``); ties broken by a seeded splitmix64, kept across moves."""

    KIND = "greedy"
    SETTINGS = (SEED,)
    INSTANT = True
    HELP = "the move leaving it the most material (its seeds less the opponent's)"

    def _configure(self) -> None:
        self._generator = _Generator(int(self.values["seed"] or 0))

    def choose(self, state: State, limits: GoLimits, stop: threading.Event) -> Choice:
        mover = state.to_move
        scored = [(material(state.child(action), mover), action)
                  for action in state.legal_actions()]
        best = max(score for score, _ in scored)
        ties = [action for score, action in scored if score == best]
        action = ties[0] if len(ties) == 1 else self._generator.pick(ties)
        info = Info(score=("value", best), string=f"material {best:+d} after "
                                                    f"{state.action_text(action)}")
        infos: list[Info] = []
        self._report(infos, info)
        _wait_if_infinite(limits, stop)
        return Choice(action, tuple(infos))


def _milliseconds(seconds: float) -> int:
    return int(seconds * 1000)


class AlphaBetaPlayer(BuiltinPlayer):
    """katra.Engine (docs/engine.md), its table kept across moves and emptied by
    ``new_game``.  Iterative deepening by calls of Engine.search, one depth more
    each (the kept table makes the depths already searched cheap); ``stop``
    cancels the running call (``_StopWatch``) and the last depth completed
    answers."""

    KIND = "alphabeta"
    SETTINGS = (
        Setting("depth", int, 1, MAX_SEARCH_DEPTH, None, "plies to search"),
        Setting("nodes", int, 1, MAX_SEARCH_NODES, None, "nodes to search"),
        Setting("time", float, 0.001, MAX_SEARCH_TIME, None, "seconds per move"),
        Setting("tt_bits", int, 0, MAX_TT_BITS, 20, "the table holds 2**tt_bits entries"),
    )
    HELP = "katra's alpha-beta engine (docs/engine.md)"

    _engine: Engine | None = None

    def _configure(self) -> None:
        from katra.api import Engine
        bits = int(self.values["tt_bits"] or 0)
        if self._engine is None or self._engine.tt_bits != bits:
            self._engine = Engine(tt_bits=bits)

    @property
    def engine(self) -> Engine:
        assert self._engine is not None  # made by __init__
        return self._engine

    def new_game(self) -> None:
        self.engine.clear()

    def own_budget(self) -> Budget:
        depth, nodes = self.values["depth"], self.values["nodes"]
        return Budget(None if depth is None else int(depth), None if nodes is None else int(nodes),
                      self.values["time"])

    def choose(self, state: State, limits: GoLimits, stop: threading.Event) -> Choice:
        budget = self.budget(state, limits)
        start = time.monotonic()
        deadline = None if budget.seconds is None else start + budget.seconds
        infos: list[Info] = []
        best: Any = None
        used = 0
        target = 1  # the depth this call completes, unless a limit or stop cuts it
        last = budget.depth or MAX_SEARCH_DEPTH
        with _StopWatch(stop):
            while not stop.is_set():
                call_nodes = None if budget.nodes is None else budget.nodes - used
                call_time = (None if deadline is None
                             else max(deadline - time.monotonic(), 0.001))
                try:
                    result = self.engine.search(state, depth=target, time=call_time,
                                                nodes=call_nodes)
                except JobCancelled:
                    continue  # stop (the loop ends) or another thread's cancel_jobs (again)
                used += result.nodes
                if best is None or result.depth > best.depth:
                    best = result
                    seconds = time.monotonic() - start
                    self._report(infos, self._info(state, result, used, seconds))
                # short of its depth: cut by the clock or the node budget, or nothing deeper
                # to see (a proven result, every line finished)
                short = result.depth < target
                target = result.depth + 1
                if (short or result.is_win or result.is_loss or target > last
                        or (deadline is not None and time.monotonic() >= deadline)
                        or (budget.nodes is not None and used >= budget.nodes)):
                    break
        if budget.infinite:  # nothing more to search: the answer waits for stop
            stop.wait()
        if best is None:  # stopped before depth 1 completed: depth 1 is a few nodes
            best = self.engine.search(state, depth=1)
            self._report(infos, self._info(state, best, best.nodes, time.monotonic() - start))
        return Choice(best.best_action, tuple(infos))

    @staticmethod
    def _info(state: State, result: Any, nodes: int, seconds: float) -> Info:
        plies = result.plies
        score = (("win" if result.is_win else "loss", plies) if plies is not None
                 else ("value", result.score))
        ms = _milliseconds(seconds)
        return Info(depth=result.depth, score=score, nodes=nodes, time=ms,
                    nps=nodes * 1000 // ms if ms > 0 else None,
                    pv=tuple(state.action_text(a) for a in result.pv))


class MctsPlayer(BuiltinPlayer):
    """katra.MCTS (UCT), its tree kept between moves and dropped by ``new_game``.
    Searches in calls of MCTS_SLICE simulations, twice as many each time, of the
    same position: MCTS.search continues one tree, so they build exactly the
    tree of one call (an ``info`` line after each); ``stop`` cancels the running
    call, whose completed simulations the tree keeps."""

    KIND = "mcts"
    SETTINGS = (
        Setting("simulations", int, 1, MAX_MCTS_SIMULATIONS, None, "simulations per move"),
        Setting("time", float, 0.001, MAX_SEARCH_TIME, None, "seconds per move"),
        Setting("exploration", float, 0, MAX_EXPLORATION, 1.4, "UCB1's exploration constant"),
        SEED,
    )
    HELP = "katra's Monte Carlo tree search (UCT)"

    _mcts: MCTS | None = None

    def _configure(self) -> None:
        from katra.api import MCTS
        exploration = float(self.values["exploration"] or 0)
        seed = int(self.values["seed"] or 0)
        if (self._mcts is None or self._mcts.exploration != exploration
                or self._mcts.seed != seed):  # a new tree only for a new search
            self._mcts = MCTS(exploration=exploration, seed=seed)

    @property
    def mcts(self) -> MCTS:
        assert self._mcts is not None  # made by __init__
        return self._mcts

    def new_game(self) -> None:
        self.mcts.clear()

    def own_budget(self) -> Budget:
        simulations = self.values["simulations"]
        return Budget(nodes=None if simulations is None else int(simulations),
                      seconds=self.values["time"])

    def choose(self, state: State, limits: GoLimits, stop: threading.Event) -> Choice:
        # go's depth means nothing to MCTS: read go without it; nodes means simulations
        budget = self.budget(state, dataclasses.replace(limits, depth=None))
        start = time.monotonic()
        deadline = None if budget.seconds is None else start + budget.seconds
        infos: list[Info] = []
        done = 0  # this move's simulations
        result: Any = None
        chunk = MCTS_SLICE
        cut = False  # stop cancelled a call: the tree holds more than ``result``
        with _StopWatch(stop):
            while not stop.is_set():
                call = chunk if budget.nodes is None else min(chunk, budget.nodes - done)
                call_time = (None if deadline is None
                             else max(deadline - time.monotonic(), 0.001))
                try:
                    result = self.mcts.search(state, simulations=call, time=call_time)
                except JobCancelled:
                    cut = True
                    continue  # stop (the loop ends) or another thread's cancel_jobs (again)
                cut = False
                done += result.simulations
                self._report(infos, self._info(state, result, done, time.monotonic() - start))
                chunk = min(chunk * 2, MAX_MCTS_SIMULATIONS)
                if ((budget.nodes is not None and done >= budget.nodes)
                        or (deadline is not None and time.monotonic() >= deadline)):
                    break
        if budget.infinite:  # the answer waits for stop
            stop.wait()
        if result is None or cut:  # read the tree as stop left it (one simulation more)
            result = self.mcts.search(state, simulations=1)
            done += 1
            self._report(infos, self._info(state, result, done, time.monotonic() - start))
        return Choice(int(result.best_action), tuple(infos))

    @staticmethod
    def _info(state: State, result: Any, simulations: int, seconds: float) -> Info:
        return Info(score=("value", mcts_score(result)),
                    nodes=int(result.tree_nodes), time=_milliseconds(seconds),
                    simulations=simulations,
                    pv=tuple(state.action_text(int(a)) for a in result.pv))


def mcts_score(result: Any) -> int:
    """An MctsResult's score: its best move's mean result for the side to move
    (win 1, draw or unfinished 1/2, loss 0) as -100..100."""
    value = next(value for action, _, value in result.children if action == result.best_action)
    return round(200 * float(value)) - 100


PLAYERS: dict[str, type[BuiltinPlayer]] = {
    cls.KIND: cls for cls in (RandomPlayer, GreedyPlayer, AlphaBetaPlayer, MctsPlayer)}
#: The games every built-in player plays: the named ids, then every variant of
#: each family (``katro-*``: docs/protocol.md, docs/rules.md §7).
PLAYER_GAMES = GAME_IDS + family_wildcards()


def describe_players() -> str:
    """The players and their keys, one paragraph each (``katra engine --help``)."""
    lines = []
    for kind, cls in PLAYERS.items():
        lines.append(f"  {kind}: {cls.HELP}")
        lines += [f"    {s.name}={s.range_text()}: {s.help}" for s in cls.SETTINGS]
    return "\n".join(lines)


def make_player(spec: str) -> BuiltinPlayer:
    """The built-in player of ``NAME[:KEY=VALUE[,KEY=VALUE...]]`` (``alphabeta:depth=6``,
    ``mcts:simulations=2000,seed=3``).  ArgumentError names a bad name, key or
    value and lists the valid ones."""
    if not isinstance(spec, str):
        raise ArgumentError(f"a player spec is a str, not {type(spec).__name__}")
    kind, colon, rest = spec.strip().partition(":")
    if kind not in PLAYERS:
        raise ArgumentError(f"unknown player {kind!r} in {spec!r}; the players: "
                            f"{', '.join(PLAYERS)}")
    cls = PLAYERS[kind]
    values: dict[str, float | None] = {}
    if colon:
        for item in rest.split(","):
            key, equals, text = item.partition("=")
            key = key.strip()
            if not equals or not key:
                raise ArgumentError(f"expected KEY=VALUE, not {item!r}, in {spec!r}; "
                                    f"{kind}'s keys: {', '.join(s.name for s in cls.SETTINGS)}")
            if key in values:
                raise ArgumentError(f"{key} is given twice in {spec!r}")
            values[key] = cls._setting(key).parse(text)
    return cls(**values)
