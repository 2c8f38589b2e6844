"""Other people's programs behind the two protocols of docs/diff.md.

* [PerftProgram][katra.testing.PerftProgram]: one call per divide,
  ``COMMAND DEPTH "START" [MOVE ...]``,
  answered by ``MOVE COUNT`` lines, a blank line and the total;
* [WalkProgram][katra.testing.WalkProgram]: one long-running process answering ``position``,
  ``legal``, ``play``, ``text`` and ``quit`` lines on stdin.

Every failure (cannot start, exits non-zero, no answer within the timeout,
malformed output) raises [ProgramFailed][katra.testing.ProgramFailed] with the first lines of what
came back; the referee adds the position.
"""
from __future__ import annotations

import os
import queue
import shlex
import signal
import subprocess
import tempfile
import threading
from collections.abc import Sequence
from typing import IO

from katra._games import GameSpec
from katra._text import action_text

from ._referee import ProgramFailed, read_move

#: Lines of a program's output quoted in an error message, and characters per line.
QUOTED_LINES = 3
QUOTED_WIDTH = 120


def split_command(command: str) -> list[str]:
    """``COMMAND`` split like a shell would (quotes respected); never run through a shell."""
    try:
        argv = shlex.split(command)
    except ValueError as exc:
        raise ValueError(f"cannot read the command {command!r}: {exc}") from None
    if not argv:
        raise ValueError("the command is empty")
    return argv


def quote_output(*texts: str) -> str:
    """A program's output on one line: its first lines and its last (a traceback's error)."""
    lines = [line.rstrip() for text in texts for line in text.splitlines() if line.strip()]
    if not lines:
        return "nothing"
    shown = lines if len(lines) <= QUOTED_LINES else lines[:QUOTED_LINES - 1] + lines[-1:]
    quoted = [repr(line[:QUOTED_WIDTH] + ("..." if len(line) > QUOTED_WIDTH else ""))
              for line in shown]
    if len(lines) > QUOTED_LINES:
        quoted.insert(QUOTED_LINES - 1, f"({len(lines) - QUOTED_LINES} more lines)")
    return " | ".join(quoted)


