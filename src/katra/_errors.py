"""Exceptions raised by every part of katra (both backends, the API and the CLI).

All of them are ``ValueError`` subclasses, so ``except ValueError`` catches
any bad input; the message always names what was wrong.
"""


class KatraError(ValueError):
    """Base class of katra's input errors."""


class UnknownGameError(KatraError):
    """A game id or name that katra does not know."""


class PositionError(KatraError):
    """A position text that cannot be read (the message names the field)."""


class IllegalMoveError(KatraError):
    """An action or move text that is malformed, out of range or illegal here."""


class BufferItemError(KatraError):
    """A caller's buffer whose item type cannot hold the values to be written
    (seed counts above 255 in a uint8 buffer, seed counts in a bool buffer)."""


class ArgumentError(KatraError):
    """An argument outside its documented range (a depth, count, seed, ply limit, time,
    number of jobs...), or arguments that do not go together; the message names it.
    Every layer raises it, before any work starts (katra._limits)."""


class ArgumentTypeError(ArgumentError, TypeError):
    """An argument of the wrong type (a float, bool or str where an int is expected):
    both a ``TypeError`` and, like every katra input error, a ``ValueError``."""


def extra_hint(extra: str) -> str:
    """How to install katra's optional ``extra`` (pyproject.toml), as README's "Install and
    run" says: katra is installed from its source folder or from a wheel file."""
    return (f"pip install '.[{extra}]' in katra's source folder, or pip install "
            f"'WHEEL[{extra}]' with the path of katra's wheel file (dist/katra-*.whl)")
