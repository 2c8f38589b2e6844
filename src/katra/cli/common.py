"""What every part of the command line shares: exit statuses, the two error
types (reported as one line), argparse with one-line errors, the argument
types, and loading a position from a game name or a position text."""
from __future__ import annotations

import argparse
from collections.abc import Callable
from typing import Any, NoReturn

from katra._errors import ArgumentError
from katra._limits import (
    MAX_SEARCH_DEPTH,
    MAX_SEARCH_NODES,
    MAX_SEARCH_TIME,
    MAX_SEED,
    check_int,
    check_seconds,
)

EXIT_BAD_INPUT = 2
EXIT_FAILURE = 1


class UsageError(Exception):
    """Bad command-line input: reported as one line, exit status 2."""


class CommandFailed(Exception):
    """A failure not caused by the input: one line, status 1."""


class Parser(argparse.ArgumentParser):
    """argparse, but errors are one line and exit status 2."""

    def error(self, message: str) -> NoReturn:
        raise UsageError(f"{self.prog}: {message}")


def _whole(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None


def int_arg(name: str, minimum: int, maximum: int) -> Callable[[str], int]:
    """An argparse type: a whole number in ``minimum..maximum``, checked by
    katra._limits.check_int (the API's own check, so the message is the same)."""
    def parse(text: str) -> int:
        try:
            return check_int(_whole(text), name, minimum, maximum)
        except ArgumentError as exc:
            raise argparse.ArgumentTypeError(str(exc)) from None
    parse.__name__ = f"{name}_arg"
    return parse


non_negative_arg = int_arg("the number", 0, 2**63 - 1)
positive_int_arg = int_arg("the number", 1, 2**63 - 1)
seed_arg = int_arg("seed", 0, MAX_SEED)
search_depth_arg = int_arg("depth", 1, MAX_SEARCH_DEPTH)
search_nodes_arg = int_arg("nodes", 1, MAX_SEARCH_NODES)  # a node budget: the same on any machine


def seconds_arg(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number of seconds, got {text!r}") from None
    try:
        return check_seconds(value, "time", MAX_SEARCH_TIME)
    except ArgumentError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def side_arg(text: str) -> int:
    side = {"s": 0, "south": 0, "n": 1, "north": 1}.get(text.strip().lower())
    if side is None:
        raise argparse.ArgumentTypeError(f"expected S or N, got {text!r}")
    return side


def load_state(position: str) -> Any:
    """A State from a game name (its start position) or a position text, read once
    (a single word that is no game: UnknownGameError, as katra.api.load_position)."""
    from katra._errors import UnknownGameError
    from katra.api import State
    try:
        return State(position)
    except UnknownGameError:
        if " " not in position.strip():
            raise
        return State.from_text(position)


def write_text_file(path: str, text: str, command: str) -> None:
    """Write an output file (SVG, HTML, a game record) by katra._files' rule: a path that
    cannot be opened is a UsageError (status 2), a write that fails (a full disk,
    /dev/full) CommandFailed (status 1); either leaves the previous file as it was."""
    from katra._files import OutputFile
    try:
        file = OutputFile(path)
    except OSError as exc:
        raise UsageError(f"{command}: cannot write {path!r}: {exc.strerror or exc}") from None
    try:
        with file as stream:
            stream.write(text)
    except OSError as exc:
        raise CommandFailed(f"{command}: cannot write {path!r}: {exc.strerror or exc}") from None
