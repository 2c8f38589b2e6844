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
    """argparse, but errors are one line and exit status 2; a subcommand's options
    may come between its positional arguments (``katra perft gore --cols 3 4``)."""

    _intermixing = False

    def parse_known_args(self, args: Any = None, namespace: Any = None) -> Any:
        if self._intermixing or self._subparsers is not None:
            return super().parse_known_args(args, namespace)
        self._intermixing = True
        try:
            return super().parse_known_intermixed_args(args, namespace)
        finally:
            self._intermixing = False

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


# ---------------------------------------------------------------- variants (docs/rules.md §7)

#: The options that make a variant of a game given by name (docs/cli.md, "Variants").
VARIANT_OPTIONS = ("rows", "cols", "seeds", "simplified")


def add_variant_options(sub: argparse.ArgumentParser) -> None:
    """``--rows R --cols C --seeds S --simplified``: the game named on the command line
    on another board (docs/rules.md §7); set_defaults(variant_of=...) names the
    argument they change (a game name, or a list of them)."""
    group = sub.add_argument_group("variants (docs/rules.md §7; the same as an id such as "
                                   "katro-4x5-s3)")
    group.add_argument("--rows", type=_whole, metavar="R", help="rows of the whole board")
    group.add_argument("--cols", type=_whole, metavar="C", help="columns of the board")
    group.add_argument("--seeds", type=_whole, metavar="S", help="seeds per hole at the start")
    group.add_argument("--simplified", action="store_true", default=None,
                       help="Katra Mpantsaka's simplified start (any own hole may start)")


def variant_id(name: str, args: argparse.Namespace, command: str) -> str:
    """The id of the game ``name`` changed by the variant options given (the name as it
    is when none is): UsageError for a position text, ArgumentError (from katra._games)
    for a size out of range."""
    from katra._errors import UnknownGameError
    from katra._games import find_game, game_with
    given = {key: getattr(args, key, None) for key in VARIANT_OPTIONS}
    if all(value is None for value in given.values()):
        return name
    try:
        find_game(name)
    except UnknownGameError:
        if " " not in name.strip():
            raise
        options = "/".join(f"--{key}" for key, value in given.items() if value is not None)
        raise UsageError(f"{command}: {options} change a game given by name, not a position "
                         f"text") from None
    return game_with(name, **given).id


def apply_variant_options(args: argparse.Namespace) -> None:
    """Replace the game argument named by ``args.variant_of`` by its variant's id."""
    target = getattr(args, "variant_of", None)
    if target is None:
        return
    command = args.variant_command
    value = getattr(args, target)
    if isinstance(value, list):
        if not value and any(getattr(args, key, None) is not None for key in VARIANT_OPTIONS):
            raise UsageError(f"{command}: --rows/--cols/--seeds/--simplified need a GAME")
        setattr(args, target, [variant_id(name, args, command) for name in value])
    elif value is not None:
        setattr(args, target, variant_id(value, args, command))
    elif any(getattr(args, key, None) is not None for key in VARIANT_OPTIONS):
        raise UsageError(f"{command}: --rows/--cols/--seeds/--simplified need a GAME")