def _kill(process: subprocess.Popen[str]) -> None:
    """Stop a program katra started, with anything it started in its session."""
    if os.name == "posix":
        try:
            os.killpg(process.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass
    process.kill()


def _start(argv: list[str], command: str, stdin: int | IO[str] | None,
           stderr: int | IO[str]) -> subprocess.Popen[str]:
    try:
        return subprocess.Popen(argv, stdin=stdin, stdout=subprocess.PIPE, stderr=stderr,
                                text=True, bufsize=1, start_new_session=os.name == "posix")
    except OSError as exc:
        raise ProgramFailed(command, f"cannot be started ({exc.strerror or exc})") from None


def _move_list(spec: GameSpec, tokens: Sequence[str], command: str, output: str,
               reproduce: str) -> list[int]:
    actions: list[int] = []
    for token in tokens:
        try:
            action = read_move(spec, token.rstrip(":"))
        except ValueError as exc:
            raise ProgramFailed(command, f"printed an unreadable move {token!r} ({exc})",
                                output, reproduce) from None
        if action in actions:
            raise ProgramFailed(command, f"listed the move {action_text(spec, action)} twice",
                                output, reproduce)
        actions.append(action)
    return actions


class PerftProgram:
    """A program run once per divide: ``COMMAND DEPTH "START" [MOVE ...]`` (docs/diff.md).

    ``spec`` is the game's ``katra.game(name).spec``; ``start`` the position text
    every call starts from; ``timeout`` seconds per call; ``int_moves``: moves as
    action numbers.  [divide][katra.divide] is what [drill_down][katra.testing.drill_down] asks for.
    """

    command: str
    """The command line, as given."""
    argv: list[str]
    """The command line split into its words (``shlex``): each call's first arguments."""
    spec: GameSpec
    """The game's spec (``katra.game(name).spec``)."""
    start: str
    """The position text every call starts from."""
    timeout: float
    """Seconds a call may take."""
    int_moves: bool
    """Whether moves are passed as action numbers (else as move text)."""

    def __init__(self, command: str, spec: GameSpec, start: str, timeout: float,
                 int_moves: bool = False) -> None:
        self.command = command
        self.argv = split_command(command)
        self.spec = spec
        self.start = start
        self.timeout = timeout
        self.int_moves = int_moves

    def call(self, depth: int, path: Sequence[str]) -> list[str]:
        """The argument list of one call (moves as text, or as actions with ``int_moves``)."""
        moves = [str(read_move(self.spec, m)) if self.int_moves else m for m in path]
        return [*self.argv, str(depth), self.start, *moves]

    def reproduce(self, depth: int, path: Sequence[str]) -> str:
        return shlex.join(self.call(depth, path))

    def divide(self, depth: int, path: Sequence[str]) -> dict[int, int]:
        """``{action: count}`` as the program prints it (ProgramFailed if it cannot)."""
        reproduce = self.reproduce(depth, path)
        process = _start(self.call(depth, path), self.command, subprocess.DEVNULL,
                         subprocess.PIPE)
        try:
            stdout, stderr = process.communicate(timeout=self.timeout)
        except subprocess.TimeoutExpired:
            _kill(process)
            stdout, stderr = process.communicate()
            raise ProgramFailed(self.command, f"gave no answer within {self.timeout:g} s "
                                "(--timeout)", quote_output(stdout, stderr), reproduce) from None
        if process.returncode != 0:
            raise ProgramFailed(self.command, f"exited with status {process.returncode}",
                                quote_output(stdout, stderr), reproduce)
        return self.read_divide(stdout, reproduce)

    def read_divide(self, stdout: str, reproduce: str) -> dict[int, int]:
        """Parse ``MOVE COUNT`` lines, a blank line and the total."""
        lines = [line.strip() for line in stdout.splitlines()]
        quoted = quote_output(stdout)

        def bad(problem: str) -> ProgramFailed:
            return ProgramFailed(self.command, problem, quoted, reproduce)

        if "" not in lines:
            raise bad("printed no blank line before the total")
        blank = lines.index("")
        rest = [line for line in lines[blank:] if line]
        if len(rest) != 1 or not rest[0].isdigit():
            raise bad("did not print exactly one total (a whole number) after the blank line")
        counts: list[int] = []
        tokens: list[str] = []
        for line in lines[:blank]:
            words = line.split()
            if len(words) != 2 or not words[1].isdigit():
                raise bad(f"printed {line!r} where a 'MOVE COUNT' line was expected")
            tokens.append(words[0])
            counts.append(int(words[1]))
        actions = _move_list(self.spec, tokens, self.command, quoted, reproduce)
        if sum(counts) != int(rest[0]):
            raise bad(f"printed a total of {rest[0]}, but its counts add up to {sum(counts)}")
        return dict(zip(actions, counts))


class WalkProgram:
    """A long-running program speaking the line protocol (``katra diff --walk``; docs/diff.md).

    Started at once; ``spec``, ``timeout`` (seconds per reply) and ``int_moves`` as for
    [PerftProgram][katra.testing.PerftProgram].  It is the ``side`` of
    [walk][katra.testing.walk]; use it as a context manager (or call ``close``) to stop the program.
    """

    command: str
    """The command line, as given."""
    spec: GameSpec
    """The game's spec (``katra.game(name).spec``)."""
    timeout: float
    """Seconds a reply may take."""
    int_moves: bool
    """Whether moves are exchanged as action numbers (else as move text)."""
    session: list[str]
    """The lines sent since the last ``position`` line: the game so far."""

    def __init__(self, command: str, spec: GameSpec, timeout: float,
                 int_moves: bool = False) -> None:
        self.command = command
        self.spec = spec
        self.timeout = timeout
        self.int_moves = int_moves
        self.session = []
        self._stderr = tempfile.TemporaryFile("w+", encoding="utf-8", errors="replace")
        self._process = _start(split_command(command), command, subprocess.PIPE, self._stderr)
        self._lines: queue.Queue[str | None] = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self._process.stdout is not None
        for line in self._process.stdout:
            self._lines.put(line)
        self._lines.put(None)

    def reproduce(self) -> str:
        """A shell line replaying this game's session: its moves, then the last question."""
        moves = [line for line in self.session[:-1] if line.split(" ")[0] in ("position", "play")]
        lines = " ".join(shlex.quote(line) for line in moves + self.session[-1:] + ["quit"])
        return f"printf '%s\\n' {lines} | {self.command}"

    def _stderr_text(self) -> str:
        self._stderr.seek(0)
        return self._stderr.read()

    def _fail(self, problem: str, output: str = "") -> ProgramFailed:
        return ProgramFailed(self.command, problem, output, self.reproduce())

    def ask(self, line: str) -> str:
        """Send one line, return the one-line reply (without its newline)."""
        self.session.append(line)
        assert self._process.stdin is not None
        try:
            self._process.stdin.write(line + "\n")
            self._process.stdin.flush()
        except (BrokenPipeError, OSError):
            pass  # it exited: the reply below says how
        try:
            reply = self._lines.get(timeout=self.timeout)
        except queue.Empty:
            raise self._fail(f"gave no reply to {line.split(' ')[0]!r} within "
                             f"{self.timeout:g} s (--timeout)",
                             quote_output(self._stderr_text())) from None
        if reply is None:
            status = self._process.wait()
            raise self._fail(f"exited (status {status}) instead of replying to "
                             f"{line.split(' ')[0]!r}", quote_output(self._stderr_text()))
        reply = reply.rstrip("\r\n")
        if reply.startswith("error"):
            raise self._fail(f"replied with an error to {line!r}", quote_output(reply))
        return reply

    def _expect_ok(self, line: str) -> None:
        reply = self.ask(line)
        if reply.strip() != "ok":
            raise self._fail(f"replied {reply!r} to {line.split(' ')[0]!r} instead of 'ok'",
                             quote_output(reply))

    def start(self, text: str) -> None:
        self.session = []
        self._expect_ok(f"position {text}")

    def legal(self) -> list[int]:
        reply = self.ask("legal")
        return _move_list(self.spec, reply.split(), self.command, quote_output(reply),
                          self.reproduce())

    def play(self, action: int) -> None:
        move = str(action) if self.int_moves else action_text(self.spec, action)
        self._expect_ok(f"play {move}")

    def text(self) -> str:
        return self.ask("text")

    def close(self) -> None:
        """Send ``quit``; stop the program if it is still running after the timeout."""
        try:
            if self._process.poll() is None and self._process.stdin is not None:
                self._process.stdin.write("quit\n")
                self._process.stdin.close()
            self._process.wait(timeout=self.timeout)
        except (OSError, subprocess.TimeoutExpired):
            _kill(self._process)
            self._process.wait()
        finally:
            self._stderr.close()

    def __enter__(self) -> WalkProgram:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
