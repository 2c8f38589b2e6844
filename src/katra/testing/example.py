"""A program that speaks both protocols of ``katra diff`` (docs/diff.md).

Perft protocol, one call per count:

    python example.py DEPTH "POSITION TEXT" [MOVE ...]

plays the moves from the position, then prints one ``MOVE COUNT`` line per
legal move, a blank line and the total.  Line protocol, when started without
arguments: reads ``position TEXT``, ``legal``, ``play MOVE``, ``text`` and
``quit`` lines on stdin and answers each (but ``quit``) with one line.

The rules come from ``new_position``: here katra's pure-Python reference;
put your own implementation there (anything with ``legal_actions()``,
``push(action)``, ``pop()`` and ``text()``).  katra is used only to turn
moves into text and back.
"""
from __future__ import annotations

import sys
from collections.abc import Callable, Iterable
from typing import Any

import katra


def new_position(text: str) -> Any:
    """Your implementation of the rules, at the position ``text``."""
    return katra.State.from_text(text, backend="reference")


def read_move(game: katra.Game, word: str) -> int:
    """An action from move text (``c1``, ``offer:a1,c1``, ``pass``) or an int action."""
    return int(word) if word.isdigit() else game.parse_action(word)


def perft(position: Any, depth: int) -> int:
    if depth == 0:
        return 1
    total = 0
    for action in position.legal_actions():
        position.push(action)
        total += perft(position, depth - 1)
        position.pop()
    return total


def divide(depth: int, text: str, moves: list[str]) -> None:
    """The perft protocol: print the divide of the position after ``moves``."""
    game = katra.game(text.split(" ")[0])
    position = new_position(text)
    for word in moves:
        position.push(read_move(game, word))
    total = 0
    for action in position.legal_actions():
        position.push(action)
        count = perft(position, depth - 1)
        position.pop()
        print(game.action_text(action), count)
        total += count
    print()
    print(total)


def serve(lines: Iterable[str], reply: Callable[[str], None]) -> None:
    """The line protocol: one reply per command but ``quit``."""
    game = katra.game("katro")
    position: Any = None
    for line in lines:
        command, _, argument = line.strip().partition(" ")
        try:
            if command == "position":
                game = katra.game(argument.split(" ")[0])
                position = new_position(argument)
                reply("ok")
            elif command == "legal":
                reply(" ".join(game.action_text(a) for a in position.legal_actions()))
            elif command == "play":
                position.push(read_move(game, argument))
                reply("ok")
            elif command == "text":
                reply(position.text())
            elif command == "quit":
                return
            else:
                reply(f"error unknown command {command!r}")
        except Exception as exc:  # report it and carry on: katra stops at the first error
            reply(f"error {type(exc).__name__}: {exc}".replace("\n", " "))


def main(argv: list[str] | None = None) -> None:
    argv = sys.argv[1:] if argv is None else argv
    if argv:
        divide(int(argv[0]), argv[1], argv[2:])
    else:
        serve(sys.stdin, lambda line: print(line, flush=True))


if __name__ == "__main__":
    main()
