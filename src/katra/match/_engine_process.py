"""The referee's side of an engine: a seat at the board (docs/match.md).

A ``Seat`` is what the referee asks for moves.  Two kinds:

* ``ProcessSeat``: a program started from its command line, speaking the
  play protocol (docs/protocol.md) on stdin/stdout, in its own process group
  so that nothing it starts outlives the match;
* ``PlayerSeat``: one of katra's built-in players (``katra:SPEC``) called
  in-process through ``katra.match.Player``, with no pipe in between.

Everything an engine does wrong while it plays raises ``EngineFault``
(its kind, the problem in words, the exact offending line); the referee turns
it into a lost game.  What goes wrong before any game (the command does not
start, no handshake, the game is not listed, an option refused) raises
``EngineStartError``, a bad-input error.
"""
from __future__ import annotations

import os
import select
import shlex
import signal
import subprocess
import tempfile
import threading
import time
from abc import ABC, abstractmethod
from collections.abc import Sequence
from dataclasses import dataclass
from typing import IO, TYPE_CHECKING

from katra._errors import KatraError

from ._protocol import (
    Choice,
    GoLimits,
    Handshake,
    Info,
    Option,
    Player,
    ProtocolError,
    parse_bestmove,
    plays_game,
    position_line,
    protocol_line,
    setoption_line,
)

if TYPE_CHECKING:
    from katra.api import State

#: Seconds an engine may take to answer ``isready``, ``newgame``, ``position`` and
#: ``setoption`` (a reply that needs no search).
REPLY_TIMEOUT = 10.0
#: Seconds an engine has to exit after ``quit`` before it is killed.
QUIT_TIMEOUT = 1.0
#: Characters of an engine's stderr kept for error messages.
STDERR_TAIL = 2000

#: The kinds of fault, each a lost game (docs/match.md, "Forfeits").
FAULTS = ("illegal move", "time forfeit", "no reply", "crash", "unreadable line", "error reply")


class EngineStartError(KatraError):
    """An engine that cannot take part: it does not start, gives no handshake, does not
    play the game, or refuses an option (bad input: nothing is played)."""


class EngineFault(Exception):
    """An engine broke the protocol or the rules: ``kind`` (one of FAULTS), ``problem``
    in words and ``line`` the exact line it sent (None when it sent none)."""

    def __init__(self, kind: str, problem: str, line: str | None = None) -> None:
        super().__init__(problem)
        self.kind = kind
        self.problem = problem
        self.line = line


@dataclass(frozen=True)
class EngineSpec:
    """One ``--engine``: a command line or ``katra:SPEC``, a display name (None: the
    engine's own ``id name``, or the spec) and ``setoption`` pairs."""

    command: str
    name: str | None = None
    options: tuple[tuple[str, str], ...] = ()

    @property
    def builtin(self) -> str | None:
        """The player spec of ``katra:SPEC``, else None."""
        return self.command[len("katra:"):] if self.command.startswith("katra:") else None

    def describe(self) -> dict[str, object]:
        return {"command": self.command, "name": self.name,
                "options": [list(pair) for pair in self.options]}


#: An engine's answer to one ``go``: the action, the word it sent (a built-in
#: player's: its action number), its infos and the seconds it took as katra measured
#: them (a plain tuple: the referee's hot path).  A process's move is legal (checked
#: on reading); a player's is checked by the referee's push.
Move = tuple[int, str, tuple[Info, ...], float]


class Seat(ABC):
    """An engine at the board.  ``name`` is known once started."""

    name: str
    spec: EngineSpec
    #: Whether ``choose`` reads ``moves`` (the referee writes them only then).
    wants_move_texts = True

    @abstractmethod
    def new_game(self) -> None:
        """Forget the previous game (EngineFault if the engine fails to answer)."""

    @abstractmethod
    def choose(self, state: State, start: str, moves: Sequence[str], limits: GoLimits,
               timeout: float) -> Move:
        """The move for ``state`` (reached from ``start`` by ``moves``, move texts); the
        answer must come within ``timeout`` seconds.  Legality is the referee's check."""

    @abstractmethod
    def close(self) -> None:
        """Stop the engine (quit, then kill what is left); safe to call twice."""

    def kill(self) -> None:
        """Stop at once (Ctrl-C); safe from any thread."""
        self.close()


