"""Test engine: answers its 2nd go of a process (or argv[1]'s) with a line that is not of
the protocol ('thinking hard...') instead of bestmove."""
import sys

from well_behaved import Engine

AT = int(sys.argv[1]) if len(sys.argv) > 1 else 2


class Garbage(Engine):
    name = "garbage"

    def go(self, words: list[str]) -> None:
        if self.moves_played + 1 == AT:
            self.moves_played += 1
            self.send("thinking hard...")
            return
        super().go(words)


if __name__ == "__main__":
    Garbage().run()
