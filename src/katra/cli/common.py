"""What every part of the command line shares: exit statuses, the two error
types (reported as one line), argparse with one-line errors, the argument
types, and loading a position from a game name or a position text."""
from __future__ import annotations

import argparse
from typing import Any, NoReturn

EXIT_BAD_INPUT = 2
EXIT_FAILURE = 1

#: The engine searches at most this many plies (katra.search).
MAX_SEARCH_DEPTH = 64


class UsageError(Exception):
    """Bad command-line input: reported as one line, exit status 2."""


class CommandFailed(Exception):
    """A failure not caused by the input: one line, status 1."""


class Parser(argparse.ArgumentParser):
    """argparse, but errors are one line and exit status 2."""

    def error(self, message: str) -> NoReturn:
        raise UsageError(f"{self.prog}: {message}")


def non_negative_arg(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"expected a number >= 0, got {value}")
    return value


def positive_int_arg(text: str) -> int:
    value = non_negative_arg(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected a number >= 1, got {value}")
    return value


def seed_arg(text: str) -> int:
    value = non_negative_arg(text)
    if value >= 2**64:
        raise argparse.ArgumentTypeError(f"expected a seed in 0..2**64-1, got {value}")
    return value


def search_depth_arg(text: str) -> int:
    value = positive_int_arg(text)
    if value > MAX_SEARCH_DEPTH:
        raise argparse.ArgumentTypeError(f"expected a depth of at most {MAX_SEARCH_DEPTH}, "
                                         f"got {value}")
    return value


def seconds_arg(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number of seconds, got {text!r}") from None
    if not 0 < value < 1e6:  # also refuses nan and inf
        raise argparse.ArgumentTypeError(f"expected seconds > 0, got {text}")
    return value


def side_arg(text: str) -> int:
    side = {"s": 0, "south": 0, "n": 1, "north": 1}.get(text.strip().lower())
    if side is None:
        raise argparse.ArgumentTypeError(f"expected S or N, got {text!r}")
    return side


def load_state(position: str) -> Any:
    """A State from a game name (its start position) or a position text."""
    from katra.api import State, load_position
    return State.from_text(load_position(position).text())


def write_text_file(path: str, text: str, command: str) -> None:
    """Write an output file (SVG, HTML); a path that cannot be written is a UsageError."""
    try:
        with open(path, "w", encoding="utf-8") as file:
            file.write(text)
    except OSError as exc:
        raise UsageError(f"{command}: cannot write {path!r}: {exc.strerror or exc}") from None