def _read_move(state: State, word: str) -> int:
    """The action of a bestmove word: move text or an integer action (range-checked)."""
    game = state.game
    if word.isascii() and word.isdigit():
        action = int(word)
        if action >= game.num_actions:
            raise ValueError(f"action {action} is outside 0..{game.num_actions - 1}")
        return action
    return game.parse_action(word)


def checked_action(state: State, word: str, line: str) -> int:
    """The legal action ``word`` names, or an ``illegal move`` fault quoting ``line``."""
    try:
        action = _read_move(state, word)
    except ValueError as exc:
        raise EngineFault("illegal move", f"sent the unreadable move {word!r} ({exc})",
                          line) from None
    if not state.is_legal(action):
        raise EngineFault("illegal move", f"played {word!r}, not a legal move in "
                          f"{state.text()!r}", line)
    return action


# ---------------------------------------------------------------- a program

def split_engine_command(command: str) -> list[str]:
    """``COMMAND`` split like a shell would (never run through one), as ``katra diff``."""
    from katra.testing import split_command
    try:
        return split_command(command)
    except ValueError as exc:
        raise EngineStartError(str(exc)) from None


class _Lines:
    """The lines of a pipe, read with a timeout: ``select`` on the file descriptor where
    the system has it for pipes (POSIX), else a reader thread."""

    def __init__(self, stream: IO[bytes]) -> None:
        self._fd = stream.fileno()
        self._buffer = b""
        self._eof = False
        self._thread_lines: list[bytes | None] | None = None
        if os.name != "posix":
            self._thread_lines = []
            self._ready = threading.Condition()
            threading.Thread(target=self._pump, args=(stream,), daemon=True).start()

    def _pump(self, stream: IO[bytes]) -> None:
        for line in stream:
            with self._ready:
                assert self._thread_lines is not None
                self._thread_lines.append(line)
                self._ready.notify()
        with self._ready:
            assert self._thread_lines is not None
            self._thread_lines.append(None)
            self._ready.notify()

    def read(self, deadline: float) -> bytes | None:
        """The next line (without its end), None at end of file; TimeoutError past
        ``deadline`` (a time.monotonic() value)."""
        if self._thread_lines is not None:
            with self._ready:
                while not self._thread_lines:
                    left = deadline - time.monotonic()
                    if left <= 0 or not self._ready.wait(left):
                        if not self._thread_lines:
                            raise TimeoutError
                line = self._thread_lines.pop(0)
            return None if line is None else line.rstrip(b"\r\n")
        while True:
            end = self._buffer.find(b"\n")
            if end >= 0:
                line, self._buffer = self._buffer[:end], self._buffer[end + 1:]
                return line.rstrip(b"\r")
            if self._eof:
                if self._buffer:
                    line, self._buffer = self._buffer, b""
                    return line
                return None
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError
            if not select.select([self._fd], [], [], left)[0]:
                raise TimeoutError
            chunk = os.read(self._fd, 65536)
            if chunk:
                self._buffer += chunk
            else:
                self._eof = True


