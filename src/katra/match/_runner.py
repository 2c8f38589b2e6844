"""A match: its games scheduled, played on threads (or a dask cluster), written down
and scored (docs/match.md).

``MatchConfig`` says what is played; ``run_match`` plays it.  The
games are numbered: for each pair ``j`` of openings and each pairing
``(a, b)`` of engines, game ``2j`` has ``a`` South and ``2j+1`` has ``b``
South, both from opening ``j`` of the suite's order.  The results do not depend
on the concurrency, the order games end in, or the machine when every engine
plays to a fixed budget (``--nodes``/``--depth``, or a built-in player's own).
"""
from __future__ import annotations

import queue
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

from katra._errors import KatraError

from ._engine_process import (
    EngineFault,
    EngineSpec,
    EngineStartError,
    Seat,
    start_seat,
)
from ._openings import opening_order
from ._referee import GameResult, TimeControl, play_game
from ._results import RESULTS_FORMAT, RecordsFile, ResultsFile, Standings

TOURNAMENTS = ("gauntlet", "roundrobin")
#: Default seconds an engine has for its handshake.
DEFAULT_HANDSHAKE_TIMEOUT = 10.0


@dataclass(frozen=True)
class GameTask:
    """One game to play: its number, pairing, pair, opening and seats (engine indices)."""

    number: int
    pairing: int
    pair: int
    opening: str
    south: int
    north: int


