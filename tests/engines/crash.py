"""Test engine: exits with status 3 (no bestmove) when asked for its 3rd move of a process
(or argv[1]'s)."""
import sys

from well_behaved import Engine

AT = int(sys.argv[1]) if len(sys.argv) > 1 else 3


class Crash(Engine):
    name = "crash"

    def go(self, words: list[str]) -> None:
        if self.moves_played + 1 == AT:
            sys.stderr.write("crash.py: crashing on purpose\n")
            sys.exit(3)
        super().go(words)


if __name__ == "__main__":
    Crash().run()