def _kill_group(process: subprocess.Popen[bytes]) -> None:
    """Stop a program katra started, with anything it started in its session."""
    if os.name == "posix":
        try:
            os.killpg(process.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass
    try:
        process.kill()
    except OSError:
        pass


class ProcessSeat(Seat):
    """An engine program: started, handshaken and given its options at once
    (EngineStartError if any of that fails, the program then stopped); ``game_id``
    must be among the games it lists (None: any list will do)."""

    def __init__(self, spec: EngineSpec, game_id: str | None, handshake_timeout: float) -> None:
        self.spec = spec
        self.command = spec.command
        argv = split_engine_command(spec.command)
        self._stderr = tempfile.TemporaryFile()
        self._lock = threading.Lock()  # kill() from another thread
        self._closed = False
        try:
            self._process = subprocess.Popen(
                argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=self._stderr,
                bufsize=0, start_new_session=os.name == "posix")
        except OSError as exc:
            self._stderr.close()
            raise EngineStartError(f"engine {spec.command!r} cannot be started "
                                   f"({exc.strerror or exc})") from None
        assert self._process.stdout is not None and self._process.stdin is not None
        self._stdin = self._process.stdin
        self._lines = _Lines(self._process.stdout)
        try:
            self._handshake(game_id, handshake_timeout)
        except EngineFault as fault:
            self.kill()
            raise EngineStartError(f"engine {spec.command!r}: {fault.problem}") from None
        except BaseException:
            self.kill()
            raise

    # -- lines

    def stderr_tail(self) -> str:
        try:
            self._stderr.seek(0, os.SEEK_END)
            size = self._stderr.tell()
            self._stderr.seek(max(0, size - STDERR_TAIL))
            return self._stderr.read().decode("utf-8", "replace").strip()
        except (OSError, ValueError):
            return ""

    def send(self, text: str) -> None:
        """Write lines (``text`` ends in a newline); a closed pipe shows on the next read."""
        try:
            self._stdin.write(text.encode())
        except (BrokenPipeError, OSError, ValueError):
            pass

    def read_line(self, deadline: float, waiting_for: str) -> str:
        try:
            raw = self._lines.read(deadline)
        except TimeoutError:
            raise EngineFault("no reply", f"sent no {waiting_for} in time") from None
        except (OSError, ValueError):
            raw = None
        if raw is None:
            status = self._process.poll()
            if status is None:
                try:
                    status = self._process.wait(timeout=QUIT_TIMEOUT)
                except subprocess.TimeoutExpired:
                    status = None
            tail = self.stderr_tail()
            said = f"; its stderr ends: {tail.splitlines()[-1][:200]!r}" if tail else ""
            raise EngineFault("crash", f"exited (status {status}) instead of sending "
                              f"{waiting_for}{said}")
        try:
            line = raw.decode("utf-8")
        except UnicodeDecodeError:
            raise EngineFault("unreadable line", f"sent a line that is not UTF-8 where "
                              f"{waiting_for} was expected",
                              raw.decode("utf-8", "replace")) from None
        if line.startswith("error"):
            raise EngineFault("error reply", f"answered {line!r} where {waiting_for} was "
                              "expected", line)
        return line

    def expect(self, word: str, timeout: float = REPLY_TIMEOUT) -> None:
        line = self.read_line(time.monotonic() + timeout, repr(word))
        if line.strip() != word:
            raise EngineFault("unreadable line", f"sent {line!r} where {word!r} was expected",
                              line)

    # -- the protocol

    def _handshake(self, game_id: str | None, timeout: float) -> None:
        self.send(protocol_line() + "\n")
        deadline = time.monotonic() + timeout
        lines: list[str] = []
        while True:
            line = self.read_line(deadline, f"the handshake ('protocolok') within {timeout:g} s "
                                  "(--handshake-timeout)")
            lines.append(line)
            if line.split(" ", 1)[0] == "protocolok":
                break
        try:
            handshake = Handshake.parse(lines)
        except ProtocolError as exc:
            raise EngineFault("unreadable line", f"sent a handshake that does not read: {exc}",
                              lines[-1]) from None
        self.handshake = handshake
        self.id_name = handshake.name
        self.games = handshake.games
        self.options: dict[str, Option] = {option.name: option for option in handshake.options}
        if game_id is not None and not plays_game(self.games, game_id):
            raise EngineFault("unreadable line", f"does not play {game_id} (its games: "
                              f"{' '.join(self.games)})")
        self.name = self.spec.name or self.id_name
        for option, value in self.spec.options:
            if option not in self.options:
                known = ", ".join(self.options) or "none"
                raise EngineFault("unreadable line", f"has no option {option!r} (its options: "
                                  f"{known})")
            self.send(setoption_line(option, value) + "\n")
            self.expect("ok")
        self.send("isready\n")
        self.expect("readyok")

    def new_game(self) -> None:
        self.send("newgame\nisready\n")
        self.expect("ok")
        self.expect("readyok")

    def choose(self, state: State, start: str, moves: Sequence[str], limits: GoLimits,
               timeout: float) -> Move:
        position = position_line(start, list(moves))
        began = time.perf_counter()
        self.send(f"{position}\n{limits.line()}\n")  # one write: no wait for 'ok' in between
        deadline = time.monotonic() + timeout
        line = self.read_line(deadline, "'ok' to position")
        if line.strip() != "ok":
            raise EngineFault("unreadable line", f"sent {line!r} where 'ok' to position was "
                              "expected", line)
        infos: list[Info] = []
        while True:
            line = self.read_line(deadline, "its bestmove")
            if line.startswith("info"):
                try:
                    infos.append(Info.parse(line))
                except ProtocolError as exc:
                    raise EngineFault("unreadable line", str(exc), line) from None
                continue
            if line.startswith("bestmove"):
                seconds = time.perf_counter() - began
                try:
                    word = parse_bestmove(line)
                except ProtocolError as exc:
                    raise EngineFault("unreadable line", str(exc), line) from None
                return checked_action(state, word, line), word, tuple(infos), seconds
            if not line.strip():
                continue  # a blank line says nothing
            raise EngineFault("unreadable line", f"sent {line!r} where info or bestmove was "
                              "expected", line)

    def close(self) -> None:
        with self._lock:
            if self._closed:
                return
            self._closed = True
        if self._process.poll() is None:
            self.send("quit\n")
            try:
                self._stdin.close()
            except OSError:
                pass
            try:
                self._process.wait(timeout=QUIT_TIMEOUT)
            except subprocess.TimeoutExpired:
                pass
        self._finish()

    def kill(self) -> None:
        with self._lock:
            self._closed = True
        self._finish()

    def _finish(self) -> None:
        _kill_group(self._process)  # the group too: anything the engine started
        try:
            self._process.wait(timeout=QUIT_TIMEOUT)
        except subprocess.TimeoutExpired:
            pass
        for stream in (self._stdin, self._process.stdout, self._stderr):
            try:
                if stream is not None:
                    stream.close()
            except OSError:
                pass

    def reproduce(self) -> str:
        return shlex.join(split_engine_command(self.command))


# ---------------------------------------------------------------- a built-in player

class PlayerSeat(Seat):
    """A built-in player (``katra:SPEC``) called in this process: no pipe, no process."""

    wants_move_texts = False

    def __init__(self, spec: EngineSpec, player: Player) -> None:
        self.spec = spec
        self.player = player
        self.name = spec.name or spec.command
        self._stop = threading.Event()

    def new_game(self) -> None:
        self.player.new_game()

    def choose(self, state: State, start: str, moves: Sequence[str], limits: GoLimits,
               timeout: float) -> Move:
        began = time.perf_counter()
        try:
            choice: Choice = self.player.choose(state, limits, self._stop)
        except Exception as exc:  # a player's bug loses its game; the match goes on
            raise EngineFault("crash", f"raised {type(exc).__name__}: {exc}") from None
        seconds = time.perf_counter() - began
        return choice.action, "", choice.infos, seconds

    def close(self) -> None:
        self.player.close()

    def kill(self) -> None:
        self._stop.set()


def start_seat(spec: EngineSpec, game_id: str, handshake_timeout: float) -> Seat:
    """The seat of one ``--engine`` (EngineStartError: bad input, nothing left running)."""
    builtin = spec.builtin
    if builtin is None:
        return ProcessSeat(spec, game_id, handshake_timeout)
    from ._players import make_player
    try:
        player = make_player(builtin)
        for option, value in spec.options:  # the protocol's options of the player
            player.set_option(option, value)
    except ValueError as exc:
        raise EngineStartError(f"engine {spec.command!r}: {exc}") from None
    except Exception as exc:  # a player that cannot be made here (a missing core feature)
        raise EngineStartError(f"engine {spec.command!r} cannot be started "
                               f"({type(exc).__name__}: {exc})") from None
    return PlayerSeat(spec, player)