@dataclass(frozen=True)
class MatchConfig:
    """Everything that decides a match's games (its results file's header)."""

    game_id: str
    engines: tuple[EngineSpec, ...]
    games: int
    control: TimeControl
    max_plies: int
    openings: tuple[str, ...]
    openings_source: str
    order: str = "sequential"
    seed: int = 0
    tournament: str | None = None
    adjudicate_nodes: int | None = None
    sprt: dict[str, Any] | None = None
    handshake_timeout: float = DEFAULT_HANDSHAKE_TIMEOUT
    tables: str | None = None  # Djenon-aboure's endgame tables file, read by adjudication

    def pairings(self) -> list[tuple[int, int]]:
        """The engine pairs that meet: one for two engines, gauntlet: the first against
        each other, roundrobin: every two."""
        n = len(self.engines)
        if self.tournament == "roundrobin":
            return [(a, b) for a in range(n) for b in range(a + 1, n)]
        return [(0, b) for b in range(1, n)]

    def tasks(self) -> list[GameTask]:
        order = opening_order(len(self.openings), self.order, self.seed)
        tasks: list[GameTask] = []
        for pair in range((self.games + 1) // 2):
            opening = self.openings[order[pair % len(order)]]
            for index, (a, b) in enumerate(self.pairings()):
                for swapped in (0, 1):
                    if 2 * pair + swapped < self.games:
                        south, north = (b, a) if swapped else (a, b)
                        tasks.append(GameTask(len(tasks), index, pair, opening, south, north))
        return tasks

    def header(self) -> dict[str, Any]:
        return {"format": RESULTS_FORMAT, "game": self.game_id,
                "engines": [e.describe() for e in self.engines],
                "tournament": self.tournament, "games": self.games,
                "control": self.control.describe(), "max_plies": self.max_plies,
                "openings": {"source": self.openings_source, "count": len(self.openings),
                             "order": self.order},
                "seed": self.seed, "adjudicate_nodes": self.adjudicate_nodes,
                "tables": self.tables, "sprt": self.sprt}


_loaded_tables: dict[str, Any] = {}
_tables_lock = threading.Lock()


def _tables(config: MatchConfig) -> Any:
    """The match's endgame tables (None: none), read once per process."""
    if config.tables is None or config.adjudicate_nodes is None:
        return None
    with _tables_lock:
        if config.tables not in _loaded_tables:
            from katra.api import load_tables
            _loaded_tables[config.tables] = load_tables(config.tables, config.game_id)
        return _loaded_tables[config.tables]


def game_entry(task: GameTask, result: GameResult) -> dict[str, Any]:
    """A game's line of the results file."""
    state = result.state
    moves = [state.action_text(a) for a in state.move_stack]
    return {"game": task.number, "pairing": task.pairing, "pair": task.pair,
            "opening": task.opening, "south": task.south, "north": task.north,
            "result": result.result, "termination": result.termination,
            "reason": result.reason, "faulty": result.faulty, "line": result.line,
            "plies": len(moves), "moves": " ".join(moves),
            "seconds": [round(s, 6) for s in result.seconds]}


def game_record(config: MatchConfig, names: list[str], task: GameTask,
                result: GameResult) -> str:
    """A game's record (docs/api.md, "Game records") with the match's tags."""
    reason = result.reason if result.line is None else f"{result.reason}: {result.line!r}"
    return result.state.record(tags={
        "event": f"katra match {config.game_id}, game {task.number + 1}",
        "south": names[task.south], "north": names[task.north],
        "decision": result.result, "reason": reason})


# ---------------------------------------------------------------- seats shared by threads

class SeatPool:
    """Started engines, idle ones kept for the next game; every one alive is known, so
    that ``kill_all`` (Ctrl-C, the end) leaves no process behind."""

    def __init__(self, config: MatchConfig) -> None:
        self.config = config
        self._idle: dict[int, list[Seat]] = {}
        self._alive: set[Seat] = set()
        self._lock = threading.Lock()
        self._stopped = False

    def take(self, engine: int) -> Seat:
        with self._lock:
            if self._stopped:
                raise EngineStartError("the match is stopping")
            idle = self._idle.get(engine)
            if idle:
                return idle.pop()
        seat = start_seat(self.config.engines[engine], self.config.game_id,
                          self.config.handshake_timeout)
        with self._lock:
            self._alive.add(seat)
            stopped = self._stopped
        if stopped:
            self.discard(seat)
            raise EngineStartError("the match is stopping")
        return seat

    def give_back(self, engine: int, seat: Seat) -> None:
        with self._lock:
            if not self._stopped:
                self._idle.setdefault(engine, []).append(seat)
                return
        self.discard(seat)

    def discard(self, seat: Seat) -> None:
        """Stop a seat (after a fault: its engine is started afresh for its next game)."""
        with self._lock:
            self._alive.discard(seat)
        seat.kill()
        seat.close()

    def close_all(self, kill: bool = False) -> None:
        with self._lock:
            self._stopped = True
            seats = list(self._alive)
            self._alive.clear()
            self._idle.clear()
        for seat in seats:
            if kill:
                seat.kill()
            seat.close()


def play_task(config: MatchConfig, pool: SeatPool, task: GameTask,
              stop: threading.Event | None) -> GameResult | None:
    """Play one game with seats from ``pool``; a seat that faults is discarded."""
    from katra.api import State
    seats: list[Seat] = []
    for side, engine in enumerate((task.south, task.north)):
        try:
            seats.append(pool.take(engine))
        except EngineStartError as exc:
            for seat, owner in zip(seats, (task.south, task.north)):
                pool.give_back(owner, seat)
            if stop is not None and stop.is_set():
                return None
            fault = EngineFault("crash", f"could not be started again ({exc})")
            return GameResult("1-0" if side == 1 else "0-1", fault.kind,
                              f"{('South', 'North')[side]} {fault.problem}", side, None,
                              State.from_text(task.opening), (0.0, 0.0))
    south, north = seats
    result = None
    try:
        result = play_game((south, north), State.from_text(task.opening), config.control,
                           config.max_plies, config.adjudicate_nodes, _tables(config), stop)
    finally:
        for side, (seat, engine) in enumerate(zip(seats, (task.south, task.north))):
            if result is None or result.faulty == side:
                pool.discard(seat)
            else:
                pool.give_back(engine, seat)
    if stop is not None and stop.is_set():
        return None
    return result


#: What a game leaves: its task, its results-file entry and its record (None when no
#: records are kept).  Made where the game was played: a State sent between processes
#: loses its move stack.
Played = tuple[GameTask, dict[str, Any], "str | None"]


def written(config: MatchConfig, names: list[str] | None, task: GameTask,
            result: GameResult) -> Played:
    record = None if names is None else game_record(config, names, task, result)
    return task, game_entry(task, result), record


def play_pair_remote(config: MatchConfig, tasks: list[GameTask],
                     names: list[str] | None) -> list[Played]:
    """A dask task: play ``tasks`` (a pair of games) with engines started here."""
    pool = SeatPool(config)
    try:
        played = []
        for task in tasks:
            result = play_task(config, pool, task, None)
            assert result is not None
            played.append(written(config, names, task, result))
        return played
    finally:
        pool.close_all()


# ---------------------------------------------------------------- the match

@dataclass
class MatchRun:
    """A match under way: its standings, the engines' names, and why it ended."""

    config: MatchConfig
    names: list[str]
    standings: Standings
    planned: int
    interrupted: bool = False
    stopped_by_sprt: bool = False
    skipped: int = 0
    errors: list[str] = field(default_factory=list)


def check_engines(config: MatchConfig, pool: SeatPool) -> list[str]:
    """Start every engine once (bad input if one cannot play): their names.  The seats
    stay in the pool for the first games."""
    names = []
    for engine in range(len(config.engines)):
        seat = pool.take(engine)
        names.append(seat.name)
        pool.give_back(engine, seat)
    return names


def run_match(config: MatchConfig, results: ResultsFile | None = None,
              records: str | None = None, concurrency: int = 1, executor: Any = None,
              on_game: Callable[[MatchRun], None] | None = None) -> MatchRun:
    """Play the match: its games in ``concurrency`` threads (or on ``executor``, a dask
    client), each written to ``results`` and ``records`` as it ends.

    Bad input (an engine that cannot play) raises before any game, nothing written.
    Ctrl-C stops every engine and returns the run with ``interrupted`` set.
    """
    pool = SeatPool(config)
    try:
        names = check_engines(config, pool)
    except BaseException:
        pool.close_all(kill=True)
        raise
    standings = Standings(config.pairings())
    done = {entry["game"] for entry in results.done} if results is not None else set()
    if results is not None:
        for entry in results.done:
            standings.add(entry)
    tasks = [task for task in config.tasks() if task.number not in done]
    run = MatchRun(config, names, standings, len(config.tasks()), skipped=len(done))
    records_file: RecordsFile | None = None
    try:
        if results is not None:
            results.open()
        if records is not None:
            records_file = RecordsFile(records)
        stop = threading.Event()

        record_names = names if records_file is not None else None

        def finished(task: GameTask, entry: dict[str, Any], record: str | None) -> None:
            if results is not None:
                results.write(entry)
            if records_file is not None and record is not None:
                records_file.write(record)
            standings.add(entry)
            if on_game is not None:
                on_game(run)
            if config.sprt is not None and len(config.engines) == 2:
                verdict = standings.by_pairing[0].statistics(config.sprt)["sprt"]
                if verdict["result"] is not None:
                    run.stopped_by_sprt = True
                    stop.set()

        try:
            if executor is not None:
                pool.close_all()
                _run_on_cluster(config, tasks, executor, record_names, finished, stop)
            else:
                _run_on_threads(config, pool, tasks, concurrency, record_names, finished, stop)
        except KeyboardInterrupt:
            run.interrupted = True
            stop.set()
            pool.close_all(kill=True)
    finally:
        pool.close_all(kill=True)
        if results is not None:
            results.close()
        if records_file is not None:
            records_file.close()
    return run


def _run_on_threads(config: MatchConfig, pool: SeatPool, tasks: list[GameTask],
                    concurrency: int, names: list[str] | None,
                    finished: Callable[[GameTask, dict[str, Any], str | None], None],
                    stop: threading.Event) -> None:
    todo: Iterator[GameTask] = iter(tasks)
    todo_lock = threading.Lock()
    played: queue.Queue[Played | BaseException | None] = queue.Queue()

    def work() -> None:
        try:
            while not stop.is_set():
                with todo_lock:
                    task = next(todo, None)
                if task is None:
                    break
                result = play_task(config, pool, task, stop)
                if result is not None:
                    played.put(written(config, names, task, result))
        except BaseException as exc:  # handed to the main thread, which raises it
            played.put(exc)
        finally:
            played.put(None)

    threads = [threading.Thread(target=work, daemon=True, name=f"katra-match-{k}")
               for k in range(max(1, min(concurrency, len(tasks))))]
    for thread in threads:
        thread.start()
    ended = False
    try:
        running = len(threads)
        while running:
            try:
                item = played.get(timeout=0.1)  # a timeout: Ctrl-C is seen at once
            except queue.Empty:
                continue
            if item is None:
                running -= 1
            elif isinstance(item, BaseException):
                stop.set()
                raise item
            elif not stop.is_set():
                finished(*item)
        ended = True
    finally:
        stop.set()
        pool.close_all(kill=not ended)  # at the end: quit; on Ctrl-C or an error: kill
        for thread in threads:
            thread.join(timeout=5.0)


def _run_on_cluster(config: MatchConfig, tasks: list[GameTask], client: Any,
                    names: list[str] | None,
                    finished: Callable[[GameTask, dict[str, Any], str | None], None],
                    stop: threading.Event) -> None:
    """One dask task per pair of games (the pair's two games share its engines)."""
    import importlib
    as_completed: Any = importlib.import_module("distributed").as_completed
    groups: dict[tuple[int, int], list[GameTask]] = {}
    for task in tasks:
        groups.setdefault((task.pair, task.pairing), []).append(task)
    futures = [client.submit(play_pair_remote, config, group, names, pure=False)
               for group in groups.values()]
    try:
        for future in as_completed(futures, loop=client.loop):
            if stop.is_set():
                break
            for task, entry, record in future.result():
                if stop.is_set():
                    break
                finished(task, entry, record)
    finally:
        client.cancel(futures)


def check_config(config: MatchConfig) -> None:
    """Bad input found before anything starts (KatraError)."""
    if len(config.engines) < 2:
        raise KatraError("a match needs at least two --engine")
    if len(config.engines) > 2 and config.tournament is None:
        raise KatraError(f"{len(config.engines)} engines need --tournament "
                         f"{' or '.join(TOURNAMENTS)}")
    if config.sprt is not None and len(config.engines) != 2:
        raise KatraError("--sprt tests two engines, not a tournament")
    if config.tables is not None:
        if config.adjudicate_nodes is None:
            raise KatraError("--tables goes with --adjudicate proven")
        _tables(config)  # a missing, damaged or another game's file: bad input now
