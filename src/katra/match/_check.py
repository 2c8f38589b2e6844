"""``katra match --check``: does an engine follow the play protocol? (docs/match.md,
"Checking an engine").

Each check is a ``CheckItem``, passed or failed with the problem in words:
the handshake (``id name``, ``games``, ``protocolok``), ``isready``, then on
each game the engine lists (or the one asked for): legal answers to
``position ... moves ...`` in positions of katra's seeded random games, each kind
of ``go`` limit (a clock and its increment, ``movetime``, ``nodes``, ``depth``)
answered within the time it gives plus the margin, ``go infinite`` ended by
``stop``, and at the end ``quit`` obeyed.
"""
from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

from ._engine_process import (
    QUIT_TIMEOUT,
    EngineFault,
    EngineSpec,
    ProcessSeat,
    checked_action,
)
from ._protocol import FAMILY_WILDCARD, GoLimits, parse_bestmove, plays_game, position_line

#: Positions with moves asked per game, from this many seeded random games.
POSITIONS_PER_GAME = 12
#: Milliseconds of the clocks and movetime the timed checks give.
CHECK_MS = 200
#: Seconds an engine has to end ``go infinite`` after ``stop``.
STOP_TIMEOUT = 2.0
#: Seconds ``go infinite`` runs before ``stop`` is sent.
INFINITE_RUN = 0.1


@dataclass(frozen=True)
class CheckItem:
    """One check: its name, whether it passed, and what happened (the problem if not)."""

    name: str
    passed: bool
    detail: str


@dataclass(frozen=True)
class CheckReport:
    command: str
    name: str | None
    games: tuple[str, ...]
    items: tuple[CheckItem, ...]

    @property
    def passed(self) -> bool:
        return all(item.passed for item in self.items)


def _positions(game_id: str, count: int, seed: int) -> list[tuple[str, list[str]]]:
    """``(start text, move texts)`` of positions along seeded random games (not finished)."""
    import random

    from katra.api import State
    rng = random.Random(f"{seed}:{game_id}")
    found: list[tuple[str, list[str]]] = []
    while len(found) < count:
        state = State(game_id)
        start = state.text()
        moves: list[str] = []
        stop_at = rng.randrange(0, 60)
        while not state.is_terminal() and len(moves) < stop_at:
            action = rng.choice(state.legal_actions())
            moves.append(state.action_text(action))
            state.push(action)
        if not state.is_terminal():
            found.append((start, moves))
    return found


class _Checker:
    def __init__(self, seat: ProcessSeat, margin: float) -> None:
        self.seat = seat
        self.margin = margin
        self.items: list[CheckItem] = []
        self.broken = False  # the engine died or lost sync: later checks are not run

    def check(self, name: str, run: Callable[[], str]) -> None:
        if self.broken:
            return
        try:
            self.items.append(CheckItem(name, True, run()))
        except EngineFault as fault:
            said = f" (it sent {fault.line!r})" if fault.line is not None else ""
            self.items.append(CheckItem(name, False, fault.problem + said))
            if fault.kind in ("crash", "no reply", "unreadable line"):
                self.broken = True

    def ask_move(self, start: str, moves: list[str], limits: GoLimits,
                 allowed: float) -> tuple[str, float]:
        from katra.api import State
        state = State.from_text(start)
        for move in moves:
            state.push(move)
        action, _, _, seconds = self.seat.choose(state, start, moves, limits, allowed)
        return state.action_text(action), seconds


def check_engine(command: str, game: str | None, handshake_timeout: float,
                 margin: float, seed: int = 0) -> CheckReport:
    """Run every check on the engine ``command`` (EngineStartError: it cannot start)."""
    began = time.monotonic()
    spec = EngineSpec(command)
    seat = ProcessSeat(spec, None, handshake_timeout)
    games = seat.games
    checker = _Checker(seat, margin)
    checker.items.append(CheckItem(
        "handshake", True, f"id name {seat.id_name!r}, games {' '.join(games)}, "
        f"{len(seat.options)} option(s), in {time.monotonic() - began:.3f} s"))
    try:
        if game is not None and not plays_game(games, game):
            checker.items.append(CheckItem(f"plays {game}", False, f"{game} is not among "
                                           f"the games it lists ({' '.join(games)})"))
            chosen: tuple[str, ...] = ()
        else:
            chosen = (game,) if game is not None else tuple(
                dict.fromkeys(_representative(g) for g in games))

        def ready() -> str:
            seat.send("isready\n")
            seat.expect("readyok")
            return "readyok"

        checker.check("isready", ready)
        known = set(_known_games())
        for game_id in chosen:
            if game_id not in known and not _is_variant(game_id):
                checker.items.append(CheckItem(f"{game_id}", False, "not a game id katra "
                                               "knows (katra.GAME_IDS)"))
                continue
            _check_game(checker, game_id, seed)
        checker.check("quit", lambda: _quit(seat))
    finally:
        seat.kill()
    return CheckReport(command, seat.id_name, tuple(games), tuple(checker.items))


