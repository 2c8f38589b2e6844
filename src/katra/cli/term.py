"""Terminal output for the command line: consoles, colours and progress (via rich).

* Colours and styles only when stdout is a terminal; otherwise rich writes
  plain text (the tests compare it), never wraps lines and sizes tables to
  their content.
* Progress displays go to stderr, and only when stderr is a terminal; they
  appear after a short delay (quick runs show nothing) and vanish when done.
"""
from __future__ import annotations

import os
import re
import sys
import threading
from contextlib import nullcontext
from typing import Any

from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    SpinnerColumn,
    TaskID,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)

#: Width used for plain (non-terminal) output: wide enough that tables are never squeezed.
PLAIN_WIDTH = 200

#: Seconds a job runs before its progress display appears; the environment
#: variable ``KATRA_PROGRESS_DELAY`` overrides it (0 shows it at once).
PROGRESS_DELAY = 0.4


def progress_delay() -> float:
    """The delay in force: ``KATRA_PROGRESS_DELAY`` if set to a number >= 0, else the default."""
    try:
        delay = float(os.environ.get("KATRA_PROGRESS_DELAY", PROGRESS_DELAY))
    except ValueError:
        return PROGRESS_DELAY
    return delay if delay >= 0 else PROGRESS_DELAY

# Styles of the two players and of the parts of the board.
SOUTH_STYLE = "bold cyan"
NORTH_STYLE = "bold magenta"
PLAYER_STYLES = (SOUTH_STYLE, NORTH_STYLE)


class _Console(Console):
    """rich's console, leaving a closed pipe (``katra replay game.txt | head``) to
    ``katra.cli.main``, which ends every command the same way then (rich would exit 1)."""

    def on_broken_pipe(self) -> None:
        self.quiet = True
        raise BrokenPipeError


def _make_console(stderr: bool) -> Console:
    stream = sys.stderr if stderr else sys.stdout
    tty = stream.isatty()
    return _Console(file=stream, soft_wrap=True, highlight=False, emoji=False, markup=False,
                   width=None if tty else PLAIN_WIDTH, force_terminal=tty or None)


def out() -> Console:
    """A console on stdout: colours only if stdout is a terminal."""
    return _make_console(stderr=False)


def err() -> Console:
    """A console on stderr: colours only if stderr is a terminal."""
    return _make_console(stderr=True)


def stderr_is_tty() -> bool:
    return sys.stderr.isatty()


class _NoProgress:
    """Stands in for a progress display when stderr is not a terminal."""

    def advance(self, amount: float = 1, **fields: Any) -> None:
        pass

    def update(self, **fields: Any) -> None:
        pass

    def __enter__(self) -> _NoProgress:
        return self

    def __exit__(self, *exc: object) -> None:
        pass


class DelayedProgress:
    """One rich progress bar on stderr, shown only if the job outlasts the delay.

    The jobs run in the compiled core without the GIL, so rich's refresh
    thread keeps the elapsed time and spinner moving between updates.
    """

    def __init__(self, description: str, total: float, unit: str, extra: str = "",
                 **fields: Any) -> None:
        columns: list[Any] = [SpinnerColumn(), TextColumn("{task.description}"), BarColumn(),
                              MofNCompleteColumn(), TextColumn(unit)]
        if extra:
            columns.append(TextColumn(extra))
        columns += [TimeElapsedColumn(), TextColumn("eta"), TimeRemainingColumn()]
        self._progress = Progress(*columns, console=err(), transient=True)
        self._task: TaskID = self._progress.add_task(description, total=total, **fields)
        self._lock = threading.Lock()
        self._delay = progress_delay()
        self._timer = threading.Timer(self._delay, self._start)
        self._timer.daemon = True

    def _start(self) -> None:
        with self._lock:
            self._progress.start()

    def advance(self, amount: float = 1, **fields: Any) -> None:
        self._progress.update(self._task, advance=amount, **fields)

    def update(self, **fields: Any) -> None:
        self._progress.update(self._task, **fields)

    def __enter__(self) -> DelayedProgress:
        if self._delay == 0:
            self._start()  # at once, not from a timer thread that could lose the race
        else:
            self._timer.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._timer.cancel()
        if self._timer.ident is not None:  # started (join raises otherwise)
            self._timer.join()
        with self._lock:
            self._progress.stop()  # does nothing if it never started


def progress(description: str, total: float, unit: str, extra: str = "",
             **fields: Any) -> DelayedProgress | _NoProgress:
    """A progress display on stderr if it is a terminal, else a silent stand-in.

    ``extra`` is a rich ``TextColumn`` format, e.g. ``"{task.fields[nodes]:,} nodes"``
    with the field's first value in ``fields``.
    """
    if not stderr_is_tty():
        return _NoProgress()
    return DelayedProgress(description, total, unit, extra, **fields)


def spinner(message: str) -> Any:
    """A transient spinner on stderr while the engine thinks (a no-op off a terminal)."""
    if not stderr_is_tty():
        return nullcontext()
    return err().status(message, spinner="dots")


def strip_styles(text: str) -> str:
    """Drop ANSI escape sequences (for tests and plain comparisons)."""
    return re.sub(r"\x1b\[[0-9;?]*[ -/]*[@-~]|\x1b\][^\x07]*\x07", "", text)