def _known_games() -> tuple[str, ...]:
    from katra._games import GAME_IDS
    return tuple(GAME_IDS)


def _is_variant(game_id: str) -> bool:
    from katra._games import game_by_id
    try:
        game_by_id(game_id)
    except ValueError:
        return False
    return True


def _representative(word: str) -> str:
    """The game checked for a ``games`` word: the id itself, or for a family's
    wildcard (``katro-*``) a small board of the family's named seed count: the
    fewest columns but one (``katro-4x3-s2``)."""
    from katra._games import GAMES, VARIANT_COLS, VARIANT_ROWS, variant
    if not word.endswith(FAMILY_WILDCARD):
        return word
    for named in GAMES.values():
        if named.variant_family + FAMILY_WILDCARD == word:
            rows = VARIANT_ROWS[named.family][0]
            least, most = VARIANT_COLS[(named.family, rows)]
            return variant(named.family, rows, min(least + 1, most), named.seeds_per_hole,
                           named.simplified).id
    return word


def _check_game(checker: _Checker, game_id: str, seed: int) -> None:
    seat = checker.seat
    margin = checker.margin
    positions = _positions(game_id, POSITIONS_PER_GAME, seed)
    def new_game() -> str:
        seat.new_game()
        return "ok, readyok"

    checker.check(f"{game_id}: newgame", new_game)

    def legal_moves() -> str:
        for start, moves in positions:
            checker.ask_move(start, moves, GoLimits(depth=1), 60.0)
        return f"a legal bestmove in each of {len(positions)} positions (go depth 1)"

    checker.check(f"{game_id}: legal moves", legal_moves)
    start, moves = positions[-1]
    ms = CHECK_MS
    timed = [
        ("clock", GoLimits(stime=ms, ntime=ms, sinc=ms // 10, ninc=ms // 10), ms / 1000),
        ("movetime", GoLimits(movetime=ms), ms / 1000),
        ("nodes", GoLimits(nodes=1000), 60.0),
        ("depth", GoLimits(depth=2), 60.0),
    ]
    for kind, limits, budget in timed:
        def timed_move(limits: GoLimits = limits, budget: float = budget) -> str:
            allowed = budget + margin
            move, seconds = checker.ask_move(start, moves, limits, allowed)
            if seconds > allowed:
                raise EngineFault("time forfeit", f"took {seconds:.3f} s, more than "
                                  f"{allowed:g} s ({limits.line()!r} plus the margin)")
            return f"{limits.line()!r}: bestmove {move} in {seconds:.3f} s"
        checker.check(f"{game_id}: go {kind}", timed_move)

    def infinite() -> str:
        from katra.api import State
        state = State.from_text(start)
        for move in moves:
            state.push(move)
        position = position_line(start, moves)
        seat.send(f"{position}\n")
        seat.expect("ok")
        seat.send("go infinite\n")

        def line_before_stop() -> str | None:
            """The next line within INFINITE_RUN, or None (silence is what is due)."""
            try:
                return seat.read_line(time.monotonic() + INFINITE_RUN, "nothing")
            except EngineFault as fault:
                if fault.kind != "no reply":
                    raise
                return None

        early = line_before_stop()
        while early is not None and early.startswith("info"):
            early = line_before_stop()
        if early is not None:
            raise EngineFault("unreadable line", f"answered 'go infinite' with {early!r} "
                              "before stop", early)
        seat.send("stop\n")
        deadline = time.monotonic() + STOP_TIMEOUT
        while True:
            try:
                line = seat.read_line(deadline, f"a bestmove within {STOP_TIMEOUT:g} s of stop")
            except EngineFault as fault:
                if fault.kind == "no reply":
                    checker.broken = True  # it may still answer later: out of step
                raise
            if not line.startswith("info"):
                break
        checked_action(state, parse_bestmove(line) if line.startswith("bestmove ") else "",
                       line)
        return f"stop answered: {line!r}"

    checker.check(f"{game_id}: go infinite, stop", infinite)


def _quit(seat: ProcessSeat) -> str:
    seat.send("quit\n")
    try:
        status = seat._process.wait(timeout=QUIT_TIMEOUT)
    except Exception:
        raise EngineFault("no reply", f"still running {QUIT_TIMEOUT:g} s after quit") from None
    if status != 0:
        raise EngineFault("crash", f"exited with status {status} after quit")
    return "exited with status 0"


def report_lines(report: CheckReport) -> list[str]:
    """The report in words, one line per check, then a summary line."""
    lines = [f"engine   {report.command}", f"id name  {report.name}"]
    for item in report.items:
        lines.append(f"{'pass' if item.passed else 'FAIL'}  {item.name}: {item.detail}")
    failed = sum(not item.passed for item in report.items)
    lines.append(f"{len(report.items) - failed} passed, {failed} failed")
    return lines
